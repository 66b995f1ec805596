"""The resolve panel: what each run's check found per flag group, and one choice per group."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence
from PySide6.QtWidgets import QComboBox, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QWidget

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import (
    FrameModel,
    TableData,
    fit_columns,
    show_sorted,
    sorted_frame,
    table_data,
    table_view,
)
from ndcg_desktop.gui.scores.text import (
    CHOICE_TEXTS,
    GROUP_TITLES,
    SEND,
    SEND_TEXT,
    found_text,
    keys_text,
    listing,
    set_button_text,
)
from ndcg_desktop.sessions.scores import CHECKS, CHOICES, CHOICES_CHANGED, INPUTS, PROJECT, SETTINGS, ScoresSession
from ndcg_desktop.tasks.scoring import CheckedRun

translate = QCoreApplication.translate
SCORE_KEYS = (QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter"))  # Enter: the keypad's

FLAG_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run", ""),
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged"), "unjudged_total", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged in top K"), "unjudged_in_top_k", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Their positions in the top K"), "unjudged_positions", ""),
    (QT_TRANSLATE_NOOP("analysis", "Duplicates"), "duplicates", "int"),
    (QT_TRANSLATE_NOOP("analysis", "No ranking"), "no_ranking_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Tie at K"), "tie_at_k_text", ""),
]


def _bold(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


def flags_table(runs: list[CheckedRun]) -> TableData:
    """The flagged queries of each checked run, sorted by query (natural order); any thread."""
    frames = []
    no_ranking, tie = translate("analysis", "no ranking"), translate("analysis", "tie")  # thread-safe
    for checked in runs:
        details = checked.report.per_query.copy()
        details.insert(0, "run", checked.run_name)
        details["no_ranking_text"] = [no_ranking if v else "" for v in details["no_ranking"]]
        details["tie_at_k_text"] = [tie if v else "" for v in details["tie_at_k"]]
        frames.append(details)
    return table_data(FLAG_COLUMNS, sorted_frame(pd.concat(frames, ignore_index=True), "query_id"))


class ResolvePanel(QGroupBox):
    """One row per flag group: what each run's check found, and the group's choice (unset until made)."""

    score_requested = Signal()
    send_requested = Signal()

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._prepared: tuple[list[CheckedRun], TableData] | None = None
        self._shown: list[CheckedRun] = []  # the checks whose flagged queries the table shows
        grid = QGridLayout(self)
        self.found: dict[str, QLabel] = {}
        self.choices: dict[str, QComboBox] = {}
        for row, group in enumerate(CHOICES):
            title = _bold(translate("analysis", GROUP_TITLES[group]))
            grid.addWidget(title, row, 0)
            self.found[group] = plain_label("—", wrap=True)  # holds run names: project data
            self.found[group].setAccessibleName(translate("analysis", "Found"))
            grid.addWidget(self.found[group], row, 1)
            combo = QComboBox()
            combo.setAccessibleName(translate("analysis", GROUP_TITLES[group]))
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(32)  # "count as non-relevant (keeps its position)" reads whole
            title.setBuddy(combo)
            if group != "queries":
                combo.addItem(translate("analysis", "choose…"), None)
            for value in CHOICES[group]:
                combo.addItem(translate("analysis", CHOICE_TEXTS[(group, value)]), value)
            if group == "unjudged":  # the window's action, offered beside the policies
                combo.addItem(translate("analysis", SEND_TEXT), SEND)
            combo.currentIndexChanged.connect(lambda _i, g=group, c=combo: self._chosen(g, c.currentData()))
            self.choices[group] = combo
            grid.addWidget(combo, row, 2)
        row = len(CHOICES)
        grid.addWidget(_bold(translate("analysis", "Ties straddling K")), row, 0)
        self.ties_label = plain_label("—", wrap=True)
        grid.addWidget(self.ties_label, row, 1, 1, 2)
        self.suggestion_label = plain_label(wrap=True)
        self.suggestion_label.setAccessibleName(translate("analysis", "Previous choices"))
        self.suggestion_button = QPushButton(translate("analysis", "Use these choices"))
        self.suggestion_button.setAccessibleName(translate("analysis", "Use the previous choices"))
        self.suggestion_button.clicked.connect(session.accept_suggestion)
        suggestion = QHBoxLayout()
        suggestion.addWidget(self.suggestion_label, 1)
        suggestion.addWidget(self.suggestion_button)
        grid.addLayout(suggestion, row + 1, 0, 1, 3)
        grid.setColumnStretch(1, 1)
        self.missing_label = plain_label(translate("analysis", "Check a run to see what needs a decision."), wrap=True)
        self.missing_label.setAccessibleName(translate("analysis", "What is missing before scoring"))
        self.score_button = QPushButton()
        self.score_button.setEnabled(False)
        self.score_button.clicked.connect(self._score_clicked)
        self.details_button = QPushButton()
        self.details_button.setCheckable(True)
        self.details_button.setEnabled(False)
        self.details_button.setAccessibleDescription(
            translate("analysis", "Shows or hides a table of the queries the check flagged")
        )
        set_button_text(self.details_button, translate("analysis", "Show flagged queries"))
        self.flag_details = FrameModel(FLAG_COLUMNS, self)
        self.flag_view = table_view(
            self.flag_details,
            name=translate("analysis", "Flagged queries"),
            description=translate(
                "analysis", "One row per flagged query: unjudged documents, duplicates, no ranking, tie at K"
            ),
        )
        self.flag_view.setMinimumHeight(160)
        self.flag_view.hide()
        self.details_button.toggled.connect(self._toggle_details)
        buttons = QHBoxLayout()
        buttons.addWidget(self.missing_label, 1)
        buttons.addWidget(self.details_button)
        buttons.addWidget(self.score_button)
        grid.addLayout(buttons, row + 2, 0, 1, 3)
        grid.addWidget(self.flag_view, row + 3, 0, 1, 3)
        session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, CHOICES_CHANGED, CHECKS}))

    def focus_order(self) -> list[QWidget]:
        return [*self.choices.values(), self.suggestion_button, self.details_button, self.score_button, self.flag_view]

    def _chosen(self, group: str, value: str | None) -> None:
        if value == SEND:
            self.session.send_for_judging()
        else:
            self.session.choose(group, value)

    def _score_clicked(self) -> None:
        if self.session.sending():
            self.send_requested.emit()
        else:
            self.score_requested.emit()

    def _toggle_details(self, shown: bool) -> None:
        self.flag_view.setVisible(shown)
        text = translate("analysis", "Hide flagged queries") if shown else translate("analysis", "Show flagged queries")
        set_button_text(self.details_button, text)

    def _changed(self, aspects: frozenset[str]) -> None:
        if aspects & {PROJECT, INPUTS, SETTINGS, CHECKS}:
            self._show_checks()
        if aspects & {PROJECT, INPUTS, CHOICES_CHANGED, CHECKS}:
            self._show_choices()
        self._update_score_button()

    def _show_choices(self) -> None:
        s = self.session
        for group, combo in self.choices.items():
            combo.blockSignals(True)
            shown = SEND if group == "unjudged" and s.sending_chosen else s.choices[group]
            combo.setCurrentIndex(max(combo.findData(shown), 0))
            combo.blockSignals(False)
        suggestion = s.suggestion
        differs = bool(suggestion) and any(s.choices[g] != v for g, v in (suggestion or {}).items())
        if suggestion and differs:
            words = translate("analysis", "; ", "separator between problems").join(
                f"{translate('analysis', GROUP_TITLES[g])}: {translate('analysis', CHOICE_TEXTS[(g, v)])}"
                for g, v in suggestion.items()
            )
            self.suggestion_label.setText(
                translate(
                    "analysis", "Last time {run} was scored against this version: {choices}. Use them again?"
                ).format(run=s.run, choices=words)
            )
        self.suggestion_label.setVisible(bool(suggestion and differs))
        self.suggestion_button.setVisible(bool(suggestion and differs))

    def offer(self, runs: list[CheckedRun], table: TableData) -> None:
        """The flagged-queries table of these checked runs, prepared on the worker that checked them."""
        self._prepared = (runs, table)

    def _show_checks(self) -> None:
        s = self.session
        checks = s.checks
        names = s.compared_runs()
        for group, label in self.found.items():
            if not s.checked():
                label.setText("—")
                continue
            texts = [found_text(group, checks[name].report, s.k) for name in names]
            if len(names) == 1:
                label.setText(texts[0])
            else:
                label.setText(
                    translate("analysis", " · ", "between runs").join(
                        translate("analysis", "{run}: {found}").format(run=n, found=t)
                        for n, t in zip(names, texts, strict=True)
                    )
                )
            self.choices[group].setAccessibleDescription(
                translate("analysis", "Found: {flags}").format(flags=label.text())
            )
        if s.checked():
            ties = [t for name in names for t in checks[name].report.ties_at_k]
            text = listing(sorted(set(ties)))
            if ties:
                text = translate("analysis", "{ties} (the tie-averaged nDCG is shown beside each)").format(ties=text)
            self.ties_label.setText(text)
            runs = [checks[name] for name in names]
            prepared, self._prepared = self._prepared, None
            fresh = prepared is not None and list(map(id, prepared[0])) == list(map(id, runs))  # the very same checks
            shown = len(runs) == len(self._shown) and all(a is b for a, b in zip(runs, self._shown, strict=True))
            if fresh or not shown:
                # A session reload (after an import, a send) keeps the checks: their table is already shown, and
                # formatting it again here took the GUI thread ~0.1 s for 7,000 flagged queries.
                table = prepared[1] if fresh and prepared is not None else flags_table(runs)
                show_sorted(self.flag_view, self.flag_details, table, "query_id")
                fit_columns(self.flag_view, self.flag_details)
                self._shown = runs
            count = self.flag_details.rowCount()
            self.details_button.setEnabled(count > 0)
            set_button_text(
                self.details_button,
                translate("analysis", "Show flagged queries ({count})").format(count=count)
                if count
                else translate("analysis", "No flagged queries"),
            )
        else:
            self.ties_label.setText("—")
            self.flag_details.clear()
            self._shown = []
            self.details_button.setChecked(False)
            self.details_button.setEnabled(False)
            set_button_text(self.details_button, translate("analysis", "Show flagged queries"))

    def _update_score_button(self) -> None:
        s = self.session
        sending = s.sending()
        if sending:
            text = translate("analysis", "Send for judging…")
            tip = translate("analysis", "Preview the unjudged documents a draft pool would get, then confirm ({keys})")
        else:
            text = translate("analysis", "Score")
            tip = translate("analysis", "Score the run with these choices ({keys})")
        set_button_text(self.score_button, text)
        self.score_button.setToolTip(tip.format(keys=keys_text(SCORE_KEYS[0])))
        if s.project is None:
            self.missing_label.setText("")
            self.score_button.setEnabled(False)
        elif s.run is None or s.pool_version is None:
            self.missing_label.setText(
                translate(
                    "analysis",
                    "Import a run (File ▸ Import run) and freeze a pool version (Pool ▸ Freeze draft) to score.",
                )
            )
            self.score_button.setEnabled(False)
        elif not s.checked():
            self.missing_label.setText(translate("analysis", "Check the run to see what needs a decision."))
            self.score_button.setEnabled(False)
        elif sending:
            self.missing_label.setText(
                translate(
                    "analysis",
                    "The unjudged documents will be added to a draft pool for grading; you will see exactly which "
                    "before anything changes. Score again once that draft is frozen.",
                )
            )
            self.score_button.setEnabled(True)
        else:
            missing = s.missing()
            problems = []
            for m in missing:
                per_run = translate("analysis", ", ", "list separator").join(
                    translate("analysis", "{run}: {count}").format(run=name, count=count)
                    for name, count in m.found.items()
                    if count
                )
                problems.append(
                    translate("analysis", "{group} ({runs}) need a choice").format(
                        group=translate("analysis", GROUP_TITLES[m.group]), runs=per_run
                    )
                )
            if problems:
                self.missing_label.setText(
                    translate("analysis", "Before scoring: {problems}.").format(
                        problems=translate("analysis", "; ", "separator between problems").join(problems)
                    )
                )
            else:
                self.missing_label.setText(translate("analysis", "Ready to score."))
            self.score_button.setEnabled(not problems)
