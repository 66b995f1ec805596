"""Adjudication (issue 15): the items annotators rated differently, most consequential first, and settling them.

Each differing item gets its adjudicated grade by a pick (:func:`pick`) or by a rule applied to the rest
(:func:`apply_rule`); the way each was settled is recorded with the version (``judgments.adjudication``) and
named in its manifest (:func:`team_manifest`). Freezing waits until every differing item is settled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.names import MODEL_PREFIX
from ndcg_desktop.domain.settings import Gain, grade_label
from ndcg_desktop.scoring.ranking import top_documents
from ndcg_desktop.scoring.sensitivity import grade_swings
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.ratings import PICK
from ndcg_desktop.store.undo import Taken

MEDIAN, MAJORITY, LOWEST, HIGHEST = "median", "majority", "lowest", "highest"
RULES = {
    MEDIAN: "median rounded down (the lower middle rating)",
    MAJORITY: "majority (a tie is left to the adjudicator)",
    LOWEST: "lowest rating",
    HIGHEST: "highest rating",
}


def rule_grade(grades: Sequence[int], rule: str) -> int | None:
    """The grade ``rule`` gives an item rated ``grades``; None when the rule leaves it to the adjudicator.

    >>> rule_grade([0, 1, 3, 3], "median"), rule_grade([1, 3], "majority"), rule_grade([1, 3, 3], "majority")
    (1, None, 3)
    """
    ordered = sorted(int(g) for g in grades)
    if not ordered:
        raise InputError("an item without ratings has nothing to adjudicate")
    if rule == MEDIAN:
        return ordered[(len(ordered) - 1) // 2]
    if rule == LOWEST:
        return ordered[0]
    if rule == HIGHEST:
        return ordered[-1]
    if rule == MAJORITY:
        counts = Counter(ordered).most_common()
        if len(counts) > 1 and counts[0][1] == counts[1][1]:
            return None
        return counts[0][0]
    raise InputError(f"unknown adjudication rule {rule!r}; choose one of {', '.join(RULES)}")


def people(ratings: pd.DataFrame) -> pd.DataFrame:
    """The ratings given by people: a model's (``model:<name>``) left out."""
    return ratings[~ratings["annotator"].str.startswith(MODEL_PREFIX)]


def _draft(project: Project) -> PoolVersion:
    draft = project.pools.draft()
    if draft is None:
        raise InputError("has no draft pool to adjudicate", path=project.path)
    return draft


@dataclass(frozen=True)
class Disagreements:
    """The differing items of a draft, most consequential first."""

    version: int
    items: pd.DataFrame  # query_id, doc_id, low, high, ratings, notes, grade, how, swing, run
    ratings: pd.DataFrame  # every rating of those items: query_id, doc_id, annotator, grade, note
    k: int
    gain: Gain

    @property
    def open(self) -> int:
        return int(self.items["grade"].isna().sum())


def disagreements(project: Project, *, k: int = DEFAULT_K, gain: Gain = Gain.LINEAR) -> Disagreements:
    """Every draft item whose ratings differ, sorted by swing: the largest change its grade (lowest vs highest
    rating) can make to any stored run's per-query nDCG@K (``scoring.sensitivity``), then by query and document.

    Items already settled stay listed (with their grade and how), so a pick can be revised before freezing.
    """
    draft = _draft(project)
    ratings = project.ratings.verified(draft.version)
    # people's ratings decide what differs; a model's are shown beside them, never counted (contract rule 18)
    spread = people(ratings).groupby(["query_id", "doc_id"])["grade"].agg(low="min", high="max").reset_index()
    differing = spread[spread["low"] != spread["high"]]
    theirs = ratings.merge(differing[["query_id", "doc_id"]], on=["query_id", "doc_id"])
    labelled = [grade_label(int(g), draft.labels, draft.scale.low) for g in theirs["grade"]]
    shown = theirs.assign(text=theirs["annotator"] + " " + pd.Series(labelled, index=theirs.index, dtype=object))
    summary = shown.groupby(["query_id", "doc_id"]).agg(
        ratings=("text", ", ".join),  # "ana 1 · Related, ben 3 · Perfect": grades as every view shows them
        notes=("note", lambda notes: " · ".join(n for n in notes if n)),
    )
    pool = project.pools.pool_items(draft.version)
    items = differing.merge(summary.reset_index(), on=["query_id", "doc_id"]).merge(
        pool[["query_id", "doc_id", "grade"]], on=["query_id", "doc_id"]
    )
    how = project.ratings.settled_items(draft.version)
    items = items.merge(how, on=["query_id", "doc_id"], how="left")
    # The universe the swings are measured in: settled grades, an open item at its lowest rating.
    base = pool[["query_id", "doc_id", "grade"]].merge(spread, on=["query_id", "doc_id"], how="left")
    base["grade"] = base["grade"].fillna(base["low"]).fillna(0).astype("int64")
    queries = set(items["query_id"])
    base = base[base["query_id"].isin(queries)]
    tops = {}
    for info in project.runs.all():
        run, _ = project.runs.load_run(info.name)
        top = top_documents(run, k, ties=info.reading.ties, id_map=info.reading.id_map)
        tops[info.name] = top[top["query_id"].isin(queries)]
    scored = grade_swings(base, tops, items, k=k, gain=gain)
    scored = scored.sort_values(["swing", "query_id", "doc_id"], ascending=[False, True, True], ignore_index=True)
    return Disagreements(draft.version, scored, theirs, k, gain)


