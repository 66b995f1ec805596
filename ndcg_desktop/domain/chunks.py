"""Chunk maps: which document each retrieved chunk belongs to (contract rule 11, given as a table).

A RAG retriever returns chunks (``doc12#3``) while judgments are per document. Besides a separator
(``#``: cut each ID at its first ``#``), the mapping can be a file listing each chunk's document
(``chunks.jsonl`` with ``chunk_id`` and ``doc_id``, or CSV/TSV with those columns). A map is named
by its file and that file's SHA-256 in every setting and manifest; two maps are the same map when
they come from the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ndcg_desktop.domain.errors import InputError


@dataclass(frozen=True)
class ChunkMap:
    """chunk ID -> document ID, read from ``source`` (a file name) whose bytes hash to ``sha256``.

    ``pairs`` may be a part of the file's (a stored run keeps the chunks it returned); a map named in
    saved settings text has none (:attr:`loaded` is False): it names the map, it cannot map.

    >>> m = ChunkMap(source="chunks.jsonl", sha256="ab" * 32, pairs=(("d1#0", "d1"), ("d1#1", "d1")))
    >>> m.label()
    'chunks.jsonl (sha256 abababababab…)'
    >>> ChunkMap.from_dict(m.as_dict()) == m, ChunkMap.from_dict(m.reference()) == m
    (True, True)
    """

    source: str
    sha256: str
    pairs: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    loaded: bool = field(default=True, compare=False, repr=False)

    def label(self, quote: Callable[[str], str] = str) -> str:
        """The file and its hash; ``quote`` the file name (``shlex.quote``) where it is to be typed."""
        return f"{quote(self.source)} (sha256 {self.sha256[:12]}…)"

    def mapping(self) -> dict[str, str]:
        if not self.loaded:
            raise InputError(f"the ID map {self.label()} is only named here; give the map file to use it")
        return dict(self.pairs)

    def restricted_to(self, ids: set[str]) -> ChunkMap:
        """The same map (same name and hash) keeping only the chunks in ``ids``."""
        return ChunkMap(self.source, self.sha256, tuple(p for p in self.pairs if p[0] in ids))

    def reference(self) -> dict[str, str]:
        """How settings text and manifests name the map (no pairs)."""
        return {"file": self.source, "sha256": self.sha256}

    def as_dict(self) -> dict[str, Any]:
        """The stored form (a stored run's reading settings): the name, the hash and the pairs."""
        return {**self.reference(), "pairs": [list(p) for p in self.pairs]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkMap:
        if "pairs" not in data:
            return cls(str(data["file"]), str(data["sha256"]), (), loaded=False)
        return cls(str(data["file"]), str(data["sha256"]), tuple((str(c), str(d)) for c, d in data["pairs"]))


IdMap = str | ChunkMap  # a separator, or a chunk map read from a file


def describe_id_map(id_map: IdMap) -> str:
    """``IDs cut at '#'`` or ``IDs mapped by chunks.jsonl (sha256 …)``."""
    if isinstance(id_map, ChunkMap):
        return f"IDs mapped by {id_map.label()}"
    return f"IDs cut at {id_map!r}"
