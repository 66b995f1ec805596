"""Uncertainty of a comparison (rule 17): confidence intervals, paired tests, corrections, effect sizes.

Pure arithmetic over per-query score arrays (one value per query, in the same query order for every
run). Every figure comes from a named library routine so that it can be checked against it:

- the confidence interval of a mean over queries: ``scipy.stats.bootstrap`` (percentile and BCa);
- paired tests: ``scipy.stats.ttest_rel``, ``scipy.stats.wilcoxon`` and the Fisher randomization
  test ``scipy.stats.permutation_test(permutation_type="samples")`` on the mean difference;
- multiple comparisons: ``statsmodels.stats.multitest.multipletests`` (Holm, Benjamini-Hochberg);
- queries needed for a difference: ``statsmodels.stats.power.TTestPower``, a per-pair power
  calculation from that pair's own spread of differences (not Sakai's topic-set-size design, which
  pools the variance of every run: README, "Comparing runs").

The paired tests, the effect size, the queries needed and the interval of a difference all take the
differences rounded to :data:`TOLERANCE` (:func:`paired_differences`), the tolerance that decides a
tie in wins/ties/losses: a difference of one unit in the last place between two scorers changes no
figure. A figure that cannot be computed for the data (one query, differences that do not vary,
identical runs) is NaN, and its ``*_reason`` column says why; where the differences are all the same
non-zero value, the t-test's p-value is the limit 0 (t is infinite, as scipy gives it), labelled so.

Resampling uses ``numpy.random.default_rng(seed)`` afresh for every call, so each figure depends
only on its own arrays, the resample count and the seed: the same inputs give the same bits,
whatever else is compared alongside. scipy and statsmodels take about a second to import, so they
are imported inside the functions that need them (the command line starts without them).

Short names: ``a``, ``b`` are two runs' per-query scores; ``d = b - a`` their paired differences.
"""

from __future__ import annotations

import gc
import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.scoring.resampling import (  # the resampling engine; its names stay importable from here
    CiMethod,
    bootstrap_ci,
    bootstrap_cis,
    randomization_test,
    randomization_tests,
)


class StatTest(StrEnum):
    """The paired test that decides significance (all three are always computed and reported)."""

    T = "t"  # paired Student t-test: scipy.stats.ttest_rel
    WILCOXON = "wilcoxon"  # Wilcoxon signed-rank: scipy.stats.wilcoxon (zero differences dropped, 'wilcox')
    RANDOMIZATION = "randomization"  # Fisher's paired randomization test: scipy.stats.permutation_test


class Correction(StrEnum):
    """Correction for multiple comparisons over the pairs compared at one K."""

    HOLM = "holm"  # Holm-Bonferroni step-down (family-wise error)
    BH = "bh"  # Benjamini-Hochberg (false discovery rate); statsmodels' 'fdr_bh'
    NONE = "none"


_STATSMODELS_METHOD = {Correction.HOLM: "holm", Correction.BH: "fdr_bh"}
TEST_COLUMNS = {StatTest.T: "p_t", StatTest.WILCOXON: "p_wilcoxon", StatTest.RANDOMIZATION: "p_randomization"}


