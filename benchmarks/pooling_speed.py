"""Pooling strategies (issue 34, item 6): the next MaxMean batch for 250 queries x 50 runs (target < 50 ms), and a
simulation of 100 topics x 17 runs at depth 100 at three budgets (target < 30 s).

    python benchmarks/pooling_speed.py [--queries 250] [--runs 50] [--topics 100] [--sim-runs 17]

Shapes are generated, seeded: each query's runs draw from one candidate list of ~3 x depth documents with
overlapping heads (runs agree near the top), about 5% of a query's candidates relevant; the next-batch case has
two batches of 10 already graded per query. Prints wall seconds (perf_counter) and the load average.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale
from ndcg_desktop.domain.data import OrderKind, Qrels, Source
from ndcg_desktop.formats.frames import run_from_frame
from ndcg_desktop.scoring.pooling import Budget, Strategy, maxmean_next_batch
from ndcg_desktop.tasks.pool_runs import pool_runs_from_files
from ndcg_desktop.tasks.pool_simulation import simulate_pooling


def shapes(queries: int, runs: int, depth: int, seed: int = 1) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    rankings, grades = {}, {}
    for q in range(queries):
        candidates = [f"q{q}d{i}" for i in range(3 * depth)]
        relevant = rng.random(len(candidates)) < 0.05 * (1 + 2 * (np.arange(len(candidates)) < depth))
        grades[f"q{q}"] = {d: int(r) * int(rng.integers(1, 4)) for d, r in zip(candidates, relevant, strict=True)}
        per_run = []
        for _ in range(runs):
            noisy = np.arange(len(candidates)) + rng.normal(0, depth / 3, len(candidates))
            per_run.append([candidates[i] for i in np.argsort(noisy)[:depth]])
        rankings[f"q{q}"] = per_run
    return rankings, grades


def next_batches(queries: int, runs: int) -> None:
    rankings, grades = shapes(queries, runs, 100)
    judged = {}
    for q in rankings:  # two batches of 10 graded
        known: dict[str, int] = {}
        for _ in range(2):
            for d in maxmean_next_batch(rankings[q], known, 10, 100):
                known[d] = grades[q][d]
        judged[q] = known
    start = time.perf_counter()
    for q in rankings:
        maxmean_next_batch(rankings[q], judged[q], 10, 100)
    print(f"next batch, {queries} queries x {runs} runs: {time.perf_counter() - start:.3f} s (target < 0.050)")


def simulation(topics: int, runs: int) -> None:
    rankings, grades = shapes(topics, runs, 100, seed=2)
    rows = [(q, d, g) for q, docs in grades.items() for d, g in docs.items()]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"]).assign(line=range(1, len(rows) + 1))
    qrels = Qrels(frame, Source("generated", "0" * 64, "generated"))
    built = []
    for i in range(runs):
        run_rows = [(q, d, r) for q in rankings for r, d in enumerate(rankings[q][i], start=1)]
        built.append(
            run_from_frame(pd.DataFrame(run_rows, columns=["query_id", "doc_id", "rank"]), order=OrderKind.RANK)
        )
    base = EvalSettings()
    start = time.perf_counter()
    pool = pool_runs_from_files(
        qrels, built, base.under(DataTerms(scale=GradeScale(0, 3))), names=[f"r{i}" for i in range(runs)]
    )
    result = simulate_pooling(
        pool,
        depth=100,
        k=10,
        strategies=[Strategy.of(n) for n in ("depth", "rrf", "rbp", "maxmean")],
        budgets=[Budget.parse(b) for b in ("10%", "20%", "30%")],
        base=base,
    )
    took = time.perf_counter() - start
    print(f"simulation, {topics} topics x {runs} runs, depth 100, 4 strategies x 3 budgets: {took:.1f} s (target < 30)")
    print(result.rows.to_string(index=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=250)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--sim-runs", type=int, default=17)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    next_batches(args.queries, args.runs, annotator="tester")
    simulation(args.topics, args.sim_runs)


if __name__ == "__main__":
    main()
