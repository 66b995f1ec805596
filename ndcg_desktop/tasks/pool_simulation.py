"""What a pool would be worth before anyone is paid: pooling simulated on existing judgments, and leave-one-run-out
reusability (docs/evaluation-contract.md, rule 20). Written once; ``ndcg simulate-pooling``, ``ndcg reusability``
and the window call these.

Simulation: per query, each strategy (:mod:`ndcg_desktop.scoring.pooling`) orders the runs' depth pool (MaxMean
asking the oracle for each document it chooses); a budget takes a prefix of each query's order. The partial
judgments are the oracle's grades of the chosen documents, every other document non-relevant; the full
judgments are the oracle's. Per strategy and budget: documents judged, relevant found (grade > 0) and their share
of the relevant documents in the depth pool, Kendall's tau-b and tau_AP (the partial judgments' ordering of the
runs against the full one's) between the runs' mean nDCG@K, and the largest change of a run's rank
(:mod:`ndcg_desktop.scoring.rank_correlation`).

Reusability (Zobel, SIGIR 1998; Voorhees and Harman, TREC): for each run, or group of runs from one team, the
depth-D pool of all runs without the documents only that group contributed; the run's mean nDCG@K against the
oracle restricted to that pool (``mean_without_own``) beside its mean against the oracle restricted to the full
pool (``mean_full``); its rank among the other runs' ``mean_full`` under both; the relevant documents only its
group found; and tau-b between every run's two means.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.export import export_folder
from ndcg_desktop.scoring.pooling import Budget, Strategy, choose, per_query_budgets
from ndcg_desktop.scoring.rank_correlation import max_rank_change, ranks, tau_ap, tau_b
from ndcg_desktop.tasks.pool_runs import PoolRuns, check, judgments_of, manifest_head, mean_ndcg, scoring_settings

ROW_COLUMNS = (
    "strategy",
    "budget",
    "budget_share",
    "judged",
    "relevant_found",
    "relevant_share",
    "tau_b",
    "tau_ap",
    "max_rank_change",
)


@dataclass
class PoolingSimulation:
    """One simulation: a row per strategy and budget, each run's means, per-query counts, and the manifest."""

    rows: pd.DataFrame  # ROW_COLUMNS
    means: pd.DataFrame  # strategy, budget, run, mean, rank, mean_full, rank_full
    per_query: pd.DataFrame  # strategy, budget, query_id, pool, judged, relevant_found
    pool_documents: int  # the depth pool, every query
    pool_relevant: int  # relevant documents in it
    manifest: JsonObject


def _none_if_nan(value: float) -> float | None:
    return None if value != value else value


