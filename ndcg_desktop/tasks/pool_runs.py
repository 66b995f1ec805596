"""Runs and an oracle read for pooling studies (simulation, reusability): from files or a project's frozen version.

The oracle is a set of judgments taken as the truth: a document it lacks is judged non-relevant. Each run is
scored by the scoring kernel (:func:`~ndcg_desktop.scoring.evaluate`) with unjudged documents as non-relevant
(rule 6's *zero*), run queries the judgments lack ignored (listed in the manifest), and every query of the
oracle counted (a query the run did not answer scores 0).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ndcg_desktop import __version__
from ndcg_desktop.domain import EvalSettings, InputError, Measure, Qrels, Run
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.data import OrderKind, Source
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import IsCancelled
from ndcg_desktop.domain.reading import NOTHING_ASKED, ReadingAsked
from ndcg_desktop.domain.settings import QuerySet, UnjudgedPolicy, UnknownQueryPolicy, ZeroIdcgPolicy
from ndcg_desktop.scoring import Cancelled, evaluate
from ndcg_desktop.scoring.ranking import top_pairs
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.advice import frozen_version
from ndcg_desktop.tasks.compare_inputs import given_run_names, run_names_of
from ndcg_desktop.tasks.files import Judgments, Ranking, read_judgments, read_ranking
from ndcg_desktop.tasks.scoring import check_readings


@dataclass
class PoolRuns:
    """The oracle, the runs in the order given (each with its own reading), and each run's top documents."""

    oracle: Qrels
    names: list[str]
    runs: list[Run]
    settings: list[Measure]  # per run: the shared choices on the run's ties and ID map and the oracle's scale
    judgments: JsonObject  # the manifest's part naming the oracle (file or project version)
    queries: list[str] = field(default_factory=list)  # the oracle's queries, natural order
    grades: dict[str, dict[str, int]] = field(default_factory=dict)  # query -> doc -> oracle grade
    ignored: list[str] = field(default_factory=list)  # run queries the oracle lacks

    def rankings(self, depth: int) -> dict[str, list[list[str]]]:
        """Per oracle query, each run's first ``depth`` distinct documents (ID map applied), runs in order."""
        out: dict[str, list[list[str]]] = {q: [[] for _ in self.runs] for q in self.queries}
        for i, (run, settings) in enumerate(zip(self.runs, self.settings, strict=True)):
            top = top_pairs(run, depth, ties=settings.terms.ties, id_map=settings.terms.id_map)
            for q, d in zip(top["query_id"].to_pylist(), top["doc_id"].to_pylist(), strict=True):
                if q in out:
                    out[q][i].append(d)
        return out


def scoring_settings(base: Measure) -> Measure:
    """The choices every pooling study scores with: unjudged as non-relevant, unknown queries ignored, every
    judged query counted; gain, duplicates, zero-IDCG, ties and ID map as given."""
    return base.with_(unjudged=UnjudgedPolicy.ZERO, unknown_queries=UnknownQueryPolicy.IGNORE, queries=QuerySet.POOL)


def _complete(pool: PoolRuns) -> PoolRuns:
    frame = pool.oracle.frame
    pool.queries = sorted(set(frame["query_id"].tolist()), key=natural_key)
    grades: dict[str, dict[str, int]] = {q: {} for q in pool.queries}
    for q, d, g in zip(frame["query_id"].tolist(), frame["doc_id"].tolist(), frame["grade"].tolist(), strict=True):
        grades[q][d] = int(g)
    pool.grades = grades
    judged = set(pool.queries)
    answered = {str(q) for run in pool.runs for q in run.queries.to_pylist()}
    pool.ignored = sorted(answered - judged, key=natural_key)
    return pool


def pool_runs_from_files(
    qrels: Judgments,
    runs: Sequence[Ranking],
    base: Measure,
    *,
    names: Sequence[str] | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: OrderKind | None = None,
) -> PoolRuns:
    """The oracle and the runs read from files (or given already read), named as ``ndcg compare`` names them;
    ``base``: the policies on the terms the files are read with (the caller's)."""
    if len(runs) < 2:
        raise InputError("a pooling study needs at least two runs")
    if names is not None:
        names = given_run_names(names, runs)
    oracle = read_judgments(qrels, base.terms.scale, qrels_format)
    read = [read_ranking(run, run_format, order) for run in runs]
    if names is None:
        if any(isinstance(r, Run) for r in runs):
            raise InputError(f"give one name for each run: {count(len(runs), 'run')}, 0 names")
        names = run_names_of([r for r in runs if not isinstance(r, Run)], [r.tag for r in read])
    judgments: JsonObject = {"path": oracle.source.path, "sha256": oracle.source.sha256}
    judgments |= {"format": oracle.source.format, "judgments": oracle.n_judgments, "pool_version": None}
    return _complete(PoolRuns(oracle, list(names), read, [base] * len(read), judgments))


