"""Issue 11 item 5: no input ends in a traceback.

Every reader (and each command's input path) gets random bytes and structured mutations of valid
files. It must either read them or refuse them with one InputError line that starts with the
file's path (``path:line: problem`` wherever a line is known); anything else fails the test.
The in-suite run is small; ``python benchmarks/fuzz_readers.py`` runs the same tests far longer.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.formats.guidelines import read_guidelines
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import preview_run, read_run, supported_orders
from ndcg_desktop.formats.texts import iter_documents, read_queries

EXAMPLES = int(os.environ.get("NDCG_FUZZ_EXAMPLES", "40"))  # benchmarks/fuzz_readers.py raises it
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)

# A valid file of each kind, the seeds of the structured mutations.
SEEDS = {
    "qrels.txt": "q1 0 A 3\nq1 0 B 0\nq2 0 C 1\n",
    "qrels.csv": "query_id,doc_id,grade\nq1,A,3\nq2,C,1\n",
    "qrels.tsv": "query_id\tdoc_id\tgrade\nq1\tA\t3\nq2\tC\t1\n",
    "run.txt": "q1 Q0 A 1 2.5 s\nq1 Q0 B 2 1.5 s\nq2 Q0 C 1 0.5 s\n",
    "run.csv": "query_id,doc_id,score\nq1,A,2.5\nq2,C,1\n",
    "run.tsv": "query_id\tdoc_id\trank\nq1\tA\t1\nq2\tC\t1\n",
    "run.jsonl": '{"query_id": "q1", "doc_ids": ["A", "B"]}\n{"query_id": "q2", "doc_ids": ["C"]}\n',
    "queries.tsv": "q1\tfirst query\nq2\tsecond\n",
    "queries.csv": "query_id,text\nq1,first query\nq2,second\n",
    "queries.jsonl": '{"query_id": "q1", "text": "first"}\n{"query_id": "q2", "text": "second"}\n',
    "queries-topics.jsonl": '{"query_id": "q1", "title": "t", "description": "d", "narrative": "n"}\n',
    "queries-header.tsv": "query_id\ttitle\tdescription\tnarrative\nq1\tt\td\tn\nq2\tu\t\t\n",
    "queries.txt": "<top>\n<num> Number: 301\n<title> a title\n<desc> Description:\nsome\nlines\n"
    "<narr> Narrative:\nmore\n\nlines\n</top>\n<top>\n<num>302</num><title>b</title>\n</top>\n",
    "queries.xml": '<?xml version="1.0"?>\n<!-- c -->\n<topics><topic number="1"><query>a &amp; b</query>'
    '<question>q</question><narrative>n</narrative><subtopic number="1">s</subtopic></topic></topics>\n',
    "guidelines.md": "# Grading\n\n| grade | when |\n|---|---|\n| **3** | answers it |\n\n- unsure? the lower one\n",
    "docs.jsonl": '{"doc_id": "A", "title": "T", "text": "alpha"}\n{"doc_id": "B", "text": "beta"}\n',
    "docs.csv": 'doc_id,title,text\nA,T,"alpha, ""quoted"""\nB,,beta\n',
    "docs.tsv": "doc_id\ttitle\ttext\nA\tT\talpha\nB\t\tbeta\n",
}


def _readers(path: Path):
    name = path.name
    if name.startswith("qrels"):
        return [lambda: read_qrels(path, scale=GradeScale(-5, 5))]
    if name.startswith("run"):
        return [lambda: read_run(path), lambda: preview_run(path), lambda: supported_orders(path)]
    if name.startswith("queries"):
        return [lambda: read_queries(path)]
    if name.startswith("guidelines"):
        return [lambda: read_guidelines(path)]
    return [lambda: list(iter_documents(path))]


# Pieces that break parsers: separators, quotes, controls, BOMs, surrogates and huge or deep JSON.
PIECES = st.sampled_from(
    [
        "\x00",
        "\r",
        "\n",
        "\r\n",
        "\t",
        " ",
        "  ",
        ",",
        '"',
        "'",
        "\ufeff",
        "\u200b",
        "\x1b[31m",
        "\\ud800",
        '"\\udc00"',
        "{",
        "}",
        "[",
        "]",
        ":",
        "-",
        "+",
        "_",
        "٣",
        "２",
        "0x1f",
        "1e999",
        "nan",
        "9" * 5000,
        "[" * 3000,
        '{"a": ' * 2000,
        '"query_id"',
        '"doc_ids"',
        "null",
        "true",
        "1.5",
        "query_id",
        "doc_id",
        "grade",
        "score",
        "rank",
        "text",
        "title",
        "x" * 200_000,
        "<top>",
        "</top>",
        "<topic number='7'>",
        "</topic>",
        "<num>",
        "<title>",
        "</title>",
        "<desc>",
        "<narr>",
        "<!--",
        "-->",
        "<",
        ">",
        "&amp;",
        "&#xd800;",
        "Number:",
        "Narrative:",
        'number="',
        "<top>" * 3000,
    ]
)


