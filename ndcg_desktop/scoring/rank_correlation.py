"""How far two orderings of the same systems agree: Kendall's tau-b, tau_AP, and the largest change of a rank.

Each takes the systems' scores (higher is better) in one order of systems, the same order for both lists.

>>> truth = [0.4, 0.3, 0.2, 0.1]
>>> round(tau_ap([0.3, 0.4, 0.2, 0.1], truth), 6), round(tau_b([0.3, 0.4, 0.2, 0.1], truth), 6)  # top swapped
(0.333333, 0.666667)
>>> round(tau_ap([0.4, 0.3, 0.1, 0.2], truth), 6), ranks([0.2, 0.5, 0.2]), max_rank_change([1, 2, 3], [3, 2, 1])
(0.777778, [2, 1, 2], 2)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between the orderings ``x`` and ``y`` give (``scipy.stats.kendalltau``, variant b: ties
    adjusted in both), or None where it is undefined (fewer than two systems, or either list all equal)."""
    if len(x) != len(y):
        raise ValueError("both lists must score the same systems")
    if len(x) < 2 or len(set(x)) == 1 or len(set(y)) == 1:
        return None
    from scipy.stats import kendalltau  # imported on use: scipy takes a while to import

    value = float(kendalltau(x, y, variant="b").statistic)
    return value if np.isfinite(value) else None


def tau_ap(estimate: Sequence[float], truth: Sequence[float]) -> float | None:
    """The AP rank correlation of ``estimate``'s ordering with ``truth``'s (Yilmaz, Aslam and Robertson, "A new
    rank correlation coefficient for information retrieval", SIGIR 2008), None for fewer than two systems.

    The systems are listed by ``estimate``, best first; for the system at rank i, C(i) is the number of systems
    above it that ``truth`` also puts above it::

        tau_AP = 2 / (N - 1) * sum over i = 2..N of C(i) / (i - 1)  -  1

    It is not symmetric: a swap near the top of ``estimate`` costs more than one near the bottom, which is why
    it is reported beside tau-b. Ties, which the paper leaves out:

    - systems tied in ``estimate`` are taken in every order with equal chance, and tau_AP is the expected value
      (Urbano and Marrero, "The treatment of ties in AP correlation", ICTIR 2017: tau_AP,a): a system of a tied
      group of t starting after m systems sits at each rank m + 1..m + t with chance 1/t, and a pair within the
      group is in the right order with chance 1/2;
    - a pair tied in ``truth`` counts as half right, whichever is above (the expectation over ``truth``'s tie
      broken at random; Urbano and Marrero's tau_AP,a counts it wrong, and their tau_AP,b is a symmetric
      average, not tau_AP).

    Without ties both rules vanish and this is the paper's formula.
    """
    if len(estimate) != len(truth):
        raise ValueError("both lists must score the same systems")
    n = len(estimate)
    if n < 2:
        return None
    y = np.asarray(estimate, dtype=np.float64)
    x = np.asarray(truth, dtype=np.float64)
    # right[j, i]: 1 where truth puts j above i, 1/2 where truth ties them, else 0
    right = (x[:, None] > x[None, :]).astype(np.float64) + 0.5 * (x[:, None] == x[None, :])
    total, above = 0.0, 0  # above: the systems in groups ranked above this group (m)
    for value in np.unique(y)[::-1]:  # estimate's tie groups, best first
        group = np.flatnonzero(y == value)
        t = len(group)
        if above:
            earlier = np.flatnonzero(y > value)
            c_above = right[np.ix_(earlier, group)].sum(axis=0)  # per system of the group: C over earlier groups
            # E[1 / (rank - 1)] over the group's ranks above + 1 .. above + t
            expected_share = float(np.mean(1.0 / (above + np.arange(t))))
            total += float(c_above.sum()) * expected_share
        # within the group: the system at its (k+1)-th place has k group mates above, each right with chance 1/2
        k = np.arange(1, t)
        total += float(np.sum(0.5 * k / (above + k)))
        above += t
    return 2.0 / (n - 1) * total - 1.0


def ranks(scores: Sequence[float]) -> list[int]:
    """Each system's rank by ``scores``, 1 for the highest; equal scores share the best rank of their group
    (competition ranking, 1 2 2 4)."""
    values = np.asarray(scores, dtype=np.float64)
    return [int(np.sum(values > value)) + 1 for value in values]


def max_rank_change(a: Sequence[int], b: Sequence[int]) -> int:
    """The largest change of one system's rank between two rankings of the same systems (0 for none)."""
    if len(a) != len(b):
        raise ValueError("both rankings must rank the same systems")
    return max((abs(i - j) for i, j in zip(a, b, strict=True)), default=0)
