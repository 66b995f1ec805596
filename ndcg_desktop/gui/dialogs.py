"""Dialogs: new project, build pool, freeze, import run, keyboard shortcuts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import GradeScale, InputError, OrderKind, TiePolicy
from ndcg_desktop.store.project import default_labels

SHORTCUTS = [
    ("0 … 9", "Grade the current document and move to the next ungraded one"),
    ("↑ ↓ or J / K", "Previous / next document"),
    ("N", "Next query that still has ungraded documents"),
    ("E", "Edit the note of the current document (Enter saves, Esc returns)"),
    ("Ctrl+F", "Filter the query list"),
    ("Ctrl+Z", "Undo the last grade or note"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    ("Ctrl+N", "New project"),
    ("Ctrl+O", "Open project"),
    ("Ctrl+Shift+P", "Build pool from runs"),
    ("Ctrl+Shift+F", "Freeze the draft pool"),
    ("F1", "This list"),
    ("Ctrl+Q", "Quit (everything is already saved)"),
]


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        grid = QGridLayout()
        grid.setHorizontalSpacing(24)
        for row, (keys, what) in enumerate(SHORTCUTS):
            key_label = QLabel(f"<b>{keys}</b>")
            grid.addWidget(key_label, row, 0, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(QLabel(what), row, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(buttons)


class NewProjectDialog(QDialog):
    """Grade scale, a label per grade, and the annotator's name."""

    def __init__(self, annotator: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New project")
        self.low = QSpinBox(minimum=-1, maximum=9, value=0)
        self.high = QSpinBox(minimum=0, maximum=9, value=3)
        self.annotator = QLineEdit(annotator)
        self.annotator.setPlaceholderText("Your name, recorded with every grade")
        self.labels_form = QFormLayout()
        self.label_edits: list[QLineEdit] = []
        form = QFormLayout()
        scale_row = QWidget()
        sl = QGridLayout(scale_row)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.low, 0, 0)
        sl.addWidget(QLabel("to"), 0, 1)
        sl.addWidget(self.high, 0, 2)
        form.addRow("Grades from", scale_row)
        form.addRow("Annotator", self.annotator)
        self.error = QLabel()
        self.error.setStyleSheet("color:#a40000")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create…")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("<b>Label of each grade</b>"))
        layout.addLayout(self.labels_form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.low.valueChanged.connect(self._rebuild)
        self.high.valueChanged.connect(self._rebuild)
        self._rebuild()

    def _rebuild(self) -> None:
        old = [e.text() for e in self.label_edits]
        while self.labels_form.rowCount():
            self.labels_form.removeRow(0)
        self.label_edits = []
        if self.low.value() > self.high.value():
            return
        scale = GradeScale(self.low.value(), self.high.value())
        defaults = default_labels(scale)
        for i, grade in enumerate(range(scale.low, scale.high + 1)):
            edit = QLineEdit(old[i] if i < len(old) and old[i] else defaults[i])
            self.label_edits.append(edit)
            self.labels_form.addRow(f"Grade {grade}", edit)

    def scale(self) -> GradeScale:
        return GradeScale(self.low.value(), self.high.value())

    def labels(self) -> list[str]:
        return [e.text().strip() for e in self.label_edits]

    def _accept(self) -> None:
        if self.low.value() > self.high.value():
            self.error.setText("The lowest grade must not be above the highest.")
        elif any(not label for label in self.labels()):
            self.error.setText("Every grade needs a label.")
        elif not self.annotator.text().strip():
            self.error.setText("Enter the annotator's name: it is recorded with every grade.")
        else:
            self.accept()


ORDER_TEXTS = {
    OrderKind.SCORE: "score, highest first",
    OrderKind.RANK: "rank column, lowest first",
    OrderKind.LIST: "the order of the lines in the file",
}


class ImportRunDialog(QDialog):
    """Name a run and choose how its order is formed (score, rank or file order; ties; ID mapping)."""

    def __init__(self, suggested: str, taken: list[str], path: str | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Import run")
        self.taken = taken
        self.name = QLineEdit(suggested)
        self.ties = QComboBox()
        for policy, text in (
            (TiePolicy.DOCID_DESC, "Doc ID descending (trec_eval)"),
            (TiePolicy.DOCID_ASC, "Doc ID ascending"),
            (TiePolicy.FILE_ORDER, "File order"),
        ):
            self.ties.addItem(text, policy.value)
        self.id_map = QLineEdit()
        self.id_map.setPlaceholderText("e.g. # turns doc12#3 into doc12 (leave empty for none)")
        self.order = QComboBox()
        self.order.setAccessibleName("Order rankings by")
        self.error = QLabel()
        self.error.setStyleSheet("color:#a40000")
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Order by", self.order)
        form.addRow("Equal scores or ranks", self.ties)
        form.addRow("Cut IDs at", self.id_map)
        self.preview = QTableWidget(0, 4)
        self.preview.setHorizontalHeaderLabels(["Line", "Query", "Document", "Score / rank"])
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.preview.verticalHeader().hide()
        self.preview.setAccessibleName("The first lines as they will be read")
        self.reading = QLabel()
        self.reading.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("<b>The first lines, as they will be read</b>"))
        layout.addWidget(self.preview)
        layout.addWidget(self.reading)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(560, 460)
        self.path = path
        self._offer_orders()
        self.id_map.textChanged.connect(lambda _t: self._fill_preview())
        self.order.currentIndexChanged.connect(lambda _i: self._fill_preview())
        self._fill_preview()

    def _offer_orders(self) -> None:
        """Offer the orders this file supports, the format's default first (score for TREC, as trec_eval)."""
        if self.path is None:
            return
        from ndcg_desktop.formats.runs import preview_run

        try:
            default = preview_run(self.path)[0].order
        except InputError:
            return  # the preview shows the error
        for order in (default, *(o for o in OrderKind if o is not default)):
            try:
                preview_run(self.path, order=order)
            except InputError:
                continue
            self.order.addItem(ORDER_TEXTS[order] + (" (the file's default)" if order is default else ""), order.value)

    def _fill_preview(self) -> None:
        """Parse the head of the file with the importer's own reader (file and line on errors)."""
        if self.path is None:
            return
        from ndcg_desktop.formats.runs import preview_run

        try:
            run, lines = preview_run(self.path, order=self.chosen_order())
        except InputError as exc:
            self.preview.setRowCount(0)
            self.reading.setText(f"<span style='color:#a40000'>{exc}</span>")
            return
        queries, docs = run.queries.to_pylist(), run.doc_ids(np.arange(len(run))).to_pylist()
        values = run.rank if run.order is OrderKind.RANK else run.score
        cut = self.id_map.text()
        self.preview.setRowCount(len(run))
        for row in range(len(run)):
            doc = docs[row] if not cut else f"{docs[row]} → {docs[row].split(cut, 1)[0]}"
            value = "" if values is None else f"{values[row]:g}"
            for col, text in enumerate((str(lines[row]), queries[run.q[row]], doc, value)):
                self.preview.setItem(row, col, QTableWidgetItem(text))
        self.preview.setHorizontalHeaderItem(3, QTableWidgetItem("Rank" if run.order is OrderKind.RANK else "Score"))
        self.reading.setText(f"{run.source.format.upper()} run, " + "; ".join(run.notes) + ".")

    def _accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.error.setText("The run needs a name.")
        elif name in self.taken:
            self.error.setText(f"A run named {name!r} exists already.")
        else:
            self.accept()

    def chosen_order(self) -> OrderKind | None:
        return None if self.order.currentData() is None else OrderKind(self.order.currentData())

    def values(self) -> tuple[str, TiePolicy, str | None, OrderKind | None]:
        return (
            self.name.text().strip(),
            TiePolicy(self.ties.currentData()),
            self.id_map.text() or None,
            self.chosen_order(),
        )


class BuildPoolDialog(QDialog):
    """Choose runs and a depth; preview how many documents each query would gain; apply."""

    def __init__(self, runs: list[str], preview: Callable[[list[str], int], pd.DataFrame],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Build pool from runs")
        self.preview_fn = preview
        self.runs = QListWidget()
        self.runs.setAccessibleName("Runs")
        for name in runs:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.runs.addItem(item)
        self.runs.setMaximumHeight(120)
        self.depth = QSpinBox(minimum=1, maximum=10_000, value=10)
        self.depth.setAccessibleName("Pool depth")
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Query", "In the top k", "New to the pool"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.summary = QLabel()
        self.preview_button = QPushButton("Preview")
        self.preview_button.clicked.connect(self.refresh)
        form = QFormLayout()
        form.addRow("Runs", self.runs)
        form.addRow("Depth k", self.depth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Add to draft")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(520, 520)
        self.runs.itemChanged.connect(lambda _item: self.refresh())
        self.depth.valueChanged.connect(lambda _v: self.refresh())
        self.refresh()

    def chosen(self) -> tuple[list[str], int]:
        names = [
            self.runs.item(i).text()
            for i in range(self.runs.count())
            if self.runs.item(i).checkState() == Qt.CheckState.Checked
        ]
        return names, self.depth.value()

    def refresh(self) -> None:
        names, depth = self.chosen()
        self.table.setRowCount(0)
        if not names:
            self.summary.setText("Choose at least one run.")
            self.ok.setEnabled(False)
            return
        try:
            counts = self.preview_fn(names, depth)
        except InputError as exc:
            self.summary.setText(str(exc))
            self.ok.setEnabled(False)
            return
        self.table.setRowCount(len(counts))
        for row, rec in enumerate(counts.itertuples(index=False)):
            for col, value in enumerate((rec.query_id, rec.candidates, rec.new)):
                item = QTableWidgetItem(str(value))
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        total = int(counts["new"].sum()) if len(counts) else 0
        self.summary.setText(f"<b>{total}</b> new documents for {len(counts)} queries will await grading.")
        self.ok.setEnabled(total > 0)


class FreezeDialog(QDialog):
    """The draft's summary; ungraded items block freezing unless explicitly removed."""

    def __init__(self, version: int, items: pd.DataFrame, labels: list[str], low: int,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle(f"Freeze pool version {version}")
        ungraded = int(items["grade"].isna().sum())
        graded = items["grade"].dropna().astype(int)
        form = QFormLayout()
        form.addRow("Queries", QLabel(str(items["query_id"].nunique())))
        form.addRow("Documents", QLabel(str(len(items))))
        for i, label in enumerate(labels):
            grade = low + i
            form.addRow(f"Grade {grade} · {label}", QLabel(str(int((graded == grade).sum()))))
        warn = QLabel(f"{ungraded} ungraded" if ungraded else "none")
        if ungraded:
            warn.setStyleSheet("color:#a40000; font-weight:bold")
        form.addRow("Ungraded", warn)
        self.remove = QCheckBox(f"Remove the {ungraded} ungraded items from this version")
        self.remove.setVisible(bool(ungraded))
        text = QLabel(
            "Freezing makes this version permanent: its judgments can never change, and scores name it "
            "by its SHA-256 hash. Later rounds start from a new draft."
        )
        text.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Freeze")
        self.ok.setEnabled(not ungraded and len(items) > 0)
        self.remove.toggled.connect(lambda on: self.ok.setEnabled(on and len(items) > ungraded))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addLayout(form)
        layout.addWidget(self.remove)
        layout.addWidget(buttons)
        self.setMinimumWidth(440)
