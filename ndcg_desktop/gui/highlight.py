"""Query terms highlighted in a document, as safe HTML for the reader pane."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QCoreApplication

# No user-visible text here (stop words are matching data, not interface text); the alias keeps
# the GUI package's convention for any text added later.
translate = QCoreApplication.translate

_STOP = frozenset(
    "a an and are as at be by for from how in is it of on or the to what when where which who why with".split()
)
_MARK = '<span style="background-color:#ffe58a; color:#000000">'


def query_terms(query: str) -> list[str]:
    """Content words of a query, longest first so that longer matches win."""
    words = {w.lower() for w in re.findall(r"\w+", query) if len(w) > 2 and w.lower() not in _STOP}
    return sorted(words, key=lambda w: (-len(w), w))


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def highlighted_html(text: str, query: str) -> str:
    """HTML paragraphs of ``text`` with the query's terms marked (prefix match: 'freeze' marks 'freezing').

    Terms are matched in the raw text and each piece is escaped on its own, so markup in the text
    stays text and a term never matches inside an escape ('amp' leaves ``AT&T`` alone).
    """
    terms = query_terms(query)
    pieces: list[str] = []
    position = 0
    if terms:
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in terms) + r")\w*", re.IGNORECASE)
        for match in pattern.finditer(text):
            pieces.append(_escape(text[position : match.start()]))
            pieces.append(f"{_MARK}{_escape(match.group(0))}</span>")
            position = match.end()
    pieces.append(_escape(text[position:]))
    marked = "".join(pieces)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", marked) if p.strip()]
    return "".join(f"<p>{p.replace(chr(10), '<br>')}</p>" for p in paragraphs)
