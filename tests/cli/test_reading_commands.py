"""Every command that only reads a project reads it while another process (the window) holds its writer lock.

Issue 26: with the window open, `ndcg adjudicate` (listing only) was told to "open it read-only", an option it
does not have. Each reading command is run here while a child process holds the project open for writing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.demo import build_demo

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file locks")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The demo with version 2 frozen too and a draft 3 where two annotators grade q1/d101 differently."""
    folder = tmp_path_factory.mktemp("reading")
    path = build_demo(folder / "demo.ndcgproj")
    assert main(["freeze", str(path), "--remove-ungraded"]) == 0
    assert main(["new-draft", str(path)]) == 0
    for name, grade in (("ana", 3), ("ben", 1)):
        ratings = folder / f"{name}.qrels"
        ratings.write_text(f"q1 0 d101 {grade}\n")
        assert main(["import-qrels", str(path), str(ratings), "--annotator", name]) == 0
    return path


SCORING = ["--unjudged", "zero", "--unknown-queries", "ignore", "--duplicates", "first"]
READING = {
    "status": lambda p, out: ["status", p],
    "export-qrels": lambda p, out: ["export-qrels", p, "-o", str(out / "v1.qrels"), "--version", "1"],
    "score --project": lambda p, out: ["score", "--project", p, "--run-name", "bm25", "--pool-version", "1", *SCORING],
    "compare --project": lambda p, out: [
        "compare",
        "--project",
        p,
        "--run-names",
        "bm25",
        "dense",
        "--pool-version",
        "1",
        "--resamples",
        "100",
        *SCORING,
    ],
    "agreement": lambda p, out: ["agreement", p, "--version", "3"],
    "diff-pools": lambda p, out: ["diff-pools", p, "1", "2", *SCORING],
    "pool --dry-run": lambda p, out: ["pool", p, "--depth", "3", "--runs", "bm25", "--dry-run"],
    "send-for-judging --dry-run": lambda p, out: ["send-for-judging", p, "--run-name", "dense", "--dry-run"],
    "adjudicate (listing)": lambda p, out: ["adjudicate", p],
}


@pytest.mark.parametrize("command", list(READING))
def test_a_reading_command_reads_while_the_window_holds_the_project(held, tmp_path, capsys, command):
    args = READING[command](str(held), tmp_path)
    assert main(args) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "error" not in err and "open it read-only" not in err
    if command == "adjudicate (listing)":
        assert main(args) == 0
        assert "1 item rated differently, 1 still open" in capsys.readouterr().out


def test_adjudicating_is_still_refused_while_the_window_holds_the_project(held, capsys):
    """Picking a grade writes: it waits for the window to close, and says which project is open elsewhere."""
    assert main(["adjudicate", str(held), "--set", "q1", "d101", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(held.name) in err and "open in another" in err
