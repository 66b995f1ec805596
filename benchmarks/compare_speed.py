"""`ndcg compare` on many large runs: 20 runs of 1M lines at K = 5, 10, 20, 100, all three tests, 10,000 resamples.

The target (issue 16): under a minute on this 2-core machine. The data: score_speed.py's MS MARCO-like
generator (1,000 queries x 1,000 documents, ~10 graded judgments per query) for the judgments and a
first run; 19 more runs are the first with its scores perturbed by seeded noise (so rankings differ
near the top and the tests have something to find), cached in benchmarks/data/. The command runs
once as a fresh subprocess (`python -m ndcg_desktop compare ... --json`, stdout to /dev/null); wall
and CPU (user + sys of the child, from wait4) and peak RSS are printed with the load average, and
the CPU other processes used meanwhile (from /proc/stat) as a number of cores.

    python benchmarks/compare_speed.py                    # 20 runs, each against the first (baseline)
    python benchmarks/compare_speed.py --all-pairs        # every pair instead (190 pairs)
    python benchmarks/compare_speed.py --runs 5 --queries 200
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gui_responsiveness import busy_cpu_seconds  # noqa: E402  (sibling scripts)
from score_speed import dataset  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def derived_runs(base_run: Path, n_runs: int, seed: int) -> list[Path]:
    """The base run and ``n_runs - 1`` copies with noisy scores (each its own seed), cached."""
    paths = [base_run]
    frame: pd.DataFrame | None = None
    for i in range(1, n_runs):
        path = base_run.with_name(f"{base_run.stem}-noise{i:02d}-s{seed}.run")
        paths.append(path)
        if path.exists():
            continue
        if frame is None:
            frame = pd.read_csv(base_run, sep=" ", header=None, names=["q", "z", "d", "r", "s", "t"], dtype=str)
            frame["s"] = frame["s"].astype(float)
        rng = np.random.default_rng(seed * 1000 + i)
        noisy = frame.assign(s=np.round(frame["s"] + rng.normal(0, 0.02 * (1 + i % 5), len(frame)), 4))
        noisy["t"] = f"noise{i:02d}"
        tmp = Path(f"{path}.tmp")
        noisy.to_csv(tmp, sep=" ", header=False, index=False, float_format="%.4f")
        tmp.replace(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--ids", choices=("numeric", "string"), default="numeric", help="document ID kind")
    parser.add_argument("--k", default="5,10,20,100")
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--all-pairs", action="store_true", help="every pair instead of each run against the first")
    parser.add_argument("--seed", type=int, default=20261129, help="seed of the generated data")
    args = parser.parse_args(argv)

    case = dataset(DATA, args.ids, args.queries, args.seed, gz=False)
    qrels, base = case.qrels, case.run
    runs = derived_runs(base, args.runs, args.seed)
    lines = sum(1 for _ in open(runs[0], "rb"))
    cmd = [sys.executable, "-m", "ndcg_desktop", "compare", "--qrels", str(qrels), "--runs", *map(str, runs)]
    cmd += ["--k", args.k, "--unjudged", "zero", "--resamples", str(args.resamples), "--json"]
    if not args.all_pairs:
        cmd += ["--baseline", runs[0].name.split(".", 1)[0]]
    print(
        f"{len(runs)} runs x {lines:,} lines, K={args.k}, {args.resamples} resamples, "
        f"{'all pairs' if args.all_pairs else 'each run against the first'}; load {os.getloadavg()}",
        flush=True,
    )
    before = busy_cpu_seconds()
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        child = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    error = child.stderr.read().decode() if child.stderr else ""
    if status != 0:
        print(f"failed ({status}): {error}")
        return 1
    cpu = usage.ru_utime + usage.ru_stime
    after = busy_cpu_seconds()
    others = (after - before - cpu) / wall if before is not None and after is not None else float("nan")
    print(
        f"wall {wall:.1f} s, CPU {cpu:.1f} s (user {usage.ru_utime:.1f} + sys {usage.ru_stime:.1f}), "
        f"peak RSS {usage.ru_maxrss / 1024:.0f} MiB; other processes used {others:.2f} cores meanwhile; "
        f"load after {os.getloadavg()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
