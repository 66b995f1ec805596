"""`ndcg compare` as a reviewer reads it (issue 36, items 5 to 8): ties at K in the runs table, one caption that
says one thing about the scale, superscripts said to be corrected and kept in line, and the rounded differences
exported so that scipy reproduces every Wilcoxon p-value."""

from __future__ import annotations

import csv
import json
import re
from math import log2
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sp
from sklearn.metrics import ndcg_score

from ndcg_desktop.cli.main import main

UNIVERSE = {"A": 3, "B": 2, "C": 1, "D": 0, "E": 0}
QUERIES = [f"q{i}" for i in range(1, 13)]
TIED = set(QUERIES[:9])  # B and C tie across K=2 in nine of the twelve queries


def _write_tie_case(folder: Path) -> tuple[Path, Path, Path]:
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q in QUERIES for d, g in UNIVERSE.items()))
    tied, plain = folder / "tied.run", folder / "plain.run"
    rows_tied, rows_plain = [], []
    for q in QUERIES:
        scores = {"A": 5.0, "B": 4.0, "C": 4.0 if q in TIED else 3.0, "D": 2.0, "E": 1.0}
        rows_tied += [f"{q} Q0 {d} 0 {s!r} tied\n" for d, s in scores.items()]
        rows_plain += [f"{q} Q0 {d} {r} {10 - r} plain\n" for r, d in enumerate(["A", "D", "B", "C", "E"], 1)]
    tied.write_text("".join(rows_tied))
    plain.write_text("".join(rows_plain))
    return qrels, tied, plain


def _sklearn_mean(tied: Path, k: int) -> float:
    """scikit-learn's tie-averaged nDCG@k of the run file, query by query (every query returns the whole universe,
    so sklearn's ranking of the unreturned has nothing to rank: tests/scoring/test_tie_averaged.py)."""
    per: dict[str, dict[str, float]] = {}
    for line in tied.read_text().splitlines():
        q, _, d, _, s, _ = line.split()
        per.setdefault(q, {})[d] = float(s)
    docs = sorted(UNIVERSE)
    values = [
        ndcg_score([[UNIVERSE[d] for d in docs]], [[per[q][d] for d in docs]], k=k, ignore_ties=False) for q in per
    ]
    return float(np.mean(values))


