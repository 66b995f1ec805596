"""Judgment files are checked for repeated (query, document) pairs by 64-bit keys, confirmed on the text.

A key only proposes that two rows hold the same pair; the IDs themselves decide. So two different
documents whose keys collide are never taken for a repeat, and a real repeat is found whatever the keys.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats import qrels as qrels_mod


def test_equal_ids_get_equal_keys_and_long_ids_are_read_whole():
    ids = ["D1", "D1", "D12345678", "D12345679", "x" * 30 + "a", "x" * 30 + "b", "é", "é", "D1"]
    keys = qrels_mod.id_keys(pa.array(ids))
    assert keys[0] == keys[1] == keys[8] and keys[6] == keys[7]
    assert len({keys[0], keys[2], keys[3], keys[4], keys[5], keys[6]}) == 6  # these differ past byte 8 too


def test_keys_of_a_sliced_column_are_those_of_its_values():
    ids = pa.array(["a", "bb", "ccc", "dddddddddd", "e"])
    assert (
        qrels_mod.id_keys(ids.slice(2, 3)).tolist() == qrels_mod.id_keys(pa.array(["ccc", "dddddddddd", "e"])).tolist()
    )


def test_colliding_keys_never_merge_different_documents(write, monkeypatch):
    """Every ID given the same key: the rows differ as text, so nothing is dropped and nothing refused."""
    monkeypatch.setattr(qrels_mod, "id_keys", lambda ids: np.zeros(len(ids), dtype=np.uint64))
    qrels = qrels_mod.read_qrels(write("q.txt", "q1 0 A 1\nq1 0 B 2\nq1 0 C 3\nq2 0 A 0\n"))
    assert qrels.repeats == 0
    assert list(qrels.frame["doc_id"]) == ["A", "B", "C", "A"]


def test_colliding_keys_still_find_real_repeats(write, monkeypatch):
    monkeypatch.setattr(qrels_mod, "id_keys", lambda ids: np.zeros(len(ids), dtype=np.uint64))
    qrels = qrels_mod.read_qrels(write("q.txt", "q1 0 A 1\nq1 0 B 2\nq1 0 A 1\n"))
    assert qrels.repeats == 1 and list(qrels.frame["line"]) == [1, 2]
    with pytest.raises(InputError, match=r"q2\.txt:3: document A for query q1 is graded 2 here but 1 at line 1"):
        qrels_mod.read_qrels(write("q2.txt", "q1 0 A 1\nq1 0 B 2\nq1 0 A 2\n"))


def test_query_codes_are_sorted_whatever_the_file_order(write):
    qrels = qrels_mod.read_qrels(write("q.txt", "q2 0 A 1\nq10 0 B 2\nq1 0 C 3\nq2 0 D 1\n"))
    columns = qrels.judgments
    assert columns.queries.to_pylist() == ["q1", "q10", "q2"]  # code point order, as Python's sorted()
    assert [columns.queries[int(c)].as_py() for c in columns.q] == ["q2", "q10", "q1", "q2"]


def test_an_id_has_one_key_whatever_its_neighbours():
    """Keys are per ID: a short ID beside a long one (another chunk, another block) keeps its key."""
    alone = qrels_mod.id_keys(pa.array(["A", "D7"]))
    beside_long = qrels_mod.id_keys(pa.chunked_array([pa.array(["A", "x" * 40]), pa.array(["D7"])]))
    assert [beside_long[0], beside_long[2]] == alone.tolist()
    in_small_blocks = qrels_mod.id_keys(pa.array(["x" * 30, "A", "D7", "y" * 17]), step=1)
    assert in_small_blocks[1:3].tolist() == alone.tolist()


def test_a_long_id_has_one_key_whether_its_block_is_all_long_or_mixed():
    """Issue 28: a block whose IDs all take a word is hashed as whole arrays, a mixed one row by row;
    an msmarco_doc ID (a partial third word) gets the same key either way, and alone."""
    ids = ["msmarco_doc_17_10768284", "msmarco_doc_00_1", "msmarco_doc_59_999999999"]
    all_long = qrels_mod.id_keys(pa.array(ids))
    mixed = qrels_mod.id_keys(pa.array(["A", *ids, "D7"]))
    alone = [int(qrels_mod.id_keys(pa.array([v]))[0]) for v in ids]
    assert all_long.tolist() == mixed[1:4].tolist() == alone
    assert len(set(alone)) == 3
