"""The export writer: spreadsheet-safe CSV cells, read back with the csv module and with a spreadsheet."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.export import export_comparison, export_evaluation, neutralise_text, write_csv

# Text a hostile run or note can carry into an export: formulas after bare CR, LF, CR LF, tabs, controls.
HOSTILE = [
    'd1\r=HYPERLINK("http://x")',
    "d2\n+cmd|' /C calc'!A0",
    "d3\r\n-2+3",
    "d4\r@SUM(1)",
    "\t=1+1",
    "\r=1+1",
    "x\x0by",
    "v\u2028=1",
    '=a,"b"',
    "plain",
    "-d7",
]
FORMULA = ("=", "+", "-", "@")


def _read(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _careless_rows(path) -> list[str]:
    """Every row as a reader that ends rows at any CR or LF, quoted or not, would see it."""
    return re.split(r"\r\n|\r|\n", path.read_text(encoding="utf-8"))


def test_neutralise_text_prefixes_every_line_that_starts_a_formula():
    assert neutralise_text("a\r=b\n+c\r\n-d\r\n@e") == "a\r'=b\n'+c\r\n'-d\r\n'@e"
    assert neutralise_text("\r=x") == "'\r'=x"
    assert neutralise_text("\t=1") == "'\t=1"
    assert neutralise_text("a-b=c") == "a-b=c"  # only line starts matter


def test_hostile_text_cells_read_back_whole_and_inert(tmp_path):
    frame = pd.DataFrame({"query_id": HOSTILE, "ndcg": [0.5] * len(HOSTILE), "rank": range(len(HOSTILE))})
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    rows = _read(path)
    assert rows[0] == ["query_id", "ndcg", "rank"]
    assert [r[0] for r in rows[1:]] == [neutralise_text(t) for t in HOSTILE]  # one row per cell, nothing split
    assert [(r[1], r[2]) for r in rows[1:]] == [("0.5", str(i)) for i in range(len(HOSTILE))]
    for cell in (r[0] for r in rows[1:]):
        for line in re.split(r"\r\n|\r|\n", cell):
            assert not line.startswith(FORMULA), repr(cell)
    # A reader that splits rows at a bare CR inside quotes must not meet a formula at a row start either.
    for row in _careless_rows(path):
        assert not row.lstrip('"').startswith(FORMULA), repr(row)


def test_comparison_header_with_hostile_run_names(tmp_path):
    table = pd.DataFrame({"query_id": ["q1"], "ndcg_a": [0.5], "ndcg_b": [0.25], "difference": [-0.25]})
    path = export_comparison(table, ("=evil()", "ok\r@x"), tmp_path)
    rows = _read(path)
    assert rows[0] == ["query_id", "ndcg =evil()", "ndcg ok\r'@x", "ok\r'@x - =evil()"]
    assert rows[1] == ["q1", "0.5", "0.25", "-0.25"]  # numbers stay numbers (a negative number is no formula)
    for row in _careless_rows(path):
        assert not row.lstrip('"').startswith(FORMULA), repr(row)


def test_the_same_function_keeps_spreadsheet_cells_inert(tmp_path):
    """There is no .xlsx export yet; a future one uses neutralise_text, which openpyxl then stores as text."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for text in HOSTILE:
        sheet.append([neutralise_text(text.replace("\x0b", " "))])  # openpyxl refuses control characters
    book.save(tmp_path / "t.xlsx")
    cells = [row[0] for row in openpyxl.load_workbook(tmp_path / "t.xlsx").active.iter_rows()]
    assert [c.data_type for c in cells] == ["s"] * len(HOSTILE)  # "f" would be a live formula
    expected = [neutralise_text(t.replace("\x0b", " ")) for t in HOSTILE]
    # Without lxml a CR comes back as LF (XML line-end normalisation); with lxml installed (ranx, a test
    # dependency, brings it through ir_datasets) openpyxl's round trip keeps the CR.
    from openpyxl.xml import LXML

    assert [c.value for c in cells] == (expected if LXML else [re.sub(r"\r\n?", "\n", t) for t in expected])


# -- an export folder is whole or absent (issue 11 item 10) ----------------------------------------


class _Evaluation:
    def __init__(self, label: str) -> None:
        self.per_query = pd.DataFrame({"query_id": ["q1", "q2"], "ndcg": [0.5, 0.25], "run": [label, label]})
        self.per_position = pd.DataFrame({"query_id": ["q1"], "rank": [1], "doc_id": [label]})
        self.manifest = {"run": {"path": label}}


