"""Issue 24 item 13: names that come from files reach every output as inert text.

Run names made from file names follow the name rule (a line break or a tab escaped, as ``plain``
shows it); ``runs.md`` shows a run named ``<script>`` or ``[x](javascript:…)`` as that text, with no
tag and no link, under a CommonMark renderer with GitHub's tables; an xlsx sheet name never keeps a
control character.
"""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser

import openpyxl
import pandas as pd
import pytest
from markdown_it import MarkdownIt

from ndcg_desktop.formats.cells import check_name
from ndcg_desktop.formats.workbook import runs_markdown, sheet_name, write_workbook
from ndcg_desktop.tasks.compare_inputs import run_names_of

HOSTILE = [
    "<script>alert(1)</script>",
    "[click](javascript:alert(1))",
    "![img](javascript:alert(1))",
    "<javascript:alert(1)>",
    "<a href='javascript:alert(1)'>x</a>",
    "&lt;script&gt;",
    "[ref]: javascript:alert(1)",
    "`code` *em* _u_ ~~s~~",
    "a\\|b | c",
    "back\\slash",
]
CONTROL = ["bm\n25", "bm\r25", "bm\t25", "bm\r\n25", "nul\x00", "esc\x1b[31m", "sep\u2028", "bidi\u202e"]


class _Cells(HTMLParser):
    """The text of each table cell, and every tag and attribute the HTML holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += attrs
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _runs(names: list[str]) -> pd.DataFrame:
    letters = [chr(ord("a") + i) for i in range(len(names))]
    return pd.DataFrame(
        {"letter": letters, "run": names, "k": 10, "mean": 0.5, "ci_low": 0.4, "ci_high": 0.6, "superscript": ""}
    )


def test_markdown_shows_hostile_run_names_as_their_text_with_no_tag_or_link():
    caption = "caption <script>x</script> [c](javascript:alert(1))"
    text = runs_markdown(_runs(HOSTILE), caption)
    html = MarkdownIt("commonmark").enable("table").render(text)
    cells = _Cells()
    cells.feed(html)
    assert cells.tags <= {"table", "thead", "tbody", "tr", "th", "td", "p"}  # no script, a, img, code, em
    assert all(value is None or "javascript" not in value for _, value in cells.attributes)
    letters = [chr(ord("a") + i) for i in range(len(HOSTILE))]
    assert [row[0] for row in cells.rows[1:]] == [f"{a} {name}" for a, name in zip(letters, HOSTILE, strict=True)]
    assert caption in html.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_markdown_keeps_a_run_name_on_its_row():
    text = runs_markdown(_runs(["two\nlines", "cr\rhere"]), "settings")
    html = MarkdownIt("commonmark").enable("table").render(text)
    cells = _Cells()
    cells.feed(html)
    assert len(cells.rows) == 3 and [len(row) for row in cells.rows] == [2, 2, 2]


def _controls(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")]


@pytest.mark.parametrize("name", CONTROL)
def test_a_sheet_name_never_keeps_a_control_character(name):
    assert _controls(sheet_name(name)) == []


def test_a_workbook_of_hostile_names_reads_back_with_clean_distinct_sheet_names(tmp_path):
    frame = pd.DataFrame({"x": [1.0]})
    path = write_workbook(tmp_path / "w.xlsx", {name: frame for name in CONTROL})
    names = openpyxl.load_workbook(path).sheetnames
    assert len(names) == len(set(names)) == len(CONTROL)
    assert [c for name in names for c in _controls(name)] == []


@pytest.mark.parametrize("name", CONTROL)
def test_a_run_name_made_from_a_file_name_follows_the_name_rule(tmp_path, name):
    (stored,) = run_names_of([tmp_path / f"{name}.run"])
    assert _controls(stored) == [] and check_name(stored, "run name") == stored
    assert stored != run_names_of([tmp_path / "other.run"])[0]
