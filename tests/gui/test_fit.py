"""Nothing is cut at 1280×800, in English or Chinese (issue 26).

Every table header of the main window (each tab with a result in it) and of its dialogs either fits its
section or is elided with the whole text as its tooltip; every one-line label fits its width.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionFrame,
    QTableView,
    QTreeView,
    QWidget,
)

from ndcg_desktop.demo import build_demo
from ndcg_desktop.gui import i18n
from ndcg_desktop.gui.scores.tables import FIT_CAP

from .conftest import shot

TABS = ("annotate", "scores", "agreement", "runs", "adjudicate")


def header_text(header: QHeaderView, section: int) -> str:
    return str(header.model().headerData(section, header.orientation(), Qt.ItemDataRole.DisplayRole) or "")


def header_needs(header: QHeaderView, section: int) -> int:
    """The width a section needs to show its text whole: text, margins and the sort indicator."""
    style = header.style()
    margin = style.pixelMetric(style.PixelMetric.PM_HeaderMargin, None, header)
    arrow = style.pixelMetric(style.PixelMetric.PM_HeaderMarkSize, None, header) if header.isSortIndicatorShown() else 0
    lines = header_text(header, section).split("\n")
    return max(header.fontMetrics().horizontalAdvance(line) for line in lines) + 2 * margin + arrow + margin


def cut_headers(top: QWidget) -> list[str]:
    """Sections narrower than their text whose header shows no tooltip with the whole text."""
    cut = []
    for header in top.findChildren(QHeaderView):
        if not header.isVisibleTo(top) or header.orientation() != Qt.Orientation.Horizontal or header.model() is None:
            continue
        for section in range(header.count()):
            if header.isSectionHidden(section) or header.sectionSize(section) == 0:
                continue
            text = header_text(header, section)
            if text and header.sectionSize(section) < header_needs(header, section):
                tip = header.model().headerData(section, header.orientation(), Qt.ItemDataRole.ToolTipRole)
                if not tip or text.replace("\n", " ") not in str(tip).replace("\n", " "):
                    cut.append(f"{header.parent().accessibleName() or type(header.parent()).__name__}: {text!r}")
    return cut


def cut_labels(top: QWidget) -> list[str]:
    """One-line labels, buttons, check boxes and combo boxes shown narrower than their text."""
    cut = []
    for widget in top.findChildren(QAbstractButton) + top.findChildren(QComboBox):
        if not widget.isVisibleTo(top) or widget.width() == 0:
            continue
        text = widget.currentText() if isinstance(widget, QComboBox) else widget.text().replace("&", "")
        if not text:
            continue
        option = QStyleOptionComboBox() if isinstance(widget, QComboBox) else None
        if option is not None:
            widget.initStyleOption(option)
            room = (
                widget.style()
                .subControlRect(
                    QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, widget
                )
                .width()
            )
        else:
            room = widget.width() - (widget.sizeHint().width() - widget.fontMetrics().horizontalAdvance(text))
        if widget.fontMetrics().horizontalAdvance(text) > room + 1:
            cut.append(f"{type(widget).__name__} {widget.accessibleName()!r}: {text!r}")
    for edit in top.findChildren(QLineEdit):  # an empty field's placeholder says what to type: read whole
        if not edit.isVisibleTo(top) or edit.text() or not edit.placeholderText() or edit.width() == 0:
            continue
        frame = QStyleOptionFrame()
        edit.initStyleOption(frame)
        room = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, frame, edit).width() - 4  # margins
        margins = edit.textMargins()
        if edit.fontMetrics().horizontalAdvance(edit.placeholderText()) > room - margins.left() - margins.right():
            cut.append(f"QLineEdit {edit.accessibleName()!r}: placeholder {edit.placeholderText()!r}")
    for label in top.findChildren(QLabel):
        rich = label.textFormat() == Qt.TextFormat.RichText
        if not label.isVisibleTo(top) or label.wordWrap() or not label.text() or rich:
            continue
        needs = min(label.minimumSizeHint().width(), label.fontMetrics().horizontalAdvance(label.text()))
        if label.width() < needs:
            cut.append(f"{label.accessibleName() or label.objectName() or 'label'}: {label.text()!r}")
    return cut


def cell_needs(view: QAbstractItemView, index) -> int:
    """The width a cell needs to show its text whole: text, the delegate's margins, an icon or a check box."""
    style = view.style()
    margin = style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
    font = index.data(Qt.ItemDataRole.FontRole)
    metrics = QFontMetrics(font) if font is not None else view.fontMetrics()
    extra = 0
    if index.data(Qt.ItemDataRole.DecorationRole) is not None:
        extra += view.iconSize().width() + 2 * margin if view.iconSize().width() > 0 else 16 + 2 * margin
    if index.data(Qt.ItemDataRole.CheckStateRole) is not None:
        extra += style.pixelMetric(style.PixelMetric.PM_IndicatorWidth, None, view) + 2 * margin
    return max((metrics.horizontalAdvance(line) for line in text.split("\n")), default=0) + 2 * margin + extra


