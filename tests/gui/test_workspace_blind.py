"""Blind judging: each query's pool in a stable order shuffled per query, recorded in the project (issue 14)."""

from __future__ import annotations

from ndcg_desktop.domain.blind import BLIND, DOC_ID, blind_key
from ndcg_desktop.domain.natural import natural_sorted
from ndcg_desktop.store import Project

from .conftest import shot

DOCS = [f"D{i}" for i in range(1, 13)]


def shown(ws) -> list[str]:
    return [ws.pool_proxy.index(r, 0).data() for r in range(ws.pool_proxy.rowCount())]


def make(tmp_path):
    path = tmp_path / "blind.ndcgproj"
    qrels = tmp_path / "j.qrels"
    qrels.write_text("".join(f"{q} 0 {d} -1\n" for q in ("q1", "q2") for d in DOCS))
    with Project.create(path, annotator="tester") as p:
        p.judgments.import_qrels(qrels, negative_as_ungraded=True, annotator="tester")
    return path


def test_the_pool_is_shown_blind_by_default_shuffled_per_query(window, tmp_path, qtbot):
    path = make(tmp_path)
    window.resize(1280, 800)
    window.open_project(path)
    qtbot.wait(20)
    ws = window.workspace
    q1 = sorted(DOCS, key=lambda d: blind_key("q1", d))  # the recorded rule: sha256(query_id U+001F doc_id)
    q2 = sorted(DOCS, key=lambda d: blind_key("q2", d))
    assert q1 != natural_sorted(DOCS) and q1 != q2  # neither the ID order nor one order for every query
    assert ws.order_box.currentData() == BLIND and ws.pool_view.isColumnHidden(ws.pool.BLIND_COLUMN)
    assert shown(ws) == q1 and ws.session.doc_id == q1[0]
    shot(window, "blind_order")
    ws.pool_view.setFocus()
    for _ in range(3):
        qtbot.keyClick(ws.pool_view, "1")
    assert ws.session.doc_id == q1[3]  # grading walks the blind order
    ws.select_query_row(1)
    assert ws.session.query_id == "q2" and shown(ws) == q2
    with Project.open(path, read_only=True) as p:
        assert p.judgments.judging_order() == BLIND


def test_document_id_order_is_a_recorded_choice(window, tmp_path):
    path = make(tmp_path)
    window.open_project(path)
    ws = window.workspace
    current = ws.session.doc_id
    ws.order_box.setCurrentIndex(ws.order_box.findData(DOC_ID))
    ws.order_box.activated.emit(ws.order_box.currentIndex())
    assert shown(ws) == natural_sorted(DOCS) and ws.session.doc_id == current
    with Project.open(path, read_only=True) as p:
        assert p.judgments.judging_order() == DOC_ID
    window.close_project()
    window.open_project(path)
    assert window.workspace.order_box.currentData() == DOC_ID and shown(window.workspace) == natural_sorted(DOCS)
