"""The Pool menu's dialogs: build a pool from runs (with its preview), freeze the draft."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import InputError
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import box_buttons, chain, plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, TableData, sorted_frame, table_data, table_view
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.gui.themes import error_colour
from ndcg_desktop.tasks.pool_builds import (
    STRATEGIES,
    Parameter,
    PoolPlan,
    PoolRequest,
    Strategy,
    StrategySpec,
    parse_budget,
    query_list,
)
from ndcg_desktop.tasks.project import FreezePreview

translate = QCoreApplication.translate

PREVIEW_DELAY_MS = 250  # the build-pool preview waits for a pause in typing


POOL_PREVIEW_COLUMNS = [
    (QT_TRANSLATE_NOOP("dialogs", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("dialogs", "Depth pool"), "candidates", "int"),
    (QT_TRANSLATE_NOOP("dialogs", "Budget"), "budget", "int"),
    (QT_TRANSLATE_NOOP("dialogs", "Chosen"), "chosen", "int"),
    (QT_TRANSLATE_NOOP("dialogs", "New to the pool"), "new", "int"),
]


def pool_preview_table(counts: pd.DataFrame) -> tuple[pd.DataFrame, TableData]:
    """The preview's counts in natural query order (q2 before q10), and its table's cells: made on the worker."""
    ordered = sorted_frame(counts, "query_id")
    return ordered, table_data(POOL_PREVIEW_COLUMNS, ordered)


class ParameterFields(QWidget):
    """One strategy's parameters as fields, generated from its declaration in the strategies' table
    (:data:`~ndcg_desktop.scoring.pooling.STRATEGIES`): a whole number, a decimal, or one of its choices."""

    def __init__(self, spec: StrategySpec, changed: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.fields: dict[str, QWidget] = {}
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        for parameter in spec.parameters:
            field = self._field(parameter, changed)
            field.setAccessibleName(translate("pooling", parameter.label))
            field.setToolTip(parameter.description)
            self.fields[parameter.name] = field
            form.addRow(translate("pooling", parameter.label), field)

    @staticmethod
    def _field(parameter: Parameter, changed: Callable[[], None]) -> QWidget:
        if parameter.kind is str:
            box = QComboBox()
            for choice in parameter.choices:
                box.addItem(choice, choice)
            box.setCurrentIndex(box.findData(parameter.default))
            box.currentIndexChanged.connect(lambda _i: changed())
            return box
        if parameter.kind is int:
            spin = QSpinBox()
            low = int(parameter.low) if parameter.low is not None else 0
            # a parameter without a default (depth's k: the pool's depth) offers "none" below its lowest value
            spin.setRange(low - 1 if parameter.default is None else low, 1_000_000)
            if parameter.default is None:
                spin.setSpecialValueText(translate("dialogs", "the depth"))
                spin.setValue(spin.minimum())
            else:
                spin.setValue(int(parameter.default))
            spin.valueChanged.connect(lambda _v: changed())
            return spin
        decimal = QDoubleSpinBox()
        decimal.setDecimals(3)
        step = 10**-3
        bottom = (parameter.low or 0.0) + (step if parameter.open_low else 0.0)
        top = (parameter.high if parameter.high is not None else 1e6) - (step if parameter.open_high else 0.0)
        decimal.setRange(bottom, top)
        decimal.setSingleStep(0.05)
        decimal.setValue(float(parameter.default))  # type: ignore[arg-type]
        decimal.valueChanged.connect(lambda _v: changed())
        return decimal

    def values(self) -> dict[str, int | float | str | None]:
        chosen: dict[str, int | float | str | None] = {}
        for parameter in self.spec.parameters:
            field = self.fields[parameter.name]
            if isinstance(field, QComboBox):
                chosen[parameter.name] = str(field.currentData())
            elif isinstance(field, QSpinBox):
                none = parameter.default is None and field.value() == field.minimum()
                chosen[parameter.name] = None if none else field.value()
            elif isinstance(field, QDoubleSpinBox):
                chosen[parameter.name] = field.value()
        return chosen


class BuildPoolDialog(QDialog):
    """Choose runs, a strategy with its parameters, a depth, a budget, the queries (and a batch size for an
    adaptive strategy); preview what each query would gain; apply. The strategies and their parameters come from
    the one table (:data:`~ndcg_desktop.scoring.pooling.STRATEGIES`)."""

    def __init__(
        self, runs: list[str], preview: Callable[[PoolRequest], PoolPlan], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("dialogs", "Build pool from runs"))
        self.preview_fn = preview
        self.runs = QListWidget()
        self.runs.setAccessibleName(translate("dialogs", "Runs"))
        self.runs.setToolTip(translate("dialogs", "The runs' order breaks the strategy's ties."))
        for name in runs:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.runs.addItem(item)
        self.runs.setMaximumHeight(110)
        self.strategy = QComboBox()
        self.strategy.setAccessibleName(translate("dialogs", "Strategy"))
        self.parameters = QStackedWidget()
        self.parameter_fields: list[ParameterFields] = []
        for spec in STRATEGIES:
            self.strategy.addItem(translate("pooling", spec.label), spec.name)
            self.strategy.setItemData(self.strategy.count() - 1, spec.description, Qt.ItemDataRole.ToolTipRole)
            fields = ParameterFields(spec, self._schedule)
            self.parameter_fields.append(fields)
            self.parameters.addWidget(fields)
        self.pool_depth = QSpinBox(minimum=1, maximum=10_000, value=10)
        self.pool_depth.setAccessibleName(translate("dialogs", "Pool depth"))
        self.budget = QLineEdit()
        self.budget.setAccessibleName(translate("dialogs", "Budget"))
        self.budget.setPlaceholderText(translate("dialogs", "all: every candidate"))
        self.budget.setToolTip(
            translate(
                "dialogs",
                "Documents per query (20), a share of each query's depth pool (10%), or a total (total:500).",
            )
        )
        self.batch = QSpinBox(minimum=1, maximum=10_000, value=10)
        self.batch.setAccessibleName(translate("dialogs", "Batch size"))
        self.batch.setToolTip(
            translate(
                "dialogs",
                "An adaptive strategy adds this many documents a query at a time; the next batch is chosen once "
                "people have graded the last one.",
            )
        )
        self.queries = QLineEdit()
        self.queries.setAccessibleName(translate("dialogs", "Queries"))
        self.queries.setPlaceholderText(translate("dialogs", "all: every query the runs answered"))
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
        form.addRow(translate("dialogs", "Strategy"), self.strategy)
        form.addRow("", self.parameters)
        form.addRow(translate("dialogs", "Depth k"), self.pool_depth)
        form.addRow(translate("dialogs", "Budget"), self.budget)
        form.addRow(translate("dialogs", "Batch size"), self.batch)
        form.addRow(translate("dialogs", "Queries"), self.queries)
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
        self.resize(620, 680)
        if not runs:  # nothing to choose from: only the sentence saying what to do first
            for row in range(form.rowCount()):
                form.setRowVisible(row, False)
            self.preview_button.hide()
            self.table.hide()
            self.resize(460, 120)
        chain(
            self.runs,
            self.strategy,
            self.parameters,
            self.pool_depth,
            self.budget,
            self.batch,
            self.queries,
            self.preview_button,
            self.table,
            *box_buttons(buttons),
        )
        self._form = form
        # The preview reads every chosen run: in the background, once per pause, never per spin-box tick.
        self.counts: pd.DataFrame | None = None  # the shown preview (None while one is being computed)
        self.plan: PoolPlan | None = None  # what Add to draft applies: exactly the preview shown
        self._request = 0
        self._task: Task | None = None
        self.timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self.timer.timeout.connect(self.refresh)
        self.runs.itemChanged.connect(lambda _item: self._schedule())
        self.strategy.currentIndexChanged.connect(lambda _i: self._strategy_chosen())
        self.pool_depth.valueChanged.connect(lambda _v: self._schedule())
        self.batch.valueChanged.connect(lambda _v: self._schedule())
        self.budget.textChanged.connect(lambda _t: self._schedule())
        self.queries.textChanged.connect(lambda _t: self._schedule())
        self._strategy_chosen(schedule=False)
        self.refresh()

    def _strategy_chosen(self, *, schedule: bool = True) -> None:
        index = self.strategy.currentIndex()
        self.parameters.setCurrentIndex(index)
        for i, page in enumerate(self.parameter_fields):  # the stack as tall as the strategy shown, no taller
            ignored = QSizePolicy.Policy.Ignored
            page.setSizePolicy(
                QSizePolicy.Policy.Preferred if i == index else ignored,
                QSizePolicy.Policy.Preferred if i == index else ignored,
            )
        self.parameters.adjustSize()
        fields = self.parameter_fields[index]
        self._form.setRowVisible(self.parameters, bool(fields.spec.parameters) and self.runs.count() > 0)
        self._form.setRowVisible(self.batch, fields.spec.adaptive and self.runs.count() > 0)
        if schedule:
            self._schedule()

    def chosen(self) -> tuple[list[str], int]:
        names = [
            self.runs.item(i).text()
            for i in range(self.runs.count())
            if self.runs.item(i).checkState() == Qt.CheckState.Checked
        ]
        return names, self.pool_depth.value()

    def request(self) -> PoolRequest:
        """What the fields ask for (refused with the core's sentence when a field holds something it cannot be)."""
        names, depth = self.chosen()
        fields = self.parameter_fields[self.strategy.currentIndex()]
        strategy = Strategy.of(fields.spec.name, **fields.values())
        queries = query_list(self.queries.text())
        return PoolRequest(
            tuple(names),
            strategy,
            parse_budget(self.budget.text()),
            depth,
            queries,
            self.batch.value() if strategy.adaptive else None,
        )

    def _schedule(self) -> None:
        self.counts = None
        self.plan = None
        self.ok.setEnabled(False)
        self.summary.setText(translate("dialogs", "Counting…"))
        self.timer.start()

    def refresh(self) -> None:
        """Start the preview of the chosen runs and depth in the background (a newer one supersedes it)."""
        names, _depth = self.chosen()
        self.timer.stop()
        if self._task is not None:
            self._task.cancel_event.set()
        self._request += 1
        request = self._request
        self.counts = None
        self.plan = None
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
        try:
            asked = self.request()
        except InputError as exc:
            self.summary.setText(exc.message)
            return
        self.summary.setText(translate("dialogs", "Counting…"))

        def work(**_: object) -> tuple[PoolPlan, pd.DataFrame, TableData]:
            plan = self.preview_fn(asked)
            return (plan, *pool_preview_table(plan.per_query))

        self._task = run_in_background(
            work,
            lambda prepared: self._show(request, *prepared),
            lambda message: self._failed(request, message),
        )

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.summary.setText(message)

    def _show(self, request: int, plan: PoolPlan, counts: pd.DataFrame, table: TableData) -> None:
        if request != self._request:
            return
        self._task = None
        self.model.show(table)
        total = int(counts["new"].sum()) if len(counts) else 0
        text = translate("dialogs", "{total} new documents for {queries} queries will await grading.").format(
            total=total, queries=len(counts)
        )
        if plan.request.batch_size is not None:
            text += " " + translate(
                "dialogs",
                "This is the first batch: each query's next batch is chosen from people's grades once its batch is "
                "graded, until its budget is spent.",
            )
        self.summary.setText(text)
        self.counts = counts
        self.plan = plan
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
        self.queries, self.documents = QLabel(str(preview.queries)), QLabel(str(preview.documents))
        form.addRow(translate("dialogs", "Queries"), self.queries)
        form.addRow(translate("dialogs", "Documents"), self.documents)
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
            queries, documents = preview.kept(remove_ungraded=self.remove.isChecked())  # what would be frozen
            self.queries.setText(str(queries))
            self.documents.setText(str(documents))

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
