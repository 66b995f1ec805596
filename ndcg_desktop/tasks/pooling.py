"""Pooling and send-for-judging: always a preview first, then exactly that is applied.

Send for judging (rule 6 of docs/evaluation-contract.md, third resolution) adds a run's unjudged documents to a
draft pool. The plan says exactly what will be added: per query, only within the chosen depth,
only the queries in scope. Applying it returns what it did, so it can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.scoring.ranking import top_pairs
from ndcg_desktop.store import Project
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks.scoring import load_inputs


class QueryScope(StrEnum):
    """Which of a run's queries send for judging may add documents for."""

    POOL = "pool"  # only the pool version's queries: the ones a score counts
    RUN = "run"  # every query the run answered, including those the pool lacks

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class JudgingPlan:
    """What sending a run's unjudged documents for judging will add, before anything is written."""

    run_name: str
    pool_version: int  # the frozen version whose judgments decide what is unjudged
    depth: int
    scope: QueryScope
    draft: int | None  # the draft they join; None: a new draft from the latest frozen version
    items: pd.DataFrame  # query_id, rank, doc_id: exactly the pool items that will be added
    per_query: pd.DataFrame  # query_id, unjudged (within the depth), waiting (already in the draft), to_add

    @property
    def total(self) -> int:
        return len(self.items)


def _pairs_in(query_ids: pa.Array, doc_ids: pa.Array, among_queries: pa.Array, among_docs: pa.Array) -> pa.BooleanArray:
    """Which pairs (``query_ids[i]``, ``doc_ids[i]``) occur among the pairs (``among_queries[j]``, ``among_docs[j]``).

    Arrow's hash lookups, which run without Python's GIL: each ID becomes its index among the distinct IDs of
    the pairs looked in, each pair one integer. The set of Python tuples this replaces held the GIL long enough
    (a million pairs built as one list) to freeze the window while send for judging was previewed on a worker.
    """
    text = pa.large_string()
    query_ids, doc_ids = query_ids.cast(text), doc_ids.cast(text)
    among_queries, among_docs = among_queries.cast(text), among_docs.cast(text)
    queries, docs = pc.unique(among_queries), pc.unique(among_docs)

    def pair_codes(q: pa.Array, d: pa.Array) -> pa.Array:
        q_code = pc.index_in(q, value_set=queries).cast(pa.int64())
        d_code = pc.index_in(d, value_set=docs).cast(pa.int64())
        return pc.add(pc.multiply(q_code, len(docs)), d_code)  # null when either ID is not among them

    found = pc.is_in(pair_codes(query_ids, doc_ids), value_set=pair_codes(among_queries, among_docs))
    return found.fill_null(False)


def _count_by_query(pairs: pa.Table) -> pd.Series:
    """Rows per query ID, by ID (as a pandas ``groupby(...).size()`` gives them), for a few thousand queries."""
    counts = pc.value_counts(pairs["query_id"])
    return pd.Series(
        counts.field("counts").to_numpy(), index=pd.Index(counts.field("values").to_pandas(), name="query_id")
    ).sort_index()


