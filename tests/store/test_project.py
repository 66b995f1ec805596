"""The project file's rules: pools that freeze, hashes that reproduce, imports that are all-or-nothing."""

from __future__ import annotations

import json
import sqlite3

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale, InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.store import Project
from ndcg_desktop.store.errors import NegativeGradeOutside
from ndcg_desktop.tasks.advice import frozen_version
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.status import project_counts

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 X 2 1.5 s\nq1 Q0 C 3 1.0 s\nq2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\n"


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as p:
        yield p


def test_create_sets_scale_labels_and_refuses_overwrite(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ann") as p:
        assert str(p.scale) == "0..3"
        assert p.labels == ["Not relevant", "Related", "Highly relevant", "Perfect"]
    with pytest.raises(InputError, match="already exists"):
        Project.create(path, annotator="tester")
    with pytest.raises(InputError, match="needs 3 labels"):
        Project.create(tmp_path / "x.ndcgproj", scale=GradeScale(0, 2), labels=["a", "b"], annotator="tester")


def test_grade_is_on_disk_when_the_call_returns(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A -1\n"), negative_as_ungraded=True, annotator="ann")
    project.judgments.set_grade("q1", "A", 2, annotator="ann")
    other = sqlite3.connect(project.path)  # another connection sees it at once
    assert other.execute("SELECT grade, annotator FROM judgments").fetchall() == [(2, "ann")]
    other.close()


def test_audit_log_records_every_change(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A -1\n"), negative_as_ungraded=True, annotator="ann")
    project.judgments.set_grade("q1", "A", 2, annotator="ann")
    project.judgments.set_grade("q1", "A", 3, annotator="ann")
    project.judgments.set_note("q1", "A", "exact answer", annotator="ann")
    log = project.judgments.audit_log()
    grades = log[log["action"] == "grade"][["old_grade", "new_grade"]].astype("Int64").values.tolist()
    assert grades == [[pd.NA, 2], [2, 3]]  # imported ungraded (-1 read as ungraded), then 2, then 3
    assert list(log["action"]) == ["draft", "import", "grade", "grade", "note"]  # the draft audited (issue 33)
    assert set(log["who"]) == {"ann"}


def test_grade_outside_scale_and_unknown_item_refused(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A 1\n"), annotator="ann")
    with pytest.raises(InputError, match="outside the scale"):
        project.judgments.set_grade("q1", "A", 4, annotator="ann")
    with pytest.raises(InputError, match="not in the pool"):
        project.judgments.set_grade("q1", "Z", 1, annotator="ann")


def test_frozen_version_is_read_only_and_new_draft_copies(project, write):
    project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
    v1 = freeze_draft(project, annotator="ann")
    with pytest.raises(InputError, match="frozen"):
        project.judgments.set_grade("q1", "A", 0, version=v1.version, annotator="ann")
    v2 = project.pools.new_draft_from(v1.version, annotator="ann")
    assert v2.parent == 1 and not v2.frozen
    assert (
        project.pools.pool_items(2)[["doc_id", "grade"]].values.tolist()
        == project.pools.pool_items(1)[["doc_id", "grade"]].values.tolist()
    )
    project.judgments.set_grade("q1", "A", 0, annotator="ann")
    assert project.pools.pool_items(1).set_index("doc_id").loc["A", "grade"] == 3  # v1 untouched
    with pytest.raises(InputError, match="already has a draft"):
        project.pools.new_draft_from(1, annotator="ann")


def test_scoring_needs_a_frozen_version(project, write):
    project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
    with pytest.raises(InputError, match="freeze the draft first"):
        frozen_version(project, None)  # the store's refusal, worded with what to do (tasks.advice)
    with pytest.raises(InputError, match="is a draft"):
        project.pools.qrels(1)


def test_import_qrels_conflicts_and_negative_grades(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ann")
    with pytest.raises(InputError) as info:
        project.judgments.import_qrels(write("q2.txt", "q1 0 B 1\nq1 0 A 2\n"), annotator="ann")
    assert ":2: document A for query q1 is already graded 3" in str(info.value)
    assert project.pools.pool_items(1)["doc_id"].tolist() == ["A"]  # nothing half-imported
    q3 = write("q3.txt", "q1 0 C -1\n")
    with pytest.raises(NegativeGradeOutside) as negative:  # the facts; the command line's option is tasks' to name
        project.judgments.import_qrels(q3, annotator="ann")
    refused = negative.value
    assert (refused.grade, str(refused.scale), refused.path, refused.line) == (-1, "0..3", str(q3), 1)
    assert (str(refused), refused.hint) == (f"{q3}:1: grade -1 is outside the scale 0..3", None)


def test_stored_run_scores_like_the_file(project, write):
    project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
    freeze_draft(project, annotator="ann")
    run_path = write("run.txt", RUN)
    project.runs.import_run(run_path, name="sys", annotator="ann")
    stored, info = project.runs.load_run("sys")
    assert info.sha256 == read_run(run_path).source.sha256
    settings = EvalSettings(unjudged="zero").under(DataTerms())
    a = evaluate(project.pools.qrels(), stored, settings, 3)
    b = evaluate(read_qrels(write("q2.txt", QRELS)), read_run(run_path), settings, 3)
    pd.testing.assert_frame_equal(a.per_query, b.per_query)
    assert stored.line_of(1) == 2  # messages still point into the original file


def test_run_names_are_unique_and_bad_runs_write_nothing(project, write):
    project.runs.import_run(write("run.txt", RUN), name="sys", annotator="ann")
    with pytest.raises(InputError, match="already has a run named 'sys'"):
        project.runs.import_run(write("run2.txt", RUN), name="sys", annotator="ann")
    with pytest.raises(InputError, match=r"bad.txt:2: "):
        project.runs.import_run(write("bad.txt", "q1 Q0 A 1 1 s\nq1 Q0 B 2\n"), name="bad", annotator="ann")
    assert [r.name for r in project.runs.all()] == ["sys"]


def test_queries_and_documents(project, write):
    assert len(project.texts.import_topics(write("q.tsv", "q1\twhat is ndcg\nq2\twhy fixed universes\n"))) == 2
    assert project.texts.query("q1") == {
        "query_id": "q1",
        "text": "what is ndcg",
        "title": "what is ndcg",
        "description": "",
        "narrative": "",
    }
    docs = "\n".join(json.dumps({"doc_id": f"D{i}", "title": f"T{i}", "text": "body"}) for i in range(25)) + "\n"
    assert project.texts.import_documents(write("d.jsonl", docs)) == 25
    assert project.texts.document("D3") == {"doc_id": "D3", "title": "T3", "text": "body"}
    assert project.texts.import_documents(write("d.csv", 'doc_id,title,text\nD3,New,"a, b"\n')) == 1
    assert project.texts.document("D3")["title"] == "New"


@pytest.mark.parametrize(
    ("name", "content", "line", "fragment"),
    [
        ("q.tsv", "q1\tfine\nq2\n", 2, "expected query_id<TAB>text"),
        ("q.tsv", "q1\tfine\nq1\tagain\n", 2, "listed twice (also at line 1)"),
        ("q.jsonl", '{"query_id": "q1"}\n{"text": "x"}\n', 2, "expected an object with 'query_id'"),
        ("q.csv", "id,text\nq1,x\n", 1, "must name query_id and title (or text)"),
    ],
)
def test_query_file_errors(project, write, name, content, line, fragment):
    path = write(name, content)
    with pytest.raises(InputError) as info:
        project.texts.import_topics(path)
    assert str(info.value).startswith(f"{path}:{line}: ") and fragment in str(info.value)
    assert project_counts(project)["queries"] == 0


def test_progress_counts_per_query(project, write):
    project.texts.import_topics(write("q.tsv", "q1\tfirst\nq2\tsecond\n"))
    project.judgments.import_qrels(
        write("q.txt", "q1 0 A 1\nq1 0 B -1\nq2 0 C 2\n"), negative_as_ungraded=True, annotator="ann"
    )
    progress = project.pools.query_progress(1)
    # query, title, pool size, graded, awaiting adjudication (no two annotators differ here)
    assert progress.values.tolist() == [["q1", "first", 2, 1, 0], ["q2", "second", 1, 1, 0]]


def test_cli_project_flow_matches_file_scoring(tmp_path, write, capsys):
    qrels, run = write("qrels.txt", QRELS), write("run.txt", RUN)
    proj = str(tmp_path / "cli.ndcgproj")
    assert main(["init", proj]) == 0
    assert main(["score", "--project", proj, "--run-name", "sys"]) == 2
    assert capsys.readouterr().err == f"error: {proj}: has no run named 'sys' (runs: none)\n"
    assert main(["import-qrels", proj, str(qrels)]) == 0
    assert main(["import-run", proj, str(run), "--name", "sys"]) == 0
    assert main(["score", "--project", proj, "--run-name", "sys", "--unjudged", "zero"]) == 2
    assert "freeze the draft first" in capsys.readouterr().err
    assert main(["freeze", proj]) == 0
    out = capsys.readouterr().out
    assert "froze pool version 1" in out
    digest = out.split("sha256 ")[1].strip()
    assert main(["score", "--project", proj, "--run-name", "sys", "--unjudged", "zero", "--k", "3", "--json"]) == 0
    from_project = json.loads(capsys.readouterr().out)
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--unjudged", "zero", "--k", "3", "--json"]) == 0
    from_files = json.loads(capsys.readouterr().out)
    assert from_project["queries"] == from_files["queries"]
    assert from_project["summary"] == from_files["summary"]
    assert from_project["manifest"]["judgments"]["pool_version"] == 1
    assert from_project["manifest"]["judgments"]["pool_hash"] == digest
    assert main(["status", proj, "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["pool_versions"][0]["state"] == "frozen" and status["runs"][0]["name"] == "sys"
    assert main(["export-qrels", proj, "-o", str(tmp_path / "x.qrels")]) == 0
    assert (tmp_path / "x.qrels").read_text().splitlines()[0] == "q1 0 A 3"
    # Rankings formed by the rank column: stored with the run, equal to scoring the file that way.
    assert main(["import-run", proj, str(run), "--name", "by-rank", "--order", "rank"]) == 0
    capsys.readouterr()
    by_rank = ["--unjudged", "zero", "--k", "3", "--json"]
    assert main(["score", "--project", proj, "--run-name", "by-rank", *by_rank]) == 0
    from_project = json.loads(capsys.readouterr().out)
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--order", "rank", *by_rank]) == 0
    assert json.loads(capsys.readouterr().out)["queries"] == from_project["queries"]
    assert main(["score", "--project", proj, "--run-name", "by-rank", "--order", "score", *by_rank]) == 2
    assert "import it again under another --name with --order score" in capsys.readouterr().err


def test_negative_grades_inside_the_scale_are_stored_and_scored_as_trec_eval_reads_them(tmp_path, write):
    """-1 on a -1..4 scale is stored as the file says; scoring reads it as trec_eval does, in the pool, not judged
    (issue 33: one reading on every path), so the judged universe holds B alone."""
    with Project.create(tmp_path / "neg.ndcgproj", scale=GradeScale(-1, 4), annotator="ann") as project:
        counts = project.judgments.import_qrels(write("q.txt", "q1 0 A -1\nq1 0 B 4\n"), annotator="ann")
        assert counts["ungraded"] == 0
        freeze_draft(project, annotator="ann")  # nothing ungraded
        assert project.pools.qrels(1).frame_as_read()["grade"].tolist() == [-1, 4]
        assert project.pools.qrels(1).frame["grade"].tolist() == [4] and project.pools.qrels(1).unjudged_in_pool == 1


def test_progress_counts_the_items_awaiting_adjudication(project, write):
    """An item is awaiting when it is ungraded and its annotators' ratings differ (two files as two people)."""
    from ndcg_desktop.tasks.importing import import_ratings

    import_ratings(project, write("ana.txt", "q1 0 A 1\nq1 0 B 2\nq2 0 C 0\n"), "ana", imported_by="ann")
    import_ratings(project, write("ben.txt", "q1 0 A 3\nq1 0 B 2\nq2 0 C 0\n"), "ben", imported_by="ann")
    progress = project.pools.query_progress(project.pools.draft().version).set_index("query_id")
    assert progress.loc["q1", ["pool_size", "graded", "awaiting"]].tolist() == [2, 1, 1]  # A differs, B agrees
    assert progress.loc["q2", ["pool_size", "graded", "awaiting"]].tolist() == [1, 1, 0]
