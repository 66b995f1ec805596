"""GUI fixtures: fresh settings folders, a small project, and a main window on the offscreen platform."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ndcg_desktop.domain import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture(autouse=True)
def fresh_settings(tmp_path, monkeypatch):
    """Point preferences, UI state and the demo's folder at the test's own folders."""
    for name in ("CONFIG", "STATE", "DATA"):
        folder = tmp_path / name.lower()
        folder.mkdir()
        monkeypatch.setenv(f"NDCG_DESKTOP_{name}_DIR", str(folder))
    monkeypatch.setenv("NDCG_USER", "tester")


@pytest.fixture
def small_project(tmp_path) -> Path:
    """Two queries; q1 has four pool items (two graded), q2 one ungraded; one run."""
    path = tmp_path / "small.ndcgproj"
    (tmp_path / "q.tsv").write_text("q1\tfreezing judgment pools\nq2\twhy fixed universes matter\n")
    docs = [
        {"doc_id": "A", "title": "Freezing pools", "text": "A frozen pool never changes.\n\nIt is hashed."},
        {"doc_id": "B", "title": "Judgment basics", "text": "Graded judgments use a small scale."},
        {"doc_id": "C", "title": "Unrelated", "text": "Cooking pasta takes ten minutes."},
        {"doc_id": "D", "title": "Pools", "text": "Pools collect candidate documents."},
        {"doc_id": "E", "title": "Universes", "text": "The ideal comes from the judged universe."},
    ]
    (tmp_path / "d.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (tmp_path / "j.qrels").write_text("q1 0 A 3\nq1 0 B 2\nq1 0 C -1\nq1 0 D -1\nq2 0 E -1\n")
    (tmp_path / "r.run").write_text("q1 Q0 A 1 3 s\nq1 Q0 X 2 2 s\nq2 Q0 E 1 1 s\nq2 Q0 Y 2 0.5 s\n")
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.texts.import_documents(tmp_path / "d.jsonl")
        p.judgments.import_qrels(tmp_path / "j.qrels", negative_as_ungraded=True, annotator="tester")
        p.runs.import_run(tmp_path / "r.run", name="sys", annotator="tester")
        # tests walk the pool in document-ID order; blind order has its own tests
        p.judgments.set_judging_order("doc_id")
    return path


def cranfield_project(path: Path, data_dir: Path, runs: dict[str, str | None]) -> Path:
    """A project of Cranfield's judgments frozen as v1 and the named runs of tests/data/cranfield (name -> ID map)."""
    cran = data_dir / "cranfield"
    with Project.create(path, scale=GradeScale(0, 4), annotator="tester") as p:
        p.texts.import_topics(cran / "queries.tsv")
        p.judgments.import_qrels(cran / "qrels.txt", annotator="tester")
        freeze_draft(p, annotator="tester")
        for name, id_map in runs.items():
            p.runs.import_run(cran / f"{name}.run.gz", name=name, id_map=id_map, annotator="tester")
    return path


@pytest.fixture
def window(qtbot):
    from ndcg_desktop.gui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close_project()


def shot(widget, name: str) -> Path:
    """Save a screenshot for people to look at (build/screenshots, git-ignored)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    widget.grab().save(str(path))
    return path


@pytest.fixture(autouse=True)
def messages(monkeypatch):
    """Message boxes would block a headless test: record them instead (tests assert on them)."""
    from PySide6.QtWidgets import QMessageBox

    shown = Shown()

    def record(kind):
        def box(_parent, _title, text, *args, **kwargs):
            shown.append((kind, text))
            return QMessageBox.StandardButton.Ok

        return box

    for kind in ("warning", "information", "critical", "question"):
        monkeypatch.setattr(QMessageBox, kind, record(kind))
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: shown.append(("about", a[2])))
    kinds = {
        QMessageBox.Icon.Warning: "warning",
        QMessageBox.Icon.Information: "information",
        QMessageBox.Icon.Critical: "critical",
        QMessageBox.Icon.Question: "question",
    }

    def execute(box):  # message boxes built as objects (plain-text ones: ndcg_desktop.gui.plain)
        shown.append((kinds.get(box.icon(), "message"), box.text()))
        shown.boxes.append(box)
        return shown.answer

    monkeypatch.setattr(QMessageBox, "exec", execute)
    return shown


class Shown(list):
    """(kind, text) of each message box shown; ``boxes`` keeps the QMessageBox objects, ``answer`` is the reply."""

    def __init__(self) -> None:
        super().__init__()
        self.boxes: list = []
        from PySide6.QtWidgets import QMessageBox

        self.answer = QMessageBox.StandardButton.Ok
