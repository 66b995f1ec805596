"""Blind judging order: sha256 of query and document ID, stable and different per query."""

from __future__ import annotations

import hashlib

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.blind import BLIND, DOC_ID, blind_key, judging_order


def test_blind_order_is_the_recorded_hash_rule():
    docs = ["D1", "D2", "D10", "D3"]
    expected = sorted(docs, key=lambda d: hashlib.sha256(f"q7\x1f{d}".encode()).hexdigest())
    assert judging_order("q7", docs, BLIND) == expected
    assert judging_order("q7", list(reversed(docs)), BLIND) == expected  # whatever order they arrive in
    assert blind_key("q7", "D1") == hashlib.sha256(b"q7\x1fD1").hexdigest()


def test_document_id_order_is_natural_and_other_names_are_refused():
    assert judging_order("q1", ["D10", "D2", "D1"], DOC_ID) == ["D1", "D2", "D10"]
    with pytest.raises(InputError, match="judging order must be one of blind, doc_id, not 'rank'"):
        judging_order("q1", ["D1"], "rank")
