"""Merging returned work (issue 15): 100 work files of about 1,000 ratings each into one project; target < 10 s.

    python benchmarks/merge_speed.py [--files 100] [--per-file 1000] [--keep DIR]

Builds a project whose draft has 50 documents per query and enough queries that ``ndcg assign`` with
``--overlap 0.2`` gives each of ``--files`` annotators about ``--per-file`` items; grades every work file
(through sqlite3: the grading is setup, not what is measured); then times, in this one process:

- ``read``: a peer and lower bound, the same files' graded items read with plain sqlite3 (no checks);
- ``merge``: ``tasks.teams.merge_work`` on all files (every check, one transaction, settling);
- ``merge again``: the same files once more (nothing changes).

Wall seconds (perf_counter) and CPU seconds (user + system of this process, resource.getrusage) for each,
the merge's ratio to the read, and the load average (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

import pandas as pd

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.teams import assign_work, merge_work

DOCS_PER_QUERY = 50


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(label: str, fn):  # noqa: ANN001, ANN201 - a tiny benchmark helper
    wall, used = time.perf_counter(), cpu()
    result = fn()
    wall, used = time.perf_counter() - wall, cpu() - used
    print(f"{label:<12} wall {wall:6.2f} s   cpu {used:6.2f} s")
    return result, wall


def build(folder: Path, files: int, per_file: int) -> tuple[Path, list[Path]]:
    queries = round(files * per_file / (1.2 * DOCS_PER_QUERY))  # 20% of queries go to two annotators
    project = folder / "team.ndcgproj"
    with Project.create(project, annotator="coordinator") as p:
        pairs = pd.DataFrame(
            [(f"q{i}", f"d{i}_{j}") for i in range(queries) for j in range(DOCS_PER_QUERY)],
            columns=["query_id", "doc_id"],
        )
        p.judgments.add_items(pairs, annotator="coordinator")
        names = [f"annotator{n:03d}" for n in range(files)]
        done = assign_work(p, names, folder / "work", overlap=0.2, seed=1)
    paths = sorted(done.files.values())
    for n, path in enumerate(paths):  # the annotators' grading, straight into their files
        con = sqlite3.connect(path, isolation_level=None)
        con.execute(
            "UPDATE judgments SET grade = (abs(length(doc_id) * 7 + ?) % 4), annotator = 'x', "
            "updated_at = '2026-11-30T00:00:00+00:00'",
            (n % 2,),
        )
        con.close()
    return project, paths


def read_all(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        con = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        total += len(
            con.execute("SELECT query_id, doc_id, grade, note FROM judgments WHERE grade IS NOT NULL").fetchall()
        )
        con.close()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--per-file", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="ndcg-merge-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    (project, paths), _ = timed("setup", lambda: build(folder, args.files, args.per_file))
    ratings, read_wall = timed("read", lambda: read_all(paths))
    print(f"{len(paths)} work files, {ratings} ratings ({ratings / len(paths):.0f} per file)")
    with Project.open(project) as p:
        report, merge_wall = timed("merge", lambda: merge_work(p, paths, annotator="coordinator"))
        print(f"             {report.totals}")
        again, again_wall = timed("merge again", lambda: merge_work(p, paths, annotator="coordinator"))
        print(f"             {again.totals}")
    print(f"merge / read: {merge_wall / read_wall:.1f}x; merge again / read: {again_wall / read_wall:.1f}x")
    print(f"target: merge under 10 s -> {'met' if merge_wall < 10 else 'NOT met'}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
