"""Judgments on the fast path (issue 13, targets 3 and 4): large qrels files, importing and freezing, the project path.

Every figure is one fresh subprocess (wall seconds, CPU seconds user+sys and peak RSS from ``os.wait4``),
median of ``--repeats`` after one untimed warm-up; peers run in the same invocation, so ratios hold on a
loaded machine when the absolute times do not. Generated data is cached under benchmarks/data/.

1. ``large``: ``ndcg score`` against a qrels file of ``--big-queries`` x ``--big-judgments`` lines (default
   10,000 x 1,000 = 10M lines, string IDs) and a small run (20 judged documents per query), beside pytrec_eval
   (trec_eval's C code) on the same files. Target: under 3 s and 1 GB.
2. ``project``: ``ndcg import-qrels`` of ``--queries`` x about 110 judgments (7,000: 766k) into a new project,
   then ``ndcg freeze``. Target: each under 2 s.
3. ``path``: a run of ``--queries`` x ``--depth`` lines against those judgments, string and numeric IDs:
   ``ndcg import-run`` beside ``ndcg score`` on the file, and ``ndcg score --project`` beside ``ndcg score`` on
   the exported qrels and the run file (and pytrec_eval). Targets: import-run no slower than score; score
   --project within 1.2x of score on the files.

    python benchmarks/qrels_speed.py                                   # full size, 3 repeats
    python benchmarks/qrels_speed.py --big-queries 1000 --queries 500 --depth 100 --repeats 1   # quick
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from score_speed import PYTREC_EVAL, Result  # noqa: E402  (the same peer script and timing record)

REPO = HERE.parent
GENERATOR_VERSION = 1  # bump when the generated data changes, so stale caches are not reused
N_DOCS = 8_841_823  # document IDs below this (MS MARCO's passage count)

TARGET_LARGE_S, TARGET_LARGE_MIB = 3.0, 1000 * 1e6 / 2**20  # 3 s, 1 GB (10^9 bytes)
TARGET_PROJECT_S = 2.0
TARGET_PROJECT_RATIO = 1.2


def run_once(cmd: list[str]) -> tuple[float, float, float]:
    """(wall s, user+sys CPU s, peak RSS MiB) of one child process, from its own rusage via wait4."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=REPO)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd[:5])} exited {proc.returncode}: {err.read().decode()[-1500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measure(label: str, cmd: list[str], repeats: int, before: list[str] | None = None) -> Result:
    """Median of ``repeats`` timed runs after one warm-up; ``before`` (a command) runs untimed before each."""
    timing = Result(label, "")
    for i in range(repeats + 1):
        if before is not None:
            subprocess.run(before, check=True, cwd=REPO, stdout=subprocess.DEVNULL)
        wall, cpu, rss = run_once(cmd)
        if i:  # the first run warms the page cache
            timing.wall_s.append(wall)
            timing.cpu_s.append(cpu)
            timing.rss_mib.append(rss)
    print(f"  {label}: {timing.wall:.2f} s wall, {timing.cpu:.2f} s CPU, {timing.rss:.0f} MiB", file=sys.stderr)
    return timing


def ndcg(*args: str) -> list[str]:
    return [sys.executable, "-m", "ndcg_desktop", *args]


# ---------------------------------------------------------------------------------------------- data


def _ids(numbers: np.ndarray, numeric: bool, prefix: str) -> list[str]:
    return [str(n) for n in numbers.tolist()] if numeric else [f"{prefix}{n:07d}" for n in numbers.tolist()]


