"""The Agreement view: tables and heat map from the core's report, computed off the GUI thread, never stale."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from ndcg_desktop.domain import UnjudgedPolicy
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.agreement import compute_agreement
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot

L3 = math.log2(3)
QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq2 0 X 1\nq2 0 Y 0\n"
RUNS = {
    "sysA": "q1 Q0 A 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 Y 1 3 t\n",
    "sysB": "q1 Q0 B 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 X 1 3 t\n",
}
RATINGS = pd.DataFrame(
    [
        ("q1", "A", "ana", 3), ("q1", "B", "ana", 0), ("q1", "C", "ana", 0),
        ("q1", "A", "ben", 0), ("q1", "B", "ben", 3), ("q1", "C", "ben", 0),
        ("q2", "X", "ana", 1), ("q2", "X", "ben", 1), ("q2", "Y", "ana", 0), ("q2", "Y", "ben", 1),
    ],
    columns=["query_id", "doc_id", "annotator", "grade"],
)  # fmt: skip


def hand_made_loader(project, version, settings, **kwargs):
    """The view's computation with this test's ratings (the store's ratings are read by the default loader)."""
    return compute_agreement(project, project.pools.version(version), RATINGS, settings, **kwargs)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "q.txt").write_text(QRELS)
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as opened:
        opened.judgments.import_qrels(tmp_path / "q.txt", annotator="lead")
        freeze_draft(opened, annotator="lead")
        for name, text in RUNS.items():
            (tmp_path / f"{name}.run").write_text(text)
            opened.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="lead")
        yield opened


@pytest.fixture
def view(qtbot, project):
    from ndcg_desktop.gui.agreement import AgreementView

    widget = AgreementView(loader=hand_made_loader)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    widget.set_project(project)
    return widget


def computed(qtbot, view):
    view.compute()
    qtbot.waitUntil(lambda: view.result is not None, timeout=20_000)
    return view.result


def cell(model, row, column):
    return model.value(row, column)


def test_tables_show_the_reports_figures(qtbot, view, qtmodeltester):
    result = computed(qtbot, view)
    overall = result.report.overall
    # all queries first, then q1 and q2; four decimals of the core's numbers
    assert [cell(view.groups, r, "query_id") for r in range(3)] == ["(all queries)", "q1", "q2"]
    assert cell(view.groups, 0, "shared_items") == "5"
    assert cell(view.groups, 0, "alpha_ordinal") == f"{overall.alpha.value:.4f}"
    # q1: ana and ben agree on C only
    assert cell(view.groups, 1, "unanimous") == f"{1 / 3:.4f}"
    assert cell(view.pairs, 0, "raw_agreement") == f"{2 / 5:.4f}"  # all queries: C and X agree; A, B, Y differ
    for model in (view.groups, view.pairs, view.leniency, view.taus, view.means, view.confusion):
        qtmodeltester.check(model)


def test_the_heat_map_counts_the_pairs_grades(qtbot, view, project):
    computed(qtbot, view)
    wide = RATINGS.pivot(index=["query_id", "doc_id"], columns="annotator", values="grade")
    expected = pd.crosstab(wide["ana"], wide["ben"]).reindex(index=range(4), columns=range(4), fill_value=0)
    shown = [[int(view.confusion.data(view.confusion.index(i, j))) for j in range(4)] for i in range(4)]
    assert shown == expected.values.tolist()
    assert view.confusion.headerData(3, Qt.Orientation.Vertical) == f"3 · {project.labels[3]}"
    assert view.matrix_caption.text() == "Rows: ana's grade; columns: ben's grade; all queries"
    view.groups_view.selectRow(2)  # q1 (rows sorted as loaded: all queries, q1, q2)
    view.groups_view.selectRow(1)
    q1 = wide.loc["q1"]
    expected_q1 = pd.crosstab(q1["ana"], q1["ben"]).reindex(index=range(4), columns=range(4), fill_value=0)
    shown = [[int(view.confusion.data(view.confusion.index(i, j))) for j in range(4)] for i in range(4)]
    assert shown == expected_q1.values.tolist()
    assert view.matrix_caption.text() == "Rows: ana's grade; columns: ben's grade; q1"
    shot(view, "agreement")


