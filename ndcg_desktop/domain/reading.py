"""How a run's lines become rankings: decided once, when the run is imported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ndcg_desktop.domain.chunks import ChunkMap, IdMap, describe_id_map
from ndcg_desktop.domain.data import OrderKind
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import DataTerms, GradeScale, TiePolicy


@dataclass(frozen=True)
class RunReading:
    """A stored run's reading settings: its order, its tie policy and its chunk-to-document ID map.

    Import time owns them, in both fronts: a stored run is always scored, pooled and sent for
    judging the way it was imported. To read it another way, import it again under another name.

    >>> r = RunReading.from_dict({"order": "score", "ties": "docid-desc", "id_map": "#"})
    >>> r.ties, r.id_map
    (<TiePolicy.DOCID_DESC: 'docid-desc'>, '#')
    >>> RunReading.from_dict(r.as_dict()) == r
    True
    """

    order: OrderKind = OrderKind.SCORE
    ties: TiePolicy = TiePolicy.DOCID_DESC
    id_map: IdMap | None = None
    notes: tuple[str, ...] = ()  # how the file was read, for the manifest
    empty_queries: tuple[str, ...] = ()  # answered with an empty list (JSONL)

    def __post_init__(self) -> None:
        if not isinstance(self.order, OrderKind):
            object.__setattr__(self, "order", OrderKind(str(self.order)))
        if not isinstance(self.ties, TiePolicy):
            object.__setattr__(self, "ties", TiePolicy.from_text(str(self.ties), "ties"))
        if self.id_map == "":
            raise InputError("the ID map separator must not be empty")
        if isinstance(self.id_map, dict):
            object.__setattr__(self, "id_map", ChunkMap.from_dict(self.id_map))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "empty_queries", tuple(self.empty_queries))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunReading:
        """The stored form (a JSON object in the project file)."""
        return cls(
            order=OrderKind(data.get("order", OrderKind.SCORE.value)),
            ties=data.get("ties", TiePolicy.DOCID_DESC.value),
            id_map=data.get("id_map"),
            notes=tuple(data.get("notes", ())),
            empty_queries=tuple(data.get("empty_queries", ())),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "order": self.order.value,
            "ties": self.ties.value,
            "id_map": self.id_map.as_dict() if isinstance(self.id_map, ChunkMap) else self.id_map,
            "notes": list(self.notes),
            "empty_queries": list(self.empty_queries),
        }

    def terms(self, scale: GradeScale) -> DataTerms:
        """What this run's data owns when judged on ``scale``: its tie policy and ID map, as imported."""
        return DataTerms(scale, self.ties, self.id_map)

    def describe(self) -> str:
        """``ordered by score, ties docid-desc, IDs cut at '#'``."""
        text = f"ordered by {self.order}, ties {self.ties}"
        return text + (f", {describe_id_map(self.id_map)}" if self.id_map is not None else "")


@dataclass(frozen=True)
class ReadingAsked:
    """A reading asked of stored runs (``--order``, ``--ties``, ``--id-map``/``--id-map-file``, or the Python
    API's keywords; None: not asked): a run's own changes nothing, another is refused
    (:func:`ndcg_desktop.tasks.scoring.check_readings`)."""

    order: str | None = None  # score, rank or file (formats.choices.ORDER_CHOICES)
    ties: str | None = None
    id_map: IdMap | None = None


NOTHING_ASKED = ReadingAsked()  # each run read as it was imported
