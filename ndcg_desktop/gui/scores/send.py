"""Send for judging: a preview of exactly what a draft pool would get, a confirmation, and an undo command."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import (
    FrameModel,
    TableData,
    fit_columns,
    show_sorted,
    sorted_frame,
    sorted_proxy,
    table_data,
    table_view,
)
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.sessions.scores import ScoresSession
from ndcg_desktop.tasks import JudgingPlan, QueryScope, SentForJudging
from ndcg_desktop.tasks.grading import undo
from ndcg_desktop.tasks.pooling import take_back_sent
from ndcg_desktop.tasks.project import Project, Taken

translate = QCoreApplication.translate

PLAN_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged within the depth"), "unjudged", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Already waiting in the draft"), "waiting", "int"),
    (QT_TRANSLATE_NOOP("analysis", "To add"), "to_add", "int"),
]
SCOPE_TEXTS = {
    QueryScope.POOL: QT_TRANSLATE_NOOP("analysis", "only the pool version's queries (the ones the score counts)"),
    QueryScope.RUN: QT_TRANSLATE_NOOP("analysis", "every query the run answered"),
}
DEBOUNCE_MS = 250


def plan_table(plan: JudgingPlan) -> TableData:
    """The plan's per-query counts in natural query order, formatted for the dialog's table: made on the worker
    (7,000 queries formatted on the GUI thread were most of the send preview's stall at 7M lines)."""
    return table_data(PLAN_COLUMNS, sorted_frame(plan.per_query, "query_id"))


class SendForJudgingDialog(QDialog):
    """Depth and query scope; the per-query preview is computed in the background, debounced; OK adds exactly it."""

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.plan: JudgingPlan | None = None
        self._task: Task | None = None
        self._request = 0
        self.setWindowTitle(translate("analysis", "Send for judging"))
        self.depth_box = QSpinBox(minimum=1, maximum=100_000, value=session.k)
        self.depth_box.setAccessibleName(translate("analysis", "Depth"))
        self.depth_box.setAccessibleDescription(
            translate("analysis", "Only each query's first documents, to this rank")
        )
        self.scope = QComboBox()
        self.scope.setAccessibleName(translate("analysis", "Queries"))
        for scope in QueryScope:
            self.scope.addItem(translate("analysis", SCOPE_TEXTS[scope]), scope.value)
        self.summary = plain_label(wrap=True)  # names the run and the draft: project data
        self.summary.setAccessibleName(translate("analysis", "What will be added"))
        # A wrapped label in a dialog gets one line's height and clips the rest: reserve four.
        self.summary.setMinimumHeight(4 * self.summary.fontMetrics().lineSpacing())
        self.model = FrameModel(PLAN_COLUMNS, self)
        self.view = table_view(
            sorted_proxy(self.model, self),
            name=translate("analysis", "Documents to add, per query"),
            description=translate("analysis", "Per query: unjudged documents within the depth, and how many are new"),
        )
        self.view.setMinimumHeight(220)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = QPushButton(translate("analysis", "Add to the draft pool"))
        self.add_button.setEnabled(False)
        self.buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(translate("analysis", "Depth (top documents of each query)"), self.depth_box)
        form.addRow(translate("analysis", "Queries"), self.scope)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.buttons)
        self.timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self.timer.timeout.connect(self.preview)
        self.depth_box.valueChanged.connect(self._changed)
        self.scope.currentIndexChanged.connect(self._changed)
        self.resize(640, 480)
        self.preview()

    def _changed(self) -> None:
        """Every change restarts the wait: one preview per pause, not one per spin-box tick."""
        self.plan = None
        self.add_button.setEnabled(False)
        self.summary.setText(translate("analysis", "Counting…"))
        self.timer.start()

    def preview(self) -> None:
        if self._task is not None:
            self._task.cancel_event.set()  # a newer preview supersedes it
        self._request += 1
        request = self._request
        self.summary.setText(translate("analysis", "Counting…"))
        job = self.session.plan_job(self.depth_box.value(), QueryScope(self.scope.currentData()))

        def work(**kwargs: object) -> tuple[JudgingPlan, TableData]:
            plan = job(**kwargs)  # type: ignore[arg-type]
            return plan, plan_table(plan)

        self._task = run_in_background(work, lambda prepared: self._show(request, *prepared), self._failed)

    def _failed(self, message: str) -> None:
        self.summary.setText(message)

    def _show(self, request: int, plan: JudgingPlan, table: TableData) -> None:
        if request != self._request:
            return
        self._task = None
        self.plan = plan
        show_sorted(self.view, self.model, table, "query_id")
        fit_columns(self.view, self.model)
        where = (
            translate("analysis", "draft pool v{version}").format(version=plan.draft)
            if plan.draft is not None
            else translate("analysis", "a new draft pool (a copy of the latest frozen version)")
        )
        self.summary.setText(
            translate(
                "analysis",
                "{count} documents of {run} in {queries} queries will be added to {where}, to be graded; "
                "documents already waiting are not added again. Nothing changes until you confirm.",
            ).format(
                count=plan.total, run=plan.run_name, queries=int((plan.per_query["to_add"] > 0).sum()), where=where
            )
        )
        self.add_button.setEnabled(plan.total > 0)
        text = translate("analysis", "Add {count} documents").format(count=plan.total)
        self.add_button.setText(text)
        self.add_button.setAccessibleName(text)

    def done(self, result: int) -> None:
        self.timer.stop()
        if self._task is not None:
            self._task.cancel_event.set()
        super().done(result)


class SendForJudgingCommand(QUndoCommand):
    """Undo takes back what was sent (the whole draft if it was made for it); redo sends the same items again."""

    def __init__(self, project: Project, sent: SentForJudging, run: str, *, annotator: str) -> None:
        super().__init__(
            translate("analysis", "Send {count} documents of {run} for judging").format(count=len(sent.items), run=run)
        )
        self.project, self.sent, self.annotator = project, sent, annotator
        self.taken: Taken | None = None  # what the last undo took: redo puts exactly that back
        self._done = True  # the work was done in the background before the command was pushed

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        if self.taken is not None:
            undo(self.project, self.taken, action="redo send for judging", annotator=self.annotator)

    def undo(self) -> None:
        self.taken = take_back_sent(self.project, self.sent, annotator=self.annotator)


__all__ = ["SendForJudgingCommand", "SendForJudgingDialog"]