def cut_cells(top: QWidget, rows: int = 3) -> list[str]:
    """Headers (across and down) and the cells of the first ``rows`` rows of every table shown that are narrower
    (or, down, lower) than their text: elided ("Titl", "awaiting adju…") or cut top and bottom."""
    cut = []
    for view in top.findChildren(QAbstractItemView):
        if not view.isVisibleTo(top) or view.model() is None or not isinstance(view, QTableView | QTreeView):
            continue
        name = view.accessibleName() or type(view).__name__
        model = view.model()
        header = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
        for column in range(model.columnCount()):
            if header.isSectionHidden(column) or header.sectionSize(column) == 0:
                continue
            text = header_text(header, column)
            if header.isVisibleTo(top) and text and header.sectionSize(column) < header_needs(header, column):
                cut.append(f"{name}: header {text!r} ({header.sectionSize(column)} < {header_needs(header, column)})")
            for row in range(min(rows, model.rowCount())):
                index = model.index(row, column)
                if isinstance(view, QTableView) and (view.rowSpan(row, column) > 1 or view.columnSpan(row, column) > 1):
                    continue
                shown = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
                width = view.columnWidth(column)
                capped = width >= FIT_CAP and shown in str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
                if shown and width < cell_needs(view, index) and not capped:  # a longer text: whole as a tooltip
                    cut.append(f"{name}: cell {shown!r} of {text!r} ({width} < {cell_needs(view, index)})")
        if isinstance(view, QTableView) and view.verticalHeader().isVisibleTo(top):
            down = view.verticalHeader()
            for row in range(min(rows, model.rowCount())):
                text = str(model.headerData(row, Qt.Orientation.Vertical, Qt.ItemDataRole.DisplayRole) or "")
                lines = text.split("\n")
                high = len(lines) * down.fontMetrics().height()
                wide = max(down.fontMetrics().horizontalAdvance(line) for line in lines)
                if text and (down.sectionSize(row) < high or down.width() < wide):
                    cut.append(f"{name}: row header {text!r} ({down.width()}x{down.sectionSize(row)})")
    return cut


