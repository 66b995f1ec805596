"""Readers take time linear in their input: no pattern rescans a long run of the same characters.

Two patterns were quadratic: the run/qrels reader's line-edge trimming (20,000 spaces inside one line took
7 s, 200,000 would take about 12 minutes) and the topic reader's tag pattern (a "<" followed by a long word
and no ">": 8,000 letters took 0.56 s, 200,000 about 6 minutes). Each case below is read under an alarm of
20 s, a margin of about 100x over the linear code on a loaded machine, so the quadratic code fails it.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from ndcg_desktop.formats.common import MAX_TOPIC_FIELD_CHARS
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.topics import read_queries

LONG = 200_000
# A topic's field holds at most MAX_TOPIC_FIELD_CHARS (100,000): quadratic code still takes minutes at that length.
FIELD = MAX_TOPIC_FIELD_CHARS - 10


@contextmanager
def at_most(seconds: int) -> Iterator[None]:
    def expired(signum, frame):  # noqa: ARG001
        raise TimeoutError(f"still reading after {seconds} s: the reader is not linear in its input")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("blank", [b" ", b"\t", b" \t"])
def test_a_long_run_of_separators_inside_a_run_line(tmp_path, blank):
    path = tmp_path / "wide.run"
    path.write_bytes(b"q1 Q0 d1 1 2.0 r\nq1 Q0" + blank * (LONG // len(blank)) + b"d2 2 1.0 r\n")
    with at_most(20):
        run = read_run(path)
    assert run.doc_ids(np.arange(len(run))).to_pylist() == ["d1", "d2"]


def test_a_long_run_of_separators_inside_a_qrels_line(tmp_path):
    path = tmp_path / "wide.qrels"
    path.write_bytes(b"q1 0 d1 1\nq1 0" + b" " * LONG + b"d2 2\n")
    with at_most(20):
        qrels = read_qrels(path)
    assert sorted(qrels.frame["doc_id"]) == ["d1", "d2"]


@pytest.mark.parametrize("opening", ["<", "</", "<?", "< "])
def test_a_long_unclosed_tag_in_a_topic_file(tmp_path, opening):
    path = tmp_path / "topics.txt"
    path.write_text("<top>\n<num> Number: 1\n<title> a\n" + opening + "a" * FIELD + "\n</top>\n", encoding="utf-8")
    with at_most(20):
        topics = read_queries(path)
    assert topics["title"].tolist() == ["a " + opening + "a" * FIELD]


def test_many_lone_angle_brackets_in_a_topic_file(tmp_path):
    path = tmp_path / "topics.txt"
    narrative = " ".join(["<x"] * (FIELD // 3))
    path.write_text(f"<top>\n<num> Number: 1\n<title> a\n<narr> {narrative}\n</top>\n", encoding="utf-8")
    with at_most(20):
        read_queries(path)