def pick(
    project: Project, query_id: str, doc_id: str, grade: int | None, *, annotator: str
) -> tuple[int | None, str | None]:
    """Settle one item with the adjudicator's grade (None: unsettle it again). Returns the previous (grade, how)."""
    taken = pick_taken(project, query_id, doc_id, grade, annotator=annotator)
    items = taken.before.tables["judgments"]
    row = dict(zip(items.columns, items.rows[0], strict=True))
    return row["grade"], row["adjudication"]


def pick_taken(project: Project, query_id: str, doc_id: str, grade: int | None, *, annotator: str) -> Taken:
    """:func:`pick`, returning what it took (the item as it was), for ``project.undo.restore``."""
    draft = _draft(project)
    _on_scale(project, draft, query_id, doc_id, grade)
    if project.pools.pool_items(draft.version, query_id).query("doc_id == @doc_id").empty:
        raise InputError(f"document {doc_id} is not in the pool of query {query_id}", path=project.path)
    frame = pd.DataFrame([(query_id, doc_id, grade)], columns=["query_id", "doc_id", "grade"])
    return project.ratings.adjudicate(
        frame, version=draft.version, how=PICK if grade is not None else None, annotator=annotator
    )


def pick_all(project: Project, picks: Sequence[tuple[str, str, int]], *, annotator: str) -> None:
    """Settle several items (query_id, doc_id, grade) with the adjudicator's grades, all or none: every grade is
    checked against the scale and every item against the pool before one transaction writes them."""
    draft = _draft(project)
    for query_id, doc_id, grade in picks:
        _on_scale(project, draft, query_id, doc_id, grade)
    if picks:
        frame = pd.DataFrame(list(picks), columns=["query_id", "doc_id", "grade"])
        project.ratings.adjudicate(frame, version=draft.version, how=PICK, annotator=annotator)


def _on_scale(project: Project, draft: PoolVersion, query_id: str, doc_id: str, grade: int | None) -> None:
    # checked before any frame holds it: a number past 64 bits is no grade, not an OverflowError
    if grade is not None and not draft.scale.low <= grade <= draft.scale.high:
        raise InputError(
            f"grade {grade} is outside the scale {draft.scale} (document {doc_id} of query {query_id})",
            path=project.path,
        )


@dataclass(frozen=True)
class RuleApplied:
    """What :func:`apply_rule` settled (query_id, doc_id, grade) and how many differing items it left open."""

    rule: str
    settled: pd.DataFrame
    left: int
    taken: Taken | None = None  # the settled items as they were, for :func:`undo_rule` (None: nothing settled)


def apply_rule(project: Project, rule: str, *, annotator: str) -> RuleApplied:
    """Settle every open differing item by ``rule`` (see :data:`RULES`), recorded with the version.

    Items a rule leaves open (majority ties) stay for the adjudicator.
    """
    if rule not in RULES:
        raise InputError(f"unknown adjudication rule {rule!r}; choose one of {', '.join(RULES)}")
    draft = _draft(project)
    ratings = people(project.ratings.verified(draft.version))  # a model's rating never counts toward a rule (rule 18)
    pool = project.pools.pool_items(draft.version)
    open_items = pool[pool["grade"].isna()][["query_id", "doc_id"]]
    mine = ratings.merge(open_items, on=["query_id", "doc_id"])
    grades = mine.groupby(["query_id", "doc_id"])["grade"].agg(list)
    differing = grades[grades.map(lambda g: min(g) != max(g))]
    decided = differing.map(lambda g: rule_grade(g, rule))
    chosen = decided[decided.notna()]
    frame = pd.DataFrame(
        {
            "query_id": [q for q, _ in chosen.index],
            "doc_id": [d for _, d in chosen.index],
            "grade": chosen.astype("int64").to_numpy(),
        }
    )
    taken = (
        project.ratings.adjudicate(frame, version=draft.version, how=rule, annotator=annotator) if len(frame) else None
    )
    return RuleApplied(rule, frame, int(len(differing) - len(frame)), taken)


def undo_rule(project: Project, applied: RuleApplied, *, annotator: str) -> None:
    """Put the items :func:`apply_rule` settled back exactly as they were (grade, author, time, how)."""
    if applied.taken is not None:
        project.undo.restore(applied.taken, action=f"undo adjudicate ({applied.rule})", annotator=annotator)


def team_manifest(project: Project, version: PoolVersion) -> JsonObject:
    """What rule 16 asks of a version's manifest: its annotators with the SHA-256 of each one's ratings, how the
    differing items were settled (per way: pick, median, ...), and the agreement figures over all queries
    (``AgreementReport.summary``; None with fewer than two annotators).

    A frozen version's are recorded when it is frozen and proven with it (``store.team``): no rating is read back.
    """
    return project.pools.team(version)
