"""A failed command changes nothing, a dry run writes nothing, a freeze is one transaction (issue 11, item 11).

Before, every write into "the draft" first created the draft in a transaction of its own, so a
command that then failed (a missing file, a bad grade, an unknown item) or only previewed (``pool
--dry-run``) left a new draft behind; ``freeze --remove-ungraded`` removed the ungraded items in one
transaction and froze in another. Each case below runs on a project with a frozen version and no
draft (where a draft would be created) and compares the whole file before and after.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import apply_send_for_judging, plan_send_for_judging
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pooling import pool_from_runs

from .conftest import dump

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def frozen(tmp_path) -> Path:
    """Version 1 frozen (q1: A=3, B=2), no draft, a run 'bm25' returning A and an unjudged X."""
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 2\n")
    (tmp_path / "r.txt").write_text("q1 Q0 X 1 3 s\nq1 Q0 A 2 2 s\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        project.runs.import_run(tmp_path / "r.txt", name="bm25", annotator="ann")
        freeze_draft(project, annotator="ann")
        assert project.pools.draft() is None
    return path


@pytest.fixture
def empty(tmp_path) -> Path:
    path = tmp_path / "e.ndcgproj"
    Project.create(path, annotator="ann").close()
    return path


@pytest.mark.parametrize("fixture", ["frozen", "empty"])
def test_import_qrels_of_a_missing_file_changes_nothing(request, tmp_path, capsys, fixture):
    path = request.getfixturevalue(fixture)
    before = dump(path)
    assert main(["import-qrels", str(path), str(tmp_path / "missing.qrels")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.qrels" in err
    assert dump(path) == before


def test_pool_dry_run_writes_nothing(frozen, capsys):
    before = dump(frozen)
    assert main(["pool", str(frozen), "--depth", "2", "--runs", "bm25", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would add 1 document to a new draft (1 query)" in out  # X is new; A is in the frozen pool
    assert dump(frozen) == before


def test_pool_preview_counts_against_the_frozen_pool_a_new_draft_would_copy(frozen):
    with Project.open(frozen) as project:
        preview = pool_from_runs(project, ["bm25"], 2, apply=False)
        assert preview.to_dict("records") == [{"query_id": "q1", "candidates": 2, "new": 1}]
        assert project.pools.draft() is None
        applied = pool_from_runs(project, ["bm25"], 2, annotator="ann")
        assert applied.to_dict("records") == preview.to_dict("records")
        assert project.pools.draft() is not None


FAILING: dict[str, Callable[[Project, Path], object]] = {
    "grade-outside-scale": lambda p, _: p.judgments.set_grade("q1", "A", 9, annotator="ann"),
    "grade-unknown-item": lambda p, _: p.judgments.set_grade("q1", "nope", 1, annotator="ann"),
    "note-unknown-item": lambda p, _: p.judgments.set_note("q1", "nope", "a note", annotator="ann"),
    "import-missing-file": lambda p, tmp: p.judgments.import_qrels(tmp / "missing.qrels", annotator="ann"),
    "import-bad-line": lambda p, tmp: p.judgments.import_qrels(tmp / "bad.qrels", annotator="ann"),
    "import-clash": lambda p, tmp: p.judgments.import_qrels(tmp / "clash.qrels", annotator="ann"),
    "pool-unknown-run": lambda p, _: pool_from_runs(p, ["nope"], 2, annotator="ann"),
    "pool-depth-0": lambda p, _: pool_from_runs(p, ["bm25"], 0, annotator="ann"),
    "send-unknown-run": lambda p, _: apply_send_for_judging(
        p, plan_send_for_judging(p, "nope", None, depth=10), annotator="ann"
    ),
    "add-frozen-version": lambda p, _: p.judgments.add_items(
        pd.DataFrame({"query_id": ["q1"], "doc_id": ["Z"]}), version=1, annotator="ann"
    ),
    "freeze-without-draft": lambda p, _: freeze_draft(p, annotator="ann"),
    "new-draft-from-missing": lambda p, _: p.pools.new_draft_from(7, annotator="ann"),
}


@pytest.mark.parametrize("operation", FAILING.values(), ids=FAILING.keys())
def test_a_failing_store_call_changes_nothing(frozen, tmp_path, operation):
    (tmp_path / "bad.qrels").write_text("q1 0 C 1\nq1 0 D x\n")
    (tmp_path / "clash.qrels").write_text("q1 0 C 1\nq1 0 A 0\n")  # A is graded 3 in the version a draft copies
    before = dump(frozen)
    with Project.open(frozen) as project:
        with pytest.raises(InputError):
            operation(project, tmp_path)
        assert project.pools.draft() is None
    assert dump(frozen) == before


def test_remove_ungraded_without_a_draft_creates_none(frozen):
    before = dump(frozen)
    with Project.open(frozen) as project:
        assert project.judgments.remove_ungraded(annotator="ann") == 0
    assert dump(frozen) == before


FAILING_COMMANDS = {
    "import-qrels-bad-line": ["import-qrels", "{p}", "{tmp}/bad.qrels"],
    "import-qrels-clash": ["import-qrels", "{p}", "{tmp}/clash.qrels"],
    "pool-unknown-run": ["pool", "{p}", "--depth", "2", "--runs", "nope"],
    "send-for-judging-unknown-run": ["send-for-judging", "{p}", "--run-name", "nope"],
    "freeze-without-draft": ["freeze", "{p}"],
    "new-draft-from-missing": ["new-draft", "{p}", "--from-version", "7"],
}


@pytest.mark.parametrize("argv", FAILING_COMMANDS.values(), ids=FAILING_COMMANDS.keys())
def test_a_failing_command_exits_2_and_changes_nothing(frozen, tmp_path, capsys, argv):
    (tmp_path / "bad.qrels").write_text("q1 0 C 1\nq1 0 D x\n")
    (tmp_path / "clash.qrels").write_text("q1 0 C 1\nq1 0 A 0\n")
    before = dump(frozen)
    assert main([a.format(p=frozen, tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert dump(frozen) == before


KILLED_WHILE_FREEZING = """
import os, signal, sys
import ndcg_desktop.store.hashes as hashes

class Killed:
    def sha256(self, *args):
        os.kill(os.getpid(), signal.SIGKILL)  # the freeze is killed once it starts hashing

hashes.hashlib = Killed()
from ndcg_desktop.cli.main import main
main(["freeze", sys.argv[1], "--remove-ungraded"])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_freeze_remove_ungraded_killed_part_way_leaves_the_draft_as_it_was(tmp_path):
    path = tmp_path / "draft.ndcgproj"
    with Project.create(path, annotator="ann") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["A", "B", "C"]}), annotator="ann")
        project.judgments.set_grade("q1", "A", 3, annotator="ann")
    before = dump(path)
    script = tmp_path / "kill.py"
    script.write_text(KILLED_WHILE_FREEZING)
    proc = subprocess.run([sys.executable, str(script), str(path)], cwd=REPO, capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    assert dump(path) == before  # B and C still there, ungraded; nothing frozen
    with Project.open(path) as project:
        version = freeze_draft(
            project, remove_ungraded=True, annotator="ann"
        )  # and the same freeze, not killed, still works
        assert version.frozen
        assert project.pools.pool_items(version.version)["doc_id"].tolist() == ["A"]
