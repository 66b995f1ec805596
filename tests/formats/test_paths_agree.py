"""Issue 11 item 9: every input means the same whichever path reads it.

Each reader has a fast, vectorised path (pyarrow) and a line-by-line path that names the exact
bad line. The same generated lines (runs of spaces and tabs, signs, Unicode digits, underscores,
hexadecimal, inf and nan, invisible characters) go through both, and the results must be equal:
the same rows, or the same refusal (same file, line and message).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import GradeScale, InputError, Qrels
from ndcg_desktop.formats import qrels as qrels_mod
from ndcg_desktop.formats import runs as runs_mod
from ndcg_desktop.formats.common import make_source

PATH = "f.txt"
SEPARATORS = st.sampled_from([" ", "  ", "\t", " \t", "\t\t", "   "])
EDGES = st.sampled_from(["", "", " ", "\t", "  "])
IDS = st.sampled_from(["q1", "q2", "A", "B", "d_1", "Q0", "é", "٣", "x\u200by", "\ufeffq1", "a\x0bb", "a\xa0"])
INTEGERS = st.sampled_from(["0", "1", "3", "+3", "-1", "03", "٣", "２", "0_1", "0x1", "1.0", "", "9" * 19, "2 "])
NUMBERS = st.sampled_from(
    ["1", "2.5", "+1.5", "-0.5", ".5", "5.", "1e3", "1E-2", "1_000", "١", "inf", "-inf", "nan", "NaN", "0x10", "#N/A"]
)


def _line(fields: list[str], seps: list[str], edges: tuple[str, str]) -> str:
    out = edges[0] + fields[0]
    for sep, field in zip(seps, fields[1:], strict=False):
        out += sep + field
    return out + edges[1]


@st.composite
def trec_lines(draw, columns: list[st.SearchStrategy[str]]) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        fields = [draw(c) for c in columns]
        if draw(st.booleans()) and draw(st.booleans()):
            fields = fields[: draw(st.integers(1, len(fields)))]  # sometimes a short line
        seps = [draw(SEPARATORS) for _ in fields]
        lines.append(_line(fields, seps, (draw(EDGES), draw(EDGES))))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(lines) + end


@st.composite
def csv_lines(draw, header: str, columns: list[st.SearchStrategy[str]]) -> str:
    rows = [header]
    for _ in range(draw(st.integers(1, 4))):
        cells = [draw(EDGES) + draw(c) + draw(EDGES) for c in columns]
        if draw(st.booleans()) and draw(st.booleans()):
            cells = cells[:-1]
        rows.append(",".join(cells))
    return "\n".join(rows) + "\n"


def _outcome(read):
    try:
        return ("read", read())
    except InputError as error:
        return ("refused", str(error))


def _qrels_rows(cells) -> list:
    columns, repeats = qrels_mod._validate(cells, PATH, GradeScale(-5, 5))
    frame = Qrels(columns, make_source(PATH, "", "trec")).frame
    return [*frame[["query_id", "doc_id", "grade", "line"]].itertuples(index=False, name=None), repeats]


def _run_rows(columns) -> list:
    run = runs_mod._finish(make_source(PATH, "", "trec"), columns)
    queries, docs = run.queries.to_pylist(), run.docs.to_pylist() if run.docs is not None else None
    return [
        (queries[q], docs[d] if docs is not None else int(run.doc_numbers[i]), float(s), run.line_of(i))
        for i, (q, d, s) in enumerate(zip(run.q, run.d if run.d is not None else run.q, run.score, strict=True))
    ]


def _both(fast, slow):
    assert _outcome(fast) == _outcome(slow)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec_lines([IDS, st.just("0"), IDS, INTEGERS]))
@example("q1  0 A 3\n")  # a double space: one more field to a one-separator reader
@example("q1 0 A +3\nq1 0 B 0x1\n")
def test_trec_qrels(text):
    data = text.encode()
    _both(
        lambda: _qrels_rows(qrels_mod._read_trec(data, PATH)),
        lambda: _qrels_rows(qrels_mod._read_trec_slow(data, PATH)),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_lines("query_id,doc_id,grade", [IDS, IDS, INTEGERS]))
@example("query_id,doc_id,grade\nq1,A ,3\nq1,B ,+3\n")
def test_csv_qrels(text):
    data = text.encode()
    header = ["query_id", "doc_id", "grade"]
    _both(
        lambda: _qrels_rows(qrels_mod._read_delimited(data, PATH, ",")),
        lambda: _qrels_rows(qrels_mod._read_delimited_slow(data, PATH, ",", header)),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec_lines([IDS, st.just("Q0"), IDS, st.just("1"), NUMBERS, st.just("tag")]))
@example("q1 Q0 A 1  2.5 t\n")  # five real columns and a double space: shifted columns to a naive reader
@example("q1  Q0 A 1 2.5\n")
@example("q1 Q0 A 1 1_000 t\n")
def test_trec_runs(text):
    data = text.encode()
    _both(
        lambda: _run_rows(runs_mod._read_trec(data, PATH)),
        lambda: _run_rows(runs_mod._read_trec_slow(data, PATH, None)),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_lines("query_id,doc_id,score", [IDS, IDS, NUMBERS]))
def test_csv_runs(text):
    data = text.encode()
    header = ["query_id", "doc_id", "score"]
    notes = ["ordered by score descending"]
    _both(
        lambda: _run_rows(runs_mod._read_delimited(data, PATH, ",")),
        lambda: _run_rows(runs_mod._read_delimited_slow(data, PATH, ",", header, "score", notes)),
    )


@pytest.mark.parametrize("grade", ["٣", "２", "0_1", "0x1", "1.0"])
def test_grades_are_ascii_integers_only(write, grade):
    for name, text in (("q.txt", f"q1 0 A {grade}\n"), ("q.csv", f"query_id,doc_id,grade\nq1,A,{grade}\n")):
        path = write(name, text)
        with pytest.raises(InputError, match=r":\d: grade '.*' is not an integer"):
            qrels_mod.read_qrels(path)


@pytest.mark.parametrize("score", ["1_000", "١", "0x10", "#N/A"])
def test_scores_are_ascii_numbers_only(write, score):
    for name, text in (("r.txt", f"q1 Q0 A 1 {score} t\n"), ("r.csv", f"query_id,doc_id,score\nq1,A,{score}\n")):
        path = write(name, text)
        with pytest.raises(InputError, match=r":\d: score '.*' is not a number"):
            runs_mod.read_run(path)


def test_a_five_column_line_with_a_double_space_is_refused_by_both_paths(write):
    path = write("r.txt", "q1  Q0 A 1 2.5\n")
    with pytest.raises(InputError, match=r"r.txt:1: expected 6 columns .* found 5"):
        runs_mod.read_run(path)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(trec_lines([IDS, st.just("Q0"), IDS, st.just("1"), NUMBERS, st.just("tag")]))
def test_large_trec_runs_read_from_disk(tmp_path, monkeypatch, text):
    """Runs of 32 MiB and more are parsed by pyarrow straight from disk: the same meaning again."""
    path = tmp_path / "big.run"
    path.write_bytes(text.encode())
    monkeypatch.setattr(runs_mod, "STREAM_MIN_BYTES", 0)

    def from_disk():
        large = runs_mod._read_large_trec(path, None, None)
        return _run_rows(large[1] if large is not None else runs_mod._read_trec_slow(text.encode(), str(path), None))

    fast = _outcome(from_disk)
    slow = _outcome(lambda: _run_rows(runs_mod._read_trec_slow(text.encode(), str(path), None)))
    assert fast == slow


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(trec_lines([IDS, st.just("0"), IDS, INTEGERS]))
@example("q1 0 A 3\n\nq1 0 B 2\nq1 0 A 3\n")  # a blank line and an identical repeat
@example("q1 0 A 3\nq2 0 A 1\nq1 0 A 2\n")  # a conflicting repeat, named with its line
def test_large_trec_qrels_read_from_disk(tmp_path, monkeypatch, text):
    """Judgment files of 32 MiB and more are parsed by pyarrow straight from disk: the same meaning again."""
    from ndcg_desktop.formats import large

    path = tmp_path / "big.qrels"
    path.write_bytes(text.encode())
    scale = GradeScale(-5, 5)

    def rows(qrels) -> list:
        frame = qrels.frame[["query_id", "doc_id", "grade", "line"]]
        return [*frame.itertuples(index=False, name=None), qrels.repeats, qrels.source.sha256]

    slow = _outcome(lambda: rows(qrels_mod.read_qrels(path, scale=scale)))
    monkeypatch.setattr(large, "LARGE_FILE_BYTES", 0)
    assert _outcome(lambda: rows(qrels_mod.read_qrels(path, scale=scale))) == slow


@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_the_disk_scan_sees_a_double_space_on_a_block_boundary(tmp_path, offset):
    """The scan of large runs reads 4 MiB blocks: a double space across two blocks (offset -1) is still seen."""
    from ndcg_desktop.formats.large import FileScan

    boundary = 1 << 22
    line = b"q1 Q0 D7 1 2.5 s\n"  # its first space is its third byte
    target = boundary - 1 + offset  # where a line's first space must fall
    tag = next(x for x in range(1, len(line) + 1) if (target - 2 - (16 + x)) % len(line) == 0)
    data = b"q1 Q0 D7 1 2.5 " + b"t" * tag + b"\n" + line * (boundary // len(line) + 2)
    assert data[target : target + 1] == b" "
    clean = tmp_path / "clean.run"
    clean.write_bytes(data)
    assert FileScan(clean).result().irregular is False
    doubled = tmp_path / "doubled.run"
    doubled.write_bytes(data[: target + 1] + b" " + data[target + 1 :])  # "  " at target, target + 1
    assert FileScan(doubled).result().irregular is True


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(list("0123456789-+ x٣")), max_size=20), min_size=1, max_size=6))
def test_grade_cells_read_the_same_on_the_byte_check_and_the_regex_path(cells):
    """parse_integers casts at once when the raw bytes are plain integers: the same as its checked path."""
    import pyarrow as pa

    from ndcg_desktop.formats import cells as cells_mod

    column = pa.array(cells, pa.string())

    def checked():
        values = cells_mod._checked_integers(column, "grade", PATH, lambda row: row + 1)
        return list(values.to_pylist())

    assert _outcome(lambda: list(cells_mod.parse_integers(column, "grade", PATH, lambda row: row + 1))) == _outcome(
        checked
    )
