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
