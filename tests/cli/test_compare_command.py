"""`ndcg compare` as a user runs it: Cranfield's three runs, trec_eval's test files, a project, refusals, exports."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from scipy import stats as sp

from ndcg_desktop.cli.main import main
from ndcg_desktop.demo import build_demo

TOL = 1e-12
CRANFIELD_OPTIONS = ["--scale", "0..4", "--unjudged", "zero", "--unknown-queries", "ignore"]
CHUNKS = ["--id-map", "#", "--duplicates", "first"]  # chunk IDs map to documents; repeated parents keep the first


def _score(capsys, args: list[str]) -> dict:
    assert main(["score", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _compare(capsys, args: list[str]) -> dict:
    assert main(["compare", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def cranfield(data_dir: Path) -> tuple[Path, list[Path]]:
    folder = data_dir / "cranfield"
    return folder / "qrels.txt", [folder / f"{name}.run.gz" for name in ("bm25", "tfidf", "chunks")]


def test_cranfield_three_runs_two_cutoffs_agree_with_ndcg_score_and_scipy(cranfield, capsys):
    qrels, runs = cranfield
    common = [*CRANFIELD_OPTIONS, *CHUNKS]
    doc = _compare(
        capsys,
        [
            "--qrels",
            str(qrels),
            "--runs",
            *map(str, runs),
            "--run-names",
            "bm25",
            "tfidf",
            "chunks",
            "--k",
            "5,10",
            *common,
            "--resamples",
            "500",
        ],
    )
    assert [(r["letter"], r["run"], r["k"]) for r in doc["runs"]] == [
        ("a", "bm25", 5),
        ("b", "tfidf", 5),
        ("c", "chunks", 5),
        ("a", "bm25", 10),
        ("b", "tfidf", 10),
        ("c", "chunks", 10),
    ]
    per_query = {}
    for row in doc["runs"]:  # every mean is the one `ndcg score` gives under the same choices
        run = next(p for p in runs if p.name.startswith(row["run"] + "."))
        scored = _score(capsys, ["--qrels", str(qrels), "--run", str(run), "--k", str(row["k"]), *common])
        assert row["mean"] == scored["summary"]["mean_ndcg"]
        assert row["pooled"] == scored["summary"]["pooled_ndcg"]
        assert row["queries"] == scored["summary"]["queries_in_mean"] == 225
        assert row["ci_low"] < row["mean"] < row["ci_high"]
        per_query[row["run"], row["k"]] = np.array([q["ndcg"] for q in scored["queries"]])
        judged = [
            (min(q["returned"], row["k"]) - q["unjudged_in_top_k"]) / row["k"] for q in scored["queries"]
        ]  # ir_measures' Judged@K
        assert abs(row["judged_at_k"] - sum(judged) / len(judged)) <= TOL
    # Cranfield's published figures (tests/data/SOURCES.md)
    assert [round(r["mean"], 4) for r in doc["runs"] if r["k"] == 10][:2] == [0.5105, 0.4725]
    assert [(p["k"], p["a"], p["b"]) for p in doc["pairs"]] == [
        (k, a, b) for k in (5, 10) for a, b in (("bm25", "tfidf"), ("bm25", "chunks"), ("tfidf", "chunks"))
    ]
    for pair in doc["pairs"]:
        a, b = per_query[pair["a"], pair["k"]], per_query[pair["b"], pair["k"]]
        d = np.round(b - a, 12)  # the tests take the differences to the tolerance wins/ties/losses use
        assert abs(pair["p_t"] - sp.ttest_rel(d, np.zeros_like(d)).pvalue) <= TOL
        assert abs(pair["p_wilcoxon"] - sp.wilcoxon(d).pvalue) <= TOL
        assert abs(pair["difference"] - float(np.mean(b - a))) <= TOL
        assert (pair["wins"], pair["ties"], pair["losses"]) == (
            int(np.sum(b - a > 1e-12)),
            int(np.sum(np.abs(b - a) <= 1e-12)),
            int(np.sum(b - a < -1e-12)),
        )
    # bm25 beats both others significantly at K=10 (p(t) < 1e-6 each), tfidf and chunks do not differ
    at10 = {r["run"]: r["superscript"] for r in doc["runs"] if r["k"] == 10}
    assert at10 == {"bm25": "bc", "tfidf": "", "chunks": ""}
    statistics = doc["manifest"]["statistics"]
    assert (statistics["resamples"], statistics["seed"], statistics["test"], statistics["correction"]) == (
        500,
        0,
        "t",
        "holm",
    )
    assert [r["settings"]["10"] for r in doc["manifest"]["runs"]][2].endswith('id_map="#")')
    assert all("unjudged=zero" in r["settings"]["5"] for r in doc["manifest"]["runs"])  # the choice, per run


def test_trec_eval_test_files_baseline_and_exact_randomization(data_dir, tmp_path, capsys):
    """results.test against its own ranking reversed, on qrels.rel_level: means are trec_eval's; 3 topics: exact test.

    (results.trunc, the other run there, carries junk columns that every reader refuses.)
    """
    folder = data_dir / "trec_eval_test"
    reversed_run = tmp_path / "reversed.test"
    lines = (folder / "results.test").read_text().splitlines()
    reversed_run.write_text("".join(f"{q} {z} {d} {r} {-float(s)} rev\n" for q, z, d, r, s, _ in map(str.split, lines)))
    qrels, runs = folder / "qrels.rel_level", [folder / "results.test", reversed_run]
    doc = _compare(
        capsys,
        [
            "--qrels",
            str(qrels),
            "--runs",
            *map(str, runs),
            "--run-names",
            "results",
            "reversed",
            "--k",
            "10,100",
            "--scale",
            "-1..4",
            "--unjudged",
            "zero",
            "--baseline",
            "results",
            "--test",
            "randomization",
        ],
    )
    with open(qrels) as f:
        judged = pytrec_eval.parse_qrel(f)
    evaluator = pytrec_eval.RelevanceEvaluator(judged, {"ndcg_cut.10,100"})
    scores = {}
    for path, name in zip(runs, ("results", "reversed"), strict=True):
        with open(path) as f:
            per = evaluator.evaluate(pytrec_eval.parse_run(f))
        for k in (10, 100):
            scores[name, k] = np.array([per[q][f"ndcg_cut_{k}"] for q in sorted(per)])
    for row in doc["runs"]:
        assert abs(row["mean"] - scores[row["run"], row["k"]].mean()) <= TOL
    for pair in doc["pairs"]:
        assert pair["a"] == "results"  # the baseline
        d = scores[pair["b"], pair["k"]] - scores[pair["a"], pair["k"]]
        nonzero = d[d != 0]
        # exact: 2^3 sign patterns; count those at least as extreme on each side (the observed is one of them)
        signs = np.array([[1 - 2 * ((i >> j) & 1) for j in range(3)] for i in range(8)])
        null = (signs * d).mean(axis=1)
        expected = min(1.0, 2 * min(np.sum(null <= d.mean() + 1e-13), np.sum(null >= d.mean() - 1e-13)) / 8)
        if len(nonzero):
            assert abs(pair["p_randomization"] - expected) <= TOL
        else:
            assert pair["p_randomization"] is None  # nothing to test: null in JSON, never a made-up 1.0


def test_project_runs_compare_like_files(tmp_path, capsys):
    demo = build_demo(tmp_path / "demo.ndcgproj")
    doc = _compare(
        capsys,
        ["--project", str(demo), "--run-names", "bm25", "dense", "--k", "3,10", "--unjudged", "zero", "--seed", "7"],
    )
    for row in doc["runs"]:
        scored = _score(
            capsys, ["--project", str(demo), "--run-name", row["run"], "--k", str(row["k"]), "--unjudged", "zero"]
        )
        assert row["mean"] == scored["summary"]["mean_ndcg"]
    assert doc["manifest"]["judgments"]["pool_version"] >= 1
    assert doc["manifest"]["statistics"]["seed"] == 7
    again = _compare(
        capsys,
        ["--project", str(demo), "--run-names", "bm25", "dense", "--k", "3,10", "--unjudged", "zero", "--seed", "7"],
    )
    assert again["runs"] == doc["runs"] and again["pairs"] == doc["pairs"]  # bit for bit from the seed


def test_refusals_are_one_line(cranfield, capsys, write):
    qrels, runs = cranfield
    # the runs hold unjudged documents: no policy, no comparison (the first run file and line are named)
    assert main(["compare", "--qrels", str(qrels), "--runs", *map(str, runs[:2]), "--scale", "0..4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {runs[0]}:") and "choose --unjudged" in err
    base = ["compare", "--qrels", str(qrels), "--runs", *map(str, runs[:2]), *CRANFIELD_OPTIONS]
    for extra, message in (
        (["--baseline", "bm26"], "the baseline bm26 is not one of the runs compared (bm25, tfidf)"),
        (["--k", "5,x"], "--k takes positive whole numbers"),
        (["--k", "5,5"], "--k names 5 twice"),
    ):
        assert main(base + extra) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    with pytest.raises(SystemExit, match="2"):  # a number out of bounds is the parser's refusal, naming the option
        main([*base, "--resamples", "3"])
    assert "argument --resamples: --resamples must be a whole number from 100" in capsys.readouterr().err
    assert main(["compare", "--qrels", str(qrels), "--runs", str(runs[0]), *CRANFIELD_OPTIONS]) == 2
    assert "at least two runs" in capsys.readouterr().err


def test_text_report_and_export(cranfield, tmp_path, capsys):
    qrels, runs = cranfield
    out = tmp_path / "cmp"
    args = ["--qrels", str(qrels), "--runs", *map(str, runs[:2]), "--k", "10", *CRANFIELD_OPTIONS, "--resamples", "300"]
    assert main(["compare", *args, "--export", str(out)]) == 0
    text = capsys.readouterr().out
    assert "a  bm25   0.5105ᵇ " in text and "b  tfidf  0.4725  " in text
    assert "300 resamples, seed 0; paired t test on b - a rounded to 1e-12, holm correction, alpha 0.05" in text
    assert sorted(p.name for p in out.iterdir()) == [
        "comparison.xlsx",
        "differences.csv",
        "manifest.json",
        "pairs.csv",
        "per_query.csv",
        "runs.csv",
        "runs.md",
        "runs.tex",
        "significance.csv",
    ]
    manifest = json.loads((out / "manifest.json").read_text())
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    with open(out / "per_query.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 225 and {r["run"] for r in rows} == {"bm25", "tfidf"}
    with open(out / "runs.csv", newline="") as f:
        runs_rows = list(csv.DictReader(f))
    assert [round(float(r["mean"]), 4) for r in runs_rows] == [0.5105, 0.4725]


def test_bounds_from_unjudged_documents_in_the_runs_table(cranfield, capsys):
    """Under condense the bounds still read the run as returned: the low reading is `ndcg score --unjudged zero`."""
    qrels, runs = cranfield
    options = ["--scale", "0..4", "--unknown-queries", "ignore", "--k", "10", "--resamples", "200"]
    doc = _compare(capsys, ["--qrels", str(qrels), "--runs", *map(str, runs[:2]), *options, "--unjudged", "condense"])
    for row in doc["runs"]:
        run = next(p for p in runs if p.name.startswith(row["run"] + "."))
        zero = _score(capsys, ["--qrels", str(qrels), "--run", str(run), *options[:-2], "--unjudged", "zero"])
        condensed = _score(capsys, ["--qrels", str(qrels), "--run", str(run), *options[:-2], "--unjudged", "condense"])
        assert row["mean"] == condensed["summary"]["mean_ndcg"]
        assert abs(row["bound_low"] - zero["summary"]["mean_ndcg"]) <= TOL
        assert row["bound_high"] > row["mean"] > row["bound_low"]
        assert abs(row["bound_gap"] - (row["bound_high"] - row["bound_low"])) <= TOL
    assert main(["compare", "--qrels", str(qrels), "--runs", *map(str, runs[:2]), *options, "--unjudged", "zero"]) == 0
    text = capsys.readouterr().out
    assert "bounds from unjudged" in text and "[0.5105, 0.93" in text


def test_workbook_of_a_comparison(cranfield, tmp_path, capsys):
    """One sheet per table, numbers typed and exact, a hostile run name neutralised as in CSV."""
    openpyxl = pytest.importorskip("openpyxl")  # in the test extra: never skipped there
    qrels, runs = cranfield
    hostile = tmp_path / "=cmd.run.gz"
    hostile.write_bytes(runs[1].read_bytes())
    args = ["--qrels", str(qrels), "--runs", str(runs[0]), str(hostile), "--run-names", "bm25", "=cmd"]
    args += ["--k", "5,10", *CRANFIELD_OPTIONS]
    doc = _compare(capsys, [*args, "--resamples", "300", "--export", str(tmp_path / "out")])
    book = openpyxl.load_workbook(tmp_path / "out" / "comparison.xlsx")
    assert book.sheetnames == ["runs", "a bm25", "b =cmd", "comparison", "significance", "differences", "manifest"]
    sheet = book["runs"]
    header = [c.value for c in next(sheet.iter_rows(max_row=1))]
    rows = [dict(zip(header, (c for c in r), strict=True)) for r in sheet.iter_rows(min_row=2)]
    assert [r["run"].value for r in rows] == ["bm25", "'=cmd", "bm25", "'=cmd"]  # as CSV neutralises it
    for row, expected in zip(rows, doc["runs"], strict=True):
        for column in ("mean", "ci_low", "ci_high", "pooled", "judged_at_k", "bound_low", "bound_high"):
            assert row[column].data_type == "n" and row[column].value == expected[column], column
        assert row["queries"].value == 225
    last = openpyxl.utils.get_column_letter(len(header))
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == f"A1:{last}5"
    per_run = list(book["a bm25"].iter_rows(min_row=2, values_only=True))
    assert len(per_run) == 2 * 225
    pairs = [
        dict(zip(doc["pairs"][0], r, strict=False)) for r in book["comparison"].iter_rows(min_row=2, values_only=True)
    ]
    assert [p["p_t"] for p in pairs] == [p["p_t"] for p in doc["pairs"]]
    manifest = dict(book["manifest"].iter_rows(min_row=2, values_only=True))
    assert (manifest["statistics.resamples"], manifest["statistics.seed"]) == ("300", "0")


def _constant_case(folder: Path, queries: int) -> tuple[Path, list[Path]]:
    """Per query the universe A=3, B=0; run ``ideal`` returns [A] (nDCG 1), run ``late`` [B, A] (nDCG
    (3/log2(3)) / 3), run ``late_too`` the same as ``late``: every query differs by the same amount."""
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 A 3\n{q} 0 B 0\n" for q in range(1, queries + 1)))
    runs = []
    for name, ranking in (("ideal", ["A"]), ("late", ["B", "A"]), ("late_too", ["B", "A"])):
        path = folder / f"{name}.run"
        lines = [f"{q} Q0 {d} {r} {10 - r} {name}\n" for q in range(1, queries + 1) for r, d in enumerate(ranking, 1)]
        path.write_text("".join(lines))
        runs.append(path)
    return qrels, runs


@pytest.mark.parametrize("queries", [12, 5])
def test_the_same_difference_on_every_query_is_a_limit_and_identical_runs_give_reasons(tmp_path, capsys, queries):
    """Issue 26: 12 queries each +0.369 made `ndcg compare` exit 1 with a traceback (queries_needed); 5 such
    queries showed p(t) as n/a while scipy gives t = inf, p = 0."""
    qrels, runs = _constant_case(tmp_path, queries)
    assert main(["compare", "--qrels", str(qrels), "--runs", *map(str, runs), "--json", "--resamples", "200"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    step = 1 - (3 / np.log2(3)) / 3  # nDCG of [A] minus nDCG of [B, A]
    late, same = (
        next(p for p in doc["pairs"] if (p["a"], p["b"]) == pair) for pair in (("ideal", "late"), ("late", "late_too"))
    )
    assert abs(late["difference"] + step) <= TOL and late["wins"] == 0 and late["losses"] == queries
    d = np.round(np.full(queries, -step), 12)
    assert late["p_t"] == 0.0 and late["p_t_reason"].startswith("limit: every query differs by the same -0.369")
    assert late["p_t_corrected"] == 0.0 and late["significant"] is True
    assert late["p_wilcoxon"] == sp.wilcoxon(d).pvalue and late["p_wilcoxon_reason"] is None
    for figure in ("cohens_dz", "queries_needed"):
        assert late[figure] is None and "no spread" in late[figure + "_reason"]
    for figure in ("p_t", "p_wilcoxon", "p_randomization", "cohens_dz", "queries_needed"):
        assert same[figure] is None, figure
        assert same[figure + "_reason"].startswith("the two runs score the same on every query"), figure
    assert same["significant"] is False
    warned = [line for line in captured.err.splitlines() if line.startswith("warning:")]
    if queries < 10:
        assert len(warned) == 1 and f"fewer than 10 queries: ideal vs late ({queries})" in warned[0]
        assert doc["warnings"] == doc["manifest"]["warnings"] == [warned[0].removeprefix("warning: ")]
    else:
        assert warned == [] and doc["warnings"] == []
    assert main(["compare", "--qrels", str(qrels), "--runs", *map(str, runs), "--resamples", "200"]) == 0
    text = capsys.readouterr().out
    assert "0 (lim.)" in text and "n/a and limits:" in text
    assert "K=10 late_too - late: d_z, p(t), p(Wilcoxon), p(randomization), queries needed: the two runs" in text


def test_runs_are_named_after_their_run_tag_else_their_file_and_run_names_name_them(tmp_path, capsys):
    """TREC's own files are input.<tag>.gz: named after the tag when every line gives it; else the file name
    without .gz and its extension; --run-names names them in order."""
    import gzip

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 A 1\n2 0 A 1\n")
    lines = ["1 Q0 A 1 2.0 {}\n", "2 Q0 A 1 2.0 {}\n"]
    tagged = tmp_path / "input.uogTr1.gz"
    tagged.write_bytes(gzip.compress("".join(line.format("uogTr1") for line in lines).encode()))
    mixed = tmp_path / "input.mixed.gz"
    mixed.write_bytes(gzip.compress("".join(line.format(t) for line, t in zip(lines, "xy", strict=True)).encode()))
    table = tmp_path / "dense.v2.csv"
    table.write_text("query_id,doc_id,score\n1,A,1\n2,A,1\n")
    args = [
        "compare",
        "--qrels",
        str(qrels),
        "--resamples",
        "200",
        "--json",
        "--runs",
        *map(str, (tagged, mixed, table)),
    ]
    assert main(args) == 0
    assert [r["run"] for r in json.loads(capsys.readouterr().out)["runs"]] == ["uogTr1", "input", "dense.v2"]
    assert main([*args, "--run-names", "one", "two", "three"]) == 0
    assert [r["run"] for r in json.loads(capsys.readouterr().out)["runs"]] == ["one", "two", "three"]
    for names, why in (
        (["one", "two"], "--run-names gives 2 names for 3 run files"),
        (["x", "y", "x"], "names x twice"),
    ):
        assert main([*args, "--run-names", *names]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and why in err and len(err.strip().splitlines()) == 1


def test_upper_bound_without_scale_takes_the_highest_grade_in_the_judgments(tmp_path, capsys):
    """A qrels graded 0..2 read against the default 0..3: the unjudged document's upper reading is grade 2,
    and the settings line says so; with --scale 0..3 it is grade 3."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 A 2\n{q} 0 B 1\n" for q in (1, 2)))
    run_a, run_b = tmp_path / "a.run", tmp_path / "b.run"
    run_a.write_text("".join(f"{q} Q0 X 1 3 a\n{q} Q0 A 2 2 a\n" for q in (1, 2)))  # X unjudged at rank 1
    run_b.write_text("".join(f"{q} Q0 A 1 3 b\n" for q in (1, 2)))
    base = ["compare", "--qrels", str(qrels), "--runs", str(run_a), str(run_b), "--unjudged", "zero"]
    base += ["--resamples", "200", "--json"]
    for extra, top in (([], 2), (["--scale", "0..3"], 3)):
        assert main([*base, *extra]) == 0
        doc = json.loads(capsys.readouterr().out)
        a = next(r for r in doc["runs"] if r["run"] == "a")
        # universe A=2, B=1 plus X at grade `top`; ranking [X, A]; K=10 (linear gain)
        upper = (top / np.log2(2) + 2 / np.log2(3)) / (top / np.log2(2) + 2 / np.log2(3) + 1 / np.log2(4))
        assert abs(a["bound_high"] - upper) <= TOL
        line = doc["manifest"]["settings_line"]
        said = "upper bound: unjudged as grade 2, the highest grade in the judgments (not the default scale's top, 3)"
        assert (said in line) is (not extra)


def test_two_run_files_of_one_name_are_named_with_run_names(cranfield, tmp_path, capsys):
    """Issue 24 item 14: two runs named bm25 were told to rename, with no way to; --run-names names run files."""
    qrels, runs = cranfield
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bm25.run.gz").write_bytes(runs[0].read_bytes())
    both = [str(tmp_path / "a" / "bm25.run.gz"), str(tmp_path / "b" / "bm25.run.gz")]
    base = ["compare", "--qrels", str(qrels), "--runs", *both, *CRANFIELD_OPTIONS, "--resamples", "200"]
    assert main(base) == 2
    assert capsys.readouterr().err == (
        "error: two runs are named bm25.run.gz; give each its own name with --run-names\n"
    )
    doc = _compare(capsys, [*base[1:], "--run-names", "bm25-a", "bm25-b"])
    assert sorted({r["run"] for r in doc["runs"]}) == ["bm25-a", "bm25-b"]
    for given, said in (
        (["only-one"], "--run-names gives 1 name for 2 run files; give one per file"),
        (["x", "x"], "--run-names names x twice; give each run its own name"),
        (["x", "y\tz"], "run name 'y\\tz' contains U+0009 (tab)"),
    ):
        assert main([*base, "--run-names", *given]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
