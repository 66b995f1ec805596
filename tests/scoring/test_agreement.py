"""Agreement between annotators (issue 15): kappas, Krippendorff's alpha, confusion, leniency, degenerate cases."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.agreement import agreement, weighted_kappa

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four observers,
# twelve units, missing values ("." in the paper). Unit 12 has one value and so pairs with nothing.
# His published alphas: nominal 0.743, ordinal 0.815, interval 0.849 (ratio 0.797). The krippendorff
# package's own tests (tests/test_krippendorff.py: test_ordinal_metric, test_ratio_metric) use this
# matrix for 0.815 and 0.797.
NAN = math.nan
KRIPPENDORFF_C = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    "C": [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
}


def ratings(rows: list[tuple[str, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "annotator", "grade"])


def from_matrix(matrix: dict[str, list[float]], query_id: str = "q1") -> pd.DataFrame:
    return ratings(
        [
            (query_id, f"u{unit + 1}", coder, int(value))
            for coder, values in matrix.items()
            for unit, value in enumerate(values)
            if not math.isnan(value)
        ]
    )


def reference_alpha(units: list[list[int]], grades: list[int], level: str) -> float:
    """Krippendorff's alpha from his coincidence matrix, written out as in the 2011 paper.

    ``units``: the values each unit received (units with fewer than two values pair with nothing).
    o[c][k] = sum over units of (number of c-k pairs of values, ordered) / (m_u - 1); n_c = sum_k o[c][k];
    alpha = 1 - (n - 1) * sum o[c][k] delta(c, k) / sum n_c n_k delta(c, k).
    """
    o = {c: dict.fromkeys(grades, 0.0) for c in grades}
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    o[c][k] += 1 / (m - 1)
    n_c = {c: sum(o[c].values()) for c in grades}
    n = sum(n_c.values())

    def delta(c: int, k: int) -> float:
        if level == "nominal":
            return float(c != k)
        if level == "interval":
            return float((c - k) ** 2)
        low, high = min(c, k), max(c, k)  # ordinal: the ranks between c and k, halves at both ends
        return (sum(n_c[g] for g in grades if low <= g <= high) - (n_c[c] + n_c[k]) / 2) ** 2

    observed = sum(o[c][k] * delta(c, k) for c in grades for k in grades)
    expected = sum(n_c[c] * n_c[k] * delta(c, k) for c in grades for k in grades)
    return 1 - (n - 1) * observed / expected


def units_of(matrix: dict[str, list[float]]) -> list[list[int]]:
    columns = zip(*matrix.values(), strict=True)
    return [[int(v) for v in column if not math.isnan(v)] for column in columns]


# --- Krippendorff's worked example ---------------------------------------------------------------


def test_the_reference_reproduces_krippendorffs_published_alphas() -> None:
    units = units_of(KRIPPENDORFF_C)
    assert round(reference_alpha(units, [1, 2, 3, 4, 5], "nominal"), 3) == 0.743
    assert reference_alpha(units, [1, 2, 3, 4, 5], "nominal") == pytest.approx(113 / 152)  # his exact fraction
    assert round(reference_alpha(units, [1, 2, 3, 4, 5], "ordinal"), 3) == 0.815
    assert round(reference_alpha(units, [1, 2, 3, 4, 5], "interval"), 3) == 0.849


def test_the_krippendorff_package_gives_his_published_alphas_on_this_matrix() -> None:
    import krippendorff

    data = list(KRIPPENDORFF_C.values())
    assert round(krippendorff.alpha(data, level_of_measurement="nominal"), 3) == 0.743
    assert round(krippendorff.alpha(data, level_of_measurement="ordinal"), 3) == 0.815
    assert round(krippendorff.alpha(data, level_of_measurement="interval"), 3) == 0.849


def test_ordinal_alpha_of_krippendorffs_example() -> None:
    report = agreement(from_matrix(KRIPPENDORFF_C), GradeScale(1, 5))
    assert report.overall.alpha.value is not None
    assert round(report.overall.alpha.value, 3) == 0.815
    assert report.overall.alpha.value == pytest.approx(
        reference_alpha(units_of(KRIPPENDORFF_C), [1, 2, 3, 4, 5], "ordinal")
    )
    # Units 1..11 have two or more values; unit 12 (B's lone 3) is not shared. 9 + 11 + 10 + 10 values in 1..11.
    assert report.overall.items == 11
    assert report.overall.ratings == 40
    assert report.rated_items == 12


def test_alpha_is_the_same_on_a_wider_scale_with_unused_grades() -> None:
    """Grades 0 and 6..9 never used: the ordinal ranks only count grades that occur, so alpha is unchanged."""
    report = agreement(from_matrix(KRIPPENDORFF_C), GradeScale(0, 9))
    assert report.overall.alpha.value is not None
    assert round(report.overall.alpha.value, 3) == 0.815


# --- Cohen's weighted kappa, by hand ---------------------------------------------------------------

ANA = [0, 1, 2, 3, 3, 1]
BEN = [0, 2, 2, 3, 1, 1]


def two_raters(a: list[int], b: list[int], query_id: str = "q1") -> pd.DataFrame:
    rows = [(query_id, f"d{i}", "ana", g) for i, g in enumerate(a)]
    return ratings(rows + [(query_id, f"d{i}", "ben", g) for i, g in enumerate(b)])


def test_weighted_kappas_by_hand() -> None:
    # kappa_w = 1 - sum w_ij O_ij / sum w_ij E_ij, with O the counts and E_ij = (ana's i) (ben's j) / n.
    # Disagreements: d1 (1 vs 2, distance 1) and d4 (3 vs 1, distance 2); n = 6.
    # Marginals: ana 0:1 1:2 2:1 3:2; ben 0:1 1:2 2:2 3:1.
    ana_counts, ben_counts, n = [1, 2, 1, 2], [1, 2, 2, 1], 6
    linear_expected = sum(abs(i - j) * ana_counts[i] * ben_counts[j] for i in range(4) for j in range(4)) / n
    quadratic_expected = sum((i - j) ** 2 * ana_counts[i] * ben_counts[j] for i in range(4) for j in range(4)) / n
    assert linear_expected == 42 / 6 and quadratic_expected == 78 / 6
    linear = 1 - (1 + 2) / linear_expected  # = 4/7
    quadratic = 1 - (1**2 + 2**2) / quadratic_expected  # = 8/13

    pair = agreement(two_raters(ANA, BEN), GradeScale(0, 3)).overall.pairs[0]
    assert (pair.a, pair.b, pair.items) == ("ana", "ben", 6)
    assert pair.kappa_linear.value == pytest.approx(linear) == pytest.approx(4 / 7)
    assert pair.kappa_quadratic.value == pytest.approx(quadratic) == pytest.approx(8 / 13)
    assert pair.raw.value == pytest.approx(4 / 6)  # d0, d2, d3, d5 agree


def test_unweighted_kappa_matches_the_textbook_formula() -> None:
    """Linear weights on a two-grade scale are Cohen's plain kappa: (p_o - p_e) / (1 - p_e)."""
    a, b = [1, 1, 1, 0, 0, 1, 0, 1], [1, 1, 0, 0, 1, 1, 0, 1]
    p_o = 6 / 8
    p_e = (5 / 8) * (5 / 8) + (3 / 8) * (3 / 8)  # both say 1 five times, 0 three times
    figure = weighted_kappa(np.array(a), np.array(b), [0, 1], "linear")
    assert figure.value == pytest.approx((p_o - p_e) / (1 - p_e))


