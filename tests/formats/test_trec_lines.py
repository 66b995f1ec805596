"""One meaning for every line of a TREC file, on every path (issue 33, items 14-16).

trec_eval 10.0 skips a line starting with '#' in qrels and runs; it reads a negative grade as "in the pool,
not judged" (RELVALUE_UNJUDGED: ``-J`` drops the document, without it the document earns nothing where it
stands); and it reads TREC lines whatever the file is called. pytrec_eval (trec_eval's C code) is the oracle:
it has no comment lines, so the files handed to it have none.
"""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

import pandas as pd
import pytest
import pytrec_eval

from ndcg_desktop import api
from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import EvalSettings, GradeScale, UnjudgedPolicy
from ndcg_desktop.formats import large
from ndcg_desktop.formats import runs as runs_mod
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import preview_run, read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.importing import NegativeGrades, import_judgments, import_run
from ndcg_desktop.tasks.scoring import score_run

# --- item 14: comment lines ------------------------------------------------------------------------------------

QRELS = "# judged by 2\nq1 0 A 2\n# a longer comment with more than four words\nq1 0 B 0\n  # indented\nq2 0 C 1\n"
RUN = "# run bm25, 2026\nq1 Q0 A 1 2.0 bm25\n#\nq1 Q0 B 2 1.0 bm25\nq2 Q0 C 1 1.0 bm25\n"


def judged(qrels) -> list[tuple[str, str, int, int]]:  # noqa: ANN001
    return list(qrels.frame[["query_id", "doc_id", "grade", "line"]].itertuples(index=False, name=None))


EXPECTED = [("q1", "A", 2, 2), ("q1", "B", 0, 4), ("q2", "C", 1, 6)]


@pytest.mark.parametrize("path", ["memory", "large", "gzip"])
def test_comment_lines_are_skipped_and_counted_by_the_qrels_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """Today `# judged by 2` was a query named '#'; every path through the reader skips it and keeps line numbers."""
    import gzip

    file = tmp_path / ("q.qrels.gz" if path == "gzip" else "q.qrels")
    file.write_bytes(gzip.compress(QRELS.encode()) if path == "gzip" else QRELS.encode())
    if path == "large":
        monkeypatch.setattr(large, "LARGE_FILE_BYTES", 0)
    qrels = read_qrels(file)
    assert judged(qrels) == EXPECTED
    assert qrels.comments == 3 and qrels.query_ids() == ["q1", "q2"]


@pytest.mark.parametrize("path", ["memory", "large", "slow"])
def test_comment_lines_are_skipped_and_counted_by_the_run_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    text = RUN + ("q2 Q0 D 2\t0.5 bm25\n" if path == "slow" else "")  # a tab beside spaces: the exact reader
    file = tmp_path / "r.run"
    file.write_text(text, encoding="utf-8")
    if path == "large":
        monkeypatch.setattr(runs_mod, "STREAM_MIN_BYTES", 0)
    run = read_run(file)
    assert run.answered_queries() == ["q1", "q2"] and run.comments == 2
    assert [run.line_of(i) for i in range(len(run))] == [2, 4, 5, *([6] if path == "slow" else [])]
    preview, lines = preview_run(file)
    assert preview.answered_queries() == ["q1", "q2"] and lines[:3] == [2, 4, 5]