def test_systems_tab_shows_each_runs_mean_under_each_judge(qtbot, view):
    view.unjudged.setCurrentIndex(view.unjudged.findData(UnjudgedPolicy.ZERO.value))
    view.unjudged.activated.emit(view.unjudged.currentIndex())
    result = computed(qtbot, view)
    means = result.systems.means.set_index("run")
    headers = [view.means.headerData(c, Qt.Orientation.Horizontal) for c in range(view.means.columnCount())]
    assert headers == ["Run", "consensus", "ana", "ben"]
    assert cell(view.means, 0, "ana") == f"{means.loc['sysA', 'ana']:.4f}"
    assert "2 queries" in view.systems_note.text()
    view.tabs.setCurrentIndex(1)
    shot(view, "agreement_systems")


def test_a_changed_input_clears_the_result_and_drops_a_late_one(qtbot, view):
    computed(qtbot, view)
    job = view.session.job()
    late = job()
    view.k.setValue(5)  # the inputs the result was computed from are gone
    assert view.result is None
    assert view.groups.rowCount() == 0 and view.confusion.rowCount() == 0
    assert view.session.apply(job, late) is False  # computed under K=10: never shown under K=5
    assert view.result is None


def test_export_writes_the_folder(qtbot, view, tmp_path):
    computed(qtbot, view)
    written = view.export(str(tmp_path / "out"))
    assert sorted(p.name for p in written)[:2] == ["agreement.csv", "confusion.csv"]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    errors = []
    view.error.connect(errors.append)
    assert view.export(str(tmp_path / "other")) == []
    why = "keep.txt is not a file an export writes"
    assert errors == [f"{tmp_path / 'other'}: the folder holds other files ({why}); choose a new or empty folder"]


def test_duplicates_and_unknown_queries_are_resolved_in_the_window(qtbot, view, project, tmp_path):
    # a run with a repeated document and a query the pool does not have: refused until both are chosen
    (tmp_path / "sysC.run").write_text("q1 Q0 A 1 3 t\nq1 Q0 A 2 2 t\nq9 Q0 Z 1 3 t\n")
    project.runs.import_run(tmp_path / "sysC.run", name="sysC", annotator="lead")
    view.set_project(project)
    for box, value in ((view.unjudged, UnjudgedPolicy.ZERO.value),):
        box.setCurrentIndex(box.findData(value))
        box.activated.emit(box.currentIndex())
    assert [view.duplicates.currentData(), view.unknown.currentData()] == ["reject", "reject"]
    result = computed(qtbot, view)
    assert sorted(result.systems.refused) == ["sysC"]
    for box, value in ((view.duplicates, "first"), (view.unknown, "ignore")):
        box.setCurrentIndex(box.findData(value))
        box.activated.emit(box.currentIndex())
    assert view.session.settings.duplicates.value == "first"
    assert view.session.settings.unknown_queries.value == "ignore"
    result = computed(qtbot, view)
    assert result.systems.refused == {}
    means = result.systems.means.set_index("run")
    # under ana's grades (A 3, B 0, C 0): sysC's q1 is A alone at rank 1, ideal A first: 1.0; q2 unanswered: 0
    assert means.loc["sysC", "ana"] == pytest.approx((1.0 + 0.0) / 2, abs=1e-12)
    view.set_project(project)  # reopened: every choice refuses again, and the boxes say so
    assert [view.unjudged.currentData(), view.duplicates.currentData(), view.unknown.currentData()] == [
        "reject",
        "reject",
        "reject",
    ]


def test_the_summary_warns_of_identical_annotators_with_the_figure_without_the_duplicate(qtbot, project):
    from ndcg_desktop.gui.agreement import AgreementView

    more = pd.DataFrame([("q3", f"M{i}", "ben", i % 4) for i in range(5)], columns=RATINGS.columns)  # ten in all
    ben = pd.concat([RATINGS, more], ignore_index=True)
    twice = pd.concat([ben, ben[ben["annotator"] == "ben"].assign(annotator="import:ben.qrels")])

    def loader(project, version, settings, **kwargs):
        return compute_agreement(project, project.pools.version(version), twice, settings, **kwargs)

    widget = AgreementView(loader=loader)
    qtbot.addWidget(widget)
    widget.set_project(project)
    result = computed(qtbot, widget)
    lines = widget.summary.text().split("\n")
    assert len(widget.session.warnings()) == 2 and widget.session.warnings() == result.warnings()
    assert lines[1] == (
        "Warning: ben and import:ben.qrels gave the same grade on every one of the 10 items both rated (at least 10: "
        "one file imported twice, or one person under two names?); the figures above count those ratings twice"
    )
    dedup = result.deduplicated.overall
    assert lines[2] == (
        f"Without import:ben.qrels: alpha {dedup.alpha.value:.4f}, unanimous {dedup.unanimous.value:.4f} (ana, ben: "
        f"2 annotators sharing {dedup.items} items)."
    )


