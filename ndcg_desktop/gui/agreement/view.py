"""The Agreement view: how far the annotators agree, and whether their disagreement moves the systems.

Everything shown comes from :class:`~ndcg_desktop.sessions.agreement.AgreementSession`; the
computation runs on the thread pool behind a cancellable progress dialog. The main window talks to
this view through ``set_project``, ``reload``, ``compute`` and ``export``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QItemSelection, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import Gain, InputError
from ndcg_desktop.domain.choices import BY_NAME
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.agreement.heatmap import ConfusionModel, heatmap_view
from ndcg_desktop.gui.agreement.reasons import reason_words
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.scores.tables import Column, FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.gui.scores.text import choice_items, choice_title, describe_settings, keys_text, not_scored_text
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.agreement import INPUTS, PROJECT, AgreementSession, Loader
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.tasks.agreement import (
    CONSENSUS,
    DUPLICATE_MIN_ITEMS,
    FEW_SHARED_ITEMS,
    AgreementResult,
    Caveat,
    Duplicate,
    Figure,
    WithoutDuplicates,
    export_agreement,
)
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate
COMPUTE_KEYS = QKeySequence("F5")

# Headers are translated in the "analysis" context by FrameModel.
GROUP_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Shared items"), "shared_items", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Ratings"), "ratings", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Annotators"), "annotators", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Alpha (ordinal)"), "alpha_ordinal", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Unanimous"), "unanimous", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Undefined because"), "undefined", ""),
]
PAIR_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Annotator"), "annotator_a", ""),
    (QT_TRANSLATE_NOOP("analysis", "with"), "annotator_b", ""),
    (QT_TRANSLATE_NOOP("analysis", "Items"), "items", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Raw agreement"), "raw_agreement", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Kappa (linear)"), "kappa_linear", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Kappa (quadratic)"), "kappa_quadratic", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Undefined because"), "undefined", ""),
]
LENIENCY_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Annotator"), "annotator", ""),
    (QT_TRANSLATE_NOOP("analysis", "Ratings"), "ratings", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Mean grade"), "mean_grade", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Shared ratings"), "shared_ratings", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Mean grade on shared items"), "mean_grade_shared", "f4"),
]
TAU_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Ordering under"), "judge_a", ""),
    (QT_TRANSLATE_NOOP("analysis", "against"), "judge_b", ""),
    (QT_TRANSLATE_NOOP("analysis", "Kendall's tau"), "kendall_tau", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Undefined because"), "undefined", ""),
]
NOT_COMPARED_TEXTS = {  # tasks.agreement.NOT_COMPARED, in the window's words
    "draft": QT_TRANSLATE_NOOP("agreement", "Runs are compared on a frozen version; this one is a draft."),
    "no_runs": QT_TRANSLATE_NOOP("agreement", "No run is imported, so no run is compared."),
    "no_shared_items": QT_TRANSLATE_NOOP(
        "agreement", "No query has an item rated by two or more annotators, so no run is compared."
    ),
    "none_scored": QT_TRANSLATE_NOOP("agreement", "No run could be scored under these choices:"),
}


def in_core_order(view: QTableView) -> None:
    """Show the rows in the order the core gave them (all queries first, natural order) until a header is clicked."""
    proxy = view.model()
    if isinstance(proxy, QSortFilterProxyModel):
        proxy.sort(-1)
    view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)


def figure_text(figure: Figure) -> str:
    if figure.value is not None:
        return f"{figure.value:.4f}"
    return translate("agreement", "undefined ({why})").format(why=reason_words(figure.why))


def caveat_text(caveat: Caveat) -> str:
    """A caveat ``ndcg agreement`` prints (tasks.agreement.Caveat), in the window's words."""
    if caveat.kind == "few_items":
        text = (
            translate(
                "agreement",
                "Caveat: alpha and the kappas rest on 1 item rated by two or more annotators (fewer than {few}): "
                "over so few items they say little about agreement (over one, they can only be 0, 1 or undefined)",
            )
            if caveat.items == 1
            else translate(
                "agreement",
                "Caveat: alpha and the kappas rest on {items} items rated by two or more annotators "
                "(fewer than {few}): over so few items they say little about agreement (over one, they can only be "
                "0, 1 or undefined)",
            )
        )
        return text.format(items=caveat.items, few=FEW_SHARED_ITEMS)
    if caveat.kind == "few_pair_items":
        pairs = translate("analysis", ", ", "separator in a list").join(
            translate("agreement", "{a} - {b} ({items})").format(a=a, b=b, items=n) for a, b, n in caveat.pairs
        )
        return translate("agreement", "Caveat: the kappas of {pairs} rest on fewer than {few} shared items").format(
            pairs=pairs, few=FEW_SHARED_ITEMS
        )
    if caveat.kind == "few_model_items":
        return translate(
            "agreement",
            "Caveat: {model}'s alpha with the people rests on {items} items (fewer than {few}): it says little about "
            "how far the model agrees with them",
        ).format(model=caveat.who, items=caveat.items, few=FEW_SHARED_ITEMS)
    if caveat.kind == "flagged_texts":
        query, doc, field, pattern = caveat.first
        where = translate("agreement", "document") if field == "document" else translate("agreement", "topic")
        text = (
            translate(
                "agreement",
                "Caveat: 1 of the {of} items a model rated has a document or topic text that addresses the grader "
                "(the first: query {query}, document {doc}, {where} matches {pattern}; ndcg agreement lists every "
                "one): the model may have obeyed the text; read them before trusting its grades",
            )
            if caveat.items == 1
            else translate(
                "agreement",
                "Caveat: {items} of the {of} items a model rated have a document or topic text that addresses the "
                "grader (the first: query {query}, document {doc}, {where} matches {pattern}; ndcg agreement lists "
                "every one): the model may have obeyed the text; read them before trusting its grades",
            )
        )
        return text.format(items=caveat.items, of=caveat.of, query=query, doc=doc, where=where, pattern=pattern)
    if caveat.kind == "few_items_without":
        return translate(
            "agreement",
            "Caveat: the figures without {names} rest on {items} items rated by two or more (fewer than {few})",
        ).format(names=caveat.who, items=caveat.items, few=FEW_SHARED_ITEMS)
    values = translate("agreement", "1 or -1") if caveat.runs == 2 else translate("agreement", "1, 1/3, -1/3 or -1")
    return translate(
        "agreement",
        "Caveat: Kendall's tau orders only {runs} runs, so it takes one of {count} values ({values}): it says "
        "whether their order changes, little more",
    ).format(runs=caveat.runs, count=caveat.tau_values, values=values)


