"""The project's dialogs: new project, import judgments, import run, keyboard shortcuts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import GradeScale, InputError, OrderKind, TiePolicy
from ndcg_desktop.domain.choices import BY_NAME
from ndcg_desktop.domain.settings import NUMBERED_LABEL, default_labels
from ndcg_desktop.formats.cells import check_person
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import box_buttons, chain, plain_label, tip_headers
from ndcg_desktop.gui.scores.text import choice_items
from ndcg_desktop.gui.themes import error_colour

translate = QCoreApplication.translate

# Keys are marked too: some languages name modifier keys differently (German "Strg").
SHORTCUTS = [
    (
        QT_TRANSLATE_NOOP("dialogs", "0 … 9"),
        QT_TRANSLATE_NOOP("dialogs", "Grade the current document and move to the next ungraded one"),
    ),
    (QT_TRANSLATE_NOOP("dialogs", "↑ ↓ or J / K"), QT_TRANSLATE_NOOP("dialogs", "Previous / next document")),
    (QT_TRANSLATE_NOOP("dialogs", "N"), QT_TRANSLATE_NOOP("dialogs", "Next query that still has ungraded documents")),
    (
        QT_TRANSLATE_NOOP("dialogs", "E"),
        QT_TRANSLATE_NOOP("dialogs", "Edit the note of the current document (Enter saves, Esc returns)"),
    ),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+F"), QT_TRANSLATE_NOOP("dialogs", "Filter the query list")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+G"), QT_TRANSLATE_NOOP("dialogs", "Show or hide the grading guidelines")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Z"), QT_TRANSLATE_NOOP("dialogs", "Undo the last grade, note or pool edit")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+Z / Ctrl+Y"), QT_TRANSLATE_NOOP("dialogs", "Redo")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+N"), QT_TRANSLATE_NOOP("dialogs", "New project")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+O"), QT_TRANSLATE_NOOP("dialogs", "Open project")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+W"), QT_TRANSLATE_NOOP("dialogs", "Close project")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+P"), QT_TRANSLATE_NOOP("dialogs", "Build pool from runs")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+F"), QT_TRANSLATE_NOOP("dialogs", "Freeze the draft pool")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+A"), QT_TRANSLATE_NOOP("dialogs", "Add a document to the query's pool")),
    (QT_TRANSLATE_NOOP("dialogs", "Delete"), QT_TRANSLATE_NOOP("dialogs", "Remove the selected ungraded document")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+E"), QT_TRANSLATE_NOOP("dialogs", "Export a frozen version as qrels")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Shift+D"), QT_TRANSLATE_NOOP("dialogs", "Compare two frozen pool versions")),
    (QT_TRANSLATE_NOOP("dialogs", "F5"), QT_TRANSLATE_NOOP("dialogs", "Scores: check the run (count every flag)")),
    (
        QT_TRANSLATE_NOOP("dialogs", "Ctrl+Enter"),
        QT_TRANSLATE_NOOP("dialogs", "Scores: score (once every flag has a choice)"),
    ),
    (QT_TRANSLATE_NOOP("dialogs", "F5"), QT_TRANSLATE_NOOP("dialogs", "Runs: check the compared runs")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Enter"), QT_TRANSLATE_NOOP("dialogs", "Runs: score and compare")),
    (QT_TRANSLATE_NOOP("dialogs", "F5"), QT_TRANSLATE_NOOP("dialogs", "Agreement: compute")),
    (
        QT_TRANSLATE_NOOP("dialogs", "0 … 9"),
        QT_TRANSLATE_NOOP("dialogs", "Adjudicate: the selected item's grade"),
    ),
    (QT_TRANSLATE_NOOP("dialogs", "F1"), QT_TRANSLATE_NOOP("dialogs", "This list")),
    (QT_TRANSLATE_NOOP("dialogs", "Ctrl+Q"), QT_TRANSLATE_NOOP("dialogs", "Quit (everything is already saved)")),
]

# The default grade labels (ndcg_desktop.domain.settings.LABEL_LADDERS), offered translated.
_DEFAULT_LABEL_TEXTS = (
    QT_TRANSLATE_NOOP("dialogs", "Not relevant"),
    QT_TRANSLATE_NOOP("dialogs", "Marginally relevant"),
    QT_TRANSLATE_NOOP("dialogs", "Relevant"),
    QT_TRANSLATE_NOOP("dialogs", "Related"),
    QT_TRANSLATE_NOOP("dialogs", "Highly relevant"),
    QT_TRANSLATE_NOOP("dialogs", "Perfect"),
)


def _default_label(text: str, grade: int) -> str:
    """A default grade label (domain.settings.default_labels), in the interface language."""
    if text in _DEFAULT_LABEL_TEXTS:
        return translate("dialogs", text)
    if text == NUMBERED_LABEL.format(grade=grade):
        return translate("dialogs", "Grade {grade}").format(grade=grade)
    return text


class ShortcutsDialog(QDialog):
    """Every shortcut; ``grade_keys`` (keys, what they do) lists the open project's own grading keys."""

    def __init__(
        self,
        parent: QWidget | None = None,
        grade_keys: tuple[str, str] | None = None,
        digit_keys: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "Keyboard shortcuts"))
        grid = QGridLayout()
        grid.setHorizontalSpacing(24)
        rows = [(translate("dialogs", keys), translate("dialogs", what)) for keys, what in SHORTCUTS]
        if grade_keys is not None:
            rows[0] = grade_keys
        if digit_keys is not None:  # the project's own digits, never 0 … 9 in a 0..3 project
            rows = [
                (digit_keys if keys == "0 … 9" else shown, what)
                for (shown, what), (keys, _) in zip(rows, SHORTCUTS, strict=True)
            ]
        for row, (keys, what) in enumerate(rows):
            key_label = plain_label(keys)
            bold = key_label.font()
            bold.setBold(True)
            key_label.setFont(bold)
            grid.addWidget(key_label, row, 0, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(plain_label(what), row, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(buttons)


class NewProjectDialog(QDialog):
    """Grade scale, a label per grade, and the annotator's name."""

    def __init__(self, annotator: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "New project"))
        self.low = QSpinBox(minimum=-1, maximum=9, value=GradeScale().low)
        self.low.setAccessibleName(translate("dialogs", "Lowest grade"))
        self.high = QSpinBox(minimum=0, maximum=9, value=GradeScale().high)
        self.high.setAccessibleName(translate("dialogs", "Highest grade"))
        self.annotator = QLineEdit(annotator)
        self.annotator.setPlaceholderText(translate("dialogs", "Your name, recorded with every grade"))
        self.annotator.setAccessibleName(translate("dialogs", "Annotator"))
        self.labels_form = QFormLayout()
        self.label_edits_by_grade: dict[int, QLineEdit] = {}
        self._shown: dict[int, str] = {}  # the default label each grade showed
        self.label_edits: list[QLineEdit] = []
        form = QFormLayout()
        scale_row = QWidget()
        sl = QGridLayout(scale_row)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.low, 0, 0)
        to_label = QLabel(translate("dialogs", "to"))
        to_label.setBuddy(self.high)
        sl.addWidget(to_label, 0, 1)
        sl.addWidget(self.high, 0, 2)
        form.addRow(translate("dialogs", "Grades from"), scale_row)
        grades_label = form.labelForField(scale_row)
        if isinstance(grades_label, QLabel):
            grades_label.setBuddy(self.low)  # the row's field is a container: point at its first box
        form.addRow(translate("dialogs", "Annotator"), self.annotator)
        self.error = QLabel()
        self.error.setStyleSheet(f"color:{error_colour()}")
        self.error.setAccessibleName(translate("dialogs", "Problem"))
        self.buttons = buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("dialogs", "Create…"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        labels_title = QLabel(translate("dialogs", "<b>Label of each grade</b>"))
        layout.addWidget(labels_title)
        layout.addLayout(self.labels_form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.low.valueChanged.connect(self._rebuild)
        self.high.valueChanged.connect(self._rebuild)
        self._rebuild()

    def _rebuild(self) -> None:
        # A label the user typed stays with its grade; one still showing a default follows the new scale.
        typed = {g: e.text() for g, e in self.label_edits_by_grade.items() if e.text() != self._shown.get(g)}
        while self.labels_form.rowCount():
            self.labels_form.removeRow(0)
        self.label_edits = []
        self.label_edits_by_grade = {}
        if self.low.value() > self.high.value():
            return
        scale = GradeScale(self.low.value(), self.high.value())
        grades = range(scale.low, scale.high + 1)
        self._shown = {g: _default_label(text, g) for g, text in zip(grades, default_labels(scale), strict=True)}
        for grade in grades:
            edit = QLineEdit(typed.get(grade) or self._shown[grade])
            self.label_edits_by_grade[grade] = edit
            edit.setAccessibleName(translate("dialogs", "Label of grade {grade}").format(grade=grade))
            self.label_edits.append(edit)
            self.labels_form.addRow(translate("dialogs", "Grade {grade}").format(grade=grade), edit)
        self._tab_order()

    def _tab_order(self) -> None:
        # Label fields are rebuilt after the buttons exist: without this, Tab would visit the buttons first.
        chain(self.low, self.high, self.annotator, *self.label_edits, *box_buttons(self.buttons))

    def scale(self) -> GradeScale:
        return GradeScale(self.low.value(), self.high.value())

    def labels(self) -> list[str]:
        return [e.text().strip() for e in self.label_edits]

    def _accept(self) -> None:
        if self.low.value() > self.high.value():
            self.error.setText(translate("dialogs", "The lowest grade must not be above the highest."))
        elif any(not label for label in self.labels()):
            self.error.setText(translate("dialogs", "Every grade needs a label."))
        elif not self.annotator.text().strip():
            self.error.setText(translate("dialogs", "Enter the annotator's name: it is recorded with every grade."))
        else:
            self.accept()


class ImportJudgmentsDialog(QDialog):
    """How a judgments file comes in: as the pool's judgments (credited to the file), or as one annotator's ratings.

    It only collects the choice and the name; ``tasks.importing`` does the import either way.
    """

    def __init__(self, file_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "Import judgments"))
        self.as_pool = QRadioButton(
            translate("dialogs", "As the pool's judgments (credited to the file {name})").format(name=file_name)
        )
        self.as_ratings = QRadioButton(translate("dialogs", "As an annotator's ratings"))
        self.as_release = QRadioButton(
            translate("dialogs", "Make the draft equal to this file (a corrected release: adds, withdraws, regrades)")
        )
        self.as_pool.setChecked(True)
        self.name = QLineEdit()
        self.name.setPlaceholderText(translate("dialogs", "The annotator's name"))
        self.name.setAccessibleName(translate("dialogs", "Annotator"))
        self.name.setEnabled(False)
        self.as_ratings.toggled.connect(self.name.setEnabled)
        note = plain_label(
            translate(
                "dialogs",
                "An annotator's ratings are settled as after a merge: the file's items the draft lacks join it, "
                "and items rated differently wait in the Adjudicate view. Without a draft, one is started.",
            ),
            wrap=True,
        )
        self.error = QLabel()
        self.error.setStyleSheet(f"color:{error_colour()}")
        self.error.setAccessibleName(translate("dialogs", "Problem"))
        self.buttons = buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("dialogs", "Import"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.as_pool, self.as_ratings, self.name, self.as_release, note, self.error, buttons):
            layout.addWidget(widget)
        chain(self.as_pool, self.as_ratings, self.name, self.as_release, *box_buttons(buttons))

    def release(self) -> bool:
        """Whether the draft is to become exactly the file's judgments (its changes are shown first)."""
        return self.as_release.isChecked()

    def annotator(self) -> str | None:
        """The name chosen (trimmed), or None for the pool's judgments."""
        return self.name.text().strip() if self.as_ratings.isChecked() else None

    def _accept(self) -> None:
        name = self.annotator()
        if name is not None:
            try:
                check_person(name, "annotator name")
            except InputError as exc:
                self.error.setText(exc.message)
                return
        self.accept()


ORDER_TEXTS = {
    OrderKind.SCORE: QT_TRANSLATE_NOOP("dialogs", "score, highest first"),
    OrderKind.RANK: QT_TRANSLATE_NOOP("dialogs", "rank column, lowest first"),
    OrderKind.LIST: QT_TRANSLATE_NOOP("dialogs", "the order of the lines in the file"),
}


# What the order leaves out of a run file, by (TREC?, order); formats.runs notes the same in English.
READING_TEXTS = {
    (True, OrderKind.SCORE): QT_TRANSLATE_NOOP("dialogs", "; the rank column is ignored, as trec_eval does"),
    (True, OrderKind.RANK): QT_TRANSLATE_NOOP("dialogs", "; scores are ignored (not trec_eval's order)"),
    (True, OrderKind.LIST): QT_TRANSLATE_NOOP("dialogs", "; scores and ranks are ignored"),
    (False, OrderKind.LIST): QT_TRANSLATE_NOOP("dialogs", "; scores and ranks are ignored"),
}


def free_name(suggested: str, taken: list[str]) -> str:
    """``suggested`` if no run has that name, else the first free ``suggested-2``, ``suggested-3``…"""
    name, n = suggested, 1
    while name in taken:
        n += 1
        name = f"{suggested}-{n}"
    return name


class ImportRunDialog(QDialog):
    """Name a run and choose how its order is formed (score, rank or file order; ties; ID mapping)."""

    def __init__(
        self, suggested: str, taken: list[str], path: str | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "Import run"))
        self.taken = taken
        self.name = QLineEdit(free_name(suggested, taken))
        self.name.setAccessibleName(translate("dialogs", "Run name"))
        self.ties = QComboBox()
        self.ties.setAccessibleName(translate("dialogs", "Equal scores or ranks"))
        for text, value in choice_items("ties"):  # the table's values, words and default (domain.choices)
            self.ties.addItem(text, value)
        self.ties.setCurrentIndex(self.ties.findData(BY_NAME["ties"].default.value))
        self.id_map = QLineEdit()
        self.id_map.setPlaceholderText(translate("dialogs", "e.g. # turns doc12#3 into doc12 (leave empty for none)"))
        # the example is what to type: wide enough to read whole in any language
        self.id_map.setMinimumWidth(self.id_map.fontMetrics().horizontalAdvance(self.id_map.placeholderText()) + 24)
        self.id_map.setAccessibleName(translate("dialogs", "Cut IDs at"))
        self.map_file: Path | None = None  # a chunk map file instead of a separator
        self.map_button = QPushButton(translate("dialogs", "Map file…"))
        self.map_button.setAccessibleName(translate("dialogs", "Choose a chunk map file"))
        self.map_button.setToolTip(
            translate("dialogs", "A file listing each chunk's document: JSONL or CSV/TSV with chunk_id and doc_id")
        )
        self.map_button.clicked.connect(lambda: self.choose_map_file("" if self.map_file is not None else None))
        id_row = QHBoxLayout()
        id_row.addWidget(self.id_map, 1)
        id_row.addWidget(self.map_button)
        self.order = QComboBox()
        self.order.setAccessibleName(translate("dialogs", "Order rankings by"))
        self.error = plain_label(wrap=True)
        self.error.setStyleSheet(f"color:{error_colour()}")
        self.error.setAccessibleName(translate("dialogs", "Problem"))
        form = QFormLayout()
        form.addRow(translate("dialogs", "Name"), self.name)
        form.addRow(translate("dialogs", "Order by"), self.order)
        form.addRow(translate("dialogs", "Equal scores or ranks"), self.ties)
        form.addRow(translate("dialogs", "Cut IDs at"), id_row)
        self.preview = QTableWidget(0, 4)
        self.preview.setHorizontalHeaderLabels(
            [
                translate("dialogs", "Line"),
                translate("dialogs", "Query"),
                translate("dialogs", "Document"),
                translate("dialogs", "Score / rank"),
            ]
        )
        tip_headers(self.preview)
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.preview.verticalHeader().hide()
        self.preview.setTabKeyNavigation(False)  # Tab moves on to the buttons
        self.preview.setAccessibleName(translate("dialogs", "The first lines as they will be read"))
        self.reading = plain_label(wrap=True)  # file names, IDs and reader messages: text, never HTML
        self.reading.setAccessibleName(translate("dialogs", "How the file is read"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.name.textChanged.connect(lambda _t: self._check_name())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        preview_title = QLabel(translate("dialogs", "<b>The first lines, as they will be read</b>"))
        preview_title.setBuddy(self.preview)
        layout.addWidget(preview_title)
        layout.addWidget(self.preview)
        layout.addWidget(self.reading)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(560, 460)
        chain(self.name, self.order, self.ties, self.id_map, self.map_button, self.preview, *box_buttons(buttons))
        self.path = path
        self._offer_orders()
        self.id_map.textChanged.connect(lambda _t: self._fill_preview())
        self.order.currentIndexChanged.connect(lambda _i: self._fill_preview())
        self._fill_preview()

    def _offer_orders(self) -> None:
        """Offer the orders this file supports, the format's default first (score for TREC, as trec_eval)."""
        if self.path is None:
            return
        from ndcg_desktop.formats.runs import supported_orders

        try:
            orders = supported_orders(self.path)
        except InputError:
            return  # the preview shows the error
        default = orders[0]
        for order in orders:
            text = translate("dialogs", ORDER_TEXTS[order])
            if order is default:
                text = translate("dialogs", "{order} (the file's default)").format(order=text)
            self.order.addItem(text, order.value)

    def _fill_preview(self) -> None:
        """Parse the head of the file with the importer's own reader (file and line on errors)."""
        if self.path is None:
            return
        from ndcg_desktop.formats.runs import preview_run

        try:
            run, lines = preview_run(self.path, order=self.chosen_order())
        except InputError as exc:
            self.preview.setRowCount(0)
            self.reading.setStyleSheet(f"color:{error_colour()}")
            self.reading.setText(exc.located())
            return
        queries, docs = run.queries.to_pylist(), run.doc_ids(np.arange(len(run))).to_pylist()
        values = run.rank if run.order is OrderKind.RANK else run.score
        cut = self.id_map.text()
        self.preview.setRowCount(len(run))
        mapped = translate("dialogs", "{doc_id} → ({file})")
        for row in range(len(run)):
            doc = docs[row] if not cut else f"{docs[row]} → {docs[row].split(cut, 1)[0]}"
            if self.map_file is not None:
                doc = mapped.format(doc_id=docs[row], file=self.map_file.name)
            value = "" if values is None else f"{values[row]:g}"
            for col, text in enumerate((str(lines[row]), queries[run.q[row]], doc, value)):
                self.preview.setItem(row, col, QTableWidgetItem(text))
        value_header = translate("dialogs", "Rank") if run.order is OrderKind.RANK else translate("dialogs", "Score")
        self.preview.setHorizontalHeaderItem(3, QTableWidgetItem(value_header))
        tip_headers(self.preview)
        # Worded here from what the reader decided (format and order); its own notes, in English, as the tooltip.
        self.reading.setStyleSheet("")
        ignored = READING_TEXTS.get((run.source.format == "trec", run.order), "")
        self.reading.setText(
            translate("dialogs", "{format} run, ordered by {order}{ignored}.").format(
                format=run.source.format.upper(),
                order=translate("dialogs", ORDER_TEXTS[run.order]),
                ignored=translate("dialogs", ignored) if ignored else "",
            )
        )
        self.reading.setToolTip("; ".join(run.notes))

    def _name_problem(self) -> str:
        name = self.name.text().strip()
        if not name:
            return translate("dialogs", "The run needs a name.")
        if name in self.taken:
            return translate("dialogs", "A run named {name} exists already.").format(name=repr(name))
        return ""

    def _check_name(self) -> None:
        """Say at once when the name is empty or taken (not only on OK)."""
        problem = self._name_problem()
        self.error.setText(problem)
        self.ok.setEnabled(not problem)

    def _accept(self) -> None:
        self._check_name()
        if not self._name_problem():
            self.accept()

    def chosen_order(self) -> OrderKind | None:
        return None if self.order.currentData() is None else OrderKind(self.order.currentData())

    def choose_map_file(self, path: str | None = None) -> None:
        """Map returned IDs through a chunk map file (read when the run is imported); "" clears it."""
        if path is None:
            path = file_dialogs.open_file(
                self,
                translate("dialogs", "Chunk map file"),
                translate("dialogs", "Chunk maps (*.jsonl *.csv *.tsv *.gz);;All files (*)"),
            )
        self.map_file = Path(path) if path else None
        self.id_map.setEnabled(self.map_file is None)
        self.map_button.setText(
            translate("dialogs", "Clear map file") if self.map_file is not None else translate("dialogs", "Map file…")
        )
        if self.map_file is not None:
            self.id_map.clear()
            self.id_map.setPlaceholderText(
                translate("dialogs", "IDs are mapped by {file}").format(file=self.map_file.name)
            )
        else:
            self.id_map.setPlaceholderText(
                translate("dialogs", "e.g. # turns doc12#3 into doc12 (leave empty for none)")
            )
        self._fill_preview()

    def values(self) -> tuple[str, TiePolicy, str | Path | None, OrderKind | None]:
        """Name, tie policy, ID map (a separator, or the Path of a chunk map file) and order."""
        return (
            self.name.text().strip(),
            TiePolicy(self.ties.currentData()),
            self.map_file if self.map_file is not None else (self.id_map.text() or None),
            self.chosen_order(),
        )