def generate(
    qrels_path: Path, run_path: Path, queries: int, judged: tuple[int, int], depth: int, numeric: bool, seed: int
) -> None:
    """Qrels with ``judged`` (low, high) judgments per query and a run of ``depth`` documents per query.

    Each judged document is retrieved with probability 0.4 (more often near the top); the rest of
    the run is unjudged. Scores descend, rounded to 4 decimals (a few ties).
    """
    rng = np.random.default_rng(seed)
    qids = rng.choice(1_200_000, queries, replace=False)
    weights = 1.0 / (np.arange(depth) + 10.0)
    weights /= weights.sum()
    tmp_q, tmp_r = Path(f"{qrels_path}.tmp"), Path(f"{run_path}.tmp")
    with open(tmp_q, "w") as qf, open(tmp_r, "w") as rf:
        for qid in qids.tolist():
            q = str(qid) if numeric else f"q{qid}"
            n = int(rng.integers(judged[0], judged[1] + 1))
            pool = rng.choice(N_DOCS, n + depth, replace=False)
            docs_judged, docs = pool[:n], pool[n:]
            grades = rng.choice(4, n, p=[0.55, 0.25, 0.15, 0.05])
            grades[0] = max(int(grades[0]), 1)  # every query has a relevant document
            names = _ids(docs_judged, numeric, "D")
            qf.writelines(f"{q} 0 {d} {g}\n" for d, g in zip(names, grades.tolist(), strict=True))
            shown = docs_judged[rng.random(n) < 0.4][:depth]
            docs[rng.choice(depth, len(shown), replace=False, p=weights)] = shown
            scores = np.round(rng.uniform(15, 30) - np.cumsum(rng.exponential(0.002, depth)), 4)
            rf.writelines(
                f"{q} Q0 {d} {r} {s:.4f} bench\n"
                for r, (d, s) in enumerate(zip(_ids(docs, numeric, "D"), scores.tolist(), strict=True), start=1)
            )
    tmp_q.replace(qrels_path)
    tmp_r.replace(run_path)


def generate_large(qrels_path: Path, run_path: Path, queries: int, per_query: int, seed: int) -> None:
    """A qrels file of ``queries`` x ``per_query`` lines (string IDs); a run of 20 judged documents per query."""
    rng = np.random.default_rng(seed)
    qids = rng.choice(1_200_000, queries, replace=False)
    tmp_q, tmp_r = Path(f"{qrels_path}.tmp"), Path(f"{run_path}.tmp")
    with open(tmp_q, "w") as qf, open(tmp_r, "w") as rf:
        for qid in qids.tolist():
            docs = _ids(rng.choice(N_DOCS, per_query, replace=False), False, "D")
            grades = rng.choice(4, per_query, p=[0.55, 0.25, 0.15, 0.05])
            grades[0] = max(int(grades[0]), 1)
            qf.write("".join(f"q{qid} 0 {d} {g}\n" for d, g in zip(docs, grades.tolist(), strict=True)))
            picked = rng.choice(per_query, min(20, per_query), replace=False)
            scores = np.sort(rng.uniform(0, 30, len(picked)))[::-1]
            rf.writelines(
                f"q{qid} Q0 {docs[i]} {r} {s:.4f} bench\n"
                for r, (i, s) in enumerate(zip(picked.tolist(), scores.tolist(), strict=True), start=1)
            )
    tmp_q.replace(qrels_path)
    tmp_r.replace(run_path)


def cached(paths: tuple[Path, Path], make) -> tuple[Path, Path]:  # noqa: ANN001
    if not all(p.exists() for p in paths):
        print(f"generating {paths[0].name} ...", file=sys.stderr, flush=True)
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        make(*paths)
    return paths


# -------------------------------------------------------------------------------------------- sections


