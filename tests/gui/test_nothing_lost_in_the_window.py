"""What a new user met in the window (issue 24's 'nothing lost'): an undo history that survives choosing a version,
a failed open that leaves the open project alone, a login name that is not taken for a stated one, and status
messages that do not outlive what they said."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QMessageBox

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot


def discard_shown_draft(window, qtbot, messages):
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    qtbot.waitUntil(lambda: window.project.pools.draft() is None, timeout=10_000)
    qtbot.waitUntil(lambda: window.undo_stack.canUndo(), timeout=10_000)


def test_choosing_a_version_keeps_the_undo_that_brings_a_discarded_draft_back(window, small_project, qtbot, messages):
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    window.open_project(small_project)
    discard_shown_draft(window, qtbot, messages)
    assert window.statusBar().currentMessage().startswith("Draft pool v2 discarded")
    window.version_box.activated.emit(window.version_box.currentIndex())  # the version shown, chosen again
    assert window.undo_stack.canUndo()  # it used to wipe the history: the draft was gone for good
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.project.pools.draft() is not None and window.project.pools.draft().version == 2)
    assert window.statusBar().currentMessage() == ""  # "discarded" no longer holds


def test_undo_brings_the_discarded_draft_back_after_another_version_was_shown(window, small_project, qtbot, messages):
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    window.open_project(small_project)
    discard_shown_draft(window, qtbot, messages)
    window.version_box.setCurrentIndex(window.version_box.findData(1))
    window.version_box.activated.emit(window.version_box.currentIndex())
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.project.pools.draft() is not None and window.project.pools.draft().version == 2)
    assert window.statusBar().currentMessage() == ""


def test_a_failed_open_leaves_the_open_project_and_its_history(window, small_project, tmp_path, qtbot, messages):
    from PySide6.QtCore import Qt

    window.open_project(small_project)
    qtbot.keyClick(window.workspace.pool_view, Qt.Key.Key_1)
    assert window.undo_stack.count() == 1
    assert not window.open_project(tmp_path / "missing.ndcgproj")
    assert window.project is not None and window.project.path == small_project
    assert window.stack.currentWidget() is window.tabs and window.undo_stack.count() == 1
    messages.answer = QMessageBox.StandardButton.Cancel
    other = tmp_path / "other.ndcgproj"
    Project.create(other, annotator="tester").close()
    holder = Project.open(other)  # another window holds it: "open it read-only?" answered Cancel
    try:
        assert not window.open_project(other)
    finally:
        holder.close()
    assert window.project is not None and window.project.path == small_project and window.undo_stack.count() == 1
    shot(window, "failed-open-keeps-the-project")


def test_the_login_name_offered_by_new_project_is_not_saved_as_a_stated_name(
    window, tmp_path, monkeypatch, qtbot, messages
):
    from ndcg_desktop.gui import main_window
    from ndcg_desktop.gui.project import dialogs
    from ndcg_desktop.tasks.identity import default_user, stated_user

    monkeypatch.delenv("NDCG_USER", raising=False)
    monkeypatch.setattr(dialogs.NewProjectDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(main_window.file_dialogs, "save_file", lambda *a, **k: (str(tmp_path / "new.ndcgproj"), ""))
    window.new_project()
    assert window.project is not None and window.slot.annotator == default_user()
    assert window.prefs.annotator == "" and stated_user() is None  # accepted as offered: nobody was stated


def test_import_run_suggests_the_name_ndcg_compare_gives_the_file(window, small_project, data_dir, monkeypatch):
    """Found by a new user: tfidf.run.gz was offered as 'tfidf.run'."""
    from ndcg_desktop.gui.project import dialogs

    window.open_project(small_project)
    offered = []

    def look(dialog):
        offered.append(dialog.name.text())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(dialogs.ImportRunDialog, "exec", look)
    window.import_run(str(data_dir / "cranfield" / "tfidf.run.gz"))
    assert offered == ["tfidf"]


def test_a_read_only_project_says_so_where_it_said_changes_are_saved(window, small_project, qtbot, messages):
    from PySide6.QtCore import Qt

    holder = Project.open(small_project)  # another window holds it: opened read-only
    try:
        messages.answer = QMessageBox.StandardButton.Open
        assert window.open_project(small_project) and window.project.read_only
        assert window.saved_label.text() == "Open read-only: nothing can be changed"
        qtbot.keyClick(window.workspace.pool_view, Qt.Key.Key_1)
        assert window.statusBar().currentMessage() == "The project is open read-only: grades cannot change."
    finally:
        window.close_project()
        holder.close()
    window.open_project(small_project)
    assert window.saved_label.text() == "All changes are saved as you make them"


def test_f1_lists_every_shortcut_of_the_menus(window):
    """Found by a new user: F1's list lacked Ctrl+W. Every menu action's shortcut is in the list (the tabs' own keys,
    F5 and Ctrl+Enter, and the digits of Adjudicate too)."""
    import re

    from PySide6.QtGui import QAction, QKeySequence

    from ndcg_desktop.gui.project.dialogs import SHORTCUTS

    listed = {key.strip() for keys, _ in SHORTCUTS for key in re.split(r" / | or ", keys)}
    missing = set()
    for action in window.findChildren(QAction):  # each action's first key (Close also has Ctrl+F4, say)
        text = action.shortcut().toString(QKeySequence.SequenceFormat.PortableText).replace("Del", "Delete")
        if text and text not in listed:
            missing.add((text, action.text().replace("&", "")))
    assert missing == set()
    what = {what for _, what in SHORTCUTS}
    assert {"Runs: check the compared runs", "Agreement: compute", "Adjudicate: the selected item's grade"} <= what


def test_the_annotator_name_can_be_set_and_cleared_in_the_view_menu(window, monkeypatch, messages):
    """Found by a new user: the name was saved only by New project, so a wrong one could not be changed."""
    from ndcg_desktop.gui.view_menu import ask_annotator_name
    from ndcg_desktop.tasks.identity import stated_user

    monkeypatch.delenv("NDCG_USER", raising=False)
    assert ask_annotator_name(window, " ana ") and stated_user() == "ana" and window.prefs.annotator == "ana"
    assert not ask_annotator_name(window, "a\tb") and stated_user() == "ana"  # refused, said, nothing saved
    assert "annotator name" in messages[-1][1]
    assert ask_annotator_name(window, "") and stated_user() is None  # the login name again
    menus = {action.text(): action.menu() for action in window.menuBar().actions()}
    assert "&Annotator name…" in [action.text() for action in menus["&View"].actions()]


def test_the_annotator_name_dialog_is_a_reading_width_wide(window, qtbot, monkeypatch):
    """Issue 36: the dialog was 1,187 px wide, its explanation on one line. It wraps, and typing a name saves it."""
    from PySide6.QtWidgets import QDialog, QLabel

    from ndcg_desktop.gui import view_menu
    from ndcg_desktop.tasks.identity import stated_user

    from .conftest import shot

    monkeypatch.delenv("NDCG_USER", raising=False)
    dialog = view_menu.annotator_name_dialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    em = dialog.fontMetrics().horizontalAdvance("M")
    assert dialog.width() <= 48 * em and dialog.width() <= 600, dialog.width()
    explanation = max(dialog.findChildren(QLabel), key=lambda label: len(label.text()))
    assert explanation.wordWrap() and explanation.height() > 2 * explanation.fontMetrics().height()  # wrapped, whole
    shot(dialog, "annotator_name")

    def typed(shown):
        shown.setTextValue("zoe")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(view_menu.QInputDialog, "exec", typed)
    assert view_menu.ask_annotator_name(window) and stated_user() == "zoe"


def test_opening_the_open_file_again_and_cancelling_leaves_it_open(window, small_project, qtbot, messages):
    """Found by a new user: the project open read-only, opened again, Cancel: the window closed it."""
    holder = Project.open(small_project)
    try:
        messages.answer = QMessageBox.StandardButton.Open
        assert window.open_project(small_project) and window.project.read_only
        messages.answer = QMessageBox.StandardButton.Cancel
        assert not window.open_project(small_project)
        assert window.project is not None and window.project.read_only and window.stack.currentWidget() is window.tabs
    finally:
        window.close_project()
        holder.close()
    assert window.saved_label.text() == ""  # nothing said of a project once none is open
    window.open_project(small_project)
    assert window.open_project(small_project) and window.project is not None  # open already: nothing to do
