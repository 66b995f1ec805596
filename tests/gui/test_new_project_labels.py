"""*New project*: the grade labels follow the scale; what the user typed stays with its grade (issue 26)."""

from __future__ import annotations

from ndcg_desktop.domain.settings import GradeScale, default_labels
from ndcg_desktop.gui import i18n
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
    assert dialog.labels() == ["Partly", "Highly relevant"]  # 1..2 is grades 1..2 of the ladder from 0


def test_a_project_created_without_labels_gets_the_same_defaults(tmp_path):
    with Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 4), annotator="tester") as project:
        assert project.labels == default_labels(GradeScale(0, 4))


def test_a_scale_from_one_offers_no_not_relevant_for_a_grade_that_earns_a_gain(qtbot):
    dialog = NewProjectDialog("tester")
    qtbot.addWidget(dialog)
    dialog.low.setValue(1)
    assert dialog.labels() == ["Related", "Highly relevant", "Perfect"]
    dialog.high.setValue(5)  # 0..5 has no ladder: numbered, the top one Perfect
    assert dialog.labels() == ["Grade 1", "Grade 2", "Grade 3", "Grade 4", "Perfect"]
    dialog.low.setValue(0)
    dialog.high.setValue(3)
    assert dialog.labels() == ["Not relevant", "Related", "Highly relevant", "Perfect"]


def test_a_scale_from_one_is_offered_in_the_interface_language(qtbot, qapp):
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        dialog = NewProjectDialog("tester")
        qtbot.addWidget(dialog)
        dialog.low.setValue(1)
        assert dialog.labels() == ["有关联", "高度相关", "完美"]
        dialog.high.setValue(5)
        assert dialog.labels() == ["等级 1", "等级 2", "等级 3", "等级 4", "完美"]
    finally:
        i18n.uninstall(qapp)
