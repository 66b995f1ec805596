"""Spreadsheet and paper tables: one .xlsx workbook of several tables, and Markdown / LaTeX tables.

The workbook is written by pandas with xlsxwriter (imported here only, when a workbook is asked
for): numbers as typed numeric cells at full precision (xlsxwriter writes 16 significant digits,
which changes a quarter of all doubles in their last bit; :class:`_FullPrecisionSheet` writes the
shortest text that reads back as the same double, 17 digits at most), a frozen header row and an
autofilter on every sheet, the nDCG columns shaded red to green as in the window, and every text
cell and header neutralised exactly as CSV neutralises it (:func:`neutralise_text`); xlsxwriter's
own guessing (text starting with ``=`` as a formula, text like a URL or a number) is switched off.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from ndcg_desktop.formats.cells import plain
from ndcg_desktop.formats.export import atomic_write, neutralise, neutralise_text

SHEET_NAME_LIMIT = 31  # Excel's limit
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
# What CommonMark (and GitHub's tables) read as syntax: links, images, HTML, entities, emphasis, code, cells.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]<>()!|&~]")
SHADED = ("ndcg", "mean", "ndcg_lower", "ndcg_upper", "bound_low", "bound_high", "ci_low", "ci_high")


def sheet_name(text: str, taken: Iterable[str] = ()) -> str:
    """A valid, unused sheet name for ``text``: control and invisible characters escaped as :func:`plain`
    shows them (``bm\\n25``), forbidden characters replaced, at most 31 characters.

    >>> sheet_name("a bm25/v2"), sheet_name("runs", ["runs"])
    ('a bm25_v2', 'runs 2')
    """
    base = _SHEET_FORBIDDEN.sub("_", plain(text)).strip("'") or "sheet"
    used = {name.lower() for name in taken}
    name, n = _shortened(base, SHEET_NAME_LIMIT), 1
    while name.lower() in used:
        n += 1
        name = f"{_shortened(base, SHEET_NAME_LIMIT - len(str(n)) - 1)} {n}"
    return name


def _shortened(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: cut in the middle (``…``), so that names which share a long
    beginning keep the end that tells them apart (``a 2021_base…nt_runs_bm25``, not ``a 2021_baselines_docu``).

    >>> _shortened("a 2021_baselines_document_runs_bm25", 24), _shortened("short", 24)
    ('a 2021_base…nt_runs_bm25', 'short')
    """
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def _safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells and headers neutralised as CSV neutralises them; numbers untouched."""
    safe = frame.rename(columns=lambda name: neutralise_text(str(name)))
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(neutralise).astype(object)
    return safe


def manifest_rows(manifest: dict[str, Any]) -> pd.DataFrame:
    """The manifest flattened to (key, value) rows: ``runs.0.run.sha256``-style keys, scalars as JSON text.

    >>> manifest_rows({"a": {"b": 1}, "c": [True]}).values.tolist()
    [['a.b', '1'], ['c.0', 'true']]
    """
    rows: list[tuple[str, str]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), item)
        elif isinstance(value, list) and value:
            for i, item in enumerate(value):
                walk(f"{prefix}.{i}", item)
        else:
            rows.append((prefix, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)))

    walk("", manifest)
    return pd.DataFrame(rows, columns=["key", "value"])


def write_workbook(path: str | Path, sheets: dict[str, pd.DataFrame]) -> Path:
    """Write each frame as a sheet (in order) of one .xlsx file, atomically; returns the path."""
    import xlsxwriter.worksheet

    class _FullPrecisionSheet(xlsxwriter.worksheet.Worksheet):  # type: ignore[misc]
        """A worksheet whose numbers are written as ``repr(float)``: the shortest round-tripping text."""

        def _xml_number_element(self, number: float, attributes: list[tuple[str, Any]] | None = None) -> None:
            attr = "".join(f' {key}="{self._escape_attributes(value)}"' for key, value in attributes or [])
            self.fh.write(f"<c{attr}><v>{float(number)!r}</v></c>")

    # Built in memory, then written by atomic_write: xlsxwriter's own file handling turned a full disk into
    # its FileCreateError and left a half-written zip for the garbage collector (a traceback at exit).
    options = {"strings_to_formulas": False, "strings_to_urls": False, "strings_to_numbers": False, "in_memory": True}
    with io.BytesIO() as buffer:
        with pd.ExcelWriter(buffer, engine="xlsxwriter", engine_kwargs={"options": options}) as writer:
            book = writer.book
            header = book.add_format({"bold": True, "text_wrap": False, "bottom": 1})
            names: list[str] = []
            for title, frame in sheets.items():
                name = sheet_name(title, names)
                names.append(name)
                book.add_worksheet(name, worksheet_class=_FullPrecisionSheet)  # pandas writes into it
                safe = _safe(frame)
                safe.to_excel(writer, sheet_name=name, index=False)
                sheet = writer.sheets[name]
                for col, column in enumerate(safe.columns):
                    sheet.write_string(0, col, str(column), header)
                    width = max([len(str(column)), *(len(str(v)) for v in safe[column].head(200).tolist())])
                    sheet.set_column(col, col, min(max(width + 2, 8), 60))
                sheet.freeze_panes(1, 0)
                sheet.autofilter(0, 0, max(len(safe), 1), max(len(safe.columns) - 1, 0))
                for col, column in enumerate(frame.columns):
                    if str(column) in SHADED and len(frame):
                        sheet.conditional_format(
                            1,
                            col,
                            len(frame),
                            col,
                            {
                                "type": "3_color_scale",
                                "min_type": "num",
                                "min_value": 0,
                                "mid_type": "num",
                                "mid_value": 0.5,
                                "max_type": "num",
                                "max_value": 1,
                                "min_color": "#FFC896",  # the window's shade(): red, amber, green
                                "mid_color": "#FFFF96",
                                "max_color": "#87FF96",
                            },
                        )
        atomic_write(path, buffer.getvalue())
    return Path(path)


def _cell(value: Any, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "n/a"
    return f"{value:.{digits}f}"


Cells = tuple[str, str, str, str, str | None]  # mean, superscript, CI low, CI high; the tie-averaged cell or None


def runs_table_rows(runs: pd.DataFrame) -> tuple[list[str], list[list[Cells]], list[str]]:
    """Header (K values), then per run: (mean, superscript, CI low, CI high, ties) per K, and the run labels.

    ``ties`` is ``"0.1345 (97)"`` (the tie-averaged mean, and the queries of the mean with a tie straddling K) at
    each K where ties change some run's mean, None elsewhere: a column of its own there, none where ties changed
    nothing (``queries_with_tie_at_k``, ``tie_averaged_mean``; rule 10).
    """
    ks = list(dict.fromkeys(runs["k"].tolist()))
    order = list(dict.fromkeys(runs["run"].tolist()))
    tied = {k: False for k in ks}
    if "tie_averaged_mean" in runs.columns:  # a table of an older export has no such column
        moved = (runs["queries_with_tie_at_k"] > 0) | ((runs["tie_averaged_mean"] - runs["mean"]).abs() > 1e-12)
        tied = {k: bool(moved[runs["k"] == k].any()) for k in ks}
    cells = []
    labels = []
    for name in order:
        mine = runs[runs["run"] == name].set_index("k")
        labels.append(f"{mine['letter'].iloc[0]} {name}")
        cells.append(
            [
                (
                    _cell(mine.at[k, "mean"]),
                    str(mine.at[k, "superscript"]),
                    _cell(mine.at[k, "ci_low"]),
                    _cell(mine.at[k, "ci_high"]),
                    f"{_cell(mine.at[k, 'tie_averaged_mean'])} ({int(mine.at[k, 'queries_with_tie_at_k'])})"
                    if tied[k]
                    else None,
                )
                for k in ks
            ]
        )
    header = []
    for k in ks:
        header += [f"nDCG@{k}"] + ([f"tie-averaged@{k} (queries with a tie at K)"] if tied[k] else [])
    return header, cells, labels


def runs_markdown(runs: pd.DataFrame, caption: str) -> str:
    """The runs table as GitHub Markdown: one row per run, per K the mean, its superscript and CI.

    Names and the caption are text, never markup: every character CommonMark or HTML reads as syntax
    is backslash-escaped, so a run named ``<script>`` or ``[x](javascript:…)`` shows as that text.
    """
    header, cells, labels = runs_table_rows(runs)

    def esc(text: str) -> str:  # control characters as plain() shows them, then no Markdown or HTML left
        return _MARKDOWN_SPECIAL.sub(r"\\\g<0>", plain(text))

    lines = ["| run | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
    for label, row in zip(labels, cells, strict=True):
        shown = [
            text
            for m, s, lo, hi, tie in row
            for text in (f"{m}{f'<sup>{s}</sup>' if s else ''} [{lo}, {hi}]", tie)
            if text is not None
        ]
        lines.append(f"| {esc(label)} | " + " | ".join(shown) + " |")
    return "\n".join(lines) + f"\n\n{esc(caption)}\n"


_LATEX = {c: f"\\{c}" for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def latex_escape(text: str) -> str:
    r"""Text as LaTeX typesets it literally.

    >>> latex_escape("bm25_v2 & 50%")
    'bm25\\_v2 \\& 50\\%'
    """
    return "".join(_LATEX.get(c, c) for c in text.replace("\n", " "))


def runs_latex(runs: pd.DataFrame, caption: str) -> str:
    """The runs table as a LaTeX ``tabular`` (booktabs rules) in a ``table`` with the settings as caption."""
    header, cells, labels = runs_table_rows(runs)
    lines = [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{l" + "r" * len(header) + "}",
        r"\toprule",
        "run & " + " & ".join(header) + r" \\",
        r"\midrule",
    ]
    for label, row in zip(labels, cells, strict=True):
        shown = [
            text
            for m, s, lo, hi, tie in row
            for text in (f"{m}{f'$^{{{s}}}$' if s else ''} [{lo}, {hi}]", tie)
            if text is not None
        ]
        lines.append(latex_escape(label) + " & " + " & ".join(shown) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def write_text(path: str | Path, text: str) -> Path:
    atomic_write(path, text)
    return Path(path)
