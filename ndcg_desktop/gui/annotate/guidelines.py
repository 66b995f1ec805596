"""The project's grading guidelines: a side panel that renders them, an editor with a preview, an undoable command.

The guidelines are Markdown written for annotators. They are rendered without raw HTML and load no
resource (no image, no file), so a project's text cannot reach the disk or restyle the window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QFont, QTextDocument, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui.annotate.topic_header import StaticBrowser
from ndcg_desktop.gui.commands import WRITE_ERRORS, write_problem
from ndcg_desktop.gui.plain import bold_label, plain_label
from ndcg_desktop.gui.preferences import ui_state
from ndcg_desktop.gui.themes import muted_colour
from ndcg_desktop.tasks.guidelines import GuidelinesEdit, set_guidelines
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

SHORTCUT = "Ctrl+G"
VISIBLE_KEY = "workspace/guidelines_visible"  # in the UI state file: the panel shown or hidden
AUTO_SHOW_WIDTH = 1200  # px of window: below it the panel starts hidden, unless the user showed it
_FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML


def render(browser: StaticBrowser, text: str) -> None:
    """Markdown without raw HTML (a tag in the guidelines shows as text)."""
    browser.document().setMarkdown(text, _FEATURES)


class GuidelinesPanel(QFrame):
    """The guidelines rendered, with an Edit button; hidden or shown with Ctrl+G, remembered between sessions."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.annotator = ""  # whom an edit is credited to (the Annotate session's)
        self.undo_stack: QUndoStack | None = None
        self.failed: Callable[[str], None] = lambda _message: None
        self.setObjectName("guidelines_panel")
        self.setAccessibleName(translate("guidelines", "Grading guidelines"))
        self.browser = StaticBrowser()
        self.browser.setObjectName("guidelines_view")
        self.browser.setAccessibleName(translate("guidelines", "Grading guidelines"))
        self.browser.document().setDocumentMargin(10)
        self.edit_button = QPushButton(translate("guidelines", "Edit…"))
        self.edit_button.setAccessibleName(translate("guidelines", "Edit the grading guidelines"))
        self.edit_button.clicked.connect(self.edit)
        self.hint = plain_label(wrap=True)
        self.hint.setStyleSheet(f"color:{muted_colour()}")
        self.hint.setAccessibleName(translate("guidelines", "Guidelines notice"))
        header = QHBoxLayout()
        heading = bold_label(translate("guidelines", "Guidelines"))
        heading.setToolTip(translate("guidelines", "Show or hide with {key}").format(key=SHORTCUT))
        header.addWidget(heading)
        header.addStretch(1)
        header.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.hint)
        layout.addWidget(self.browser, 1)
        # narrower, a grade table in the guidelines breaks every word
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 30)
        chosen = ui_state().value(VISIBLE_KEY)
        self.setVisible(bool(ui_state().value(VISIBLE_KEY, True, type=bool)) if chosen is not None else False)

    def attach(
        self, project: Project | None, undo_stack: QUndoStack, failed: Callable[[str], None], *, annotator: str
    ) -> None:
        """Show ``project``'s guidelines; edits go through ``undo_stack``, write failures to ``failed``.

        Until the user has shown or hidden the panel (Ctrl+G, remembered), it is shown only where the
        window leaves the query list, the pool and the document their room beside it."""
        self.project, self.undo_stack, self.failed, self.annotator = project, undo_stack, failed, annotator
        if ui_state().value(VISIBLE_KEY) is None:
            self.setVisible(self.window().width() >= AUTO_SHOW_WIDTH)
        self.refresh()

    def refresh(self) -> None:
        """Show what the project file holds now."""
        current = self.project.texts.guidelines() if self.project is not None else None
        text, sha256 = (current.text, current.sha256) if current is not None else ("", "")
        self.show_guidelines(text, sha256, editable=self.project is not None and not self.project.read_only)

    def current_text(self) -> str:
        current = self.project.texts.guidelines() if self.project is not None else None
        return current.text if current is not None else ""

    def edit(self) -> None:
        """Open the editor; saving pushes one undoable, audited change."""
        dialog = GuidelinesDialog(self.current_text(), self.window())
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.apply_edit(dialog.text())

    def apply_edit(self, text: str) -> bool:
        """Record ``text`` as the guidelines through the undo stack; False if nothing changed or the write failed."""
        old = self.current_text()
        if self.project is None or self.undo_stack is None or text == old:
            return False
        command = SetGuidelinesCommand(self.project, old, text, self.refresh, self.failed, annotator=self.annotator)
        self.undo_stack.push(command)
        return not command.isObsolete()

    def show_guidelines(self, text: str, sha256: str, *, editable: bool) -> None:
        """Render the project's guidelines (or say there are none, and how to add them)."""
        self.edit_button.setEnabled(editable)
        if text:
            render(self.browser, text)
            self.hint.setText(translate("guidelines", "sha256 {hash}…").format(hash=sha256[:12]))
            self.hint.setToolTip(sha256)
        else:
            self.browser.clear()
            self.hint.setText(
                translate(
                    "guidelines",
                    "No grading guidelines yet. Edit… writes them here; ndcg set-guidelines PROJECT FILE.md sets "
                    "them from a file. Manifests name them by SHA-256.",
                )
            )
            self.hint.setToolTip("")

    def toggle(self) -> bool:
        """Show or hide the panel and remember the choice; returns whether it is now shown."""
        shown = self.isHidden()
        self.setVisible(shown)
        state = ui_state()
        state.setValue(VISIBLE_KEY, shown)
        state.sync()
        return shown