def fill_every_view(window, qtbot) -> dict[str, QWidget]:
    """The demo project open at 1280×800 with something in every tab; the tabs by name."""
    window.resize(1280, 800)
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.queries.rowCount() > 0, timeout=10_000)
    workspace.select_query_row(0)
    workspace.select_doc_row(0)
    window.tabs.setCurrentIndex(1)
    scores = window.analysis
    scores.check()
    qtbot.waitUntil(lambda: scores.report is not None, timeout=20_000)
    for key, value in (("unjudged", "zero"), ("duplicates", "first"), ("unknown_queries", "ignore")):
        combo = scores.choices[key]
        combo.setCurrentIndex(combo.findData(value))
    scores.score_button.click()
    qtbot.waitUntil(lambda: scores.evaluation is not None, timeout=20_000)
    results = scores.results_panel.results_view
    results.setCurrentIndex(results.model().index(0, 0))
    window.tabs.setCurrentIndex(2)
    agreement = window.agreement
    agreement.compute()
    qtbot.waitUntil(lambda: agreement.result is not None, timeout=30_000)
    window.tabs.setCurrentIndex(3)
    runs = window.runs
    runs.inputs.check_button.click()
    qtbot.waitUntil(lambda: not runs.session.unchecked(), timeout=30_000)
    for group, value in (("unjudged", "zero"), ("duplicates", "first"), ("unknown_queries", "ignore")):
        combo = runs.resolve.all_combos.get(group)
        if combo is not None and combo.findData(value) >= 0:
            combo.setCurrentIndex(combo.findData(value))
    runs.resolve.apply_all.click()
    runs.inputs.score_button.click()
    qtbot.waitUntil(lambda: runs.session.result is not None, timeout=60_000)
    window.tabs.setCurrentIndex(4)
    adjudicate = window.team.view
    qtbot.waitUntil(lambda: adjudicate.found is not None, timeout=20_000)
    return {
        "annotate": window.workspace,
        "scores": window.tabs.widget(1),
        "agreement": agreement,
        "runs": runs,
        "adjudicate": adjudicate,
    }


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    """The interface language, installed before any window is built."""
    assert i18n.install(qapp, request.param) == request.param
    yield request.param
    i18n.uninstall(qapp)


def _demo_window(qtbot, tmp_path):
    from ndcg_desktop.gui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.open_project(build_demo(tmp_path / "demo.ndcgproj"))
    return window


@pytest.fixture
def demo_window(qtbot, tmp_path, language):
    window = _demo_window(qtbot, tmp_path)
    yield window
    window.close_project()


@pytest.fixture
def chinese_window(qtbot, tmp_path, qapp):
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    window = _demo_window(qtbot, tmp_path)
    yield window
    window.close_project()
    i18n.uninstall(qapp)