@dataclass(frozen=True)
class StatsSettings:
    """Every choice that changes a statistic, named and printed beside the figures.

    >>> StatsSettings().describe().startswith("95% bootstrap CI (bca; percentile also given), 10000 resamples, seed 0")
    True
    """

    test: StatTest = StatTest.T
    correction: Correction = Correction.HOLM
    alpha: float = 0.05
    confidence: float = 0.95
    resamples: int = 10_000
    seed: int = 0
    ci_method: CiMethod = CiMethod.BCA
    detect: float = 0.02  # the difference of means the topic-set-size figure is for
    power: float = 0.8

    def __post_init__(self) -> None:
        for name, kind in (("test", StatTest), ("correction", Correction), ("ci_method", CiMethod)):
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, name, kind(str(value)))
                except ValueError:
                    allowed = "|".join(m.value for m in kind)
                    raise InputError(f"{name} must be one of {allowed}, not {value!r}") from None
        if not (isinstance(self.resamples, int) and 100 <= self.resamples <= 10_000_000):
            raise InputError(f"resamples must be a whole number from 100 to 10000000, not {self.resamples!r}")
        if not (isinstance(self.seed, int) and 0 <= self.seed < 2**63):
            raise InputError(f"the seed must be a whole number from 0 to {2**63 - 1}, not {self.seed!r}")
        for name in ("alpha", "confidence", "power"):
            value = getattr(self, name)
            if not 0.0 < float(value) < 1.0:
                raise InputError(f"{name} must lie strictly between 0 and 1, not {value!r}")
        if not 0.0 < float(self.detect) <= 1.0:
            raise InputError(f"the difference to detect must lie in (0, 1], not {self.detect!r}")

    def describe(self) -> str:
        other = "percentile" if self.ci_method is CiMethod.BCA else "bca"
        return (
            f"{self.confidence:.0%} bootstrap CI ({self.ci_method}; {other} also given), {self.resamples} resamples, "
            f"seed {self.seed}; paired {self.test} test on b - a rounded to {TOLERANCE:g}, {self.correction} "
            f"correction, alpha {self.alpha:g}; "
            f"queries needed to detect {self.detect:g} at power {self.power:g} (per pair, from its own spread)"
        )

    def as_dict(self) -> dict[str, Any]:
        data = {key: (value.value if isinstance(value, StrEnum) else value) for key, value in asdict(self).items()}
        data["libraries"] = {
            "bootstrap": "scipy.stats.bootstrap",
            "differences": f"b - a rounded to {TOLERANCE:g} (12 decimals) before every paired test, the effect "
            "size, the queries needed and the interval of a difference",
            "t": "scipy.stats.ttest_1samp(differences, 0) (the paired t-test, as scipy.stats.ttest_rel)",
            "wilcoxon": "scipy.stats.wilcoxon(differences, zero_method='wilcox')",
            "randomization": "scipy.stats.permutation_test(permutation_type='samples', statistic=mean difference)",
            "correction": "statsmodels.stats.multitest.multipletests",
            "queries_needed": "a per-pair power calculation: statsmodels.stats.power.TTestPower (two-sided), the "
            "effect size being detect over that pair's own standard deviation of differences (not Sakai's "
            "topic-set-size design, which pools every run's variance)",
            "reasons": "a figure that is null has a *_reason field saying why (a test's reason covers its "
            "corrected p-value; ci_reason covers ci_, bca_ and percentile_ ends); a p-value of 0 with a reason is "
            "the limit for differences that are all the same",
            "rng": "numpy.random.default_rng(seed), fresh for every interval and every test",
        }
        data["text"] = self.describe()
        return data


TOLERANCE = 1e-12  # two scores closer than this are a tie (wins/ties/losses, the window's comparison)
_DECIMALS = 12  # TOLERANCE as decimals: the differences are rounded to it before every test

Figure = tuple[float, str | None]  # a value and why it is NaN or a limit (None: an ordinary estimate)


def paired_differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b - a`` per query, rounded to :data:`TOLERANCE` (12 decimals): what every paired statistic takes.

    Two scorers that differ in the last bit of a score (…895 against …892) give the same rounded
    differences, hence the same ranks, ties and p-values.

    >>> paired_differences(np.array([0.1, 0.3]), np.array([0.3, 0.5])).tolist()  # 0.2 and 0.19999999999999998
    [0.2, 0.2]
    """
    d: np.ndarray = np.round(np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64), _DECIMALS)
    return d + 0.0  # -0.0 -> 0.0


def _no_test(d: np.ndarray) -> str | None:
    """Why no paired test applies to the rounded differences ``d``: no query, or every difference zero."""
    if len(d) == 0:
        return "no query is counted in both runs"
    if not np.any(d):
        return f"the two runs score the same on every query (differences within {TOLERANCE:g}): nothing to test"
    return None


def _no_spread(d: np.ndarray, figure: str) -> str | None:
    """Why a figure that needs the differences' standard deviation has none (None when it has one)."""
    if _no_test(d) is not None:
        return _no_test(d)
    if len(d) < 2:
        return f"one query only: {figure} needs the spread of two or more differences"
    if np.all(d == d[0]):
        return f"every query differs by the same {d[0]:+.6g}: no spread, {figure} is unbounded"
    return None


def t_test_figure(a: np.ndarray, b: np.ndarray) -> Figure:
    """:func:`t_test` with why it is NaN, or that it is the limit p = 0 (every difference the same, not 0)."""
    d = paired_differences(a, b)
    why = _no_test(d) or ("one query only: a t-test needs two or more differences" if len(d) < 2 else None)
    if why is not None:
        return math.nan, why
    if np.all(d == d[0]):  # scipy: t = +-inf and p = 0, or a p-value of 1e-170 when its mean is off in the last bit
        return 0.0, f"limit: every query differs by the same {d[0]:+.6g}, so t = {'+' if d[0] > 0 else '-'}inf, p = 0"
    from scipy import stats

    return float(stats.ttest_1samp(d, 0.0).pvalue), None


