"""What the Runs view compares: the pool version, the cut-offs and knobs, the statistics, and each run's choices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label, tip_headers
from ndcg_desktop.gui.scores.pickers import fill_residual_box
from ndcg_desktop.gui.scores.text import (
    CHOICE_TEXTS,
    GROUP_TITLES,
    choice_items,
    choice_title,
    found_text,
    keys_text,
    listing,
)
from ndcg_desktop.sessions.runs import (
    CHECKS,
    CHOICES_CHANGED,
    INPUTS,
    PROJECT,
    RUN_CHOICES,
    SETTINGS,
    STATS,
    Correction,
    RunsSession,
    StatTest,
)

translate = QCoreApplication.translate
CHECK_KEYS = QKeySequence("F5")
SCORE_KEYS = QKeySequence("Ctrl+Return")

TEST_TEXTS = {
    StatTest.T: QT_TRANSLATE_NOOP("runs", "paired t-test"),
    StatTest.WILCOXON: QT_TRANSLATE_NOOP("runs", "Wilcoxon signed-rank test"),
    StatTest.RANDOMIZATION: QT_TRANSLATE_NOOP("runs", "randomization test (Fisher)"),
}
CORRECTION_TEXTS = {
    Correction.HOLM: QT_TRANSLATE_NOOP("runs", "Holm correction"),
    Correction.BH: QT_TRANSLATE_NOOP("runs", "Benjamini-Hochberg correction"),
    Correction.NONE: QT_TRANSLATE_NOOP("runs", "no correction"),
}


def _combo(name: str, items: Sequence[tuple[str, Any]]) -> QComboBox:
    combo = QComboBox()
    combo.setAccessibleName(name)
    for text, data in items:
        combo.addItem(text, data)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    return combo


def _select(combo: QComboBox, value: object) -> None:
    combo.blockSignals(True)
    combo.setCurrentIndex(max(combo.findData(value), 0))
    combo.blockSignals(False)


class RunsInputs(QWidget):
    """Pool version, cut-offs, gain, zero-IDCG rule; test, correction, baseline; Check and Score."""

    check_requested = Signal()
    score_requested = Signal()
    export_requested = Signal()

    def __init__(self, session: RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.version_box = _combo(translate("runs", "Frozen pool version"), [])
        self.version_box.setMinimumContentsLength(22)
        self.residual_box = _combo(translate("analysis", "Residual from version"), [])
        self.residual_box.setToolTip(
            translate(
                "analysis",
                "Score residually: every document judged in an earlier frozen version leaves the run and the "
                "judgments before scoring, as TREC-COVID scored its later rounds",
            )
        )
        self.ks = QLineEdit(str(DEFAULT_K))
        self.ks.setAccessibleName(translate("runs", "Cut-offs K"))
        self.ks.setToolTip(translate("runs", "One or more cut-offs, separated by commas: 5,10,20"))
        self.ks.setMaximumWidth(120)
        self.ks.editingFinished.connect(self._ks_edited)
        self.gain = _combo(choice_title("gain"), choice_items("gain"))
        self.zero_idcg = _combo(choice_title("zero_idcg"), choice_items("zero_idcg"))
        self.test = _combo(
            translate("runs", "Paired test"), [(translate("runs", t), v.value) for v, t in TEST_TEXTS.items()]
        )
        self.correction = _combo(
            translate("runs", "Correction for multiple comparisons"),
            [(translate("runs", t), v.value) for v, t in CORRECTION_TEXTS.items()],
        )
        self.baseline = _combo(translate("runs", "Pairs compared"), [])
        self.check_button = QPushButton(translate("runs", "Check runs"))
        self.check_button.setToolTip(
            translate("runs", "Find what each run needs decided before scoring ({keys})").format(
                keys=keys_text(CHECK_KEYS)
            )
        )
        self.score_button = QPushButton(translate("runs", "Score and compare"))
        self.score_button.setToolTip(
            translate("runs", "Score every run at every K and compare them ({keys})").format(keys=keys_text(SCORE_KEYS))
        )
        self.export_button = QPushButton(translate("runs", "Export…"))
        self.export_button.setToolTip(
            translate("runs", "CSV tables, one .xlsx workbook, Markdown and LaTeX (as ndcg compare --export)")
        )
        self.check_button.clicked.connect(self.check_requested)
        self.score_button.clicked.connect(self.score_requested)
        self.export_button.clicked.connect(self.export_requested)
        self.ks_error = plain_label(wrap=True)
        self.ks_error.setAccessibleName(translate("runs", "Cut-offs refused"))
        self.ks_error.setStyleSheet("color: #b00020;")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        first: list[tuple[str | None, QWidget]] = [
            (translate("runs", "Against"), self.version_box),
            (translate("analysis", "residual from"), self.residual_box),
            (translate("runs", "K"), self.ks),
            (None, self.gain),
            (None, self.zero_idcg),
        ]
        second: list[tuple[str | None, QWidget]] = [
            (translate("runs", "Significance"), self.test),
            (None, self.correction),
            (translate("runs", "pairs"), self.baseline),
        ]
        for row, items in enumerate((first, second)):
            line = QHBoxLayout()
            for text, widget in items:
                if text is not None:
                    label = QLabel(text)
                    label.setBuddy(widget)
                    line.addWidget(label)
                line.addWidget(widget)
            line.addStretch(1)
            grid.addLayout(line, row, 0)
        grid.addWidget(self.check_button, 0, 1)
        grid.addWidget(self.ks_error, 2, 0, 1, 3)
        buttons = QHBoxLayout()
        buttons.addWidget(self.score_button)
        buttons.addWidget(self.export_button)
        grid.addLayout(buttons, 1, 1)
        grid.setColumnStretch(0, 1)
        self.ks_error.hide()
        self.version_box.activated.connect(lambda _i: session.set_pool_version(self.version_box.currentData()))
        self.residual_box.activated.connect(lambda _i: session.set_residual_from(self.residual_box.currentData()))
        self.gain.activated.connect(lambda _i: session.set_gain(self.gain.currentData()))
        self.zero_idcg.activated.connect(lambda _i: session.set_zero_idcg(self.zero_idcg.currentData()))
        self.test.activated.connect(lambda _i: session.set_test(self.test.currentData()))
        self.correction.activated.connect(lambda _i: session.set_correction(self.correction.currentData()))
        self.baseline.activated.connect(lambda _i: session.set_baseline(self.baseline.currentData()))
        session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT}))

    def focus_order(self) -> list[QWidget]:
        return [
            self.version_box,
            self.residual_box,
            self.ks,
            self.gain,
            self.zero_idcg,
            self.check_button,
            self.test,
            self.correction,
            self.baseline,
            self.score_button,
            self.export_button,
        ]

    def _ks_edited(self) -> None:
        try:
            self.session.set_ks(self.ks.text())
        except InputError as exc:
            self.ks_error.setText(exc.located())  # names the field: "K names 5 twice"
            self.ks_error.show()
        else:
            self.ks_error.hide()

    def _changed(self, aspects: frozenset[str]) -> None:
        s = self.session
        if aspects & {PROJECT, INPUTS}:
            self.version_box.clear()
            for v in s.frozen_versions:
                text = translate("analysis", "pool v{version} · {hash}…").format(version=v.version, hash=v.short_hash)
                self.version_box.addItem(text, v.version)
            _select(self.version_box, s.pool_version)
        if aspects & {PROJECT, INPUTS, SETTINGS}:
            fill_residual_box(self.residual_box, s.residual_versions, s.residual_from)
        if aspects & {PROJECT, INPUTS, STATS}:
            self.baseline.clear()
            self.baseline.addItem(translate("runs", "all pairs"), None)
            for name in s.included:
                self.baseline.addItem(translate("runs", "each against {run}").format(run=name), name)
            _select(self.baseline, s.baseline)
            _select(self.test, s.stats.test.value)
            _select(self.correction, s.stats.correction.value)
        if aspects & {PROJECT, SETTINGS}:
            _select(self.gain, s.gain.value)
            _select(self.zero_idcg, s.zero_idcg.value)
            self.ks.setText(",".join(str(k) for k in s.ks))
        has_inputs = s.project is not None and s.pool_version is not None and bool(s.included)
        self.check_button.setEnabled(has_inputs and bool(s.unchecked()))
        self.score_button.setEnabled(s.ready())
        self.export_button.setEnabled(s.result is not None)


# The resolve table's columns: the run (ticked when compared), what its check found, one choice per group.
GROUPS = list(RUN_CHOICES)
RUN_COLUMN, FOUND_COLUMN = 0, 1


class RunsResolvePanel(QGroupBox):
    """One row per run: compared or not, what its check found, and a choice per flag group (unset until made)."""

    def __init__(self, session: RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.table = QTableWidget(0, 2 + len(GROUPS))
        self.table.setAccessibleName(translate("runs", "Runs and their choices"))
        self.table.setHorizontalHeaderLabels(
            [translate("runs", "Run (compared)"), translate("runs", "The check found")]
            + [translate("analysis", GROUP_TITLES[g]) for g in GROUPS]
        )
        tip_headers(self.table)
        self.table.verticalHeader().hide()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(FOUND_COLUMN, QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(self._ticked)
        self._stale = True  # the rows are of an older state of the session (rebuilt when next shown)
        self._stale_values = True  # the choices and what the checks found are (refreshed when next shown)
        self.combos: dict[tuple[str, str], QComboBox] = {}
        self.run_items: list[QTableWidgetItem] = []
        self.found_items: list[QTableWidgetItem] = []
        self.all_combos: dict[str, QComboBox] = {}  # the last row: one choice for every run, applied with a click
        self.apply_all = QPushButton()
        self.missing_label = plain_label(wrap=True)
        self.missing_label.setAccessibleName(translate("runs", "What is missing before scoring"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.missing_label)
        session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT}))

    def focus_order(self) -> list[QWidget]:
        return [self.table]

    def _apply_all(self) -> None:
        for group, combo in self.all_combos.items():
            if combo.currentData() is not None:
                self.session.choose_all(group, combo.currentData())

    def _ticked(self, item: QTableWidgetItem) -> None:
        if item.column() == RUN_COLUMN:
            self.session.include(item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked)

    def _changed(self, aspects: frozenset[str]) -> None:
        # Hidden (another tab, or folded), the table waits until shown: a window refresh after an import
        # otherwise built a row of combo boxes per run on the GUI thread while the worker still held the GIL.
        self._stale = self._stale or bool(aspects & {PROJECT, INPUTS})  # the rows themselves
        self._stale_values = self._stale_values or bool(aspects & {CHOICES_CHANGED, CHECKS, SETTINGS})
        if self.isVisible():
            self._bring_up_to_date()
        self._show_missing()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._bring_up_to_date()

    def _bring_up_to_date(self) -> None:
        if self._stale:
            self._rebuild()
        elif self._stale_values:  # the combo box that made a choice lives on: only values change
            self._refresh()

    def _rebuild(self) -> None:
        s = self.session
        self._stale = False
        self.table.blockSignals(True)
        self.table.clearContents()  # rows that stay keep their items otherwise: another project's findings
        self.table.setRowCount(len(s.runs) + 1 if s.runs else 0)
        self.combos = {}
        self.all_combos = {}
        self.run_items, self.found_items = [], []
        if not s.runs:
            self.table.blockSignals(False)
            return
        every = QTableWidgetItem(translate("runs", "For every run:"))
        every.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = every.font()
        font.setBold(True)
        every.setFont(font)
        last = len(s.runs)
        self.table.setItem(last, RUN_COLUMN, every)
        # The table owns its cell widgets and deletes them with their row: the last row's are made afresh.
        self.apply_all = QPushButton(translate("runs", "Apply to all runs"))
        self.apply_all.setToolTip(translate("runs", "The same choices for every compared run, recorded for each run"))
        self.apply_all.clicked.connect(self._apply_all)
        holder = QWidget()  # the button keeps its own width inside the stretched column
        line = QHBoxLayout(holder)
        line.setContentsMargins(0, 0, 0, 0)
        line.addStretch(1)
        line.addWidget(self.apply_all)
        self.table.setCellWidget(last, FOUND_COLUMN, holder)
        for column, group in enumerate(GROUPS, start=2):
            choices: list[tuple[str, str | None]] = [(translate("runs", "(leave as it is)"), None)]
            choices += [(translate("analysis", CHOICE_TEXTS[(group, v)]), v) for v in RUN_CHOICES[group]]
            name = translate("runs", "{group} for every run").format(group=translate("analysis", GROUP_TITLES[group]))
            self.all_combos[group] = _combo(name, choices)
            self.table.setCellWidget(last, column, self.all_combos[group])
        for row, name in enumerate(s.runs):
            item = QTableWidgetItem(name)  # a table item shows text only: run names stay plain
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            self.table.setItem(row, RUN_COLUMN, item)
            self.found_items.append(QTableWidgetItem())
            self.run_items.append(item)
            self.table.setItem(row, FOUND_COLUMN, self.found_items[-1])
            for column, group in enumerate(GROUPS, start=2):
                items: list[tuple[str, str | None]] = []
                if group != "queries":  # rule 9's default is a choice already
                    items.append((translate("analysis", "choose…"), None))
                items += [(translate("analysis", CHOICE_TEXTS[(group, v)]), v) for v in RUN_CHOICES[group]]
                combo = _combo(
                    translate("runs", "{group} for {run}").format(
                        group=translate("analysis", GROUP_TITLES[group]), run=name
                    ),
                    items,
                )
                combo.activated.connect(lambda _i, r=name, g=group, c=combo: s.choose(r, g, c.currentData()))
                self.combos[(name, group)] = combo
                self.table.setCellWidget(row, column, combo)
        self.table.blockSignals(False)
        self._refresh()

    def _refresh(self) -> None:
        s = self.session
        self._stale_values = False
        self.table.blockSignals(True)
        k = max(s.ks)
        for row, name in enumerate(s.runs):
            included = name in s.included
            self.run_items[row].setCheckState(Qt.CheckState.Checked if included else Qt.CheckState.Unchecked)
            checked = s.checks.get(name)
            if checked is None:
                found = translate("runs", "not checked yet") if included else ""
            else:
                parts = [
                    translate("analysis", "{run}: {found}").format(
                        run=translate("analysis", GROUP_TITLES[g]), found=found_text(g, checked.report, k)
                    )
                    for g in GROUPS
                    if s.found(name, g)
                ]
                if checked.report.ties_at_k:  # not a choice here (the run's tie policy is its import's): said
                    parts.append(
                        translate("analysis", "{run}: {found}").format(
                            run=translate("analysis", "Ties straddling K"), found=listing(checked.report.ties_at_k)
                        )
                    )
                found = translate("analysis", "; ", "separator between problems").join(parts) or translate(
                    "runs", "nothing to decide"
                )
            self.found_items[row].setText(found)
            self.found_items[row].setToolTip(found)
            for group in GROUPS:
                combo = self.combos[(name, group)]
                _select(combo, s.choices(name)[group])
                combo.setEnabled(included)
        self.table.blockSignals(False)
        self.table.resizeRowsToContents()
        header = self.table.horizontalHeader()
        rows = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setFixedHeight(min(rows, 8 * self.table.rowHeight(0)) + header.height() + 4)

    def _show_missing(self) -> None:
        s = self.session
        if s.project is None:
            text = ""
        elif s.pool_version is None:
            text = translate("runs", "Freeze a pool version (Pool ▸ Freeze draft) to compare runs against it.")
        elif len(s.included) < 2:
            text = translate("runs", "Tick at least two runs to compare (File ▸ Import run adds runs).")
        elif s.unchecked():
            text = translate("runs", "Check the runs to see what each needs decided: {runs}.").format(
                runs=translate("analysis", ", ", "list separator").join(s.unchecked())
            )
        elif s.missing():
            text = translate("runs", "Before scoring: {problems}.").format(
                problems=translate("analysis", "; ", "separator between problems").join(
                    translate("runs", "{run} needs a choice for {groups}").format(
                        run=run,
                        groups=translate("analysis", ", ", "list separator").join(
                            translate("analysis", GROUP_TITLES[g]) for g in groups
                        ),
                    )
                    for run, groups in s.missing().items()
                )
            )
        elif s.result is None:
            text = translate("runs", "Ready to score and compare.")
        else:
            text = translate("runs", "Scored and compared.")
        self.missing_label.setText(text)
