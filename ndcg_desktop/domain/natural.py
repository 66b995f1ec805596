"""Natural order for IDs: q2 before q10, D9 before D10 (numbers compared by value).

Qt-free so that every view (and the command line) can list query and document IDs the same way.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"\d+")


def natural_key(text: str) -> str:
    """A string sort key in which runs of digits compare by value.

    A string (not a tuple) so that Qt's sort roles and pandas can both compare it. Each run of
    digits becomes its length (four digits) followed by the digits without leading zeros, so a
    longer number sorts after a shorter one whatever its first digit; the original text is appended
    to break ties between spellings such as ``q01`` and ``q1``.

    >>> sorted(["q10", "q2", "q1"], key=natural_key)
    ['q1', 'q2', 'q10']
    """

    def number(match: re.Match[str]) -> str:
        digits = match.group(0).lstrip("0") or "0"
        return f"{len(digits):04d}{digits}"

    return _DIGITS.sub(number, text) + "\x00" + text


def natural_sorted(ids: list[str]) -> list[str]:
    """``ids`` in natural order (see :func:`natural_key`)."""
    return sorted(ids, key=natural_key)
