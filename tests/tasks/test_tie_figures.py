"""Rule 10's warning shows its two means at the decimals that tell them apart (the new-user report, item 8):
0.464914 and 0.464934 read "0.4649" and "0.4649" at 4 decimals, a difference the warning claims but did not show."""

from __future__ import annotations

from ndcg_desktop.tasks.comparison_notes import TiesAtK


def tie(mean: float, tie_averaged: float) -> TiesAtK:
    return TiesAtK(k=10, run="bm25", ties=3, queries=1, mean=mean, tie_averaged=tie_averaged, policy="docid-asc")


def test_the_two_means_are_shown_at_the_fewest_decimals_that_differ():
    assert tie(0.464914, 0.464934).figures() == ("0.46491", "0.46493")
    assert (
        tie(0.464914, 0.464934)
        .text()
        .startswith(
            "K=10 bm25: mean 0.46491 under the tie policy (docid-asc), 0.46493 tie-averaged: equal scores in the top K"
        )
    )
    assert tie(0.1234, 0.2345).figures() == ("0.1234", "0.2345")  # at least 4, as before
    assert tie(0.5, 0.5 + 1e-9).figures() == ("0.500000000", "0.500000001")
    assert tie(0.5, 0.5 + 1e-15).figures() == ("0.500000000000", "0.500000000000")  # at most 12


def test_one_query_is_counted_in_the_singular():
    assert tie(0.1, 0.2).text().endswith("(a tie straddles K in 3 of the 1 query of its mean)")
