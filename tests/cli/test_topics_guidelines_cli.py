"""`ndcg import-queries` reads topics, `ndcg set-guidelines` records guidelines, and every export names them by hash."""

from __future__ import annotations

import hashlib
import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project

GUIDE = "# Grading guidelines\n\n- **3** answers the question fully\n- **0** off topic\n"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, capsys):
    path = tmp_path / "p.ndcgproj"
    assert run(capsys, "init", path)[0] == 0
    return path


def test_import_queries_reads_a_trec_topic_file(project, data_dir, capsys):
    code, out, err = run(capsys, "import-queries", project, data_dir / "trec_topics" / "topics.701-703.txt")
    assert (code, out, err) == (0, "imported 3 queries (3 with a description, 3 with a narrative)\n", "")
    with Project.open(project, read_only=True) as opened:
        assert opened.texts.query("703")["narrative"] == (
            "A relevant document names at least one overnight rail route between two capitals; "
            "timetables count, opinion pieces do not."
        )


def test_import_queries_format_is_forced_with_format(project, write, capsys):
    path = write("topics.tsv", "<top>\n<num> Number: 9\n<title> x\n</top>\n")
    assert run(capsys, "import-queries", project, path, "--format", "trec")[:2] == (
        0,
        "imported 1 query (0 with a description, 0 with a narrative)\n",
    )
    assert run(capsys, "import-queries", project, path, "--format", "tsv") == (
        2,
        "",
        f"error: {path}:1: expected query_id<TAB>text\n",
    )


def test_a_bad_topic_file_is_one_line_naming_file_and_line_and_changes_nothing(project, write, capsys):
    good = write("good.txt", "<top>\n<num> 1\n<title> kept\n</top>\n")
    assert run(capsys, "import-queries", project, good)[0] == 0
    bad = write("bad.txt", "<top>\n<num> 1\n<title> replaced\n</top>\n<top>\n<num> 2\n<title> b\n")
    assert run(capsys, "import-queries", project, bad) == (
        2,
        "",
        f"error: {bad}:5: the topic opened at line 5 is never closed (</top> is missing)\n",
    )
    with Project.open(project, read_only=True) as opened:
        assert opened.texts.query("1")["title"] == "kept" and opened.texts.query("2") is None


def test_set_guidelines_records_the_file_and_prints_its_sha256(project, write, capsys):
    path = write("guide.md", GUIDE)
    digest = hashlib.sha256(GUIDE.encode("utf-8")).hexdigest()
    assert run(capsys, "set-guidelines", project, path) == (
        0,
        f"set the grading guidelines: {len(GUIDE.splitlines())} lines, sha256 {digest}\n",
        "",
    )
    assert (
        run(capsys, "set-guidelines", project, path)[1]
        == f"guidelines unchanged: {len(GUIDE.splitlines())} lines, sha256 {digest}\n"
    )
    code, out, _ = run(capsys, "status", project)
    assert code == 0 and f"guidelines sha256 {digest}, set " in out and "(file:guide.md)" in out
    with Project.open(project, read_only=True) as opened:
        assert [(g.text, g.source) for g in opened.texts.guidelines_history()] == [(GUIDE, "file:guide.md")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"# ok\n\xff\n", "2: invalid UTF-8"),
        (b"# ok\nfine\nnul \x00 here\n", "3: contains a NUL character"),
    ],
)
def test_a_bad_guidelines_file_is_one_line_and_sets_nothing(project, write, capsys, content, message):
    path = write("g.md", content)
    code, out, err = run(capsys, "set-guidelines", project, path)
    assert (code, out) == (2, "") and err.startswith(f"error: {path}:") and message in err and err.count("\n") == 1
    with Project.open(project, read_only=True) as opened:
        assert opened.texts.guidelines() is None


def test_manifests_name_the_guidelines_a_version_was_judged_under(project, write, tmp_path, capsys):
    """Score manifests (printed, recorded, exported) and the frozen pool's export manifest carry the SHA-256."""
    first = hashlib.sha256(GUIDE.encode("utf-8")).hexdigest()
    assert run(capsys, "set-guidelines", project, write("g.md", GUIDE))[0] == 0
    assert run(capsys, "import-qrels", project, write("q.txt", "q1 0 A 3\nq1 0 B 1\n"))[0] == 0
    assert run(capsys, "freeze", project)[0] == 0
    assert run(capsys, "import-run", project, write("r.txt", "q1 Q0 B 1 2 s\nq1 Q0 A 2 1 s\n"), "--name", "r")[0] == 0
    # the guidelines change after version 1 was frozen: version 1 still names the ones it was judged under
    assert run(capsys, "set-guidelines", project, write("g2.md", GUIDE + "- **1** related\n"))[0] == 0

    code, out, _ = run(capsys, "score", "--project", project, "--run-name", "r", "--json", "--export", tmp_path / "x")
    assert code == 0
    assert json.loads(out)["manifest"]["judgments"]["guidelines_sha256"] == first
    exported = json.loads((tmp_path / "x" / "manifest.json").read_text(encoding="utf-8"))
    assert exported["judgments"]["guidelines_sha256"] == first
    with Project.open(project, read_only=True) as opened:
        assert opened.runs.evaluations()[0].manifest["judgments"]["guidelines_sha256"] == first

    qrels = tmp_path / "pool.qrels"
    code, out, _ = run(capsys, "export-qrels", project, "-o", qrels)
    assert code == 0 and out.endswith(f", its manifest to {qrels}.manifest.json\n")
    manifest = json.loads((tmp_path / "pool.qrels.manifest.json").read_text(encoding="utf-8"))
    with Project.open(project, read_only=True) as opened:
        version = opened.pools.frozen_version(1)
    assert manifest["guidelines_sha256"] == first
    assert (manifest["pool_version"], manifest["pool_hash"]) == (1, version.hash)
    assert manifest["file"] == {
        "name": "pool.qrels",
        "format": "trec",
        "sha256": hashlib.sha256(qrels.read_bytes()).hexdigest(),
    }


def test_reimporting_topics_says_how_many_it_replaced_and_lists_them(project, write, capsys):
    """Issue 35, item 6: TREC 351-400 imported over Core 2018's topics replaced eight without a word."""
    first = write("core.txt", "".join(f"<top>\n<num> {n}\n<title> core {n}\n</top>\n" for n in (10, 2, 3, 4)))
    assert run(capsys, "import-queries", project, first)[:2] == (
        0,
        "imported 4 queries (0 with a description, 0 with a narrative)\n",
    )
    # 10 and 2 get other words, 3 is given again as it was, 5 is new; 4 is not in the file and stays
    given = ((10, "robust 10"), (3, "core 3"), (2, "robust 2"), (5, "robust 5"))
    second = write("robust.txt", "".join(f"<top>\n<num> {n}\n<title> {t}\n</top>\n" for n, t in given))
    assert run(capsys, "import-queries", project, second) == (
        0,
        "imported 4 queries (0 with a description, 0 with a narrative, 1 already stored unchanged); "
        "replaced 2 existing topics: 2 10\n",
        "",
    )
    with Project.open(project, read_only=True) as opened:
        assert [opened.texts.query(q)["title"] for q in ("2", "3", "4", "5", "10")] == [
            "robust 2", "core 3", "core 4", "robust 5", "robust 10"
        ]  # fmt: skip
