"""The single-writer lock belongs to the project file, not to the path typed (issue 11, item 12).

Before, the lock was a ``NAME.lock`` file beside the path given: opening the project through a
symlink, a hard link or ``dir/../dir/NAME`` gave a second writer, and deleting the ``.lock`` file
while a writer held it let the next one in. The lock is now taken on the project file itself.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project, ProjectInUse

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file locks")


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "real" / "p.ndcgproj"
    path.parent.mkdir()
    with Project.create(path, annotator="ann") as p:
        p.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["A"]}), annotator="ann")
    return path


def other_paths(project: Path, tmp_path: Path) -> dict[str, Path]:
    symlink = tmp_path / "link.ndcgproj"
    symlink.symlink_to(project)
    folder_link = tmp_path / "folder-link"
    folder_link.symlink_to(project.parent, target_is_directory=True)
    return {
        "symlink": symlink,
        "symlinked folder": folder_link / project.name,
        "dotdot": project.parent / ".." / project.parent.name / project.name,
    }


def test_another_path_to_a_held_project_is_refused(held, tmp_path):
    for how, path in other_paths(held, tmp_path).items():
        with pytest.raises(ProjectInUse) as refused:
            Project.open(path)
        assert str(path) in str(refused.value), how
        with Project.open(path, read_only=True) as viewer:  # reading needs no lock
            assert len(viewer.pools.pool_items(1)) == 1


def test_deleting_lock_files_beside_a_held_project_does_not_let_a_second_writer_in(held):
    for leftover in held.parent.glob("*.lock"):
        leftover.unlink()
    with pytest.raises(ProjectInUse):
        Project.open(held)


def test_another_path_in_the_same_process_is_refused_and_the_lock_comes_back(project, tmp_path):
    paths = other_paths(project, tmp_path)
    with Project.open(project):
        for path in paths.values():
            with pytest.raises(ProjectInUse):
                Project.open(path)
    for path in paths.values():  # released on close, whichever path took it
        with Project.open(path) as p:
            p.judgments.set_grade("q1", "A", 1, annotator="ann")
            with pytest.raises(ProjectInUse):
                Project.open(project)


def test_a_held_lock_leaves_no_file_beside_the_project(project):
    with Project.open(project):
        beside = [name for name in os.listdir(project.parent) if not name.endswith(("-wal", "-shm"))]
        assert beside == ["p.ndcgproj"]


@pytest.mark.parametrize("read_only", [False, True], ids=["writing", "reading"])
def test_a_project_with_a_second_hard_link_is_refused(project, tmp_path, read_only):
    """SQLite names the journal after the path: two names for one file give two journals and corrupt it."""
    hardlink = tmp_path / "hard.ndcgproj"
    os.link(project, hardlink)
    for path in (project, hardlink):
        with pytest.raises(InputError) as refused:
            Project.open(path, read_only=read_only)
        assert str(refused.value) == (
            f"{path}: has 2 names (hard links) on this disk; SQLite keeps its journal beside the name used, so two "
            "names can corrupt the project: remove the other links (or copy the file) and open it through one name"
        )
    hardlink.unlink()
    with Project.open(project, read_only=read_only) as p:
        assert len(p.pools.pool_items(1)) == 1


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_opening_and_closing_projects_leaves_no_descriptor_open(tmp_path):
    """The lock's descriptor of each file is closed once no project of the process has that file open."""
    paths = []
    for i in range(20):
        paths.append(tmp_path / f"p{i}.ndcgproj")
        Project.create(paths[-1], annotator="ann").close()
    before = len(os.listdir("/proc/self/fd"))
    for path in paths:
        with Project.open(path), Project.open(path, read_only=True):
            pass
        with Project.open(path, read_only=True), Project.open(path):
            pass
    assert len(os.listdir("/proc/self/fd")) == before