def plan_send_for_judging(
    project: Project,
    run_name: str,
    pool_version: int | None,
    *,
    depth: int | None = None,
    scope: QueryScope = QueryScope.POOL,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> JudgingPlan:
    """The run's documents in the top ``depth`` of each in-scope query (every one of them when None) that the
    frozen version has not judged.

    Documents already waiting in the draft are counted but not added again. The pairs stay Arrow columns
    until the end (see :func:`_pairs_in`): this runs on a worker while the window stays responsive.
    """
    if depth is not None and depth < 1:  # 0 once meant "everything"
        raise InputError(f"the depth must be a positive integer, not {depth}")
    if depth is None:  # no query's ranking is longer than the whole run
        depth = max(project.runs.run_info(run_name).rows, 1)
    inputs = load_inputs(project, run_name, pool_version)
    if progress is not None:
        progress(1, 4)
    top = top_pairs(inputs.run, depth, ties=inputs.reading.ties, id_map=inputs.reading.id_map)
    if cancelled is not None and cancelled():
        from ndcg_desktop.scoring import Cancelled

        raise Cancelled()
    judged = inputs.qrels.judgments
    judged_docs = judged.doc_ids.combine_chunks() if isinstance(judged.doc_ids, pa.ChunkedArray) else judged.doc_ids
    judged_queries = judged.queries.take(pa.array(judged.q))
    if scope is QueryScope.POOL:
        top = top.filter(
            pc.is_in(
                top["query_id"].cast(pa.large_string()),
                # every query of the pool, one whose lines were all negative grades too (in the pool, not judged)
                value_set=(judged.queries if judged.keeps_queries else pc.unique(judged_queries)).cast(
                    pa.large_string()
                ),
            )
        )
    unjudged = top.filter(pc.invert(_pairs_in(top["query_id"], top["doc_id"], judged_queries, judged_docs)))
    if progress is not None:
        progress(2, 4)
    draft = project.pools.draft()
    # Without a draft, the new one copies the latest frozen version (there is one: load_inputs found one).
    latest = project.pools.latest_frozen()
    target = draft.version if draft is not None else (latest.version if latest else inputs.version.version)
    if target == inputs.version.version:
        # No draft, and the new one copies this very version: its items are the judged pairs, which ``unjudged``
        # already leaves out, so nothing waits (and its pairs need not be read again).
        items = unjudged
    else:
        items = unjudged.filter(
            pc.invert(_pairs_in(unjudged["query_id"], unjudged["doc_id"], *project.pools.pairs(target)))
        )
    per_query = pd.DataFrame({"unjudged": _count_by_query(unjudged), "to_add": _count_by_query(items)})
    per_query = per_query.fillna(0).astype(int)
    per_query.insert(1, "waiting", per_query["unjudged"] - per_query["to_add"])
    per_query = per_query.rename_axis("query_id").reset_index()
    if progress is not None:
        progress(4, 4)
    return JudgingPlan(
        run_name=inputs.info.name,
        pool_version=inputs.version.version,
        depth=depth,
        scope=scope,
        draft=draft.version if draft is not None else None,
        items=items.to_pandas(),
        per_query=per_query,
    )


@dataclass(frozen=True)
class SentForJudging:
    """What applying a plan did: the draft, whether it was created for this, and the items added."""

    draft: int
    created_draft: bool
    items: pd.DataFrame  # query_id, doc_id


def apply_send_for_judging(project: Project, plan: JudgingPlan, *, annotator: str) -> SentForJudging:
    """Add exactly the plan's items to the draft (created from the latest frozen version if needed).

    A plan made against another draft than the current one is refused: preview again.
    """
    draft = project.pools.draft()
    if (draft.version if draft is not None else None) != plan.draft:
        raise InputError("the draft pool changed since the preview; preview again", path=project.path)
    created = draft is None
    pairs = plan.items[["query_id", "doc_id"]]
    project.judgments.add_items(pairs, action="send for judging", annotator=annotator)
    current = project.pools.draft()
    assert current is not None
    return SentForJudging(current.version, created, pairs.reset_index(drop=True))


def undo_send_for_judging(project: Project, sent: SentForJudging, *, annotator: str) -> int:
    """Take back what :func:`apply_send_for_judging` added: the draft itself if it was made for it,
    else the added items that are still ungraded. Returns how many items left the pool."""
    taken = take_back_sent(project, sent, annotator=annotator)
    whole_draft = taken.scope.table == "pool_versions"  # its parent's items went too; they were not sent
    return len(sent.items) if whole_draft else taken.before.count("judgments")


def take_back_sent(project: Project, sent: SentForJudging, *, annotator: str) -> Taken:
    """:func:`undo_send_for_judging`, returning what it took (``project.undo.restore`` puts it back: redo)."""
    draft = project.pools.draft()
    if draft is None or draft.version != sent.draft:
        raise InputError(f"draft version {sent.draft} no longer exists; nothing to undo", path=project.path)
    if sent.created_draft and _untouched(project, sent):
        return project.judgments.discard_draft(sent.draft, annotator=annotator)
    return project.judgments.take_items(
        sent.items, version=sent.draft, action="undo send for judging", annotator=annotator
    )


def _untouched(project: Project, sent: SentForJudging) -> bool:
    """The draft made for ``sent`` holds its parent's items plus the sent ones, none of them graded or noted since."""
    draft, parent = project.pools.version(sent.draft), project.pools.latest_frozen()
    items = project.pools.pool_items(sent.draft)
    parent_items = (
        project.pools.pool_items(parent.version) if parent is not None and draft.parent == parent.version else None
    )
    expected = (len(parent_items) if parent_items is not None else 0) + len(sent.items)
    graded = int(items["grade"].notna().sum())
    noted = int((items["note"] != "").sum())
    before_graded = int(parent_items["grade"].notna().sum()) if parent_items is not None else 0
    before_noted = int((parent_items["note"] != "").sum()) if parent_items is not None else 0
    return len(items) == expected and graded == before_graded and noted == before_noted


def discard_draft(project: Project, *, annotator: str) -> int:
    """Delete the draft and everything in it (the CLI's ``ndcg discard-draft``, *Pool ▸ Discard draft*).

    Returns the discarded version's number.
    """
    return project.judgments.discard_draft(annotator=annotator).version


def pool_from_runs(
    project: Project,
    names: list[str],
    depth: int,
    *,
    annotator: str | None = None,
    version: int | None = None,
    apply: bool = True,
) -> pd.DataFrame:
    """Depth-k pooling: the top ``depth`` documents of each run per query join the draft, added by ``annotator``
    (given whenever it applies).

    Returns per query the candidates and how many are new. With ``apply=False`` nothing is written (the preview
    the window shows before applying).

    >>> # ndcg pool p.ndcgproj --depth 10 --runs bm25,dense is, in code:
    >>> # pool_from_runs(project, ["bm25", "dense"], 10, annotator="ann")
    """
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    pairs = project.runs.top_pairs(names, depth)
    if apply:
        if annotator is None:
            raise ValueError("a pool is added by someone: give the annotator")
        return project.judgments.add_items(pairs, annotator=annotator, version=version, action="pool")
    return project.judgments.preview_items(pairs, version=version)


def pool_preview(project: Project, run_names: list[str], depth: int) -> pd.DataFrame:
    """Depth-k pooling's preview: per query, the candidates and how many are new to the draft."""
    return pool_from_runs(project, run_names, depth, apply=False)


def pool_apply(project: Project, run_names: list[str], depth: int, *, annotator: str) -> pd.DataFrame:
    """Depth-k pooling: the top ``depth`` documents of each run join the draft; per-query counts."""
    return pool_from_runs(project, run_names, depth, annotator=annotator)
