"""Tables on the terminal keep their columns whatever the names' lengths: a name longer than a column's default
width (an import's `import:<file>`, a model's `model:<name>`, a long run or document ID) widens the column instead
of pushing its row out of line or being cut (two names cut to the same 12 characters could not be told apart)."""

from __future__ import annotations

import pytest

from ndcg_desktop.cli.main import main

ANA = "anastasia-from-the-first-round"  # longer than every default column (24)
BEN = "anastasia-from-the-second-round"  # shares its first 24 characters with ANA
RUN_A = "bm25-with-rm3-expansion-and-stemming"
RUN_B = "bm25-with-rm3-expansion-no-stemming"
DOC = "clueweb12-0000tw-00-12345678901234"
POOL = f"q1 0 A -1\nq1 0 B -1\nq1 0 {DOC} -1\n"
RATED_A = f"q1 0 A 3\nq1 0 B 0\nq1 0 {DOC} 0\n"
RATED_B = f"q1 0 A 0\nq1 0 B 3\nq1 0 {DOC} 1\n"
RUNS = {RUN_A: f"q1 Q0 A 1 3 t\nq1 Q0 {DOC} 2 2 t\n", RUN_B: "q1 Q0 B 1 3 t\nq1 Q0 A 2 2 t\n"}


@pytest.fixture
def project(tmp_path, capsys):
    path = str(tmp_path / "team.ndcgproj")
    files = (("pool.qrels", POOL), ("a.qrels", RATED_A), ("b.qrels", RATED_B))
    for name, text in (*files, *((f"{r}.run", t) for r, t in RUNS.items())):
        (tmp_path / name).write_text(text)
    assert main(["init", path]) == 0
    assert main(["import-qrels", path, str(tmp_path / "pool.qrels"), "--negative-as-ungraded"]) == 0
    assert main(["import-qrels", path, str(tmp_path / "a.qrels"), "--annotator", ANA]) == 0
    assert main(["import-qrels", path, str(tmp_path / "b.qrels"), "--annotator", BEN]) == 0
    for run in RUNS:
        assert main(["import-run", path, str(tmp_path / f"{run}.run"), "--name", run]) == 0
    capsys.readouterr()
    return path


def blocks(text: str) -> list[list[str]]:
    """The text's paragraphs (tables are separated by blank lines), without the 'undefined: why' notes."""
    out: list[list[str]] = [[]]
    for line in text.splitlines():
        if not line.strip():
            out.append([])
        elif "undefined:" not in line:
            out[-1].append(line)
    return [b for b in out if b]


def table(text: str, first_word: str) -> list[str]:
    found = [b for b in blocks(text) if b[0].split()[0] == first_word]
    assert len(found) == 1, text
    return found[0]


def test_adjudicate_lists_long_ids_in_line(project, capsys):
    assert main(["adjudicate", project]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    header, rows = lines[0], lines[1:]
    assert rows and any(DOC in row for row in rows)
    column = header.index("grade") + len("grade")  # right-aligned: every grade ends where the header does
    assert all(row[column - 1] in "0123-" and row[column] == " " for row in rows), "\n".join(lines)


def test_agreement_tables_line_up_and_name_everyone_in_full(project, capsys):
    assert main(["agreement", project, "--unjudged", "zero"]) == 0
    text = capsys.readouterr().out
    pairs, leniency = table(text, "pair"), table(text, "annotator")
    for rows in (pairs, leniency):
        assert len({len(line) for line in rows}) == 1, "\n".join(rows)  # right-aligned figures end together
    assert f"{ANA} - {BEN}" in pairs[1]
    assert [line.split()[0] for line in leniency[1:]] == [ANA, BEN]


def test_agreement_systems_header_names_each_judge_in_full(project, capsys):
    assert main(["adjudicate", project, "--rule", "highest"]) == 0
    assert main(["freeze", project]) == 0
    capsys.readouterr()
    assert main(["agreement", project, "--version", "1", "--unjudged", "zero"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("run "))
    systems = lines[start : start + 1 + len(RUNS)]  # the header and a row per run, then the taus
    assert ANA in systems[0].split() and BEN in systems[0].split(), text
    assert len({len(line) for line in systems}) == 1, "\n".join(systems)
    assert {line.split()[0] for line in systems[1:]} == {RUN_A, RUN_B}


def test_diff_pools_lines_up_long_ids(project, tmp_path, capsys):
    assert main(["adjudicate", project, "--rule", "highest"]) == 0
    assert main(["freeze", project]) == 0
    assert main(["new-draft", project]) == 0
    (tmp_path / "c.qrels").write_text(f"q1 0 {DOC}-new 2\n")  # an added document
    assert main(["import-qrels", project, str(tmp_path / "c.qrels")]) == 0
    assert main(["freeze", project]) == 0
    capsys.readouterr()
    assert main(["diff-pools", project, "1", "2", "--unjudged", "zero"]) == 0
    text = capsys.readouterr().out
    runs = table(text, "run")
    assert len({len(line) for line in runs}) == 1, "\n".join(runs)
    changes = table(text, "query")
    column = changes[0].index("grade") + len("grade")
    assert all(line[column - 1] in "0123" and line[column : column + 2] == "  " for line in changes[1:]), text
