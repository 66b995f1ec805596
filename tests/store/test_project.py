"""The project file's rules: pools that freeze, hashes that reproduce, imports that are all-or-nothing."""

from __future__ import annotations

import json
import sqlite3

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import EvalSettings, GradeScale, InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.store import Project, pool_hash

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 X 2 1.5 s\nq1 Q0 C 3 1.0 s\nq2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\n"


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.ndcgproj", user="ann") as p:
        yield p


def test_create_sets_scale_labels_and_refuses_overwrite(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, user="ann") as p:
        assert str(p.scale) == "0..3"
        assert p.labels == ["Not relevant", "Related", "Highly relevant", "Perfect"]
    with pytest.raises(InputError, match="already exists"):
        Project.create(path)
    with pytest.raises(InputError, match="needs 3 labels"):
        Project.create(tmp_path / "x.ndcgproj", scale=GradeScale(0, 2), labels=["a", "b"])


def test_grade_is_on_disk_when_the_call_returns(project, write):
    project.import_qrels(write("q.txt", "q1 0 A -1\n"), negative_as_ungraded=True)
    project.set_grade("q1", "A", 2)
    other = sqlite3.connect(project.path)  # another connection sees it at once
    assert other.execute("SELECT grade, annotator FROM judgments").fetchall() == [(2, "ann")]
    other.close()


def test_audit_log_records_every_change(project, write):
    project.import_qrels(write("q.txt", "q1 0 A -1\n"), negative_as_ungraded=True)
    project.set_grade("q1", "A", 2)
    project.set_grade("q1", "A", 3)
    project.set_note("q1", "A", "exact answer")
    log = project.audit_log()
    grades = log[log["action"] == "grade"][["old_grade", "new_grade"]].astype("Int64").values.tolist()
    assert grades == [[pd.NA, 2], [2, 3]]  # imported ungraded (-1 read as ungraded), then 2, then 3
    assert list(log["action"]) == ["draft", "import", "grade", "grade", "note"]  # the draft audited (issue 33)
    assert set(log["who"]) == {"ann"}


def test_grade_outside_scale_and_unknown_item_refused(project, write):
    project.import_qrels(write("q.txt", "q1 0 A 1\n"))
    with pytest.raises(InputError, match="outside the scale"):
        project.set_grade("q1", "A", 4)
    with pytest.raises(InputError, match="not in the pool"):
        project.set_grade("q1", "Z", 1)


def test_freeze_requires_grades_and_hashes(project, write):
    project.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B -1\n"), negative_as_ungraded=True)
    with pytest.raises(InputError, match="1 ungraded item; grade them, or remove them explicitly"):
        project.freeze()
    project.set_grade("q1", "B", 1)
    v = project.freeze()
    assert v.frozen and len(v.hash) == 64 and v.frozen_by == "ann"
    expected = pool_hash(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "B"], "grade": [3, 1]}), v.scale)
    assert v.hash == expected
    with pytest.raises(InputError, match="no draft pool to freeze"):
        project.freeze()


def test_freeze_can_drop_ungraded_explicitly(project, write):
    project.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B -1\n"), negative_as_ungraded=True)
    v = project.freeze(remove_ungraded=True)
    assert project.pool_items(v.version)["doc_id"].tolist() == ["A"]
    assert "remove" in set(project.audit_log()["action"])


def test_frozen_version_is_read_only_and_new_draft_copies(project, write):
    project.import_qrels(write("q.txt", QRELS))
    v1 = project.freeze()
    with pytest.raises(InputError, match="frozen"):
        project.set_grade("q1", "A", 0, version=v1.version)
    v2 = project.new_draft_from(v1.version)
    assert v2.parent == 1 and not v2.frozen
    assert (
        project.pool_items(2)[["doc_id", "grade"]].values.tolist()
        == project.pool_items(1)[["doc_id", "grade"]].values.tolist()
    )
    project.set_grade("q1", "A", 0)
    assert project.pool_items(1).set_index("doc_id").loc["A", "grade"] == 3  # v1 untouched
    with pytest.raises(InputError, match="already has a draft"):
        project.new_draft_from(1)


def test_scoring_needs_a_frozen_version(project, write):
    project.import_qrels(write("q.txt", QRELS))
    with pytest.raises(InputError, match="freeze the draft first"):
        project.qrels()
    with pytest.raises(InputError, match="is a draft"):
        project.qrels(1)


def test_exported_qrels_reimport_to_the_same_hash(project, write, tmp_path):
    project.import_qrels(write("q.txt", QRELS))
    v = project.freeze()
    project.export_qrels(tmp_path / "out.qrels", version=v.version)
    assert read_qrels(tmp_path / "out.qrels").n_judgments == 5
    with Project.create(tmp_path / "other.ndcgproj") as other:
        other.import_qrels(tmp_path / "out.qrels")
        assert other.freeze().hash == v.hash
    project.export_qrels(tmp_path / "out.csv", fmt="csv")
    assert (tmp_path / "out.csv").read_text().startswith("query_id,doc_id,grade\n")


def test_import_qrels_conflicts_and_negative_grades(project, write):
    project.import_qrels(write("q.txt", "q1 0 A 3\n"))
    with pytest.raises(InputError) as info:
        project.import_qrels(write("q2.txt", "q1 0 B 1\nq1 0 A 2\n"))
    assert ":2: document A for query q1 is already graded 3" in str(info.value)
    assert project.pool_items(1)["doc_id"].tolist() == ["A"]  # nothing half-imported
    with pytest.raises(InputError, match=r"q3.txt:1: grade -1 is outside the scale 0..3; import trec_eval's -1"):
        project.import_qrels(write("q3.txt", "q1 0 C -1\n"))