def section_large(args: argparse.Namespace) -> list[str]:
    stem = args.data_dir / f"qrels-large-v{GENERATOR_VERSION}-q{args.big_queries}-j{args.big_judgments}"
    qrels, run = cached(
        (Path(f"{stem}.qrels"), Path(f"{stem}.run")),
        lambda q, r: generate_large(q, r, args.big_queries, args.big_judgments, args.seed),
    )
    lines = args.big_queries * args.big_judgments
    print(f"large: {lines:,}-line qrels", file=sys.stderr)
    rows = [measure("ndcg score", ndcg("score", "--qrels", str(qrels), "--run", str(run), "--k", "10"), args.repeats)]
    if importlib.util.find_spec("pytrec_eval") is not None:
        rows.append(measure("pytrec_eval", [sys.executable, "-c", PYTREC_EVAL, str(qrels), str(run)], args.repeats))
    out = [
        f"### {lines:,}-line qrels ({qrels.stat().st_size / 2**20:.0f} MiB, {args.big_queries:,} queries, string IDs) "
        "against a run of 20 judged documents per query, nDCG@10",
        "",
        *table(rows),
        "",
        f"target: under {TARGET_LARGE_S:.0f} s and 1 GB: "
        + ("met" if rows[0].wall < TARGET_LARGE_S and rows[0].rss < TARGET_LARGE_MIB else "NOT met")
        + f" ({rows[0].wall:.2f} s, {rows[0].rss:.0f} MiB)",
    ]
    return out


def _path_data(args: argparse.Namespace, numeric: bool) -> tuple[Path, Path]:
    kind = "numeric" if numeric else "string"
    stem = args.data_dir / f"qrels-path-v{GENERATOR_VERSION}-{kind}-q{args.queries}-d{args.depth}"
    return cached(
        (Path(f"{stem}.qrels"), Path(f"{stem}.run")),
        lambda q, r: generate(q, r, args.queries, (100, 119), args.depth, numeric, args.seed),
    )


def section_project(args: argparse.Namespace, work: Path) -> list[str]:
    qrels, _ = _path_data(args, numeric=False)
    project = work / "import.ndcgproj"
    fresh = [sys.executable, "-c", _FRESH, str(project)]
    judgments = sum(1 for _ in open(qrels))
    print(f"project: import-qrels and freeze, {judgments:,} judgments", file=sys.stderr)
    imported = measure("ndcg import-qrels", ndcg("import-qrels", str(project), str(qrels)), args.repeats, fresh)
    imported_once = [*fresh, "--import", str(qrels)]
    frozen = measure("ndcg freeze", ndcg("freeze", str(project)), args.repeats, imported_once)
    rows = [imported, frozen]
    met = all(r.wall < TARGET_PROJECT_S for r in rows)
    return [
        f"### `import-qrels` of {judgments:,} judgments ({args.queries:,} queries, string IDs) into a new project, "
        "then `freeze`",
        "",
        *table(rows, base=None),
        "",
        f"target: each under {TARGET_PROJECT_S:.0f} s: {'met' if met else 'NOT met'}",
    ]


# Makes a new project (and, with --import FILE, imports judgments into its draft) without timing it.
_FRESH = """
import sys
from pathlib import Path
from ndcg_desktop.store import Project
path = Path(sys.argv[1])
for suffix in ("", "-wal", "-shm"):
    Path(f"{path}{suffix}").unlink(missing_ok=True)
with Project.create(path, annotator="bench") as project:
    if len(sys.argv) > 3:
        project.judgments.import_qrels(sys.argv[3], annotator="bench")
"""