def duplicate_words(duplicate: Duplicate) -> str:
    """The warning ``ndcg agreement`` prints for two identical annotators, in the window's words."""
    return translate(
        "agreement",
        "Warning: {a} and {b} gave the same grade on every one of the {items} items both rated (at least {least}: "
        "one file imported twice, or one person under two names?); the figures above count those ratings twice",
    ).format(a=duplicate.a, b=duplicate.b, items=duplicate.items, least=DUPLICATE_MIN_ITEMS)


def without_words(dedup: WithoutDuplicates) -> str:
    """The figures without the duplicates, naming who remains, in the window's words."""
    comma = translate("analysis", ", ", "separator in a list")
    gone, remain = comma.join(dedup.left_out), comma.join(dedup.remaining)
    overall = dedup.overall
    if not overall.items:
        return translate("agreement", "Without {gone}: {remain} remain, with no item rated by two or more.").format(
            gone=gone, remain=remain
        )
    return translate(
        "agreement",
        "Without {gone}: alpha {alpha}, unanimous {unanimous} ({remain}: {count} annotators sharing {items} items).",
    ).format(
        gone=gone,
        alpha=figure_text(overall.alpha),
        unanimous=figure_text(overall.unanimous),
        remain=remain,
        count=len(overall.annotators),
        items=overall.items,
    )


