"""Shared test set-up: offscreen Qt, the real evaluation files in tests/data, small file helpers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import settings

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from tests.helpers import held_open

if not os.environ.get("QT_QPA_PLATFORM"):  # unset or empty (Qt then picks xcb and aborts without a display)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before anything imports Qt

# Hypothesis profiles: `dev` (the default) keeps the suite quick while iterating; `ci` explores more
# and is what .ci/run uses. Choose with HYPOTHESIS_PROFILE=ci or pytest's --hypothesis-profile ci.
# Tests set no example counts of their own, except a few expensive ones that ask for fewer.
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The model server and the other real processes, shared by tests/assessor and the window's judge tests
pytest_plugins = ["tests.assessor.servers"]

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"  # origin and licence of every file: tests/data/SOURCES.md


@pytest.fixture
def data_dir() -> Path:
    """The real public evaluation files kept in the repository (large ones gzipped).

    Never skipped: a test whose file is missing fails on reading it.
    """
    return DATA


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text_or_bytes) -> path of a new file in the test's folder."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", newline="")
        else:
            path.write_bytes(content)
        return path

    return _write


TWO_VERSIONS_QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\nq2 0 F 0\n"
# x puts B first for q1 and E for q2; y puts A first for q1 and misses E
RUN_X = "q1 Q0 B 1 3 x\nq1 Q0 A 2 2 x\nq2 Q0 E 1 1 x\n"
RUN_Y = "q1 Q0 A 1 3 y\nq1 Q0 C 2 2 y\nq2 Q0 F 1 1 y\n"


@pytest.fixture
def two_versions(tmp_path, write):
    """v1 (by ann) and v2 (by bob: three regraded, one removed, one added) frozen, and runs x and y stored."""
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(write("q.txt", TWO_VERSIONS_QRELS), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.pools.new_draft_from(1, annotator="ann")
    with Project.open(path) as project:
        project.judgments.set_grade("q1", "A", 0, version=2, annotator="bob")  # regraded 3 -> 0
        project.judgments.set_grade(
            "q1", "B", 0, version=2, annotator="bob"
        )  # regraded 2 -> 0: x finds nothing on q1 any more
        project.judgments.set_grade(
            "q2", "F", 2, version=2, annotator="bob"
        )  # regraded 0 -> 2: y now finds something on q2
        project.judgments.set_grade("q1", "D", None, version=2, annotator="bob")  # only ungraded items leave a draft
        project.judgments.remove_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["D"]}), version=2, annotator="bob")
        project.judgments.add_items(pd.DataFrame({"query_id": ["q2"], "doc_id": ["G"]}), version=2, annotator="bob")
        project.judgments.set_grade("q2", "G", 1, version=2, annotator="bob")
        freeze_draft(project, version=2, annotator="bob")
        project.runs.import_run(write("x.txt", RUN_X), name="x", annotator="bob")
        project.runs.import_run(write("y.txt", RUN_Y), name="y", annotator="bob")
    return path


@pytest.fixture
def held(project: Path) -> Iterator[Path]:
    """Another process holds the test module's ``project`` (a path) open for writing, as the window does."""
    with held_open(project):
        yield project
