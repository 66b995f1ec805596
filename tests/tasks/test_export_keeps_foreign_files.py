"""Issue 24 item 7: an export never removes a file or folder it did not write (score, compare, agreement, window).

An existing export folder is replaced only when it holds an earlier export exactly as it was
written (the files its manifest lists, with their SHA-256). Every name every export writes is
tried as the user's own folder (holding ``thesis.tex``), link and file: the export is refused,
one line naming the folder, and everything is left as it was.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.formats.export import EXPORT_FILES
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import score_run
from ndcg_desktop.tasks.agreement import AGREEMENT_FILES
from ndcg_desktop.tasks.comparing import COMPARISON_FILES
from ndcg_desktop.tasks.export import export_result
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import ScoreResult

QRELS = "q1 0 A 3\nq1 0 B 2\nq2 0 C 1\n"
RUN_A = "q1 Q0 B 1 2.0 a\nq1 Q0 A 2 1.0 a\nq2 Q0 C 1 1.0 a\n"
RUN_B = "q1 Q0 A 1 2.0 b\nq1 Q0 B 2 1.0 b\nq2 Q0 C 1 1.0 b\n"


def _score_export(tmp_path: Path, target: Path) -> int:
    q, r = tmp_path / "q.txt", tmp_path / "a.run"
    return main(["score", "--qrels", str(q), "--run", str(r), "--k", "2", "--export", str(target)])


def _compare_export(tmp_path: Path, target: Path) -> int:
    q, a, b = tmp_path / "q.txt", tmp_path / "a.run", tmp_path / "b.run"
    argv = ["compare", "--qrels", str(q), "--runs", str(a), str(b), "--k", "2", "--resamples", "200"]
    return main([*argv, "--export", str(target)])


def _window_export(tmp_path: Path, target: Path) -> int:
    """The window's *Export results…*: ``tasks.export.export_result`` on a compared result."""
    path = tmp_path / "p.ndcgproj"
    if not path.exists():
        with Project.create(path, annotator="ann") as project:
            project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
            freeze_draft(project, annotator="ann")
            project.runs.import_run(tmp_path / "a.run", name="a", annotator="ann")
            project.runs.import_run(tmp_path / "b.run", name="b", annotator="ann")
    with Project.open(path) as project:
        first, second = (
            score_run(project, "a", None, EvalSettings(), 2),
            score_run(project, "b", None, EvalSettings(), 2),
        )
    table = pd.DataFrame({"query_id": ["q1"], "ndcg_a": [0.5], "ndcg_b": [0.25], "difference": [-0.25]})
    try:
        export_result(ScoreResult(first, second, table), target)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _agreement_export(tmp_path: Path, target: Path) -> int:
    """``ndcg agreement --export``: two annotators' ratings of a frozen pool, two runs."""
    path = str(tmp_path / "team.ndcgproj")
    if not Path(path).exists():
        files = {"pool.qrels": "q1 0 A -1\nq1 0 B -1\nq2 0 C -1\n", "ana.qrels": "q1 0 A 3\nq1 0 B 0\nq2 0 C 1\n"}
        files["ben.qrels"] = "q1 0 A 2\nq1 0 B 1\nq2 0 C 1\n"
        for name, text in files.items():
            (tmp_path / name).write_text(text)
        steps = [["init", path], ["import-qrels", path, str(tmp_path / "pool.qrels"), "--negative-as-ungraded"]]
        steps += [["import-qrels", path, str(tmp_path / f"{who}.qrels"), "--annotator", who] for who in ("ana", "ben")]
        steps += [["adjudicate", path, "--rule", "highest"], ["freeze", path]]
        steps += [["import-run", path, str(tmp_path / f"{run}.run"), "--name", run] for run in ("a", "b")]
        for step in steps:
            assert main(step) == 0, step
    return main(["agreement", path, "--unjudged", "zero", "--export", str(target)])


EXPORTS: dict[str, tuple[Callable[[Path, Path], int], tuple[str, ...]]] = {
    "score --export": (_score_export, EXPORT_FILES),
    "compare --export": (_compare_export, COMPARISON_FILES),
    "window: export results": (_window_export, EXPORT_FILES),
    "agreement --export": (_agreement_export, AGREEMENT_FILES),
}
CASES = [(kind, name) for kind, (_, names) in EXPORTS.items() for name in names]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "a.run").write_text(RUN_A)
    (tmp_path / "b.run").write_text(RUN_B)
    return tmp_path


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every path under ``folder`` (links not followed): a file's bytes, a link's target, a folder's mark."""
    found: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root, name)
            key = str(path.relative_to(folder))
            found[key] = (
                f"-> {os.readlink(path)}" if path.is_symlink() else "dir" if path.is_dir() else path.read_bytes()
            )
    return found


def _refused(run: Callable[[Path, Path], int], tmp_path: Path, target: Path, capsys) -> str:
    capsys.readouterr()
    assert run(tmp_path, target) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {target}: "), err
    return err


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_a_folder_of_the_users_under_an_export_name_is_kept(inputs, capsys, kind, name):
    run, _ = EXPORTS[kind]
    target = inputs / "out"
    (target / name).mkdir(parents=True)
    (target / name / "thesis.tex").write_text("x\n")
    before = _tree(target)
    _refused(run, inputs, target, capsys)
    assert _tree(target) == before
    assert sorted(p.name for p in inputs.iterdir() if p.name.startswith(".")) == []  # nothing staged left


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_a_link_or_a_file_of_the_users_under_an_export_name_is_kept(inputs, capsys, kind, name):
    run, _ = EXPORTS[kind]
    (inputs / "thesis.tex").write_text("mine\n")
    target = inputs / "out"
    target.mkdir()
    (target / name).symlink_to(inputs / "thesis.tex")
    before = _tree(target)
    _refused(run, inputs, target, capsys)
    assert _tree(target) == before and (inputs / "thesis.tex").read_text() == "mine\n"
    (target / name).unlink()
    (target / name).write_text("my own notes, never exported\n")
    _refused(run, inputs, target, capsys)
    assert (target / name).read_text() == "my own notes, never exported\n"


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_an_earlier_export_is_replaced_but_not_once_a_file_in_it_was_changed(inputs, capsys, kind):
    run, names = EXPORTS[kind]
    target = inputs / "out"
    assert run(inputs, target) == 0
    assert run(inputs, target) == 0  # an earlier export, as written: replaced whole
    written = sorted(p.name for p in target.iterdir())
    assert set(written) <= set(names) and "manifest.json" in written
    edited = target / written[-1] if written[-1] != "manifest.json" else target / written[0]
    edited.write_bytes(edited.read_bytes() + b"edited by hand\n")
    before = _tree(target)
    err = _refused(run, inputs, target, capsys)
    assert edited.name in err
    assert _tree(target) == before
