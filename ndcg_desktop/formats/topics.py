"""Queries as topics: an ID, a title, and optionally a description and a narrative.

Four forms, each read under the one ID rule (:mod:`.cells`), refusing with ``file:line: problem``:

- TREC topic files in the classic SGML form (TREC 1-8, Robust04)::

      <top>
      <num> Number: 301
      <title> International Organized Crime
      <desc> Description:
      Identify organizations that participate in international criminal activity ...
      <narr> Narrative:
      A relevant document must as a minimum identify the organization ...
      </top>

  Field tags are usually not closed: a field runs to the next tag. The ``Number:``, ``Topic:``,
  ``Description:`` and ``Narrative:`` labels are stripped, with their colon or alone on their line
  (TREC Core 2018 writes ``<narr> Narrative`` without one). The newer XML-ish form (Web track,
  TREC-COVID) has closed tags and the number as an attribute: ``<topic number="1"><query>…</query>
  <description>…</description><narrative>…</narrative></topic>``; ``query`` is read as the title
  and ``question`` as the description. Other tags inside a topic (``<con>``, ``<subtopic>``…) are
  skipped. A field's line breaks are unwrapped; a blank line inside it starts a new paragraph, and
  an item of a list (a line starting ``-``, ``*``, ``•``, ``1.``, ``a)``…) a line of its own.
- TSV: ``query_id<TAB>text`` lines (no header), or a header naming ``query_id``, ``title`` (or
  ``text``) and optionally ``description`` and ``narrative``.
- CSV with such a header.
- JSONL: ``{"query_id": "301", "title": "…", "description": "…", "narrative": "…"}``; ``text``
  is read as the title.
"""

from __future__ import annotations

import bisect
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import brief, check_id, show
from ndcg_desktop.formats.common import (
    MAX_TOPIC_FIELD_CHARS,
    JsonInt,
    base_suffix,
    check_utf8,
    first_line,
    iter_lines,
    iter_records,
    load_json,
    names_file_on_memory_error,
    read_header,
    read_input,
)
from ndcg_desktop.formats.streams import as_file

TOPIC_FORMATS = ("trec", "tsv", "csv", "jsonl")
FIELDS = ("title", "description", "narrative")
_SURROGATE = re.compile("[\ud800-\udfff]")

# Tag names of each field, in both forms (classic SGML and the XML-ish one).
_FIELD_TAGS = {
    "num": "num",
    "number": "num",
    "title": "title",
    "query": "title",
    "desc": "description",
    "description": "description",
    "question": "description",
    "narr": "narrative",
    "narrative": "narrative",
}
_TOPIC_TAGS = ("top", "topic")
# The label a classic topic file puts at the start of a field (TREC 1-3 titles begin with "Topic:"): followed by a
# colon ("<narr> Narrative:"), or alone on its line ("<narr> Narrative", TREC Core 2018), never a text's first word.
_LABELS = {"num": "number", "title": "topic", "description": "description", "narrative": "narrative"}
_PREFIX = {
    name: re.compile(rf"\s*{label}(?:\s*:|(?=[ \t\r]*(?:\n|$)))", re.IGNORECASE) for name, label in _LABELS.items()
}
# A line that starts an item of a list: "-", "*", "•", "·", "–" or "1." / "1)" / "a)" then a space.
_BULLET = re.compile(r"(?:[-*•·–]|\d{1,3}[.)]|[a-zA-Z][)])\s")
# Possessive: a "<name" never closed by ">" must fail once, not try every split of the name (quadratic).
_TAG = re.compile(r"<([/?!]?)\s*+([A-Za-z][\w:.-]*+)([^<>]*+)>")
_NUMBER_ATTR = re.compile(r"""\b(?:number|num|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'/>]+))""", re.IGNORECASE)
_TOPIC_START = re.compile(rb"<\s*top(?:ic)?[\s>]", re.IGNORECASE)
_PARAGRAPHS = re.compile(r"\n[ \t\r\f\v]*\n\s*")


