"""The stepped byte scans give what the bytes methods give, across step boundaries."""

from __future__ import annotations

import random

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