def test_kappa_weighs_by_grade_distance_even_when_middle_grades_are_unused() -> None:
    """0 vs 3 is three steps on a 0..3 scale although 2 never occurs (scikit-learn weighs by label position)."""
    a, b = [0, 1, 3, 3, 1], [1, 0, 3, 0, 1]
    counts_a, counts_b, n = {0: 1, 1: 2, 3: 2}, {0: 2, 1: 2, 3: 1}, 5
    observed = abs(0 - 1) + abs(1 - 0) + abs(3 - 0)
    expected = sum(abs(i - j) * ca * cb for i, ca in counts_a.items() for j, cb in counts_b.items()) / n
    figure = weighted_kappa(np.array(a), np.array(b), range(4), "linear")
    assert figure.value == pytest.approx(1 - observed / expected)
    from sklearn.metrics import cohen_kappa_score

    assert figure.value != pytest.approx(cohen_kappa_score(a, b, weights="linear"))  # labels 0, 1, 3 as 0, 1, 2


# --- confusion, raw agreement, leniency, per query -------------------------------------------------


def test_confusion_matrix_counts_each_pair_of_grades() -> None:
    report = agreement(two_raters(ANA, BEN), GradeScale(0, 3))
    expected = np.zeros((4, 4), dtype=np.int64)
    for g_ana, g_ben in zip(ANA, BEN, strict=True):
        expected[g_ana, g_ben] += 1
    assert report.matrix("ana", "ben").tolist() == expected.tolist()
    assert report.matrix("ben", "ana").tolist() == expected.T.tolist()
    assert report.matrix("ana", "ben", "q1").tolist() == expected.tolist()


