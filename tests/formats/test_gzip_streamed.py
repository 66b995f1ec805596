"""Large gzip runs and qrels are decompressed as pyarrow parses them, never held whole in memory.

A thread reads the compressed file (its SHA-256 is the manifest's), decompresses it once, scans the
text as the plain large-file path does and hands it to pyarrow through a pipe. Whatever that path
reads, refuses or gives back to the in-memory reader must mean what reading the whole file means.
"""

from __future__ import annotations

import gzip
import hashlib
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.formats import common, large
from ndcg_desktop.formats import qrels as qrels_mod
from ndcg_desktop.formats import runs as runs_mod

from .test_paths_agree import IDS, INTEGERS, NUMBERS, trec_lines

SLOW = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)


def run_rows(path: Path) -> tuple[str, object]:
    try:
        run = runs_mod.read_run(path)
    except InputError as error:
        return ("refused", str(error))
    queries = run.queries.to_pylist()
    docs = run.doc_ids(np.arange(len(run))).to_pylist()
    scores = run.score.tolist() if run.score is not None else [None] * len(run)
    rows = [(queries[q], d, s, run.line_of(i)) for i, (q, d, s) in enumerate(zip(run.q, docs, scores, strict=True))]
    return ("read", (rows, run.source.sha256))


def qrels_rows(path: Path) -> tuple[str, object]:
    try:
        qrels = qrels_mod.read_qrels(path, scale=GradeScale(-5, 5))
    except InputError as error:
        return ("refused", str(error))
    frame = qrels.frame[["query_id", "doc_id", "grade", "line"]]
    return ("read", ([*frame.itertuples(index=False, name=None)], qrels.repeats, qrels.source.sha256))


@contextmanager
def streamed(monkeypatch: pytest.MonkeyPatch, on: bool) -> Iterator[list[large.FileScan]]:
    """Every file large enough for the streamed path (``on``) or none; yields the scans made."""
    monkeypatch.setattr(runs_mod, "STREAM_MIN_BYTES", 0 if on else 1 << 62)
    monkeypatch.setattr(large, "LARGE_FILE_BYTES", 0 if on else 1 << 62)
    scans: list[large.FileScan] = []
    real = large.FileScan

    def recorded(*args: object, **kwargs: object) -> large.FileScan:
        scans.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return scans[-1]

    monkeypatch.setattr(large, "FileScan", recorded)
    yield scans


def assert_same_either_way(monkeypatch: pytest.MonkeyPatch, path: Path, text: str, rows) -> None:  # noqa: ANN001
    """``text`` gzipped at ``path`` reads (``rows``) the same streamed as read whole."""
    path.write_bytes(gzip.compress(text.encode()))
    with streamed(monkeypatch, False):
        whole = rows(path)
    with streamed(monkeypatch, True):
        assert rows(path) == whole


@SLOW
@given(trec_lines([IDS, st.just("Q0"), IDS, INTEGERS, NUMBERS, IDS]))
@example("q1 Q0 A 1 2.5 t\n\nq1 Q0 B 2 1.5 t\n")  # a blank line: the in-memory reader numbers the lines
def test_a_gzip_run_means_the_same_streamed_or_read_whole(tmp_path, monkeypatch, text):
    assert_same_either_way(monkeypatch, tmp_path / "r.run.gz", text, run_rows)


@SLOW
@given(trec_lines([IDS, st.just("0"), IDS, INTEGERS]))
@example("q1 0 A 3\nq2 0 A 1\nq1 0 A 2\n")  # a conflicting repeat, named with its line
def test_gzip_qrels_mean_the_same_streamed_or_read_whole(tmp_path, monkeypatch, text):
    assert_same_either_way(monkeypatch, tmp_path / "q.qrels.gz", text, qrels_rows)


def test_a_clean_gzip_run_is_streamed_and_hashed_as_compressed(tmp_path, monkeypatch):
    text = "".join(f"q{i // 100} Q0 D{i:07d} {i % 100 + 1} {1000 - i % 100}.5 t\n" for i in range(60_000))
    compressed = gzip.compress(text.encode())
    path = tmp_path / "r.run.gz"
    path.write_bytes(compressed)
    with streamed(monkeypatch, False):
        whole = run_rows(path)
    with streamed(monkeypatch, True) as scans:
        assert run_rows(path) == whole
    assert len(scans) == 1 and scans[0].stream is not None and not scans[0].error  # the streamed path read it
    assert scans[0].expanded == len(text) and scans[0].sha256 == hashlib.sha256(compressed).hexdigest()
    assert whole[1][1] == hashlib.sha256(compressed).hexdigest()  # type: ignore[index]


def test_a_gzip_bomb_is_refused_while_it_streams(tmp_path, monkeypatch):
    """Decompression stops at the bomb limit (100 times the compressed size here): refused as a bomb."""
    monkeypatch.setattr(common, "BOMB_MIN_BYTES", 0)
    path = tmp_path / "bomb.run.gz"
    path.write_bytes(gzip.compress(b"q1 Q0 D1 1 1.0 t\n" * 400_000))  # 6.8 MB of text from a few KB
    with streamed(monkeypatch, True) as scans, pytest.raises(InputError, match="likely decompression bomb"):
        runs_mod.read_run(path)
    assert scans[0].bomb and scans[0].expanded <= 100 * path.stat().st_size + (1 << 22)


def test_a_bad_line_early_in_a_large_gzip_run_stops_the_decompression(tmp_path, monkeypatch):
    """pyarrow stops at the bad line, long before the pipe is drained: the thread ends, the line is named."""
    lines = ["q1 Q0 D1 1 1.0 t\n", "q1 Q0 D2 2\n"] + [f"q1 Q0 D{i} 3 0.5 t\n" for i in range(3, 300_000)]
    path = tmp_path / "bad.run.gz"
    path.write_bytes(gzip.compress("".join(lines).encode()))

    def expired(signum, frame):  # noqa: ANN001
        raise TimeoutError("the streamed read did not end")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(120)
    try:
        with streamed(monkeypatch, True) as scans, pytest.raises(InputError, match=r"bad.run.gz:2: expected 6 columns"):
            runs_mod.read_run(path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert len(scans) == 1 and scans[0].stream is not None and scans[0].stream.closed
