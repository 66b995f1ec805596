"""Query terms highlighted in a document, as safe HTML for the reader pane."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QCoreApplication, QLocale

# No user-visible text here (stop words are matching data, not interface text); the alias keeps
# the GUI package's convention for any text added later.
translate = QCoreApplication.translate

# Words too common to be worth marking, per interface language (a short list, not a linguistic
# resource). English applies always, since queries are so often written in English.
STOPWORDS = {
    "en": frozenset(
        """a about all also an and any are as at be been but by can could did do does for from had has have
        how if in into is it its may might more most must no not of on or other our should so some such than
        that the their them then there these they this those to too was we were what when where which while
        who whom why will with would you your""".split()
    ),
    "zh": frozenset(
        """的 了 是 在 和 与 或 及 也 都 就 而 但 被 把 对 从 到 为 以 之 其 这 那 这个 那个 一个 什么 怎么 怎样
        如何 为什么 哪 哪些 哪个 吗 呢 吧 啊 我 你 他 她 它 我们 你们 他们 可以 必须 应该 能 会 要 有 没有 不""".split()
    ),
}
_MARK = '<span style="background-color:#ffe58a; color:#000000">'
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def stopwords(language: str | None = None) -> frozenset[str]:
    """English stop words plus those of ``language`` (default: the interface language, e.g. zh_CN)."""
    code = (language or QLocale().name()).split("_")[0]
    return STOPWORDS["en"] | STOPWORDS.get(code, frozenset())


def query_terms(query: str, language: str | None = None) -> list[str]:
    """Content words of a query, longest first so that longer matches win.

    Stop words are skipped, and so are words under three letters (CJK words are short: two
    characters suffice there).
    """
    stop = stopwords(language)
    words = {
        w.lower()
        for w in re.findall(r"\w+", query)
        if (len(w) > 2 or (len(w) == 2 and _CJK.match(w))) and w.lower() not in stop
    }
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


# Long documents: Qt lays out a rich-text paragraph of megabytes for tens of seconds, and HTML for
# a 5 MB document is about ten times its size. Above LONG_DOCUMENT characters the reader shows plain
# text, with lines wrapped into blocks of at most BLOCK characters, and marks the query's terms
# only in the first HIGHLIGHT_LIMIT characters (at most MAX_MARKS of them); the window says so.
LONG_DOCUMENT = 50_000
HIGHLIGHT_LIMIT = 100_000
MAX_MARKS = 2_000
BLOCK = 2_000


def display_text(text: str) -> str:
    """``text`` with every line longer than BLOCK characters split into shorter lines.

    A split replaces the last whitespace before the limit by a newline (the length is unchanged);
    a run without whitespace is cut with an inserted newline.
    """
    out: list[str] = []
    for line in text.split("\n"):
        while len(line) > BLOCK:
            cut = max(line.rfind(" ", 0, BLOCK), line.rfind("\t", 0, BLOCK))
            if cut > 0:
                out.append(line[:cut])
                line = line[cut + 1 :]
            else:
                out.append(line[:BLOCK])
                line = line[BLOCK:]
        out.append(line)
    return "\n".join(out)


def mark_spans(text: str, query: str, limit: int = HIGHLIGHT_LIMIT, most: int = MAX_MARKS) -> list[tuple[int, int]]:
    """(start, end) of the query's terms in the first ``limit`` characters of ``text``, at most ``most``.

    Positions count UTF-16 code units, as Qt's text documents do (a character outside the Basic
    Multilingual Plane, such as an emoji, counts twice).
    """
    terms = query_terms(query)
    if not terms:
        return []
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in terms) + r")\w*", re.IGNORECASE)
    head = text[:limit]
    wide = any(ord(c) > 0xFFFF for c in head) if not head.isascii() else False
    spans: list[tuple[int, int]] = []
    shift, done = 0, 0  # UTF-16 units minus characters, up to character ``done``
    for match in pattern.finditer(head):
        if len(spans) >= most:
            break
        start, end = match.span()
        if wide:
            shift += sum(ord(c) > 0xFFFF for c in head[done:start])
            inner = sum(ord(c) > 0xFFFF for c in head[start:end])
            spans.append((start + shift, end + shift + inner))
            shift += inner
            done = end
        else:
            spans.append((start, end))
    return spans
