"""Project data is shown as text, never interpreted as HTML (issue 11, item 7).

Qt guesses rich text from a leading tag, so a query ID, a title, a grade label, a file name or an
error message quoting one could load a local image (``<img src="file:///...">``). The image here is
pure red: if any view rendered the markup, red pixels would appear in its screenshot.
"""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QTextDocumentFragment
from PySide6.QtWidgets import QDialog

from ndcg_desktop.gui.pools import dialogs as pools_dialogs
from ndcg_desktop.gui.project import dialogs as project_dialogs
from ndcg_desktop.store import Project

from .conftest import shot

RED = 0xFFFF0000


def red_pixels(widget) -> int:
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.width() * image.height())
    return int((pixels == RED).sum())


def plain(tooltip: str) -> str:
    return QTextDocumentFragment.fromHtml(tooltip).toPlainText()


@pytest.fixture
def red_png(tmp_path):
    path = tmp_path / "red.png"
    image = QImage(48, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("#ff0000"))
    assert image.save(str(path))
    return path


@pytest.fixture
def hostile_project(tmp_path, red_png):
    """IDs, query text, title, document text and grade labels that all carry an <img> tag."""
    tag = f'<img src="{red_png.as_uri()}">'
    path = tmp_path / "hostile.ndcgproj"
    (tmp_path / "q.tsv").write_text(f"q1\t{tag} amp pools\n")
    doc = {"doc_id": "D1", "title": f"{tag} title", "text": f"{tag} AT&T sells amplifiers for pools."}
    (tmp_path / "d.jsonl").write_text(json.dumps(doc) + "\n")
    (tmp_path / "j.qrels").write_text("q1 0 D1 -1\n")
    labels = [f"{tag}not", "related", "high", "perfect"]
    with Project.create(path, annotator="tester", labels=labels) as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.texts.import_documents(tmp_path / "d.jsonl")
        p.judgments.import_qrels(tmp_path / "j.qrels", negative_as_ungraded=True, annotator="tester")
    # IDs with markup can no longer be imported; a project written before that rule still shows them as text.
    conn = sqlite3.connect(path)
    with conn:
        for table, column, old, new in (
            ("queries", "query_id", "q1", f"{tag}q"),
            ("judgments", "query_id", "q1", f"{tag}q"),
            ("documents", "doc_id", "D1", f"{tag}d"),
            ("judgments", "doc_id", "D1", f"{tag}d"),
        ):
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
    conn.close()
    return path, tag


def test_ids_titles_and_text_show_as_text_in_the_workspace(window, hostile_project, qtbot):
    path, tag = hostile_project
    window.resize(1280, 800)
    assert window.open_project(path)
    qtbot.wait(20)  # new grade buttons are shown by a queued call
    ws = window.workspace
    assert ws.session.query_id == f"{tag}q" and ws.session.doc_id == f"{tag}d"
    shot(window, "hostile_workspace")
    assert red_pixels(window) == 0
    assert ws.query_label.textFormat() == Qt.TextFormat.PlainText
    assert ws.query_label.text() == f"{tag}q — {tag} amp pools"
    assert ws.doc_title.textFormat() == Qt.TextFormat.PlainText
    assert ws.doc_title.text() == f"{tag}d — {tag} title"
    assert ws.reader.toPlainText() == f"{tag} AT&T sells amplifiers for pools."
    query_tip = ws.query_proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert plain(query_tip) == f"{tag}q: {tag} amp pools\n0 of 1 graded"
    assert plain(ws.pool_proxy.index(0, 1).data(Qt.ItemDataRole.ToolTipRole)) == f"{tag} title"


def test_highlighting_escapes_text_and_never_matches_inside_an_escape():
    from ndcg_desktop.gui.annotate.highlight import highlighted_html

    html = highlighted_html('AT&T <b>amp</b> "amplifiers"', "amp")
    assert plain(html) == 'AT&T <b>amp</b> "amplifiers"'
    assert html.count("<span") == 2  # 'amp' and 'amplifiers', not the 'amp' of '&amp;'
    assert "AT&amp;T" in html and "&amp;amp;" not in html


def test_grade_labels_in_the_freeze_dialog_show_as_text(window, hostile_project, monkeypatch):
    path, tag = hostile_project
    window.open_project(path)
    seen = {}

    def look(dialog):
        dialog.show()
        seen["red"] = red_pixels(dialog)
        seen["labels"] = [w.text() for w in dialog.findChildren(project_dialogs.QLabel) if tag in w.text()]
        seen["formats"] = {w.textFormat() for w in dialog.findChildren(project_dialogs.QLabel) if tag in w.text()}
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pools_dialogs.FreezeDialog, "exec", look)
    window.freeze()
    assert seen == {"red": 0, "labels": [f"Grade 0 · {tag}not"], "formats": {Qt.TextFormat.PlainText}}


def test_file_names_in_the_import_preview_and_in_error_dialogs_show_as_text(
    window, small_project, tmp_path, red_png, monkeypatch, messages, qtbot
):
    monkeypatch.chdir(red_png.parent)  # a relative image source resolves against the working folder
    folder = tmp_path / '<img src="red.png">'
    folder.mkdir()
    bad_run = folder / "bad.run"
    bad_run.write_text("q1 Q0 A 1 1 s\nq1 Q0 B 2\n")
    dialog = project_dialogs.ImportRunDialog("bad", [], str(bad_run))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.reading.textFormat() == Qt.TextFormat.PlainText
    assert dialog.reading.text().startswith(f"{bad_run}:2: expected 6 columns")
    assert red_pixels(dialog) == 0

    window.open_project(small_project)
    bad_docs = folder / "bad.jsonl"
    bad_docs.write_text('{"doc_id": \n')
    window.import_documents(str(bad_docs))
    qtbot.waitUntil(lambda: bool(messages), timeout=5000)
    assert len(messages) == 1 and messages[0][0] == "warning"
    assert messages[0][1].startswith(f"{bad_docs}:1: not valid JSON")
    assert [box.textFormat() for box in messages.boxes] == [Qt.TextFormat.PlainText]