class AgreementView(QWidget):
    """Pool version + scoring settings -> agreement tables, a confusion heat map, and the systems check."""

    error = Signal(str)
    exported = Signal(list)  # the paths an export wrote: the window's status bar says where

    def __init__(
        self, parent: QWidget | None = None, *, loader: Loader | None = None, slot: ProjectSlot | None = None
    ) -> None:
        super().__init__(parent)
        self.session = AgreementSession(loader) if loader is not None else AgreementSession()
        if slot is not None:
            self.session.follow(slot)  # each project, and every change to it, from its events
        self.version_box = QComboBox()
        self.version_box.setAccessibleName(translate("agreement", "Pool version"))
        self.version_box.setMinimumContentsLength(22)
        self.version_box.activated.connect(lambda _i: self.session.set_version(self.version_box.currentData()))
        self.k = QSpinBox(minimum=1, maximum=10_000, value=self.session.k)
        self.k.setAccessibleName(translate("agreement", "Cutoff K"))
        self.k.valueChanged.connect(self.session.set_k)
        self.gain = QComboBox()
        self.gain.setAccessibleName(choice_title("gain"))
        for text, value in choice_items("gain"):
            self.gain.addItem(text, value)
        self.gain.activated.connect(lambda _i: self.session.set_settings(gain=Gain(self.gain.currentData())))
        # one choice per flag group for every run of the systems check, refusing until chosen
        self.unjudged = self._policy_box("unjudged")
        self.duplicates = self._policy_box("duplicates")
        self.unknown = self._policy_box("unknown_queries")
        self.compute_button = QPushButton(translate("agreement", "Compute"))
        self.compute_button.setToolTip(
            translate("agreement", "Compute the agreement and score every run under each annotator ({keys})").format(
                keys=keys_text(COMPUTE_KEYS)
            )
        )
        self.compute_button.clicked.connect(self.compute)
        self.export_button = QPushButton(translate("agreement", "Export CSV…"))
        self.export_button.clicked.connect(lambda: self.export())
        bar = QHBoxLayout()
        version_label = QLabel(translate("agreement", "Pool version"))
        version_label.setBuddy(self.version_box)
        k_label = QLabel(translate("agreement", "Runs scored at K"))
        k_label.setBuddy(self.k)
        for widget in (version_label, self.version_box, k_label, self.k, self.gain):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.compute_button)
        bar.addWidget(self.export_button)
        policies = QHBoxLayout()
        for widget in (self.unjudged, self.duplicates, self.unknown):
            policies.addWidget(widget)
        policies.addStretch(1)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setAccessibleName(translate("agreement", "Agreement summary"))
        self.caveats = QLabel()  # the session's caveats, as `ndcg agreement` prints them
        self.caveats.setWordWrap(True)
        self.caveats.setTextFormat(Qt.TextFormat.PlainText)
        self.caveats.setAccessibleName(translate("agreement", "What to keep in mind reading the figures"))
        self.caveats.setStyleSheet("color: #b35c00;")  # amber: readable on light and on dark bases alike
        self.caveats.hide()
        self.tabs = QTabWidget()
        self.tabs.addTab(self._annotators_tab(), translate("agreement", "Annotators"))
        self.tabs.addTab(self._systems_tab(), translate("agreement", "Does it matter for the systems?"))
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(bar)
        layout.addLayout(policies)
        layout.addWidget(self.summary)
        layout.addWidget(self.caveats)
        layout.addWidget(self.tabs, 1)
        scroller = QScrollArea()  # small or scaled screens scroll instead of forcing a big window (as Scores)
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroller)
        QShortcut(COMPUTE_KEYS, self).activated.connect(self.compute_button.animateClick)
        self.session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT}))

    def _policy_box(self, group: str) -> QComboBox:
        """One choice of the domain's table, refusing first, each value named with the choice (no other label)."""
        choice = BY_NAME[group]
        title = translate("analysis", choice.label)
        box = QComboBox()
        box.setAccessibleName(title)
        for value, text in choice.labels.items():
            box.addItem(f"{title}: {translate('analysis', text)}", value)
        box.activated.connect(lambda _i: self.session.set_settings(**{group: choice.enum(box.currentData())}))
        # Whole in either language: Qt's size hint falls a pixel or two short of mixed Chinese and Latin text.
        box.setMinimumWidth(box.sizeHint().width() + box.fontMetrics().averageCharWidth())
        return box

    def _annotators_tab(self) -> QWidget:
        self.groups = FrameModel(GROUP_COLUMNS)
        self._group_ids: list[str | None] = []
        self.groups_proxy = sorted_proxy(self.groups, self)
        self.groups_view = table_view(
            self.groups_proxy,
            name=translate("agreement", "Agreement per query"),
            description=translate("agreement", "All queries first, then each query with items rated by two or more"),
        )
        self.groups_view.selectionModel().selectionChanged.connect(self._query_chosen)
        self.pairs = FrameModel(PAIR_COLUMNS)
        self.pairs_view = table_view(sorted_proxy(self.pairs, self), name=translate("agreement", "Pairs of annotators"))
        self.pair_box = QComboBox()
        self.pair_box.setAccessibleName(translate("agreement", "Pair shown in the confusion matrix"))
        self.pair_box.activated.connect(lambda _i: self._show_matrix())
        self.confusion = ConfusionModel(self)
        self.heatmap = heatmap_view(self.confusion)
        self.leniency = FrameModel(LENIENCY_COLUMNS)
        self.leniency_view = table_view(
            sorted_proxy(self.leniency, self), name=translate("agreement", "Each annotator's mean grade")
        )
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.pairs_view, 1)
        pair_row = QHBoxLayout()
        pair_label = QLabel(translate("agreement", "Confusion matrix of"))
        pair_label.setBuddy(self.pair_box)
        pair_row.addWidget(pair_label)
        pair_row.addWidget(self.pair_box, 1)
        column.addLayout(pair_row)
        self.matrix_caption = QLabel()
        self.matrix_caption.setTextFormat(Qt.TextFormat.PlainText)
        self.matrix_caption.setAccessibleName(translate("agreement", "Whose grades are rows and columns"))
        column.addWidget(self.matrix_caption)
        column.addWidget(self.heatmap, 3)
        column.addWidget(QLabel(translate("agreement", "Leniency: each annotator's mean grade")))
        column.addWidget(self.leniency_view, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.groups_view)
        split.addWidget(right)
        split.setSizes([470, 680])
        return split

    def _systems_tab(self) -> QWidget:
        self.systems_note = QLabel()
        self.systems_note.setWordWrap(True)
        self.systems_note.setTextFormat(Qt.TextFormat.PlainText)
        self.systems_note.setAccessibleName(translate("agreement", "What the systems check compared"))
        self.means = FrameModel([])
        self.means_view = table_view(
            sorted_proxy(self.means, self), name=translate("agreement", "Mean nDCG of each run under each judge")
        )
        self.means_view.horizontalHeader().setStretchLastSection(False)
        self.taus = FrameModel(TAU_COLUMNS)
        self.taus_view = table_view(
            sorted_proxy(self.taus, self), name=translate("agreement", "How the ordering of the runs moves")
        )
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(self.systems_note)
        layout.addWidget(self.means_view, 3)
        layout.addWidget(self.taus_view, 2)
        return tab

    # -- the window's interface ----------------------------------------------------------------
    @property
    def result(self) -> AgreementResult | None:
        return self.session.result

    def set_project(self, project: Project | None) -> None:
        self.session.set_project(project)

    def reload(self) -> None:
        self.session.reload()

    def compute(self) -> None:
        if not self.session.ready():
            return
        job = self.session.job()

        def done(result: AgreementResult) -> None:
            self.session.apply(job, result)  # dropped if an input changed meanwhile

        run_with_progress(self, translate("agreement", "Computing the agreement…"), job, done, self.error.emit)

    def export(self, folder: str | None = None) -> list[Path]:
        """The agreement tables as CSV with manifest.json, into a new or earlier-export folder."""
        result = self.session.result
        if result is None:
            return []
        folder = folder or file_dialogs.folder(self, translate("agreement", "Export agreement to a folder"))
        if not folder:
            return []
        try:
            self.session.prove()  # a frozen version changed on disk since: refused, and forgotten
            written = export_agreement(result, folder)
        except InputError as exc:  # refused or unwritable: the message names the folder
            self.error.emit(exc.located())
            return []
        self.exported.emit(written)
        return written

    # -- rendering -------------------------------------------------------------------------------
    def _changed(self, aspects: frozenset[str]) -> None:
        if aspects & {PROJECT, INPUTS}:
            self._fill_versions()
            settings = self.session.settings  # the boxes show the session's choices, never their own
            for box, value in (
                (self.unjudged, settings.unjudged),
                (self.duplicates, settings.duplicates),
                (self.unknown, settings.unknown_queries),
            ):
                box.setCurrentIndex(box.findData(value.value))
        result = self.session.result
        self.export_button.setEnabled(result is not None)
        self.compute_button.setEnabled(self.session.ready())
        caveats = "\n".join(caveat_text(caveat) for caveat in self.session.caveats())
        self.caveats.setText(caveats)
        self.caveats.setVisible(bool(caveats))
        if result is None:
            self._clear()
        else:
            self._show(result)

    def _fill_versions(self) -> None:
        self.version_box.clear()
        for v in self.session.versions():
            text = (
                translate("agreement", "v{version} frozen (sha256 {hash}…)").format(
                    version=v.version, hash=v.short_hash
                )
                if v.frozen
                else translate("agreement", "v{version} draft").format(version=v.version)
            )
            self.version_box.addItem(text, v.version)
        self.version_box.setCurrentIndex(self.version_box.findData(self.session.version))

    def _clear(self) -> None:
        self.means.columns, self.means.header_fields = [], {}  # its columns name the last result's annotators
        for model in (self.groups, self.pairs, self.leniency, self.taus, self.means):
            model.clear()
        self.confusion.clear()
        self.pair_box.clear()  # emits no `activated`: the caption is cleared here, not by _show_matrix
        self.matrix_caption.setText("")
        self.systems_note.setText("")
        self.systems_note.setToolTip("")
        self.summary.setText(
            translate("agreement", "Choose a pool version and press Compute ({keys}).").format(
                keys=keys_text(COMPUTE_KEYS)
            )
            if self.session.ready()
            else translate("agreement", "Open a project with a pool version to see how far its annotators agree.")
        )

    def _show(self, result: AgreementResult) -> None:
        report, overall = result.report, result.report.overall
        headline = result.headline  # the people's figures: a model's agreement is its own line (rule 18)
        if result.models:
            lead = translate(
                "agreement",
                "Pool v{version}: {annotators}; {shared} of {rated} rated items were rated by two or more people. "
                "The people's Krippendorff's alpha (ordinal): {alpha}. Unanimous: {unanimous}.",
            )
        else:
            lead = translate(
                "agreement",
                "Pool v{version}: {annotators}; {shared} of {rated} rated items were rated by two or more "
                "annotators. Krippendorff's alpha (ordinal): {alpha}. Unanimous: {unanimous}.",
            )
        lines = [
            lead.format(
                version=result.version.version,
                annotators=translate("agreement", "1 annotator")
                if len(report.annotators) == 1
                else translate("agreement", "{count} annotators").format(count=len(report.annotators)),
                shared=headline.items,
                rated=report.rated_items,
                alpha=figure_text(headline.alpha),
                unanimous=figure_text(headline.unanimous),
            )
        ]
        lines += [
            translate(
                "agreement",
                "{name} is a language model, an annotator and not the truth: its alpha with the people is {alpha} on "
                "{items} items rated by two or more; its kappas with each person are in the pairs.",
            ).format(name=m.name, alpha=figure_text(m.with_people.alpha), items=m.with_people.items)
            for m in result.models
        ]
        lines += [duplicate_words(d) for d in result.duplicates]  # identical annotators: counted twice
        if result.deduplicated is not None:
            lines.append(without_words(result.deduplicated))
        self.summary.setText("\n".join(lines))
        groups = report.groups_frame()
        groups["undefined"] = groups["undefined"].map(reason_words)
        self._group_ids = [q or None for q in groups["query_id"]]  # source rows: None is all queries
        groups["query_id"] = groups["query_id"].replace("", translate("agreement", "(all queries)"))
        self.groups.load(groups)
        fit_columns(self.groups_view, self.groups)
        in_core_order(self.groups_view)
        self.leniency.load(report.leniency)
        fit_columns(self.leniency_view, self.leniency)
        in_core_order(self.leniency_view)
        self.pair_box.clear()
        for pair in overall.pairs:
            self.pair_box.addItem(f"{pair.a} – {pair.b}", (pair.a, pair.b))
        self.groups_view.selectRow(0)
        self._query_chosen()
        self._show_systems(result)

    def _chosen_query(self) -> str | None:
        rows = self.groups_view.selectionModel().selectedRows()
        if not rows:
            return None
        row = self.groups_proxy.mapToSource(rows[0]).row()
        return self._group_ids[row] if 0 <= row < len(self._group_ids) else None

    def _query_chosen(self, *_: QItemSelection) -> None:
        result = self.session.result
        if result is None:
            return
        pairs = result.report.pairs_frame()
        pairs["undefined"] = pairs["undefined"].map(reason_words)
        self.pairs.load(pairs[pairs["query_id"] == (self._chosen_query() or "")])
        fit_columns(self.pairs_view, self.pairs)
        in_core_order(self.pairs_view)
        self._show_matrix()

    def _show_matrix(self) -> None:
        result = self.session.result
        chosen = self.pair_box.currentData()
        if result is None or chosen is None:
            self.confusion.clear()
            self.matrix_caption.setText("")
            return
        a, b = chosen
        query = self._chosen_query()
        self.matrix_caption.setText(
            translate("agreement", "Rows: {a}'s grade; columns: {b}'s grade; {scope}").format(
                a=a, b=b, scope=query if query is not None else translate("agreement", "all queries")
            )
        )
        matrix = result.report.matrix(a, b, query)
        self.confusion.load(matrix, result.report.grades, result.version.labels, a, b)

    def _show_systems(self, result: AgreementResult) -> None:
        systems = result.systems
        judge_names = {CONSENSUS: translate("agreement", "consensus")}
        refused = "".join(
            translate("agreement", "\nNot scored: {run}: {why}").format(run=run, why=not_scored_text(why))
            for run, why in systems.refused.items()
        )
        self.systems_note.setToolTip("\n".join(f"{run}: {why.error.located()}" for run, why in systems.refused.items()))
        if systems.reason:
            self.systems_note.setText(translate("agreement", NOT_COMPARED_TEXTS[systems.reason]) + refused)
        else:
            self.systems_note.setText(
                translate(
                    "agreement",
                    "Mean nDCG over the {count} queries in which two or more annotators rated an item; an annotator's "
                    "grades replace the consensus on the items they rated. {settings}",
                ).format(count=len(systems.queries), settings=describe_settings(result.settings, result.k))
                + refused
            )
        fields = {f"j{i}": judge_names.get(judge, judge) for i, judge in enumerate(systems.judges)}
        columns: list[Column] = [(QT_TRANSLATE_NOOP("analysis", "Run"), "run", "")]
        columns += [(f"{{j{i}}}", judge, "f4") for i, judge in enumerate(systems.judges)]
        self.means.columns = columns
        self.means.header_fields = fields
        self.means.load(systems.means)
        fit_columns(self.means_view, self.means)
        in_core_order(self.means_view)
        taus = systems.taus_frame()
        taus["undefined"] = taus["undefined"].map(reason_words)
        for column in ("judge_a", "judge_b"):
            taus[column] = taus[column].map(lambda judge: judge_names.get(judge, judge))
        self.taus.load(taus)
        fit_columns(self.taus_view, self.taus)
        in_core_order(self.taus_view)
