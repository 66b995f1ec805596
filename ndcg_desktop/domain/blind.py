"""Blind judging: the order in which a query's pool is shown to an annotator.

A document's position in a run's ranking biases its grade, so by default the pool is shown in a
stable pseudo-random order seeded per query: documents sorted by the SHA-256 of the query ID and
the document ID. Every annotator, machine and session sees the same order, it reveals neither the
runs' order nor which run found a document, and the rule below is recorded in the project.
Document-ID order (natural: D2 before D10) stays available as a choice.
"""

from __future__ import annotations

import hashlib

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_key

BLIND = "blind"
DOC_ID = "doc_id"
JUDGING_ORDERS = (BLIND, DOC_ID)
RULES = {
    BLIND: "blind: ascending sha256(query_id + U+001F + doc_id)",
    DOC_ID: "document ID, natural order",
}


def blind_key(query_id: str, doc_id: str) -> str:
    """The sort key of ``doc_id`` in the blind order of ``query_id``'s pool (hex SHA-256)."""
    return hashlib.sha256(f"{query_id}\x1f{doc_id}".encode()).hexdigest()


def judging_order(query_id: str, doc_ids: list[str], order: str = BLIND) -> list[str]:
    """``doc_ids`` in the order an annotator sees them.

    >>> judging_order("q1", ["D10", "D2"], DOC_ID)
    ['D2', 'D10']
    """
    if order == BLIND:
        return sorted(doc_ids, key=lambda d: blind_key(query_id, d))
    if order == DOC_ID:
        return sorted(doc_ids, key=natural_key)
    raise InputError(f"judging order must be one of {', '.join(JUDGING_ORDERS)}, not {order!r}")
