"""Natural order of IDs: numbers inside an ID compare by value."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ndcg_desktop.domain.natural import natural_key, natural_sorted


def test_numbers_compare_by_value():
    assert natural_sorted(["q10", "q2", "q1", "q11", "q100"]) == ["q1", "q2", "q10", "q11", "q100"]
    assert natural_sorted(["D10#2", "D9#10", "D9#2"]) == ["D9#2", "D9#10", "D10#2"]


def test_numbers_longer_than_any_padding_and_leading_zeros():
    big, bigger = "9" * 30, "1" + "0" * 30
    assert natural_sorted([f"q{bigger}", f"q{big}"]) == [f"q{big}", f"q{bigger}"]
    assert natural_sorted(["q1", "q01", "q001"]) == ["q001", "q01", "q1"]  # ties broken by the text itself
    assert natural_key("q01") != natural_key("q1")


@given(st.lists(st.integers(min_value=0, max_value=10**40), min_size=1))
def test_plain_numbers_sort_as_numbers(numbers):
    assert natural_sorted([str(n) for n in numbers]) == [str(n) for n in sorted(numbers)]