def pool_runs_from_project(
    project: Project,
    run_names: Sequence[str],
    pool_version: int | None,
    base: EvalSettings,
    *,
    asked: ReadingAsked = NOTHING_ASKED,
) -> PoolRuns:
    """A project's frozen version (the latest when None) as the oracle, proven (rule 15), and its stored runs,
    each read the way it was imported (another ``order``, ``ties`` or ``id_map`` asked is refused:
    :func:`~ndcg_desktop.tasks.scoring.check_readings`)."""
    if len(run_names) < 2:
        raise InputError("a pooling study needs at least two runs")
    if len(set(run_names)) != len(run_names):
        raise InputError("each run may be named once")
    check_readings(project, run_names, asked)
    version = frozen_version(project, pool_version, check=False)
    oracle = project.pools.qrels(version.version, team=False)  # proves the judgments it reads
    project.pools.prove_team(version.version)
    runs, settings = [], []
    for name in run_names:
        run, info = project.runs.load_run(name)
        runs.append(run)
        settings.append(base.under(info.reading.terms(version.scale)))
    judgments: JsonObject = {
        "path": str(project.path),
        "sha256": oracle.source.sha256,
        "format": "pool version",
        "judgments": oracle.n_judgments,
        "pool_version": version.version,
        "pool_hash": version.hash,
    }
    return _complete(PoolRuns(oracle, list(run_names), runs, settings, judgments))


def judgments_of(pairs: Mapping[str, Sequence[str]], grades: Mapping[str, Mapping[str, int]], label: str) -> Qrels:
    """Judgments of the documents ``pairs`` names per query, each with its oracle grade (0 where it has none)."""
    queries, docs, values = [], [], []
    for q, chosen in pairs.items():
        known = grades.get(q, {})
        queries += [q] * len(chosen)
        docs += list(chosen)
        values += [known.get(d, 0) for d in chosen]
    frame = pd.DataFrame(
        {
            "query_id": pd.Series(queries, dtype=object),
            "doc_id": pd.Series(docs, dtype=object),
            "grade": np.asarray(values, dtype=np.int64),
            "line": np.arange(1, len(queries) + 1, dtype=np.int64),
        }
    )
    digest = hashlib.sha256("\n".join(f"{q}\t{d}\t{g}" for q, d, g in zip(queries, docs, values, strict=True)).encode())
    return Qrels(frame, Source(path=label, sha256=digest.hexdigest(), format="simulated judgments"))


def mean_ndcg(qrels: Qrels, run: Run, settings: Measure, k: int, queries: Sequence[str]) -> float:
    """The run's mean nDCG@``k`` over ``queries`` against ``qrels`` (the scoring kernel's per-query figures).

    A query ``qrels`` has no judgment for is a zero-IDCG query (nothing relevant is known): 0 in the mean, or
    left out when zero-IDCG queries are excluded, as the kernel treats one with only non-relevant judgments.
    """
    per_query = evaluate(qrels, run, settings, k).per_query
    per_query = per_query[per_query["query_id"].isin(set(queries))]
    counted = per_query[per_query["in_mean"]]
    missing = len(queries) - len(per_query)
    n = len(counted) + (missing if settings.policies.zero_idcg is ZeroIdcgPolicy.KEEP else 0)
    return float(counted["ndcg"].sum()) / n if n else float("nan")


def check(cancelled: IsCancelled | None) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled()


def manifest_head(pool: PoolRuns, settings: Measure, k: int, what: str) -> JsonObject:
    """What every pooling study's manifest begins with (rule 13): the tool, the oracle, the runs, the choices."""
    return {
        "tool": "ndcg-desktop",
        "version": __version__,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "study": what,
        "measure": f"nDCG@{k}",
        "settings": settings.to_text(k),
        "oracle": pool.judgments,
        "oracle_rule": "a document the judgments lack is judged non-relevant",
        "runs": [
            {"name": name, "path": run.source.path, "sha256": run.source.sha256, "settings": s.to_text(k)}
            for name, run, s in zip(pool.names, pool.runs, pool.settings, strict=True)
        ],
        "queries": len(pool.queries),
        "run_queries_not_judged_ignored": pool.ignored,
    }
