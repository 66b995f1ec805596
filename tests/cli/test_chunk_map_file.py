"""An ID map given as a file (chunk ID -> document ID) wherever a separator is accepted: score, import-run,
score --project; stored with the run's reading settings and named by file and hash in every manifest."""

from __future__ import annotations

import hashlib
import json
from math import log2

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms, EvalSettings, Measure
from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.store import Project

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\n"
RUN = '{"query_id": "q1", "doc_ids": ["c7", "B#1"]}\n'  # c7 is a chunk of B, B#1 one of C (names prove nothing)
MAP = '{"chunk_id": "c7", "doc_id": "B"}\n{"chunk_id": "B#1", "doc_id": "C"}\n{"chunk_id": "unused", "doc_id": "D"}\n'
NDCG = (2 / log2(2) + 1 / log2(3)) / (3 / log2(2) + 2 / log2(3))  # contract rule 1: [B, C] at K=2


@pytest.fixture
def files(write):
    return write("qrels.txt", QRELS), write("run.jsonl", RUN), write("chunks.jsonl", MAP)


def score_json(capsys, *argv):
    assert main(["score", *argv, "--k", "2", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_score_files_with_a_chunk_map(files, capsys):
    qrels, run, chunks = files
    doc = score_json(capsys, "--qrels", str(qrels), "--run", str(run), "--id-map-file", str(chunks))
    assert doc["summary"]["mean_ndcg"] == pytest.approx(NDCG, abs=1e-12)
    digest = hashlib.sha256(chunks.read_bytes()).hexdigest()
    assert doc["manifest"]["settings"]["id_map"] == {"file": "chunks.jsonl", "sha256": digest}
    assert f'id_map_file="{digest} chunks.jsonl"' in doc["manifest"]["settings"]["text"]


def test_a_returned_id_missing_from_the_map_names_the_run_line(write, files, capsys):
    qrels, _, chunks = files
    run = write("run2.jsonl", '\n{"query_id": "q1", "doc_ids": ["c7", "zz"]}\n')  # line 2: a blank line first
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--id-map-file", str(chunks), "--k", "2"]) == 2
    err = capsys.readouterr().err
    assert f"{run}:2: document ID 'zz' is not a chunk of the ID map chunks.jsonl (sha256 " in err


def test_two_chunks_of_one_document_are_duplicates_rule_5(write, files, capsys):
    qrels, _, _ = files
    run = write("run3.jsonl", '{"query_id": "q1", "doc_ids": ["x1", "x2"]}\n')
    chunks = write("m.csv", "chunk_id,doc_id\nx1,A\nx2,A\n")
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--id-map-file", str(chunks), "--k", "2"]) == 2
    assert "duplicate" in capsys.readouterr().err
    doc = score_json(
        capsys, "--qrels", str(qrels), "--run", str(run), "--id-map-file", str(chunks), "--duplicates", "first"
    )
    assert doc["summary"]["mean_ndcg"] == pytest.approx((3 / log2(2)) / (3 / log2(2) + 2 / log2(3)), abs=1e-12)


def test_separator_and_file_together_are_refused(files, capsys):
    qrels, run, chunks = files
    argv = ["score", "--qrels", str(qrels), "--run", str(run), "--id-map", "#", "--id-map-file", str(chunks)]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == "error: give --id-map SEP or --id-map-file FILE, not both"


def test_stored_with_the_run_and_scored_from_the_project(tmp_path, files, write, capsys):
    qrels, run, chunks = files
    path = tmp_path / "p.ndcgproj"
    assert main(["init", str(path)]) == 0
    assert main(["import-qrels", str(path), str(qrels)]) == 0
    assert main(["freeze", str(path)]) == 0
    assert main(["import-run", str(path), str(run), "--name", "rag", "--id-map-file", str(chunks)]) == 0
    capsys.readouterr()
    with Project.open(path, read_only=True) as p:
        stored = p.runs.run_info("rag").reading.id_map
    assert isinstance(stored, ChunkMap)
    assert stored.mapping() == {"c7": "B", "B#1": "C"}  # only the chunks the run returned
    assert stored.sha256 == hashlib.sha256(chunks.read_bytes()).hexdigest()
    doc = score_json(capsys, "--project", str(path), "--run-name", "rag")
    assert doc["summary"]["mean_ndcg"] == pytest.approx(NDCG, abs=1e-12)
    # the same file again is fine; another file is refused, naming both maps
    score_json(capsys, "--project", str(path), "--run-name", "rag", "--id-map-file", str(chunks))
    other = write("other.jsonl", MAP.replace('"D"', '"A"'))
    assert main(["score", "--project", str(path), "--run-name", "rag", "--id-map-file", str(other), "--k", "2"]) == 2
    err = capsys.readouterr().err
    assert "run rag was imported with --id-map-file chunks.jsonl (sha256" in err
    assert "import it again under another --name with --id-map-file other.jsonl (sha256" in err
    assert main(["status", str(path)]) == 0
    assert "IDs mapped by chunks.jsonl (sha256 " in capsys.readouterr().out


def test_compare_project_and_the_api_take_the_stored_map_and_refuse_another(tmp_path, files, write, capsys):
    from ndcg_desktop import api

    qrels, run, chunks = files
    path = tmp_path / "p.ndcgproj"
    assert main(["init", str(path)]) == 0
    assert main(["import-qrels", str(path), str(qrels)]) == 0
    assert main(["freeze", str(path)]) == 0
    for name in ("rag", "rag2"):
        assert main(["import-run", str(path), str(run), "--name", name, "--id-map-file", str(chunks)]) == 0
    other = write("other.jsonl", MAP.replace('"D"', '"A"'))
    compare = ["compare", "--project", str(path), "--run-names", "rag", "rag2", "--k", "2", "--json"]
    assert main([*compare, "--id-map-file", str(chunks)]) == 0  # the map both were imported with
    capsys.readouterr()
    assert main([*compare, "--id-map-file", str(other)]) == 2
    mine, theirs = (hashlib.sha256(f.read_bytes()).hexdigest()[:12] for f in (chunks, other))
    assert capsys.readouterr().err.strip() == (
        f"error: run rag was imported with --id-map-file chunks.jsonl (sha256 {mine}…); "
        f"import it again under another --name with --id-map-file other.jsonl (sha256 {theirs}…) to score it that way"
    )
    with api.open_project(path) as project:
        assert project.score("rag", k=2, id_map_file=chunks).mean == pytest.approx(NDCG, abs=1e-12)
        with pytest.raises(api.Refused) as refused:
            project.compare(["rag", "rag2"], k=2, id_map_file=other)
        assert str(refused.value) == (
            f'run rag was imported with id_map_file="chunks.jsonl" (sha256 {mine}…); '
            f'import it again under another name with id_map_file="other.jsonl" (sha256 {theirs}…) to score it that way'
        )


def test_settings_text_names_the_map_and_round_trips():
    chunk_map = ChunkMap("chunks.jsonl", "ab" * 32, (("c7", "B"),))
    settings = EvalSettings().under(DataTerms(id_map=chunk_map))
    parsed, k = Measure.parse(settings.to_text(2))
    assert (parsed, k) == (settings, 2) and isinstance(parsed.terms.id_map, ChunkMap) and not parsed.terms.id_map.loaded
    assert settings.describe(2).endswith(f", IDs mapped by chunks.jsonl (sha256 {'ab' * 6}…)")
