"""Issue 24 item 8: text fields have limits, stated in docs/guarantees.md, checked on every form.

A topic's title, description and narrative hold at most :data:`MAX_TOPIC_FIELD_CHARS` characters,
a document's title :data:`MAX_TOPIC_FIELD_CHARS` and its text :data:`MAX_DOCUMENT_CHARS`. One
character more is refused with the file, the line, the field and the limit; exactly the limit is
read. A 50 MB narrative is refused within a memory limit (it once took 1 GB).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ndcg_desktop
from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.common import MAX_DOCUMENT_CHARS, MAX_TOPIC_FIELD_CHARS
from ndcg_desktop.formats.texts import iter_documents
from ndcg_desktop.formats.topics import read_queries


def _topic(form: str, field: str, value: str) -> tuple[str, str, int]:
    """(file name, content, line of the field) of one topic whose ``field`` is ``value``."""
    fields = {"title": "t", "description": "d", "narrative": "n", field: value}
    if form == "classic":
        text = f"<top>\n<num> 1\n<title>\n{fields['title']}\n<desc>\n{fields['description']}\n"
        text += f"<narr>\n{fields['narrative']}\n</top>\n"
        return "t.txt", text, {"title": 3, "description": 5, "narrative": 7}[field]
    if form == "xml":
        text = f'<topic number="1">\n<query>{fields["title"]}</query>\n<description>{fields["description"]}'
        text += f"</description>\n<narrative>{fields['narrative']}</narrative>\n</topic>\n"
        return "t.xml", text, {"title": 2, "description": 3, "narrative": 4}[field]
    if form == "jsonl":
        return "q.jsonl", json.dumps({"query_id": "1", **fields}) + "\n", 1
    sep = "," if form == "csv" else "\t"
    header = sep.join(["query_id", "title", "description", "narrative"])
    return f"q.{form}", f"{header}\n" + sep.join(["1", *fields.values()]) + "\n", 2


TOPIC_MESSAGE = (
    f"the {{field}} is longer than {MAX_TOPIC_FIELD_CHARS:,} characters (the limit for a query's title, description "
    "and narrative)"
)
FORMS = ("classic", "xml", "tsv", "csv", "jsonl")
FIELDS = ("title", "description", "narrative")


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("form", FORMS)
def test_a_topic_field_over_the_limit_is_refused_and_at_the_limit_read(write, form, field):
    name, text, line = _topic(form, field, "x" * MAX_TOPIC_FIELD_CHARS)
    assert read_queries(write(name, text))[field].tolist() == ["x" * MAX_TOPIC_FIELD_CHARS]
    name, text, line = _topic(form, field, "x" * (MAX_TOPIC_FIELD_CHARS + 1))
    path = write(name, text)
    with pytest.raises(InputError) as info:
        read_queries(path)
    assert str(info.value) == f"{path}:{line}: {TOPIC_MESSAGE.format(field=field)}"


def test_a_long_field_wrapped_over_many_lines_counts_its_text_not_its_line_ends(write):
    words = " ".join(["word"] * (MAX_TOPIC_FIELD_CHARS // 5))  # under the limit as text, over it with its indents
    wrapped = textwrap.fill(words, 60, initial_indent="    ", subsequent_indent="    ")
    assert len(wrapped) > MAX_TOPIC_FIELD_CHARS > len(words)
    frame = read_queries(write("t.txt", f"<top>\n<num> 1\n<title> t\n<narr>\n{wrapped}\n</top>\n"))
    assert frame["narrative"].tolist() == [words]


def _documents(form: str, title: str, text: str) -> tuple[str, str]:
    if form == "jsonl":
        return "d.jsonl", json.dumps({"doc_id": "d0", "title": "a", "text": "b"}) + "\n" + json.dumps(
            {"doc_id": "d1", "title": title, "text": text}
        ) + "\n"
    sep = "," if form == "csv" else "\t"
    return f"d.{form}", f"doc_id{sep}title{sep}text\nd0{sep}a{sep}b\nd1{sep}{title}{sep}{text}\n"


@pytest.mark.parametrize(("field", "limit"), [("title", MAX_TOPIC_FIELD_CHARS), ("text", MAX_DOCUMENT_CHARS)])
@pytest.mark.parametrize("form", ["jsonl", "csv", "tsv"])
def test_a_document_field_over_the_limit_is_refused_and_at_the_limit_read(write, form, field, limit):
    def read(size: int) -> list[tuple[str, str, str]]:
        values = {"title": "t", "text": "x", field: "y" * size}
        name, content = _documents(form, values["title"], values["text"])
        return [doc for batch, _, _ in iter_documents(write(name, content)) for doc in batch]

    assert read(limit)[1] == ("d1", *(("y" * limit, "x") if field == "title" else ("t", "y" * limit)))
    with pytest.raises(InputError) as info:
        read(limit + 1)
    line = 2 if form == "jsonl" else 3
    assert str(info.value).endswith(
        f"d.{form}:{line}: the {field} of document d1 is longer than {limit:,} characters (the limit for a "
        f"document's {field})"
    )


SOURCE = os.pathsep.join([str(Path(ndcg_desktop.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])  # this tree
LIMIT_MIB = 1100  # as tests/formats/test_memory.py: the interpreter with pandas and pyarrow takes about 730 MiB
CHILD = textwrap.dedent(
    """
    import contextlib, io, json, resource, sys
    limit = int(sys.argv[1]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from ndcg_desktop.cli.main import main
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(json.loads(sys.argv[2]))
    # VmHWM: this program's own peak (ru_maxrss keeps the forking parent's peak across exec on Linux)
    own = open("/proc/self/status").read()
    peak = int(own.split("VmHWM:")[1].split()[0]) >> 10
    print(json.dumps({"status": status, "stderr": err.getvalue(), "peak_mib": peak}))
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
@pytest.mark.parametrize("form", ["classic", "xml"])
def test_a_50_mb_narrative_is_refused_within_a_memory_limit(tmp_path, form):
    line = "A relevant document names the organisation and the activity it takes part in.\n"
    narrative = line * ((50 << 20) // len(line))
    name, text, where = _topic(form, "narrative", narrative)
    path = tmp_path / name
    path.write_text(text)
    project = tmp_path / "p.ndcgproj"
    assert main(["init", str(project)]) == 0
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(LIMIT_MIB), json.dumps(["import-queries", str(project), str(path)])],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MALLOC_ARENA_MAX": "2", "PYTHONPATH": SOURCE},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    outcome = json.loads(result.stdout)
    message = TOPIC_MESSAGE.format(field="narrative")
    assert (outcome["status"], outcome["stderr"]) == (2, f"error: {path}:{where}: {message}\n")
    print(f"peak RSS importing a 50 MB narrative ({form}): {outcome['peak_mib']} MiB")
