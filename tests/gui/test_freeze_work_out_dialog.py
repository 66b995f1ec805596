"""The freeze dialog names the work files still handed out and freezes only once the user chooses to freeze
anyway (issue 33, item 13), as ``ndcg freeze --with-work-out`` does."""

from __future__ import annotations

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.project import freeze_preview
from ndcg_desktop.tasks.teams import assign_work, merge_work, read_work_file
from tests.tasks.test_teams import grade_all, make_team


def test_the_freeze_dialog_names_the_work_out_and_waits_for_a_choice(qtbot, tmp_path):
    from PySide6.QtWidgets import QLabel

    from ndcg_desktop.gui.pools.dialogs import FreezeDialog

    team = make_team(tmp_path)
    with Project.open(team) as project:
        files = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.0, seed=1).files
    grade_all(files["ana"], "ana", lambda a, q, d: 1)
    ben = len(read_work_file(files["ben"])[1])
    with Project.open(team) as project:
        merge_work(project, [files["ana"]], annotator="coord")
        dialog = FreezeDialog(freeze_preview(project, 1))
    qtbot.addWidget(dialog)
    dialog.show()
    labels = [w.text() for w in dialog.findChildren(QLabel)]
    assert any(t.startswith(f"ben ({ben} of {ben} items not returned, work ") for t in labels), labels
    assert dialog.anyway.isVisibleTo(dialog) and dialog.remove.isVisibleTo(dialog)
    dialog.remove.setChecked(True)
    assert dialog.ok.isEnabled() is False  # removing the ungraded items is not the choice asked for
    dialog.anyway.setChecked(True)
    assert dialog.ok.isEnabled() is True
    dialog.grab().save("/tmp/sec-files_freeze_work_out.png")


def test_the_freeze_summary_counts_what_would_be_frozen_once_the_ungraded_are_removed(qtbot, small_project):
    """Issue 36: the summary kept "Documents 4085" after ticking "remove the ungraded". small_project: q1 holds
    A, B (graded), C, D (ungraded); q2 holds E (ungraded)."""
    from ndcg_desktop.gui.pools.dialogs import FreezeDialog

    from .conftest import shot

    with Project.open(small_project) as project:
        preview = freeze_preview(project, 1)
        frozen = project.pools.pool_items(1).dropna(subset=["grade"])  # what removing the ungraded leaves
    assert preview.kept(remove_ungraded=False) == (2, 5)
    assert preview.kept(remove_ungraded=True) == (frozen["query_id"].nunique(), len(frozen)) == (1, 2)
    dialog = FreezeDialog(preview)
    qtbot.addWidget(dialog)
    dialog.show()
    assert (dialog.queries.text(), dialog.documents.text()) == ("2", "5")
    dialog.remove.setChecked(True)
    assert (dialog.queries.text(), dialog.documents.text()) == ("1", "2")
    shot(dialog, "freeze_removed_ungraded")
    dialog.remove.setChecked(False)
    assert (dialog.queries.text(), dialog.documents.text()) == ("2", "5")
