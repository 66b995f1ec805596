"""Statistics of a comparison (rule 17) against the libraries that define them, and by hand.

Oracles: scipy (ttest_rel, wilcoxon, permutation_test, bootstrap), statsmodels (multipletests,
TTestPower) on the same arrays, and ranx's ``compare`` on two real Cranfield runs.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sp
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale, UnjudgedPolicy, UnknownQueryPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.resampling import _mean_difference
from ndcg_desktop.scoring.stats import (
    CiMethod,
    Correction,
    StatsSettings,
    StatTest,
    bootstrap_ci,
    bootstrap_cis,
    cohens_dz,
    compare_scores,
    compare_tables,
    correct,
    queries_needed,
    randomization_test,
    randomization_tests,
    run_letter,
    superscripts,
    t_test,
    wilcoxon_test,
)
from tests.helpers import measure

TOL = 1e-12


def pairs_of(data: st.DataObject) -> tuple[np.ndarray, np.ndarray]:
    """Two runs' per-query scores as nDCG produces them: in [0, 1], rounded, some queries tied."""
    n = data.draw(st.integers(3, 60), label="queries")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32), label="seed"))
    a = np.round(rng.random(n), data.draw(st.integers(1, 3), label="digits"))
    tied = rng.random(n) < data.draw(st.sampled_from([0.0, 0.3, 0.9, 1.0]), label="tied share")
    return a, np.where(tied, a, np.round(rng.random(n), 2))


