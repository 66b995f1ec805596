"""The Scores view's sentences in the interface language (the core's English equivalents are tested equal)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QPushButton

from ndcg_desktop.domain import EvalSettings, Measure
from ndcg_desktop.domain.choices import BY_NAME, CHOICES, FLAG_GROUPS
from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.tasks.explaining import FlagReport
from ndcg_desktop.tasks.project import PoolVersion
from ndcg_desktop.tasks.scoring import NotScored, ResidualRecord

# The context is "analysis" (the view's former module) so existing translations stay attached.
translate = QCoreApplication.translate

# Every choice's words come from the domain's table (ndcg_desktop.domain.choices, marked there for the catalogue).
GROUP_TITLES = {choice.name: choice.label for choice in FLAG_GROUPS}
CHOICE_TEXTS = {(choice.name, value): text for choice in FLAG_GROUPS for value, text in choice.labels.items()}
# The window's action for unjudged documents, offered beside their policies (it scores nothing itself).
SEND = "send"
SEND_TEXT = QT_TRANSLATE_NOOP("analysis", "send for judging (adds them to a draft)")


def choice_items(name: str) -> list[tuple[str, str]]:
    """A choice's values in the table's order, each with its words in the interface language: ``(text, value)``.

    A combo box filled from here restates none of the table's values or labels, nor their order.
    """
    choice = BY_NAME[name]
    return [(translate("analysis", choice.labels[value]), value) for value in choice.values]


def choice_title(name: str) -> str:
    """A choice's title (its combo box's accessible name) in the interface language."""
    return translate("analysis", BY_NAME[name].label)


def describe_settings(settings: Measure, k: int) -> str:
    """``Measure.describe(k)`` in the interface language, part by part from the table of choices."""
    parts = [f"nDCG@{k}"]
    for choice in CHOICES:
        word = translate("analysis", choice.words[settings.choice(choice.name).value])
        parts.append(translate("analysis", choice.shown).format(word))
    parts.insert(2, translate("analysis", "log2 discount"))  # fixed, said with the gain (as describe() does)
    terms = settings.terms
    parts.append(translate("analysis", "scale {scale}").format(scale=terms.scale))
    text = translate("analysis", ", ", "between the parts of a settings line").join(parts)
    if isinstance(terms.id_map, ChunkMap):
        text += translate("analysis", ", IDs mapped by {file}").format(file=terms.id_map.label())
    elif terms.id_map is not None:
        text += translate("analysis", ", IDs cut at {separator}").format(separator=repr(terms.id_map))
    return text


def missing_sentences(report: FlagReport, settings: EvalSettings) -> list[str]:
    """``FlagReport.missing()`` in the interface language."""
    sentences = {
        "unjudged": translate("analysis", "{count} unjudged documents ({top} in the top {k}) need a policy").format(
            count=report.unjudged_total, top=report.unjudged_in_top_k, k=report.k
        ),
        "duplicates": translate("analysis", "{count} duplicate documents need a policy").format(
            count=report.duplicates
        ),
        "unknown_queries": translate("analysis", "{count} run queries are not in the pool").format(
            count=len(report.unknown_queries)
        ),
    }
    return [sentences[group] for group in report.missing_groups(settings)]


def found_text(group: str, report: FlagReport, k: int) -> str:
    """What one run's check found for one flag group."""
    if group == "unjudged":
        return translate("analysis", "{total} in {queries} queries ({in_top_k} in the top {k})").format(
            total=report.unjudged_total, queries=report.unjudged_queries, in_top_k=report.unjudged_in_top_k, k=k
        )
    if group == "duplicates":
        return str(report.duplicates)
    if group == "unknown_queries":
        return listing(report.unknown_queries)
    return listing(report.unanswered_queries)


def listing(items: list[str], limit: int = 8) -> str:
    """Query IDs in words: ``query 26``, ``3 queries (q1, q2, q3)``, ``12 queries (q1, …, q8 and 4 more)``.

    A bare ``1: 26`` after a label's own colon read as a riddle ("Ties straddling K: 1: 26").
    """
    if not items:
        return translate("analysis", "none")
    if len(items) == 1:
        return translate("analysis", "query {id}").format(id=items[0])
    shown = translate("analysis", ", ", "list separator").join(items[:limit])
    if len(items) > limit:
        shown = translate("analysis", "{items} and {more} more").format(items=shown, more=len(items) - limit)
    return translate("analysis", "{count} queries ({items})").format(count=len(items), items=shown)


def not_scored_text(why: NotScored) -> str:
    """Why a run was not scored, in the window's words: the choices it needs, named as the window names them.

    The core's sentence ends in a command-line option (``choose --duplicates first``); the window names its
    own control instead, and says the core's sentence only when no choice would score the run.
    """
    if not why.choices:
        return why.error.located()
    groups = translate("analysis", ", ", "list separator").join(
        translate("analysis", GROUP_TITLES[g]) for g in why.choices
    )
    return translate("analysis", "needs a choice for {groups}").format(groups=groups)


def scored_against(run: str, version: PoolVersion, residual: ResidualRecord | None = None) -> str:
    """Names what a result belongs to: ``bm25 against pool v1 (sha256 3fa2…)``, and, scored residually (rule 21),
    from which version and what was removed."""
    text = translate("analysis", "{run} against pool v{version} (sha256 {hash}…)").format(
        run=run, version=version.version, hash=(version.hash or "")[:12]
    )
    if residual is None:
        return text
    return text + translate(
        "analysis",
        ", residual from v{version} (sha256 {hash}…): {documents} documents judged there removed from the run, "
        "{judgments} judgments removed ({left} left)",
    ).format(
        version=residual.from_version,
        hash=residual.from_hash[:12],
        documents=residual.run_documents_removed,
        judgments=residual.judgments_removed,
        left=residual.judgments_left,
    )


def keys_text(keys: QKeySequence) -> str:
    """A shortcut as the platform writes it ("Ctrl+Return", "⌘↩"), for tooltips."""
    return keys.toString(QKeySequence.SequenceFormat.NativeText)


def set_button_text(button: QPushButton, text: str) -> None:
    """A button whose text changes keeps its accessible name in step."""
    button.setText(text)
    button.setAccessibleName(text)
