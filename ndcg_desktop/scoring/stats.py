"""Uncertainty of a comparison (rule 17): confidence intervals, paired tests, corrections, effect sizes.

Pure arithmetic over per-query score arrays (one value per query, in the same query order for every
run). Every figure comes from a named library routine so that it can be checked against it:

- the confidence interval of a mean over queries: ``scipy.stats.bootstrap`` (percentile and BCa);
- paired tests: ``scipy.stats.ttest_rel``, ``scipy.stats.wilcoxon`` and the Fisher randomization
  test ``scipy.stats.permutation_test(permutation_type="samples")`` on the mean difference;
- multiple comparisons: ``statsmodels.stats.multitest.multipletests`` (Holm, Benjamini-Hochberg);
- queries needed for a difference: ``statsmodels.stats.power.TTestPower`` (Sakai's topic set size).

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
            f"seed {self.seed}; paired {self.test} test, {self.correction} correction, alpha {self.alpha:g}; "
            f"queries needed to detect {self.detect:g} at power {self.power:g}"
        )

    def as_dict(self) -> dict[str, Any]:
        data = {key: (value.value if isinstance(value, StrEnum) else value) for key, value in asdict(self).items()}
        data["libraries"] = {
            "bootstrap": "scipy.stats.bootstrap",
            "t": "scipy.stats.ttest_rel",
            "wilcoxon": "scipy.stats.wilcoxon(zero_method='wilcox')",
            "randomization": "scipy.stats.permutation_test(permutation_type='samples', statistic=mean difference)",
            "correction": "statsmodels.stats.multitest.multipletests",
            "queries_needed": "statsmodels.stats.power.TTestPower (two-sided)",
            "rng": "numpy.random.default_rng(seed), fresh for every interval and every test",
        }
        data["text"] = self.describe()
        return data


def t_test(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the paired t-test (``scipy.stats.ttest_rel``); NaN when every difference is equal."""
    from scipy import stats

    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if len(d) < 2 or np.all(d == d[0]):
        return math.nan
    return float(stats.ttest_rel(b, a).pvalue)


def wilcoxon_test(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``, zero differences dropped).

    NaN when no difference is non-zero (there is nothing to rank).
    """
    from scipy import stats

    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if not np.any(d != 0):
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "sample size too small for the normal approximation": the exact test is used
        return float(stats.wilcoxon(b, a).pvalue)


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


def cohens_dz(d: np.ndarray) -> float:
    """Cohen's d_z: the mean paired difference over its standard deviation (n - 1); NaN if that is 0.

    >>> cohens_dz(np.array([0.1, 0.3]))  # mean 0.2, sd sqrt(0.02)
    1.4142135623730951
    """
    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2:
        return math.nan
    sd = float(np.std(d, ddof=1))
    return float(np.mean(d)) / sd if sd > 0 else math.nan


def queries_needed(d: np.ndarray, *, detect: float, alpha: float, power: float) -> float:
    """Queries needed to detect a mean difference of ``detect`` with a two-sided paired t-test.

    The effect size is ``detect`` over the standard deviation of the observed differences ``d``;
    ``statsmodels.stats.power.TTestPower().solve_power`` gives the (fractional) number of pairs,
    rounded up here. NaN when the differences do not vary (no variance to design from).
    """
    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2:
        return math.nan
    sd = float(np.std(d, ddof=1))
    if not sd > 0:
        return math.nan
    from statsmodels.stats.power import TTestPower

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = TTestPower().solve_power(effect_size=detect / sd, alpha=alpha, power=power, alternative="two-sided")
    return float(math.ceil(float(np.asarray(n).item())))


def win_tie_loss(d: np.ndarray, tolerance: float = 1e-12) -> tuple[int, int, int]:
    """Queries where b beats a, ties it (to ``tolerance``, as the window's comparison) and loses.

    >>> win_tie_loss(np.array([0.2, 0.0, -0.1, 1e-13]))
    (1, 2, 1)
    """
    d = np.asarray(d, dtype=np.float64)
    tie = np.abs(d) <= tolerance
    return int(((d > 0) & ~tie).sum()), int(tie.sum()), int(((d < 0) & ~tie).sum())


Interval = dict[CiMethod, tuple[float, float]]


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
        "ci_low": low,
        "ci_high": high,
        "bca_low": bca[0],
        "bca_high": bca[1],
        "percentile_low": pct[0],
        "percentile_high": pct[1],
        "queries": len(x),
    }


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
    d = b - a
    if interval is None:
        interval = bootstrap_ci(d, resamples=settings.resamples, seed=settings.seed, confidence=settings.confidence)
    if p_randomization is None:
        p_randomization = randomization_test(a, b, resamples=settings.resamples, seed=settings.seed)
    low, high = interval[settings.ci_method]
    wins, ties, losses = win_tie_loss(d)
    return {
        "a": name_a,
        "b": name_b,
        "queries": len(d),
        "mean_a": float(a.mean()) if len(a) else math.nan,
        "mean_b": float(b.mean()) if len(b) else math.nan,
        "difference": float(d.mean()) if len(d) else math.nan,
        "difference_low": low,
        "difference_high": high,
        "cohens_dz": cohens_dz(d),
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "p_t": t_test(a, b),
        "p_wilcoxon": wilcoxon_test(a, b),
        "p_randomization": p_randomization,
        "queries_needed": queries_needed(d, detect=settings.detect, alpha=settings.alpha, power=settings.power),
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
    for names, values, masks, pairs_of in prepared:
        samples += [values[name][masks[name]] for name in names]
        for x, y in pairs_of:
            both = masks[x] & masks[y]
            pairs.append((values[x][both], values[y][both]))
            samples.append(pairs[-1][1] - pairs[-1][0])
    r, seed = settings.resamples, settings.seed
    intervals = iter(bootstrap_cis(samples, resamples=r, seed=seed, confidence=settings.confidence, workers=workers))
    p_random = iter(randomization_tests(pairs, resamples=r, seed=seed, workers=workers))
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
