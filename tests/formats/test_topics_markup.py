"""Issue 24 item 15 (topics): a TREC topic file never loses text or a number silently.

Markup inside a field (``<desc><b>x</b></desc>``) once made an empty description, and a topic whose
number was given twice (``number="1" number="2"``) took the first. Both are refused, naming the file
and the line, for every field tag of both forms (classic ``<top>`` and XML-ish ``<topic>``).
"""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.topics import read_queries

# (opening tag of the topic, its closing tag, the field tags of that form)
FORMS = {
    "classic": ("<top>\n<num> 1\n", "</top>\n", ("title", "desc", "narr")),
    "xml": ('<topic number="1">\n', "</topic>\n", ("query", "title", "description", "question", "narrative")),
}
MARKUP = {
    "bold": ("<b>x</b>", "<b>"),
    "italic around text": ("a <i>b</i> c", "<i>"),
    "a break": ("a<br/>b", "<br/>"),
    "an unclosed break": ("a<br>b", "<br>"),
    "a span with attributes": ('<span class="k">x</span> y', '<span class="k">'),
}
CASES = [(form, tag, markup) for form, (_, _, tags) in FORMS.items() for tag in tags for markup in MARKUP]


@pytest.mark.parametrize(("form", "tag", "markup"), CASES)
def test_markup_inside_a_field_is_refused_with_file_and_line(write, form, tag, markup):
    opening, closing, _ = FORMS[form]
    inner, shown = MARKUP[markup]
    other = "<desc> d\n" if form == "classic" and tag != "desc" else ""
    if form == "xml" and tag not in ("description", "question"):
        other = "<description>d</description>\n"
    text = f"{opening}{other}<title> t\n" if tag not in ("title", "query") and form == "classic" else opening + other
    text += f"<{tag}>\n{inner}\n</{tag}>\n{closing}"
    path = write("t.xml" if form == "xml" else "t.txt", text)
    with pytest.raises(InputError) as info:
        read_queries(path)
    line = text.splitlines().index(inner) + 1
    assert str(info.value).startswith(f"{path}:{line}: markup {shown} inside <{tag}>"), str(info.value)


def test_classic_sections_after_a_field_are_still_skipped(write):
    """TREC-1/2 topics: <con>, <fac>, <def> follow the narrative unclosed; they end it, as before."""
    text = "<top>\n<num> 1\n<title> t\n<narr> n\n<con> Concept(s): a, b\n<def> Definition(s): c\n</top>\n"
    frame = read_queries(write("t.txt", text))
    assert frame.to_dict("records") == [{"query_id": "1", "title": "t", "description": "", "narrative": "n", "line": 2}]


def test_escaped_markup_in_an_xml_topic_is_text(write):
    frame = read_queries(write("t.xml", '<topic number="1"><query>a &lt;b&gt; c</query></topic>\n'))
    assert frame["title"].tolist() == ["a <b> c"]


@pytest.mark.parametrize(
    "attributes",
    ['number="1" number="2"', "number='1' number=\"2\"", 'number="1" id="2"', 'num="1" number="2"', "id=1 number=2"],
)
def test_a_number_given_twice_is_refused_with_file_and_line(write, attributes):
    path = write("t.xml", f"<topics>\n<topic {attributes}>\n<query>a</query>\n</topic>\n</topics>\n")
    with pytest.raises(InputError) as info:
        read_queries(path)
    assert str(info.value).startswith(f"{path}:2: the topic gives its number twice"), str(info.value)


def test_the_same_number_given_twice_is_one_number(write):
    frame = read_queries(write("t.xml", '<topic number="7" id="7"><query>a</query></topic>\n'))
    assert frame["query_id"].tolist() == ["7"]