def test_leniency_is_each_annotators_mean_grade() -> None:
    rows = [("q1", "d9", "ana", 3)]  # ana alone on d9: counts for her mean, not for the shared mean
    report = agreement(pd.concat([two_raters(ANA, BEN), ratings(rows)]), GradeScale(0, 3))
    table = report.leniency.set_index("annotator")
    assert table.loc["ana", "ratings"] == 7
    assert table.loc["ana", "mean_grade"] == pytest.approx((sum(ANA) + 3) / 7)
    assert table.loc["ana", "shared_ratings"] == 6
    assert table.loc["ana", "mean_grade_shared"] == pytest.approx(sum(ANA) / 6)
    assert table.loc["ben", "mean_grade"] == pytest.approx(sum(BEN) / 6)
    assert report.overall.items == 6 and report.rated_items == 7


def test_three_raters_per_query_figures_and_unanimity() -> None:
    rows = [
        ("q1", "d1", "ana", 2), ("q1", "d1", "ben", 2), ("q1", "d1", "chen", 2),  # unanimous
        ("q1", "d2", "ana", 0), ("q1", "d2", "ben", 1), ("q1", "d2", "chen", 0),
        ("q2", "d1", "ben", 3), ("q2", "d1", "chen", 3),  # unanimous
        ("q2", "d2", "ben", 0), ("q2", "d2", "chen", 2),
        ("q2", "d3", "ana", 1),  # single: not shared
        ("q10", "d1", "ana", 1),  # a query with nothing shared
    ]  # fmt: skip
    report = agreement(ratings(rows), GradeScale(0, 3))
    assert [g.query_id for g in report.per_query] == ["q1", "q2"]
    q1, q2 = report.per_query
    assert (q1.items, q1.ratings, q1.annotators) == (2, 6, ("ana", "ben", "chen"))
    assert q1.unanimous.value == pytest.approx(1 / 2)
    assert [(p.a, p.b, p.items) for p in q1.pairs] == [("ana", "ben", 2), ("ana", "chen", 2), ("ben", "chen", 2)]
    assert [p.raw.value for p in q1.pairs] == [pytest.approx(1 / 2), pytest.approx(1.0), pytest.approx(1 / 2)]
    assert (q2.items, q2.annotators) == (2, ("ben", "chen"))
    assert [(p.a, p.b) for p in q2.pairs] == [("ben", "chen")]  # ana shares nothing in q2
    assert report.overall.unanimous.value == pytest.approx(2 / 4)
    assert report.overall.alpha.value == pytest.approx(
        reference_alpha([[2, 2, 2], [0, 1, 0], [3, 3], [0, 2]], [0, 1, 2, 3], "ordinal")
    )
    assert q2.alpha.value == pytest.approx(reference_alpha([[3, 3], [0, 2]], [0, 1, 2, 3], "ordinal"))
    ben_chen = next(p for p in report.overall.pairs if (p.a, p.b) == ("ben", "chen"))
    assert ben_chen.items == 4
    assert report.matrix("ben", "chen", "q2").tolist() == [[0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    by_query = report.leniency_by_query.set_index(["query_id", "annotator"])
    assert by_query.loc[("q2", "chen"), "mean_grade_shared"] == pytest.approx((3 + 2) / 2)
    assert list(report.groups_frame()["query_id"]) == ["", "q1", "q2"]


# --- degenerate cases: a stated result, never a NaN or a traceback ---------------------------------


def no_nan_anywhere(report_frames: list[pd.DataFrame]) -> None:
    for frame in report_frames:
        assert not re.search(r"\b(nan|inf)\b", frame.to_csv(index=False).lower())


def test_one_rater() -> None:
    report = agreement(ratings([("q1", "d1", "ana", 2), ("q1", "d2", "ana", 1)]), GradeScale(0, 3))
    assert report.overall.items == 0
    assert report.overall.pairs == ()
    assert report.overall.alpha.value is None
    assert report.overall.alpha.text() == "undefined: no item rated by two or more annotators"
    assert report.overall.unanimous.text() == "undefined: no item rated by two or more annotators"
    assert report.per_query == ()
    no_nan_anywhere([report.groups_frame(), report.pairs_frame()])


def test_all_identical_grades() -> None:
    report = agreement(two_raters([2, 2, 2], [2, 2, 2]), GradeScale(0, 3))
    pair = report.overall.pairs[0]
    assert pair.raw.value == 1.0
    assert pair.kappa_linear.value is None and pair.kappa_quadratic.value is None
    assert pair.kappa_linear.why == "both gave grade 2 to every item: kappa is undefined without variation"
    assert report.overall.alpha.why == "every rating is grade 2: alpha is undefined without variation"
    assert report.overall.unanimous.value == 1.0
    frame = report.pairs_frame()
    assert frame.loc[0, "undefined"] == (
        "linear: both gave grade 2 to every item: kappa is undefined without variation; "
        "quadratic: both gave grade 2 to every item: kappa is undefined without variation"
    )
    no_nan_anywhere([report.groups_frame(), frame])


def test_the_summary_for_a_manifest_is_json_without_nan() -> None:
    summary = agreement(two_raters([2, 2, 2], [2, 2, 2]), GradeScale(0, 3)).summary()
    assert json.loads(json.dumps(summary, allow_nan=False)) == {
        "annotators": ["ana", "ben"],
        "rated_items": 3,
        "shared_items": 3,
        "alpha_ordinal": "undefined: every rating is grade 2: alpha is undefined without variation",
        "unanimous": 1.0,
        "pairs": [
            {
                "annotators": ["ana", "ben"],
                "items": 3,
                "raw_agreement": 1.0,
                "kappa_linear": "undefined: both gave grade 2 to every item: kappa is undefined without variation",
                "kappa_quadratic": "undefined: both gave grade 2 to every item: kappa is undefined without variation",
            }
        ],
    }


def test_no_overlap_between_two_raters() -> None:
    report = agreement(ratings([("q1", "d1", "ana", 2), ("q1", "d2", "ben", 1)]), GradeScale(0, 3))
    pair = report.overall.pairs[0]
    assert (pair.a, pair.b, pair.items) == ("ana", "ben", 0)
    assert pair.raw.text() == "undefined: no item rated by both ana and ben"
    assert report.matrix("ana", "ben").sum() == 0
    no_nan_anywhere([report.groups_frame(), report.pairs_frame()])


def test_an_empty_table() -> None:
    report = agreement(ratings([]), GradeScale(0, 3))
    assert (report.annotators, report.rated_items, report.overall.items) == ((), 0, 0)
    assert report.overall.alpha.value is None
    assert len(report.confusion) == 0 and len(report.leniency) == 0


def test_one_item_each_a_different_grade() -> None:
    """One shared item, grades 1 and 2: chance predicts exactly what was observed, so kappa is 0, not undefined."""
    pair = agreement(two_raters([1], [2]), GradeScale(0, 3)).overall.pairs[0]
    assert pair.kappa_linear.value == pytest.approx(0.0)
    assert pair.raw.value == 0.0


def test_ungraded_ratings_are_left_out() -> None:
    frame = two_raters(ANA, BEN)
    frame["grade"] = frame["grade"].astype(object)
    frame.loc[0, "grade"] = None  # ana's d0 not graded yet
    report = agreement(frame, GradeScale(0, 3))
    assert report.overall.items == 5


# --- refusals --------------------------------------------------------------------------------------


def test_a_grade_outside_the_scale_is_refused_with_the_item_named() -> None:
    with pytest.raises(InputError, match=r"grade 7 of ben for q1/d0 is not an integer in the scale 0\.\.3"):
        agreement(ratings([("q1", "d0", "ana", 1), ("q1", "d0", "ben", 7)]), GradeScale(0, 3))


def test_two_ratings_by_one_annotator_for_one_item_are_refused() -> None:
    with pytest.raises(InputError, match="ana has two ratings for q1/d0"):
        agreement(ratings([("q1", "d0", "ana", 1), ("q1", "d0", "ana", 2)]), GradeScale(0, 3))


def test_missing_columns_are_named() -> None:
    with pytest.raises(InputError, match="lacks the column.s. annotator"):
        agreement(pd.DataFrame({"query_id": [], "doc_id": [], "grade": []}), GradeScale(0, 3))


# --- progress and cancel ---------------------------------------------------------------------------


def test_progress_counts_the_overall_group_and_each_query() -> None:
    seen: list[tuple[int, int]] = []
    agreement(
        pd.concat([two_raters(ANA, BEN, "q1"), two_raters(ANA, BEN, "q2")]),
        GradeScale(0, 3),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_overall_only_gives_the_same_overall_figures() -> None:
    frame = pd.concat([two_raters(ANA, BEN, "q1"), two_raters(BEN, ANA, "q2")])
    full, overall = agreement(frame, GradeScale(0, 3)), agreement(frame, GradeScale(0, 3), per_query=False)
    assert overall.per_query == () and len(full.per_query) == 2
    assert overall.overall == full.overall
    assert overall.summary() == full.summary()


def test_cancel_stops_the_report() -> None:
    with pytest.raises(Cancelled):
        agreement(two_raters(ANA, BEN), GradeScale(0, 3), cancelled=lambda: True)


def test_importing_the_module_loads_neither_scikit_learn_nor_krippendorff() -> None:
    """They take about a second to import: only computing a report loads them (``ndcg --version`` stays fast)."""
    code = (
        "import sys, ndcg_desktop.scoring.agreement, ndcg_desktop.tasks.agreement, ndcg_desktop.cli.main; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'krippendorff', 'scipy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- properties against the written-out formulas -----------------------------------------------------

rating_rows = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2"]),
        st.sampled_from(["d1", "d2", "d3", "d4"]),
        st.sampled_from(["ana", "ben", "chen"]),
        st.integers(0, 4),
    ),
    max_size=30,
    unique_by=lambda r: (r[0], r[1], r[2]),
)


@settings(deadline=None, max_examples=60)
@given(rating_rows)
def test_figures_agree_with_the_formulas(rows: list[tuple[str, str, str, int]]) -> None:
    frame = ratings(rows)
    report = agreement(frame, GradeScale(0, 4))
    items: dict[tuple[str, str], dict[str, int]] = {}
    for q, d, who, g in rows:
        items.setdefault((q, d), {})[who] = g
    shared = {key: by for key, by in items.items() if len(by) >= 2}
    assert report.overall.items == len(shared)
    values = [list(by.values()) for by in shared.values()]
    all_grades = [g for v in values for g in v]
    if not shared:
        assert report.overall.alpha.value is None
    elif len(set(all_grades)) == 1:
        assert report.overall.alpha.why.startswith("every rating is grade")
    else:
        assert report.overall.alpha.value == pytest.approx(reference_alpha(values, [0, 1, 2, 3, 4], "ordinal"))
    for pair in report.overall.pairs:
        both = [(by[pair.a], by[pair.b]) for by in shared.values() if pair.a in by and pair.b in by]
        assert pair.items == len(both)
        assert int(report.matrix(pair.a, pair.b).sum()) == len(both)
        if not both:
            assert pair.kappa_linear.value is None
            continue
        assert pair.raw.value == pytest.approx(sum(x == y for x, y in both) / len(both))
        n = len(both)
        ca = [sum(x == g for x, _ in both) for g in range(5)]
        cb = [sum(y == g for _, y in both) for g in range(5)]
        for power, figure in ((1, pair.kappa_linear), (2, pair.kappa_quadratic)):
            expected = sum(abs(i - j) ** power * ca[i] * cb[j] for i in range(5) for j in range(5)) / n
            observed = sum(abs(x - y) ** power for x, y in both)
            if expected == 0:
                assert figure.value is None
            else:
                assert figure.value == pytest.approx(1 - observed / expected)
    assert [(p.a, p.b) for p in report.overall.pairs] == list(combinations(report.annotators, 2))
    no_nan_anywhere([report.groups_frame(), report.pairs_frame()])
