"""*Pool ▸ Judge with a model…* in the window: the dialog, its remembered settings, and the job behind the window's
progress dialog (cancel keeps every answer given; judging again continues where it stopped)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMessageBox

from ndcg_desktop.gui.judge.dialog import JudgeDialog
from ndcg_desktop.gui.plain import show_message
from ndcg_desktop.gui.tasks import Task
from ndcg_desktop.sessions.judge import JudgeInputs, JudgeSession
from ndcg_desktop.tasks.assessing import JobResult

translate = QCoreApplication.translate

PREFERENCE = "judge"  # the key of the dialog's last inputs in the preferences (never a key: only its variable's name)


STOP_WAIT_S = 30.0  # at most this long a closing window waits for a job to write what it received


class JudgeActions(QObject):
    """Installs *Pool ▸ Judge with a model…* in ``window``; its session follows the window's open project."""

    def __init__(self, window: Any, pool_menu: Any) -> None:
        super().__init__(window)
        self.window = window
        self.session = JudgeSession(JudgeInputs.from_remembered(window.prefs.extra.get(PREFERENCE)))
        self.session.follow(window.slot)
        self.action = QAction(translate("judge", "&Judge with a model…"), window)
        self.action.triggered.connect(lambda _checked=False: self.open_dialog())
        pool_menu.addSeparator()
        pool_menu.addAction(self.action)
        self.dialog: JudgeDialog | None = None
        self.running: Task | None = None

    def update(self, *, writable: bool, has_draft: bool, work_file: bool = False) -> None:
        """A model judges the coordinator's draft: not a read-only project, not an annotator's work file."""
        self.action.setEnabled(writable and has_draft and not work_file)

    def open_dialog(self) -> None:
        if self.window.project is None:
            return
        self.dialog = JudgeDialog(self.session, self.window)
        try:
            accepted = self.dialog.exec() == QDialog.DialogCode.Accepted
        finally:
            self.dialog.deleteLater()
            self.dialog = None
        self.remember()
        if accepted:
            self.judge()

    def remember(self) -> None:
        """Save the dialog's inputs for next time (the API key's variable name, never a key)."""
        self.window.prefs.extra[PREFERENCE] = self.session.inputs.remembered()
        self.window.prefs.save()

    def judge(self) -> None:
        """Run the job behind the window's progress dialog; its result is said in one message."""
        if self.session.problem() is not None:
            return
        job = self.session.run_job()
        model = self.session.settings().annotator
        self.running = self.window._background(
            translate("judge", "{model} is judging the draft…").format(model=model),
            job,
            self._done,
            busy=True,  # shown (with its Cancel) even while the first request is stuck and reports nothing
        )

    def stop(self, wait_s: float = STOP_WAIT_S) -> bool:
        """End a running job now (the window is closing): its requests in flight are ended, every answer received
        is written, and this returns once the job has ended (True), or after ``wait_s`` (False)."""
        task, self.running = self.running, None
        if task is None or task.ended.is_set():
            return True
        self.session.abort()
        task.cancel_event.set()
        return task.ended.wait(wait_s)

    def _done(self, result: JobResult) -> None:
        show_message(
            self.window,
            QMessageBox.Icon.Warning if result.stopped or result.failed else QMessageBox.Icon.Information,
            translate("judge", "Judged with a model"),
            result_text(result),
        )


def result_text(result: JobResult) -> str:
    """What a job did, in words: judged, graded, failed, skipped, and why it stopped early if it did."""
    if result.run_id is None and not result.cancelled:
        return translate(
            "judge", "Nothing to judge: the {count} items in scope are already judged by {model} with this template."
        ).format(count=result.in_scope, model=result.annotator)
    lines = [
        translate(
            "judge",
            "{model} judged {judged} items of draft v{version}: {graded} graded, {failed} without a grade "
            "(every answer is kept). {skipped} already judged were not asked again.",
        ).format(
            model=result.annotator,
            judged=result.judged,
            version=result.version,
            graded=result.graded,
            failed=result.failed,
            skipped=result.skipped,
        )
    ]
    if result.cancelled:
        lines.append(translate("judge", "Cancelled: judge again with the same model and template to go on."))
    if result.stopped:
        lines.append(translate("judge", "Stopped early: {why}").format(why=result.stopped))
    if result.failures:
        first = result.failures[0]
        lines.append(
            translate("judge", "First answer without a grade ({query_id}, {doc_id}): {why}").format(
                query_id=first.query_id, doc_id=first.doc_id, why=first.failure
            )
        )
    lines.append(
        translate(
            "judge",
            "The model's grades are ratings of {model}: compare them with people's in the Agreement tab before "
            "using them.",
        ).format(model=result.annotator)
    )
    return "\n\n".join(lines)
