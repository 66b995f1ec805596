"""Qt's model tester on every item model and proxy the window holds, each filled with data.

The models are found, not listed: every QAbstractItemModel below the main window whose class is
defined in ndcg_desktop.gui, after a project is open and a run is checked and scored. A second test
makes sure that finding them misses no model class the package defines.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pandas as pd
import pytest
from PySide6.QtCore import QAbstractItemModel

import ndcg_desktop.gui
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft


def our_model_classes() -> set[type]:
    """Every concrete item model class defined in the gui package (private bases excluded)."""
    found = set()
    for info in pkgutil.walk_packages(ndcg_desktop.gui.__path__, "ndcg_desktop.gui."):  # gui/scores/ too
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, QAbstractItemModel) and cls.__module__ == module.__name__:
                if not cls.__name__.startswith("_"):
                    found.add(cls)
    return found


def models_in(window) -> list[QAbstractItemModel]:
    models = window.findChildren(QAbstractItemModel)
    return [m for m in models if type(m).__module__.startswith("ndcg_desktop.gui.")]


@pytest.fixture
def frozen_project(tmp_path):
    """Two graded queries frozen as v1, a draft v2 with an ungraded item, and two runs to compare."""
    path = tmp_path / "models.ndcgproj"
    (tmp_path / "q.tsv").write_text("q1\tfreezing judgment pools\nq2\twhy fixed universes matter\n")
    docs = "".join(f'{{"doc_id": "{d}", "title": "Title {d}", "text": "Text of {d}."}}\n' for d in "ABCDE")
    (tmp_path / "d.jsonl").write_text(docs)
    (tmp_path / "j.qrels").write_text("q1 0 A 3\nq1 0 B 2\nq1 0 C 0\nq2 0 D 1\nq2 0 E 0\n")
    (tmp_path / "a.run").write_text("q1 Q0 B 1 3 a\nq1 Q0 X 2 2 a\nq1 Q0 A 3 1 a\nq2 Q0 D 1 1 a\n")
    (tmp_path / "b.run").write_text("q1 Q0 A 1 3 b\nq1 Q0 C 2 2 b\nq2 Q0 E 1 2 b\nq2 Q0 D 2 1 b\n")
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.texts.import_documents(tmp_path / "d.jsonl")
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        second = p.ratings.verified(1)[["query_id", "doc_id", "grade"]].assign(annotator="ben", note="", rated_at="")
        p.ratings.add_ratings(
            second, version=1, source="a second annotator", annotator="tester"
        )  # the Agreement tab's pairs
        freeze_draft(p, annotator="tester")
        p.runs.import_run(tmp_path / "a.run", name="a", annotator="tester")
        p.runs.import_run(tmp_path / "b.run", name="b", annotator="tester")
        # draft v2: a second annotator rates q1 B differently, so the Adjudicate view lists one item
        p.pools.new_draft_from(1, annotator="tester")
        second = pd.DataFrame(
            [("q1", "B", "dan", 0, "", "t")], columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"]
        )
        p.ratings.add_ratings(second, version=2, source="test", annotator="tester")
    return path


@pytest.fixture
def scored_window(window, frozen_project, qtbot):
    """The window with the project open, run a checked and scored against v1, compared with run b."""
    window.open_project(frozen_project)
    view = window.analysis
    view.compare_box.setCurrentIndex(view.compare_box.findData("b"))
    view.k.setValue(2)  # so that run a misses A in q1 (at position 3): the missed-documents table has a row
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    for combo in view.choices.values():  # the first real choice of every flag group
        index = next(i for i in range(combo.count()) if combo.itemData(i) is not None)
        combo.setCurrentIndex(index)
    assert view.score_button.isEnabled(), view.missing_label.text()
    view.score_button.click()
    qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
    view.results_panel.results_view.selectRow(0)  # fills the breakdown's models
    view.resolve.details_button.click()  # and the flagged queries
    adjudicate = window.team.view
    window.tabs.setCurrentWidget(adjudicate)  # the Adjudicate view lists the draft's differing item
    qtbot.waitUntil(lambda: adjudicate.model.rowCount() == 1, timeout=10_000)
    runs = window.runs  # the Runs view: both runs scored and compared, the pair open, a query's breakdowns
    runs.session.set_ks([2])
    runs.check()
    qtbot.waitUntil(lambda: not runs.session.unchecked(), timeout=10_000)
    runs.session.choose_all("unjudged", "zero")
    runs.score()
    qtbot.waitUntil(lambda: runs.session.result is not None, timeout=20_000)
    runs.open_pair(2, "a", "b")
    runs.pair_panel.queries_view.selectRow(0)
    window.agreement.session.set_version(1)  # frozen: the systems check too (run a is refused: X is unjudged)
    window.agreement.compute()  # the Agreement tab's tables and heat map
    qtbot.waitUntil(lambda: window.agreement.result is not None, timeout=20_000)
    return window


def test_every_model_and_proxy_passes_qtmodeltester(scored_window, qtmodeltester):
    models = models_in(scored_window)
    assert {type(m) for m in models} == our_model_classes()
    for model in models:
        assert model.rowCount() > 0, type(model).__name__  # the tester learns little from an empty model
        qtmodeltester.check(model)


def test_the_search_finds_every_model_class():
    classes = our_model_classes()
    names = {cls.__name__ for cls in classes}
    assert {"QueryListModel", "PoolTableModel", "PoolFilterProxy", "QueryFilterProxy"} <= names
    assert all(issubclass(cls, QAbstractItemModel) for cls in classes)