def test_no_header_or_label_of_the_main_window_is_cut_at_1280_by_800(qtbot, demo_window, language):
    window = demo_window
    tabs = fill_every_view(window, qtbot)
    found = []
    for i, (name, tab) in enumerate(tabs.items()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(30)
        shot(window, f"fit_{language}_{name}")
        found += [f"{name}: {c}" for c in cut_headers(tab) + cut_labels(tab)]
    found += cut_labels(window.statusBar()) + cut_labels(window.tabs.tabBar())
    print("\n".join(found))
    assert found == []


@pytest.mark.parametrize("size", [(1280, 800), (1177, 720)])  # 1177×720: what a 1280×800 screen leaves the window
def test_no_column_header_or_cell_of_a_sample_row_is_cut(qtbot, demo_window, language, size):
    """Issue 36: "Titl", "awaiting adju…", "Kappa (quadratic", "Set", "4 · P", "unju", "Where the run placed i…",
    "1 · Marginally relevant" cut top and bottom. Every header, across and down, and every cell of the first rows
    of every table shown fits whole, in each tab (the Runs tab with a pair's breakdowns open)."""
    window = demo_window
    tabs = fill_every_view(window, qtbot)
    runs = tabs["runs"]
    window.resize(*size)
    found = []
    for i, (name, tab) in enumerate(tabs.items()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(30)
        if name == "runs":  # the pair of the matrix's first cell, query by query, with both breakdowns
            matrix = runs.significance.matrix_view
            rect = matrix.visualRect(runs.significance.matrix.index(0, 1))
            qtbot.mouseClick(matrix.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            qtbot.waitUntil(lambda: runs.lower_tabs.currentWidget() is runs.pair_panel, timeout=10_000)
            runs.pair_panel.queries_view.selectRow(0) if hasattr(runs.pair_panel, "queries_view") else None
            qtbot.wait(50)
        shot(window, f"fit_cells_{language}_{size[0]}_{name}")
        found += [f"{name}: {c}" for c in cut_cells(tab)]
    print("\n".join(found))
    assert found == []


def test_the_tab_bar_and_the_annotate_panes_stay_where_they_are(qtbot, demo_window):
    window = demo_window
    window.resize(1280, 800)
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.queries.rowCount() > 0, timeout=10_000)
    where = set()
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(10)
        bar = window.tabs.tabBar()
        where.add((bar.mapTo(window, QPoint(0, 0)).y(), tuple(bar.tabRect(j).x() for j in range(bar.count()))))
    assert len(where) == 1  # the tab bar neither moves nor resizes its tabs
    window.tabs.setCurrentIndex(0)
    sizes = set()
    for row in range(workspace.queries.rowCount()):
        workspace.select_query_row(row)
        workspace.select_doc_row(0)
        qtbot.wait(5)
        sizes.add(tuple(workspace.splitter.sizes()))
    assert len(sizes) == 1  # the panes keep their widths from query to query


def test_no_header_or_label_of_a_dialog_is_cut(qtbot, demo_window, language, tmp_path):
    from ndcg_desktop.gui.pools.dialogs import BuildPoolDialog, FreezeDialog
    from ndcg_desktop.gui.pools.diff import PoolDiffDialog
    from ndcg_desktop.gui.project.dialogs import (
        ImportJudgmentsDialog,
        ImportRunDialog,
        NewProjectDialog,
        ShortcutsDialog,
    )
    from ndcg_desktop.gui.project.release import ReleasePreviewDialog
    from ndcg_desktop.gui.scores.send import SendForJudgingDialog
    from ndcg_desktop.gui.team.assign import AssignDialog
    from ndcg_desktop.tasks.importing import plan_release
    from ndcg_desktop.tasks.pool_builds import plan_pool
    from ndcg_desktop.tasks.project import freeze_preview

    window = demo_window
    project = window.project
    run = tmp_path / "bm25.run"
    run.write_text("q1 Q0 d101 1 3.5 bm25\nq1 Q0 d102 2 2.5 bm25\n")
    draft = project.pools.draft()
    dialogs = {
        "new_project": NewProjectDialog("tester", window),
        "import_run": ImportRunDialog("bm25", [], str(run), window),
        "build_pool": BuildPoolDialog(
            [r.name for r in project.runs.all()], lambda request: plan_pool(project, request), window
        ),
        "freeze": FreezeDialog(freeze_preview(project, draft.version), window),
        "shortcuts": ShortcutsDialog(window, window.workspace.grade_keys()),
        "pool_diff": PoolDiffDialog(project, window),
        "send_for_judging": SendForJudgingDialog(window.analysis.session, window),
        "assign": AssignDialog(
            project.pools.pool_items(draft.version).groupby("query_id").size(), str(tmp_path), window
        ),
        "judge": judge_dialog(window, qtbot),
        "import_judgments": ImportJudgmentsDialog("final.qrels", window),
        "release": ReleasePreviewDialog(plan_release(project, release_file(project, tmp_path)), window),
    }
    found = []
    for name, dialog in dialogs.items():
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.wait(20)
        shot(dialog, f"fit_{language}_dialog_{name}")
        found += [f"{name}: {c}" for c in cut_headers(dialog) + cut_labels(dialog)]
        if dialog.width() > 1280 or dialog.height() > 800:
            found.append(f"{name}: {dialog.width()}×{dialog.height()} is larger than the screen")
        if language == "zh_CN":
            found += [f"{name}: English {t!r}" for t in dialog_english(dialog, project)]
        dialog.close()
    print("\n".join(found))
    assert found == []


def release_file(project, tmp_path):
    """A corrected release of the demo's draft: its first item regraded, its second withdrawn, one item added."""
    items = project.pools.pool_items(project.pools.draft().version)
    pairs = zip(items["query_id"], items["doc_id"], strict=True)
    lines = [f"{q} 1 {d} {0 if i == 0 else 1}" for i, (q, d) in enumerate(pairs)]
    path = tmp_path / "final.qrels"
    path.write_text("\n".join([lines[0], *lines[2:], f"{items['query_id'].iloc[0]} 2 d-new 3"]) + "\n")
    return path


def judge_dialog(window, qtbot):
    """Pool ▸ Judge with a model… with its inputs filled and a real item's prompt shown."""
    from ndcg_desktop.gui.judge import JudgeDialog

    window.judge.session.set(model="smollm2", api_key_env="NDCG_UNSET_KEY")  # the unset key's line shows too
    dialog = JudgeDialog(window.judge.session, window)
    qtbot.waitUntil(lambda: window.judge.session.preview is not None, timeout=10_000)
    return dialog


def test_every_tab_with_a_result_in_chinese_leaves_no_interface_text_in_english(qtbot, chinese_window):
    from .test_translation import CJK, ENGLISH, strip, visible_texts

    window = chinese_window
    tabs = fill_every_view(window, qtbot)
    project = window.project
    items = project.pools.pool_items(project.pools.draft().version)
    data = [project.texts.query(q)["text"] for q in items["query_id"].unique()]  # the project's own texts: never
    data += [(project.texts.document(d) or {}).get("title", "") for d in items["doc_id"].unique()]  # translated
    left = set()
    for i in range(len(tabs)):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(20)
        for text in visible_texts(window):
            for value in sorted(filter(None, data), key=len, reverse=True):
                text = text.replace(value, " ")
            if ENGLISH.search(strip(text)) and not CJK.search(text):
                left.add(text)
    print("\n".join(sorted(left)))
    assert sorted(left) == []


def dialog_english(dialog: QWidget, project) -> list[str]:
    """Interface text of a dialog still in English (the project's data, labels and run names, left out)."""
    from .test_translation import CJK, ENGLISH, strip

    texts = [w.text() for w in dialog.findChildren(QLabel) if w.isVisibleTo(dialog)]
    texts += [w.text() for w in dialog.findChildren(QAbstractButton) if w.isVisibleTo(dialog)]
    texts += [w.itemText(i) for w in dialog.findChildren(QComboBox) for i in range(w.count())]
    for header in dialog.findChildren(QHeaderView):
        texts += [header_text(header, s) for s in range(header.count())]
    texts.append(dialog.windowTitle())
    data = [*project.labels, *(r.name for r in project.runs.all()), "bm25.run"]
    left = []
    for text in texts:
        for value in data:
            text = text.replace(value, " ")
        if ENGLISH.search(strip(text)) and not CJK.search(text):
            left.append(text)
    return left


def test_a_status_message_never_runs_into_the_permanent_labels(qtbot, demo_window, language):
    """Issue 36: at 1177×720 a long message ran under "Grading as …" and the pace. The labels step aside while a
    message needs their room and come back when it ends; a message wider than the bar keeps its text as a tooltip."""
    window = demo_window
    window.resize(1177, 720)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: window.progress_label.isVisible() and window.progress_label.text() != "", timeout=10_000)
    sides = [w for w in (window.grader_label, window.pace_label, window.progress_label) if w.isVisible()]
    short = "Saved."
    bar.showMessage(short)
    assert all(w.isVisible() for w in sides)  # a short message leaves them where they are
    long = "Exported 8 files into " + "/home/annotator/projects/trec-core-2018/exports/scores-v2-bm25-k10" * 2
    bar.showMessage(long)
    qtbot.wait(20)
    shot(window, f"fit_{language}_status_long_message")
    assert not any(w.isVisible() for w in sides)
    room = window.whole_messages.room()
    assert bar.fontMetrics().horizontalAdvance(long) <= room or bar.toolTip() == long
    bar.clearMessage()
    assert all(w.isVisible() for w in sides) and bar.toolTip() == ""
