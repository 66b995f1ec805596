"""The .xlsx workbook, read back with openpyxl; the Markdown and LaTeX runs tables."""

from __future__ import annotations

import numpy as np
import openpyxl
import pandas as pd

from ndcg_desktop.formats.export import neutralise_text
from ndcg_desktop.formats.workbook import latex_escape, runs_latex, runs_markdown, sheet_name, write_workbook

HOSTILE = ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", "d1\n=1+1", "plain"]


def test_numbers_are_typed_cells_at_full_precision_and_text_is_neutralised(tmp_path):
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.random(500), [0.1 + 0.2, 1 / 3, 1e-300, 123456789.123456789, -0.0]])
    # a quarter of random doubles need 17 significant digits: xlsxwriter's own 16 would change them
    assert sum(float(f"{v:.16g}") != v for v in values) > 50
    frame = pd.DataFrame(
        {"query_id": [HOSTILE[i % len(HOSTILE)] for i in range(len(values))], "ndcg": values, "n": range(len(values))}
    )
    frame["=header"] = 1
    path = write_workbook(tmp_path / "t.xlsx", {"per query": frame, "runs/v2": frame.head(3)})
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["per query", "runs_v2"]
    sheet = book["per query"]
    rows = list(sheet.iter_rows())
    assert [c.value for c in rows[0]] == ["query_id", "ndcg", "n", neutralise_text("=header")]
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == f"A1:D{len(values) + 1}"
    for row, expected in zip(rows[1:], frame.itertuples(index=False), strict=True):
        text, number, count = row[0], row[1], row[2]
        assert text.data_type == "s" and text.value == neutralise_text(expected.query_id)  # never "f"
        assert number.data_type == "n" and number.value == expected.ndcg  # the same double, bit for bit
        assert count.data_type == "n" and count.value == expected.n
    assert not any(c.data_type == "f" for r in rows for c in r)
    assert [r[0].value for r in rows[1:7]] == [
        '\'=HYPERLINK("http://x")',
        "'+1",
        "'-2+3",
        "'@SUM(A1)",
        "d1\n'=1+1",
        "plain",
    ]


def test_sheet_names_are_valid_and_distinct():
    assert sheet_name("x" * 40) == "x" * 15 + "…" + "x" * 15  # 31 characters, cut in the middle
    assert sheet_name("a:b*c?", ["a_b_c_"]) == "a_b_c_ 2"
    assert sheet_name("Runs", ["runs"]) == "Runs 2"  # Excel compares sheet names without case


def test_long_run_names_give_sheet_names_that_read_apart():
    """Issue 36 item 7: cut at 31 characters, two runs of TREC 2021's baselines read "a 2021_baselines_document_runs_"
    and "b 2021_baselines_document_runs_": the end that tells them apart is kept."""
    names = ["a 2021_baselines_document_runs_bm25", "b 2021_baselines_document_runs_bm25_rm3"]
    sheets: list[str] = []
    for name in names:
        sheets.append(sheet_name(name, sheets))
    assert all(len(sheet) <= 31 for sheet in sheets)
    assert sheets[0].endswith("_bm25") and sheets[1].endswith("_bm25_rm3")
    assert sheets[0][2:] != sheets[1][2:]  # not only the letter differs
    assert sheet_name(names[0], [sheets[0]]).endswith(" 2") and len(sheet_name(names[0], [sheets[0]])) <= 31


RUNS = pd.DataFrame(
    {
        "letter": ["a", "b", "a", "b"],
        "run": ["bm25_v2", "50% | dense", "bm25_v2", "50% | dense"],
        "k": [5, 5, 10, 10],
        "mean": [0.5, 0.25, 0.6, 0.125],
        "ci_low": [0.4, 0.2, 0.5, 0.1],
        "ci_high": [0.6, 0.3, 0.7, 0.15],
        "superscript": ["b", "", "b", ""],
    }
)


def test_markdown_runs_table():
    text = runs_markdown(RUNS, "settings")
    assert text.splitlines()[:4] == [
        "| run | nDCG@5 | nDCG@10 |",
        "|---|---:|---:|",
        "| a bm25\\_v2 | 0.5000<sup>b</sup> [0.4000, 0.6000] | 0.6000<sup>b</sup> [0.5000, 0.7000] |",
        "| b 50% \\| dense | 0.2500 [0.2000, 0.3000] | 0.1250 [0.1000, 0.1500] |",
    ]


def test_latex_runs_table():
    text = runs_latex(RUNS, "K=5,10; 95% CI")
    assert r"a bm25\_v2 & 0.5000$^{b}$ [0.4000, 0.6000] & 0.6000$^{b}$ [0.5000, 0.7000] \\" in text
    assert r"b 50\% | dense & 0.2500 [0.2000, 0.3000] & 0.1250 [0.1000, 0.1500] \\" in text
    assert r"\caption{K=5,10; 95\% CI}" in text and text.count(r"\begin{tabular}{lrr}") == 1
    assert latex_escape("a~b^c\\d{e}") == r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d\{e\}"


def test_tie_columns_only_at_a_k_where_ties_changed_a_mean():
    """Issue 36 item 5: runs.md and runs.tex show the tie-averaged mean and the queries with a tie at K."""
    runs = RUNS.assign(queries_with_tie_at_k=[3, 0, 0, 0], tie_averaged_mean=[0.45, 0.25, 0.6, 0.125])
    text = runs_markdown(runs, "settings")
    assert text.splitlines()[:3] == [
        "| run | nDCG@5 | tie-averaged@5 (queries with a tie at K) | nDCG@10 |",
        "|---|---:|---:|---:|",
        "| a bm25\\_v2 | 0.5000<sup>b</sup> [0.4000, 0.6000] | 0.4500 (3) | 0.6000<sup>b</sup> [0.5000, 0.7000] |",
    ]
    latex = runs_latex(runs, "settings")
    assert r"\begin{tabular}{lrrr}" in latex and r"& 0.4500 (3) &" in latex