def test_ties_at_k_are_in_the_runs_table_of_every_output_with_a_warning(tmp_path, capsys):
    qrels, tied, plain = _write_tie_case(tmp_path)
    args = ["compare", "--qrels", str(qrels), "--runs", str(tied), str(plain), "--k", "2,5", "--resamples", "200"]
    assert main([*args, "--json", "--export", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    row = next(r for r in doc["runs"] if r["run"] == "tied" and r["k"] == 2)
    idcg = 3 / log2(2) + 2 / log2(3)
    # trec_eval's tie order (document ID descending): C before B at position 2; tie-averaged: (2 + 1) / 2 there
    broken = (len(TIED) * (3 + 1 / log2(3)) + (len(QUERIES) - len(TIED)) * (3 + 2 / log2(3))) / idcg / len(QUERIES)
    averaged = (len(TIED) * (3 + 1.5 / log2(3)) + (len(QUERIES) - len(TIED)) * (3 + 2 / log2(3))) / idcg / 12
    assert row["mean"] == pytest.approx(broken, abs=1e-12)
    assert row["queries_with_tie_at_k"] == len(TIED)
    assert row["tie_averaged_mean"] == pytest.approx(averaged, abs=1e-12)
    assert row["tie_averaged_mean"] == pytest.approx(_sklearn_mean(tied, 2), abs=1e-12)
    # K=5: the tie is inside the top K, straddling nothing, and still the policy's order of B and C counts
    at_5 = next(r for r in doc["runs"] if r["run"] == "tied" and r["k"] == 5)
    idcg_5 = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    tail = (len(QUERIES) - len(TIED)) / len(QUERIES)  # the queries without the tie score 1
    broken_5 = len(TIED) / len(QUERIES) * (3 + 1 / log2(3) + 2 / log2(4)) / idcg_5 + tail
    averaged_5 = len(TIED) / len(QUERIES) * (3 + 1.5 / log2(3) + 1.5 / log2(4)) / idcg_5 + tail
    assert at_5["queries_with_tie_at_k"] == 0
    assert (at_5["mean"], at_5["tie_averaged_mean"]) == pytest.approx((broken_5, averaged_5), abs=1e-12)
    assert at_5["tie_averaged_mean"] == pytest.approx(_sklearn_mean(tied, 5), abs=1e-12)
    warning = (
        f"K=2 tied: mean {broken:.4f} under the tie policy (docid-desc), {averaged:.4f} tie-averaged: equal scores "
        "in the top K change it as the policy orders them (a tie straddles K in 9 of the 12 queries of its mean)"
    )
    warning_5 = warning.replace("K=2", "K=5").replace(f"{broken:.4f}", f"{broken_5:.4f}")
    warning_5 = warning_5.replace(f"{averaged:.4f}", f"{averaged_5:.4f}").replace("in 9 of", "in 0 of")
    assert doc["warnings"] == [warning, warning_5] and doc["manifest"]["warnings"] == doc["warnings"]
    assert not any("plain" in w for w in doc["warnings"])  # no tie in the plain run: no warning
    assert f"warning: {warning}" in captured.err
    out = tmp_path / "out"
    with open(out / "runs.csv", newline="") as f:
        csv_row = next(r for r in csv.DictReader(f) if r["run"] == "tied" and r["k"] == "2")
    assert int(csv_row["queries_with_tie_at_k"]) == 9
    assert float(csv_row["tie_averaged_mean"]) == row["tie_averaged_mean"]
    openpyxl = pytest.importorskip("openpyxl")
    sheet = openpyxl.load_workbook(out / "comparison.xlsx")["runs"]
    header = [c.value for c in next(sheet.iter_rows(max_row=1))]
    first = dict(zip(header, next(sheet.iter_rows(min_row=2, values_only=True)), strict=True))
    assert (first["queries_with_tie_at_k"], first["tie_averaged_mean"]) == (9, row["tie_averaged_mean"])
    markdown = (out / "runs.md").read_text()
    assert markdown.splitlines()[0] == (
        "| run | nDCG@2 | tie-averaged@2 (queries with a tie at K) "
        "| nDCG@5 | tie-averaged@5 (queries with a tie at K) |"
    )
    assert re.search(rf"^\| a tied \| {broken:.4f}(<sup>b</sup>)? \[[^|]*\| {averaged:.4f} \(9\) \|", markdown, re.M)
    assert f"& {averaged:.4f} (9) &" in (out / "runs.tex").read_text()
    assert main(args) == 0  # the text: two columns, and the warning under its runs table (not twice)
    captured = capsys.readouterr()
    text = captured.out
    table = text.split("\n\n")[0].splitlines()
    assert warning_5 in text
    assert "ties@K" in table[1] and "tie-avg." in table[1]
    assert re.search(rf"^a  tied .*\s9\s+{averaged:.4f}\s+\[", table[3])
    assert table[-1] == f"warning: {warning}" and warning not in captured.err


def test_the_caption_says_one_thing_about_the_scale(tmp_path, capsys):
    """Issue 36 item 6: "scale=0..3" and "unjudged as grade 2 (no --scale given)" side by side read as two scales."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 A 2\n{q} 0 B 1\n" for q in (1, 2)))
    run_a, run_b = tmp_path / "a.run", tmp_path / "b.run"
    run_a.write_text("".join(f"{q} Q0 X 1 3 a\n{q} Q0 A 2 2 a\n" for q in (1, 2)))
    run_b.write_text("".join(f"{q} Q0 A 1 3 b\n" for q in (1, 2)))
    base = ["compare", "--qrels", str(qrels), "--runs", str(run_a), str(run_b), "--unjudged", "zero"]
    assert main([*base, "--resamples", "200", "--export", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    said = (
        "scale=0..3); 95% bootstrap CI",
        "no scale given: grades checked against the default scale 0..3; upper bound: unjudged as grade 2, the highest "
        "grade in the judgments (not the default scale's top, 3)",
    )
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    for caption in (text, manifest["settings_line"], (tmp_path / "out" / "runs.md").read_text().replace("\\", "")):
        assert all(part in caption for part in said), caption
        assert "no --scale given" not in caption
    assert main([*base, "--resamples", "200", "--scale", "0..3"]) == 0
    assert "no scale given" not in capsys.readouterr().out


def _ladder(folder: Path, runs: int, queries: int = 6) -> tuple[Path, list[Path]]:
    """Run r returns the universe's best document at rank r + 1 of every query: each run beats every later one by
    the same amount on every query (the t-test's limit p = 0), so the first run's superscript names all the others."""
    docs = [f"d{i}" for i in range(runs)]
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 {d} {3 if d == 'd0' else 0}\n" for q in range(queries) for d in docs))
    paths = []
    for r in range(runs):
        order = [d for d in docs if d != "d0"]
        order.insert(r, "d0")
        path = folder / f"run{r}.run"
        lines = [f"q{q} Q0 {d} {i + 1} {runs - i} r{r}\n" for q in range(queries) for i, d in enumerate(order)]
        path.write_text("".join(lines))
        paths.append(path)
    return qrels, paths


def test_superscripts_are_said_to_be_corrected_and_keep_the_ci_column_in_line(tmp_path, capsys):
    """Issue 36 item 7: ranx's superscripts are uncorrected, ours Holm's; seven letters pushed the CI column out.
    (Six queries: scipy's Wilcoxon over equal differences is a permutation test, slow over more.)"""
    qrels, runs = _ladder(tmp_path, 8)
    args = ["compare", "--qrels", str(qrels), "--runs", *map(str, runs), "--k", "8", "--resamples", "200"]
    assert main([*args, "--export", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    heading = (
        "superscripts: the runs it beats significantly (paired t test, p-values Holm-corrected over the pairs at "
        "each K, below alpha 0.05; ranx's look-alike superscripts are not corrected)"
    )
    lines = text.splitlines()
    assert lines[0] == f"nDCG@8: mean over queries, 95% CI (bca); {heading}"
    rows = lines[3 : 3 + len(runs)]
    assert "0.0000ᵇᶜᵈᵉᶠᵍʰ" in rows[0] or "1.0000ᵇᶜᵈᵉᶠᵍʰ " in rows[0]  # run a beats the seven others
    assert len({row.index("[") for row in rows}) == 1, "\n".join(rows)
    assert len({row.index("[") for row in rows} | {lines[1].index("CI")}) == 1
    for name in ("runs.md", "runs.tex"):
        assert "Holm-corrected" in (tmp_path / "out" / name).read_text().replace("\\", ""), name
    assert main([*args, "--correction", "none"]) == 0
    assert "p-values not corrected for multiple comparisons, below alpha 0.05, as ranx's" in capsys.readouterr().out


def test_the_rounded_differences_are_exported_and_reproduce_the_wilcoxon_p_values(data_dir, tmp_path, capsys):
    """Issue 36 item 8: scipy.stats.wilcoxon on the exported differences gives every p_wilcoxon exactly."""
    folder = data_dir / "cranfield"
    runs = [folder / f"{name}.run.gz" for name in ("bm25", "tfidf", "chunks")]
    args = ["compare", "--qrels", str(folder / "qrels.txt"), "--runs", *map(str, runs), "--k", "5,10"]
    args += ["--scale", "0..4", "--unjudged", "zero", "--unknown-queries", "ignore", "--id-map", "#"]
    args += ["--duplicates", "first", "--resamples", "200", "--json", "--export", str(tmp_path / "out")]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "paired t test on b - a rounded to 1e-12" in doc["manifest"]["settings_line"]
    with open(tmp_path / "out" / "differences.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["k", "a", "b", "query_id", "difference"]
    assert {(r["k"], r["a"], r["b"]) for r in rows} == {(str(p["k"]), p["a"], p["b"]) for p in doc["pairs"]}
    for pair in doc["pairs"]:
        d = [float(r["difference"]) for r in rows if (r["k"], r["a"], r["b"]) == (str(pair["k"]), pair["a"], pair["b"])]
        assert len(d) == pair["queries"]
        assert float(sp.wilcoxon(d).pvalue) == pair["p_wilcoxon"], pair
        assert float(sp.ttest_1samp(d, 0.0).pvalue) == pair["p_t"], pair
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(tmp_path / "out" / "comparison.xlsx")
    assert "differences" in book.sheetnames
    assert book["differences"].max_row == len(rows) + 1
