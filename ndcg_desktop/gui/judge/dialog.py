"""*Pool ▸ Judge with a model…*: the machine assessor's settings, a connection test, the prompt of a real item and
the dry run's estimate, before a job is started.

Everything shown is :class:`~ndcg_desktop.sessions.judge.JudgeSession`'s; the widgets forward what is typed
and render what the session found. The connection test, the preview and the estimate run off the GUI thread.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import InputError
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.pace_status import duration_label
from ndcg_desktop.gui.plain import bold_label, box_buttons, chain, plain_label
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.sessions.judge import CONNECTION, ESTIMATE, INPUTS, PREVIEW, PROJECT, JudgeSession
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.tasks.assessing import SCOPES, ConnectionReport, Estimate

translate = QCoreApplication.translate

SCOPE_TEXTS = {
    "ungraded": QT_TRANSLATE_NOOP("judge", "Items no person has rated"),
    "rated": QT_TRANSLATE_NOOP("judge", "Items people rated (to measure the model)"),
    "all": QT_TRANSLATE_NOOP("judge", "Every item of the draft"),
}
PROBLEM_TEXTS = {  # JudgeSession.problem()'s kinds, in the window's words
    "no_project": QT_TRANSLATE_NOOP("judge", "Open a project first."),
    "read_only": QT_TRANSLATE_NOOP("judge", "The project is open read-only: a model's ratings cannot be recorded."),
    "no_draft": QT_TRANSLATE_NOOP("judge", "The project has no draft: start one (Pool ▸ New draft) to judge it."),
    "no_model": QT_TRANSLATE_NOOP("judge", "Name the model the server should use."),
}
PREVIEW_DELAY_MS = 250  # typing in a field restarts it: the preview follows once the typing pauses


class JudgeDialog(QDialog):
    """The inputs of a machine assessor's job, what was found from them, and *Judge* to start it."""

    def __init__(self, session: JudgeSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(translate("judge", "Judge with a model"))
        self._tasks: dict[str, Task] = {}
        inputs = session.inputs
        self.endpoint = QLineEdit(inputs.endpoint)
        self.endpoint.setAccessibleName(translate("judge", "Endpoint"))
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setEditText(inputs.model)
        self.model.setMinimumContentsLength(24)
        self.model.setAccessibleName(translate("judge", "Model"))
        self.key_env = QLineEdit(inputs.api_key_env)
        self.key_env.setPlaceholderText(translate("judge", "none (a local server needs no key)"))
        self.key_env.setAccessibleName(translate("judge", "Environment variable holding the API key"))
        self.template = QLineEdit(inputs.template)
        self.template.setPlaceholderText(translate("judge", "the built-in template"))
        self.template.setAccessibleName(translate("judge", "Prompt template file"))
        browse = QPushButton(translate("judge", "Browse…"))
        browse.clicked.connect(self._browse)
        self.scope = QComboBox()
        for scope in SCOPES:
            self.scope.addItem(translate("judge", SCOPE_TEXTS[scope]), scope)
        self.scope.setCurrentIndex(self.scope.findData(inputs.items))
        self.scope.setAccessibleName(translate("judge", "Items to judge"))
        self.queries = QLineEdit(inputs.queries)
        self.queries.setPlaceholderText(translate("judge", "every query (or IDs separated by commas)"))
        self.queries.setAccessibleName(translate("judge", "Queries"))
        self.sample = QSpinBox()
        self.sample.setRange(0, 10_000_000)
        self.sample.setSpecialValueText(translate("judge", "every item"))
        self.sample.setValue(inputs.sample)
        self.sample.setAccessibleName(translate("judge", "Random sample of items"))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(inputs.seed)
        self.seed.setAccessibleName(translate("judge", "Seed of the sample and of the model"))
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 64)
        self.concurrency.setValue(inputs.concurrency)
        self.concurrency.setAccessibleName(translate("judge", "Requests at once"))
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(1.0, 3600.0)
        self.timeout.setDecimals(0)
        self.timeout.setSuffix(translate("judge", " s"))
        self.timeout.setValue(inputs.timeout)
        self.timeout.setAccessibleName(translate("judge", "Seconds to wait for one answer"))

        self.test_button = QPushButton(translate("judge", "Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        self.connection_label = plain_label(wrap=True)
        self.connection_label.setAccessibleName(translate("judge", "Connection"))
        self.key_label = plain_label(wrap=True)
        self.estimate_button = QPushButton(translate("judge", "Estimate"))
        self.estimate_button.setToolTip(
            translate("judge", "Ask the model about a few items and estimate the whole job; nothing is recorded")
        )
        self.estimate_button.clicked.connect(self.estimate)
        self.estimate_label = plain_label(wrap=True)
        self.estimate_label.setAccessibleName(translate("judge", "Estimate"))
        self.preview_heading = bold_label("")
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName(translate("judge", "The prompt the model reads"))
        self.problem = plain_label(wrap=True)
        self.problem.setAccessibleName(translate("judge", "Why nothing can be judged"))

        where = QHBoxLayout()
        where.addWidget(self.template, 1)
        where.addWidget(browse)
        sampling = QHBoxLayout()
        sampling.addWidget(self.sample, 1)
        sampling.addWidget(plain_label(translate("judge", "Seed")))
        sampling.addWidget(self.seed, 1)
        pace = QHBoxLayout()
        pace.addWidget(self.concurrency, 1)
        pace.addWidget(plain_label(translate("judge", "Timeout")))
        pace.addWidget(self.timeout, 1)
        form = QFormLayout()
        form.addRow(translate("judge", "Endpoint"), self.endpoint)
        form.addRow(translate("judge", "Model"), self.model)
        form.addRow(translate("judge", "API key variable"), self.key_env)
        form.addRow(translate("judge", "Template"), where)
        form.addRow(translate("judge", "Items"), self.scope)
        form.addRow(translate("judge", "Queries"), self.queries)
        form.addRow(translate("judge", "Sample"), sampling)
        form.addRow(translate("judge", "Requests at once"), pace)
        checks = QHBoxLayout()
        checks.addWidget(self.test_button)
        checks.addWidget(self.estimate_button)
        checks.addStretch(1)
        explain = plain_label(
            translate(
                "judge",
                "The model's grades are recorded as the ratings of annotator model:<name>, with every answer. They "
                "never become an item's grade on their own; people grading never see them.",
            ),
            wrap=True,
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(translate("judge", "Judge"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        left = QVBoxLayout()
        left.addWidget(explain)
        left.addLayout(form)
        left.addWidget(self.key_label)
        left.addLayout(checks)
        left.addWidget(self.connection_label)
        left.addWidget(self.estimate_label)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.preview_heading)
        right.addWidget(self.preview, 1)
        columns = QHBoxLayout()
        columns.addLayout(left, 5)
        columns.addLayout(right, 6)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        chain(
            self.endpoint,
            self.model,
            self.key_env,
            self.template,
            browse,
            self.scope,
            self.queries,
            self.sample,
            self.seed,
            self.concurrency,
            self.timeout,
            self.test_button,
            self.estimate_button,
            self.preview,
            *box_buttons(buttons),
        )
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._start_preview)
        self.endpoint.textChanged.connect(lambda text: self.session.set(endpoint=text))
        self.model.editTextChanged.connect(lambda text: self.session.set(model=text))
        self.key_env.textChanged.connect(lambda text: self.session.set(api_key_env=text))
        self.template.textChanged.connect(lambda text: self.session.set(template=text))
        self.scope.currentIndexChanged.connect(lambda _i: self.session.set(items=self.scope.currentData()))
        self.queries.textChanged.connect(lambda text: self.session.set(queries=text))
        self.sample.valueChanged.connect(lambda value: self.session.set(sample=value))
        self.seed.valueChanged.connect(lambda value: self.session.set(seed=value))
        self.concurrency.valueChanged.connect(lambda value: self.session.set(concurrency=value))
        self.timeout.valueChanged.connect(lambda value: self.session.set(timeout=float(value)))
        self.session.changed.connect(self._changed)
        self._following = True
        self.finished.connect(lambda _r: self._stop())
        self.resize(1000, 620)
        self._changed(frozenset({PROJECT, INPUTS, CONNECTION, PREVIEW, ESTIMATE}))

    # -- what the session found ----------------------------------------------------------------
    def _changed(self, aspects: frozenset[str]) -> None:
        problem = self.session.problem()
        if problem is None:
            self.problem.clear()
        else:
            kind, words = problem
            self.problem.setText(translate("judge", PROBLEM_TEXTS[kind]) if kind in PROBLEM_TEXTS else words)
        ready = problem is None
        self.ok.setEnabled(ready)
        self.estimate_button.setEnabled(ready and ESTIMATE not in self._tasks)
        self.test_button.setEnabled(self.session.can_test_connection())
        missing = self.session.key_missing()
        if self.session.key_refused and self.key_env.text() != self.session.inputs.api_key_env:
            self.key_env.blockSignals(True)  # what the session did not keep is not shown either
            self.key_env.setText(self.session.inputs.api_key_env)
            self.key_env.blockSignals(False)
        self.key_label.setText(
            translate(
                "judge",
                "That looked like the key itself, not the name of a variable: it was not kept. Put the key in an "
                "environment variable and give the variable's name here.",
            )
            if self.session.key_refused
            else ""
            if missing is None
            else translate(
                "judge",
                "{name} is not set in this program's environment: set it before judging, or leave this field "
                "empty for a server that needs no key.",
            ).format(name=missing)
        )
        self.key_label.setVisible(missing is not None or self.session.key_refused)
        if CONNECTION in aspects:
            self._show_connection()
        if ESTIMATE in aspects:
            self._show_estimate()
        if PREVIEW in aspects:
            self._show_preview()
            if self.session.preview is None:
                self._preview_timer.start()

    def _show_connection(self) -> None:
        report = self.session.connection
        if isinstance(report, ConnectionReport):
            if report.ok and not self.session.inputs.model.strip():
                text = translate(
                    "judge", "Connected: {endpoint} serves {count} models; choose one in the list."
                ).format(endpoint=self.session.settings().endpoint, count=len(report.models))
            elif report.ok:
                text = translate("judge", "Connected: {endpoint} serves the model {model}.").format(
                    endpoint=self.session.settings().endpoint, model=self.session.inputs.model.strip()
                )
            else:
                text = translate("judge", "Not usable: {why}").format(why=report.message)
            current = self.model.currentText()
            if report.models and [self.model.itemText(i) for i in range(self.model.count())] != list(report.models):
                self.model.blockSignals(True)  # the list the server gave; what was typed stays
                self.model.clear()
                self.model.addItems(list(report.models))
                self.model.setEditText(current)
                self.model.blockSignals(False)
            self.connection_label.setText(text)
        elif CONNECTION not in self._tasks:
            self.connection_label.clear()

    def _show_estimate(self) -> None:
        found = self.session.estimate
        if found is None:
            if ESTIMATE not in self._tasks:
                self.estimate_label.clear()
            return
        self.estimate_label.setText(estimate_text(found))

    def _show_preview(self) -> None:
        shown = self.session.preview
        if shown is None:
            self.preview_heading.setText(translate("judge", "The prompt, on an item of the draft"))
            self.preview.clear()
            return
        item, prompt = shown
        self.preview_heading.setText(
            translate("judge", "The prompt for document {doc_id} of query {query_id}").format(
                doc_id=item.doc_id, query_id=item.query_id
            )
        )
        self.preview.setPlainText(prompt)

    # -- work off the GUI thread -----------------------------------------------------------------
    def _run(self, kind: str, job: Job, on_error: Any) -> None:
        if kind in self._tasks:
            self._tasks.pop(kind).cancel_event.set()

        def done(result: Any) -> None:
            self._tasks.pop(kind, None)
            self.session.apply(job, result)
            self._changed(frozenset())

        def failed(message: str) -> None:
            self._tasks.pop(kind, None)
            if job.generation == self.session.generations[kind]:
                on_error(message)
            self._changed(frozenset())

        self._tasks[kind] = run_in_background(job, done, failed)

    def test_connection(self) -> None:
        """Ask the endpoint which models it serves, off the GUI thread; the answer is shown in words."""
        try:
            job = self.session.connection_job()
            endpoint = self.session.settings().endpoint
        except InputError as exc:  # an input the session refuses: said where the answer goes
            self.connection_label.setText(exc.located())
            return
        self.connection_label.setText(translate("judge", "Testing {endpoint}…").format(endpoint=endpoint))
        self._run(CONNECTION, job, self.connection_label.setText)

    def estimate(self) -> None:
        """The dry run: a few real calls, nothing recorded."""
        if self.session.problem() is not None:
            return
        self.estimate_label.setText(translate("judge", "Estimating: asking the model about a few items…"))
        self._run(ESTIMATE, self.session.estimate_job(), self.estimate_label.setText)
        self.estimate_button.setEnabled(False)

    def _start_preview(self) -> None:
        if self.session.preview is not None or not self.session.can_preview():
            return
        self._run(PREVIEW, self.session.preview_job(), self.preview.setPlainText)

    def busy(self) -> bool:
        """True while a connection test, a preview or an estimate is under way."""
        return bool(self._tasks)

    def _stop(self) -> None:
        self._preview_timer.stop()
        for task in self._tasks.values():
            task.cancel_event.set()  # its result is dropped when it comes
        self._tasks.clear()
        if self._following:  # finished comes once per exec, and a dialog may be closed twice
            self._following = False
            self.session.changed.disconnect(self._changed)

    def _browse(self) -> None:
        chosen = file_dialogs.open_file(
            self,
            translate("judge", "Prompt template"),
            translate("judge", "Templates (*.txt *.md);;All files (*)"),
        )
        if chosen:
            self.template.setText(chosen)


def estimate_text(found: Estimate) -> str:
    """The dry run's estimate in words: items, time and tokens of the whole job, and how the sample answered."""
    parts = [
        translate(
            "judge", "{items} items to judge; {skipped} in scope already judged by this model and template."
        ).format(items=f"{found.items:,}", skipped=f"{found.already_judged:,}")
    ]
    if found.seconds is not None and found.seconds_per_item is not None:
        parts.append(
            translate("judge", "About {each} s an item: {total} for the whole job, {concurrency} at a time.").format(
                each=f"{found.seconds_per_item:.2f}", total=duration_label(found.seconds), concurrency=found.concurrency
            )
        )
    if found.tokens is not None:
        parts.append(translate("judge", "About {tokens} tokens in all.").format(tokens=f"{found.tokens:,.0f}"))
    failed = [a for a in found.sample if not a.ok]
    if failed:
        parts.append(
            translate("judge", "{failed} of the {asked} answers asked gave no grade: {why}").format(
                failed=len(failed), asked=len(found.sample), why=failed[0].failure
            )
        )
    elif found.sample:
        parts.append(
            translate("judge", "Each of the {asked} answers asked gave a grade.").format(asked=len(found.sample))
        )
    return " ".join(parts)
