"""The state of *Pool ▸ Judge with a model…* without Qt (sessions.judge): inputs, what they invalidate, the
connection test, the prompt of a real item, the estimate and the job, all through ``tasks.assessing``."""

from __future__ import annotations

import re
import socket

import pytest

from ndcg_desktop.domain import GradeScale
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.judge import (
    CONNECTION,
    ESTIMATE,
    PREVIEW,
    JudgeInputs,
    JudgeSession,
)
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.assessing import Item, load_template, preview_prompt
from ndcg_desktop.tasks.freezing import freeze_draft


@pytest.fixture
def project(tmp_path, write):
    """A draft with texts: q1 (A graded 2 from a file, B ungraded), q2 (C ungraded)."""
    p = Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 3), annotator="ann")
    p.texts.import_topics(write("q.tsv", "q1\tsolar panels on roofs\nq2\tbread without yeast\n"))
    p.texts.import_documents(
        write(
            "d.jsonl",
            '{"doc_id": "A", "title": "Rooftop solar", "text": "Panels on a roof make power."}\n'
            '{"doc_id": "B", "title": "Wind", "text": "Turbines turn in the wind."}\n'
            '{"doc_id": "C", "title": "Soda bread", "text": "Baking soda raises the dough."}\n',
        )
    )
    p.judgments.import_qrels(
        write("j.qrels", "q1 0 A 2\nq1 0 B -1\nq2 0 C -1\n"), negative_as_ungraded=True, annotator="ann"
    )
    yield p
    p.close()


def test_inputs_become_the_assessors_settings_and_selection():
    session = JudgeSession()
    session.set(
        endpoint=" http://127.0.0.1:8080/v1/ ",
        model="smollm2",
        api_key_env="MY_KEY",
        items="rated",
        queries="q1, q2 q1",
        sample=20,
        seed=7,
        concurrency=4,
        timeout=12.5,
    )
    settings = session.settings()
    assert (settings.endpoint, settings.model) == ("http://127.0.0.1:8080/v1", "smollm2")
    assert settings.api_key_env == "MY_KEY"
    assert (settings.concurrency, settings.timeout, settings.seed, settings.annotator) == (4, 12.5, 7, "model:smollm2")
    selection = session.selection()
    assert (selection.items, selection.queries, selection.sample, selection.seed) == ("rated", ("q1", "q2"), 20, 7)
    session.set(sample=0, api_key_env="")
    assert session.selection().sample is None and session.settings().api_key_env is None


def test_what_each_finding_depends_on_drops_it_and_a_late_result_is_refused(project):
    session = JudgeSession()
    session.set_project(project)
    session.set(model="smollm2")
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    preview = session.preview_job()
    assert session.apply(preview, preview())
    assert session.preview is not None
    connection = session.connection_job()
    assert session.apply(connection, "reachable")  # whatever it found, kept for these inputs
    # the concurrency shapes only the estimate: the connection and the preview stay
    session.set(concurrency=2)
    assert (session.connection, session.preview is not None, session.estimate) == ("reachable", True, None)
    # the scope shapes the preview (the item shown) and the estimate, not the connection
    late_preview = session.preview_job()
    session.set(items="all")
    assert session.preview is None and session.connection == "reachable"
    assert not session.apply(late_preview, ("stale", "stale"))  # computed for the old scope: dropped
    # the endpoint, the model, the key's variable and the timeout shape the connection test
    for change in ({"endpoint": "http://127.0.0.1:9/v1"}, {"model": "other"}, {"api_key_env": "K"}, {"timeout": 5.0}):
        assert session.apply(session.connection_job(), "reachable")
        session.set(**change)
        assert session.connection is None, change
    assert seen and all(isinstance(aspects, frozenset) for aspects in seen)
    assert {CONNECTION, PREVIEW, ESTIMATE} >= {a for aspects in seen for a in aspects if a in (CONNECTION, PREVIEW)}


def test_the_preview_is_the_prompt_of_the_first_item_in_scope_with_its_texts(project):
    session = JudgeSession()
    session.set_project(project)
    session.set(model="smollm2", items="ungraded")
    item, prompt = session.preview_job()()
    assert item == Item("q1", "B")  # A is rated by a person: not in the ungraded scope
    expected = preview_prompt(project, session.settings(), load_template(), Item("q1", "B"))[1]
    assert prompt == expected
    assert "solar panels on roofs" in prompt and "Turbines turn in the wind." in prompt
    session.set(items="rated")
    assert session.preview_job()()[0] == Item("q1", "A")
    session.set(items="ungraded", queries="q2")
    assert session.preview_job()()[0] == Item("q2", "C")


def test_a_template_file_is_previewed_and_a_bad_one_is_the_problem_naming_it(project, write):
    session = JudgeSession()
    session.set_project(project)
    session.set(model="smollm2", template=str(write("t.txt", "Topic ${title}. Document: ${document}. Grade?")))
    assert session.problem() is None
    preview = session.preview_job()()[1]
    token = re.search(r"<<BEGIN (\S+)>>", preview).group(1)  # each text fenced (issue 33): one token per prompt
    fence = lambda text: f"<<BEGIN {token}>>{text}<<END {token}>>"  # noqa: E731
    assert preview == f"Topic {fence('solar panels on roofs')}. Document: {fence('Turbines turn in the wind.')}. Grade?"
    bad = write("bad.txt", "Topic ${title} only")
    session.set(template=str(bad))
    kind, words = session.problem()
    assert kind == "input" and str(bad) in words and "${document}" in words


