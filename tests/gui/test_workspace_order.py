"""Query and document IDs are listed in natural order (q2 before q10) in every workspace view and dialog."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from ndcg_desktop.gui.pools import dialogs as pools_dialogs
from ndcg_desktop.store import Project


def test_build_pool_preview_lists_queries_in_natural_order(window, tmp_path, monkeypatch, qtbot):
    path = tmp_path / "natural.ndcgproj"
    run = tmp_path / "r.run"
    ids = ["q10", "q2", "q1", "q11", "q100"]
    run.write_text("".join(f"{q} Q0 D{i} 1 1 s\n" for i, q in enumerate(ids)))
    with Project.create(path, annotator="tester") as p:
        p.runs.import_run(run, name="r", annotator="tester")
    window.open_project(path)
    listed = {}

    def look(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)  # the preview runs in the background
        model = dialog.table.model()
        listed["queries"] = [model.index(row, 0).data() for row in range(model.rowCount())]
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", look)
    window.build_pool()
    assert listed["queries"] == ["q1", "q2", "q10", "q11", "q100"]


def test_query_list_and_pool_sort_naturally(window, tmp_path):
    path = tmp_path / "natural.ndcgproj"
    qrels = tmp_path / "j.qrels"
    qrels.write_text("".join(f"q{q} 0 D{d} -1\n" for q in (10, 2, 1) for d in (10, 9, 100)))
    with Project.create(path, annotator="tester") as p:
        p.judgments.import_qrels(qrels, negative_as_ungraded=True, annotator="tester")
        p.judgments.set_judging_order("doc_id")  # the default is blind order (tests/gui/test_workspace_blind.py)
    window.open_project(path)
    ws = window.workspace
    assert [ws.query_proxy.index(r, 0).data() for r in range(3)] == ["q1", "q2", "q10"]
    assert [ws.pool_proxy.index(r, 0).data() for r in range(3)] == ["D9", "D10", "D100"]


def test_the_build_pool_preview_table_is_prepared_on_the_worker(window, tmp_path, monkeypatch, qtbot):
    """7,000 queries made 21,000 table items on the GUI thread at every preview (the 7M-line benchmark's
    longest stall of the pool preview); the worker now sorts and formats the rows, the view only shows them."""
    import threading

    path = tmp_path / "many.ndcgproj"
    run = tmp_path / "r.run"
    run.write_text("".join(f"q{q} Q0 D{q}-{d} {d} {9 - d} s\n" for q in range(300) for d in range(1, 4)))
    with Project.create(path, annotator="tester") as p:
        p.runs.import_run(run, name="r", annotator="tester")
    window.open_project(path)
    original, on_gui = pools_dialogs.pool_preview_table, []

    def spy(counts):
        on_gui.append(threading.current_thread() is threading.main_thread())
        return original(counts)

    monkeypatch.setattr(pools_dialogs, "pool_preview_table", spy)
    seen = {}

    def look(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=10_000)
        model = dialog.table.model()
        seen["rows"] = [[model.index(r, c).data() for c in range(5)] for r in (0, 1, 2, 299)]
        seen["headers"] = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)]
        seen["summary"] = dialog.summary.text()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", look)
    window.build_pool()
    assert on_gui == [False]
    # depth 10 takes each query's 3 documents (no budget: all of them), all new (the project has no pool yet)
    assert seen["rows"] == [[q, "3", "3", "3", "3"] for q in ("q0", "q1", "q2", "q299")]
    assert seen["headers"] == ["Query", "Depth pool", "Budget", "Chosen", "New to the pool"]
    assert seen["summary"] == "900 new documents for 300 queries will await grading."
