"""Every user-chosen output path goes through one checked writer: the same refusals, the same messages.

The writers: ``ndcg export-qrels`` (TREC and CSV), ``ndcg score --export DIR``, and the window's
exports (``tasks.export.export_result`` for a folder, ``export_comparison_csv`` for a file). The
targets: the project being exported, another project, a SQLite file, a symbolic link, a FIFO, a
socket, a device, a folder, a missing folder and a read-only folder. Each refusal is one line
naming the path (exit 2 on the command line), and leaves the target and its folder as they were.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.store import Project, pool_hash
from ndcg_desktop.tasks import score_run
from ndcg_desktop.tasks.export import export_comparison_csv, export_result, write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import ScoreResult

posix = pytest.mark.skipif(sys.platform == "win32", reason="links, FIFOs, sockets and devices are POSIX")
QRELS = "=q2 0 D1 1\nq1 0 A 3\nq1 0 B 2\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 A 2 1.0 s\n=q2 Q0 D1 1 1.0 s\n"
ROOT = os.name == "posix" and os.geteuid() == 0

PROJECT = "is an ndcg-desktop project; refusing to overwrite it, choose another file name"
LINK = "is a symbolic link; choose a regular file, not a link"
SPECIAL = "is not a regular file (a device, pipe or socket); choose a regular file"
MISSING = "cannot write here: its folder does not exist"
# Root ignores permission bits: as root the folder is made immutable (chattr +i), which refuses with EPERM.
DENIED = "operation not permitted" if ROOT else "permission denied"
# target -> (the message of a file writer, the message of a folder writer)
EXPECTED = {
    "this project": (PROJECT, PROJECT),
    "another project": (PROJECT, PROJECT),
    "a SQLite file": (
        "is a SQLite database; refusing to overwrite it, choose another file name",
        "is a SQLite database; refusing to overwrite it, choose another file name",
    ),
    "a link": (LINK, LINK),
    "a FIFO": (SPECIAL, SPECIAL),
    "a socket": (SPECIAL, SPECIAL),
    "a device": (SPECIAL, SPECIAL),
    "a folder": (
        "is a folder; give a file name",
        "the folder holds other files (keep.txt is not a file an export writes); choose a new or empty folder",
    ),
    "a missing folder": (MISSING, MISSING),
    "a read-only folder": (f"cannot write the file ({DENIED})", f"cannot write the export ({DENIED})"),
}


@pytest.fixture
def setup(tmp_path: Path, write) -> Iterator[tuple[Path, ScoreResult]]:
    """The project (closed again), and a compared result of it as the window holds one."""
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.runs.import_run(write("r.txt", RUN), name="sys", annotator="ann")
        project.runs.import_run(write("r2.txt", RUN), name="other", annotator="ann")
        settings = EvalSettings()
        first, second = score_run(project, "sys", None, settings, 2), score_run(project, "other", None, settings, 2)
    table = pd.DataFrame({"query_id": ["q1"], "ndcg_a": [0.5], "ndcg_b": [0.25], "difference": [-0.25]})
    yield path, ScoreResult(first, second, table)


def _cli(capsys, *argv: str) -> str:
    """The one line a refused command prints (its exit code must be 2)."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert (code, err.count("\n")) == (2, 1), err
    return err.removeprefix("error: ").rstrip("\n")


def _task(call: Callable[[], object]) -> str:
    with pytest.raises(InputError) as raised:
        call()
    return str(raised.value)


# writer name -> (is a folder writer, call(capsys, project, result, target) -> the message)
WRITERS: dict[str, tuple[bool, Callable[..., str]]] = {
    "export-qrels": (False, lambda cap, p, r, t: _cli(cap, "export-qrels", str(p), "-o", str(t))),
    "export-qrels csv": (
        False,
        lambda cap, p, r, t: _cli(cap, "export-qrels", str(p), "-o", str(t), "--format", "csv"),
    ),
    "score --export": (
        True,
        lambda cap, p, r, t: _cli(cap, "score", "--project", str(p), "--run-name", "sys", "--export", str(t)),
    ),
    "window: export results": (True, lambda cap, p, r, t: _task(lambda: export_result(r, t))),
    "window: export comparison": (False, lambda cap, p, r, t: _task(lambda: export_comparison_csv(r, t))),
}