def test_pooling_preview_then_apply(project, write):
    project.import_qrels(write("q.txt", QRELS))
    project.import_run(write("run.txt", RUN), name="sys")
    preview = project.pool_from_runs(["sys"], 2, apply=False)
    assert preview.set_index("query_id")["new"].to_dict() == {"q1": 1, "q2": 1}  # X and Y
    assert len(project.pool_items(1)) == 5  # preview writes nothing
    added = project.pool_from_runs(["sys"], 2)
    assert added["new"].sum() == 2
    items = project.pool_items(1).set_index("doc_id")
    assert pd.isna(items.loc["X", "grade"]) and pd.isna(items.loc["Y", "grade"])


def test_pooling_maps_chunks_and_counts_distinct_documents(project, write):
    project.import_qrels(write("q.txt", "q1 0 A 1\n"))
    project.import_run(write("c.txt", "q1 Q0 A#1 1 3 s\nq1 Q0 A#2 2 2 s\nq1 Q0 B#1 3 1 s\n"), name="c", id_map="#")
    assert project.pool_from_runs(["c"], 2)["new"].tolist() == [1]  # A, then B


def test_stored_run_scores_like_the_file(project, write):
    project.import_qrels(write("q.txt", QRELS))
    project.freeze()
    run_path = write("run.txt", RUN)
    project.import_run(run_path, name="sys")
    stored, info = project.load_run("sys")
    assert info.sha256 == read_run(run_path).source.sha256
    settings = EvalSettings(unjudged="zero")
    a = evaluate(project.qrels(), stored, settings, 3)
    b = evaluate(read_qrels(write("q2.txt", QRELS)), read_run(run_path), settings, 3)
    pd.testing.assert_frame_equal(a.per_query, b.per_query)
    assert stored.line_of(1) == 2  # messages still point into the original file


def test_run_names_are_unique_and_bad_runs_write_nothing(project, write):
    project.import_run(write("run.txt", RUN), name="sys")
    with pytest.raises(InputError, match="already has a run named 'sys'"):
        project.import_run(write("run2.txt", RUN), name="sys")
    with pytest.raises(InputError, match=r"bad.txt:2: "):
        project.import_run(write("bad.txt", "q1 Q0 A 1 1 s\nq1 Q0 B 2\n"), name="bad")
    assert [r.name for r in project.runs()] == ["sys"]


def test_queries_and_documents(project, write):
    assert project.import_queries(write("q.tsv", "q1\twhat is ndcg\nq2\twhy fixed universes\n")) == 2
    assert project.query("q1") == {
        "query_id": "q1",
        "text": "what is ndcg",
        "title": "what is ndcg",
        "description": "",
        "narrative": "",
    }
    docs = "\n".join(json.dumps({"doc_id": f"D{i}", "title": f"T{i}", "text": "body"}) for i in range(25)) + "\n"
    assert project.import_documents(write("d.jsonl", docs)) == 25
    assert project.document("D3") == {"doc_id": "D3", "title": "T3", "text": "body"}
    assert project.import_documents(write("d.csv", 'doc_id,title,text\nD3,New,"a, b"\n')) == 1
    assert project.document("D3")["title"] == "New"


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
        project.import_queries(path)
    assert str(info.value).startswith(f"{path}:{line}: ") and fragment in str(info.value)
    assert project.counts()["queries"] == 0


def test_progress_counts_per_query(project, write):
    project.import_queries(write("q.tsv", "q1\tfirst\nq2\tsecond\n"))
    project.import_qrels(write("q.txt", "q1 0 A 1\nq1 0 B -1\nq2 0 C 2\n"), negative_as_ungraded=True)
    progress = project.query_progress(1)
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
    assert "import it again with --order score" in capsys.readouterr().err


def test_negative_grades_inside_the_scale_are_stored_and_scored_as_trec_eval_reads_them(tmp_path, write):
    """-1 on a -1..4 scale is stored as the file says; scoring reads it as trec_eval does, in the pool, not judged
    (issue 33: one reading on every path), so the judged universe holds B alone."""
    with Project.create(tmp_path / "neg.ndcgproj", scale=GradeScale(-1, 4), user="ann") as project:
        counts = project.import_qrels(write("q.txt", "q1 0 A -1\nq1 0 B 4\n"))
        assert counts["ungraded"] == 0
        project.freeze()  # nothing ungraded
        assert project.qrels(1).frame_as_read()["grade"].tolist() == [-1, 4]
        assert project.qrels(1).frame["grade"].tolist() == [4] and project.qrels(1).unjudged_in_pool == 1


def test_progress_counts_the_items_awaiting_adjudication(project, write):
    """An item is awaiting when it is ungraded and its annotators' ratings differ (two files as two people)."""
    from ndcg_desktop.tasks.importing import import_ratings

    import_ratings(project, write("ana.txt", "q1 0 A 1\nq1 0 B 2\nq2 0 C 0\n"), "ana")
    import_ratings(project, write("ben.txt", "q1 0 A 3\nq1 0 B 2\nq2 0 C 0\n"), "ben")
    progress = project.query_progress(project.draft().version).set_index("query_id")
    assert progress.loc["q1", ["pool_size", "graded", "awaiting"]].tolist() == [2, 1, 1]  # A differs, B agrees
    assert progress.loc["q2", ["pool_size", "graded", "awaiting"]].tolist() == [1, 1, 0]
