"""Scoring a stored run is written once (tasks.score_run): the CLI and the window call it."""

from __future__ import annotations

import json
import math
import shlex

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms, EvalSettings, InputError, TiePolicy
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import check_run, score_run

# Universe A=3, B=2, C=1, D=0 (docs/evaluation-contract.md, rule 1); the run returns B, X (unjudged), C for q1.
QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 X 2 1.5 s\nq1 Q0 C 3 1.0 s\nq2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\n"


@pytest.fixture
def project(stored):
    return stored(QRELS, RUN)


def test_check_counts_flags_against_the_frozen_version(project):
    checked = check_run(project, "sys", 1, EvalSettings(), 2)
    assert (checked.run_name, checked.pool_version, checked.pool_hash) == ("sys", 1, project.pools.version(1).hash)
    # X at position 2 of q1 and Y at position 2 of q2: both unjudged, both in the top 2.
    assert (checked.report.unjudged_total, checked.report.unjudged_in_top_k) == (2, 2)
    assert checked.report.needs_choice() == {"unjudged": True, "duplicates": False, "unknown_queries": False}


def test_score_stamps_version_and_hash_and_records_the_evaluation(project):
    scored = score_run(project, "sys", None, EvalSettings(unjudged="zero"), 3)
    manifest = scored.evaluation.manifest
    assert manifest["judgments"]["pool_version"] == 1
    assert manifest["judgments"]["pool_hash"] == project.pools.version(1).hash == scored.pool_hash
    assert manifest["run"]["name"] == "sys"
    # q1: [B, X, C] at K=3 with X non-relevant: DCG = 2/log2(2) + 0 + 1/log2(4); IDCG = 3 + 2/log2(3) + 1/log2(4)
    dcg = 2 / math.log2(2) + 1 / math.log2(4)
    idcg = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    q1 = scored.evaluation.per_query.set_index("query_id").loc["q1"]
    assert q1["ndcg"] == pytest.approx(dcg / idcg, abs=1e-12)
    rows = project.file.query("SELECT id, run_name, pool_version, settings FROM evaluations")
    e = scored.evaluation
    assert [tuple(r) for r in rows] == [(scored.evaluation_id, "sys", 1, e.settings.to_text(e.k))]


def test_refused_policy_is_an_input_error(project):
    with pytest.raises(InputError, match="not in the judgment pool") as caught:
        score_run(project, "sys", 1, EvalSettings(), 3)
    assert "--" not in caught.value.located()  # the window shows this; the hint is the command line's


def test_the_runs_reading_comes_from_import_not_from_the_caller(project, write):
    project.runs.import_run(write("r2.txt", RUN), name="asc", ties=TiePolicy.DOCID_ASC, annotator="tester")
    scored = score_run(project, "asc", 1, EvalSettings(unjudged="zero"), 3)  # policies: no reading to give
    terms = scored.evaluation.settings.terms
    assert terms.ties.value == "docid-asc" and terms.id_map is None
    assert project.runs.run_info("asc").reading.ties.value == "docid-asc"


