"""`ndcg score` as a user runs it: exit codes, one-line errors, JSON, exports."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from ndcg_desktop.cli.main import main

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 sys\nq1 Q0 C 2 1.0 sys\n"


@pytest.fixture
def files(write):
    return write("qrels.txt", QRELS), write("run.txt", RUN)


def test_readable_table_states_every_setting_and_count(files, capsys):
    qrels, run = files
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert "q1" in out and "0.6173" in out
    assert "nDCG@2 mean" in out and "pooled ratio" in out
    for fragment in (
        "linear gain",
        "unjudged: reject",
        "duplicates: reject",
        "zero-IDCG: kept",
        "queries: pool",
        "ties: docid-desc",
        "2 total, 2 in the mean, 0 zero-IDCG, 0 excluded, 1 with no ranking, 0 unknown ignored",
        "0 unjudged in the top 2",
        "0 queries with a tie at K",
    ):
        assert fragment in out, fragment


def test_json_document(files, capsys):
    qrels, run = files
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for key in ("mean_ndcg", "pooled_ndcg", "queries_total", "queries_in_mean", "zero_idcg", "excluded", "no_ranking"):
        assert key in doc["summary"]
    q1 = next(q for q in doc["queries"] if q["query_id"] == "q1")
    for key in (
        "ndcg",
        "dcg",
        "idcg",
        "candidate_ndcg",
        "zero_idcg",
        "excluded",
        "no_ranking",
        "unjudged_in_top_k",
        "relevant_missed",
        "tie_at_k",
        "tie_averaged_ndcg",
    ):
        assert key in q1
    assert q1["candidate_ndcg"] == 1.0 and round(q1["ndcg"], 6) == 0.617320
    assert doc["summary"]["mean_ndcg"] == pytest.approx((q1["ndcg"] + 0.0) / 2)
    m = doc["manifest"]
    assert m["version"] and m["settings"]["k"] == 2 and m["settings"]["scale"] == "0..3"
    assert len(m["judgments"]["sha256"]) == 64 and len(m["run"]["sha256"]) == 64
    assert "rank column ignored" in m["run"]["reading"][0]


def test_refusal_is_one_line_with_file_line_and_option(write, capsys):
    qrels = write("qrels.txt", QRELS)
    run = write("run.txt", RUN + "q1 Q0 D7 3 0.5 sys\n")
    assert main(["score", "--qrels", str(qrels), "--run", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {run}:3: document D7 for query q1 is not in the judgment pool (unjudged")
    assert err.rstrip().endswith("choose --unjudged zero|condense")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--k", "0"], "argument --k: --k must be a whole number from 1 to 2147483647, not 0"),
        (["--scale", "3..0"], "grade scale 3..0 is empty"),
        (["--scale", "high"], "grade scale must look like LO..HI"),
        (["--gain", "cubic"], "invalid choice"),
    ],
)
def test_bad_options(files, capsys, args, fragment):
    qrels, run = files
    try:
        code = main(["score", "--qrels", str(qrels), "--run", str(run), *args])
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2
    assert fragment in capsys.readouterr().err


def test_negative_scale_is_accepted(write, capsys):
    """A -1..4 scale lets -1 into the file, read as trec_eval reads it (issue 33): in the pool, not judged. So the
    returned A is unjudged: refused by default (this test scored it as a judged zero before), a zero where it
    stands under ``zero`` (trec_eval), removed under ``condense`` (trec_eval -J)."""
    qrels = write("qrels.txt", "q1 0 A -1\nq1 0 B 2\n")
    run = write("run.txt", "q1 Q0 A 1 2 s\nq1 Q0 B 2 1 s\n")
    argv = ["score", "--qrels", str(qrels), "--run", str(run), "--scale", "-1..4", "--json"]
    assert main(argv) == 2
    assert f"document A for query q1 is in the pool but not judged (grade -1 at {qrels}:1, " in capsys.readouterr().err
    assert main([*argv, "--unjudged", "zero"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["queries"][0]["ndcg"] == pytest.approx((2 / 1.584962500721156) / 2)  # -1 earns no gain
    assert main([*argv, "--unjudged", "condense"]) == 0
    assert json.loads(capsys.readouterr().out)["queries"][0]["ndcg"] == 1.0


def test_export_files(files, tmp_path, capsys):
    qrels, run = files
    out = tmp_path / "out"
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "2", "--export", str(out)]) == 0
    with open(out / "per_query.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["query_id"] for r in rows] == ["q1", "q2"]
    assert float(rows[0]["ndcg"]) == pytest.approx(0.6173196815056892, abs=1e-15)  # full precision
    with open(out / "per_position.csv", encoding="utf-8", newline="") as handle:
        positions = list(csv.DictReader(handle))
    assert [p["doc_id"] for p in positions] == ["B", "C"]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["settings"]["k"] == 2
    assert not list(out.glob(".*.tmp"))  # atomic writes leave no temporaries


def test_export_neutralises_formula_cells(write, tmp_path):
    qrels = write("qrels.txt", "=cmd 0 +A 1\n")
    run = write("run.txt", "=cmd Q0 +A 1 1 s\n")
    out = tmp_path / "out"
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--export", str(out), "--json"]) == 0
    with open(out / "per_query.csv", encoding="utf-8", newline="") as handle:
        assert [row["query_id"] for row in csv.DictReader(handle)] == ["'=cmd"]
    with open(out / "per_position.csv", encoding="utf-8", newline="") as handle:
        assert [row["doc_id"] for row in csv.DictReader(handle)] == ["'+A"]


def test_missing_file_message(write, capsys):
    qrels = write("qrels.txt", QRELS)
    assert main(["score", "--qrels", str(qrels), "--run", "nope.txt"]) == 2
    assert capsys.readouterr().err == "error: nope.txt: no such file\n"


def test_python_dash_m_is_the_same_command(files):
    qrels, run = files
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_desktop", "score", "--qrels", str(qrels), "--run", str(run), "--k", "2", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert round(json.loads(result.stdout)["queries"][0]["ndcg"], 6) == 0.617320


def test_bad_input_never_shows_a_traceback(write):
    qrels = write("qrels.txt", "q1 0 A 3\nq1 0 B x\n")
    run = write("run.txt", RUN)
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_desktop", "score", "--qrels", str(qrels), "--run", str(run)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr == f"error: {qrels}:2: grade 'x' is not an integer\n"


def test_real_cranfield_reference_figures(data_dir, capsys):
    cran = data_dir / "cranfield"
    for run, expected in (("bm25.run.gz", 0.5105), ("tfidf.run.gz", 0.4725)):
        args = ["score", "--qrels", str(cran / "qrels.txt"), "--run", str(cran / run)]
        assert main([*args, "--scale", "0..4", "--unjudged", "zero", "--json"]) == 0
        assert round(json.loads(capsys.readouterr().out)["summary"]["mean_ndcg"], 4) == expected


def test_a_project_score_that_fails_to_report_records_nothing(tmp_path, capsys):
    """Its export refused, or its output unwritable: the command fails and the project has no new evaluation;
    a reader that stops reading early (`| head`) is a success, and the evaluation is recorded."""
    from ndcg_desktop.demo import build_demo
    from ndcg_desktop.store import Project

    path = build_demo(tmp_path / "demo.ndcgproj")
    args = ["score", "--project", str(path), "--run-name", "bm25", "--unjudged", "zero"]

    def recorded() -> int:
        with Project.open(path, read_only=True) as project:
            return len(project.runs.evaluations())

    before = recorded()
    occupied = tmp_path / "a file"
    occupied.write_text("not a folder")
    assert main([*args, "--export", str(occupied)]) == 2
    assert "a file" in capsys.readouterr().err and recorded() == before

    class Full:  # stdout on a full disk
        def write(self, text: str) -> int:
            return len(text)

        def flush(self) -> None:
            raise OSError(28, "No space left on device")

        def fileno(self) -> int:
            raise ValueError("no descriptor")  # as a test's capture: _drop_stdout leaves it

    class Closed(Full):  # stdout into a pipe whose reader has gone
        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    for stream, code, count in ((Full(), 2, before), (Closed(), 0, before + 1)):
        real = sys.stdout
        sys.stdout = stream
        try:
            assert main(args) == code
        finally:
            sys.stdout = real
        assert recorded() == count
    assert "cannot write the output: no space left on device" in capsys.readouterr().err
    assert main(args) == 0 and recorded() == before + 2  # and a command that reports is recorded