def topic_format(path: str | Path, data: bytes) -> str:
    """The format a queries file is read in: its content first (``<`` or ``{``), then its extension."""
    head = first_line(data)
    if head.startswith("<"):
        return "trec"
    suffix = base_suffix(path)
    if suffix in (".jsonl", ".json", ".ndjson") or head.startswith("{"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    if suffix in (".xml", ".sgml", ".sgm") or _TOPIC_START.search(data[:4096]):
        return "trec"
    return "tsv"


@names_file_on_memory_error
def read_queries(path: str | Path, fmt: str | None = None) -> pd.DataFrame:
    """Queries (topics) of a file: columns query_id, title, description, narrative, line.

    ``fmt`` forces one of :data:`TOPIC_FORMATS`; by default the content and extension decide.
    A query listed twice, or a file without queries, is refused.

    >>> # read_queries("topics.301-350") -> query_id "301", title "International Organized Crime", ...
    """
    if fmt is not None and fmt not in TOPIC_FORMATS:
        raise InputError(f"the queries format must be one of {', '.join(TOPIC_FORMATS)}, not {fmt!r}", path=path)

    def check_head(head: bytes) -> None:  # a stream's first lines; a topic file's tags may span them
        if (fmt or topic_format(path, head)) != "trec":
            _rows(head, path, fmt)

    with as_file(path, check_head) as file:
        data, _ = read_input(file)
        rows = _rows(data, file, fmt)
    frame = pd.DataFrame(rows, columns=["query_id", *FIELDS, "line"])
    dup = frame[frame.duplicated("query_id", keep=False)]
    if len(dup):
        first, second = dup.iloc[0], dup.iloc[1]
        raise InputError(
            f"query {brief(second['query_id'])} is listed twice (also at line {first['line']})",
            path=path,
            line=int(second["line"]),
        )
    if frame.empty:
        raise InputError("has no queries", path=path)
    return frame


Row = tuple[str, str, str, str, int]


def _rows(data: bytes, path: str | Path, fmt: str | None) -> list[Row]:
    check_utf8(data, path)
    fmt = fmt or topic_format(path, data)
    return {"trec": _trec_rows, "jsonl": _jsonl_rows, "csv": _csv_rows, "tsv": _tsv_rows}[fmt](data, path)


def _too_long(field: str, path: str | Path, line: int) -> InputError:
    return InputError(
        f"the {field} is longer than {MAX_TOPIC_FIELD_CHARS:,} characters (the limit for a query's title, "
        "description and narrative)",
        path=path,
        line=line,
    )


def _limited(text: str, field: str, path: str | Path, line: int) -> str:
    """``text``, refused when longer than :data:`MAX_TOPIC_FIELD_CHARS`."""
    if len(text) > MAX_TOPIC_FIELD_CHARS:
        raise _too_long(field, path, line)
    return text


# -- TSV, CSV, JSONL ------------------------------------------------------------------------
def _tsv_rows(data: bytes, path: str | Path) -> list[Row]:
    rows: list[Row] = []
    header: list[str] | None = None
    columns: dict[str, int] = {}
    for number, text in iter_lines(data, path):
        if header is None and not rows and text.split("\t", 1)[0].strip() == "query_id":
            header = [cell.strip() for cell in text.split("\t")]
            columns = _columns(header, path)
            continue
        if header is None:  # query_id<TAB>text: the text is the rest of the line
            cells = text.split("\t", 1)
            if len(cells) != 2:
                raise InputError("expected query_id<TAB>text", path=path, line=number)
            title = _limited(cells[1].strip(), "title", path, number)
            rows.append((check_id(cells[0], "query ID", path, number), title, "", "", number))
            continue
        cells = text.split("\t", len(header) - 1)  # the last column takes the rest of the line
        if len(cells) != len(header):
            raise InputError(
                f"expected {len(header)} tab-separated columns, found {len(cells)}", path=path, line=number
            )
        rows.append(_row(cells, columns, path, number))
    return rows


def _csv_rows(data: bytes, path: str | Path) -> list[Row]:
    header = read_header(data, path, ",")
    columns = _columns(header, path)
    return [_row(cells, columns, path, number) for number, cells in iter_records(data, path, ",", len(header))]


def _columns(header: list[str], path: str | Path) -> dict[str, int]:
    """Where each field sits in a header: query_id, title (or text), description, narrative."""
    if len(set(header)) != len(header):
        raise InputError("the header names a column twice", path=path, line=1)
    if "query_id" not in header or not ({"title", "text"} & set(header)):
        raise InputError(
            "the header must name query_id and title (or text), and may name description and narrative; "
            f"found {show(','.join(header))}",
            path=path,
            line=1,
        )
    if "title" in header and "text" in header:
        raise InputError("the header names both title and text: name the query's title once", path=path, line=1)
    names = {"query_id": "query_id", "title": "title", "text": "title", "description": "description"}
    names["narrative"] = "narrative"
    return {names[name]: i for i, name in enumerate(header) if name in names}


def _row(cells: list[str], columns: dict[str, int], path: str | Path, line: int) -> Row:
    def cell(name: str) -> str:
        return _limited(cells[columns[name]].strip(), name, path, line) if name in columns else ""

    query_id = check_id(cells[columns["query_id"]], "query ID", path, line)
    return query_id, cell("title"), cell("description"), cell("narrative"), line


def _jsonl_rows(data: bytes, path: str | Path) -> list[Row]:
    rows: list[Row] = []
    for number, text in iter_lines(data, path):
        obj = load_json(text, path, number)
        if not isinstance(obj, dict) or "query_id" not in obj:
            raise InputError("expected an object with 'query_id'", path=path, line=number)
        if "title" in obj and "text" in obj:
            raise InputError('gives both "title" and "text": give the query\'s title once', path=path, line=number)
        title = json_text(obj.get("title", obj.get("text")), "title" if "title" in obj else "text", path, number)
        description = json_text(obj.get("description"), "description", path, number)
        narrative = json_text(obj.get("narrative"), "narrative", path, number)
        rows.append(
            (
                json_id(obj["query_id"], "query ID", path, number),
                _limited(title, "title", path, number),
                _limited(description, "description", path, number),
                _limited(narrative, "narrative", path, number),
                number,
            )
        )
    return rows


def json_id(value: object, what: str, path: str | Path, line: int) -> str:
    """An ID given in JSON: a string or an integer, under the ID rule."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{what} must be a string, found {show(_json_brief(value))}", path=path, line=line)
    return check_id(value.text if isinstance(value, JsonInt) else str(value), what, path, line)


def json_text(value: object, name: str, path: str | Path, line: int) -> str:
    """A text given in JSON: a string (null is empty); objects, lists and lone surrogates are refused."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f'"{name}" must be a string, found {show(_json_brief(value))}', path=path, line=line)
    text = value if isinstance(value, str) else json.dumps(value)
    bad = _SURROGATE.search(text)
    if bad:
        raise InputError(
            f'"{name}" holds a lone surrogate (U+{ord(bad.group()):04X}), which is not text', path=path, line=line
        )
    return text


def _json_brief(value: object) -> str:
    try:
        return json.dumps(value)[:100]
    except (ValueError, RecursionError):
        return type(value).__name__


# -- TREC topic files -----------------------------------------------------------------------
@dataclass
class _Topic:
    tag: str  # "top" or "topic"
    line: int
    number: str | None  # from a number= attribute
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (raw text, line)


class _LineOf:
    """Line numbers of positions in a text, by bisecting its line ends."""

    def __init__(self, text: str) -> None:
        self.ends = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, position: int) -> int:
        return bisect.bisect_left(self.ends, position) + 1


