"""The stepped byte scans give what the bytes methods give, across step boundaries."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ndcg_desktop.formats import common


@pytest.mark.parametrize("seed", range(4))
def test_stepped_scans_agree_with_the_bytes_methods(monkeypatch, seed):
    monkeypatch.setattr(common, "_CHUNK", 7)  # tiny steps: many matches cross a step's end
    rnd = random.Random(seed)
    for _ in range(500):
        data = bytes(rnd.choice(b"ab \t\r\n") for _ in range(rnd.randrange(0, 40)))
        start = rnd.randrange(0, len(data) + 1)
        end = rnd.randrange(start, len(data) + 2)
        for needle in (b"\n", b"\t", b"  ", b"\n ", b" \n", b" \r\n"):
            assert common.find_in(data, needle, start, end) == data.find(needle, start, end)
            assert common.contains(data, needle) == (needle in data)
        for needle in (b"\n", b"\r", b"\r\n", b"\n "):  # needles that cannot overlap themselves
            assert common.count_in(data, needle, start, end) == data.count(needle, start, end)
        assert common.is_ascii(data) and not common.is_ascii(data + "é".encode())


def test_pyarrow_reads_bytes_in_memory_without_a_python_file_object(monkeypatch):
    """pyarrow reads a Python file object (io.BytesIO) by calling its read() with the GIL held, a block at a time;
    a worker importing a run then kept the window's GUI thread waiting. It gets an Arrow buffer reader instead."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    sources: list[object] = []
    original = pacsv.read_csv
    monkeypatch.setattr(
        common.pacsv, "read_csv", lambda source, **kw: (sources.append(source), original(source, **kw))[1]
    )
    table, _ = common.read_whitespace_table(
        b"q1 Q0 D1 1 2.5 s\nq1 Q0 D2 2 1.5 s\n", ["q", "z", "d", "r", "s", "t"], {"q": pa.string(), "d": pa.string()}
    )
    assert table.column("d").to_pylist() == ["D1", "D2"]
    csv_table = common.read_delimited_table(b"query_id,doc_id\nq1,D3\n", ",", {"doc_id": pa.string()})
    assert csv_table is not None and csv_table.column("doc_id").to_pylist() == ["D3"]
    assert len(sources) == 2 and all(isinstance(s, pa.NativeFile) for s in sources)


@pytest.mark.parametrize("blank", ["\t", " \t ", "\t\t", " "])
def test_a_whitespace_line_before_a_tsv_header_is_blank_for_every_reader(tmp_path, blank):
    """The header finder and the record reader agree on what a blank line is: a line of tabs and spaces before the
    header is skipped by both, so the header is never read as data (a chunk map once mapped 'chunk_id' to
    'doc_id' silently, and runs and judgments named the header line as a bad score or grade)."""
    from ndcg_desktop.formats.chunk_map import read_chunk_map
    from ndcg_desktop.formats.qrels import read_qrels
    from ndcg_desktop.formats.runs import read_run

    def both(name: str, text: str) -> tuple[Path, Path]:
        plain, padded = tmp_path / f"plain-{name}", tmp_path / f"padded-{name}"
        plain.write_text(text)
        padded.write_text(f"{blank}\n{text}")
        return plain, padded

    plain, padded = both("run.tsv", "query_id\tdoc_id\tscore\nq1\tB\t5\nq1\tC\t4\n")
    assert read_run(padded).docs.to_pylist() == read_run(plain).docs.to_pylist() == ["B", "C"]
    plain, padded = both("qrels.tsv", "query_id\tdoc_id\tgrade\nq1\tB\t1\n")
    shown = ["query_id", "doc_id", "grade"]
    assert read_qrels(padded).frame[shown].equals(read_qrels(plain).frame[shown])
    assert read_qrels(padded).frame["line"].tolist() == [3]  # the data line, counted as the file counts it
    plain, padded = both("chunks.tsv", "chunk_id\tdoc_id\nB#1\tB\n")
    assert read_chunk_map(padded).pairs == read_chunk_map(plain).pairs == (("B#1", "B"),)


def _empty_fields_whole(data: bytes, sep: int) -> bool:
    """The check as one expression over the whole text (what read_whitespace_table did before issue 28)."""
    import numpy as np

    arr = np.frombuffer(data, dtype=np.uint8)
    seps, nl = arr == sep, arr == 10
    ends = nl | (arr == 13)
    return bool(seps[0] or seps[-1]) or common.empty_fields(seps, nl, ends, np.empty(len(arr) - 1, dtype=bool))


@pytest.mark.parametrize("seed", range(4))
def test_the_empty_field_check_by_blocks_agrees_with_the_whole_text(monkeypatch, seed):
    """Issue 28: the check runs a block at a time (four whole-file masks were 100 MB of fresh pages beside a
    26 MB qrels file); pairs of bytes across a block's edge decide as they do inside one."""
    import numpy as np

    monkeypatch.setattr(common, "_CHUNK", 1)  # blocks of 4 bytes: most pairs cross an edge somewhere
    rnd = random.Random(seed)
    for _ in range(2000):
        data = bytes(rnd.choice(b"ab \t\r\n") for _ in range(rnd.randrange(2, 30)))
        for sep in (ord(" "), ord("\t")):
            text = np.frombuffer(data, dtype=np.uint8)
            assert common._has_empty_fields(text, sep, b"\r" in data) == _empty_fields_whole(data, sep), data