def test_cli_score_project_records_and_refuses_another_reading(project, capsys):
    path = str(project.path)
    project.close()
    assert main(["score", "--project", path, "--run-name", "sys", "--unjudged", "zero", "--k", "3", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    with Project.open(path) as p:
        expected = score_run(p, "sys", 1, EvalSettings(unjudged="zero"), 3, record=False)
        rows = p.file.query("SELECT run_name, pool_version, settings FROM evaluations")
    assert cli["summary"] == expected.evaluation.summary
    assert [tuple(r) for r in rows] == [("sys", 1, expected.evaluation.settings.to_text(expected.evaluation.k))]
    assert main(["score", "--project", path, "--run-name", "sys", "--unjudged", "zero", "--ties", "docid-asc"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "error: run sys was imported with --ties docid-desc; "
        "import it again under another --name with --ties docid-asc to score it that way"
    )


COLLIDING_QRELS = "q1 0 DOC-AAAAAAAA 3\nq1 0 DOC-BBBBBBBB 1\nq2 0 DOC-CCCCCCCC 2\nq2 0 X 1\n"
COLLIDING_RUN = (
    "q1 Q0 DOC-BBBBBBBB 1 3 t\nq1 Q0 DOC-AAAAAAAA 2 2 t\nq1 Q0 DOC-DDDDDDDD 3 2 t\nq1 Q0 DOC-BBBBBBBB 4 1 t\n"
    "q2 Q0 DOC-EEEEEEEE 1 5 t\nq2 Q0 DOC-CCCCCCCC 2 5 t\nq2 Q0 Y 3 1 t\n"
)


@pytest.mark.parametrize("stored_as", ["rows", "dictionary"])
def test_a_stored_run_is_scored_by_hashed_keys_and_falls_back_to_exact_codes_on_a_collision(
    stored, write, monkeypatch, stored_as
):
    """A run is stored with each row's document ID, as its file is read ("rows"); runs stored before that hold a
    dictionary of distinct IDs ("dictionary"). Either is scored by hashed keys, as the file is (looking the pool's
    IDs up among millions of distinct IDs cost 1.6 s), with the same numbers as from the files; keys that collide
    for every pair of IDs of equal length change no number, flag or duplicate."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    from ndcg_desktop.formats.qrels import read_qrels
    from ndcg_desktop.formats.runs import read_run
    from ndcg_desktop.scoring import evaluate, ranking
    from ndcg_desktop.store import runs as stored_runs

    if stored_as == "dictionary":  # what the code before stored
        monkeypatch.setattr(
            stored_runs, "_stored_doc_ids", lambda run: pa.DictionaryArray.from_arrays(pa.array(run.d), run.docs)
        )
    settings = EvalSettings(unjudged="zero", duplicates="first")
    from_files = evaluate(
        read_qrels(write("fq.txt", COLLIDING_QRELS)),
        read_run(write("fr.txt", COLLIDING_RUN)),
        settings.under(DataTerms()),
        3,
    )
    project = stored(COLLIDING_QRELS, COLLIDING_RUN)
    kept = project.runs.load_run("sys")[0]
    assert (kept.doc_column is not None) == (stored_as == "rows")
    honest = score_run(project, "sys", 1, settings, 3).evaluation
    hashed: list[int] = []
    real = ranking.identity_keys

    def counted(strings, rows=None):
        hashed.append(len(strings))
        return real(strings, rows)

    monkeypatch.setattr(ranking, "identity_keys", counted)
    assert score_run(project, "sys", 1, settings, 3).evaluation.per_query.equals(honest.per_query)
    assert hashed[0] == (7 if stored_as == "rows" else 6)  # every row's ID, or the six distinct ones
    calls: list[int] = []

    def colliding(strings, rows=None):
        calls.append(len(strings))
        keys = pc.binary_length(strings).to_numpy().astype(np.uint64)
        return (keys if rows is None else keys[rows]), False

    monkeypatch.setattr(ranking, "identity_keys", colliding)
    collided = score_run(project, "sys", 1, settings, 3).evaluation
    assert calls  # the bad keys were used, then given up for exact codes
    for frame in ("per_query", "per_position"):
        assert getattr(collided, frame).equals(getattr(honest, frame))
        # the same numbers as from the files (the stored run's line numbers are int64, the file's int32)
        pd.testing.assert_frame_equal(getattr(honest, frame), getattr(from_files, frame), check_dtype=False)
    assert collided.per_query.set_index("query_id")["duplicates_removed"].to_dict() == {"q1": 1, "q2": 0}


@pytest.mark.parametrize("command", ["score", "compare"])
def test_a_scale_the_version_does_not_use_is_refused_the_same_way_by_both_commands(project, capsys, command):
    """One rule (tasks.scoring.version_to_score) for ``score --project`` and ``compare --project``."""
    path, scale = str(project.path), project.pools.version(1).scale
    project.close()
    other = f"{scale.low}..{scale.high + 1}"
    names = ["--run-name", "sys"] if command == "score" else ["--run-names", "sys"]
    assert main([command, "--project", path, *names, "--unjudged", "zero", "--scale", other]) == 2
    assert capsys.readouterr().err.strip() == f"error: pool version 1 uses the scale {scale}, not {other}"
    main([command, "--project", path, *names, "--unjudged", "zero", "--scale", str(scale), "--json"])
    assert "uses the scale" not in capsys.readouterr().err  # its own scale is no refusal (compare wants two runs)


def test_a_stored_run_to_score_keeps_the_reading_it_was_imported_with(project):
    from ndcg_desktop.domain.reading import ReadingAsked
    from ndcg_desktop.tasks.scoring import stored_run_to_score

    chosen = stored_run_to_score(project, "sys", None, asked=ReadingAsked(order="score", ties="docid-desc"))
    assert (chosen.info.name, chosen.version) == ("sys", project.pools.version(1))
    for option, asked in (("order", "rank"), ("ties", "file-order"), ("id_map", "#")):
        with pytest.raises(InputError) as caught:
            stored_run_to_score(project, "sys", None, asked=ReadingAsked(**{option: asked}))
        flag = "--" + option.replace("_", "-")
        stored = {"order": "score", "ties": "docid-desc", "id_map": None}[option]
        how = "without an ID map" if stored is None else f"with {flag} {stored}"
        pasted = shlex.quote(asked)  # the separator '#' quoted: unquoted, a shell reads a comment
        assert str(caught.value) == (
            f"run sys was imported {how}; "
            f"import it again under another --name with {flag} {pasted} to score it that way"
        )
