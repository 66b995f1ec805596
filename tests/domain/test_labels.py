"""Default grade labels follow the scale: one function for the store and the window (issue 26)."""

from __future__ import annotations

from ndcg_desktop.domain.settings import LABEL_LADDERS, MAX_GRADE, GradeScale, default_labels


def test_every_scale_gets_one_label_per_grade_from_not_relevant_up():
    for low in (-3, -1, 0, 1):
        for high in range(max(low, 0), 12):
            scale = GradeScale(low, high)
            labels = default_labels(scale)
            base = max(low, 0)
            assert len(labels) == high - low + 1
            assert labels[base - low] == "Not relevant"  # 0 (or the low end above 0) is never relevant
            assert [labels[g - low] for g in range(low, base)] == [f"Grade {g}" for g in range(low, base)]
            if high - base + 1 >= 4:
                assert labels[-1] == "Perfect"
            assert len(set(labels)) == len(labels)  # no two grades share a name


def test_zero_to_four_names_each_grade_and_keeps_perfect_on_top():
    assert default_labels(GradeScale(0, 4)) == list(LABEL_LADDERS[5])
    assert default_labels(GradeScale(0, 4))[3:] == ["Highly relevant", "Perfect"]
    assert default_labels(GradeScale(0, 3)) == ["Not relevant", "Related", "Highly relevant", "Perfect"]


def test_the_widest_scale_has_labels():
    assert len(default_labels(GradeScale(0, MAX_GRADE))) == MAX_GRADE + 1
