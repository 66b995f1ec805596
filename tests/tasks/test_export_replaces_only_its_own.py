"""A single-file export replaces only what it wrote (issue 33, item 12): ``export-qrels -o FILE`` replaces a file
at FILE or FILE.manifest.json only when it is an earlier export of ours exactly as written (its manifest names
it with the SHA-256 it has now: the folder exports' rule), or with ``--force``; otherwise one line naming the
file, exit 2, both files as they were."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

QRELS = "q1 0 A 3\nq1 0 B 2\n"


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text(QRELS)
    with Project.create(path, annotator="ann") as p:
        p.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        freeze_draft(p, annotator="ann")
    return path


def refused(capsys, *argv: str) -> str:
    """The one line of a refusal (exit 2); every file beside the project left as it was."""
    folder = Path(argv[3]).parent
    before = files(folder)
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert files(folder) == before
    return err.removeprefix("error: ").rstrip("\n")


def files(folder: Path) -> dict[str, bytes]:
    """Every file beside the project, the project's own (and its -wal, -shm) aside."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if not p.name.startswith("p.ndcgproj")}


def export(project: Path, target: Path, *more: str) -> int:
    return main(["export-qrels", str(project), "-o", str(target), *more])


@pytest.mark.parametrize("fmt", ["trec", "csv"])
def test_a_file_the_project_did_not_write_is_refused_without_force(project, tmp_path, capsys, fmt):
    target = tmp_path / "thesis.qrels"
    target.write_text("my own qrels\n")
    message = refused(capsys, "export-qrels", str(project), "-o", str(target), "--format", fmt)
    assert message.startswith(f"{target}: exists and is not an earlier export")
    assert "--force" in message
    assert export(project, target, "--format", fmt, "--force") == 0
    assert target.read_text() != "my own qrels\n"


def test_a_manifest_name_holding_another_file_is_refused(project, tmp_path, capsys):
    target = tmp_path / "pool.qrels"
    manifest = tmp_path / "pool.qrels.manifest.json"
    for text in ('{"tool": "something else"}', "not json", json.dumps({"tool": "ndcg-desktop", "file": {"name": "x"}})):
        manifest.write_text(text)
        message = refused(capsys, "export-qrels", str(project), "-o", str(target))
        assert message.startswith(f"{manifest}: is not a manifest ndcg-desktop wrote for this file")


def test_an_earlier_export_is_replaced_and_an_edited_one_is_refused(project, tmp_path, capsys):
    target = tmp_path / "pool.qrels"
    assert export(project, target) == 0
    capsys.readouterr()
    written = json.loads((tmp_path / "pool.qrels.manifest.json").read_text())
    assert written["file"]["sha256"] == hashlib.sha256(target.read_bytes()).hexdigest()
    assert export(project, target) == 0  # our own, exactly as written: replaced
    capsys.readouterr()
    assert target.read_text() == QRELS
    target.write_text(QRELS + "q2 0 C 1\n")  # edited since: the user's now
    message = refused(capsys, "export-qrels", str(project), "-o", str(target))
    assert message.startswith(f"{target}: was changed since it was exported")


def test_a_lone_manifest_of_ours_for_a_removed_file_is_replaced(project, tmp_path, capsys):
    target = tmp_path / "pool.qrels"
    assert export(project, target) == 0
    target.unlink()
    assert export(project, target) == 0
    assert target.read_text() == QRELS
