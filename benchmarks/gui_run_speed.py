"""A 7M-line run imported, checked and scored through the desktop window, beside the command line.

Uses the MS MARCO-sized run that ``score_speed.py`` generates (cached under benchmarks/data/).
Each step runs in the window exactly as a user would start it (File > Import run, Check run,
Score) on the offscreen platform, while a 5 ms timer on the GUI thread records the longest gap
between its ticks: the longest time the window could not repaint or answer a click.

Peers, on the same files in fresh processes: ``ndcg score`` (the command line, same scoring code)
and pytrec_eval (trec_eval's C code). Ratios are the window's wall time over each peer's.

    python benchmarks/gui_run_speed.py                   # 7,000 queries x 1,000 documents
    python benchmarks/gui_run_speed.py --queries 300 --depth 100   # quick check
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from score_speed import PYTREC_EVAL, dataset, run_once  # noqa: E402


def gui_measure(qrels: Path, run: Path) -> dict[str, float]:
    """Import, check and score ``run`` through the main window; seconds and longest stalls (ms)."""
    tmp = Path(tempfile.mkdtemp(prefix="ndcg-gui-bench-"))
    for name in ("CONFIG", "STATE", "DATA"):
        (tmp / name).mkdir()
        os.environ[f"NDCG_DESKTOP_{name}_DIR"] = str(tmp / name)
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication

    from ndcg_desktop.domain import TiePolicy
    from ndcg_desktop.gui import tasks
    from ndcg_desktop.gui.main_window import MainWindow
    from ndcg_desktop.store import Project

    app = QApplication.instance() or QApplication([])
    project = tmp / "bench.ndcgproj"
    with Project.create(project) as p:
        p.import_qrels(qrels)
        p.freeze()
    window = MainWindow()
    window.show()
    window.open_project(project)
    view = window.analysis
    clock, gaps = QElapsedTimer(), []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: gaps.append(clock.restart()))

    def step(start, done) -> tuple[float, int]:
        gaps.clear()
        clock.start()
        timer.start()
        began = time.perf_counter()
        start()
        while not done():
            app.processEvents()
            time.sleep(0.001)
        while tasks._running:  # the progress dialog's own clean-up
            app.processEvents()
        seconds = time.perf_counter() - began
        timer.stop()
        return seconds, max(gaps, default=0)

    out: dict[str, float] = {}
    out["import_s"], out["import_stall_ms"] = step(
        lambda: window.import_run(str(run), values=("big", TiePolicy.DOCID_DESC, None, None)),
        lambda: view.run_box.findData("big") >= 0,
    )
    view.run_box.setCurrentIndex(view.run_box.findData("big"))
    out["check_s"], out["check_stall_ms"] = step(view.check, lambda: view.report is not None)
    view.choices["unjudged"].setCurrentIndex(view.choices["unjudged"].findData("zero"))
    out["score_s"], out["score_stall_ms"] = step(view.score_button.click, lambda: view.evaluation is not None)
    out["mean_ndcg"] = view.evaluation.summary["mean_ndcg"]
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    window.close_project()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--child", nargs=2, metavar=("QRELS", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(gui_measure(Path(args.child[0]), Path(args.child[1]))))
        return 0
    qrels, run = dataset(HERE / "data", args.queries, args.depth, args.seed)
    lines = sum(1 for _ in open(run, "rb"))
    # The window in a fresh process, like the peers (a warm page cache for all: the run was just read).
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(qrels), str(run)], capture_output=True, text=True, check=True
    )
    gui = json.loads(child.stdout.strip().splitlines()[-1])
    cli_cmd = [
        sys.executable,
        "-m",
        "ndcg_desktop",
        "score",
        "--qrels",
        str(qrels),
        "--run",
        str(run),
        "--unjudged",
        "zero",
        "--json",
    ]
    with open(os.devnull, "w") as null:
        cli_wall, _, cli_rss = run_once(cli_cmd, null)
        trec_wall, _, trec_rss = run_once([sys.executable, "-c", PYTREC_EVAL, str(qrels), str(run)], null)
    window_total = gui["import_s"] + gui["score_s"]
    print(f"run: {run.name} ({lines:,} lines)")
    print(
        f"window: import {gui['import_s']:.2f} s (longest stall {gui['import_stall_ms']} ms), "
        f"check {gui['check_s']:.2f} s ({gui['check_stall_ms']} ms), "
        f"score {gui['score_s']:.2f} s ({gui['score_stall_ms']} ms); peak RSS {gui['peak_rss_mib']:.0f} MiB; "
        f"nDCG@10 {gui['mean_ndcg']:.6f}"
    )
    print(f"ndcg score (CLI): {cli_wall:.2f} s, {cli_rss:.0f} MiB")
    print(f"pytrec_eval: {trec_wall:.2f} s, {trec_rss:.0f} MiB")
    print(
        f"ratio window import+score / CLI: {window_total / cli_wall:.2f}; / pytrec_eval: {window_total / trec_wall:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
