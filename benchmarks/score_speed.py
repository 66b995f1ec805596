"""Whole-process speed and memory of ``ndcg score`` against trec_eval, pytrec_eval, ir_measures and ranx.

Generates (once, cached under benchmarks/data/) MS MARCO-shaped TREC runs and qrels with string
document IDs (``D1234567``, as MS MARCO documents; or ``msmarco_doc_17_10768284``, as MS MARCO v2
documents, with ``--ids msmarco``) and numeric ones (MS MARCO passages), at 1M, 7M and 20M lines,
and times every tool as a fresh process: wall seconds, CPU seconds (user + system) and peak RSS,
plus the nDCG@10 each reports. trec_eval is built from its C source with ``-O2`` when a C compiler
is present (``--trec-eval-src``, or a binary given with ``--trec-eval``); the script says so when
not. Every tool runs once per round, rounds interleaved, so a loaded machine slows them alike:
ratios to trec_eval are taken within this one invocation.

    python benchmarks/score_speed.py                            # the README table (about 30 minutes)
    python benchmarks/score_speed.py --sizes 1000 --repeats 1   # a quick check (1M lines)
    python benchmarks/score_speed.py --sizes 7000 --ids string --tools ndcg,trec_eval
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
N_PASSAGES = 8_841_823  # MS MARCO passage collection: IDs 0..8,841,822
N_DOCUMENTS = 3_213_835  # MS MARCO document collection: IDs D0..D3213834
MAX_QID = 1_200_000  # MS MARCO query IDs stay below this
DEPTH = 1000
GENERATOR_VERSION = 2  # bump when the generated data changes, so stale caches are not reused
TREC_EVAL_SOURCE = Path("/work/.mirror/usnistgov+trec_eval/repo")  # where this machine keeps trec_eval's source

# Issue 13's targets: at most a third of trec_eval -O2's time at 7M lines, peak memory at most trec_eval's.
TARGET_RATIO = 0.33

PYTREC_EVAL = """
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
print(sum(m["ndcg_cut_10"] for m in per_query.values()) / len(per_query))
"""

RANX = """
import sys
from ranx import Qrels, Run, evaluate
qrels = Qrels.from_file(sys.argv[1], kind="trec")
run = Run.from_file(sys.argv[2], kind="trec")
print(evaluate(qrels, run, "ndcg@10"))
"""

IR_MEASURES = """
import sys, ir_measures
from ir_measures import nDCG
qrels = ir_measures.read_trec_qrels(sys.argv[1])
run = ir_measures.read_trec_run(sys.argv[2])
print(ir_measures.calc_aggregate([nDCG @ 10], qrels, run)[nDCG @ 10])
"""

PEERS = {
    "pytrec_eval": ("pytrec_eval", PYTREC_EVAL),
    "ir_measures": ("ir_measures", IR_MEASURES),
    "ranx": ("ranx", RANX),
}
TOOLS = ("trec_eval", "ndcg", "pytrec_eval", "ir_measures", "ranx")


@dataclass
class Case:
    """One data set: ID kind, size, plain or gzip."""

    ids: str
    queries: int
    gz: bool
    qrels: Path
    run: Path

    @property
    def name(self) -> str:
        return f"{self.ids} {self.queries * DEPTH / 1e6:g}M{' gzip' if self.gz else ''}"


@dataclass
class Result:
    tool: str
    case: str
    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)
    ndcg10: float | None = None
    skipped: str | None = None

    @property
    def wall(self) -> float:
        return statistics.median(self.wall_s)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpu_s)

    @property
    def rss(self) -> float:
        return max(self.rss_mib)


# ---------------------------------------------------------------------------------------------- data


def generate(run_path: Path, qrels_path: Path, n_queries: int, ids: str, seed: int) -> None:
    """A TREC run and qrels shaped like MS MARCO (documents or passages), deterministically.

    60 to 160 judgments a query (about 110: 766k for 7,000 queries, as TREC DL pools), grades 0..3 with
    at least one relevant document per query; each judged document is retrieved with probability 0.3,
    more often near the top; 1,000 distinct documents a query with descending scores rounded to 4
    decimals, so about 2.5% of neighbours tie and trec_eval's tie rule matters.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    qids = rng.choice(MAX_QID, n_queries, replace=False)
    universe = N_PASSAGES if ids == "numeric" else N_DOCUMENTS
    weights = 1.0 / (np.arange(DEPTH) + 10.0)
    weights /= weights.sum()
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")

    def id_strings(numbers: np.ndarray) -> pa.Array:
        if ids == "msmarco":  # MS MARCO v2 documents: msmarco_doc_<2-digit bundle>_<byte offset>
            bundle = pc.utf8_lpad(pc.cast(pa.array(numbers % 60), pa.string()), 2, "0")
            offset = pc.cast(pa.array(numbers // 60 * 401 + 13), pa.string())
            return pc.binary_join_element_wise("msmarco_doc_", bundle, "_", offset, "")
        text = pc.cast(pa.array(numbers), pa.string())
        return text if ids == "numeric" else pc.binary_join_element_wise("D", text, "")

    run_tmp, qrels_tmp = Path(f"{run_path}.tmp"), Path(f"{qrels_path}.tmp")
    writers: list[pacsv.CSVWriter] = []
    for batch in range(0, n_queries, 500):
        run_cols: list[list[np.ndarray]] = [[], [], [], []]
        qrels_cols: list[list[np.ndarray]] = [[], [], []]
        for qid in qids[batch : batch + 500]:
            n_judged = int(rng.integers(60, 161))
            pool = rng.choice(universe, n_judged + DEPTH, replace=False)  # distinct: no duplicates in a ranking
            judged, docs = pool[:n_judged], pool[n_judged:].copy()
            grades = rng.choice(4, n_judged, p=[0.45, 0.25, 0.2, 0.1])
            if grades.max() == 0:  # every query has a relevant document, so IDCG > 0 for all tools alike
                grades[0] = rng.integers(1, 4)
            shown = judged[rng.random(n_judged) < 0.3]
            docs[rng.choice(DEPTH, len(shown), replace=False, p=weights)] = shown
            scores = np.round(rng.uniform(15, 30) - np.cumsum(rng.exponential(0.002, DEPTH)), 4)
            for column, values in zip(
                run_cols, (np.full(DEPTH, qid), docs, np.arange(1, DEPTH + 1), scores), strict=True
            ):
                column.append(values)
            for column, values in zip(qrels_cols, (np.full(n_judged, qid), judged, grades), strict=True):
                column.append(values)
        rq, rd, rr, rs = (np.concatenate(c) for c in run_cols)
        qq, qd, qg = (np.concatenate(c) for c in qrels_cols)
        run = pa.table(
            {
                "q": pc.cast(pa.array(rq), pa.string()),
                "z": pa.array(np.full(len(rq), "Q0")),
                "d": id_strings(rd),
                "r": pa.array(rr),
                "s": pc.cast(pa.array(rs), pa.string()),
                "t": pa.array(np.full(len(rq), "bench")),
            }
        )
        qrels = pa.table(
            {
                "q": pc.cast(pa.array(qq), pa.string()),
                "z": pa.array(np.full(len(qq), "0")),
                "d": id_strings(qd),
                "g": pa.array(qg),
            }
        )
        if not writers:
            writers = [
                pacsv.CSVWriter(str(run_tmp), run.schema, write_options=options),
                pacsv.CSVWriter(str(qrels_tmp), qrels.schema, write_options=options),
            ]
        writers[0].write_table(run)
        writers[1].write_table(qrels)
    for writer in writers:
        writer.close()
    # Renamed only when complete, so an interrupted generation is never taken for a cache.
    qrels_tmp.replace(qrels_path)
    run_tmp.replace(run_path)


def dataset(data_dir: Path, ids: str, n_queries: int, seed: int, gz: bool) -> Case:
    data_dir.mkdir(parents=True, exist_ok=True)
    stem = f"msmarco-like-v{GENERATOR_VERSION}-{ids}-q{n_queries}-d{DEPTH}-s{seed}"
    run_path, qrels_path = data_dir / f"{stem}.run", data_dir / f"{stem}.qrels"
    if not (run_path.exists() and qrels_path.exists()):
        print(f"generating {ids} {n_queries:,} x {DEPTH:,} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        generate(run_path, qrels_path, n_queries, ids, seed)
        print(f"  done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if gz:
        packed = run_path.with_suffix(".run.gz")
        if not packed.exists():
            print(f"compressing {run_path.name} ...", file=sys.stderr, flush=True)
            with open(run_path, "rb") as src, gzip.open(f"{packed}.tmp", "wb", compresslevel=6) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            Path(f"{packed}.tmp").replace(packed)
        run_path = packed
    return Case(ids, n_queries, gz, qrels_path, run_path)


# ------------------------------------------------------------------------------------------ trec_eval


def build_trec_eval(source: Path, into: Path) -> tuple[Path | None, str]:
    """trec_eval compiled with -O2 from ``source`` (a checkout, or a bare git directory), or why not."""
    binary = into / "trec_eval"
    if binary.exists():
        return binary, f"trec_eval built with -O2 from {source} (cached in {into})"
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler found: trec_eval is left out (give a binary with --trec-eval)"
    if not source.exists():
        return (
            None,
            f"trec_eval's source is not at {source}: give it with --trec-eval-src, or a binary with --trec-eval",
        )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "src"
        if (source / "Makefile").exists():
            shutil.copytree(source, work)
        else:  # a git directory without a work tree: export its newest commit
            work.mkdir()
            archive = subprocess.run(
                ["git", "--git-dir", str(source), "archive", "HEAD"], capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", str(work)], input=archive.stdout, check=True)
        version = "unknown"
        for line in (work / "Makefile").read_text().splitlines():
            if line.startswith("VERSIONID"):
                version = line.split("=", 1)[1].strip()
        flags = f'-O2 -I. -DVERSIONID=\\"{version}\\"'
        done = subprocess.run(["make", f"CC={compiler}", f"CFLAGS={flags}"], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"building trec_eval failed: {done.stderr.strip().splitlines()[-1:]}"
        into.mkdir(parents=True, exist_ok=True)
        shutil.copy2(work / "trec_eval", binary)
    return binary, f"trec_eval {version} built with {Path(compiler).name} -O2 from {source}"


# ------------------------------------------------------------------------------------------- timing


def command(tool: str, case: Case, trec_eval: Path | None) -> list[str]:
    qrels, run = str(case.qrels), str(case.run)
    if tool == "ndcg":
        return [
            sys.executable,
            "-m",
            "ndcg_desktop",
            "score",
            "--qrels",
            qrels,
            "--run",
            run,
            "--unjudged",
            "zero",
            "--k",
            "10",
            "--json",
        ]
    if tool == "trec_eval":
        if case.gz:  # trec_eval maps its input files (no pipe, no .gz): decompressed to a temporary file first
            script = 'zcat "$2" > "$3" && "$0" -m ndcg_cut.10 "$1" "$3"; status=$?; rm -f "$3"; exit $status'
            return ["sh", "-c", script, str(trec_eval), qrels, run, f"{case.run}.trec_eval.tmp"]
        return [str(trec_eval), "-m", "ndcg_cut.10", qrels, run]
    return [sys.executable, "-c", PEERS[tool][1], qrels, run]


# A child's peak RSS (ru_maxrss) starts from its parent's resident size at fork, and this script holds
# numpy and the generated data: each tool is therefore started by this small launcher, a fresh
# interpreter of a few MiB, which forks and execs the tool and reports the tool's own wait4 figures.
LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss], out)
"""


def run_once(cmd: list[str], stdout) -> tuple[float, float, float]:
    """(wall s, user+sys CPU s, peak RSS MiB) of one tool process (with the children it waited for)."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r", suffix=".json") as figures:
        subprocess.run([sys.executable, "-S", "-c", LAUNCHER, figures.name, *cmd], stdout=stdout, stderr=err, cwd=REPO)
        code, wall, cpu, rss = json.loads(figures.read() or "[-1, 0, 0, 0]")
        if code != 0:
            err.seek(0)
            raise RuntimeError(f"{cmd[:4]} exited {code}:\n{err.read().decode(errors='replace')[-2000:]}")
    return wall, cpu, rss / 1024  # ru_maxrss is KiB on Linux


def mean_from_output(tool: str, text: str) -> float:
    if tool == "ndcg":
        return float(json.loads(text)["summary"]["mean_ndcg"])
    if tool == "trec_eval":
        return float(text.split()[-1])
    return float(text.strip().splitlines()[-1])


def measure_case(case: Case, tools: list[str], repeats: int, trec_eval: Path | None, warm_up: bool) -> list[Result]:
    results = {tool: Result(tool, case.name) for tool in tools}
    for tool, result in results.items():
        if tool == "trec_eval" and trec_eval is None:
            result.skipped = "not built"
        elif tool in PEERS and importlib.util.find_spec(PEERS[tool][0]) is None:
            result.skipped = f"{PEERS[tool][0]} is not installed for {sys.executable}"
    live = [r for r in results.values() if not r.skipped]
    # Rounds: every tool once per round, so load changes hit all alike. An untimed warm-up round
    # first (page cache, numba's JIT cache for ranx) unless --no-warm-up; the first run's output
    # gives each tool's nDCG@10.
    for i in range(-1 if warm_up else 0, repeats):
        for result in list(live):
            try:
                with tempfile.TemporaryFile() as out:
                    wall, cpu, rss = run_once(command(result.tool, case, trec_eval), out)
                    if result.ndcg10 is None:
                        out.seek(0)
                        result.ndcg10 = mean_from_output(result.tool, out.read().decode())
            except (RuntimeError, ValueError, KeyError) as exc:  # one broken tool must not cost the others' figures
                result.skipped = f"failed: {str(exc).splitlines()[-1][:200]}"
                live.remove(result)
                continue
            if i >= 0:
                result.wall_s.append(wall)
                result.cpu_s.append(cpu)
                result.rss_mib.append(rss)
            print(
                f"{case.name}: {result.tool} {'warm-up' if i < 0 else f'{i + 1}/{repeats}'} {wall:.2f} s wall, "
                f"{cpu:.2f} s CPU, {rss:.0f} MiB (load {os.getloadavg()[0]:.1f})",
                file=sys.stderr,
                flush=True,
            )
    return list(results.values())


# ------------------------------------------------------------------------------------------ report

NAMES = {
    "ndcg": "`ndcg score`",
    "trec_eval": "trec_eval -O2",
    "pytrec_eval": "pytrec_eval",
    "ir_measures": "ir_measures",
    "ranx": "ranx",
}


def markdown(results: list[Result], cases: list[Case]) -> str:
    """The README table: per case, each tool's wall and CPU time, peak RSS, and ratios to trec_eval."""
    lines = [
        "| data | tool | wall s | CPU s | peak RSS MiB | wall / trec_eval | CPU / trec_eval | RSS / trec_eval "
        "| nDCG@10 |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for case in cases:
        rows = [r for r in results if r.case == case.name]
        base = next((r for r in rows if r.tool == "trec_eval" and not r.skipped), None)
        for r in rows:
            if r.skipped:
                lines.append(f"| {case.name} | {NAMES[r.tool]} | skipped: {r.skipped} | | | | | | |")
                continue
            ratios = (
                (f"{r.wall / base.wall:.2f}", f"{r.cpu / base.cpu:.2f}", f"{r.rss / base.rss:.2f}")
                if base
                else ("", "", "")
            )
            lines.append(
                f"| {case.name} | {NAMES[r.tool]} | {r.wall:.2f} | {r.cpu:.2f} | {r.rss:.0f} | "
                f"{ratios[0]} | {ratios[1]} | {ratios[2]} | {r.ndcg10:.6f} |"
            )
    return "\n".join(lines)


def linearity(results: list[Result], cases: list[Case]) -> list[str]:
    """Per million lines, ndcg and trec_eval at each size (issue 13's target 2: 20M within 10% of 7M)."""
    out = []
    for ids in sorted({c.ids for c in cases}):
        for tool in ("ndcg", "trec_eval"):
            per = []
            for case in sorted((c for c in cases if c.ids == ids and not c.gz), key=lambda c: c.queries):
                r = next((r for r in results if r.case == case.name and r.tool == tool and not r.skipped), None)
                if r is not None:
                    per.append(
                        (
                            case.queries * DEPTH / 1e6,
                            r.wall / (case.queries * DEPTH / 1e6),
                            r.cpu / (case.queries * DEPTH / 1e6),
                        )
                    )
            if per:
                shown = ", ".join(f"{m:g}M: {w:.3f} s wall, {c:.3f} s CPU" for m, w, c in per)
                out.append(f"- {ids}, {NAMES[tool]}, per million lines: {shown}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,7000,20000", help="queries per data set, x 1,000 lines each")
    parser.add_argument(
        "--ids",
        default="string,numeric",
        help="document ID kinds: string (D1234567), msmarco (msmarco_doc_17_10768284), numeric",
    )
    parser.add_argument("--gzip-size", type=int, default=7000, help="also time this size gzip-compressed (0: none)")
    parser.add_argument("--peers-at", default="7000", help="sizes at which pytrec_eval, ir_measures and ranx run too")
    parser.add_argument("--tools", default=",".join(TOOLS), help=f"subset of {','.join(TOOLS)}")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds after one warm-up (default 3)")
    parser.add_argument("--no-warm-up", action="store_true", help="no untimed round first (the files are cached)")
    parser.add_argument("--seed", type=int, default=20261130, help="seed of the generated data")
    parser.add_argument("--data-dir", type=Path, default=HERE / "data", help="cache for generated files and trec_eval")
    parser.add_argument("--trec-eval", type=Path, help="a trec_eval binary to use instead of building one")
    parser.add_argument("--trec-eval-src", type=Path, default=TREC_EVAL_SOURCE, help="trec_eval's source to build")
    parser.add_argument("--json-out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)

    tools = [t.strip() for t in args.tools.split(",")]
    if not set(tools) <= set(TOOLS):
        parser.error(f"unknown tool(s) {', '.join(sorted(set(tools) - set(TOOLS)))}; choose from {', '.join(TOOLS)}")
    sizes = [int(s) for s in args.sizes.split(",")]
    peers_at = {int(s) for s in args.peers_at.split(",") if s}
    kinds = [k.strip() for k in args.ids.split(",")]
    if args.repeats < 1 or not set(kinds) <= {"string", "msmarco", "numeric"}:
        parser.error("--repeats must be at least 1, --ids string, msmarco and/or numeric")

    trec_eval, how = (args.trec_eval, f"trec_eval binary {args.trec_eval}") if args.trec_eval else (None, "")
    if "trec_eval" in tools and trec_eval is None:
        trec_eval, how = build_trec_eval(args.trec_eval_src, args.data_dir / "trec_eval-O2")
    print(how, file=sys.stderr)

    cases = []
    for ids in kinds:
        for size in sizes:
            cases.append(dataset(args.data_dir, ids, size, args.seed, gz=False))
            if size == args.gzip_size:
                cases.append(dataset(args.data_dir, ids, size, args.seed, gz=True))
    load_before = os.getloadavg()
    results: list[Result] = []
    for case in cases:
        chosen = [t for t in tools if t in ("ndcg", "trec_eval") or (case.queries in peers_at and not case.gz)]
        results += measure_case(case, chosen, args.repeats, trec_eval, warm_up=not args.no_warm_up)
    load_after = os.getloadavg()

    print(
        f"\nMS MARCO-shaped runs, {DEPTH:,} documents a query, about 110 judgments a query; median of "
        f"{args.repeats} rounds{'' if args.no_warm_up else ' after one warm-up'}; {os.cpu_count()} cores; "
        f"Python {platform.python_version()}; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; {how}\n"
    )
    print(markdown(results, cases))
    print()
    print("\n".join(linearity(results, cases)))
    verdicts = []
    for case in cases:
        if case.queries != 7000:
            continue
        ours = next((r for r in results if r.case == case.name and r.tool == "ndcg" and not r.skipped), None)
        base = next((r for r in results if r.case == case.name and r.tool == "trec_eval" and not r.skipped), None)
        if ours and base:
            verdicts.append(
                f"- {case.name}: ndcg / trec_eval = {ours.wall / base.wall:.2f} wall, {ours.cpu / base.cpu:.2f} CPU "
                f"(target {TARGET_RATIO}); peak RSS {ours.rss:.0f} vs {base.rss:.0f} MiB "
                f"({'within' if ours.rss <= base.rss else 'over'} trec_eval's)"
            )
    if verdicts:
        print("\ntargets at 7M lines:\n" + "\n".join(verdicts))
    if args.json_out:
        doc = {
            "python": platform.python_version(),
            "cores": os.cpu_count(),
            "load": [load_before, load_after],
            "trec_eval": how,
            "results": [asdict(r) for r in results],
        }
        args.json_out.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