def rounded(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The differences every paired statistic takes: b - a to 12 decimals (the wins/ties/losses tolerance)."""
    return np.round(b - a, 12)


@settings(max_examples=min(settings.default.max_examples, 50))  # scipy's tests beside ours: the suite's slowest
@given(st.data())
def test_p_values_equal_scipys_on_the_same_arrays(data):
    a, b = pairs_of(data)
    d = rounded(a, b)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference_t = sp.ttest_rel(d, np.zeros_like(d)).pvalue  # 0 when every d is the same non-zero value
    if not np.any(d):
        assert math.isnan(t_test(a, b)) and math.isnan(reference_t)
    else:
        assert abs(t_test(a, b) - reference_t) <= TOL
    if np.any(d != 0):
        assert abs(wilcoxon_test(a, b) - sp.wilcoxon(d).pvalue) <= TOL
    else:
        assert math.isnan(wilcoxon_test(a, b))


def test_a_difference_in_the_last_bit_changes_no_p_value():
    """Two scorers that differ by one unit in the last place on one query (CAsT 113_2: …895 against …892) give
    the same p-values: the differences are ranked and tested rounded to the tolerance wins/ties/losses use.
    On the exact floats scipy's Wilcoxon p-value moves (a tie in |d| is broken by the last bit)."""
    a = np.zeros(8)
    b = np.array([0.2, -0.2, 0.35, 0.1, 0.4, -0.05, 0.25, 0.3])  # |0.2| twice: a tie in rank
    moved = b.copy()
    moved[0] = np.nextafter(b[0], 1.0)
    assert sp.wilcoxon(b - a).pvalue != sp.wilcoxon(moved - a).pvalue  # the exact floats: the p-value moves
    assert wilcoxon_test(a, b) == wilcoxon_test(a, moved) == sp.wilcoxon(rounded(a, b)).pvalue
    assert t_test(a, b) == t_test(a, moved)
    s = StatsSettings(resamples=1000)
    first = compare_scores(pd.DataFrame({"a": a, "b": b}), settings=s).pairs.iloc[0]
    second = compare_scores(pd.DataFrame({"a": a, "b": moved}), settings=s).pairs.iloc[0]
    for column in ("p_t", "p_wilcoxon", "p_randomization", "cohens_dz", "queries_needed"):
        assert first[column] == second[column], column


# The class of issue 26's crash: every statistic that meets no variance, one query, no query or identical runs.
_BASE = np.array([0.11, 0.52, 0.23, 0.74, 0.35, 0.66, 0.17, 0.48, 0.29, 0.5, 0.31, 0.62])
DEGENERATE = {
    "the same +0.37 on 12 queries": (_BASE, _BASE + 0.37),  # b - a: 0.37 up to the last bit
    "the same +0.369 on 5 queries": (_BASE[:5], _BASE[:5] + 0.369),
    "the same -0.2 on 3 queries": (_BASE[3:6], _BASE[3:6] - 0.2),
    "identical runs": (_BASE, _BASE.copy()),
    "identical but for the last bit": (_BASE, np.nextafter(_BASE, 1.0)),
    "one query": (_BASE[:1], _BASE[:1] + 0.3),
    "one query, the same score": (_BASE[:1], _BASE[:1].copy()),
    "no query": (_BASE[:0], _BASE[:0]),
}
NULLABLE = ("difference", "difference_low", "cohens_dz", "p_t", "p_wilcoxon", "p_randomization", "queries_needed")
REASON = {"difference_low": "difference_ci_reason"} | {c: f"{c}_reason" for c in NULLABLE if c != "difference_low"}


@pytest.mark.filterwarnings("ignore::statsmodels.tools.sm_exceptions.ConvergenceWarning")  # statsmodels' own call
@pytest.mark.parametrize("case", list(DEGENERATE))
def test_every_statistic_meets_degenerate_differences_with_a_value_or_a_reason(case):
    a, b = DEGENERATE[case]
    d = rounded(a, b)
    s = StatsSettings(resamples=1000)
    row = compare_scores(pd.DataFrame({"a": a, "b": b}), settings=s).pairs.iloc[0]  # no exception
    for column in NULLABLE:
        reason = row[REASON[column]]
        if math.isnan(row[column]):
            assert isinstance(reason, str) and reason, (column, reason)
        elif not pd.isna(reason):
            assert reason.startswith("limit:"), (column, reason)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_ref, p_ref = sp.ttest_rel(d, np.zeros_like(d)) if len(d) else (math.nan, math.nan)
        power = TTestPower().solve_power(0.02 / d.std(ddof=1), alpha=0.05, power=0.8) if len(d) > 1 else math.nan
    constant = len(d) > 1 and np.any(d) and np.all(d == d[0])
    if constant:  # scipy: t = +-inf and p = 0, or a p-value near 0 when its mean is off in the last bit
        assert abs(t_ref) > 1e15 and p_ref < 1e-30
        assert row["p_t"] == 0.0 and row["p_t_reason"].startswith("limit:") and row["significant"]
        assert row["p_t_corrected"] == 0.0
    else:  # scipy's t: NaN for one query or identical runs
        assert row["p_t"] == p_ref or (math.isnan(row["p_t"]) and math.isnan(p_ref))
    if np.any(d):  # scipy's Wilcoxon where there is something to rank (it says 1.0 for all zeros; we say why not)
        assert row["p_wilcoxon"] == sp.wilcoxon(d).pvalue
    else:
        why = "no query is counted in both runs" if len(d) == 0 else "the two runs score the same on every query"
        assert math.isnan(row["p_wilcoxon"]) and row["p_wilcoxon_reason"].startswith(why)
        assert math.isnan(row["p_randomization"]) and row["p_randomization_reason"].startswith(why)
        assert not row["significant"]
    # statsmodels' power solver has no answer without spread; neither do we, and we say so
    if len(d) < 2 or np.all(d == d[0]):
        assert math.isnan(row["queries_needed"]) and math.isnan(row["cohens_dz"])
        assert not (len(d) > 1 and math.isfinite(power))
    if len(d) < 2:
        assert math.isnan(row["difference_low"]) and row["difference_ci_reason"]
    else:
        assert row["difference_low"] == row["difference_high"] == d[0] if constant or not np.any(d) else True


def test_a_run_with_one_query_or_none_in_its_mean_has_reasons():
    table = pd.DataFrame({"a": [0.2, 0.4], "b": [0.3, 0.9]})
    counted = pd.DataFrame({"a": [True, False], "b": [False, False]})
    c = compare_scores(table, settings=StatsSettings(resamples=500), in_mean=counted)
    one, none = c.runs.iloc[0], c.runs.iloc[1]
    assert one["queries"] == 1 and one["mean"] == 0.2 and pd.isna(one["mean_reason"])
    assert math.isnan(one["ci_low"]) and one["ci_reason"].startswith("one query only")
    assert none["queries"] == 0 and math.isnan(none["mean"]) and none["mean_reason"] == "no query is in this run's mean"
    pair = c.pairs.iloc[0]
    assert pair["queries"] == 0 and pair["difference_reason"] == "no query is counted in both runs"


@settings(max_examples=min(settings.default.max_examples, 50))  # each example is a scipy permutation test
@given(st.data(), st.sampled_from([100, 999, 1000, 4096]), st.integers(0, 2**32))
def test_randomization_p_value_equals_scipys_permutation_test(data, resamples, seed):
    """Random swaps (n > log2 resamples) and the exact test (2^n <= resamples) alike.

    On scores in 64ths every sum is exact in float64, so scipy's null means carry no rounding noise: on decimal
    scores a null mean equal to the observed one in exact arithmetic can miss scipy's 100-epsilon tolerance, and
    scipy then counts it as less extreme (the next test: ours counts it as exact arithmetic does)."""
    a, b = (np.round(x * 64) / 64 for x in pairs_of(data))
    if not np.any(a != b):
        assert math.isnan(randomization_test(a, b, resamples=resamples, seed=seed))
        return
    reference = sp.permutation_test(
        (b, a),
        _mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=resamples,
        rng=np.random.default_rng(seed),
    ).pvalue
    assert abs(randomization_test(a, b, resamples=resamples, seed=seed) - reference) <= TOL


def test_randomization_counts_a_tie_with_the_observed_mean_as_exact_arithmetic_does():
    """The case hypothesis found against scipy: 39 queries, 33 tied, scores to 2 decimals. The p-value is the one
    exact fractions give on the same 100 swaps (scipy's float noise makes it 0.8118811881188119)."""
    from fractions import Fraction

    from ndcg_desktop.scoring import resampling

    n, rng = 39, np.random.default_rng(39)
    a = np.round(rng.random(n), 2)
    b = np.where(rng.random(n) < 0.9, a, np.round(rng.random(n), 2))
    rows = max(2, (resampling._batch(n) // 2) * 2)
    draws = resampling._rng(1)
    swaps = np.concatenate([resampling._swaps(draws, min(rows, 100 - s), n) for s in range(0, 100, rows)])
    diff = [Fraction(str(y)) - Fraction(str(x)) for x, y in zip(a, b, strict=True)]
    observed = sum(diff) / n
    nulls = [sum(-d if swapped else d for d, swapped in zip(diff, row, strict=True)) / n for row in swaps]
    low, high = sum(v <= observed for v in nulls), sum(v >= observed for v in nulls)
    assert randomization_test(a, b, resamples=100, seed=1) == min(low + 1, high + 1) / 101 * 2 == 86 / 101


def test_randomization_on_many_queries_equals_scipy_and_repeats_bit_for_bit():
    rng = np.random.default_rng(7)
    a = rng.random(500)
    b = np.clip(a + rng.normal(0.01, 0.1, 500), 0, 1)
    reference = sp.permutation_test(
        (b, a), _mean_difference, permutation_type="samples", vectorized=True, rng=np.random.default_rng(11)
    ).pvalue  # scipy's default: 9999 resamples
    first = randomization_test(a, b, resamples=9999, seed=11)
    assert abs(first - reference) <= TOL
    assert randomization_test(a, b, resamples=9999, seed=11) == first  # the same bits
    assert randomization_test(a, b, resamples=9999, seed=12) != first  # the seed matters


def test_bootstrap_intervals_equal_scipys_and_repeat_bit_for_bit():
    rng = np.random.default_rng(3)
    x = rng.random(300)
    ours = bootstrap_ci(x, resamples=5000, seed=5, confidence=0.9)
    for method, name in ((CiMethod.BCA, "BCa"), (CiMethod.PERCENTILE, "percentile")):
        ref = sp.bootstrap(
            (x,), np.mean, n_resamples=5000, method=name, confidence_level=0.9, rng=np.random.default_rng(5)
        ).confidence_interval
        assert (ours[method][0], ours[method][1]) == (ref.low, ref.high)  # the same bits as scipy's own call
    assert bootstrap_ci(x, resamples=5000, seed=5, confidence=0.9) == ours


def test_intervals_of_many_samples_are_scipys_own_bit_for_bit_on_any_number_of_threads():
    """bootstrap_cis draws each length's indices once, in scipy's batches: each sample's intervals are those of
    its own scipy.stats.bootstrap call with a fresh default_rng(seed), whatever else is in the batch.

    Lengths 3000 (4 of scipy's 1,333-resample batches for 5,000 resamples), 300 and 2 (one batch); a constant
    sample (the point itself) and a single value (NaN) among them."""
    rng = np.random.default_rng(21)
    samples = [rng.random(3000), np.round(rng.random(300), 1), rng.random(3000), [0.25, 0.75], rng.random(300)]
    samples += [np.full(40, 0.3), [0.9]]
    expected = []
    for x in samples[:5]:
        intervals = {}
        for method, name in ((CiMethod.BCA, "BCa"), (CiMethod.PERCENTILE, "percentile")):
            ci = sp.bootstrap(
                (np.asarray(x),),
                np.mean,
                n_resamples=5000,
                method=name,
                confidence_level=0.9,
                rng=np.random.default_rng(8),
            ).confidence_interval
            intervals[method] = (float(ci.low), float(ci.high))
        expected.append(intervals)
    expected += [{m: (0.3, 0.3) for m in CiMethod}]
    for workers in (1, 3):
        found = bootstrap_cis(samples, resamples=5000, seed=8, confidence=0.9, workers=workers)
        assert found[:6] == expected
        assert all(math.isnan(v) for pair in found[6].values() for v in pair)


def test_randomization_tests_of_many_pairs_are_each_pairs_own_and_scipys():
    """randomization_tests shares one length's swaps between pairs: each p-value is its own call's and scipy's."""
    rng = np.random.default_rng(22)
    pairs = []
    for n in (700, 40, 700, 5, 700):  # 5 queries: the exact test (2^5 <= 3000 resamples)
        a = np.round(rng.random(n), 2)
        pairs.append((a, np.where(rng.random(n) < 0.3, a, np.round(rng.random(n), 2))))
    pairs.append((pairs[0][0], pairs[0][0]))  # nothing differs: NaN
    alone = [randomization_test(a, b, resamples=3000, seed=13) for a, b in pairs[:-1]]
    references = [
        sp.permutation_test(
            (b, a),
            _mean_difference,
            permutation_type="samples",
            vectorized=True,
            n_resamples=3000,
            rng=np.random.default_rng(13),
        ).pvalue
        for a, b in pairs[:-1]
    ]  # computed once: each number of threads must give the same
    for workers in (1, 2):
        found = randomization_tests(pairs, resamples=3000, seed=13, workers=workers)
        assert found[:-1] == alone
        assert found[:-1] == references  # the same count of the same null distribution
        assert math.isnan(found[-1])


def test_compare_tables_equals_one_compare_scores_per_table_bit_for_bit():
    """Every cutoff's tables compared in one batch give what each cutoff compared alone gives."""
    rng = np.random.default_rng(23)
    tables = []
    for n in (120, 120, 90):
        base = rng.random(n)
        scores = pd.DataFrame({"x": base, "y": np.clip(base + rng.normal(0.05, 0.1, n), 0, 1), "z": rng.random(n)})
        counted = pd.DataFrame(rng.random((n, 3)) < 0.95, columns=["x", "y", "z"])
        tables.append((scores, counted))
    s = StatsSettings(resamples=1500, seed=3)
    for baseline in (None, "y"):
        together = compare_tables(tables, settings=s, baseline=baseline)
        for (scores, counted), batch in zip(tables, together, strict=True):
            alone = compare_scores(scores, settings=s, baseline=baseline, in_mean=counted)
            pd.testing.assert_frame_equal(batch.runs, alone.runs, check_exact=True)
            pd.testing.assert_frame_equal(batch.pairs, alone.pairs, check_exact=True)


def test_holm_leaves_the_garbage_collector_as_it_found_it():
    """statsmodels' Holm runs gc.collect(); correct() hides existing objects from it, then hands them back."""
    import gc

    before = gc.get_freeze_count()
    assert (
        correct([0.01, 0.04, 0.03], Correction.HOLM).tolist()
        == multipletests([0.01, 0.04, 0.03], method="holm")[1].tolist()
    )
    assert gc.get_freeze_count() == before


def test_bootstrap_corner_cases():
    assert bootstrap_ci([0.7, 0.7, 0.7], resamples=1000, seed=0) == {m: (0.7, 0.7) for m in CiMethod}
    one = bootstrap_ci([0.7], resamples=1000, seed=0)
    assert all(math.isnan(v) for pair in one.values() for v in pair)


@settings(max_examples=min(settings.default.max_examples, 50))  # each example is a statsmodels call
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.sampled_from(list(Correction)))
def test_corrections_equal_statsmodels(pvalues, method):
    ours = correct(pvalues, method)
    if method is Correction.NONE:
        assert ours.tolist() == pvalues
    else:
        ref = multipletests(pvalues, method={"holm": "holm", "bh": "fdr_bh"}[method.value])[1]
        assert np.max(np.abs(ours - ref)) <= TOL


def test_corrections_by_hand_and_nan_left_out_of_the_family():
    p = [0.01, 0.04, 0.03]
    # Holm: sorted 0.01*3, 0.03*2, max(0.06, 0.04*1) -> in input order
    assert np.allclose(correct(p, Correction.HOLM), [0.01 * 3, 0.03 * 2, 0.03 * 2], atol=TOL)
    # BH: sorted p * m / rank = 0.03, 0.045, 0.04, then the running minimum from the largest rank
    assert np.allclose(correct(p, Correction.BH), [0.01 * 3 / 1, 0.04 * 3 / 3, 0.04 * 3 / 3], atol=TOL)
    with_nan = correct([0.01, math.nan, 0.04], Correction.HOLM)
    assert math.isnan(with_nan[1])
    assert np.allclose(with_nan[[0, 2]], [0.01 * 2, 0.04], atol=TOL)  # a family of two


def test_hand_made_case_three_queries():
    """d = b - a = [0.1, 0.2, 0.3]: every figure by its formula."""
    a = np.array([0.5, 0.4, 0.3])
    b = a + np.array([0.1, 0.2, 0.3])
    d = b - a
    mean, sd, n = d.mean(), d.std(ddof=1), 3
    t = mean / (sd / math.sqrt(n))
    assert abs(t_test(a, b) - 2 * sp.t.sf(t, n - 1)) <= TOL
    # Wilcoxon: ranks 1, 2, 3 all positive; the exact null puts 1/8 on W+ = 6, two-sided doubles it
    assert abs(wilcoxon_test(a, b) - 2 * (1 / 8)) <= TOL
    # Randomization, exact (2^3 = 8 <= resamples): only the unflipped pattern reaches the observed
    # mean, every pattern is at or below it: p = 2 * min(8, 1) / 8
    assert abs(randomization_test(a, b, resamples=1000, seed=0) - 2 * 1 / 8) <= TOL
    assert abs(cohens_dz(d) - mean / sd) <= TOL
    assert abs(cohens_dz(d) - 0.2 / 0.1) <= 1e-9


def test_queries_needed_is_statsmodels_rounded_up():
    rng = np.random.default_rng(2)
    d = rng.normal(0.01, 0.15, 200)
    sd = d.std(ddof=1)
    expected = math.ceil(TTestPower().solve_power(effect_size=0.02 / sd, alpha=0.05, power=0.8))
    assert queries_needed(d, detect=0.02, alpha=0.05, power=0.8) == expected
    # The normal approximation ((z_0.975 + z_0.8) * sd / 0.02)^2 is a lower bound, within a few queries
    approx = ((sp.norm.ppf(0.975) + sp.norm.ppf(0.8)) * sd / 0.02) ** 2
    assert approx <= expected <= approx + 3
    assert math.isnan(queries_needed(np.full(5, 0.1), detect=0.02, alpha=0.05, power=0.8))


def test_compare_scores_pairs_baseline_and_reproducibility():
    rng = np.random.default_rng(4)
    base = rng.random(80)
    table = pd.DataFrame(
        {
            "base": base,
            "better": np.clip(base + 0.2 + rng.normal(0, 0.05, 80), 0, 1),
            "same": base,
        }
    )
    s = StatsSettings(resamples=2000, seed=9, test=StatTest.RANDOMIZATION, correction=Correction.HOLM)
    all_pairs = compare_scores(table, settings=s)
    assert all_pairs.pairs[["a", "b"]].values.tolist() == [["base", "better"], ["base", "same"], ["better", "same"]]
    vs_base = compare_scores(table, settings=s, baseline="base")
    assert vs_base.pairs[["a", "b"]].values.tolist() == [["base", "better"], ["base", "same"]]
    row = vs_base.pairs.iloc[0]
    assert row["wins"] == int((table["better"] > table["base"]).sum())
    assert row["significant"]
    assert math.isnan(vs_base.pairs.iloc[1]["p_t"]) and not vs_base.pairs.iloc[1]["significant"]
    # Holm over the two pairs whose tests are defined: the identical run's NaN is not in the family
    assert row["p_randomization_corrected"] == min(1.0, row["p_randomization"] * 1)
    # A pair's figures do not depend on which other runs are compared alongside it (bit for bit)
    alone = compare_scores(table[["base", "better"]], settings=s)
    assert alone.pairs.iloc[0][["difference_low", "difference_high", "p_randomization"]].tolist() == (
        all_pairs.pairs.iloc[0][["difference_low", "difference_high", "p_randomization"]].tolist()
    )
    assert compare_scores(table, settings=s).runs.equals(all_pairs.runs)
    assert superscripts(all_pairs) == {"base": "", "better": "ac", "same": ""}


def test_compare_scores_pairs_over_queries_counted_in_both():
    table = pd.DataFrame({"a": [0.1, 0.2, 0.3, 0.9], "b": [0.2, 0.4, 0.6, 0.0]})
    counted = pd.DataFrame({"a": [True, True, True, True], "b": [True, True, True, False]})
    c = compare_scores(table, settings=StatsSettings(resamples=500), in_mean=counted)
    assert c.runs["queries"].tolist() == [4, 3]
    assert c.pairs.iloc[0]["queries"] == 3
    assert abs(c.pairs.iloc[0]["difference"] - (0.1 + 0.2 + 0.3) / 3) <= TOL


def test_settings_are_validated_and_printed():
    with pytest.raises(InputError, match="test must be one of t|wilcoxon|randomization"):
        StatsSettings(test="z")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="resamples"):
        StatsSettings(resamples=5)
    assert StatsSettings(correction="bh").correction is Correction.BH  # type: ignore[arg-type]
    assert "10000 resamples, seed 0" in StatsSettings().describe()
    assert StatsSettings(seed=3).as_dict()["seed"] == 3
    assert [run_letter(i) for i in (0, 1, 25, 26, 27)] == ["a", "b", "z", "aa", "ab"]


@pytest.mark.slow  # ranx compiles its kernels with numba on first use (tens of seconds)
def test_t_test_p_values_equal_ranx_compare_on_cranfield(data_dir: Path):
    """ranx's ``compare`` (student) on the same runs: same per-query nDCG@10, same p-value."""
    ranx = pytest.importorskip("ranx")  # a test-only dependency: importorskip never skips with the test extra
    folder = data_dir / "cranfield"
    chosen = {"unjudged": UnjudgedPolicy.ZERO, "unknown_queries": UnknownQueryPolicy.IGNORE, "scale": GradeScale(0, 4)}
    settings_ = measure(**chosen)
    qrels = read_qrels(folder / "qrels.txt", scale=settings_.terms.scale)
    frame = pd.read_csv(
        folder / "qrels.txt", sep=r"\s+", header=None, names=["q_id", "it", "doc_id", "score"], dtype=str
    )
    frame["score"] = frame["score"].astype(int)
    frame = frame.astype({"q_id": object, "doc_id": object})  # ranx asks for object columns
    ranx_qrels = ranx.Qrels.from_df(frame, q_id_col="q_id", doc_id_col="doc_id", score_col="score")
    ours, theirs = {}, []
    for name in ("bm25", "tfidf", "chunks"):
        run_frame = pd.read_csv(
            folder / f"{name}.run.gz", sep=r"\s+", header=None, names=["q_id", "q0", "doc_id", "rank", "score", "tag"]
        ).astype({"q_id": str, "doc_id": str})
        if name == "chunks":  # the chunk IDs map to documents; keep each document's best chunk
            run_frame["doc_id"] = run_frame["doc_id"].str.split("#").str[0]
            run_frame = run_frame.drop_duplicates(["q_id", "doc_id"])
        run_frame = run_frame.astype({"q_id": object, "doc_id": object})
        theirs.append(ranx.Run.from_df(run_frame, q_id_col="q_id", doc_id_col="doc_id", score_col="score", name=name))
        options = {"id_map": "#", "duplicates": "first"} if name == "chunks" else {}
        evaluation = evaluate(qrels, read_run(folder / f"{name}.run.gz"), measure(**chosen, **options), 10)
        ours[name] = evaluation.per_query.set_index("query_id")["ndcg"]
    report = ranx.compare(ranx_qrels, theirs, metrics=["ndcg@10"], stat_test="student", make_comparable=True)
    table = pd.DataFrame(ours)
    for run in theirs:  # the same per-query scores first, or the p-values would compare different things
        per_query = pd.Series(run.scores["ndcg@10"])
        assert np.max(np.abs(per_query - table[run.name].reindex(per_query.index))) <= TOL
    c = compare_scores(table, settings=StatsSettings(resamples=200))
    for row in c.pairs.itertuples():
        p_ranx = report.comparisons[(row.a, row.b)]["ndcg@10"]["p_value"]
        assert abs(row.p_t - p_ranx) <= TOL


def test_importing_the_statistics_module_or_the_command_line_loads_no_scipy():
    """scipy and statsmodels take about a second to import: the command line starts without them."""
    code = (
        "import sys, ndcg_desktop.scoring.stats, ndcg_desktop.cli.main; "
        "assert not [m for m in sys.modules if m.split('.')[0] in ('scipy', 'statsmodels')], 'imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
