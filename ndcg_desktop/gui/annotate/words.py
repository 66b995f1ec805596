"""The Annotate tab's refusals in the window's words: why a key did nothing."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ndcg_desktop.sessions.annotate_rules import Refusal

translate = QCoreApplication.translate


def refusal_text(refusal: Refusal, *, number_box: bool) -> str:
    """Why a key did nothing (sessions.annotate_rules), in the window's words for the status bar; ``number_box``: the
    grades are typed into a number box (a grade below the scale then reads as \"—\")."""
    kind = refusal.kind
    if kind == "no_pool":
        return translate("workspace", "Nothing to grade: this project has no pool yet.")
    if kind == "frozen":
        return translate(
            "workspace",
            "Pool v{version} is frozen: its grades cannot change (Pool ▸ New draft from this version).",
        ).format(version=refusal.version)
    if kind == "read_only":
        return translate("workspace", "The project is open read-only: grades cannot change.")
    if kind == "no_query":
        return translate("workspace", "No query is selected: nothing was graded.")
    if kind == "no_document":
        return translate("workspace", "No document is selected: nothing was graded.")
    if kind == "awaiting":
        return translate(
            "workspace",
            "{doc_id} awaits adjudication (annotators rated it differently): settle it in the Adjudicate "
            "tab. Nothing was graded.",
        ).format(doc_id=refusal.doc_id)
    grade = refusal.grade if refusal.grade is not None and refusal.low is not None else 0
    shown = grade if grade >= (refusal.low or 0) or not number_box else "—"
    return translate(
        "workspace", "{grade} is not a grade here: this project's grades run from {low} to {high}."
    ).format(grade=shown, low=refusal.low, high=refusal.high)
