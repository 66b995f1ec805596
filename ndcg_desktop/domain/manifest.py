"""The type of a JSON document (a manifest, a summary printed by ``--json``): recursive, so nothing is ``Any``.

A manifest is written with :func:`json.dumps` and read back by people and scripts; its shape is documented where
it is built. Nested values are read-only views (``Mapping``, ``Sequence``), so a ``dict[str, int]`` or a
``list[str]`` is one as it is.

>>> import json
>>> manifest: JsonObject = {"k": 10, "runs": ["bm25"], "team": {"ana": {"ratings": 3}}, "caveat": None}
>>> json.loads(json.dumps(manifest)) == manifest
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ForwardRef, TypeAlias

if TYPE_CHECKING:
    JsonValue: TypeAlias = "str | int | float | bool | None | Sequence[JsonValue] | Mapping[str, JsonValue]"
    JsonObject: TypeAlias = "dict[str, JsonValue]"
else:  # the same types at run time, their recursion resolved here wherever typing.get_type_hints meets them
    _VALUE = ForwardRef("JsonValue", module=__name__)
    JsonValue = str | int | float | bool | None | Sequence[_VALUE] | Mapping[str, _VALUE]
    JsonObject = dict[str, JsonValue]

__all__ = ["JsonObject", "JsonValue"]
