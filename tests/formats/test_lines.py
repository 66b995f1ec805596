"""The TREC readers' exact path (formats/lines.py) reads as the line-by-line loop it replaced (issue 32 item 7).

The oracle is that loop, kept here: iter_lines, split_fields, a count check, parse_number per field. Hostile
bytes (lone CRs, form feeds, no-break spaces, byte-order marks, bytes that are no UTF-8) go through both, and
the outcomes must be equal: the same fields, numbers and line numbers, or the same refusal naming file and line.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.cells import parse_number, separator_hint
from ndcg_desktop.formats.common import iter_lines, split_fields
from ndcg_desktop.formats.lines import read_fields

PATH = "f.txt"
RUN = "query_id Q0 doc_id rank score tag"
QRELS = "query_id iteration doc_id grade"
PIECES = st.sampled_from(
    ["q1", "Q0", "d7", "1", "2.5", "-1", "+3", "nan", "x", "é", "٣", "\ufeff", "\xa0", "\u3000", "\x85", "\x0c"]
    + ["\x0b", "\x1c", "\r", "\x00", " ", "  ", "\t", " \t "]
)
LINE_ENDS = st.sampled_from([b"\n", b"\r\n", b"\r\r\n", b"\n\n", b""])


@st.composite
def files(draw) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        text = " ".join(draw(st.lists(PIECES, min_size=0, max_size=8)))
        lines.append(text.encode() + draw(LINE_ENDS))
    if draw(st.booleans()) and lines:
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] = lines[at].replace(b" ", b" \xff", 1)  # a byte that is no UTF-8
    return b"".join(lines)


def loop(data: bytes, layout: str, keep, numbers):
    """The reading before: a Python loop over the lines."""
    width = len(layout.split())
    columns: dict[int, list[str]] = {j: [] for j in keep}
    parsed: dict[int, list[float]] = {j: [] for j, _ in numbers}
    lines = []
    for number, text in iter_lines(data, PATH):
        parts = split_fields(text)
        if len(parts) != width:
            raise InputError(
                f"expected {width} columns ({layout}), found {len(parts)}" + separator_hint(text),
                path=PATH,
                line=number,
            )
        for j in keep:
            columns[j].append(parts[j])
        for j, what in numbers:
            parsed[j].append(parse_number(parts[j], what, PATH, number))
        lines.append(number)
    return columns, parsed, lines


def outcome(read):
    try:
        columns, parsed, lines = read()
    except InputError as exc:
        return ("refused", str(exc))
    return (
        {j: list(c) for j, c in columns.items()},
        {j: ["nan" if math.isnan(v) else v for v in values] for j, values in parsed.items()},
        list(lines),
    )


def vectorised(data: bytes, layout: str, keep, numbers):
    read = read_fields(data, PATH, layout, keep, numbers)
    columns = {j: read.columns[j].to_pylist() for j in keep}
    return columns, {j: read.numbers[j].tolist() for j, _ in numbers}, read.lines.tolist()


@given(files())
@example(b"\x0c\n\xa0\nq1 0 d1 2\n")  # blank to str.strip(): skipped, later lines keep their numbers
@example(b"q1 0 d1\r2\nq1 0 d2 \xff\n")  # a lone CR is no separator: line 1 has 3 fields, refused before line 2
@example(b"q1 0 \xffd1 2\nq1 0 d2\n")  # the byte that is no UTF-8 comes first
@example("\ufeffq1 0 d1 2\r\r\n".encode())  # a byte-order mark the file keeps: part of the first field
def test_qrels_fields_are_what_the_loop_read(data):
    keep = (0, 1, 2, 3)
    assert outcome(lambda: vectorised(data, QRELS, keep, [])) == outcome(lambda: loop(data, QRELS, keep, []))


@given(files())
@example(b"q1 Q0 d1 x y t\n")  # the score is refused before the rank on the same line
@example(b"q1 Q0 d1 1 2 t\nq1 Q0 d2 1 x t\nq1 Q0 d3\n")  # a bad number before a short line
@example(b"q1 Q0 d1 1 2 t\nq1 Q0 d2\nq1 Q0 d3 1 x t\n")  # a short line before a bad number
@example(b"q1 Q0 d1 1 \x0b2.5\x0c t\n")  # blanks other than spaces and tabs stay in the field, trimmed as numbers
def test_run_fields_are_what_the_loop_read(data):
    keep, numbers = (0, 2, 5), [(4, "score"), (3, "rank")]
    assert outcome(lambda: vectorised(data, RUN, keep, numbers)) == outcome(lambda: loop(data, RUN, keep, numbers))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"q1 0 d1 3\n\n  \nq1 0 d2\n", "f.txt:4: expected 4 columns (query_id iteration doc_id grade), found 3"),
        (b"q1 0 d1 3\nq1 0 d\xe92 1\n", "f.txt:2: invalid UTF-8 at byte 7 of the line"),
    ],
)
def test_a_refusal_names_the_file_and_the_line(data, said):
    with pytest.raises(InputError) as refused:
        read_fields(data, PATH, QRELS, (0, 1, 2, 3))
    assert str(refused.value) == said
