"""The project path reads what the file path reads (issue 13 target 4): the same run representation, the same
judgments, the same numbers, with the frozen hash still checked on the lines that are scored."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ndcg_desktop.domain import DataTerms, EvalSettings
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.store import FrozenVersionChanged, Project
from ndcg_desktop.tasks import score_run
from ndcg_desktop.tasks.export import write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft

QRELS = "".join(f"{q} 0 {d} {(q * d) % 4}\n" for q in (3, 11, 250) for d in range(0, 40, 3))
RUN = "".join(f"{q} Q0 {d} {r} {100 - r / 7:.3f} t\n" for q in (3, 11, 250) for r, d in enumerate(range(60, 0, -2), 1))


@pytest.fixture
def project(tmp_path, write):
    qrels, run = write("j.qrels", QRELS), write("r.run", RUN)
    p = Project.create(tmp_path / "p.ndcgproj", annotator="t")
    p.judgments.import_qrels(qrels, annotator="t")
    freeze_draft(p, annotator="t")
    p.runs.import_run(run, name="r", annotator="t")
    yield p, qrels, run
    p.close()


def test_a_numbered_run_is_stored_as_numbers_and_loads_as_read(project):
    p, _, run_path = project
    loaded, _ = p.runs.load_run("r")
    from_file = read_run(run_path)
    assert from_file.doc_numbers is not None  # the file path's numeric representation ...
    assert loaded.doc_numbers is not None  # ... is the project path's too
    assert loaded.doc_numbers.tolist() == from_file.doc_numbers.tolist()
    assert loaded.docs.to_pylist() == from_file.docs.to_pylist()  # the dictionary, built when asked, agrees


def test_score_project_equals_score_on_the_exported_files(project, tmp_path):
    p, _, run_path = project
    settings = EvalSettings(unjudged="zero")
    scored = score_run(p, "r", None, settings, 5, record=False)
    write_qrels(p, tmp_path / "out.qrels")
    files = evaluate(read_qrels(tmp_path / "out.qrels"), read_run(run_path), settings.under(DataTerms()), 5)
    pd.testing.assert_frame_equal(scored.evaluation.per_query, files.per_query)
    expected = float(np.mean(files.per_query["ndcg"]))
    assert scored.evaluation.summary["mean_ndcg"] == expected


def test_the_project_judgments_are_the_file_judgments(project):
    p, qrels_path, _ = project
    stored = p.pools.qrels().frame[["query_id", "doc_id", "grade"]]
    independent = pd.read_csv(qrels_path, sep=" ", header=None, names=["query_id", "it", "doc_id", "grade"], dtype=str)
    independent["grade"] = independent["grade"].astype(np.int64)
    expected = independent[["query_id", "doc_id", "grade"]].sort_values(["query_id", "doc_id"]).reset_index(drop=True)
    assert stored.astype({"query_id": object, "doc_id": object}).values.tolist() == expected.values.tolist()


def test_the_scored_lines_are_the_hashed_lines(project):
    """qrels() hashes the lines it returns: a grade changed behind the triggers is refused there too."""
    import sqlite3

    p, _, _ = project
    con = sqlite3.connect(p.path, isolation_level=None)
    con.execute("DROP TRIGGER frozen_judgment_not_updated")
    con.execute("UPDATE judgments SET grade = 3 WHERE grade = 0 AND version = 1 AND query_id = '3'")
    con.close()
    with pytest.raises(FrozenVersionChanged, match="pool version 1 has changed since it was frozen"):
        p.pools.qrels()


def test_score_project_reads_the_frozen_judgments_and_ratings_once(project, frozen_reads):
    """The command reads the version's judgments once, for the hash check and for scoring (it read them twice:
    a check before loading, then the load's own), and each annotator's ratings once, for the team check."""
    p, _, _ = project
    p.close()
    from ndcg_desktop.cli.main import main

    assert main(["score", "--project", str(p.path), "--run-name", "r", "--unjudged", "zero", "--json"]) == 0
    assert frozen_reads == {"judgments": 1, "ratings": 1}