def _make_target(kind: str, project: Path, folder: Path) -> Path:
    folder.mkdir()
    target = folder / "t"
    if kind == "this project":
        return project
    if kind == "another project":
        with Project.create(target, annotator="bob"):
            pass
    elif kind == "a SQLite file":
        con = sqlite3.connect(target)
        con.execute("CREATE TABLE t (x)")
        con.commit()
        con.close()
    elif kind == "a link":
        (folder / "real.txt").write_text("keep\n")
        target.symlink_to(folder / "real.txt")
    elif kind == "a FIFO":
        os.mkfifo(target)
    elif kind == "a socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
        server.close()
    elif kind == "a device":
        if not ROOT:
            pytest.skip("making a device node needs root")
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device
    elif kind == "a folder":
        target.mkdir()
        (target / "keep.txt").write_text("keep\n")
    elif kind == "a missing folder":
        return folder / "missing" / "t"
    elif kind == "a read-only folder":
        if ROOT:
            made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
            if made.returncode != 0:
                pytest.skip(f"chattr +i is not available here: {made.stderr.decode().strip()}")
        else:
            folder.chmod(0o555)
    return target


def _snapshot(folder: Path, target: Path) -> object:
    """What must not change: the folder's names, and the target's kind and content.

    Scoring a project records the evaluation in it: the project's own file is compared by what
    makes it a project (the SQLite header and the application_id), and its -wal and -shm are ignored.
    """
    names = sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm")))
    if not os.path.lexists(target):
        return names, None
    mode = os.lstat(target).st_mode
    if stat.S_ISLNK(mode):
        return names, ("link", os.readlink(target))
    if stat.S_ISREG(mode) and target.suffix == ".ndcgproj":
        header = target.read_bytes()[:100]
        return names, ("project", header[:16], header[68:72])
    if stat.S_ISREG(mode):
        return names, ("file", target.read_bytes())
    if stat.S_ISDIR(mode):
        return names, ("folder", sorted(p.name for p in target.iterdir()))
    return names, ("special", stat.S_IFMT(mode))


@posix
@pytest.mark.parametrize("kind", list(EXPECTED))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_refused_target_is_named_and_left_as_it_was(setup, tmp_path, capsys, writer, kind):
    project, result = setup
    folder = tmp_path / "out"
    target = _make_target(kind, project, folder)
    watched = target.parent if target.parent.exists() else folder
    before = _snapshot(watched, target)
    is_folder_writer, call = WRITERS[writer]
    try:
        message = call(capsys, project, result, target)
        after = _snapshot(watched, target)
    finally:
        if kind == "a read-only folder" and ROOT:
            subprocess.run(["chattr", "-i", str(folder)], check=False)
        folder.chmod(0o755)
    assert message == f"{target}: {EXPECTED[kind][is_folder_writer]}"
    assert after == before  # the target untouched, no temporary left beside it


def test_score_export_to_a_file_says_it_is_a_file(setup, tmp_path, capsys):
    project, _ = setup
    target = tmp_path / "results.csv"
    target.write_text("mine\n")
    message = _cli(capsys, "score", "--project", str(project), "--run-name", "sys", "--export", str(target))
    assert message == f"{target}: is a file, not a folder; choose a new or empty folder"
    assert target.read_text() == "mine\n"


def test_a_regular_file_is_replaced_atomically_with_the_umask(setup, tmp_path, capsys):
    project, _ = setup
    target = tmp_path / "old.qrels"
    target.write_text("old\n")
    old = os.umask(0o027)
    try:  # not an earlier export of ours: replaced only with --force (tests/tasks/test_export_replaces_only_its_own.py)
        assert main(["export-qrels", str(project), "-o", str(target), "--force"]) == 0
    finally:
        os.umask(old)
    assert target.read_text() == "=q2 0 D1 1\nq1 0 A 3\nq1 0 B 2\n"
    if os.name == "posix":
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_qrels_csv_is_data_written_exactly_and_reimports_to_the_same_hash(setup, tmp_path):
    """A qrels file is not a spreadsheet export: ``=q2`` stays ``=q2`` (PRODUCT rule 14: round trip)."""
    project, _ = setup
    target = tmp_path / "pool.csv"
    with Project.open(project, read_only=True) as opened:
        version = write_qrels(opened, target, fmt="csv")
        scale = opened.scale
    assert target.read_text(encoding="utf-8") == "query_id,doc_id,grade\n=q2,D1,1\nq1,A,3\nq1,B,2\n"
    again = read_qrels(target, scale=scale)
    assert pool_hash(again.frame, scale) == version.hash


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["score", "status"])
def test_a_full_standard_output_is_one_line_and_exit_2(setup, command):
    project, _ = setup
    argv = (
        ["status", str(project)] if command == "status" else ["score", "--project", str(project), "--run-name", "sys"]
    )
    code = f"import sys; from ndcg_desktop.cli.main import entry_point; sys.argv[1:] = {argv!r}; entry_point()"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", code], stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert (done.returncode, done.stderr) == (2, "error: cannot write the output: no space left on device\n")
