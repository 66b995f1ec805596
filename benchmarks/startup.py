"""Start-up time of ``ndcg-desktop`` (launch to a shown, usable window) and of ``ndcg score`` on small files.

Each case is a fresh process on the offscreen platform with ``NDCG_DESKTOP_EXIT_AFTER_SHOW=1``:
the application builds its window, opens what it was asked to open, handles the pending events,
prints and leaves. The time is taken by this script around the whole process (interpreter start,
imports, window, exit). The peer is the smallest PySide6 program that shows a QMainWindow, which
is the floor any PySide6 application pays.

    python benchmarks/startup.py              # 7 runs per case, medians
    python benchmarks/startup.py --cold       # also drop the page cache before each run (needs root)

``--cli`` measures the command line instead (issue 37), each tool a fresh process in alternating rounds, wall and
CPU (user + system, from ``wait4``) medians: ``ndcg score`` from each checkout given (``PYTHONPATH``, run from a
temporary folder; default this one) against trec_eval -O2 (``score_speed.py`` builds it), ``ir_measures QRELS RUN
nDCG@10`` (its command line) and ``python -c pass``, first on a 10-line run and 10-line judgments, then a loop of
``--loop`` calls (default 100), each over its own 1,000-line run (10 queries x 100 documents), as a script that
scores one run file per call does:

    python benchmarks/startup.py --cli --rounds 5 /tmp/perf-base .      # two checkouts side by side
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PEER = """
import os, sys
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setCentralWidget(QLabel("hello"))
window.show()
app.processEvents()
"""


def drop_caches() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def once(cmd: list[str], env: dict[str, str], cold: bool) -> float:
    if cold and not drop_caches():
        raise SystemExit("--cold needs permission to write /proc/sys/vm/drop_caches (root)")
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _timed(cmd: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall s, user + system CPU s) of one process."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert child.stderr is not None
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[:4]} failed: {child.stderr.read().decode(errors='replace')[-1000:]}")
    child.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def _small_files(folder: Path, loop: int) -> tuple[Path, Path, list[Path]]:
    """A 10-line qrels and run, and ``loop`` runs of 1,000 lines (10 queries x 100 documents) with their qrels."""
    import random

    rng = random.Random(20261203)
    qrels, run = folder / "ten.qrels", folder / "ten.run"
    qrels.write_text("".join(f"{q} 0 D{q}{d} {rng.randint(0, 3)}\n" for q in (1, 2) for d in range(5)))
    run.write_text("".join(f"{q} Q0 D{q}{d} {d + 1} {10 - d}.5 r\n" for q in (1, 2) for d in range(5)))
    judged = folder / "loop.qrels"
    docs = {q: rng.sample(range(100_000), 300) for q in range(1, 11)}
    judged.write_text("".join(f"{q} 0 D{d} {rng.randint(0, 3)}\n" for q in docs for d in docs[q][:60]))
    runs = []
    for i in range(loop):
        path = folder / f"loop{i:03d}.run"
        lines = []
        for q in docs:
            ranked = rng.sample(docs[q], 100)
            lines += [f"{q} Q0 D{d} {r + 1} {100 - r}.{rng.randint(0, 9)} run{i}\n" for r, d in enumerate(ranked)]
        path.write_text("".join(lines))
        runs.append(path)
    return qrels, run, [judged, *runs]


def command_line(args: argparse.Namespace) -> int:
    """``ndcg score`` on small files against trec_eval, ir_measures and an empty interpreter (issue 37)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from score_speed import TREC_EVAL_SOURCE, build_trec_eval

    trec_eval, how = build_trec_eval(TREC_EVAL_SOURCE, REPO / "benchmarks" / "data" / "trec_eval-O2")
    print(how, file=sys.stderr)
    py = sys.executable
    ir_measures = Path(py).with_name("ir_measures")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # cached bytecode, as users run
    checkouts = [str(Path(c).resolve()) for c in args.checkouts or [REPO]]
    with tempfile.TemporaryDirectory(prefix="ndcg-startup-cli-") as tmp:
        qrels, run, (judged, *runs) = _small_files(Path(tmp), args.loop)

        def tools(q: Path, r: Path) -> list[tuple[str, list[str], dict[str, str]]]:
            found = [("python -c pass", [py, "-c", "pass"], env)]
            if trec_eval is not None:
                found.append(("trec_eval -O2", [str(trec_eval), "-m", "ndcg_cut.10", str(q), str(r)], env))
            if ir_measures.exists():
                found.append(("ir_measures (command line)", [py, str(ir_measures), str(q), str(r), "nDCG@10"], env))
            for checkout in checkouts:
                score = [py, "-m", "ndcg_desktop", "score", "--qrels", str(q), "--run", str(r), "--unjudged", "zero"]
                found.append((f"ndcg score ({checkout})", score, dict(env, PYTHONPATH=checkout)))
            return found

        names = [name for name, _, _ in tools(qrels, run)]
        single: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        loops: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for round_ in range(args.rounds + 1):  # round 0 warms the page cache and bytecode
            for name, cmd, tool_env in tools(qrels, run):
                figures = _timed(cmd, tool_env, tmp)
                if round_:
                    single[name].append(figures)
            for i, (name, _, _) in enumerate(tools(qrels, run)):
                if not round_:
                    continue
                wall = cpu = 0.0
                for path in runs:
                    w, c = _timed(tools(judged, path)[i][1], tools(judged, path)[i][2], tmp)
                    wall, cpu = wall + w, cpu + c
                loops[name].append((wall, cpu))
                print(f"round {round_} {name}: loop {wall:.2f} s wall, {cpu:.2f} s CPU", file=sys.stderr, flush=True)
    load = os.getloadavg()
    print(f"\nmedians of {args.rounds} alternating rounds; load average at the end {load[0]:.1f} {load[1]:.1f}\n")
    base = "trec_eval -O2" if trec_eval is not None else names[0]
    peer = "ir_measures (command line)" if ir_measures.exists() else base
    print(
        f"| tool | 10-line file: wall ms | CPU ms | / {peer} (wall) | loop of {args.loop} x 1,000 lines: wall s "
        f"| CPU s | / {base} (wall) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    med = {n: [statistics.median(c) for c in zip(*single[n], strict=True)] for n in names}
    loop_med = {n: [statistics.median(c) for c in zip(*loops[n], strict=True)] for n in names}
    for n in names:
        print(
            f"| {n} | {med[n][0] * 1000:.0f} | {med[n][1] * 1000:.0f} | {med[n][0] / med[peer][0]:.2f} "
            f"| {loop_med[n][0]:.2f} | {loop_med[n][1]:.2f} | {loop_med[n][0] / loop_med[base][0]:.2f} |"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cold", action="store_true", help="drop the page cache before every run (root only)")
    parser.add_argument("--cli", action="store_true", help="the command line on small files instead of the window")
    parser.add_argument("--rounds", type=int, default=3, help="with --cli: alternating rounds")
    parser.add_argument("--loop", type=int, default=100, help="with --cli: calls in the loop")
    parser.add_argument("checkouts", nargs="*", help="with --cli: folders holding an ndcg_desktop package")
    args = parser.parse_args(argv)
    if args.cli:
        return command_line(args)
    folders = {name: tempfile.mkdtemp(prefix=f"ndcg-startup-{name.lower()}-") for name in ("CONFIG", "STATE", "DATA")}
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NDCG_DESKTOP_EXIT_AFTER_SHOW="1")
    env.update({f"NDCG_DESKTOP_{name}_DIR": path for name, path in folders.items()})
    py = sys.executable
    subprocess.run([py, "-m", "ndcg_desktop", "--demo"], env=env, cwd=REPO, check=True, capture_output=True)
    cases = [
        ("PySide6 hello window (peer)", [py, "-c", PEER]),
        ("ndcg-desktop, welcome page", [py, "-m", "ndcg_desktop"]),
        ("ndcg-desktop --demo (project open)", [py, "-m", "ndcg_desktop", "--demo"]),
        ("ndcg-desktop --demo --language zh_CN", [py, "-m", "ndcg_desktop", "--demo", "--language", "zh_CN"]),
        ("ndcg-desktop --version", [py, "-m", "ndcg_desktop.gui.app", "--version"]),
    ]
    results = []
    for name, cmd in cases:
        times = [once(cmd, env, args.cold) for _ in range(args.repeats)]
        results.append((name, statistics.median(times), max(times)))
        print(f"{name}: median {results[-1][1]:.2f} s, slowest {results[-1][2]:.2f} s", file=sys.stderr, flush=True)
    peer = results[0][1]
    cache = "cold" if args.cold else "warm"
    print(f"| case ({cache} page cache, {args.repeats} runs) | median s | slowest s | / peer |")
    print("|---|---:|---:|---:|")
    for name, median, slowest in results:
        print(f"| {name} | {median:.2f} | {slowest:.2f} | {median / peer:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
