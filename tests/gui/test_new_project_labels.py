"""*New project*: the grade labels follow the scale; what the user typed stays with its grade (issue 26)."""

from __future__ import annotations

from ndcg_desktop.domain.settings import GradeScale, default_labels
from ndcg_desktop.gui.project.dialogs import NewProjectDialog
from ndcg_desktop.store import Project


def test_changing_the_scale_relabels_the_grades_that_still_show_a_default(qtbot):
    dialog = NewProjectDialog("tester")
    qtbot.addWidget(dialog)
    assert dialog.labels() == default_labels(GradeScale(0, 3))
    dialog.high.setValue(4)
    assert dialog.labels() == default_labels(GradeScale(0, 4))
    assert dialog.labels()[3:] == ["Highly relevant", "Perfect"]
    dialog.label_edits[1].setText("Partly")  # typed by the user: kept while the scale changes
    dialog.high.setValue(2)
    assert dialog.labels() == ["Not relevant", "Partly", "Highly relevant"]
    dialog.low.setValue(1)
    assert dialog.labels() == ["Partly", "Relevant"]


def test_a_project_created_without_labels_gets_the_same_defaults(tmp_path):
    with Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 4), annotator="tester") as project:
        assert project.labels == default_labels(GradeScale(0, 4))