def _contents(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_manifest_lists_each_file_with_its_sha256(tmp_path):
    comparison = pd.DataFrame({"query_id": ["q1"], "ndcg_a": [0.5], "ndcg_b": [0.25], "difference": [-0.25]})
    paths = export_evaluation(_Evaluation("a"), tmp_path / "out", comparison=(comparison, ("a", "b")))
    assert [p.name for p in paths] == ["per_query.csv", "per_position.csv", "comparison.csv", "manifest.json"]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    expected = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths[:3]}
    assert manifest["files"] == expected
    assert manifest["run"] == {"path": "a"}  # the evaluation's own manifest is kept whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary folder left beside it


@pytest.mark.parametrize("failing", ["per_position.csv", "manifest.json"])
def test_a_failure_part_way_leaves_no_export_or_the_previous_one_whole(tmp_path, monkeypatch, failing):
    from ndcg_desktop.formats import export as export_module

    target = tmp_path / "out"
    real = export_module.atomic_write

    def failing_write(path, text):
        if Path(path).name == failing:
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(export_module, "atomic_write", failing_write)
    with pytest.raises(InputError) as raised:
        export_evaluation(_Evaluation("first"), target)
    assert str(raised.value) == f"{target}: cannot write the export (no space left on device)"
    assert not target.exists() and list(tmp_path.iterdir()) == []  # absent, and nothing left beside it
    monkeypatch.setattr(export_module, "atomic_write", real)
    export_evaluation(_Evaluation("first"), target)
    before = _contents(target)
    monkeypatch.setattr(export_module, "atomic_write", failing_write)
    with pytest.raises(InputError, match="no space left on device"):
        export_evaluation(_Evaluation("second"), target)
    assert _contents(target) == before  # the previous export, whole: never a mix of two evaluations
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_folder_holding_other_files_is_not_mixed_into(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="holds other files"):
        export_evaluation(_Evaluation("a"), target)
    assert _contents(target) == {"notes.txt": b"keep me"}


def test_exports_honour_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        export_evaluation(_Evaluation("a"), tmp_path / "out")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o755
    assert {stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out").iterdir()} == {0o644}


def test_every_export_lists_query_ids_in_the_windows_natural_order(tmp_path, capsys):
    """Issue 26: per_query.csv, comparison.csv and the workbook listed IDs as text (1, 10, 100, 101, 2...);
    they follow domain.natural's order, as the window lists them, and a ranking keeps its positions' order."""
    openpyxl = pytest.importorskip("openpyxl")
    from ndcg_desktop.cli.main import main
    from ndcg_desktop.domain.natural import natural_sorted
    from ndcg_desktop.formats.export import export_comparison_file

    ids = ["101", "2", "10", "1", "100", "q9", "q10"]
    expected = natural_sorted(ids)
    assert expected == ["1", "2", "10", "100", "101", "q9", "q10"]
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 A 1\n{q} 0 B 0\n" for q in ids))
    runs = []
    for name, order in (("a", "AB"), ("b", "BA")):
        runs.append(tmp_path / f"{name}.run")
        runs[-1].write_text("".join(f"{q} Q0 {d} {r} {9 - r} {name}\n" for q in ids for r, d in enumerate(order, 1)))
    assert main(["score", "--qrels", str(qrels), "--run", str(runs[1]), "--export", str(tmp_path / "one")]) == 0
    per_query = pd.read_csv(tmp_path / "one" / "per_query.csv", dtype=str)
    assert per_query["query_id"].tolist() == expected
    positions = pd.read_csv(tmp_path / "one" / "per_position.csv", dtype=str)
    assert positions[["query_id", "doc_id"]].values.tolist() == [[q, d] for q in expected for d in "BA"]
    out = tmp_path / "many"
    assert (
        main(
            ["compare", "--qrels", str(qrels), "--runs", *map(str, runs), "--k", "1,2", "--resamples", "100"]
            + ["--export", str(out)]
        )
        == 0
    )
    capsys.readouterr()
    table = pd.read_csv(out / "per_query.csv", dtype=str)
    assert table[["run", "k", "query_id"]].values.tolist() == [
        [run, k, q] for k in ("1", "2") for run in "ab" for q in expected
    ]
    sheet = openpyxl.load_workbook(out / "comparison.xlsx")["b b"]
    header = [c.value for c in next(sheet.iter_rows(max_row=1))]
    column = header.index("query_id")
    assert [str(r[column]) for r in sheet.iter_rows(min_row=2, values_only=True)] == expected * 2
    # The window's comparison of two runs, query by query (explain.compare's table)
    window = pd.DataFrame({"query_id": sorted(ids), "ndcg_a": 0.5, "ndcg_b": 0.25, "difference": -0.25})
    export_comparison_file(window, ("a", "b"), tmp_path / "comparison.csv")
    assert pd.read_csv(tmp_path / "comparison.csv", dtype=str)["query_id"].tolist() == expected