class GuidelinesDialog(QDialog):
    """Edit the guidelines' Markdown beside a live preview."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("guidelines", "Grading guidelines"))
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("guidelines_editor")
        self.editor.setAccessibleName(translate("guidelines", "Guidelines (Markdown)"))
        self.editor.setPlainText(text)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.editor.setFont(mono)
        self.preview = StaticBrowser()
        self.preview.setObjectName("guidelines_preview")
        self.preview.setAccessibleName(translate("guidelines", "Preview"))
        self.preview.document().setDocumentMargin(10)
        self._timer = QTimer(self, singleShot=True, interval=150)  # re-render after typing pauses
        self._timer.timeout.connect(self.update_preview)
        self.editor.textChanged.connect(self._timer.start)
        panes = QSplitter(Qt.Orientation.Horizontal)
        for title, widget in (
            (translate("guidelines", "Markdown"), self.editor),
            (translate("guidelines", "Preview"), self.preview),
        ):
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(bold_label(title))
            column.addWidget(widget, 1)
            panes.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        note = plain_label(
            translate(
                "guidelines",
                "Saved in the project with who changed them and when; Edit ▸ Undo takes a change back. A pool "
                "version frozen from now on names these guidelines by SHA-256 in its manifests.",
            ),
            wrap=True,
        )
        note.setStyleSheet(f"color:{muted_colour()}")
        layout = QVBoxLayout(self)
        layout.addWidget(panes, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(900, 560)
        self.update_preview()

    def text(self) -> str:
        return self.editor.toPlainText()

    def update_preview(self) -> None:
        render(self.preview, self.text())


class SetGuidelinesCommand(QUndoCommand):
    """Replace the project's guidelines; undo puts the previous text back. Both are new, audited history rows."""

    def __init__(
        self,
        project: Project,
        old: str,
        new: str,
        changed: Callable[[], None],
        failed: Callable[[str], None],
        *,
        annotator: str,
    ) -> None:
        super().__init__(translate("commands", "Edit the grading guidelines"))
        self.project, self.old, self.new, self.annotator = project, old, new, annotator
        self.changed, self.failed = changed, failed
        self._done_once = False

    def redo(self) -> None:
        self._write(self.new, GuidelinesEdit.REDO if self._done_once else GuidelinesEdit.WINDOW)
        self._done_once = True

    def undo(self) -> None:
        self._write(self.old, GuidelinesEdit.UNDO)

    def _write(self, text: str, source: GuidelinesEdit) -> None:
        try:
            set_guidelines(self.project, text, source=source, annotator=self.annotator)
        except WRITE_ERRORS as exc:
            self.setObsolete(True)  # the stack drops it: no edit is claimed that is not on disk
            self.failed(
                translate("guidelines", "The guidelines were not saved: {problem}").format(problem=write_problem(exc))
            )
        self.changed()
