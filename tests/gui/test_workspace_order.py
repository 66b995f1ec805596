"""Query and document IDs are listed in natural order (q2 before q10) in every workspace view and dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog

from ndcg_desktop.gui import dialogs as dialogs_module
from ndcg_desktop.store import Project


def test_build_pool_preview_lists_queries_in_natural_order(window, tmp_path, monkeypatch, qtbot):
    path = tmp_path / "natural.ndcgproj"
    run = tmp_path / "r.run"
    ids = ["q10", "q2", "q1", "q11", "q100"]
    run.write_text("".join(f"{q} Q0 D{i} 1 1 s\n" for i, q in enumerate(ids)))
    with Project.create(path, user="tester") as p:
        p.import_run(run, name="r")
    window.open_project(path)
    listed = {}

    def look(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)  # the preview runs in the background
        listed["queries"] = [dialog.table.item(row, 0).text() for row in range(dialog.table.rowCount())]
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(dialogs_module.BuildPoolDialog, "exec", look)
    window.build_pool()
    assert listed["queries"] == ["q1", "q2", "q10", "q11", "q100"]


def test_query_list_and_pool_sort_naturally(window, tmp_path):
    path = tmp_path / "natural.ndcgproj"
    qrels = tmp_path / "j.qrels"
    qrels.write_text("".join(f"q{q} 0 D{d} -1\n" for q in (10, 2, 1) for d in (10, 9, 100)))
    with Project.create(path, user="tester") as p:
        p.import_qrels(qrels, negative_as_ungraded=True)
        p.set_judging_order("doc_id")  # the default is blind order (tests/gui/test_workspace_blind.py)
    window.open_project(path)
    ws = window.workspace
    assert [ws.query_proxy.index(r, 0).data() for r in range(3)] == ["q1", "q2", "q10"]
    assert [ws.pool_proxy.index(r, 0).data() for r in range(3)] == ["D9", "D10", "D100"]
