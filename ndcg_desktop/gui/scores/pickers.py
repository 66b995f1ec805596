"""Run, pool version, comparison run and the knobs (K, gain, zero-IDCG rule), bound to the session."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.gui.scores.text import choice_items, choice_title, keys_text
from ndcg_desktop.sessions.scores import INPUTS, PROJECT, SETTINGS, ScoresSession
from ndcg_desktop.tasks.project import PoolVersion

translate = QCoreApplication.translate
CHECK_KEYS = QKeySequence("F5")


class InputsBar(QWidget):
    """What to score: every control writes to the session; the session's changes refill the controls."""

    check_requested = Signal()

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.run_box = QComboBox()
        self.run_box.setAccessibleName(translate("analysis", "Run"))
        self.run_box.setAccessibleDescription(translate("analysis", "The stored run to score"))
        self.version_box = QComboBox()
        self.version_box.setAccessibleName(translate("analysis", "Frozen pool version"))
        self.version_box.setAccessibleDescription(
            translate("analysis", "The frozen judgments the run is scored against")
        )
        self.k = QSpinBox(minimum=1, maximum=10_000, value=DEFAULT_K)
        self.k.setAccessibleName(translate("analysis", "Cutoff K"))
        self.k.setAccessibleDescription(translate("analysis", "Only the first K documents of each ranking are scored"))
        self.gain = QComboBox()
        self.gain.setAccessibleName(choice_title("gain"))
        self.gain.setAccessibleDescription(
            translate(
                "analysis", "How a grade becomes a gain: linear (the grade) or exponential (2 to the grade, minus 1)"
            )
        )
        for text, value in choice_items("gain"):
            self.gain.addItem(text, value)
        self.zero_idcg = QComboBox()
        self.zero_idcg.setAccessibleName(choice_title("zero_idcg"))
        self.zero_idcg.setAccessibleDescription(
            translate("analysis", "Whether queries without a relevant document in the pool count in the mean")
        )
        for text, value in choice_items("zero_idcg"):
            self.zero_idcg.addItem(text, value)
        self.residual_box = QComboBox()
        self.residual_box.setAccessibleName(translate("analysis", "Residual from version"))
        self.residual_box.setAccessibleDescription(
            translate(
                "analysis",
                "Score residually: every document judged in an earlier frozen version leaves the run and the "
                "judgments before scoring, as TREC-COVID scored its later rounds",
            )
        )
        self.residual_box.setToolTip(self.residual_box.accessibleDescription())
        self.residual_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)

        self.compare_box = QComboBox()
        self.compare_box.setAccessibleName(translate("analysis", "Compare with run"))
        self.compare_box.setAccessibleDescription(
            translate("analysis", "Another run, checked and scored with the same settings, shown in the Comparison tab")
        )
        self.check_button = QPushButton(translate("analysis", "Check run"))
        self.check_button.setAccessibleName(translate("analysis", "Check run"))
        self.check_button.setToolTip(
            translate(
                "analysis", "Find what needs a decision before scoring: unjudged documents, duplicates… ({keys})"
            ).format(keys=keys_text(CHECK_KEYS))
        )
        self.check_button.clicked.connect(self.check_requested)
        labels = []
        for text, buddy in (
            (translate("analysis", "Run"), self.run_box),
            (translate("analysis", "against"), self.version_box),
            (translate("analysis", "K"), self.k),
            (translate("analysis", "compare with"), self.compare_box),
            (translate("analysis", "residual from"), self.residual_box),
        ):
            label = QLabel(text)
            label.setBuddy(buddy)  # a buddy names the field for screen readers
            labels.append(label)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(labels[0], 0, 0)
        grid.addWidget(self.run_box, 0, 1)
        grid.addWidget(labels[1], 0, 2)
        grid.addWidget(self.version_box, 0, 3)
        grid.addWidget(self.check_button, 0, 5)
        grid.addWidget(labels[2], 1, 0)
        knobs = QHBoxLayout()
        knobs.addWidget(self.k)
        knobs.addWidget(self.gain)
        knobs.addWidget(self.zero_idcg)
        knobs.addWidget(labels[4])
        knobs.addWidget(self.residual_box)
        knobs.addStretch(1)
        knobs.addWidget(labels[3])
        knobs.addWidget(self.compare_box)
        grid.addLayout(knobs, 1, 1, 1, 5)
        grid.setColumnStretch(4, 1)
        for combo in (self.run_box, self.version_box, self.compare_box):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        for combo in (self.gain, self.zero_idcg):  # our own words: read whole in any language
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for combo in (self.run_box, self.version_box):  # run names and "pool v1 · hash" must stay readable
            combo.setMinimumContentsLength(24)
        self.run_box.currentIndexChanged.connect(lambda _i: session.set_run(self.run_box.currentData()))
        self.version_box.currentIndexChanged.connect(
            lambda _i: session.set_pool_version(self.version_box.currentData())
        )
        self.compare_box.currentIndexChanged.connect(lambda _i: session.set_other_run(self.compare_box.currentData()))
        self.k.valueChanged.connect(session.set_k)
        self.gain.currentIndexChanged.connect(lambda _i: session.set_gain(self.gain.currentData()))
        self.zero_idcg.currentIndexChanged.connect(lambda _i: session.set_zero_idcg(self.zero_idcg.currentData()))
        self.residual_box.currentIndexChanged.connect(
            lambda _i: session.set_residual_from(self.residual_box.currentData())
        )
        session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, INPUTS, SETTINGS}))

    def focus_order(self) -> list[QWidget]:
        return [
            self.run_box,
            self.version_box,
            self.check_button,
            self.k,
            self.gain,
            self.zero_idcg,
            self.residual_box,
            self.compare_box,
        ]

    def _changed(self, aspects: frozenset[str]) -> None:
        s = self.session
        if aspects & {PROJECT, INPUTS}:
            for box in (self.run_box, self.version_box, self.compare_box):
                box.blockSignals(True)
                box.clear()
            self.compare_box.addItem(translate("analysis", "no other run"), None)
            for name in s.runs:
                info = s.run_info(name)
                self.run_box.addItem(f"{name}  ({info.source_name if info else ''})", name)
                if name != s.run:  # compared with another run only
                    self.compare_box.addItem(name, name)
            for v in s.frozen_versions:
                text = translate("analysis", "pool v{version} · {hash}…").format(version=v.version, hash=v.short_hash)
                self.version_box.addItem(text, v.version)
            self.run_box.setCurrentIndex(self.run_box.findData(s.run))
            self.version_box.setCurrentIndex(self.version_box.findData(s.pool_version))
            self.compare_box.setCurrentIndex(max(self.compare_box.findData(s.other_run), 0))
            for box in (self.run_box, self.version_box, self.compare_box):
                box.blockSignals(False)
            self.check_button.setEnabled(s.run is not None and s.pool_version is not None)
        if aspects & {PROJECT, INPUTS, SETTINGS}:
            fill_residual_box(self.residual_box, s.residual_versions, s.residual_from)
        if aspects & {PROJECT, SETTINGS}:
            for widget, value in ((self.gain, s.gain.value), (self.zero_idcg, s.zero_idcg.value)):
                widget.blockSignals(True)
                widget.setCurrentIndex(widget.findData(value))
                widget.blockSignals(False)
            self.k.blockSignals(True)
            self.k.setValue(s.k)
            self.k.blockSignals(False)


def fill_residual_box(box: QComboBox, versions: list[PoolVersion], chosen: int | None) -> None:
    """The residual choice (rule 21), the Scores and the Runs views alike: not residual, or an older frozen version."""
    box.blockSignals(True)
    box.clear()
    box.addItem(translate("analysis", "not residual"), None)
    for v in versions:
        box.addItem(
            translate("analysis", "v{version} · {hash}…").format(version=v.version, hash=v.short_hash), v.version
        )
    box.setCurrentIndex(max(box.findData(chosen), 0))
    box.setEnabled(bool(versions))
    box.blockSignals(False)
