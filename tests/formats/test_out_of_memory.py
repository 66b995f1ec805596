"""A MemoryError while reading names the file (it happens on small machines, ``ulimit -v``)."""

from __future__ import annotations

import gzip
import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.formats import common
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.texts import iter_documents, read_queries

MESSAGE = "not enough memory to read this file (free memory, or split the file and import the parts)"


def _no_memory(*args, **kwargs):
    raise MemoryError


@pytest.fixture
def exhausted(monkeypatch):
    """Decompression and streaming run out of memory, as under ``ulimit -v`` with a large gzip."""
    monkeypatch.setattr(common, "read_limited", _no_memory)
    monkeypatch.setattr(common.BoundedGzip, "readline", _no_memory)


CASES = {
    "run.txt.gz": ("q1 Q0 D1 1 2 s\n", read_run),
    "qrels.txt.gz": ("q1 0 D1 1\n", read_qrels),
    "queries.tsv.gz": ("q1\ttext\n", read_queries),
    "docs.jsonl.gz": (json.dumps({"doc_id": "D1"}) + "\n", lambda p: list(iter_documents(p))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_reader_names_the_file_it_ran_out_of_memory_on(write, exhausted, name):
    text, read = CASES[name]
    path = write(name, gzip.compress(text.encode()))
    with pytest.raises(InputError) as info:
        read(path)
    assert str(info.value) == f"{path}: {MESSAGE}"


def test_a_parse_that_runs_out_of_memory_names_the_file(write, monkeypatch):
    import pyarrow.csv as pacsv

    monkeypatch.setattr(pacsv, "read_csv", _no_memory)
    path = write("run.csv", "query_id,doc_id,score\nq1,D1,2\n")
    with pytest.raises(InputError) as info:
        read_run(path)
    assert str(info.value) == f"{path}: {MESSAGE}"


def test_the_command_line_prints_one_line_with_the_file(tmp_path, write, exhausted, capsys):
    project = str(tmp_path / "p.ndcg")
    assert main(["init", project]) == 0
    run = write("run.txt.gz", gzip.compress(b"q1 Q0 D1 1 2 s\n"))
    capsys.readouterr()
    assert main(["import-run", project, str(run), "--name", "r"]) == 2
    assert capsys.readouterr().err == f"error: {run}: {MESSAGE}\n"
    assert main(["score", "--qrels", str(run), "--run", str(run)]) == 2
    assert capsys.readouterr().err == f"error: {run}: {MESSAGE}\n"
