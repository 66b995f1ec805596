"""Issue 14: the topic above the pool (title, description, narrative) and the grading guidelines panel."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from ndcg_desktop.gui.annotate.guidelines import VISIBLE_KEY, GuidelinesDialog
from ndcg_desktop.gui.preferences import ui_state
from ndcg_desktop.store import Project

from .conftest import shot

NARRATIVE = " ".join(["A relevant document explains why pools freeze and who may change them."] * 12)
TOPICS = (
    "<top>\n<num> Number: q1\n<title> freezing judgment pools\n"
    "<desc> Description:\nWhy must a pool be\nhashed before scoring?\n"
    f"<narr> Narrative:\n{NARRATIVE}\n\nNothing about swimming pools.\n</top>\n"
)
GUIDE = "# Grading\n\n- **3** answers it\n- **0** off topic\n"


@pytest.fixture
def topic_project(small_project, tmp_path):
    """small_project with q1 as a TREC topic (a long narrative) and q2 a plain query string."""
    (tmp_path / "topics.txt").write_text(TOPICS, encoding="utf-8")
    with Project.open(small_project) as project:
        project.texts.import_topics(tmp_path / "topics.txt")
        project.texts.set_guidelines(GUIDE, source="file:g.md", annotator="tester")
    return small_project


def _select(window, query_id: str) -> None:
    ws = window.workspace
    row = ws.query_proxy.mapFromSource(ws.queries.index(ws.queries.row_of(query_id), 0)).row()
    ws.select_query_row(row)


def _marked(reader) -> list[str]:
    """The words of the document view drawn with the highlight's background."""
    words, block = [], reader.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().background().color() == QColor("#ffe58a"):
                words.append(fragment.text())
            it += 1
        block = block.next()
    return words


def test_the_topic_shows_title_in_bold_and_description_and_narrative_below(window, topic_project, qtbot):
    window.open_project(topic_project)
    _select(window, "q1")
    header = window.workspace.topic
    assert header.title.text() == "q1 — freezing judgment pools"
    assert header.title.font().bold()
    assert header.title.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert header.details.isVisible()
    assert header.details.toPlainText() == (
        f"Why must a pool be hashed before scoring?\nNarrative\n{NARRATIVE}\nNothing about swimming pools."
    )
    assert header.details.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    # long: the details grow, within their bound (a text over it scrolls: the 1177x720 test below)
    assert header.details.height() <= header._bound()
    shot(window, "topic_header")

    _select(window, "q2")  # a plain query string: no details
    assert header.title.text() == "q2 — why fixed universes matter"
    assert not header.details.isVisible()


def test_highlighting_uses_the_title_and_description_terms(window, topic_project, tmp_path):
    with Project.open(topic_project) as project:
        doc = {"doc_id": "A", "title": "t", "text": "Pools are hashed before scoring. Swimming is fun."}
        (tmp_path / "a.jsonl").write_text(json.dumps(doc) + "\n")
        project.texts.import_documents(tmp_path / "a.jsonl")
    window.open_project(topic_project)
    _select(window, "q1")
    ws = window.workspace
    assert ws.session.query_text == "freezing judgment pools Why must a pool be hashed before scoring?"
    row = ws.pool_proxy.mapFromSource(ws.pool.index(ws.pool.row_of("A"), 0)).row()
    ws.select_doc_row(row)
    # "hashed", "before", "scoring" come from the description; "Swimming" only from the narrative: not marked
    assert _marked(ws.reader) == ["Pools", "hashed", "before", "scoring"]


def test_the_guidelines_panel_renders_markdown_and_names_the_hash(window, topic_project):
    window.resize(1280, 800)
    window.open_project(topic_project)
    panel = window.workspace.guidelines
    assert panel.isVisible()
    assert panel.browser.toPlainText() == "Grading\n3 answers it\n0 off topic"
    assert panel.hint.text() == f"sha256 {hashlib.sha256(GUIDE.encode()).hexdigest()[:12]}…"
    assert panel.edit_button.isEnabled()
    shot(window, "guidelines_panel")