def test_a_bad_line_after_a_comment_is_named_by_its_own_number(tmp_path: Path) -> None:
    file = tmp_path / "q.qrels"
    file.write_text("# header comment\nq1 0 A 2\nq1 0 B x\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_qrels(file)
    assert (caught.value.path, caught.value.line) == (str(file), 3)


def test_csv_tsv_and_jsonl_keep_their_own_rules(tmp_path: Path) -> None:
    """Only TREC files have comment lines: in a CSV, '#q1' is a query ID like any other."""
    file = tmp_path / "q.csv"
    file.write_text("query_id,doc_id,grade\n#q1,A,1\n", encoding="utf-8")
    assert read_qrels(file).query_ids() == ["#q1"] and read_qrels(file).comments == 0
    run = tmp_path / "r.jsonl"
    run.write_text('# not JSON\n{"query_id": "q1", "doc_ids": ["A"]}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_run(run)
    assert caught.value.line == 1


def test_score_reports_comment_lines_in_the_summary_and_the_manifest(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["comment_lines_skipped"] == {"judgments": 3, "run": 2}
    assert out["manifest"]["judgments"]["comment_lines_skipped"] == 3
    assert out["manifest"]["run"]["comment_lines_skipped"] == 2
    assert [q["query_id"] for q in out["queries"]] == ["q1", "q2"]
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "2"]) == 0
    assert "3 comment lines skipped" in capsys.readouterr().out


def test_project_imports_skip_comment_lines(tmp_path: Path) -> None:
    """The project's imports (the command line's import-qrels and import-run, the window's File > Import)."""
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as project:
        imported = import_judgments(project, qrels, annotator="tester")
        assert (imported.comment_lines, imported.added) == (3, 3)
        draft = project.pools.draft()
        assert draft is not None and sorted(project.pools.pool_items(draft.version)["query_id"].unique()) == [
            "q1",
            "q2",
        ]
        freeze_draft(project, annotator="tester")
        assert import_run(project, run, name="bm25", annotator="tester").rows == 3


def test_the_api_reads_comment_lines_as_the_command_line_does(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    scored = api.score(run, qrels, k=2)
    assert list(scored.per_query.index) == ["q1", "q2"]
    assert scored.summary["comment_lines_skipped"] == {"judgments": 3, "run": 2}


# --- item 15: negative grades ----------------------------------------------------------------------------------

# The four lines: trec_eval -J says 1.0000; the file path said 0.7003 (a judged zero, condensed away not).
NEGATIVE_QRELS = "q1 0 A 2\nq1 0 B -1\nq1 0 C 1\nq1 0 D 0\n"
NEGATIVE_RUN = "q1 Q0 B 1 3 r\nq1 Q0 A 2 2 r\nq1 Q0 C 3 1 r\n"
POOL = {"q1": {"A": 2, "B": -1, "C": 1, "D": 0}}
RANKED = {"q1": {"B": 3.0, "A": 2.0, "C": 1.0}}


def trec_eval_ndcg(k: int, judged_docs_only: bool) -> float:
    evaluator = pytrec_eval.RelevanceEvaluator(POOL, {f"ndcg_cut.{k}"}, judged_docs_only_flag=judged_docs_only)
    return float(evaluator.evaluate(RANKED)["q1"][f"ndcg_cut_{k}"])


@pytest.fixture
def negative_files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "neg.qrels", tmp_path / "neg.run"
    qrels.write_text(NEGATIVE_QRELS, encoding="utf-8")
    run.write_text(NEGATIVE_RUN, encoding="utf-8")
    return qrels, run


@pytest.mark.parametrize(("unjudged", "judged_docs_only"), [("zero", False), ("condense", True)])
def test_negative_grades_read_as_trec_eval_reads_them_on_every_path(
    tmp_path: Path,
    negative_files: tuple[Path, Path],
    capsys,
    unjudged: str,
    judged_docs_only: bool,  # noqa: ANN001
) -> None:
    """File, DataFrame (the API), and both project routes give trec_eval's number under each unjudged policy."""
    qrels, run = negative_files
    expected = trec_eval_ndcg(10, judged_docs_only)
    # trec_eval's numbers, derived: the ideal [A=2, C=1]; B is unjudged
    ideal = 2 + 1 / log2(3)
    assert expected == pytest.approx(1.0 if judged_docs_only else (2 / log2(3) + 1 / 2) / ideal, abs=1e-12)

    # the file: ndcg score --scale -1..2 (the command) and the default scale
    for scale in (["--scale", "-1..2"], []):
        argv = ["score", "--qrels", str(qrels), "--run", str(run), "--unjudged", unjudged, "--json", *scale]
        code = main(argv)
        out = capsys.readouterr()
        if scale:
            assert code == 0, out.err
            document = json.loads(out.out)
            assert document["summary"]["mean_ndcg"] == pytest.approx(expected, abs=1e-12)
            assert document["summary"]["negative_grades_unjudged"] == 1
        else:  # the default 0..3 scale refuses -1, naming the line and the remedy
            assert code == 2 and "neg.qrels:2: grade -1 is outside the scale 0..3" in out.err

    # a DataFrame through the API
    frame = pd.DataFrame(
        {"query_id": ["q1"] * 4, "doc_id": list("ABCD"), "grade": [2, -1, 1, 0]},
    )
    assert api.score(run, frame, k=10, scale="-1..2", unjudged=unjudged).mean == pytest.approx(expected, abs=1e-12)

    # a project whose scale holds -1: the grade is stored as read and scored as trec_eval reads it
    with Project.create(tmp_path / "wide.ndcgproj", scale=GradeScale(-1, 2), annotator="tester") as project:
        import_judgments(project, qrels, annotator="tester")
        freeze_draft(project, annotator="tester")
        import_run(project, run, name="r", annotator="tester")
    assert main(["score", "--project", str(tmp_path / "wide.ndcgproj"), "--run-name", "r", "--unjudged", unjudged,
                 "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["summary"]["mean_ndcg"] == pytest.approx(expected, abs=1e-12)

    # a 0..3 project: -1 joins as an ungraded item (the window's Yes), removed at freezing
    with Project.create(tmp_path / "narrow.ndcgproj", annotator="tester") as project:
        import_judgments(project, qrels, negative=NegativeGrades.UNGRADED, annotator="tester")
        freeze_draft(project, remove_ungraded=True, annotator="tester")
        import_run(project, run, name="r", annotator="tester")
    assert main(["score", "--project", str(tmp_path / "narrow.ndcgproj"), "--run-name", "r", "--unjudged", unjudged,
                 "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["summary"]["mean_ndcg"] == pytest.approx(expected, abs=1e-12)


def test_a_negative_grade_is_unjudged_under_the_default_policy(negative_files: tuple[Path, Path]) -> None:
    qrels, run = negative_files
    with pytest.raises(InputError, match="document B for query q1 is in the pool but not judged \\(grade -1 at "):
        evaluate(
            read_qrels(qrels, scale=GradeScale(-1, 2)),
            read_run(run),
            EvalSettings().under(DataTerms(scale=GradeScale(-1, 2))),
        )


# The new user's case (item 4): d2 is in the qrels as -1, so "not in the judgment pool" was untrue. The comment
# puts d2's judgment on line 3; d9 is in no line of it. Both are unjudged: 2 in all, d2 first in the run.
POOLED_QRELS = "# round 1\nq1 0 d1 2\nq1 0 d2 -1\nq1 0 d3 1\n"
POOLED_RUN = "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d9 3 1 r\n"
POOLED = 'document d2 for query q1 is in the pool but not judged (grade -1 {where}, trec_eval\'s "pooled, not judged"'


def test_a_refused_negative_grade_is_called_pooled_not_judged_on_every_path(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """Files, the API (a path and a DataFrame), ``score --project`` and the window's text (located, no hint)."""
    qrels, run = tmp_path / "neg.qrels", tmp_path / "r.run"
    qrels.write_text(POOLED_QRELS, encoding="utf-8")
    run.write_text(POOLED_RUN, encoding="utf-8")
    pooled = POOLED.format(where=f"at {qrels}:3") + "; 2 unjudged documents in all)"
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--scale", "-1..3"]) == 2
    assert capsys.readouterr().err == f"error: {run}:2: {pooled}; choose --unjudged zero|condense\n"

    api_hint = 'choose unjudged="zero" or unjudged="condense"'
    with pytest.raises(api.Refused) as refused:
        api.score(run, qrels, scale="-1..3")
    assert str(refused.value) == f"{run}:2: {pooled}; {api_hint}"
    frame = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["d1", "d2", "d3"], "grade": [2, -1, 1]})
    with pytest.raises(api.Refused) as refused:
        api.score(run, frame, scale="-1..3")
    in_frame = POOLED.format(where="at <qrels DataFrame>:2") + "; 2 unjudged documents in all)"
    assert str(refused.value) == f"{run}:2: {in_frame}; {api_hint}"

    # a project: the stored lines are no file's, so the version is named without a line
    path = tmp_path / "wide.ndcgproj"
    with Project.create(path, scale=GradeScale(-1, 3), annotator="tester") as project:
        import_judgments(project, qrels, annotator="tester")
        freeze_draft(project, annotator="tester")
        import_run(project, run, name="r", annotator="tester")
        stored = POOLED.format(where="in wide.ndcgproj pool v1") + "; 2 unjudged documents in all)"
        with pytest.raises(InputError) as caught:
            score_run(project, "r", 1, EvalSettings(), 10)
        assert caught.value.located() == f"r.run:2: {stored}"  # what the window shows (a stored run's file name)
    assert main(["score", "--project", str(path), "--run-name", "r"]) == 2
    assert capsys.readouterr().err == f"error: r.run:2: {stored}; choose --unjudged zero|condense\n"


def test_an_unjudged_document_in_no_line_keeps_its_words(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """Only the first document named decides: d9 (in no judgment) before d2 (-1) is refused as before."""
    qrels, run = tmp_path / "neg.qrels", tmp_path / "r.run"
    qrels.write_text(POOLED_QRELS, encoding="utf-8")
    run.write_text("q1 Q0 d9 1 3 r\nq1 Q0 d2 2 2 r\n", encoding="utf-8")
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--scale", "-1..3"]) == 2
    assert capsys.readouterr().err == (
        f"error: {run}:1: document d9 for query q1 is not in the judgment pool "
        "(unjudged; 2 unjudged documents in all); choose --unjudged zero|condense\n"
    )


def test_a_query_whose_lines_are_all_negative_stays_in_the_pool(tmp_path: Path) -> None:
    """trec_eval -c counts such a query (no relevant document: 0), as rule 9 and rule 7 do."""
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text("q1 0 A 1\nq2 0 X -1\n", encoding="utf-8")
    run.write_text("q1 Q0 A 1 1 r\nq2 Q0 X 1 1 r\n", encoding="utf-8")
    scale = GradeScale(-1, 1)
    settings = EvalSettings(unjudged=UnjudgedPolicy.CONDENSE).under(DataTerms(scale=scale))
    per_query = evaluate(read_qrels(qrels, scale=scale), read_run(run), settings).per_query.set_index("query_id")
    assert per_query["ndcg"].to_dict() == {"q1": 1.0, "q2": 0.0}
    assert bool(per_query.loc["q2", "zero_idcg"])


# --- item 16: TREC lines under a .tsv or .csv name -------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".tsv", ".csv", ".tsv.gz"])
def test_trec_lines_in_a_tsv_file_are_read_as_trec(tmp_path: Path, suffix: str) -> None:
    """CIRAL's qrels: TREC lines in a .tsv file, read by trec_eval; the content decides, not the name."""
    import gzip

    text = "1\tQ0\tTUKO#13640#0\t1\n1\tQ0\tTUKO#2#0\t0\n"
    file = tmp_path / f"ciral{suffix}"
    file.write_bytes(gzip.compress(text.encode()) if suffix.endswith(".gz") else text.encode())
    qrels = read_qrels(file)
    assert qrels.source.format == "trec"
    assert judged(qrels) == [("1", "TUKO#13640#0", 1, 1), ("1", "TUKO#2#0", 0, 2)]
    run = tmp_path / f"run{suffix}"
    lines = "1\tQ0\tTUKO#13640#0\t1\t9.5\tbm25\n"
    run.write_bytes(gzip.compress(lines.encode()) if suffix.endswith(".gz") else lines.encode())
    assert read_run(run).source.format == "trec"
    with Project.create(tmp_path / f"p{suffix}.ndcgproj", annotator="tester") as project:
        assert import_judgments(project, file, annotator="tester").added == 2


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("q1\tTUKO#13640#0\t1\n", "query_id, doc_id and grade (tab-separated); missing"),  # three fields
        ("1\t1\tTUKO#13640#0\t1 x\n", "header names the column '1' twice"),  # no TREC line, a header twice
    ],
)
def test_a_refused_tsv_file_names_the_trec_format_and_says_tab(tmp_path: Path, text: str, names: str) -> None:
    file = tmp_path / "ciral.tsv"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_qrels(file)
    message = str(caught.value)
    assert names in message and "choose --qrels-format trec" in message
    assert caught.value.line == 1 and caught.value.path == str(file)
    assert "\t" not in message and "\\t" not in message


def test_a_refused_tsv_run_names_the_trec_format_and_says_tab(tmp_path: Path) -> None:
    file = tmp_path / "run.tsv"
    file.write_text("1\tTUKO#13640#0\t9.5\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_run(file)
    message = str(caught.value)
    assert "(tab-separated)" in message and "choose --run-format trec" in message
    assert "\t" not in message and "\\t" not in message


def test_the_import_commands_name_their_own_format_option(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """import-qrels and import-run call the option --format: the refusal suggests what works there."""
    project = tmp_path / "p.ndcgproj"
    assert main(["init", str(project)]) == 0
    qrels, run = tmp_path / "q.tsv", tmp_path / "r.tsv"
    qrels.write_text("q1\tTUKO#13640#0\t1\n", encoding="utf-8")
    run.write_text("q1\tTUKO#13640#0\t9.5\n", encoding="utf-8")
    capsys.readouterr()
    for argv in (["import-qrels", str(project), str(qrels)], ["import-run", str(project), str(run), "--name", "r"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "(tab-separated)" in err and err.rstrip().endswith("choose --format trec") and "\\t" not in err