def test_why_nothing_can_be_judged_is_said_in_kinds_the_window_words(project, tmp_path, write):
    session = JudgeSession()
    assert session.problem()[0] == "no_project"
    session.set_project(project)
    assert session.problem()[0] == "no_model"
    session.set(model="smollm2")
    assert session.problem() is None
    session.set(endpoint="ftp://example.org")
    kind, words = session.problem()
    assert kind == "input" and "'ftp://example.org' is not an http:// or https:// URL" in words
    session.set(endpoint="http://127.0.0.1:8080/v1", api_key_env="not a name")
    kind, words = session.problem()
    assert kind == "input" and "variable is given by its name (letters, digits and _), not the key itself" in words
    assert "not a name" not in words  # it may be the key itself
    session.set(api_key_env="")
    freeze_draft(project, remove_ungraded=True, annotator="ann")
    assert session.problem()[0] == "no_draft"


def test_a_named_key_variable_that_is_not_set_is_said(monkeypatch):
    session = JudgeSession()
    session.set(api_key_env="NDCG_TEST_KEY")
    monkeypatch.delenv("NDCG_TEST_KEY", raising=False)
    assert session.key_missing() == "NDCG_TEST_KEY"
    monkeypatch.setenv("NDCG_TEST_KEY", "secret")
    assert session.key_missing() is None


def test_remembered_inputs_round_trip_and_never_hold_a_key(monkeypatch):
    monkeypatch.setenv("NDCG_TEST_KEY", "sk-very-secret")
    inputs = JudgeInputs(
        endpoint="http://h:1/v1", model="m", api_key_env="NDCG_TEST_KEY", template="/t.txt", items="all", sample=3
    )
    saved = inputs.remembered()
    assert JudgeInputs.from_remembered(saved) == inputs
    assert "sk-very-secret" not in repr(saved)
    # a preferences file edited by hand: wrong types and unknown scopes fall back to the defaults, one by one
    edited = saved | {"items": "everything", "concurrency": "4", "timeout": True, "seed": 3}
    restored = JudgeInputs.from_remembered(edited)
    assert (restored.items, restored.concurrency, restored.timeout, restored.seed) == ("ungraded", 1, 60.0, 3)
    assert JudgeInputs.from_remembered(None) == JudgeInputs() == JudgeInputs.from_remembered(["x"])  # type: ignore[arg-type]


@pytest.mark.parametrize("pasted", ["sk-proj-a1B2c3d4e5f6", "Bearer sk-x", " sk_live 123 ", "MY-KEY"])
def test_a_key_pasted_for_the_variable_is_never_kept_shown_or_remembered(pasted):
    """Issue 33 item 2: the rule ndcg judge --api-key-env refuses by (tasks.assessing.model.kept_key_name)."""
    session = JudgeSession()
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    session.set(api_key_env="OPENAI_API_KEY")
    session.set(api_key_env=pasted)
    assert session.key_refused and seen and session.inputs.api_key_env == ""
    assert pasted.strip() not in repr(session.inputs) and pasted.strip() not in repr(session.inputs.remembered())
    assert session.key_missing() is None and session.settings().api_key_env is None
    session.set(api_key_env="NDCG_KEY")
    assert not session.key_refused and session.inputs.api_key_env == "NDCG_KEY"
    # a key in preferences saved before (or edited in): neither kept nor shown again
    assert JudgeInputs.from_remembered({"api_key_env": pasted}).api_key_env == ""
    assert JudgeInputs(api_key_env=pasted).remembered()["api_key_env"] == ""


def test_the_project_events_drop_the_preview_and_estimate_and_a_new_project_everything(project, tmp_path):
    slot = ProjectSlot()
    session = JudgeSession()
    session.follow(slot)
    slot.open(project, annotator="ann")
    session.set(model="smollm2")
    assert session.apply(session.preview_job(), ("x", "y"))
    assert session.apply(session.connection_job(), "reachable")
    project.judgments.set_grade("q1", "B", 1, annotator="ann")  # a person grades: what is in scope changes
    slot.check()
    assert session.preview is None and session.connection == "reachable"
    other = Project.create(tmp_path / "other.ndcgproj", annotator="ann")
    slot.open(other, annotator="ann")  # closes the first
    assert session.project is other and session.connection is None
    slot.close()
    assert session.project is None


def test_a_connection_test_against_a_closed_port_names_the_endpoint(project):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    session = JudgeSession()
    session.set_project(project)
    session.set(endpoint=f"http://127.0.0.1:{port}/v1", model="smollm2", timeout=5.0)
    report = session.connection_job()()
    assert not report.ok and report.message.startswith(f"http://127.0.0.1:{port}/v1")


def test_before_a_model_is_named_the_connection_can_be_tested_and_the_prompt_previewed(project):
    """Issue 36: Test connection stayed disabled and the preview blank until a model name was typed."""
    session = JudgeSession()
    assert not session.can_test_connection() and not session.can_preview()  # no project
    session.set_project(project)
    assert session.problem()[0] == "no_model"
    assert session.can_test_connection() and session.can_preview()
    item, prompt = session.preview_job()()
    assert prompt and item.query_id
    session.set(endpoint="ftp://example.org")
    assert not session.can_test_connection() and not session.can_preview()  # nothing to reach
    session.set(endpoint="http://127.0.0.1:9/v1")  # port 9 (discard): nothing listens; said, never raised
    report = session.connection_job()()
    assert not report.ok and report.message.startswith("http://127.0.0.1:9/v1: ")
