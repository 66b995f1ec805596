"""The project's saved evaluations: run, version, settings line, mean, when; one can be reopened."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ndcg_desktop.domain import Measure
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.gui.scores.text import describe_settings
from ndcg_desktop.sessions.scores import HISTORY, PROJECT, ScoresSession
from ndcg_desktop.tasks.project import SavedEvaluation

translate = QCoreApplication.translate

HISTORY_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "When"), "created_at", ""),
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run_name", ""),
    (QT_TRANSLATE_NOOP("analysis", "Pool version"), "version_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Mean nDCG"), "mean_ndcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Settings"), "settings_text", ""),
]


class HistoryPanel(QWidget):
    """Lists the saved evaluations, newest first; *Reopen* puts one's inputs and choices back."""

    reopen_requested = Signal(object)  # a SavedEvaluation

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.saved: list[SavedEvaluation] = []
        self.model = FrameModel(HISTORY_COLUMNS, self)
        self.proxy = sorted_proxy(self.model, self)
        self.view = table_view(
            self.proxy,
            name=translate("analysis", "Saved evaluations"),
            description=translate("analysis", "Every evaluation scored in this project; reopen one to see it again"),
        )
        self.view.doubleClicked.connect(lambda _index: self.reopen_selected())
        self.reopen_button = QPushButton(translate("analysis", "Reopen"))
        self.reopen_button.setAccessibleName(translate("analysis", "Reopen the selected evaluation"))
        self.reopen_button.clicked.connect(self.reopen_selected)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.reopen_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.view)
        session.changed.connect(lambda aspects: self.refresh() if aspects & {PROJECT, HISTORY} else None)
        self.refresh()

    def focus_order(self) -> list[QWidget]:
        return [self.reopen_button, self.view]

    def refresh(self) -> None:
        self.saved = self.session.history()
        rows = []
        for i, saved in enumerate(self.saved):
            hash_ = str(saved.manifest.get("judgments", {}).get("pool_hash") or "")[:8]
            residual = saved.manifest.get("residual")  # rule 21: a residual score says from which version
            version_text = translate("analysis", "v{version} · {hash}…").format(version=saved.pool_version, hash=hash_)
            if isinstance(residual, dict):
                version_text += translate("analysis", ", residual from v{version}").format(
                    version=residual.get("from_version")
                )
            rows.append(
                {
                    "index": i,
                    "created_at": saved.created_at.replace("T", " ").replace("+00:00", " UTC"),
                    "run_name": saved.run_name,
                    "version_text": version_text,
                    "mean_ndcg": saved.manifest.get("counts", {}).get("mean_ndcg"),
                    "settings_text": describe_settings(*Measure.parse(saved.settings)),
                }
            )
        self.model.load(pd.DataFrame(rows, columns=["index", *[c[1] for c in HISTORY_COLUMNS]]))
        self.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
        fit_columns(self.view, self.model)
        self.reopen_button.setEnabled(bool(self.saved))

    def reopen_selected(self) -> None:
        index = self.view.currentIndex()
        if not index.isValid():
            index = self.proxy.index(0, 0)
        if not index.isValid():
            return
        row = self.proxy.mapToSource(index).row()
        self.reopen_requested.emit(self.saved[row])
