"""A run or judgments file given as a pipe or a FIFO (``--run <(zcat run.gz)``, ``cat run | ndcg ... /dev/stdin``)
reads exactly as the same bytes in a regular file: same rows, same SHA-256 in the manifest. The large-file path
once looked at a path's first 64 KiB to detect its format, which ate them from a pipe (a run silently lost its
first query) and left a FIFO's second opening waiting forever."""

from __future__ import annotations

import gzip
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")


def fed(folder: Path, name: str, data: bytes) -> tuple[Path, threading.Thread]:
    """A FIFO at folder/name and the thread writing ``data`` into it (then closing it)."""
    fifo = folder / name
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as handle:
            handle.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return fifo, thread


def within(seconds: float, function, *args):  # noqa: ANN001, ANN202
    """``function(*args)`` on a thread: its result, or a failure (never a hung test) if it takes longer."""
    box: list = []
    worker = threading.Thread(target=lambda: box.append(function(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"{function.__name__} did not finish in {seconds} s (a FIFO opened twice waits forever)"
    return box[0]


def run_bytes() -> bytes:
    """A first query whose lines alone are more than 64 KiB, then a second query."""
    lines = [f"qA Q0 a{i:05d} 1 {9999 - i}.0 runxxxxxx\n" for i in range(2048)] + ["qB Q0 b0 1 1.0 r\n"]
    return "".join(lines).encode()


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_a_run_from_a_pipe_reads_as_from_a_file(tmp_path, compressed):
    data = gzip.compress(run_bytes()) if compressed else run_bytes()
    regular = tmp_path / "run.txt"
    regular.write_bytes(data)
    fifo, writer = fed(tmp_path, "fifo.txt", data)
    piped, stored = within(30, read_run, fifo), read_run(regular)
    writer.join(10)
    assert not writer.is_alive()
    assert piped.source.sha256 == stored.source.sha256
    assert piped.queries.to_pylist() == stored.queries.to_pylist() == ["qA", "qB"]
    assert np.array_equal(piped.q, stored.q) and len(piped) == len(stored) == 2049
    assert piped.docs.to_pylist() == stored.docs.to_pylist()


def test_judgments_from_a_pipe_read_as_from_a_file(tmp_path):
    data = "".join(f"q{i // 500} 0 d{i:06d} {i % 4}\n" for i in range(6000)).encode()  # about 90 KiB
    regular = tmp_path / "qrels.txt"
    regular.write_bytes(data)
    fifo, writer = fed(tmp_path, "fifo.txt", data)
    piped, stored = within(30, read_qrels, fifo), read_qrels(regular)
    writer.join(10)
    assert piped.source.sha256 == stored.source.sha256
    assert piped.frame.equals(stored.frame) and len(piped.frame) == 6000


def test_import_qrels_from_a_fifo_ends_and_imports_everything(tmp_path, capsys):
    project = tmp_path / "p.ndcgproj"
    assert main(["init", str(project)]) == 0
    data = b"q1 0 A 3\nq1 0 B 0\nq2 0 C 1\n"
    fifo, writer = fed(tmp_path, "judgments.qrels", data)
    # not waiting forever for a second writer, with the project's lock held
    assert within(30, main, ["import-qrels", str(project), str(fifo)]) == 0
    writer.join(10)
    assert "3 judgments added" in capsys.readouterr().out
