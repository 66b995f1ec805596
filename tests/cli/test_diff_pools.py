"""`ndcg diff-pools`: two frozen versions, the changes with who and when, and the runs' order under each.

The project: the ``two_versions`` fixture (tests/conftest.py), shared with the window's view of the same diff.
"""

from __future__ import annotations

import json
from math import log2

import pytest

from ndcg_desktop.cli.main import main


def test_changes_with_who_and_when_and_the_runs_under_both_versions(two_versions, capsys):
    assert main(["diff-pools", str(two_versions), "1", "2", "--k", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    changes = [(c["query_id"], c["doc_id"], c["change"], c["grade_a"], c["grade_b"], c["who"]) for c in doc["changes"]]
    assert changes == [
        ("q1", "A", "regraded", 3, 0, "bob"),
        ("q1", "B", "regraded", 2, 0, "bob"),
        ("q1", "D", "removed", 0, None, "bob"),
        ("q2", "F", "regraded", 0, 2, "bob"),
        ("q2", "G", "added", None, 1, "bob"),
    ]
    assert all(c["at"] for c in doc["changes"])
    assert (doc["summary"]["added"], doc["summary"]["removed"], doc["summary"]["regraded"]) == (1, 1, 3)
    assert doc["per_query"] == [
        {"query_id": "q1", "added": 0, "removed": 1, "regraded": 2},
        {"query_id": "q2", "added": 1, "removed": 0, "regraded": 1},
    ]
    means = {r["run"]: (r["mean_a"], r["mean_b"]) for r in doc["runs"]}
    ideal_v1 = 3 / log2(2) + 2 / log2(3)
    x_v1 = ((2 / log2(2) + 3 / log2(3)) / ideal_v1 + 1.0) / 2
    y_v1 = ((3 / log2(2) + 1 / log2(3)) / ideal_v1 + 0.0) / 2
    ideal_v2_q1 = 1 / log2(2)  # A and B are now 0, D is gone: C=1 alone
    ideal_v2_q2 = 2 / log2(2) + 1 / log2(3)  # F=2, then E=1 and G=1
    x_v2 = (0.0 + (1 / log2(2)) / ideal_v2_q2) / 2
    y_v2 = ((1 / log2(3)) / ideal_v2_q1 + (2 / log2(2)) / ideal_v2_q2) / 2
    assert means["x"] == pytest.approx((x_v1, x_v2), abs=1e-12)
    assert means["y"] == pytest.approx((y_v1, y_v2), abs=1e-12)
    assert x_v1 > y_v1 and y_v2 > x_v2  # the order flips: tau-b of two runs is -1
    assert doc["summary"]["kendall_tau"] == -1.0


def test_text_report_and_refusals(two_versions, capsys):
    assert main(["diff-pools", str(two_versions), "1", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 added, 1 removed, 3 regraded, in 2 queries" in out
    assert "Kendall's tau-b between the two orderings: -1.0000" in out
    assert main(["diff-pools", str(two_versions), "1", "1"]) == 2
    assert "give two different pool versions" in capsys.readouterr().err
    assert main(["diff-pools", str(two_versions), "1", "3"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
