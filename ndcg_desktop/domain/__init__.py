"""Plain data shared by every layer: settings, errors, judgments and runs."""

from ndcg_desktop.domain.data import OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.reading import RunReading
from ndcg_desktop.domain.settings import (
    Cutoffs,
    DataTerms,
    DuplicatePolicy,
    EvalSettings,
    Gain,
    GradeScale,
    Measure,
    QuerySet,
    TiePolicy,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)

__all__ = [
    "Cutoffs",
    "DataTerms",
    "DuplicatePolicy",
    "EvalSettings",
    "Gain",
    "GradeScale",
    "InputError",
    "Measure",
    "OrderKind",
    "Qrels",
    "QuerySet",
    "Run",
    "RunReading",
    "TiePolicy",
    "UnjudgedPolicy",
    "UnknownQueryPolicy",
    "ZeroIdcgPolicy",
]