def test_the_headline_is_the_peoples_and_the_model_has_its_own_line_with_the_same_caveats(qtbot, project, tmp_path):
    """Issue 36 items 11 and 12: a model mixed into the headline alpha (0.39 against 0.85 for the people) made the
    people look as if they disagreed; the caveats the command line printed were not all in the window."""
    from ndcg_desktop.cli.agreement import as_text
    from ndcg_desktop.gui.agreement import AgreementView
    from ndcg_desktop.tasks.agreement import export_agreement

    model = pd.DataFrame([("q1", "A", "model:m", 0), ("q1", "B", "model:m", 1)], columns=RATINGS.columns)
    rated = pd.concat([RATINGS, model], ignore_index=True)

    def loader(project, version, settings, **kwargs):
        return compute_agreement(project, project.pools.version(version), rated, settings, **kwargs)

    widget = AgreementView(loader=loader)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    widget.set_project(project)
    result = computed(qtbot, widget)
    people = compute_agreement(project, project.pools.version(1), RATINGS, widget.session.settings).report.overall
    assert result.headline.alpha == people.alpha and result.headline.items == people.items == 5
    assert result.report.overall.alpha != people.alpha  # the model moves the figure of everyone together
    lines = widget.summary.text().split("\n")
    assert f"The people's Krippendorff's alpha (ordinal): {people.alpha.value:.4f}." in lines[0]
    assert lines[1].startswith("model:m is a language model, an annotator and not the truth: its alpha with the people")
    kinds = [c.kind for c in widget.session.caveats()]
    assert kinds == ["few_items", "few_model_items", "few_runs"]  # every pair has few: the first says it
    said = [c.text() for c in result.caveats()]
    assert widget.caveats.text() == "\n".join(f"Caveat: {text}" for text in said)
    export_agreement(result, tmp_path / "out")
    import json

    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["caveats"] == said and manifest["alpha_ordinal"] == people.alpha.value
    assert manifest["models"]["model:m"]["alpha_ordinal_with_people"] == result.models[0].with_people.alpha.value
    text = as_text(result).splitlines()
    assert [line.removeprefix("caveat: ") for line in text if line.startswith("caveat: ")] == said
    assert text[2] == f"alpha      {people.alpha.value:.4f}   (Krippendorff, ordinal) (people only: ana, ben)"
    widget.grab().save("/tmp/reports_agreement_model.png")


def test_the_choices_are_the_tables_values_and_words(qtbot, view):
    """Issue 23: the view labelled the choices its own way; now with the table's words, refusing first."""
    from ndcg_desktop.domain.choices import BY_NAME

    for box, name in ((view.unjudged, "unjudged"), (view.duplicates, "duplicates"), (view.unknown, "unknown_queries")):
        choice = BY_NAME[name]
        assert [box.itemData(i) for i in range(box.count())] == list(choice.values)
        assert [box.itemText(i) for i in range(box.count())] == [
            f"{choice.label}: {choice.labels[v]}" for v in choice.values
        ]
        assert box.accessibleName() == choice.label and box.currentData() == choice.default.value
    shot(view, "agreement_choices")


def test_the_caveats_ndcg_agreement_prints_are_shown_from_the_session(qtbot, view):
    """Found with issue 23: 5 shared items and 2 runs made `ndcg agreement` print two caveats the view lacked."""
    from ndcg_desktop.tasks.agreement import caveats

    result = computed(qtbot, view)
    said = caveats(result.report, result.systems)  # the command line's sentences
    assert [c.kind for c in view.session.caveats()] == ["few_items", "few_runs"] and len(said) == 2
    assert view.caveats.text() == "\n".join(f"Caveat: {sentence}" for sentence in said)
    assert view.caveats.isVisibleTo(view)
    view.resize(1200, 760)
    view.caveats.grab().save("/tmp/shots/T3_agreement_caveats.png")
    view.grab().save("/tmp/shots/T3_agreement_view.png")
    view.k.setValue(3)  # the result goes, and its caveats with it
    assert view.caveats.text() == "" and not view.caveats.isVisibleTo(view)
