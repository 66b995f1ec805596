"""Building a pool with a strategy and a budget, and filling an adaptive one in batches (issue 34 items 1 and 2).

A build chooses, per query, documents from the runs' top ``depth`` with a named strategy
(:mod:`ndcg_desktop.scoring.pooling`: depth, rrf, rbp, maxmean) within a budget, for every query the runs answered
or a chosen few. It is previewed first (:func:`plan_pool`), then exactly that is applied (:func:`apply_pool`):
the new documents join the draft ungraded and the build is recorded with the draft (contract rule 20: strategy and
parameters, budget, queries, runs and their hashes, and the order each query's documents were chosen in).

An adaptive build (``maxmean``) is filled in batches of ``batch_size`` documents a query. Its first batch is chosen
when it is applied; once every document of a query's latest batch has a person's grade (a model's never counts:
rules 18 and 20), :func:`next_batches` chooses the next from the grades given so far and adds it, until the query's
budget is spent or its runs hold nothing more. Annotators see the pool as always, in blind order: the new batch's
documents are the only ungraded ones, so "next ungraded" walks them in blind order; nothing of the runs, ranks or
the strategy's numbers reaches the Annotate view or a work file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.cells import show
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.pooling import STRATEGIES as STRATEGIES  # the window offers them from here (its layer)
from ndcg_desktop.scoring.pooling import Budget, choose, maxmean_next_batch, per_query_budgets, pool_size
from ndcg_desktop.scoring.pooling import Parameter as Parameter
from ndcg_desktop.scoring.pooling import Strategy as Strategy
from ndcg_desktop.scoring.pooling import StrategySpec as StrategySpec
from ndcg_desktop.scoring.ranking import top_documents
from ndcg_desktop.store import Project
from ndcg_desktop.store.pool_builds import CHOICE_COLUMNS, NewBuild, PoolBuild

Rankings = dict[str, list[list[str]]]  # query_id -> each run's documents within the depth, in rank order
WHOLE_POOL = "all"  # the budget recorded for a build without one: each query's whole depth pool


def budget_text(budget: Budget | None) -> str:
    """A budget's recorded text form (:data:`WHOLE_POOL` for none)."""
    return WHOLE_POOL if budget is None else str(budget)


def query_list(text: str | None) -> tuple[str, ...] | None:
    """Query IDs typed or given on the command line, separated by spaces or commas; none (empty) is every query.

    >>> query_list("q1, q2  q10"), query_list("  ")
    (('q1', 'q2', 'q10'), None)
    """
    ids = tuple(part for part in (text or "").replace(",", " ").split() if part)
    return ids or None


def parse_budget(text: str | None) -> Budget | None:
    """A budget from the command line or the window: empty or ``all`` is none (the whole depth pool)."""
    if text is None or text.strip() in ("", WHOLE_POOL):
        return None
    return Budget.parse(text)


@dataclass(frozen=True)
class PoolRequest:
    """What a build is asked for: runs (their order breaks the strategy's ties), strategy, budget, depth, queries
    (None: every query a run answered) and, for an adaptive strategy, the batch size a query."""

    runs: tuple[str, ...]
    strategy: Strategy
    budget: Budget | None  # None: each query's whole depth pool
    depth: int
    queries: tuple[str, ...] | None = None
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if not self.runs:
            raise InputError("choose at least one run to pool from")
        if len(set(self.runs)) != len(self.runs):
            raise InputError(
                "each run is named once: " + ", ".join(sorted({r for r in self.runs if self.runs.count(r) > 1}))
            )
        if self.depth < 1:
            raise InputError(f"the pool depth must be a positive integer, not {self.depth}")
        if self.strategy.adaptive:
            if self.batch_size is None or self.batch_size < 1:
                raise InputError(
                    f"{self.strategy} chooses from the grades given so far: it needs a batch size, the documents a "
                    "query gets at a time (a positive integer)"
                )
        elif self.batch_size is not None:
            raise InputError(
                f"a batch size is for an adaptive strategy (maxmean); {self.strategy} chooses every document at once"
            )