def test_ctrl_g_hides_and_shows_the_panel_and_the_choice_is_remembered(window, topic_project, qtbot):
    from ndcg_desktop.gui.main_window import MainWindow

    window.resize(1280, 800)
    window.open_project(topic_project)
    panel = window.workspace.guidelines
    window.workspace.pool_view.setFocus()
    QTest.keyClick(window.workspace.pool_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert not panel.isVisible()
    assert ui_state().value(VISIBLE_KEY, type=bool) is False
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.workspace.guidelines.isHidden()
    QTest.keyClick(window.workspace.pool_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert panel.isVisible()
    assert ui_state().value(VISIBLE_KEY, type=bool) is True


def test_editing_the_guidelines_is_undoable_and_audited(window, topic_project):
    window.open_project(topic_project)
    panel, stack = window.workspace.guidelines, window.undo_stack
    new = GUIDE + "- **1** related\n"
    assert panel.apply_edit(new)
    assert stack.undoText() == "Edit the grading guidelines"
    assert panel.browser.toPlainText() == "Grading\n3 answers it\n0 off topic\n1 related"
    stack.undo()
    assert panel.browser.toPlainText() == "Grading\n3 answers it\n0 off topic"
    stack.redo()
    assert not panel.apply_edit(new)  # the same text again: no change, no command
    assert stack.count() == 1
    window.close_project()
    with Project.open(topic_project, read_only=True) as project:
        assert [(g.text, g.source, g.who) for g in project.texts.guidelines_history()] == [
            (GUIDE, "file:g.md", "tester"),
            (new, "window", "tester"),
            (GUIDE, "undo", "tester"),
            (new, "redo", "tester"),
        ]


def test_the_editor_previews_markdown(qtbot):
    dialog = GuidelinesDialog("# Title")
    qtbot.addWidget(dialog)
    assert dialog.preview.toPlainText() == "Title"
    dialog.editor.setPlainText("Grade **3** when\n\n1. it answers")
    qtbot.waitUntil(lambda: dialog.preview.toPlainText() == "Grade 3 when\nit answers", timeout=2000)
    assert dialog.text() == "Grade **3** when\n\n1. it answers"


def test_markup_in_topics_and_guidelines_loads_nothing(window, small_project, tmp_path):
    """A description with an <img> tag and guidelines with an image and raw HTML: no pixel of the red image."""
    red = tmp_path / "red.png"
    image = QImage(48, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("#ff0000"))
    assert image.save(str(red))
    tag = f'<img src="{red.as_uri()}">'
    (tmp_path / "t.jsonl").write_text(
        json.dumps({"query_id": "q1", "title": f"{tag} t", "description": f"{tag} d", "narrative": f"{tag} n"}) + "\n"
    )
    with Project.open(small_project) as project:
        project.texts.import_topics(tmp_path / "t.jsonl")
        project.texts.set_guidelines(
            f"![red]({red.as_uri()})\n\n{tag}\n\n<b>raw</b>\n", source="window", annotator="tester"
        )
    window.open_project(small_project)
    _select(window, "q1")
    ws = window.workspace
    assert ws.topic.details.toPlainText() == f"{tag} d\nNarrative\n{tag} n"
    for widget in (ws.topic, ws.guidelines):
        grabbed = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        pixels = np.frombuffer(grabbed.constBits(), dtype=np.uint32, count=grabbed.width() * grabbed.height())
        assert int((pixels == 0xFFFF0000).sum()) == 0
    assert "<b>raw</b>" in ws.guidelines.browser.toPlainText()


def test_grading_keys_work_while_the_topic_or_the_guidelines_have_the_focus(window, topic_project):
    """Clicking into the topic's text or the guidelines to select a phrase does not take the grading keys away."""
    window.open_project(topic_project)
    _select(window, "q1")
    ws = window.workspace
    for widget in (ws.topic.details, ws.guidelines.browser):
        doc_id = ws.session.doc_id
        widget.setFocus()
        QTest.keyClick(widget, Qt.Key.Key_2)
        assert ws.pool.grade(ws.pool.row_of(doc_id)) == 2, widget.objectName()


@pytest.mark.parametrize("width, shown", [(1180, False), (1280, True)])
def test_until_chosen_the_panel_starts_hidden_in_a_narrow_window(qtbot, topic_project, width, shown):
    # a window too narrow for four panes starts without the guidelines; Ctrl+G shows them and is remembered
    from ndcg_desktop.gui.main_window import MainWindow

    assert ui_state().value(VISIBLE_KEY) is None
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(width, 760)
    window.show()
    qtbot.waitExposed(window)
    window.open_project(topic_project)
    panel = window.workspace.guidelines
    assert panel.isVisible() is shown
    assert panel.toggle() is not shown  # what Ctrl+G does (tested above)
    assert panel.isVisible() is not shown
    assert ui_state().value(VISIBLE_KEY, type=bool) is not shown
    window.close_project()
    window.resize(1280 + 1180 - width, 760)  # the other width: the remembered choice wins
    window.open_project(topic_project)
    assert panel.isVisible() is not shown
    window.close_project()


def test_at_1177x720_a_topic_a_little_over_the_bound_shows_whole_without_a_scroll_bar(window, qtbot):
    """The demo's q1 wraps to a line or so more than the header's bound at the window's 1177x720: it is shown whole
    (its last line was cut behind a scroll bar of a few pixels); a topic far over the bound still scrolls."""
    from ndcg_desktop.demo import ensure_demo
    from ndcg_desktop.gui.annotate.topic_header import DETAIL_LINES, ROOM_SHARE

    window.resize(1177, 720)
    window.open_project(ensure_demo())
    ws = window.workspace
    _select(window, "q1")
    qtbot.wait(50)
    details = ws.topic.details
    shot(window, "topic-header-1177x720")
    line = details.fontMetrics().lineSpacing()
    assert details.document().size().height() > DETAIL_LINES * line + 8  # over the bound the header had
    assert details.verticalScrollBar().maximum() == 0
    assert details.viewport().height() >= details.document().size().height()
    ws.topic.show_topic("q9", {"title": "t", "description": "word " * 2000, "narrative": ""})
    qtbot.wait(50)
    assert details.verticalScrollBar().maximum() > 0
    lines = max(DETAIL_LINES, int(ws.topic.parentWidget().height() * ROOM_SHARE) // line)
    assert details.height() == lines * line + 8  # the bound, in whole lines: no line scrolled half into view


@pytest.mark.parametrize("size", [(1280, 800), (1177, 720)])
def test_a_long_trec_narrative_is_shown_whole_with_its_list_apart(window, qtbot, tmp_path, size, small_project):
    """Issue 36: the details were 7 lines tall and cut a TREC narrative of 12 lines mid-line; the pane grows to a
    share of the pool pane's height, and a list's items keep a line each (they were joined into one)."""
    from ndcg_desktop.gui.annotate.topic_header import DETAIL_LINES

    items = [f"- a document naming rule {n} for the hives" for n in range(1, 9)]
    narrative = "A relevant document names a rule:\n" + "\n".join(items) + "\n\nNothing about wild bees."
    (tmp_path / "core.txt").write_text(
        "<top>\n<num> Number: q1\n<title> bees\n<desc> Description\nWhich rules apply?\n"
        f"<narr> Narrative\n{narrative}\n</top>\n",
        encoding="utf-8",
    )
    with Project.open(small_project) as project:
        project.texts.import_topics(tmp_path / "core.txt")
    window.resize(*size)
    window.open_project(small_project)
    _select(window, "q1")
    qtbot.wait(50)
    details = window.workspace.topic.details
    shot(window, f"topic-long-narrative-{size[0]}x{size[1]}")
    text = details.toPlainText()
    assert text.count("Narrative") == 1  # the label once, as the heading, not again as the text's first word
    assert [line for line in text.replace("\u2028", "\n").split("\n") if line.startswith("- ")] == items
    line = details.fontMetrics().lineSpacing()
    assert details.document().size().height() > (DETAIL_LINES + 2) * line + 8  # longer than the old bound
    assert details.verticalScrollBar().maximum() == 0  # shown whole
