"""A count is worded with its noun in the number it takes: "1 query", "0 queries" (the new-user report, item 11)."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain.counts import count, plural


@pytest.mark.parametrize(
    ("n", "one", "many", "said"),
    [
        (1, "query", None, "1 query"),
        (0, "query", None, "0 queries"),
        (2, "query", None, "2 queries"),
        (1, "item", None, "1 item"),
        (3, "item", None, "3 items"),
        (2, "day", None, "2 days"),  # a vowel before the y: a plain s
        (1, "person", "people", "1 person"),
        (2, "person", "people", "2 people"),
    ],
)
def test_a_count_takes_the_singular_for_one_only(n, one, many, said):
    assert count(n, one, many) == said


def test_a_grouped_count_and_a_verb():
    assert count(12345, "judgment", grouped=True) == "12,345 judgments"
    assert count(1, "judgment", grouped=True) == "1 judgment"
    assert [plural(n, "waits", "wait") for n in (0, 1, 2)] == ["wait", "waits", "wait"]
