"""Why an agreement figure is undefined, in the interface language.

The core says why in English sentences (``scoring.agreement``, ``tasks.agreement``: "every rating
is grade 2: alpha is undefined without variation"); the window words each one it knows, wherever it
appears (a figure's text, or "alpha: …; unanimous: …" in a table's *Undefined because* column).
Exports keep the core's words. tests/gui/test_agreement_reasons.py finds a reason added to the core
without words here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP

translate = QCoreApplication.translate

_NAME = r"(?P<{}>[^;]+?)"
REASONS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"no item rated by two or more annotators"),
        QT_TRANSLATE_NOOP("agreement", "no item rated by two or more annotators"),
    ),
    (
        re.compile(rf"no item rated by both {_NAME.format('a')} and {_NAME.format('b')}(?=;|$)"),
        QT_TRANSLATE_NOOP("agreement", "no item rated by both {a} and {b}"),
    ),
    (re.compile(r"no item rated by both(?=;|$)"), QT_TRANSLATE_NOOP("agreement", "no item rated by both")),
    (
        re.compile(r"both gave grade (?P<grade>-?\d+) to every item: kappa is undefined without variation"),
        QT_TRANSLATE_NOOP("agreement", "both gave grade {grade} to every item: kappa is undefined without variation"),
    ),
    (
        re.compile(r"kappa is undefined for these grades"),
        QT_TRANSLATE_NOOP("agreement", "kappa is undefined for these grades"),
    ),
    (
        re.compile(r"every rating is grade (?P<grade>-?\d+): alpha is undefined without variation"),
        QT_TRANSLATE_NOOP("agreement", "every rating is grade {grade}: alpha is undefined without variation"),
    ),
    (
        re.compile(r"alpha is undefined for these grades"),
        QT_TRANSLATE_NOOP("agreement", "alpha is undefined for these grades"),
    ),
    (re.compile(r"needs two or more scored runs"), QT_TRANSLATE_NOOP("agreement", "needs two or more scored runs")),
    (
        re.compile(r"every run has the same mean under one of the two"),
        QT_TRANSLATE_NOOP("agreement", "every run has the same mean under one of the two"),
    ),
    (
        re.compile(r"tau is undefined for these means"),
        QT_TRANSLATE_NOOP("agreement", "tau is undefined for these means"),
    ),
]


# The figures a table cell names before their reasons ("alpha: …; unanimous: …").
FIGURE_NAMES = {
    "raw": QT_TRANSLATE_NOOP("agreement", "raw agreement"),
    "linear": QT_TRANSLATE_NOOP("agreement", "kappa (linear)"),
    "quadratic": QT_TRANSLATE_NOOP("agreement", "kappa (quadratic)"),
    "alpha": QT_TRANSLATE_NOOP("agreement", "alpha"),
    "unanimous": QT_TRANSLATE_NOOP("agreement", "unanimous"),
}
_FIGURE = re.compile(r"(?:^|(?<=; ))(?P<name>" + "|".join(FIGURE_NAMES) + r")(?=: )")


def reason_words(text: str) -> str:
    """``text`` with every reason the core gives in the interface language (anything else as it is)."""
    text = _FIGURE.sub(lambda match: translate("agreement", FIGURE_NAMES[match["name"]]), text)
    for pattern, words in REASONS:
        text = pattern.sub(_worded(words), text)
    return text


def _worded(words: str) -> Callable[[re.Match[str]], str]:
    return lambda match: translate("agreement", words).format(**match.groupdict())
