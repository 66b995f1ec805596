"""A large run imported, checked, scored, sent for judging and pooled through the desktop window.

Uses the MS MARCO-sized run that ``score_speed.py`` generates (cached under benchmarks/data/).
Each step runs in the window as a user would start it (File > Import run, Check run, Score, Send
for judging... with its preview and confirmation, Pool > Build pool from runs at depth 100) on the
offscreen platform, while ``ndcg_desktop.gui.stall_meter.StallMeter`` watches the GUI thread from another thread:
every probe it posts waits in the queue while the GUI thread is busy, so no block escapes it,
including work done after a step's result arrived (refreshing views, loading models).

Peers, on the same files in fresh processes: ``ndcg score`` (the command line, same scoring code)
and pytrec_eval (trec_eval's C code). Ratios are the window's wall time over each peer's.

    python benchmarks/gui_run_speed.py                    # 7,000 queries x 1,000 documents
    python benchmarks/gui_run_speed.py --queries 1000     # 1M lines
    python benchmarks/gui_run_speed.py --queries 300      # quick check (300,000 lines)
    python benchmarks/gui_run_speed.py --ids string       # document IDs like D1234567 (default: numeric)
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
    """Import, check, score, send for judging and preview a depth-100 pool; seconds and longest stalls (ms)."""
    tmp = Path(tempfile.mkdtemp(prefix="ndcg-gui-bench-"))
    for name in ("CONFIG", "STATE", "DATA"):
        (tmp / name).mkdir()
        os.environ[f"NDCG_DESKTOP_{name}_DIR"] = str(tmp / name)
    from PySide6.QtWidgets import QApplication, QDialog

    from ndcg_desktop.domain import TiePolicy
    from ndcg_desktop.gui import tasks
    from ndcg_desktop.gui.main_window import MainWindow
    from ndcg_desktop.gui.pools import dialogs as pools_dialogs
    from ndcg_desktop.gui.scores.send import SendForJudgingDialog
    from ndcg_desktop.gui.stall_meter import StallMeter
    from ndcg_desktop.store import Project
    from ndcg_desktop.tasks.freezing import freeze_draft

    app = QApplication.instance() or QApplication([])
    project = tmp / "bench.ndcgproj"
    with Project.create(project, annotator="tester") as p:
        p.judgments.import_qrels(qrels, annotator="tester")
        freeze_draft(p, annotator="tester")
    window = MainWindow()
    window.show()
    window.open_project(project)
    view = window.scores

    def step(start, done) -> tuple[float, float]:
        with StallMeter() as meter:
            began = time.perf_counter()
            start()
            while not done():
                app.processEvents()
                time.sleep(0.001)
            while tasks._running:  # the progress dialog's own clean-up
                app.processEvents()
            seconds = time.perf_counter() - began
        print(f"where threads were while the GUI thread was late, {meter.longest_ms:.0f} ms at worst:", file=sys.stderr)
        print(meter.culprits(4) or "    (nowhere: no probe waited 50 ms)", file=sys.stderr)
        return seconds, round(meter.longest_ms, 1)

    out: dict[str, float] = {}
    out["import_s"], out["import_stall_ms"] = step(
        lambda: window.import_run(str(run), values=("big", TiePolicy.DOCID_DESC, None, None)),
        lambda: view.run_box.findData("big") >= 0,
    )
    view.run_box.setCurrentIndex(view.run_box.findData("big"))
    out["check_s"], out["check_stall_ms"] = step(view.check, lambda: view.report is not None)
    unjudged = view.report.unjudged_total
    view.choices["unjudged"].setCurrentIndex(view.choices["unjudged"].findData("zero"))
    out["score_s"], out["score_stall_ms"] = step(view.score_button.click, lambda: view.evaluation is not None)
    out["mean_ndcg"] = view.evaluation.summary["mean_ndcg"]

    # Send every unjudged document for judging: preview at full depth, confirm, add in the background.
    view.choices["unjudged"].setCurrentIndex(view.choices["unjudged"].findData("send"))
    state: dict[str, object] = {}

    def send() -> None:
        view.score_button.click()
        dialog = view.findChild(SendForJudgingDialog)
        dialog.depth_box.setValue(dialog.depth_box.maximum())
        state["dialog"] = dialog

    def previewed() -> bool:
        dialog = state["dialog"]
        return dialog.plan is not None and dialog.plan.depth == dialog.depth_box.maximum()

    out["send_preview_s"], out["send_preview_stall_ms"] = step(send, previewed)
    out["sent_documents"] = state["dialog"].plan.total
    messages: list[str] = []
    import ndcg_desktop.gui.main_window as main_window_module

    # The "Sent for judging" box is modal: record its text instead of waiting for a click.
    main_window_module.show_message = lambda parent, icon, title, text, *rest: messages.append(text)  # type: ignore[assignment]
    out["send_s"], out["send_stall_ms"] = step(state["dialog"].add_button.click, lambda: bool(messages))
    out["unjudged_in_run"] = unjudged

    # Pool > Build pool from runs, previewing depth 100 (the preview waits for a pause, then runs in the background).
    window.undo_stack.clear()
    pools_dialogs.BuildPoolDialog.exec = lambda self: (state.__setitem__("pool", self), QDialog.DialogCode.Rejected)[1]  # type: ignore[method-assign]
    window.build_pool()
    pool = state["pool"]

    def depth_100() -> None:
        for depth in range(11, 101):  # a held-down arrow key: ninety ticks
            pool.pool_depth.setValue(depth)
            app.processEvents()

    out["pool_preview_s"], out["pool_preview_stall_ms"] = step(
        depth_100, lambda: pool.counts is not None and not pool.timer.isActive() and pool._task is None
    )
    out["pool_preview_queries"] = len(pool.counts)
    pool.done(0)
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    window.close_project()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--ids", choices=("numeric", "string"), default="numeric", help="the run's document ID kind")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--where", action="store_true", help="print where the threads were during each step's stalls")
    parser.add_argument("--child", nargs=2, metavar=("QRELS", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(gui_measure(Path(args.child[0]), Path(args.child[1]))))
        return 0
    case = dataset(HERE / "data", args.ids, args.queries, args.seed, gz=False)  # score_speed's data: 1,000 a query
    qrels, run = case.qrels, case.run
    lines = sum(1 for _ in open(run, "rb"))
    # The window in a fresh process, like the peers (a warm page cache for all: the run was just read).
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(qrels), str(run)], capture_output=True, text=True, check=True
    )
    gui = json.loads(child.stdout.strip().splitlines()[-1])
    if args.where:
        print("".join(line for line in child.stderr.splitlines(True) if "propagateSizeHints" not in line))
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
    print(
        f"send for judging {gui['sent_documents']:,} of {gui['unjudged_in_run']:,} unjudged documents: preview "
        f"{gui['send_preview_s']:.2f} s ({gui['send_preview_stall_ms']} ms), confirm and add {gui['send_s']:.2f} s "
        f"({gui['send_stall_ms']} ms)"
    )
    print(
        f"build-pool preview, depth 10 -> 100 by 90 ticks: {gui['pool_preview_s']:.2f} s "
        f"({gui['pool_preview_stall_ms']} ms), {gui['pool_preview_queries']:,} queries"
    )
    print(f"ndcg score (CLI): {cli_wall:.2f} s, {cli_rss:.0f} MiB")
    print(f"pytrec_eval: {trec_wall:.2f} s, {trec_rss:.0f} MiB")
    print(
        f"ratio window import+score / CLI: {window_total / cli_wall:.2f}; / pytrec_eval: {window_total / trec_wall:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