@st.composite
def mutated(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[name]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if action == "insert":
            text = text[:at] + draw(PIECES) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 10)) :]
        else:
            text = text[:at] + text + text[at:]
    encoded = text.encode("utf-8", errors="surrogatepass")
    return name, encoded


def _check(read, path: Path) -> None:
    try:
        read()
    except InputError as error:
        message = str(error)
        assert message.startswith(str(path)), message[:300]
        assert "\n" not in message and "\r" not in message, message[:300]
        assert len(message) < 1000, message[:300]


@FUZZ
@given(st.sampled_from(sorted(SEEDS)), st.binary(max_size=400))
def test_random_bytes(name, data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        for read in _readers(path):
            _check(read, path)


@FUZZ
@given(mutated())
def test_mutated_valid_files(case):
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        for read in _readers(path):
            _check(read, path)


def _command(name: str, path: Path, folder: Path) -> list[str]:
    project = str(folder / "p.ndcgproj")
    qrels, run = str(folder / "good.qrels"), str(folder / "good.run")
    if name.startswith("qrels"):
        return ["score", "--qrels", str(path), "--run", run, "--unjudged", "zero", "--unknown-queries", "ignore"]
    if name.startswith("run"):
        return ["import-run", project, str(path), "--name", "r"]
    if name.startswith("queries"):
        return ["import-queries", project, str(path)]
    if name.startswith("guidelines"):
        return ["set-guidelines", project, str(path)]
    return ["import-docs", project, str(path)] if name.startswith("docs") else ["score", "--qrels", qrels]


@settings(max_examples=max(EXAMPLES // 4, 10), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_commands_exit_0_or_2_with_one_line(case):
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "good.qrels").write_text("q1 0 A 3\n")
        (folder / "good.run").write_text("q1 Q0 A 1 2 s\n")
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["init", str(folder / "p.ndcgproj")]) == 0
        path = folder / name
        path.write_bytes(data)
        argv = _command(name, path, folder)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(argv)
        assert status in (0, 2), (argv, status, err.getvalue())
        if status == 2:
            lines = err.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), err.getvalue()[:300]


# The inputs that ended in tracebacks (issue 11 item 5), each through the command that read it.
def _one_line(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's refusals
            status = int(exc.code or 0)
    return status, err.getvalue()


def test_known_tracebacks_are_one_line_refusals_or_accepted(tmp_path):
    project = tmp_path / "p.ndcgproj"
    assert _one_line(["init", str(project)])[0] == 0
    long_field = tmp_path / "docs.csv"
    long_field.write_text("doc_id,text\nD1," + "x" * 200_000 + "\n")
    assert _one_line(["import-docs", str(project), str(long_field)]) == (0, "")  # real corpora have such fields
    qrels = tmp_path / "q.txt"
    qrels.write_text("q1 0 A 1\n")
    cases = {
        "deep.jsonl": ('{"query_id": "q1", "doc_ids": ' + "[" * 100_000 + "]" * 100_000 + "}\n", 1),
        "surrogate.jsonl": ('{"query_id": "q1", "doc_ids": ["\\ud800"]}\n', 1),
        "digits.jsonl": ('{"query_id": ' + "9" * 5000 + ', "doc_ids": ["A"]}\n', 1),
        "nul.txt": ("q1 Q0 \x00A 1 2 s\n", 1),
        "dupkey.jsonl": ('{"query_id": "q1", "query_id": "q2", "doc_ids": ["A"]}\n', 1),
    }
    for name, (text, line) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        status, err = _one_line(["score", "--qrels", str(qrels), "--run", str(path)])
        assert status == 2 and err.startswith(f"error: {path}:{line}: ") and err.count("\n") == 1, (name, err[:300])
    huge_grade = tmp_path / "huge.txt"
    huge_grade.write_text("q1 0 A 99999999999999999999999\n")
    status, err = _one_line(["import-qrels", str(project), str(huge_grade)])
    assert (status, err) == (2, f"error: {huge_grade}:1: grade '99999999999999999999999' is not an integer\n")
    status, err = _one_line(["score", "--qrels", str(qrels), "--run", str(qrels), "--k", "9223372036854775808"])
    assert status == 2 and err.endswith(
        "argument --k: --k must be a whole number from 1 to 2147483647, not 9223372036854775808\n"
    )
