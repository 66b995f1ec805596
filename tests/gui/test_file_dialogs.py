"""Every file dialog starts in the open project's folder, through one helper (issue 26)."""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtWidgets import QFileDialog, QLineEdit

from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.tasks.freezing import freeze_draft

GUI = Path(__file__).resolve().parents[2] / "ndcg_desktop" / "gui"
STATICS = ("getOpenFileName", "getOpenFileNames", "getSaveFileName", "getExistingDirectory")


def test_no_module_but_the_helper_opens_a_file_dialog():
    users = []
    for source in GUI.rglob("*.py"):
        if source.name == "file_dialogs.py":
            continue
        tree = ast.parse(source.read_text(encoding="utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
        if "QFileDialog" in names:
            users.append(source.relative_to(GUI).as_posix())
    assert users == []


@pytest.fixture
def started(monkeypatch):
    """The folder each file dialog was started in (the dialogs themselves are cancelled)."""
    folders: list[Path] = []

    def fake(name):
        def dialog(_parent, _title, start="", *_args, **_kwargs):
            path = Path(start)
            folders.append(path if name == "getExistingDirectory" or path.is_dir() else path.parent)
            return "" if name == "getExistingDirectory" else ([] if name == "getOpenFileNames" else "", "")

        return dialog

    for name in STATICS:
        monkeypatch.setattr(QFileDialog, name, staticmethod(fake(name)))

    def cancelled(dialog):
        folders.append(Path(dialog.directory().absolutePath()))
        return QFileDialog.DialogCode.Rejected

    monkeypatch.setattr(file_dialogs.FolderDialog, "exec", cancelled)
    monkeypatch.setattr(file_dialogs, "_last", [])
    return folders


def test_every_file_dialog_of_an_open_project_starts_in_its_folder(window, small_project, started, tmp_path):
    from ndcg_desktop.gui.project.dialogs import ImportRunDialog
    from ndcg_desktop.gui.team.assign import AssignDialog
    from ndcg_desktop.store import Project

    with Project.open(small_project) as p:  # a frozen version to export, a draft to merge work into
        p.judgments.remove_ungraded(annotator="tester")
        freeze_draft(p, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = elsewhere / small_project.name
    small_project.rename(moved)
    assert window.open_project(moved)
    window.import_queries()
    window.import_documents()
    window.import_judgments()
    window.import_run()
    window.open_project_dialog()
    window.refresh(version=1)
    window.pool_editor.export_qrels()
    window.refresh(prefer_draft=True)
    window.team.merge()

    ImportRunDialog("r", [], str(tmp_path / "r.run"), window).choose_map_file()
    AssignDialog(pd.Series({"q1": 2}), "", window)._browse()
    for view in (window.scores, window.agreement, window.runs):  # their exports ask for a folder here
        file_dialogs.folder(view, "Export")
    file_dialogs.save_file(window.scores, "Export comparison", "comparison.csv", "CSV (*.csv)")
    assert len(started) == 13
    assert set(started) == {elsewhere}


def test_without_a_project_dialogs_start_where_the_user_last_chose_else_at_home(window, started, tmp_path, monkeypatch):
    chosen = str(tmp_path / "x.ndcgproj")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (chosen, "")))
    monkeypatch.setattr(file_dialogs, "_last", [])
    assert file_dialogs.start_folder(window) == Path.home()
    monkeypatch.setattr(window, "open_project", lambda path: False)
    window.open_project_dialog()
    assert file_dialogs.start_folder(window) == tmp_path


def test_a_folder_name_typed_into_the_folder_dialog_is_made_not_refused(qtbot, tmp_path, monkeypatch):
    """Issue 36: typing a new export folder's name gave Qt's "Directory not found"."""
    chosen = []

    def typed(dialog):
        dialog.show()
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        edit.setText("new export")
        dialog.accept()
        chosen.append(dialog.isVisible())
        return dialog.result()

    monkeypatch.setattr(file_dialogs.FolderDialog, "exec", typed)
    monkeypatch.setattr(file_dialogs, "start_folder", lambda _parent: tmp_path)
    assert file_dialogs.folder(None, "Export") == str(tmp_path / "new export")
    assert (tmp_path / "new export").is_dir() and chosen == [False]
    assert file_dialogs.folder(None, "Export") == str(tmp_path / "new export")  # now an existing one
