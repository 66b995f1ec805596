"""Which items wait for adjudication is one SQL text, schema.unsettled_items (issue 32 item 7).

The count (RatingRepository.unsettled, and after adding ratings), the per-query counts of the Annotate view
(PoolRepository.query_progress) and one query's waiting documents (RatingRepository.awaiting) each spelled
the grouping of the ratings out again; they now select from the one definition.
"""

from __future__ import annotations

import re
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "ndcg_desktop" / "store"
DIFFER = re.compile(r"HAVING\s+min\((?:\w+\.)?grade\)\s*!=\s*max\((?:\w+\.)?grade\)")


def test_the_ratings_are_grouped_into_waiting_items_in_one_place():
    spelled = {path.name: len(DIFFER.findall(path.read_text())) for path in sorted(STORE.glob("*.py"))}
    assert {name: count for name, count in spelled.items() if count} == {"schema.py": 1}


def test_both_plans_find_the_same_waiting_items(tmp_path):
    """Grouped (a fresh pool) and item by item (a freeze): the same items, people's differing ratings only."""
    import pandas as pd

    from ndcg_desktop.store import Project
    from ndcg_desktop.store.schema import unsettled_items

    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        items = pd.DataFrame({"query_id": ["q1"] * 4 + ["q2"], "doc_id": ["A", "B", "C", "D", "A"]})
        project.judgments.add_items(items, annotator="ann")
        project.judgments.set_grade("q1", "D", 1, annotator="ann")
        ratings = pd.DataFrame(
            [
                ("q1", "A", "bob", 1, "", "t"),
                ("q1", "A", "cat", 3, "", "t"),  # differ: waits
                ("q1", "B", "bob", 2, "", "t"),
                ("q1", "B", "cat", 2, "", "t"),  # alike: settled
                ("q1", "C", "bob", 0, "", "t"),
                ("q1", "C", "model:tiny", 3, "", "t"),  # a model never makes an item wait
                ("q2", "A", "bob", 0, "", "t"),
                ("q2", "A", "cat", 1, "", "t"),  # differ: waits
            ],
            columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"],
        )
        project.ratings.add_ratings(ratings, version=1, source="test", annotator="ann")
        found = [
            sorted(map(tuple, project.file.conn.execute(unsettled_items(per_item=plan), {"v": 1}).fetchall()))
            for plan in (False, True)
        ]
        assert found[0] == found[1] == [("q1", "A"), ("q2", "A")]
        assert project.ratings.unsettled(1) == project.ratings.unsettled(1, per_item=True) == 2
