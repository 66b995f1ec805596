"""Issue 24 item 9: an export on a full disk is one line, exit 2, nothing written (compare --export, score --export).

A tiny tmpfs (as ``tests/store/test_environment.py`` mounts one) is filled to leave every amount of
free space from none to more than the export needs, so that each file of the export (the CSVs, the
xlsxwriter workbook, Markdown, LaTeX, the manifest) is in turn the one the disk cannot hold. Each
attempt ends either with the whole export or with one line naming the folder and nothing left on
the disk; never a traceback (xlsxwriter's ``FileCreateError`` was one).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.formats.export import EXPORT_FILES
from ndcg_desktop.tasks.comparing import COMPARISON_FILES

root_only = pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0, reason="mounting needs root")
QRELS = "".join(f"q{q} 0 d{d} {(q + d) % 4}\n" for q in range(30) for d in range(8))
RUNS = {
    name: "".join(f"q{q} Q0 d{(d * step) % 8} {d + 1} {10 - d} {name}\n" for q in range(30) for d in range(8))
    for name, step in (("a", 1), ("b", 3), ("c", 5))
}
PAGE = 4096


@pytest.fixture
def disk(tmp_path) -> Iterator[Path]:
    """A 1 MiB tmpfs (root only)."""
    where = tmp_path / "mnt"
    where.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def _compare(tmp_path: Path, target: Path) -> list[str]:
    files = [tmp_path / f"{name}.run" for name in RUNS]
    return ["compare", "--qrels", str(tmp_path / "q.txt"), "--runs", *map(str, files), "--k", "5", "--resamples", "200",
            "--export", str(target)]  # fmt: skip


def _score(tmp_path: Path, target: Path) -> list[str]:
    return ["score", "--qrels", str(tmp_path / "q.txt"), "--run", str(tmp_path / "a.run"), "--k", "5",
            "--export", str(target)]  # fmt: skip


# command -> (its argv, the files its export holds)
EXPORTS = {
    "compare --export": (_compare, COMPARISON_FILES),
    "score --export": (_score, tuple(name for name in EXPORT_FILES if name != "comparison.csv")),  # one run
}


def _fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` until ``leave`` bytes (whole pages) are free."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with open(filler, "wb") as handle:
        handle.write(bytes(max(free - leave, 0)))
    assert os.statvfs(disk).f_bavail * PAGE <= leave + PAGE


@root_only
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")  # a half-written zip left to gc
@pytest.mark.parametrize("command", list(EXPORTS))
def test_an_export_on_a_full_disk_is_one_line_and_leaves_nothing(disk, tmp_path, capsys, command):
    argv, names = EXPORTS[command]
    (tmp_path / "q.txt").write_text(QRELS)
    for name, text in RUNS.items():
        (tmp_path / f"{name}.run").write_text(text)
    reference = tmp_path / "reference"
    assert main(argv(tmp_path, reference)) == 0
    needed = sum(-(-p.stat().st_size // PAGE) * PAGE for p in reference.iterdir())
    assert sorted(p.name for p in reference.iterdir()) == sorted(names)
    target = disk / "out"
    outcomes = []
    for leave in range(0, needed + 3 * PAGE, PAGE):
        _fill(disk, leave)
        capsys.readouterr()
        code = main(argv(tmp_path, target))
        err = capsys.readouterr().err
        if code == 0:
            assert sorted(p.name for p in target.iterdir()) == sorted(names), leave
            outcomes.append("written")
            break
        assert code == 2, (leave, err)
        assert err == f"error: {target}: cannot write the export (no space left on device)\n", (leave, err)
        assert sorted(p.name for p in disk.iterdir()) == ["filler"], leave  # nothing written, nothing staged
        outcomes.append("refused")
    assert outcomes[0] == "refused" and outcomes[-1] == "written"
    assert outcomes.count("refused") >= needed // PAGE - 2  # every file in turn was the one that did not fit
