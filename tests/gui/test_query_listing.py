"""Lists of query IDs read as words, never as 'Ties straddling K: 1: 26' (issue 26)."""

from __future__ import annotations

from ndcg_desktop.gui.scores.text import listing


def test_a_list_of_queries_says_how_many_queries_and_which():
    ids = [str(n) for n in range(20, 32)]
    assert listing([]) == "none"
    assert listing(["26"]) == "query 26"
    assert listing(ids[:3]) == "3 queries (20, 21, 22)"
    assert listing(ids) == f"12 queries ({', '.join(ids[:8])} and 4 more)"
