"""One way every command writes ``--json``: a strict JSON document whatever the project's state (issue 33)."""

from __future__ import annotations

import json
import math
from typing import Any


def json_text(document: object) -> str:
    """``document`` as one strict JSON document (RFC 8259), indented, with a final newline.

    JSON has no NaN and no infinity: they are written as null. A number from numpy is a number; any other object
    (a refusal carried as an object, say) is written as its text, so no state of a project makes ``--json``
    fail half-way.

    >>> print(json_text({"mean": float("nan"), "n": 2}), end="")
    {
      "mean": null,
      "n": 2
    }
    """
    return json.dumps(_plain(document), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _plain(value: object) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    item = getattr(value, "item", None)  # a numpy scalar
    if callable(item) and getattr(value, "shape", None) == ():
        return _plain(item())
    return str(value)
