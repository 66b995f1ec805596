"""A remedy the command line prints is true of the command given and can be pasted into a POSIX shell.

A value the user typed is shell-quoted where it is pasted into a command (``--id-map '#'``: unquoted, ``#`` starts a
comment and ``|`` a pipe); a stored run's reading is taken again under another name (its own is taken); judgments
outside the ``--scale`` given name that scale, not a project there is none of (new-user report 2026-12-04, items 2
and 3).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ndcg_desktop import api
from ndcg_desktop.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "cranfield"
QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\n"
RUN = "q1 Q0 A 1 3 sys\nq1 Q0 B 2 2 sys\n"
REMEDY = re.compile(r"; import it again under another --name with (.+) to score it that way$")


@pytest.fixture
def project(tmp_path, write) -> Path:
    path = tmp_path / "p.ndcgproj"
    assert main(["init", str(path)]) == 0
    assert main(["import-qrels", str(path), str(write("q.txt", QRELS))]) == 0
    assert main(["freeze", str(path)]) == 0
    assert main(["import-run", str(path), str(write("r.txt", RUN)), "--name", "plain"]) == 0
    assert main(["import-run", str(path), str(write("r2.txt", RUN)), "--name", "cut", "--id-map", "#"]) == 0
    return path


def refusal(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 2
    return capsys.readouterr().err.strip()


@pytest.mark.parametrize("separator", ["#", "|", "x y", "it's", "$HOME"])
def test_the_id_map_to_import_again_with_is_pasted_as_typed(project, capsys, separator):
    err = refusal(capsys, "score", "--project", str(project), "--run-name", "plain", "--id-map", separator)
    assert err.startswith("error: run plain was imported without an ID map; ")
    assert shlex.split(REMEDY.search(err).group(1)) == ["--id-map", separator]  # type: ignore[union-attr]


def test_the_first_example_reads_as_the_report_expects(project, capsys):
    plain = ("score", "--project", str(project), "--run-name", "plain")
    err = refusal(capsys, *plain, "--unjudged", "zero", "--id-map", "#")
    assert err == (
        "error: run plain was imported without an ID map; "
        "import it again under another --name with --id-map '#' to score it that way"
    )
    err = refusal(capsys, "score", "--project", str(project), "--run-name", "cut", "--id-map", "|")
    assert err == (
        "error: run cut was imported with --id-map '#'; "
        "import it again under another --name with --id-map '|' to score it that way"
    )


def test_an_id_map_file_is_pasted_quoted_beside_its_hash(project, write, capsys):
    chunks = write("my chunks.jsonl", '{"chunk_id": "A", "doc_id": "A"}\n')
    err = refusal(capsys, "score", "--project", str(project), "--run-name", "cut", "--id-map-file", str(chunks))
    assert "import it again under another --name with --id-map-file 'my chunks.jsonl' (sha256 " in err


def test_a_remedy_with_values_needing_no_quotes_reads_as_before(project, capsys):
    err = refusal(capsys, "score", "--project", str(project), "--run-name", "plain", "--ties", "docid-asc")
    assert err.endswith("; import it again under another --name with --ties docid-asc to score it that way")
    err = refusal(capsys, "score", "--project", str(project), "--run-name", "plain", "--order", "rank")
    assert err.startswith("error: run plain was imported with --order score; ")


FILES = [
    ("score", "--run", "bm25.run.gz", "--unjudged", "zero"),
    ("compare", "--runs", "bm25.run.gz", "tfidf.run.gz", "--unjudged", "zero"),
    ("simulate-pooling", "--runs", "bm25.run.gz", "tfidf.run.gz"),
    ("reusability", "--runs", "bm25.run.gz", "tfidf.run.gz"),
]


@pytest.mark.parametrize("command", FILES, ids=[c[0] for c in FILES])
def test_judgments_outside_the_scale_given_name_that_scale(command, capsys, monkeypatch):
    monkeypatch.chdir(DATA)  # qrels.txt grades 1..4; its line 29 is the first 4
    name, *rest = command
    err = refusal(capsys, name, "--qrels", "qrels.txt", *rest, "--scale", "0..3")
    assert err == (
        "error: qrels.txt:29: grade 4 is outside the scale 0..3; "
        "your --scale 0..3 does not cover grade 4; give the judgments' scale with --scale LO..HI"
    )
    err = refusal(capsys, name, "--qrels", "qrels.txt", *rest, "--scale", "2..4")  # a 1 below it
    assert err.endswith("; your --scale 2..4 does not cover grade 1; give the judgments' scale with --scale LO..HI")
    err = refusal(capsys, name, "--qrels", "qrels.txt", *rest)  # the default scale: no --scale to name, no project
    assert err == (
        "error: qrels.txt:29: grade 4 is outside the scale 0..3; choose the judgments' scale with --scale LO..HI"
    )


def test_python_names_its_keyword_with_or_without_a_scale(monkeypatch):
    monkeypatch.chdir(DATA)
    said = 'qrels.txt:29: grade 4 is outside the scale 0..3; choose the judgments\' scale with scale="LO..HI"'
    for scale in ({"scale": "0..3"}, {}):
        with pytest.raises(api.Refused) as caught:
            api.score("bm25.run.gz", "qrels.txt", unjudged="zero", **scale)
        assert str(caught.value) == said
        with pytest.raises(api.Refused) as caught:
            api.compare(["bm25.run.gz", "tfidf.run.gz"], "qrels.txt", unjudged="zero", **scale)
        assert str(caught.value) == said