def t_test(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the paired t-test on :func:`paired_differences` (``scipy.stats.ttest_1samp(d, 0)``,
    the same test as ``ttest_rel``). NaN for fewer than two queries or identical runs; 0 when every query differs
    by the same non-zero amount (t is infinite: the limit scipy gives).

    >>> t_test(np.array([0.1, 0.2, 0.3]), np.array([0.4, 0.5, 0.6]))
    0.0
    """
    return t_test_figure(a, b)[0]


def wilcoxon_figure(a: np.ndarray, b: np.ndarray) -> Figure:
    """:func:`wilcoxon_test` with why it is NaN."""
    d = paired_differences(a, b)
    why = _no_test(d)
    if why is not None:
        return math.nan, why
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "sample size too small for the normal approximation": the exact test is used
        return float(stats.wilcoxon(d).pvalue), None


def wilcoxon_test(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``, zero differences dropped)
    on :func:`paired_differences`: differences equal to 1e-12 tie in rank as they tie in wins/ties/losses.

    NaN when no difference is non-zero (there is nothing to rank).
    """
    return wilcoxon_figure(a, b)[0]


def correct(pvalues: Sequence[float] | np.ndarray, method: Correction, alpha: float = 0.05) -> np.ndarray:
    """P-values corrected for multiple comparisons (``statsmodels.stats.multitest.multipletests``).

    NaN p-values (a test with nothing to test) stay NaN and are not counted in the family.

    >>> correct([0.01, 0.04], Correction.HOLM).tolist()
    [0.02, 0.04]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = p.copy()
    known = ~np.isnan(p)
    if method is Correction.NONE or not known.any():
        return out
    from statsmodels.stats.multitest import multipletests

    with _objects_frozen():
        out[known] = multipletests(p[known], alpha=alpha, method=_STATSMODELS_METHOD[method])[1]
    return out


@contextmanager
def _objects_frozen() -> Iterator[None]:
    """Existing objects out of the garbage collector's sight for a moment (``gc.freeze``).

    statsmodels' Holm correction ends with a full ``gc.collect()``: with many scored runs in
    memory each call walked every object (0.15 s a call; 12 calls in a 20-run, 4-K comparison).
    Frozen objects are skipped by it; they are handed back afterwards (unless someone froze them first).
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def cohens_dz_figure(d: np.ndarray) -> Figure:
    """:func:`cohens_dz` with why it is NaN."""
    d = np.asarray(d, dtype=np.float64)
    why = _no_spread(d, "d_z")
    if why is not None:
        return math.nan, why
    return float(np.mean(d)) / float(np.std(d, ddof=1)), None


def cohens_dz(d: np.ndarray) -> float:
    """Cohen's d_z: the mean paired difference over its standard deviation (n - 1); NaN for fewer than two
    differences or differences that are all equal (no spread: the ratio has no finite value).

    >>> cohens_dz(np.array([0.1, 0.3]))  # mean 0.2, sd sqrt(0.02)
    1.4142135623730951
    """
    return cohens_dz_figure(d)[0]


def queries_needed_figure(d: np.ndarray, *, detect: float, alpha: float, power: float) -> Figure:
    """:func:`queries_needed` with why it is NaN."""
    d = np.asarray(d, dtype=np.float64)
    why = _no_spread(d, "the power calculation")
    if why is not None:
        return math.nan, why
    from statsmodels.stats.power import TTestPower

    sd = float(np.std(d, ddof=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = float(np.asarray(TTestPower().solve_power(detect / sd, alpha=alpha, power=power)).item())
    if not math.isfinite(n):
        return math.nan, f"statsmodels' TTestPower found no number of queries (effect size {detect / sd:.3g})"
    return float(math.ceil(n)), None


def queries_needed(d: np.ndarray, *, detect: float, alpha: float, power: float) -> float:
    """Queries needed to detect a mean difference of ``detect`` with a two-sided paired t-test: a per-pair
    power calculation (the effect size is ``detect`` over this pair's own standard deviation of ``d``).

    ``statsmodels.stats.power.TTestPower().solve_power`` gives the (fractional) number of pairs,
    rounded up here. NaN for fewer than two differences or differences that do not vary (no
    variance to plan from). This is not Sakai's topic-set-size design (which pools the residual
    variance of every run compared): it answers "how many queries would this pair need".

    >>> queries_needed(np.full(5, 0.3), detect=0.02, alpha=0.05, power=0.8)
    nan
    """
    return queries_needed_figure(d, detect=detect, alpha=alpha, power=power)[0]


def win_tie_loss(d: np.ndarray, tolerance: float = TOLERANCE) -> tuple[int, int, int]:
    """Queries where b beats a, ties it (to ``tolerance``, as the window's comparison) and loses.

    >>> win_tie_loss(np.array([0.2, 0.0, -0.1, 1e-13]))
    (1, 2, 1)
    """
    d = np.asarray(d, dtype=np.float64)
    tie = np.abs(d) <= tolerance
    return int(((d > 0) & ~tie).sum()), int(tie.sum()), int(((d < 0) & ~tie).sum())


Interval = dict[CiMethod, tuple[float, float]]

# The reason column of each figure that may be null (or a limit): the runs table's, then the pairs table's.
REASON_COLUMNS = {
    **{c: "mean_reason" for c in ("mean",)},
    **{f"{m}_{end}": "ci_reason" for m in ("ci", "bca", "percentile") for end in ("low", "high")},
    **{c: "difference_reason" for c in ("mean_a", "mean_b", "difference")},
    **{f"difference_{end}": "difference_ci_reason" for end in ("low", "high")},
    **{c: f"{c}_reason" for c in ("cohens_dz", "queries_needed", "pooled", "judged_at_k", "tie_averaged_mean")},
    **{c: f"{c}_reason" for c in TEST_COLUMNS.values()},
    **{f"{c}_corrected": f"{c}_reason" for c in TEST_COLUMNS.values()},
    **{f"bound_{end}": "bound_reason" for end in ("low", "high", "gap")},
}


def reason_column(column: str) -> str | None:
    """The column that says why ``column`` is null (or a limit), or None for a column that is never null.

    >>> reason_column("p_t_corrected"), reason_column("ci_high"), reason_column("wins")
    ('p_t_reason', 'ci_reason', None)
    """
    return REASON_COLUMNS.get(column)


def run_row(
    name: str, values: np.ndarray, settings: StatsSettings, *, interval: Interval | None = None
) -> dict[str, Any]:
    """One run's mean over queries with both bootstrap intervals (the headline one as ``ci_low``/``ci_high``).

    ``interval``: :func:`bootstrap_ci` of ``values`` under ``settings``, if already computed.
    """
    x = np.asarray(values, dtype=np.float64)
    if interval is None:
        interval = bootstrap_ci(x, resamples=settings.resamples, seed=settings.seed, confidence=settings.confidence)
    bca, pct = interval[CiMethod.BCA], interval[CiMethod.PERCENTILE]
    low, high = interval[settings.ci_method]
    return {
        "run": name,
        "mean": float(x.mean()) if len(x) else math.nan,
        "mean_reason": None if len(x) else "no query is in this run's mean",
        "ci_low": low,
        "ci_high": high,
        "bca_low": bca[0],
        "bca_high": bca[1],
        "percentile_low": pct[0],
        "percentile_high": pct[1],
        "ci_reason": interval_reason(x, interval, "in this run's mean"),
        "queries": len(x),
    }


def interval_reason(x: np.ndarray, interval: Interval, which: str) -> str | None:
    """Why a bootstrap interval (either method) of ``x`` is NaN; None when both are numbers."""
    missing = [str(m) for m in CiMethod if any(math.isnan(v) for v in interval[m])]
    if not missing:
        return None
    if len(x) < 2:
        return f"{'no query' if len(x) == 0 else 'one query only'} {which}: a bootstrap interval needs two or more"
    return f"scipy's bootstrap gives no {' or '.join(missing)} interval for these values (a degenerate distribution)"


def pair_row(
    name_a: str,
    a: np.ndarray,
    name_b: str,
    b: np.ndarray,
    settings: StatsSettings,
    *,
    interval: Interval | None = None,
    p_randomization: float | None = None,
) -> dict[str, Any]:
    """Run b against run a over the same queries: difference, its interval, effect size, the three tests.

    ``interval`` (:func:`bootstrap_ci` of ``b - a``) and ``p_randomization`` (:func:`randomization_test`),
    if already computed under ``settings``.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    d = paired_differences(a, b)
    if interval is None:
        interval = bootstrap_ci(d, resamples=settings.resamples, seed=settings.seed, confidence=settings.confidence)
    if p_randomization is None:
        p_randomization = randomization_test(np.zeros_like(d), d, resamples=settings.resamples, seed=settings.seed)
    low, high = interval[settings.ci_method]
    wins, ties, losses = win_tie_loss(b - a)
    dz, dz_reason = cohens_dz_figure(d)
    p_t, t_reason = t_test_figure(a, b)
    p_wilcoxon, wilcoxon_reason = wilcoxon_figure(a, b)
    needed = queries_needed_figure(d, detect=settings.detect, alpha=settings.alpha, power=settings.power)
    return {
        "a": name_a,
        "b": name_b,
        "queries": len(d),
        "mean_a": float(a.mean()) if len(a) else math.nan,
        "mean_b": float(b.mean()) if len(b) else math.nan,
        "difference": float((b - a).mean()) if len(d) else math.nan,
        "difference_reason": None if len(d) else "no query is counted in both runs",
        "difference_low": low,
        "difference_high": high,
        "difference_ci_reason": interval_reason(d, interval, "counted in both runs"),
        "cohens_dz": dz,
        "cohens_dz_reason": dz_reason,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "p_t": p_t,
        "p_t_reason": t_reason,
        "p_wilcoxon": p_wilcoxon,
        "p_wilcoxon_reason": wilcoxon_reason,
        "p_randomization": p_randomization,
        "p_randomization_reason": _no_test(d),
        "queries_needed": needed[0],
        "queries_needed_reason": needed[1],
    }


@dataclass
class Comparison:
    """The statistics of several runs' per-query scores at one cutoff.

    ``runs``: one row per run (mean, intervals, queries). ``pairs``: one row per pair compared
    (b against a), with every test's raw and corrected p-value and ``significant`` under the chosen
    test and correction.
    """

    runs: pd.DataFrame
    pairs: pd.DataFrame
    settings: StatsSettings


def compare_scores(
    scores: pd.DataFrame, *, settings: StatsSettings, baseline: str | None = None, in_mean: pd.DataFrame | None = None
) -> Comparison:
    """Statistics of the runs in the columns of ``scores`` (rows: queries; values: per-query nDCG).

    ``in_mean`` (same shape, booleans) says which scores count in each run's mean; a run's interval
    is over its own counted queries and a pair is compared over the queries counted for both.
    With ``baseline`` every other run is compared with it; without, every pair (a before b in
    column order). The correction is applied to each test's p-values over the pairs of this cutoff.

    >>> s = pd.DataFrame({"a": [0.2, 0.4, 0.6, 0.5], "b": [0.3, 0.5, 0.6, 0.7]})
    >>> c = compare_scores(s, settings=StatsSettings(resamples=1000))
    >>> c.pairs[["a", "b", "difference", "wins", "ties", "losses"]].to_dict("records")
    [{'a': 'a', 'b': 'b', 'difference': 0.09999999999999998, 'wins': 3, 'ties': 1, 'losses': 0}]
    """
    return compare_tables([(scores, in_mean)], settings=settings, baseline=baseline)[0]


def compare_tables(
    tables: Sequence[tuple[pd.DataFrame, pd.DataFrame | None]],
    *,
    settings: StatsSettings,
    baseline: str | None = None,
    workers: int | None = None,
) -> list[Comparison]:
    """:func:`compare_scores` of each ``(scores, in_mean)`` (one per cutoff, say), the same bits as one call each.

    Every interval and every randomization test of all the tables is computed in one batch
    (:func:`bootstrap_cis`, :func:`randomization_tests`): the resamples of one length are drawn once.
    """
    prepared = [_prepare(scores, in_mean, baseline) for scores, in_mean in tables]
    samples: list[np.ndarray] = []
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    rounded: list[tuple[np.ndarray, np.ndarray]] = []  # (0, the pair's rounded differences)
    for names, values, masks, pairs_of in prepared:
        samples += [values[name][masks[name]] for name in names]
        for x, y in pairs_of:
            both = masks[x] & masks[y]
            pairs.append((values[x][both], values[y][both]))
            samples.append(paired_differences(*pairs[-1]))
            rounded.append((np.zeros_like(samples[-1]), samples[-1]))
    r, seed = settings.resamples, settings.seed
    intervals = iter(bootstrap_cis(samples, resamples=r, seed=seed, confidence=settings.confidence, workers=workers))
    # The randomization test on the rounded differences: (0, d) swaps as (a, b) would, to the same bits.
    p_random = iter(randomization_tests(rounded, resamples=r, seed=seed, workers=workers))
    pair_values = iter(pairs)
    out = []
    for names, values, masks, pairs_of in prepared:
        rows = [run_row(name, values[name][masks[name]], settings, interval=next(intervals)) for name in names]
        runs = pd.DataFrame(rows)
        found = []
        for x, y in pairs_of:
            a, b = next(pair_values)
            found.append(pair_row(x, a, y, b, settings, interval=next(intervals), p_randomization=next(p_random)))
        out.append(Comparison(runs, _pairs_table(found, settings), settings))
    return out


def _prepare(
    scores: pd.DataFrame, in_mean: pd.DataFrame | None, baseline: str | None
) -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray], list[tuple[str, str]]]:
    """Run names, values and counted masks by name, and the pairs to compare (a, b)."""
    names = [str(c) for c in scores.columns]
    if len(set(names)) != len(names):
        raise InputError("each run must have its own name")
    if baseline is not None and baseline not in names:
        raise InputError(f"the baseline {baseline} is not one of the runs ({', '.join(names)})")
    counted = in_mean if in_mean is not None else pd.DataFrame(True, index=scores.index, columns=scores.columns)
    values = {name: scores[name].to_numpy(dtype=np.float64) for name in names}
    masks = {name: counted[name].to_numpy(dtype=bool) for name in names}
    if baseline is not None:
        pairs_of = [(baseline, name) for name in names if name != baseline]
    else:
        pairs_of = [(x, y) for i, x in enumerate(names) for y in names[i + 1 :]]
    return names, values, masks, pairs_of


def _pairs_table(rows: list[dict[str, Any]], settings: StatsSettings) -> pd.DataFrame:
    """The pairs compared at one cutoff, with each test's p-values corrected over them and ``significant``."""
    columns = list(pair_row("a", np.zeros(0), "b", np.zeros(0), settings)) if not rows else None
    return corrected(pd.DataFrame(rows, columns=columns), settings)


def corrected(pairs: pd.DataFrame, settings: StatsSettings) -> pd.DataFrame:
    """``pairs`` (one cutoff's, every test's raw p-value) with each test's p-values corrected over them and
    ``significant`` under ``settings``' test, correction and alpha (columns added, or replaced in place)."""
    pairs = pairs.copy()
    for column in TEST_COLUMNS.values():
        pairs[column + "_corrected"] = correct(pairs[column].to_numpy(), settings.correction, settings.alpha)
    chosen = pairs[TEST_COLUMNS[settings.test] + "_corrected"]
    pairs["significant"] = (chosen < settings.alpha).to_numpy(dtype=bool)
    return pairs


def superscripts(comparison: Comparison) -> dict[str, str]:
    """ranx's report marks: each run gets the letters (a, b, c... in run order) of the runs it beats significantly.

    >>> runs = pd.DataFrame({"run": ["x", "y"], "mean": [0.2, 0.3]})
    >>> pairs = pd.DataFrame({"a": ["x"], "b": ["y"], "difference": [0.1], "significant": [True]})
    >>> superscripts(Comparison(runs, pairs, StatsSettings()))
    {'x': '', 'y': 'a'}
    """
    names = comparison.runs["run"].tolist()
    letter = {name: run_letter(i) for i, name in enumerate(names)}
    beaten: dict[str, set[str]] = {name: set() for name in names}
    for row in comparison.pairs.itertuples(index=False):
        if not row.significant or row.difference == 0:
            continue
        winner, loser = (row.b, row.a) if row.difference > 0 else (row.a, row.b)
        beaten[winner].add(loser)
    return {name: "".join(letter[o] for o in names if o in beaten[name]) for name in names}


_SUPERSCRIPT = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ𐞥ʳˢᵗᵘᵛʷˣʸᶻ")


def superscript_text(letters: str) -> str:
    """Run letters as superscript characters, as the runs tables print them after a mean.

    >>> superscript_text("bc")
    'ᵇᶜ'
    """
    return letters.translate(_SUPERSCRIPT)


def run_letter(index: int) -> str:
    """a, b, ..., z, then aa, ab, ... (the letters the runs table and the superscripts use)."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text
