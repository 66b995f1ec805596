"""Resampling for rule 17's statistics: bootstrap intervals and the paired randomization test, fast and
bit for bit as scipy computes them.

``scipy.stats.bootstrap`` and ``scipy.stats.permutation_test`` draw their resamples from
``numpy.random.default_rng(seed)``; here the draws for all samples of one length are made once, in
scipy's own batches, and every sample's resampled means are taken over them in cache-sized blocks
on several threads. ``tests/scoring/test_stats.py`` compares every figure with scipy's own call.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np


class CiMethod(StrEnum):
    """How the bootstrap interval is read from the resampled means (both are reported)."""

    BCA = "bca"  # bias-corrected and accelerated (scipy's default)
    PERCENTILE = "percentile"


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _batch(n: int) -> int:
    """Resamples per batch: at most ~4M values in memory at once; depends only on ``n`` (reproducible)."""
    return max(1, 4_000_000 // max(n, 1))


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, *, resamples: int, seed: int, confidence: float = 0.95
) -> dict[CiMethod, tuple[float, float]]:
    """The bootstrap confidence intervals (BCa and percentile) of the mean of ``values``.

    Each is ``scipy.stats.bootstrap((values,), np.mean, n_resamples=resamples, method=...,
    rng=numpy.random.default_rng(seed))``; both are read by scipy from the one bootstrap
    distribution that such a call draws (:func:`bootstrap_cis`).
    Fewer than two values give no interval (NaN, NaN); values that are all equal give the point
    itself (every resample has the same mean; scipy's BCa would divide by zero).

    >>> bootstrap_ci([0.5, 0.5, 0.5], resamples=1000, seed=0)[CiMethod.BCA]
    (0.5, 0.5)
    """
    return bootstrap_cis([values], resamples=resamples, seed=seed, confidence=confidence)[0]


def bootstrap_cis(
    samples: Sequence[Sequence[float] | np.ndarray],
    *,
    resamples: int,
    seed: int,
    confidence: float = 0.95,
    workers: int | None = None,
) -> list[dict[CiMethod, tuple[float, float]]]:
    """:func:`bootstrap_ci` of each sample, the same bits as one call per sample.

    ``scipy.stats.bootstrap`` with ``rng=default_rng(seed)`` draws its resample indices with
    ``rng.integers(0, n, (batch, n))``, batch after batch: the same indices for every sample of
    length ``n``. They are drawn here once per length, in scipy's batches, and each sample's
    resampled means are taken over them as scipy takes them (``np.mean(x[..., i], axis=-1)``),
    on ``workers`` threads (numpy releases the GIL); scipy then reads both intervals from each
    distribution (``n_resamples=0, bootstrap_result=...``). ``tests/scoring/test_stats.py``
    checks the intervals against ``scipy.stats.bootstrap``'s own, exactly.
    """
    xs = [np.asarray(values, dtype=np.float64) for values in samples]
    out: list[dict[CiMethod, tuple[float, float]]] = [{} for _ in xs]
    by_length: dict[int, list[int]] = {}
    for i, x in enumerate(xs):
        if len(x) < 2:
            out[i] = {method: (math.nan, math.nan) for method in CiMethod}
        elif np.all(x == x[0]):
            out[i] = {method: (float(x[0]), float(x[0])) for method in CiMethod}
        else:
            by_length.setdefault(len(x), []).append(i)
    for all_members in by_length.values():
        group = max(1, _DISTRIBUTION_VALUES // resamples)  # distributions held at once: at most ~256 MiB
        for first in range(0, len(all_members), group):
            members = all_members[first : first + group]
            distributions = _resampled_means([xs[i] for i in members], resamples, seed, workers)
            _read_intervals(xs, members, distributions, confidence, out)
    return out


_DISTRIBUTION_VALUES = 1 << 25


def _read_intervals(
    xs: list[np.ndarray],
    members: list[int],
    distributions: np.ndarray,
    confidence: float,
    out: list[dict[CiMethod, tuple[float, float]]],
) -> None:
    """scipy's BCa and percentile intervals of ``xs[i]`` for each of ``members``, from its row of ``distributions``."""
    from scipy import stats

    n = len(xs[members[0]])
    options: dict[str, Any] = {"vectorized": True, "confidence_level": confidence, "batch": _batch(n)}
    options["n_resamples"] = 0
    for row, i in enumerate(members):
        drawn = _Drawn(distributions[row])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scipy warns of degenerate BCa corners; the NaN it returns says so
            percentile = stats.bootstrap((xs[i],), np.mean, method="percentile", bootstrap_result=drawn, **options)
            bca = stats.bootstrap((xs[i],), np.mean, method="BCa", bootstrap_result=drawn, **options)
        out[i] = {
            CiMethod.BCA: (float(bca.confidence_interval.low), float(bca.confidence_interval.high)),
            CiMethod.PERCENTILE: (
                float(percentile.confidence_interval.low),
                float(percentile.confidence_interval.high),
            ),
        }


def _resampled_means(xs: list[np.ndarray], resamples: int, seed: int, workers: int | None) -> np.ndarray:
    """Each sample's bootstrap distribution (one row each; all of one length ``n``), as scipy draws it."""
    n = len(xs[0])
    distributions = np.empty((len(xs), resamples), dtype=np.float64)
    rng = _rng(seed)
    batch = _batch(n)
    for start in range(0, resamples, batch):
        count = min(batch, resamples - start)
        index = rng.integers(0, n, size=(count, n))  # scipy: rng_integers(rng, 0, n, (batch, n))

        def fill(share: Sequence[int], index: np.ndarray = index, start: int = start) -> None:
            _row_means(share, index, start, lambda row, rows, out: np.take(xs[row], rows, out=out), distributions)

        _on_threads(fill, len(xs), workers)
    return distributions


def _row_means(
    share: Sequence[int],
    table: np.ndarray,
    start: int,
    values_of: Callable[[int, np.ndarray, np.ndarray], object],
    out: np.ndarray,
) -> None:
    """For each ``row`` of ``share``: ``out[row, start + i] = np.mean(values_of(row, table[i]), axis=-1)``.

    ``table`` (indices or signs, one line per resample) is walked a few lines at a time, each block
    used for every row while it sits in the core's cache (one pass per row over the whole table
    would read it from memory each time: about twice as slow). Each line's mean is numpy's over
    the line, as scipy takes it, so the bits are the same.
    """
    lines = max(1, _CACHE_VALUES // max(table.shape[1], 1))
    buffer = np.empty((lines, table.shape[1]), dtype=np.float64)
    for first in range(0, len(table), lines):
        block = table[first : first + lines]
        values = buffer[: len(block)]
        for row in share:
            values_of(row, block, values)
            out[row, start + first : start + first + len(block)] = np.mean(values, axis=-1)


_CACHE_VALUES = 1 << 15  # values in a block of lines (256 KiB of float64): well inside a core's L2 cache


@dataclass(frozen=True)
class _Drawn:
    """A bootstrap distribution handed to ``scipy.stats.bootstrap`` (its ``bootstrap_result``)."""

    bootstrap_distribution: np.ndarray


def _on_threads(work: Callable[[Sequence[int]], None], count: int, workers: int | None) -> None:
    """``work(rows)`` over ``range(count)`` cut into one contiguous share per thread (each writes its own rows)."""
    threads = max(1, min(count, workers if workers is not None else default_workers()))
    shares = [range(i * count // threads, (i + 1) * count // threads) for i in range(threads)]
    if threads == 1:
        work(shares[0])
        return
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="stats") as pool:
        for done in [pool.submit(work, share) for share in shares]:
            done.result()


def default_workers() -> int:
    """Threads for resampling: one per core the process may use (at most 8)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _mean_difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """The randomization test's statistic: the mean paired difference (vectorised, as scipy calls it)."""
    result: np.ndarray = np.mean(x - y, axis=axis)
    return result


def randomization_test(a: np.ndarray, b: np.ndarray, *, resamples: int, seed: int) -> float:
    """Two-sided p-value of Fisher's paired randomization test on the mean difference.

    The p-value of ``scipy.stats.permutation_test((b, a), mean difference, permutation_type="samples",
    n_resamples=resamples, rng=numpy.random.default_rng(seed))``: each resample swaps the two runs'
    scores within each query at random; with at most ``resamples`` distinct swaps (2^n) every one
    is enumerated and the p-value is exact (no +1). NaN when every difference is zero.

    scipy draws the swaps with ``Generator.permuted`` on pairs of indices, then gathers and stacks
    per query, about 2 s a pair for 1,000 queries and 10,000 resamples. This computes the same
    null distribution from the same draws (``permuted`` on a pair takes one 32-bit word and swaps
    when its lowest bit is 0; :func:`_swaps`), as one sign flip per query, and counts as scipy does
    (the same relative tolerance of 100 epsilons). ``tests/scoring/test_stats.py`` checks the
    p-values against ``scipy.stats.permutation_test`` itself.
    """
    return randomization_tests([(a, b)], resamples=resamples, seed=seed)[0]


def randomization_tests(
    pairs: Sequence[tuple[np.ndarray, np.ndarray]], *, resamples: int, seed: int, workers: int | None = None
) -> list[float]:
    """:func:`randomization_test` of each pair ``(a, b)``, the same bits as one call per pair.

    With a fresh ``default_rng(seed)`` every pair of ``n`` queries gets the same swaps: they are
    drawn once per length, chunk by chunk as one call draws them, as signs (-1.0 swapped, 1.0 not;
    ``-1.0 * d == -d`` exactly), and each pair's null means are taken over them on ``workers`` threads.
    """
    ds = [np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64) for a, b in pairs]
    out = [math.nan] * len(ds)
    by_length: dict[int, list[int]] = {}
    for i, d in enumerate(ds):
        if np.any(d != 0):
            by_length.setdefault(len(d), []).append(i)
    for n, members in by_length.items():
        # scipy's statistic on (b, a): np.mean(b - a)
        observed = np.array([float(np.mean(ds[i])) for i in members])
        exact = n < 63 and 2**n <= resamples
        total = 2**n if exact else resamples
        low, high = _null_counts([ds[i] for i in members], observed, total, exact, seed, workers)
        adjustment = 0 if exact else 1
        for row, i in enumerate(members):
            p = min(int(low[row]) + adjustment, int(high[row]) + adjustment) / (total + adjustment) * 2
            out[i] = float(min(max(p, 0.0), 1.0))
    return out


def _null_counts(
    ds: list[np.ndarray], observed: np.ndarray, total: int, exact: bool, seed: int, workers: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair (one row of differences each, all of length ``n``): null means at or below and at or above
    the observed one, within scipy's tolerance of 100 epsilons, over ``total`` swaps."""
    n = len(ds[0])
    gamma = np.abs(np.finfo(np.float64).eps * 100 * observed)[:, None]
    low = np.zeros(len(ds), dtype=np.int64)
    high = np.zeros(len(ds), dtype=np.int64)
    rows = max(2, (_batch(n) // 2) * 2)  # an even row count keeps every chunk on whole 64-bit words
    null = np.empty((len(ds), min(rows, total)), dtype=np.float64)  # one chunk's null means per pair
    rng = _rng(seed)
    for start in range(0, total, rows):
        count = min(rows, total - start)
        swapped = _all_swaps(n, start, count) if exact else _swaps(rng, count, n)
        signs = np.where(swapped, -1.0, 1.0)  # -1.0 * d == -d exactly: scipy's swapped difference

        def tally(share: Sequence[int], signs: np.ndarray = signs) -> None:
            _row_means(share, signs, 0, lambda row, block, out: np.multiply(block, ds[row], out=out), null)

        _on_threads(tally, len(ds), workers)
        low += np.count_nonzero(null[:, :count] <= observed[:, None] + gamma, axis=1)
        high += np.count_nonzero(null[:, :count] >= observed[:, None] - gamma, axis=1)
    return low, high


def _swaps(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """The next ``rows`` x ``n`` swaps that ``rng.permuted`` of ``[0, 1]`` pairs would make (True: swapped).

    numpy shuffles a pair with one bounded draw in {0, 1} from the generator's 32-bit stream (the
    low then the high half of each 64-bit output); a 0 swaps. ``rows * n`` must be even so that
    the next call starts on a fresh 64-bit word, as one long ``permuted`` call would.
    """
    words = rng.bit_generator.random_raw((rows * n + 1) // 2)
    halves = np.empty(2 * len(words), dtype=np.uint64)
    halves[0::2] = words & np.uint64(1)
    halves[1::2] = (words >> np.uint64(32)) & np.uint64(1)
    swapped: np.ndarray = (halves[: rows * n] == 0).reshape(rows, n)
    return swapped


def _all_swaps(n: int, start: int, rows: int) -> np.ndarray:
    """Rows ``start .. start + rows`` of every one of the 2^n swap patterns (the exact test)."""
    patterns = np.arange(start, start + rows, dtype=np.int64)[:, None]
    swapped: np.ndarray = ((patterns >> np.arange(n, dtype=np.int64)) & 1).astype(bool)
    return swapped
