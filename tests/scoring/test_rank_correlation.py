"""Kendall's tau-b and tau_AP (issue 34): hand-worked cases, ties included."""

from __future__ import annotations

import itertools

import pytest

from ndcg_desktop.scoring.rank_correlation import max_rank_change, ranks, tau_ap, tau_b

TRUTH = [0.4, 0.3, 0.2, 0.1]  # systems A, B, C, D, best first


def test_tau_ap_weighs_a_swap_at_the_top_more_than_one_at_the_bottom():
    # estimate B, A, C, D: i=2 (A): B above, truth has A above B: C=0; i=3 (C): 2 of 2; i=4 (D): 3 of 3
    assert tau_ap([0.3, 0.4, 0.2, 0.1], TRUTH) == pytest.approx(2 / 3 * (0 / 1 + 2 / 2 + 3 / 3) - 1)  # 1/3
    # estimate A, B, D, C: i=2: 1/1; i=3 (D): 2/2; i=4 (C): A and B right, D wrong: 2/3
    assert tau_ap([0.4, 0.3, 0.1, 0.2], TRUTH) == pytest.approx(2 / 3 * (1 + 1 + 2 / 3) - 1)  # 7/9
    # Kendall's tau counts both as one discordant pair of six: (5 - 1) / 6
    assert tau_b([0.3, 0.4, 0.2, 0.1], TRUTH) == pytest.approx(4 / 6)
    assert tau_b([0.4, 0.3, 0.1, 0.2], TRUTH) == pytest.approx(4 / 6)
    assert tau_ap(TRUTH, TRUTH) == pytest.approx(1.0) and tau_ap(TRUTH[::-1], TRUTH) == pytest.approx(-1.0)


def _tau_ap_strict(order, truth):
    """The paper's formula over one strict order of the systems (indices, best first)."""
    n = len(order)
    total = 0.0
    for i in range(1, n):
        above = order[:i]
        right = sum(1.0 if truth[j] > truth[order[i]] else 0.5 if truth[j] == truth[order[i]] else 0.0 for j in above)
        total += right / i
    return 2 / (n - 1) * total - 1


def test_ties_in_the_estimate_are_the_expectation_over_their_orders():
    estimate = [0.5, 0.5, 0.2, 0.2, 0.2]
    truth = [0.1, 0.9, 0.3, 0.5, 0.4]
    # every order that keeps the estimate's groups (2! * 3! of them), averaged
    orders = [list(a) + list(b) for a in itertools.permutations([0, 1]) for b in itertools.permutations([2, 3, 4])]
    expected = sum(_tau_ap_strict(o, truth) for o in orders) / len(orders)
    assert tau_ap(estimate, truth) == pytest.approx(expected, abs=1e-12)
    assert tau_ap([1.0, 1.0, 1.0], [3.0, 2.0, 1.0]) == pytest.approx(0.0)  # all tied: each pair right half the time


def test_a_pair_tied_in_the_truth_counts_half():
    # estimate A, B, C; truth ties A and B, C last: i=2 (B): half; i=3 (C): 2 of 2
    assert tau_ap([3.0, 2.0, 1.0], [1.0, 1.0, 0.0]) == pytest.approx(2 / 2 * (0.5 / 1 + 2 / 2) - 1)  # 1/2


def test_undefined_cases_are_none():
    assert tau_ap([1.0], [1.0]) is None and tau_b([1.0], [1.0]) is None
    assert tau_b([1.0, 1.0], [1.0, 2.0]) is None


def test_ranks_share_the_best_rank_of_a_tie():
    assert ranks([0.2, 0.5, 0.2, 0.1]) == [2, 1, 2, 4]
    assert max_rank_change([1, 2, 3, 4], [2, 1, 4, 3]) == 1 and max_rank_change([], []) == 0
