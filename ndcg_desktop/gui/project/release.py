"""*File ▸ Import judgments…* with "make the draft equal to this file" (a corrected release): the per-query preview
that ``tasks.importing.plan_release`` computed, shown before anything is written, and the undoable command that
``apply_release`` wrote. The dialog renders the preview's numbers; it computes none."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import box_buttons, chain, plain_label, tip_headers
from ndcg_desktop.tasks.importing import ReleaseApplied, ReleasePreview, apply_release, undo_release
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate


def release_totals(preview: ReleasePreview) -> str:
    """The preview's totals in the window's words."""
    return translate(
        "release",
        "{added} added, {withdrawn} withdrawn, {regraded} regraded, {moved} moved to another iteration, in {queries} "
        "queries ({lines} judgments in the file).",
    ).format(
        added=f"{preview.total('added'):,}",
        withdrawn=f"{preview.total('withdrawn'):,}",
        regraded=f"{preview.total('regraded'):,}",
        moved=f"{preview.total('iteration'):,}",
        queries=f"{len(preview.per_query):,}",
        lines=f"{preview.plan.lines:,}",
    )


class ReleasePreviewDialog(QDialog):
    """What making the draft equal to the file would change, per query; *Make the draft equal* applies it."""

    COLUMNS = (  # translated when shown: the catalogue is installed after this module is imported
        QT_TRANSLATE_NOOP("release", "Query"),
        QT_TRANSLATE_NOOP("release", "Added"),
        QT_TRANSLATE_NOOP("release", "Withdrawn"),
        QT_TRANSLATE_NOOP("release", "Regraded"),
        QT_TRANSLATE_NOOP("release", "Iteration moved"),
    )

    def __init__(self, preview: ReleasePreview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("release", "Make the draft equal to {name}").format(name=preview.path.name))
        t = preview.plan.target
        if t.version is not None:
            where = translate("release", "Draft v{version} becomes exactly the judgments of {name}:").format(
                version=t.version, name=preview.path.name
            )
        elif t.parent is not None:
            where = translate(
                "release", "A new draft copying v{version} becomes exactly the judgments of {name}:"
            ).format(version=t.parent, name=preview.path.name)
        else:
            where = translate("release", "A new draft becomes exactly the judgments of {name}:").format(
                name=preview.path.name
            )
        self.summary = plain_label(where + "\n" + release_totals(preview), wrap=True)
        note = plain_label(
            translate(
                "release",
                "The file's grades are credited to {source}; withdrawn items leave with their ratings. Every change "
                "is in the audit log, and Edit ▸ Undo puts every row back.",
            ).format(source=preview.source),
            wrap=True,
        )
        table = preview.per_query
        self.table = QTableWidget(len(table), len(self.COLUMNS))
        self.table.setAccessibleName(translate("release", "Changes per query"))
        self.table.setHorizontalHeaderLabels([translate("release", c) for c in self.COLUMNS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, values in enumerate(
            table[["query_id", "added", "withdrawn", "regraded", "iteration"]].itertuples(index=False)
        ):
            for column, value in enumerate(values):
                item = QTableWidgetItem(str(value))
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the query IDs take what is left
        tip_headers(self.table)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        apply = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        apply.setText(translate("release", "Make the draft equal"))
        apply.setEnabled(not preview.unchanged)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.summary, self.table, note, self.buttons):
            layout.addWidget(widget)
        chain(self.table, *box_buttons(self.buttons))
        self.resize(560, 420)


class ReleaseCommand(QUndoCommand):
    """Undo puts back every row the release took; redo applies the same release again (its preview still holds:
    the undo left the draft as the preview saw it)."""

    def __init__(self, project: Project, applied: ReleaseApplied, *, annotator: str) -> None:
        super().__init__(
            translate("release", "Make draft v{version} equal to {name}").format(
                version=applied.version, name=applied.preview.path.name
            )
        )
        self.project, self.applied, self.annotator = project, applied, annotator
        self._done = True  # applied in the background before the command was pushed

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.applied = apply_release(self.project, self.applied.preview, annotator=self.annotator)

    def undo(self) -> None:
        undo_release(self.project, self.applied, annotator=self.annotator)


__all__ = ["ReleaseCommand", "ReleasePreviewDialog", "release_totals"]
