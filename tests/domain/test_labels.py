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
            if low <= 0:
                assert labels[base - low] == "Not relevant"  # grade 0 earns no gain
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


def test_a_scale_starting_above_zero_takes_its_labels_from_the_ladder_counted_from_zero():
    # grade 1 earns gain 1 (linear and exponential) and counts as found: it is never "Not relevant"
    assert default_labels(GradeScale(1, 2)) == ["Relevant", "Highly relevant"]  # grades 1..2 of 0..2
    assert default_labels(GradeScale(1, 3)) == ["Related", "Highly relevant", "Perfect"]  # grades 1..3 of 0..3
    assert default_labels(GradeScale(1, 4)) == ["Marginally relevant", "Related", "Highly relevant", "Perfect"]
    assert default_labels(GradeScale(2, 3)) == ["Highly relevant", "Perfect"]
    assert default_labels(GradeScale(2, 4)) == ["Related", "Highly relevant", "Perfect"]
    # 0..5 has no ladder: numbered, the top "Perfect"
    assert default_labels(GradeScale(1, 5)) == ["Grade 1", "Grade 2", "Grade 3", "Grade 4", "Perfect"]
    assert default_labels(GradeScale(5, 5)) == ["Perfect"]


def test_no_grade_that_earns_a_gain_is_labelled_not_relevant():
    for low in range(-3, 11):
        for high in range(low, 11):
            labels = default_labels(GradeScale(low, high))
            assert len(labels) == high - low + 1
            named = [grade for grade, label in enumerate(labels, start=low) if label == "Not relevant"]
            assert named == ([0] if low <= 0 <= high else []), (low, high, labels)
            assert len(set(labels)) == len(labels)
            if high >= 3:
                assert labels[-1] == "Perfect"