def section_path(args: argparse.Namespace, work: Path) -> list[str]:
    out = []
    for numeric in (False, True):
        kind = "numeric" if numeric else "string"
        qrels, run = _path_data(args, numeric)
        project = work / f"path-{kind}.ndcgproj"
        exported = work / f"path-{kind}.qrels"
        subprocess.run([sys.executable, "-c", _FRESH, str(project), "--import", str(qrels)], check=True, cwd=REPO)
        subprocess.run(ndcg("freeze", str(project)), check=True, cwd=REPO, stdout=subprocess.DEVNULL)
        subprocess.run(ndcg("export-qrels", str(project), "-o", str(exported)), check=True, cwd=REPO)
        subprocess.run(ndcg("import-run", str(project), str(run), "--name", "bench"), check=True, cwd=REPO)
        print(f"path ({kind} IDs): {args.queries * args.depth:,}-line run", file=sys.stderr)
        score = ["score", "--unjudged", "zero", "--k", "10"]
        files = measure("ndcg score (files)", ndcg(*score, "--qrels", str(exported), "--run", str(run)), args.repeats)
        scratch = work / f"path-{kind}-scratch.ndcgproj"
        copy = [sys.executable, "-c", _COPY, str(project), str(scratch)]
        imported = measure(
            "ndcg import-run", ndcg("import-run", str(scratch), str(run), "--name", "r"), args.repeats, copy
        )
        from_project = measure(
            "ndcg score --project", ndcg(*score, "--project", str(project), "--run-name", "bench"), args.repeats
        )
        rows = [files, imported, from_project]
        if importlib.util.find_spec("pytrec_eval") is not None:
            rows.append(
                measure("pytrec_eval", [sys.executable, "-c", PYTREC_EVAL, str(exported), str(run)], args.repeats)
            )
        ratio_import, ratio_project = imported.wall / files.wall, from_project.wall / files.wall
        cpu_import, cpu_project = imported.cpu / files.cpu, from_project.cpu / files.cpu
        ok = ratio_import <= 1.0 and ratio_project <= TARGET_PROJECT_RATIO
        out += [
            f"### {kind} IDs: a {args.queries * args.depth:,}-line run ({run.stat().st_size / 2**20:.0f} MiB) against "
            f"{sum(1 for _ in open(exported)):,} judgments, nDCG@10, unjudged as zero",
            "",
            *table(rows),
            "",
            f"targets (wall): import-run / score {ratio_import:.2f} (at most 1), score --project / score "
            f"{ratio_project:.2f} (at most {TARGET_PROJECT_RATIO}): {'met' if ok else 'NOT met'}; "
            f"the same in CPU time: {cpu_import:.2f} and {cpu_project:.2f}",
            "",
        ]
    return out


# Copies a project (SQLite's backup: a consistent file) over a scratch copy, so that each timed import-run
# starts from the same project (stored runs are never deleted).
_COPY = """
import sqlite3, sys
from pathlib import Path
for suffix in ("", "-wal", "-shm"):
    Path(sys.argv[2] + suffix).unlink(missing_ok=True)
with sqlite3.connect(sys.argv[1]) as source, sqlite3.connect(sys.argv[2]) as target:
    source.backup(target)
"""


def table(rows: list[Result], base: int | None = 0) -> list[str]:
    head = "| step | wall s | CPU s | peak RSS MiB |" + (" wall / first | CPU / first |" if base is not None else "")
    lines = [head, "|---|---:|---:|---:|" + ("---:|---:|" if base is not None else "")]
    for r in rows:
        ratio = f" {r.wall / rows[base].wall:.2f} | {r.cpu / rows[base].cpu:.2f} |" if base is not None else ""
        lines.append(f"| {r.tool} | {r.wall:.2f} | {r.cpu:.2f} | {r.rss:.0f} |{ratio}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", default="large,project,path", help="comma-separated: large,project,path")
    parser.add_argument("--big-queries", type=int, default=10_000, help="queries of the large qrels (10,000)")
    parser.add_argument("--big-judgments", type=int, default=1_000, help="judgments per query there (1,000)")
    parser.add_argument("--queries", type=int, default=7_000, help="queries for import and the project path (7,000)")
    parser.add_argument("--depth", type=int, default=1_000, help="documents per query of the run (1,000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per step after a warm-up (3)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--data-dir", type=Path, default=HERE / "data")
    args = parser.parse_args(argv)
    sections = {s.strip() for s in args.sections.split(",")}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out = [f"load average at start {load:.1f} on {os.cpu_count()} cores", ""]
    with tempfile.TemporaryDirectory(dir=args.data_dir if args.data_dir.exists() else None) as tmp:
        work = Path(tmp)
        if "large" in sections:
            out += [*section_large(args), ""]
        if "project" in sections:
            out += [*section_project(args, work), ""]
        if "path" in sections:
            out += section_path(args, work)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out.append(f"load average at the end {load:.1f}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
