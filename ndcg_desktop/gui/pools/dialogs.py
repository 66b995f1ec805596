"""The Pool menu's dialogs: build a pool from runs (with its preview), freeze the draft."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import box_buttons, chain, plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, TableData, sorted_frame, table_data, table_view
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.gui.themes import error_colour
from ndcg_desktop.tasks.project import FreezePreview

translate = QCoreApplication.translate

PREVIEW_DELAY_MS = 250  # the build-pool preview waits for a pause in typing


POOL_PREVIEW_COLUMNS = [
    (QT_TRANSLATE_NOOP("dialogs", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("dialogs", "In the top k"), "candidates", "int"),
    (QT_TRANSLATE_NOOP("dialogs", "New to the pool"), "new", "int"),
]


def pool_preview_table(counts: pd.DataFrame) -> tuple[pd.DataFrame, TableData]:
    """The preview's counts in natural query order (q2 before q10), and its table's cells: made on the worker."""
    ordered = sorted_frame(counts, "query_id")
    return ordered, table_data(POOL_PREVIEW_COLUMNS, ordered)


class BuildPoolDialog(QDialog):
    """Choose runs and a depth; preview how many documents each query would gain; apply."""

    def __init__(
        self, runs: list[str], preview: Callable[[list[str], int], pd.DataFrame], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "Build pool from runs"))
        self.preview_fn = preview
        self.runs = QListWidget()
        self.runs.setAccessibleName(translate("dialogs", "Runs"))
        for name in runs:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.runs.addItem(item)
        self.runs.setMaximumHeight(120)
        self.pool_depth = QSpinBox(minimum=1, maximum=10_000, value=10)
        self.pool_depth.setAccessibleName(translate("dialogs", "Pool depth"))
        # A model over rows prepared on the worker: 7,000 queries made 21,000 table items on the GUI thread.
        self.model = FrameModel(POOL_PREVIEW_COLUMNS, self, context="dialogs")
        self.table = table_view(
            self.model, sortable=False, name=translate("dialogs", "Documents each query would gain")
        )
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setTabKeyNavigation(False)  # Tab moves on to the buttons
        self.summary = plain_label(wrap=True)  # may quote a reader's message (run names, IDs)
        self.summary.setAccessibleName(translate("dialogs", "Summary"))
        self.preview_button = QPushButton(translate("dialogs", "Preview"))
        self.preview_button.setAccessibleName(translate("dialogs", "Preview"))
        self.preview_button.clicked.connect(self.refresh)
        form = QFormLayout()
        form.addRow(translate("dialogs", "Runs"), self.runs)
        form.addRow(translate("dialogs", "Depth k"), self.pool_depth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(translate("dialogs", "Add to draft"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(520, 520)
        if not runs:  # nothing to choose from: only the sentence saying what to do first
            for row in range(form.rowCount()):
                form.setRowVisible(row, False)
            self.preview_button.hide()
            self.table.hide()
            self.resize(460, 120)
        chain(self.runs, self.pool_depth, self.preview_button, self.table, *box_buttons(buttons))
        # The preview reads every chosen run: in the background, once per pause, never per spin-box tick.
        self.counts: pd.DataFrame | None = None  # the shown preview (None while one is being computed)
        self._request = 0
        self._task: Task | None = None
        self.timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self.timer.timeout.connect(self.refresh)
        self.runs.itemChanged.connect(lambda _item: self._schedule())
        self.pool_depth.valueChanged.connect(lambda _v: self._schedule())
        self.refresh()

    def chosen(self) -> tuple[list[str], int]:
        names = [
            self.runs.item(i).text()
            for i in range(self.runs.count())
            if self.runs.item(i).checkState() == Qt.CheckState.Checked
        ]
        return names, self.pool_depth.value()

    def _schedule(self) -> None:
        self.counts = None
        self.ok.setEnabled(False)
        self.summary.setText(translate("dialogs", "Counting…"))
        self.timer.start()

    def refresh(self) -> None:
        """Start the preview of the chosen runs and depth in the background (a newer one supersedes it)."""
        names, depth = self.chosen()
        self.timer.stop()
        if self._task is not None:
            self._task.cancel_event.set()
        self._request += 1
        request = self._request
        self.counts = None
        self.model.clear()
        self.ok.setEnabled(False)
        if self.runs.count() == 0:
            self.summary.setText(
                translate(
                    "dialogs",
                    "No runs imported yet: a pool is built from the documents runs returned. "
                    "Import one with File ▸ Import run…, then come back here.",
                )
            )
            self.ok.setEnabled(False)
            self.preview_button.setEnabled(False)
            return
        if not names:
            self.summary.setText(translate("dialogs", "Choose at least one run."))
            return
        self.summary.setText(translate("dialogs", "Counting…"))
        self._task = run_in_background(
            lambda **_: pool_preview_table(self.preview_fn(names, depth)),
            lambda prepared: self._show(request, *prepared),
            lambda message: self._failed(request, message),
        )

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.summary.setText(message)

    def _show(self, request: int, counts: pd.DataFrame, table: TableData) -> None:
        if request != self._request:
            return
        self._task = None
        self.model.show(table)
        total = int(counts["new"].sum()) if len(counts) else 0
        self.summary.setText(
            translate("dialogs", "{total} new documents for {queries} queries will await grading.").format(
                total=total, queries=len(counts)
            )
        )
        self.counts = counts
        self.ok.setEnabled(total > 0)

    def done(self, result: int) -> None:
        self.timer.stop()
        if self._task is not None:
            self._task.cancel_event.set()
        super().done(result)


class FreezeDialog(QDialog):
    """The draft's summary (:func:`~ndcg_desktop.tasks.project.freeze_preview` counts it); ungraded items block
    freezing unless explicitly removed, and items awaiting adjudication block it whatever is removed."""

    def __init__(self, preview: FreezePreview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.preview = preview
        self.setWindowTitle(translate("dialogs", "Freeze pool version {version}").format(version=preview.version))
        form = QFormLayout()
        form.addRow(translate("dialogs", "Queries"), QLabel(str(preview.queries)))
        form.addRow(translate("dialogs", "Documents"), QLabel(str(preview.documents)))
        for counted in preview.grades:
            form.addRow(
                plain_label(
                    translate("dialogs", "Grade {grade} · {label}").format(grade=counted.grade, label=counted.label)
                ),
                QLabel(str(counted.count)),
            )
        if preview.ungraded:
            warn = QLabel(translate("dialogs", "{count} ungraded").format(count=preview.ungraded))
            warn.setStyleSheet(f"color:{error_colour()}; font-weight:bold")
        else:
            warn = QLabel(translate("dialogs", "none"))
        form.addRow(translate("dialogs", "Ungraded"), warn)
        if preview.awaiting:
            waiting = QLabel(
                translate("dialogs", "{count} of them: settle them in the Adjudicate tab first").format(
                    count=preview.awaiting
                )
            )
            waiting.setStyleSheet(f"color:{error_colour()}; font-weight:bold")
            form.addRow(translate("dialogs", "Awaiting adjudication"), waiting)
        self.remove = QCheckBox(
            translate("dialogs", "Remove the {count} ungraded items from this version").format(count=preview.ungraded)
        )
        self.remove.setAccessibleName(self.remove.text())
        self.remove.setVisible(preview.offers_removal)
        # Work still handed out (issue 33 item 13): named, and freezing waits unless the user chooses otherwise.
        self.anyway = QCheckBox(translate("dialogs", "Freeze anyway (the work still out is recorded in the audit log)"))
        self.anyway.setAccessibleName(self.anyway.text())
        self.anyway.setVisible(bool(preview.work_out))
        if preview.work_out:
            out = plain_label(preview.work_out)
            out.setWordWrap(True)
            out.setStyleSheet(f"color:{error_colour()}; font-weight:bold")
            form.addRow(translate("dialogs", "Still handed out"), out)
        text = QLabel(
            translate(
                "dialogs",
                "Freezing makes this version permanent: its judgments can never change, and scores name it "
                "by its SHA-256 hash. Later rounds start from a new draft.",
            )
        )
        text.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(translate("dialogs", "Freeze"))
        self.ok.setEnabled(preview.can_freeze(remove_ungraded=False, work_out=False))

        def allowed() -> None:
            self.ok.setEnabled(
                preview.can_freeze(remove_ungraded=self.remove.isChecked(), work_out=self.anyway.isChecked())
            )

        self.remove.toggled.connect(allowed)
        self.anyway.toggled.connect(allowed)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addLayout(form)
        layout.addWidget(self.remove)
        layout.addWidget(self.anyway)
        layout.addWidget(buttons)
        chain(self.remove, self.anyway, *box_buttons(buttons))
        self.setMinimumWidth(440)