def _blank_comments(text: str, path: str | Path, line_of: Callable[[int], int]) -> str:
    """The text with each ``<!-- … -->`` comment turned into spaces (line ends kept, so lines still count)."""
    parts: list[str] = []
    pos = 0
    while (opening := text.find("<!--", pos)) >= 0:
        end = text.find("-->", opening + 4)
        if end < 0:
            raise InputError("a comment (<!--) is never closed (-->)", path=path, line=line_of(opening))
        parts += [text[pos:opening], re.sub(r"[^\n]", " ", text[opening : end + 3])]
        pos = end + 3
    return "".join(parts) + text[pos:]


def _trec_rows(data: bytes, path: str | Path) -> list[Row]:
    raw = data.decode("utf-8")
    line_of = _LineOf(raw)
    text = _blank_comments(raw, path, line_of) if "<!--" in raw else raw
    rows: list[Row] = []
    topic: _Topic | None = None
    current: str | None = None  # the field being read ("" for a skipped tag's text)
    field_tag = ""  # the tag that opened it, as written
    start = 0  # where the current field's text starts
    pos = 0
    # An unknown tag opened inside a field: (its text, its name, where, the field's tag). A classic section
    # (<con>, <def>) ends the field; markup (<b>x</b>, <br> before </desc>) would lose its text.
    inline: tuple[str, str, int, str] | None = None

    def markup() -> None:
        assert inline is not None
        tag, _, at, field_name = inline
        raise InputError(
            f"markup {tag} inside <{field_name}>: a field holds plain text (remove the markup, or write < as &lt; "
            "in a <topic> file)",
            path=path,
            line=line_of(at),
        )

    def close_field(end: int) -> None:
        nonlocal current
        # Refused before it is copied or unwrapped (unwrapping splits it into words): a field's line ends and
        # indents may make its text up to four times as long as what it reads as.
        if topic is not None and current and end - start > 4 * MAX_TOPIC_FIELD_CHARS:
            raise _too_long("number" if current == "num" else current, path, line_of(start))
        if topic is not None and current:
            if current in topic.fields:
                raise InputError(
                    f"topic at line {topic.line} gives <{current}> twice (also at line {topic.fields[current][1]})",
                    path=path,
                    line=line_of(start),
                )
            topic.fields[current] = (text[start:end], line_of(start))
        current = None

    def stray(segment: str, at: int) -> None:
        """Text between tags where no field is open: blank space, or refused."""
        if segment.strip():
            if inline is not None:  # text after markup closed the field: <desc>a<br/>b
                markup()
            offset = at + len(segment) - len(segment.lstrip())
            where = f"inside the topic at line {topic.line} but in no field" if topic else "outside any topic"
            raise InputError(
                f"text {show(segment.strip()[:40])} {where} (a topic is <top> <num> <title> <desc> <narr> </top>)",
                path=path,
                line=line_of(offset),
            )

    while True:
        lt = text.find("<", pos)
        if current is None:
            stray(text[pos : lt if lt >= 0 else len(text)], pos)
        if lt < 0:
            break
        match = _TAG.match(text, lt)
        if match is None:  # a lone "<" in running text
            if current is None:
                stray("<", lt)
            pos = lt + 1
            continue
        kind, name, attrs = match.group(1), match.group(2).lower(), match.group(3)
        pos = match.end()
        if kind in ("?", "!"):  # <?xml …?>, <!DOCTYPE …>
            continue
        if topic is None:
            if kind == "/" and name in _TOPIC_TAGS:
                raise InputError(f"</{name}> closes no topic", path=path, line=line_of(lt))
            if kind == "" and name in _TOPIC_TAGS:
                topic = _Topic(name, line_of(lt), _number_attribute(attrs, path, line_of(lt)))
            elif kind == "" and name in _FIELD_TAGS:
                raise InputError(f"<{name}> outside any topic (<top> … </top>)", path=path, line=line_of(lt))
            continue  # a root element (<topics>, <webtrack2009>) or its end
        in_field = field_tag if current else ""
        close_field(lt)
        if kind == "/":
            if inline is not None and name in (inline[1], inline[3]):
                markup()
            if name in _TOPIC_TAGS:
                if name != topic.tag:
                    raise InputError(
                        f"</{name}> closes the <{topic.tag}> opened at line {topic.line}", path=path, line=line_of(lt)
                    )
                rows.append(_topic_row(topic, path))
                topic = None
                inline = None
            continue
        if name in _TOPIC_TAGS:
            raise InputError(
                f"<{name}> begins before the topic opened at line {topic.line} is closed (</{topic.tag}>)",
                path=path,
                line=line_of(lt),
            )
        if name in _FIELD_TAGS:
            inline = None
        elif in_field:
            inline = (match.group(), name, lt, in_field)
        current, start, field_tag = _FIELD_TAGS.get(name, ""), pos, name
        if attrs.rstrip().endswith("/"):  # <tag/>: empty
            close_field(pos)
    if topic is not None:
        raise InputError(
            f"the topic opened at line {topic.line} is never closed (</{topic.tag}> is missing)",
            path=path,
            line=topic.line,
        )
    return rows


