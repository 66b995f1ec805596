"""The window keeps answering while a large run is imported and checked in the background."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ndcg_desktop.domain import TiePolicy
from ndcg_desktop.gui.stall_meter import StallMeter
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

LINES = 1_000_000
pytestmark = pytest.mark.slow  # a 1M-line run through the window: tens of seconds


@pytest.fixture
def big_run(tmp_path):
    """1,000 queries x 1,000 documents in TREC format (about 33 MB), written with numpy."""
    q = np.repeat(np.arange(1000), 1000)
    rank = np.tile(np.arange(1, 1001), 1000)
    d = q * 1000 + rank - 1  # distinct within each query
    path = tmp_path / "big.run"
    with open(path, "w") as handle:
        for start in range(0, LINES, 200_000):
            s = slice(start, start + 200_000)
            lines = [f"q{a} Q0 D{b} {r} {1000 - r} sys\n" for a, b, r in zip(q[s], d[s], rank[s], strict=True)]
            handle.write("".join(lines))
    return path


def test_importing_and_checking_a_million_line_run_never_freezes_the_window(window, tmp_path, big_run, qtbot):
    path = tmp_path / "big.ndcgproj"
    qrels = tmp_path / "q.txt"
    qrels.write_text("".join(f"q{i} 0 D{i * 1000 + 500} 1\n" for i in range(1000)))  # each at rank 501
    with Project.create(path, annotator="tester") as p:
        p.judgments.import_qrels(qrels, annotator="tester")
        freeze_draft(p, annotator="tester")
    window.open_project(path)
    with StallMeter() as importing:
        started = time.perf_counter()
        window.import_run(str(big_run), values=("big", TiePolicy.DOCID_DESC, None, None))
        qtbot.waitUntil(lambda: window.analysis.run_box.findData("big") >= 0, timeout=120_000)
        import_seconds = time.perf_counter() - started
    view = window.analysis
    view.run_box.setCurrentIndex(view.run_box.findData("big"))
    with StallMeter() as checking:
        view.check()
        qtbot.waitUntil(lambda: view.report is not None, timeout=120_000)
    report = view.report
    assert (report.unjudged_total, report.unjudged_in_top_k, report.duplicates) == (LINES - 1000, 10_000, 0)
    print(
        f"\n1M-line run: import {import_seconds:.2f} s, longest stall {importing.longest_ms} ms; "
        f"check longest stall {checking.longest_ms} ms\n{importing.culprits()}\ncheck:\n{checking.culprits()}"
    )
    # Measured with the watchdog meter (2 shared cores): import 35-45 ms at load 2, 40-100 ms at load 5,
    # 70-170 ms with one more busy process; check 20-60 ms. Before the reader's byte scans released the
    # GIL and the query list stopped measuring rows through data(): 170-340 ms. A quarter of a second is
    # a freeze people notice; the margin is for a busy CI machine.
    assert importing.longest_ms < 250, importing.culprits()
    assert checking.longest_ms < 250, checking.culprits()