@dataclass(frozen=True)
class PoolPlan:
    """What applying a request will add, before anything is written."""

    request: PoolRequest
    draft: int | None  # the draft it joins; None: a new one
    choices: pd.DataFrame  # query_id, doc_id, position, batch: the documents chosen now, in order per query
    per_query: pd.DataFrame  # query_id, candidates (the depth pool), budget, chosen, new
    runs: list[dict[str, object]]  # name, sha256, data_hash
    queries: list[str]

    @property
    def total(self) -> int:
        return int(self.per_query["new"].sum()) if len(self.per_query) else 0


def run_record(project: Project, names: Sequence[str]) -> list[dict[str, object]]:
    """Each run's name, file SHA-256 and stored data hash, in the order given (unknown names refused)."""
    known = {str(r[0]): (str(r[1]), str(r[2])) for r in project.file.query("SELECT name, sha256, data_hash FROM runs")}
    missing = [name for name in names if name not in known]
    if missing:
        raise InputError(f"has no run named {show(missing[0])}", path=project.path)
    return [{"name": name, "sha256": known[name][0], "data_hash": known[name][1]} for name in names]


def rankings_of(
    project: Project,
    names: Sequence[str],
    depth: int,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Rankings:
    """Per query, each run's first ``depth`` distinct documents (IDs mapped as the run was read), runs in the order
    given; a query a run did not answer has an empty list for it."""
    per_run: list[dict[str, list[str]]] = []
    for done, name in enumerate(names):
        if cancelled is not None and cancelled():
            raise Cancelled()
        run, info = project.runs.load_run(name)
        top = top_documents(run, depth, ties=info.reading.ties, id_map=info.reading.id_map)
        top = top.sort_values(["query_id", "rank"], kind="stable")
        grouped = top.groupby("query_id", sort=False)["doc_id"]
        per_run.append({str(q): [str(d) for d in docs] for q, docs in grouped})
        if progress is not None:
            progress(done + 1, len(names) + 1)
    queries = sorted(set().union(*(set(r) for r in per_run))) if per_run else []
    return {q: [r.get(q, []) for r in per_run] for q in queries}


def allotment(budget: Budget | None, sizes: dict[str, int]) -> dict[str, int]:
    """Each query's budget: a number, a share of its depth pool (rounded down), its part of a total
    (:func:`~ndcg_desktop.scoring.pooling.per_query_budgets`), or (None) its whole depth pool."""
    return dict(sizes) if budget is None else per_query_budgets(budget, sizes)


def people_grades(project: Project, version: int | None, query_id: str | None = None) -> dict[str, dict[str, int]]:
    """Per query (``query_id``'s alone if given), the grades people gave in ``version`` (None: none): what an
    adaptive strategy may learn from. A grade a model filled in is not one (contract rules 18 and 20)."""
    if version is None:
        return {}
    grades: dict[str, dict[str, int]] = {}
    for q, d, g in project.builds.people_grades(version, query_id):
        grades.setdefault(q, {})[d] = g
    return grades


def _source_version(project: Project) -> tuple[int | None, int | None]:
    """The draft a build joins (None: a new one) and the version whose items it starts from."""
    target = project.pools.draft_target(None)
    return target.version, (target.version if target.version is not None else target.parent)


def plan_pool(
    project: Project,
    request: PoolRequest,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> PoolPlan:
    """The documents ``request`` chooses per query, and how many are new to the draft, writing nothing.

    An adaptive strategy's plan is its first batch (see the module docstring).

    >>> # plan_pool(project, PoolRequest(("bm25", "dense"), Strategy.parse("rrf(k=60)"), Budget.parse("20"), 100))
    """
    runs = run_record(project, request.runs)
    rankings = rankings_of(project, request.runs, request.depth, progress=progress, cancelled=cancelled)
    if request.queries is not None:
        asked = list(dict.fromkeys(request.queries))
        unanswered = [q for q in asked if q not in rankings]
        if unanswered:
            raise InputError(
                f"no chosen run answered query {show(unanswered[0])}"
                + (f" (nor {len(unanswered) - 1} other chosen queries)" if len(unanswered) > 1 else ""),
                path=project.path,
            )
        queries = asked
    else:
        queries = list(rankings)
    draft, source = _source_version(project)
    grades = people_grades(project, source)
    sizes = {q: pool_size(rankings[q], request.depth) for q in queries}
    budgets = allotment(request.budget, sizes)
    rows: list[tuple[str, str, int, int]] = []
    for q in queries:
        known = grades.get(q, {})
        if request.batch_size is not None:
            chosen = maxmean_next_batch(rankings[q], known, min(request.batch_size, budgets[q]), request.depth)
        else:
            chosen = choose(request.strategy, rankings[q], budgets[q], request.depth, known)
        rows += [(q, d, i + 1, 1) for i, d in enumerate(chosen)]
        if cancelled is not None and cancelled():
            raise Cancelled()
    choices = pd.DataFrame(rows, columns=CHOICE_COLUMNS)
    counts = project.judgments.preview_items(choices[["query_id", "doc_id"]])
    per_query = pd.DataFrame(
        {
            "query_id": queries,
            "candidates": [sizes[q] for q in queries],
            "budget": [budgets[q] for q in queries],
        }
    ).merge(counts.rename(columns={"candidates": "chosen"}), on="query_id", how="left")
    per_query[["chosen", "new"]] = per_query[["chosen", "new"]].fillna(0).astype("int64")
    if progress is not None:
        progress(1, 1)
    return PoolPlan(request, draft, choices, per_query, runs, queries)


@dataclass(frozen=True)
class Pooled:
    """What :func:`apply_pool` did: the draft, its build's number, per query the documents chosen and new."""

    draft: int
    build_id: int
    per_query: pd.DataFrame

    @property
    def added(self) -> int:
        return int(self.per_query["new"].sum()) if len(self.per_query) else 0


def apply_pool(project: Project, plan: PoolPlan, *, annotator: str) -> Pooled:
    """Add exactly the plan's new documents to the draft and record the build with its order of choice.

    A plan made against another draft than the current one, or against runs since changed, is refused: preview
    again.
    """
    draft, _ = _source_version(project)
    if draft != plan.draft:
        raise InputError("the draft pool changed since the preview; preview again", path=project.path)
    if run_record(project, plan.request.runs) != plan.runs:
        raise InputError("a run changed since the preview; preview again", path=project.path)
    request = plan.request
    build = NewBuild(
        strategy=str(request.strategy),
        parameters=dict(request.strategy.values),
        budget=budget_text(request.budget),
        depth=request.depth,
        batch_size=request.batch_size,
        queries=plan.queries,
        runs=plan.runs,
    )
    build_id, counts = project.builds.record(build, plan.choices, annotator=annotator)
    current = project.pools.draft()
    assert current is not None
    per_query = plan.per_query[["query_id", "candidates", "budget"]].merge(
        counts.rename(columns={"candidates": "chosen"}), on="query_id", how="left"
    )
    per_query[["chosen", "new"]] = per_query[["chosen", "new"]].fillna(0).astype("int64")
    return Pooled(current.version, build_id, per_query)


# -- adaptive builds: the next batches ---------------------------------------------------------------------------


@dataclass
class BuildState:
    """An adaptive build's rankings, read once (stored runs never change: their hashes are checked first)."""

    build: PoolBuild
    rankings: Rankings
    budgets: dict[str, int]


def build_state(project: Project, build: PoolBuild) -> BuildState:
    """The rankings and per-query budgets of ``build``, from its runs, refused if one changed since it was built."""
    names = [str(run["name"]) for run in build.runs]
    try:
        now = run_record(project, names)
    except InputError:
        now = []
    if now != build.runs:
        raise InputError(
            f"the runs pool build {build.build_id} chose from are no longer the ones recorded (a run was removed or "
            "changed): its next batches cannot be chosen",
            path=project.path,
        )
    rankings = rankings_of(project, names, build.depth)
    lists = {q: rankings.get(q, []) for q in build.queries}
    budget = None if build.budget == WHOLE_POOL else Budget.parse(build.budget)
    budgets = allotment(budget, {q: pool_size(v, build.depth) for q, v in lists.items()})
    return BuildState(build, lists, budgets)


@dataclass(frozen=True)
class QueryBatches:
    """Where one query of an adaptive build stands."""

    query_id: str
    batch: int  # the latest batch (0: none chosen)
    chosen: int  # documents chosen so far
    graded: int  # of them, graded by a person
    budget: int
    state: str  # "grading" (its latest batch has ungraded documents), "ready" (a next batch can be chosen),
    # "spent" (its budget is used up), "exhausted" (its runs hold nothing more within the depth)


@dataclass
class BatchesAdded:
    """What :func:`next_batches` added: per build, the queries and their new batch (query_id -> documents)."""

    version: int
    added: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    batches: dict[int, dict[str, int]] = field(default_factory=dict)  # build -> query -> the batch's number

    @property
    def documents(self) -> int:
        return sum(len(docs) for batches in self.added.values() for docs in batches.values())

    @property
    def queries(self) -> int:
        return len({q for batches in self.added.values() for q in batches})

    @property
    def pairs(self) -> pd.DataFrame:
        rows = [(q, d) for batches in self.added.values() for q, docs in batches.items() for d in docs]
        return pd.DataFrame(rows, columns=["query_id", "doc_id"])


def _state_of(
    state: BuildState, query_id: str, rows: pd.DataFrame, grades: dict[str, int]
) -> tuple[QueryBatches, list[str]]:
    """Where ``query_id`` stands in ``state``'s build (``rows``: its choices so far), and the next batch if ready."""
    build = state.build
    budget = state.budgets.get(query_id, 0)
    batch = int(rows["batch"].max()) if len(rows) else 0
    latest = rows[rows["batch"] == batch]
    graded = int(rows["grade"].notna().sum())
    if len(latest) and latest["grade"].isna().any():
        return QueryBatches(query_id, batch, len(rows), graded, budget, "grading"), []
    left = budget - len(rows)
    if left <= 0:
        return QueryBatches(query_id, batch, len(rows), graded, budget, "spent"), []
    size = min(int(build.batch_size or 0), left)
    taken = set(rows["doc_id"])
    nxt = [d for d in maxmean_next_batch(state.rankings.get(query_id, []), grades, size, build.depth) if d not in taken]
    status = "ready" if nxt else "exhausted"
    return QueryBatches(query_id, batch, len(rows), graded, budget, status), nxt


def batch_progress(project: Project, state: BuildState) -> list[QueryBatches]:
    """Where each query of an adaptive build stands (the coordinator's view; never the annotator's)."""
    choices = project.builds.choices(state.build.version, state.build.build_id)
    grades = people_grades(project, state.build.version)
    by_query = dict(tuple(choices.groupby("query_id", sort=False)))
    empty = choices.iloc[0:0]
    return [_state_of(state, q, by_query.get(q, empty), grades.get(q, {}))[0] for q in state.build.queries]


def next_batches(
    project: Project,
    *,
    query_ids: Sequence[str] | None = None,
    states: dict[int, BuildState] | None = None,
    annotator: str,
) -> BatchesAdded:
    """For every adaptive build of the draft, each query (of ``query_ids``, or all) whose latest batch people have
    graded in full gets its next batch, chosen from the grades so far; added in one transaction per build.

    ``states`` caches :func:`build_state` between calls (the Annotate session keeps one). Returns what was added.

    >>> # ndcg pool-next PROJECT and Pool > Add next batches call next_batches(project)
    """
    draft = project.pools.draft()
    if draft is None:
        raise InputError("has no draft pool to add batches to", path=project.path)
    result = BatchesAdded(draft.version)
    builds = [b for b in project.builds.of_version(draft.version) if b.adaptive]
    if not builds:
        return result
    one = query_ids[0] if query_ids is not None and len(query_ids) == 1 else None  # a grade's query: read it alone
    grades = people_grades(project, draft.version, one)
    for build in builds:
        wanted = build.queries if query_ids is None else [q for q in build.queries if q in set(query_ids)]
        if not wanted:
            continue
        cache = states if states is not None else {}
        if build.build_id not in cache:
            cache[build.build_id] = build_state(project, build)
        state = cache[build.build_id]
        choices = project.builds.choices(draft.version, build.build_id, one)
        by_query = dict(tuple(choices.groupby("query_id", sort=False)))
        empty = choices.iloc[0:0]
        rows: list[tuple[str, str, int, int]] = []
        added: dict[str, list[str]] = {}
        for q in wanted:
            mine = by_query.get(q, empty)
            status, nxt = _state_of(state, q, mine, grades.get(q, {}))
            if not nxt:
                continue
            start = int(mine["position"].max()) if len(mine) else 0
            rows += [(q, d, start + i + 1, status.batch + 1) for i, d in enumerate(nxt)]
            added[q] = nxt
        if rows:
            project.builds.add_batch(build.build_id, pd.DataFrame(rows, columns=CHOICE_COLUMNS), annotator=annotator)
            result.added[build.build_id] = added
            result.batches[build.build_id] = {q: int(r[3]) for r in rows for q in [r[0]]}
    return result


def take_back_batches(project: Project, added: BatchesAdded, *, annotator: str) -> int:
    """Undo :func:`next_batches`: the batches' record of choice goes, and the documents they added leave the draft
    (refused, nothing written, if one was graded since). Returns how many documents left."""
    if not added.documents:
        return 0
    keys = [(build, q, n) for build, batches in added.batches.items() for q, n in batches.items()]
    return project.builds.take_batches(added.version, keys, annotator=annotator)


# -- the record a manifest carries (contract rule 20) ------------------------------------------------------------


def _order_digest(choices: pd.DataFrame) -> str:
    """SHA-256 of a build's order of choice: one ``query<TAB>position<TAB>doc<TAB>batch`` line each, sorted."""
    import hashlib

    digest = hashlib.sha256(b"ndcg-pool-order-v1\n")
    ordered = choices.sort_values(["query_id", "position"], kind="stable")
    lines = zip(ordered["query_id"], ordered["position"], ordered["doc_id"], ordered["batch"], strict=True)
    digest.update("".join(f"{q}\t{p}\t{d}\t{b}\n" for q, p, d, b in lines).encode())
    return digest.hexdigest()


def pooling_record(project: Project, version: int, *, order: bool = True) -> list[dict[str, object]]:
    """How ``version``'s documents were chosen (rule 20): each build with its strategy, parameters, budget, depth,
    batch size, queries, runs and hashes, the SHA-256 of its order of choice, and (``order``) that order itself: per
    query the documents as the strategy took them, and for an adaptive build each batch's size.

    A frozen version's export manifest carries it whole; a score's manifest and ``ndcg status`` without the order.
    """
    records: list[dict[str, object]] = []
    for build in project.builds.of_version(version):
        choices = project.builds.choices(version, build.build_id)
        record: dict[str, object] = build.record()
        record["chosen"] = len(choices)
        record["added"] = int(choices["new"].sum()) if len(choices) else 0
        record["order_sha256"] = _order_digest(choices)
        if not order:
            record["queries"] = len(build.queries)
        else:
            grouped = choices.groupby("query_id", sort=False)
            record["order"] = {str(q): [str(d) for d in rows["doc_id"]] for q, rows in grouped}
            if build.adaptive:
                record["batches"] = {
                    str(q): [int(n) for n in rows.groupby("batch", sort=True).size()] for q, rows in grouped
                }
        records.append(record)
    return records