def _number_attribute(attrs: str, path: str | Path, line: int) -> str | None:
    """The topic's number from its ``number``, ``num`` or ``id`` attribute; two different ones are refused."""
    values = [next(g for g in m.groups() if g is not None) for m in _NUMBER_ATTR.finditer(attrs)]
    if len(set(values)) > 1:
        given = " and ".join(show(m.group()) for m in _NUMBER_ATTR.finditer(attrs))
        raise InputError(f"the topic gives its number twice ({given}): give one number", path=path, line=line)
    return values[0] if values else None


def _topic_row(topic: _Topic, path: str | Path) -> Row:
    xml = topic.tag == "topic"  # the XML-ish form escapes & and < as entities

    def value(name: str) -> str:
        raw = topic.fields.get(name, ("", 0))[0]
        if xml:
            raw = html.unescape(raw)
        prefix = _PREFIX.get(name)
        if prefix is not None:
            match = prefix.match(raw)
            if match:
                raw = raw[match.end() :]
        if name in ("num", "title"):
            return " ".join(raw.split())
        return "\n\n".join(p for p in (_unwrap(part) for part in _PARAGRAPHS.split(raw)) if p)

    number, num_line = value("num"), topic.fields.get("num", ("", topic.line))[1]
    if topic.number is not None:
        attribute = " ".join(html.unescape(topic.number).split())
        if number and number != attribute:
            raise InputError(
                f"the topic's number attribute {show(attribute)} and its <num> {show(number)} differ",
                path=path,
                line=num_line,
            )
        number, num_line = attribute, topic.line
    if not number and "num" not in topic.fields:
        raise InputError(
            f'the topic opened at line {topic.line} has no number (<num> Number: … or number="…")',
            path=path,
            line=topic.line,
        )
    query_id = check_id(number, "query ID", path, num_line)
    title, description, narrative = (
        _limited(value(name), name, path, topic.fields.get(name, ("", topic.line))[1]) for name in FIELDS
    )
    if not title and not description:
        raise InputError(f"topic {brief(query_id)} has neither a title nor a description", path=path, line=topic.line)
    return query_id, title, description, narrative, num_line


def _unwrap(paragraph: str) -> str:
    r"""A paragraph's wrapped lines joined, except that each item of a list keeps a line of its own.

    >>> _unwrap("Relevant:\n - a bank\n   that fails\n - a fine")
    'Relevant:\n- a bank that fails\n- a fine'
    """
    lines: list[str] = []
    for line in paragraph.split("\n"):
        words = " ".join(line.split())
        if not words:
            continue
        if lines and not _BULLET.match(words + " "):
            lines[-1] += " " + words
        else:
            lines.append(words)
    return "\n".join(lines)
