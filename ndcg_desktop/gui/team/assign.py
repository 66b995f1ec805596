"""Pool ▸ Assign work…: annotators, overlap, seed and folder, with the plan shown before anything is written."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, table_view
from ndcg_desktop.sessions.team import AssignChoices, AssignSession

translate = QCoreApplication.translate

PLAN_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Annotator"), "annotator", ""),
    (QT_TRANSLATE_NOOP("analysis", "Queries"), "queries", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Shared queries"), "shared", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Items to grade"), "items", "int"),
]


class AssignDialog(QDialog):
    """Chooses who grades what; the table shows the session's plan (``sessions.team.AssignSession``) as the
    choices change."""

    def __init__(
        self, sizes: pd.Series, folder: str, parent: QWidget | None = None, known: tuple[str, ...] = ()
    ) -> None:
        super().__init__(parent)
        self.session = AssignSession(sizes, folder, known)
        self.setWindowTitle(translate("team", "Assign work"))
        self.names = QLineEdit(self.session.names)
        self.names.setAccessibleName(translate("team", "Annotators, separated by commas"))
        # an example of the form, never a value: Enter on an empty field hands work to nobody
        self.names.setPlaceholderText(translate("team", "names separated by commas, such as ana, ben"))
        self.overlap = QDoubleSpinBox()
        self.overlap.setRange(0.0, 100.0)
        self.overlap.setDecimals(0)
        self.overlap.setSuffix(" %")
        self.overlap.setValue(self.session.overlap_percent)
        self.overlap.setAccessibleName(translate("team", "Share of queries graded by several annotators"))
        self.per_query = QSpinBox()
        self.per_query.setRange(2, 20)
        self.per_query.setAccessibleName(translate("team", "Annotators per shared query"))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setAccessibleName(translate("team", "Seed of the shuffle"))
        self.folder = QLineEdit(folder)
        self.folder.setAccessibleName(translate("team", "Folder for the work files"))
        browse = QPushButton(translate("team", "Browse…"))
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.folder, 1)
        where.addWidget(browse)
        form = QFormLayout()
        form.addRow(translate("team", "Annotators"), self.names)
        form.addRow(translate("team", "Shared queries"), self.overlap)
        form.addRow(translate("team", "Annotators per shared query"), self.per_query)
        form.addRow(translate("team", "Seed"), self.seed)
        form.addRow(translate("team", "Folder"), where)
        self.model = FrameModel(PLAN_COLUMNS, self)
        self.table = table_view(self.model, sortable=False, name=translate("team", "Who grades what"))
        self.problem = plain_label(wrap=True)
        explain = QLabel(
            translate(
                "team",
                "Each annotator gets a work file: a project holding only their queries, the documents ungraded, "
                "in blind order, without anyone else's grades. Send it to them; merge it back when they return it.",
            )
        )
        explain.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(translate("team", "Write work files"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addLayout(form)
        layout.addWidget(self.table)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.overlap.valueChanged.connect(lambda value: self.session.set(overlap_percent=value))
        self.per_query.valueChanged.connect(lambda value: self.session.set(per_query=value))
        self.seed.valueChanged.connect(lambda value: self.session.set(seed=value))
        self.names.textChanged.connect(lambda text: self.session.set(names=text))
        self.folder.textChanged.connect(lambda text: self.session.set(folder=text))
        self.session.changed.connect(self._update)
        self.resize(560, 520)
        self._update()

    def annotators(self) -> list[str]:
        return self.session.annotators()

    def values(self) -> AssignChoices:
        """The choices, as ``tasks.teams.assign_work`` takes them."""
        return self.session.values()

    def _browse(self) -> None:
        chosen = file_dialogs.folder(self, translate("team", "Folder for the work files"))
        if chosen:
            self.folder.setText(chosen)

    def _update(self) -> None:
        session = self.session
        if session.problem or session.no_names:
            self.model.clear()
            self.problem.setText(session.problem or translate("team", "Name the annotators, separated by commas."))
        else:
            self.model.load(session.plan)
            fit_columns(self.table, self.model)
            self.problem.setText(translate("team", "Choose a folder for the work files.") if session.no_folder else "")
        self.ok.setEnabled(session.ready())