def simulate_pooling(
    pool: PoolRuns,
    *,
    depth: int,
    k: int,
    strategies: Sequence[Strategy],
    budgets: Sequence[Budget],
    base: EvalSettings,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> PoolingSimulation:
    """Simulate each strategy at each budget on ``pool`` (read by :mod:`ndcg_desktop.tasks.pool_runs`: from
    files, or from a project's frozen version as the oracle). Deterministic: queries in natural order, runs
    in the order given.

    Each run scores under its measure in ``pool.settings``: ``base``'s gain, duplicates and zero-IDCG policies on
    that run's ties and ID map (the rest is fixed: see :func:`~ndcg_desktop.tasks.pool_runs.scoring_settings`).
    """
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    if not strategies or not budgets:
        raise InputError("give at least one strategy and one budget")
    settings = [scoring_settings(s) for s in pool.settings]
    configs = [(s, b) for s in strategies for b in budgets]
    total, done = len(pool.queries) + len(pool.runs) * (1 + len(configs)), 0

    def advance() -> None:
        nonlocal done
        done += 1
        check(cancelled)
        if progress is not None:
            progress(done, total)

    rankings = pool.rankings(depth)
    orders: dict[str, dict[str, list[str]]] = {str(s): {} for s in strategies}
    sizes: dict[str, int] = {}
    pool_relevant = 0
    for q in pool.queries:
        grades = pool.grades[q]
        for strategy in strategies:
            orders[str(strategy)][q] = choose(strategy, rankings[q], None, depth, grades)
        in_pool = {d for ranking in rankings[q] for d in ranking}
        sizes[q] = len(in_pool)
        pool_relevant += sum(1 for d in in_pool if grades.get(d, 0) > 0)
        advance()
    full = []
    for run, s in zip(pool.runs, settings, strict=True):
        full.append(mean_ndcg(pool.oracle, run, s, k, pool.queries))
        advance()
    rank_full = ranks(full)
    rows, means, per_query = [], [], []
    for strategy, budget in configs:
        allowed = per_query_budgets(budget, sizes)
        chosen = {q: orders[str(strategy)][q][: allowed[q]] for q in pool.queries}
        label = f"{pool.oracle.source.path} chosen by {strategy} at {budget}"
        partial = judgments_of(chosen, pool.grades, label)
        scores = []
        for run, s in zip(pool.runs, settings, strict=True):
            scores.append(mean_ndcg(partial, run, s, k, pool.queries))
            advance()
        found = {q: sum(1 for d in docs if pool.grades[q].get(d, 0) > 0) for q, docs in chosen.items()}
        judged = sum(len(docs) for docs in chosen.values())
        relevant = sum(found.values())
        rank_partial = ranks(scores)
        rows.append(
            {
                "strategy": str(strategy),
                "budget": str(budget),
                "budget_share": budget.share,
                "judged": judged,
                "relevant_found": relevant,
                "relevant_share": relevant / pool_relevant if pool_relevant else None,
                "tau_b": tau_b(scores, full),
                "tau_ap": tau_ap(scores, full),
                "max_rank_change": max_rank_change(rank_partial, rank_full),
            }
        )
        for name, mean, rank, f, rf in zip(pool.names, scores, rank_partial, full, rank_full, strict=True):
            means.append(
                {"strategy": str(strategy), "budget": str(budget), "run": name, "mean": _none_if_nan(mean)}
                | {"rank": rank, "mean_full": _none_if_nan(f), "rank_full": rf}
            )
        for q in pool.queries:
            per_query.append(
                {"strategy": str(strategy), "budget": str(budget), "query_id": q, "pool": sizes[q]}
                | {"judged": len(chosen[q]), "relevant_found": found[q]}
            )
    manifest = manifest_head(pool, settings[0], k, "pooling simulation")
    manifest |= {
        "depth": depth,
        "strategies": [str(s) for s in strategies],
        "budgets": [str(b) for b in budgets],
        "pool_documents": sum(sizes.values()),
        "pool_relevant": pool_relevant,
        "rules": {
            "depth_order": "rank 1 of every run in the order given, then rank 2, ..., each document once",
            "budget": "a share is of each query's depth pool, rounded down; a total is shared max-min fair over "
            "the queries in natural order (scoring.pooling.Budget)",
            "partial_judgments": "the oracle's grades of the chosen documents; every other document non-relevant",
            "full_judgments": "the oracle's judgments",
            "relevant": "grade > 0",
            "tau_ap": "Yilmaz, Aslam and Robertson 2008, the partial judgments' ordering against the full one's; "
            "ties: Urbano and Marrero 2017's expectation, truth ties half right",
            "ranks": "1 for the highest mean; equal means share the best rank",
        },
    }
    return PoolingSimulation(
        pd.DataFrame(rows, columns=list(ROW_COLUMNS)),
        pd.DataFrame(means),
        pd.DataFrame(per_query),
        sum(sizes.values()),
        pool_relevant,
        manifest,
    )


SIMULATION_FILES = ("simulation.csv", "means.csv", "per_query.csv", "manifest.json")


def export_simulation(result: PoolingSimulation, folder: str | Path) -> list[Path]:
    """``simulation.csv`` (a row per strategy and budget), ``means.csv``, ``per_query.csv`` and
    ``manifest.json`` into ``folder``, whole or not at all."""
    tables = {"simulation.csv": result.rows, "means.csv": result.means, "per_query.csv": result.per_query}
    return export_folder(tables, result.manifest, folder, SIMULATION_FILES)


# -- reusability -----------------------------------------------------------------------------------------------


def groups_of(names: Sequence[str], *, groups: dict[str, str] | None = None, group_by: str | None = None) -> list[str]:
    """Each run's group: from ``groups`` (run -> group; a run it does not name is its own group), from the
    regular expression ``group_by`` (its first group if it has one, else the whole match, searched in the
    run's name; a name it does not match is its own group), or each run its own.

    >>> groups_of(["uwA", "uwB", "cmu1"], group_by=r"^[a-z]+?(?=[A-Z0-9])")
    ['uw', 'uw', 'cmu']
    """
    if groups is not None and group_by is not None:
        raise InputError("give --groups FILE or --group-by REGEX, not both")
    if groups is not None:
        unknown = sorted(set(groups) - set(names))
        if unknown:
            raise InputError(f"the groups name a run that is not given: {unknown[0]}")
        return [groups.get(name, name) for name in names]
    if group_by is not None:
        try:
            pattern = re.compile(group_by)
        except re.error as exc:
            raise InputError(f"--group-by {group_by!r} is not a regular expression: {exc}") from None
        out = []
        for name in names:
            match = pattern.search(name)
            out.append(name if match is None else (match.group(1) if pattern.groups else match.group(0)) or name)
        return out
    return list(names)


def read_groups(path: str | Path) -> dict[str, str]:
    """A groups file: one ``run group`` pair a line (whitespace between); blank lines and ``#`` lines skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the groups file: {exc}", path=path) from None
    groups: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            what = "a line must hold a run name and its group, separated by whitespace"
            raise InputError(what, path=path, line=number)
        if parts[0] in groups:
            raise InputError(f"run {parts[0]} is given a group twice", path=path, line=number)
        groups[parts[0]] = parts[1]
    return groups


@dataclass
class Reusability:
    """Leave-one-group-out: a row per run, tau-b over every run, and the manifest."""

    runs: pd.DataFrame  # run, group, mean_full, mean_without_own, rank_full, rank_without_own, unique_docs, ...
    tau_b: float | None
    tau_ap: float | None
    manifest: JsonObject


def reusability(
    pool: PoolRuns,
    *,
    depth: int,
    k: int,
    base: EvalSettings,
    groups: Sequence[str] | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Reusability:
    """Leave each group of runs (each run its own group when ``groups`` is None; one group name per run
    otherwise) out of the depth-``depth`` pool, and score its runs against what is left (see the module)."""
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    group = list(groups) if groups is not None else list(pool.names)
    if len(group) != len(pool.names):
        raise InputError(f"{count(len(group), 'group name')} for {count(len(pool.names), 'run')}")
    settings = [scoring_settings(s) for s in pool.settings]
    names = sorted(set(group), key=group.index)
    total, done = len(pool.runs) * 2, 0
    rankings = pool.rankings(depth)
    # per query: each document -> the groups that contributed it within the depth
    contributors: dict[str, dict[str, set[str]]] = {}
    for q in pool.queries:
        by_doc: dict[str, set[str]] = {}
        for g, ranking in zip(group, rankings[q], strict=True):
            for d in ranking:
                by_doc.setdefault(d, set()).add(g)
        contributors[q] = by_doc
    judged_full = {q: [d for d in docs if d in pool.grades[q]] for q, docs in contributors.items()}
    full_qrels = judgments_of(judged_full, pool.grades, f"{pool.oracle.source.path} within the depth-{depth} pool")
    mean_full = []
    for run, s in zip(pool.runs, settings, strict=True):
        mean_full.append(mean_ndcg(full_qrels, run, s, k, pool.queries))
        done += 1
        check(cancelled)
        if progress is not None:
            progress(done, total)
    without: list[float] = [float("nan")] * len(pool.runs)
    unique_docs, unique_relevant = [0] * len(pool.runs), [0] * len(pool.runs)
    for g in names:
        kept = {q: [d for d in docs if contributors[q][d] != {g}] for q, docs in judged_full.items()}
        own = [(q, d) for q, docs in contributors.items() for d, by in docs.items() if by == {g}]
        relevant = sum(1 for q, d in own if pool.grades[q].get(d, 0) > 0)
        reduced = judgments_of(kept, pool.grades, f"{pool.oracle.source.path} without {g}'s own documents")
        for i, (run, s) in enumerate(zip(pool.runs, settings, strict=True)):
            if group[i] != g:
                continue
            without[i] = mean_ndcg(reduced, run, s, k, pool.queries)
            unique_docs[i], unique_relevant[i] = len(own), relevant
            done += 1
            check(cancelled)
            if progress is not None:
                progress(done, total)
    rank_full = ranks(mean_full)
    rank_without = []
    for i, score in enumerate(without):  # among the other runs' full means
        others = [m for j, m in enumerate(mean_full) if j != i]
        rank_without.append(sum(1 for m in others if m > score) + 1)
    table = pd.DataFrame(
        {
            "run": pool.names,
            "group": group,
            "mean_full": [_none_if_nan(m) for m in mean_full],
            "mean_without_own": [_none_if_nan(m) for m in without],
            "rank_full": rank_full,
            "rank_without_own": rank_without,
            "unique_docs": unique_docs,
            "unique_relevant": unique_relevant,
        }
    )
    manifest = manifest_head(pool, settings[0], k, "leave-one-group-out reusability")
    manifest |= {
        "depth": depth,
        "groups": dict(zip(pool.names, group, strict=True)),
        "rules": {
            "pool": f"every run's first {depth} distinct documents per query",
            "mean_full": "against the oracle's judgments of the full pool",
            "mean_without_own": "against the oracle's judgments of the pool without the documents only the run's "
            "group contributed",
            "rank_without_own": "the run's mean_without_own ranked among the other runs' mean_full",
            "ranks": "1 for the highest mean; equal means share the best rank",
            "unique_relevant": "relevant (grade > 0) documents only the run's group contributed",
        },
    }
    return Reusability(table, tau_b(without, mean_full), tau_ap(without, mean_full), manifest)
