"""Chunks in the window: a chunk map file chosen when importing a run; a chunk judged inside its document."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.gui.annotate.reader import PASSAGE_BACKGROUND
from ndcg_desktop.gui.project.dialogs import ImportRunDialog
from ndcg_desktop.store import Project

from .conftest import shot

PARENT = "Intro: what a pool is.\n\nA frozen pool is hashed once and never changes.\n\nThe end."
PASSAGE = "A frozen pool is hashed once and never changes."


@pytest.fixture
def chunk_project(tmp_path):
    """q1's draft pool holds the chunk P1#1 and the chunk Q2#0; the run rag maps them to P1 and Q2."""
    docs = [
        {"doc_id": "P1", "title": "All about pools", "text": PARENT},
        {"doc_id": "P1#1", "title": "", "text": PASSAGE},
        {"doc_id": "Q2#0", "title": "", "text": "An orphan passage."},  # its document Q2 is not imported
        {"doc_id": "R3#0", "title": "", "text": "Words that its document does not hold."},
        {"doc_id": "R3", "title": "Elsewhere", "text": "Something else entirely."},
    ]
    (tmp_path / "d.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (tmp_path / "q.tsv").write_text("q1\tfrozen pools\n")
    (tmp_path / "j.qrels").write_text("q1 0 P1#1 -1\nq1 0 Q2#0 -1\nq1 0 R3#0 -1\n")
    pairs = [("P1#1", "P1"), ("Q2#0", "Q2"), ("R3#0", "R3")]
    (tmp_path / "chunks.jsonl").write_text("".join(json.dumps({"chunk_id": c, "doc_id": d}) + "\n" for c, d in pairs))
    (tmp_path / "rag.jsonl").write_text('{"query_id": "q1", "doc_ids": ["P1#1", "Q2#0", "R3#0"]}\n')
    path = tmp_path / "c.ndcgproj"
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.texts.import_documents(tmp_path / "d.jsonl")
        p.judgments.import_qrels(tmp_path / "j.qrels", negative_as_ungraded=True, annotator="tester")
        p.judgments.set_judging_order("doc_id")
    return path


def test_the_import_dialog_takes_a_map_file_and_the_run_keeps_it(window, chunk_project, qtbot):
    folder = chunk_project.parent
    window.open_project(chunk_project)
    dialog = ImportRunDialog("rag", [], str(folder / "rag.jsonl"), window)
    qtbot.addWidget(dialog)
    dialog.choose_map_file(str(folder / "chunks.jsonl"))
    assert not dialog.id_map.isEnabled()
    assert dialog.preview.item(0, 2).text() == "P1#1 → (chunks.jsonl)"
    assert dialog.map_button.text() == "Clear map file"
    values = dialog.values()
    assert values[2] == Path(folder / "chunks.jsonl")
    dialog.show()
    shot(dialog, "import-run-chunk-map")
    dialog.map_button.click()  # clears it
    assert dialog.values()[2] is None and dialog.id_map.isEnabled() and dialog.map_button.text() == "Map file…"
    window.import_run(str(folder / "rag.jsonl"), values)
    qtbot.waitUntil(lambda: len(window.project.runs.all()) == 1, timeout=10_000)
    stored = window.project.runs.run_info("rag").reading.id_map
    assert isinstance(stored, ChunkMap) and stored.mapping() == {"P1#1": "P1", "Q2#0": "Q2", "R3#0": "R3"}


def open_with_run(window, chunk_project, qtbot):
    folder = chunk_project.parent
    with Project.open(chunk_project) as p:
        from ndcg_desktop.tasks import import_run

        import_run(p, folder / "rag.jsonl", name="rag", id_map=folder / "chunks.jsonl", annotator="tester")
    window.open_project(chunk_project)
    return window.workspace


def test_a_chunk_is_shown_inside_its_document_with_the_passage_marked(window, chunk_project, qtbot):
    ws = open_with_run(window, chunk_project, qtbot)
    assert ws.session.doc_id == "P1#1"
    assert ws.doc_title.text() == "P1#1 — a passage of P1: All about pools"
    assert ws.reader.toPlainText().startswith("Intro: what a pool is.")  # the parent's text
    marks = [s for s in ws.reader.extraSelections() if s.format.background().color().name() == PASSAGE_BACKGROUND]
    assert [m.cursor.selectedText() for m in marks] == [PASSAGE]
    assert ws.long_notice.isVisible()
    assert ws.long_notice.text() == "The passage judged is marked in blue inside its document."
    shot(window, "chunk-in-parent")


def test_a_chunk_whose_document_is_not_imported_is_shown_alone(window, chunk_project, qtbot):
    ws = open_with_run(window, chunk_project, qtbot)
    ws.select_doc_row(1)
    assert ws.session.doc_id == "Q2#0"
    assert ws.doc_title.text() == "Q2#0 — a passage of Q2"
    assert ws.reader.toPlainText() == "An orphan passage."
    assert ws.long_notice.text() == "The text of its document Q2 is not imported: the passage is shown alone."


def test_a_passage_not_found_in_its_document_says_so(window, chunk_project, qtbot):
    ws = open_with_run(window, chunk_project, qtbot)
    ws.select_doc_row(2)
    assert ws.session.doc_id == "R3#0"
    assert ws.doc_title.text() == "R3#0 — a passage of R3: Elsewhere"
    assert ws.reader.toPlainText() == "Something else entirely."
    assert ws.reader.extraSelections() == []
    assert ws.long_notice.text() == "The passage's text was not found in its document's text."


def test_a_document_shows_the_passages_runs_returned_from_it(window, chunk_project, qtbot):
    folder = chunk_project.parent
    with Project.open(chunk_project) as p:
        from ndcg_desktop.tasks import import_run

        import_run(p, folder / "rag.jsonl", name="rag", id_map=folder / "chunks.jsonl", annotator="tester")
        p.judgments.add_items(
            pd.DataFrame({"query_id": ["q1"], "doc_id": ["P1"]}), version=1, annotator="tester"
        )  # the document itself
    window.open_project(chunk_project)
    ws = window.workspace
    ws.select_doc_row(0)
    assert ws.session.doc_id == "P1"
    assert ws.doc_title.text() == "P1 — All about pools"
    marks = [s for s in ws.reader.extraSelections() if s.format.background().color().name() == PASSAGE_BACKGROUND]
    assert [m.cursor.selectedText() for m in marks] == [PASSAGE]
    assert ws.long_notice.text() == "Passages that runs returned from this document are marked in blue (1)."
    shot(window, "document-with-retrieved-passages")
