"""*Pool ▸ Judge with a model…* (issue 25): the dialog renders sessions.judge, tests the connection off the GUI
thread, previews the prompt of a real item, estimates from the core's dry run, runs the job behind the window's
progress dialog (cancel keeps every answer; judging again continues), and remembers its inputs, never a key.

Every model call goes to the session's real llama.cpp server of tests/assessor/servers.py (few calls: a five-item
pool)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QDialog, QProgressDialog, QPushButton

from ndcg_desktop.gui.judge import JudgeDialog
from ndcg_desktop.gui.judge.actions import PREFERENCE, JudgeActions
from ndcg_desktop.gui.judge.dialog import estimate_text
from ndcg_desktop.sessions.judge import JudgeInputs
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.assessing import Item, load_template, preview_prompt
from ndcg_desktop.tasks.freezing import freeze_draft
from tests.assessor.servers import MODEL

from .conftest import shot
from .test_blind_to_models import annotate_shows


def dialog_of(window, qtbot, **inputs) -> JudgeDialog:
    window.judge.session.set(**inputs)
    dialog = JudgeDialog(window.judge.session, window)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def model_ratings(path, version: int = 1):
    with Project.open(path, read_only=True) as project:
        ratings = project.ratings.verified(version)
        return ratings[ratings["annotator"] == f"model:{MODEL}"].reset_index(drop=True)


def test_the_dialog_says_why_nothing_can_be_judged_and_previews_a_real_item(window, small_project, qtbot):
    assert window.open_project(small_project)
    dialog = dialog_of(window, qtbot, model="")
    assert dialog.problem.text() == "Name the model the server should use."
    assert not dialog.ok.isEnabled() and not dialog.estimate_button.isEnabled()
    dialog.model.setEditText(MODEL)
    assert dialog.problem.text() == "" and dialog.ok.isEnabled()
    qtbot.waitUntil(lambda: window.judge.session.preview is not None, timeout=10_000)
    # the first item in scope (ungraded: no person rated it) in the judging order of tasks.assessing
    expected = preview_prompt(window.project, window.judge.session.settings(), load_template(), Item("q1", "C"))[1]
    assert dialog.preview.toPlainText() == expected
    assert dialog.preview_heading.text() == "The prompt for document C of query q1"
    assert "freezing judgment pools" in expected and "Cooking pasta takes ten minutes." in expected
    dialog.scope.setCurrentIndex(dialog.scope.findData("rated"))  # items people rated: A comes first
    qtbot.waitUntil(lambda: window.judge.session.preview is not None, timeout=10_000)
    assert dialog.preview_heading.text() == "The prompt for document A of query q1"
    dialog.endpoint.setText("ftp://example.org")
    assert "'ftp://example.org' is not an http:// or https:// URL" in dialog.problem.text()
    assert not dialog.ok.isEnabled()


def test_without_a_model_name_the_test_lists_the_servers_models_and_the_prompt_shows(
    window,
    small_project,
    qtbot,
    llama,
):
    """Issue 36: the model list stayed empty and Test connection disabled until a model name was typed, so a new
    user could not find out what the server serves; the prompt preview was blank on first use."""
    assert window.open_project(small_project)
    dialog = dialog_of(window, qtbot, model="", endpoint=llama.url)
    assert dialog.problem.text() == "Name the model the server should use." and not dialog.ok.isEnabled()
    assert dialog.test_button.isEnabled()
    qtbot.waitUntil(lambda: window.judge.session.preview is not None, timeout=10_000)  # on first use, no model
    expected = preview_prompt(window.project, window.judge.session.settings(), load_template(), Item("q1", "C"))[1]
    assert dialog.preview.toPlainText() == expected
    dialog.test_button.click()
    qtbot.waitUntil(lambda: window.judge.session.connection is not None, timeout=30_000)
    report = window.judge.session.connection
    listed = [dialog.model.itemText(i) for i in range(dialog.model.count())]
    assert report.ok and MODEL in report.models and listed == list(report.models)  # GET /v1/models, as served
    assert dialog.connection_label.text() == (
        f"Connected: {llama.url} serves {len(report.models)} models; choose one in the list."
    )
    assert dialog.model.currentText() == ""  # offered, never chosen for the user
    shot(dialog, "judge_dialog_models_listed")
    dialog.model.setCurrentIndex(listed.index(MODEL))
    assert window.judge.session.inputs.model == MODEL and dialog.ok.isEnabled()


def test_a_server_that_is_not_openai_compatible_is_said_naming_it_and_nothing_is_recorded(
    window,
    small_project,
    qtbot,
    messages,
    plain_web,
):
    assert window.open_project(small_project)
    dialog = dialog_of(window, qtbot, model=MODEL, endpoint=plain_web.url)
    dialog.test_button.click()
    assert dialog.connection_label.text() == f"Testing {plain_web.url}…"  # at once: the test runs off the GUI thread
    qtbot.waitUntil(lambda: window.judge.session.connection is not None, timeout=20_000)
    report = window.judge.session.connection
    assert not report.ok and report.message.startswith(plain_web.url)
    assert dialog.connection_label.text() == f"Not usable: {report.message}"
    dialog.estimate_button.click()  # the dry run is refused before anything is asked, in one line naming it
    qtbot.waitUntil(dialog.estimate_button.isEnabled, timeout=20_000)
    assert window.judge.session.estimate is None
    assert dialog.estimate_label.text().startswith(plain_web.url) and "\n" not in dialog.estimate_label.text()
    qtbot.waitUntil(lambda: window.judge.session.preview is not None, timeout=10_000)  # the prompt needs no server
    shot(dialog, "T6_judge_dialog_refused")
    dialog.accept()
    window.judge.judge()  # and so is the job: one message naming the endpoint, nothing recorded
    qtbot.waitUntil(lambda: len(messages) == 1, timeout=20_000)
    assert messages[0][1].startswith(plain_web.url) and "Traceback" not in messages[0][1]
    with Project.open(small_project, read_only=True) as project:
        assert project.assessor.runs(1).empty and project.assessor.attempts(1).empty


def test_connection_estimate_and_a_job_against_the_real_server(window, small_project, qtbot, messages, llama):
    assert window.open_project(small_project)
    blind = annotate_shows(window)
    dialog = dialog_of(window, qtbot, model=MODEL, endpoint=llama.url, items="ungraded")
    shot(dialog, "T6_judge_dialog_idle")
    dialog.test_button.click()
    qtbot.waitUntil(lambda: window.judge.session.connection is not None, timeout=30_000)
    assert window.judge.session.connection.ok
    assert dialog.connection_label.text() == f"Connected: {llama.url} serves the model {MODEL}."
    assert MODEL in [dialog.model.itemText(i) for i in range(dialog.model.count())]
    shot(dialog, "T6_judge_dialog_connected")
    dialog.estimate_button.click()
    assert not dialog.estimate_button.isEnabled()
    qtbot.waitUntil(dialog.estimate_button.isEnabled, timeout=120_000)  # the dry run ended
    found = window.judge.session.estimate
    assert (found.items, found.already_judged, len(found.sample)) == (3, 0, 3)  # C, D (q1) and E (q2)
    assert dialog.estimate_label.text() == estimate_text(found)
    shot(dialog, "T6_judge_dialog_estimate")
    assert model_ratings(small_project).empty  # a dry run records nothing
    dialog.accept()

    window.judge.judge()  # what Judge does once the dialog is accepted
    qtbot.waitUntil(lambda: len(messages) == 1, timeout=120_000)
    ratings = model_ratings(small_project)
    with Project.open(small_project, read_only=True) as project:
        attempts = project.assessor.attempts(1)
    graded = attempts[attempts["grade"].notna()]
    assert sorted(zip(ratings["query_id"], ratings["doc_id"], strict=True)) == sorted(
        zip(graded["query_id"], graded["doc_id"], strict=True)
    )
    assert len(attempts) == 3  # each item asked once
    kind, text = messages[0]
    assert text.startswith(f"model:{MODEL} judged 3 items of draft v1: {len(graded)} graded, {3 - len(graded)} without")
    assert annotate_shows(window) == blind  # nobody grading sees what the model said

    window.judge.judge()  # the same model and template again: nothing is asked twice
    qtbot.waitUntil(lambda: len(messages) == 2, timeout=60_000)
    if len(graded) == 3:
        assert (
            messages[1][1] == f"Nothing to judge: the 3 items in scope are already judged by model:{MODEL} with "
            "this template."
        )
    with Project.open(small_project, read_only=True) as project:
        again = project.assessor.attempts(1)
    assert len(again) == len(attempts) + (3 - len(graded))  # only the items without a grade are asked again


def test_cancel_keeps_every_answer_and_judging_again_continues(window, small_project, qtbot, messages, llama):
    assert window.open_project(small_project)
    window.judge.session.set(model=MODEL, endpoint=llama.url, items="all", concurrency=1)
    seen: list[QProgressDialog] = []

    def cancel_as_soon_as_it_shows() -> bool:
        for progress in window.findChildren(QProgressDialog):
            if progress.isVisible():
                seen.append(progress)
                shot(progress, "T6_judge_progress")  # during the job
                progress.findChild(QPushButton).click()  # its Cancel button
                return True
        return False

    window.judge.judge()
    qtbot.waitUntil(cancel_as_soon_as_it_shows, timeout=60_000)
    qtbot.waitUntil(lambda: len(messages) == 1, timeout=60_000)
    assert "Cancelled: judge again with the same model and template to go on." in messages[0][1]
    with Project.open(small_project, read_only=True) as project:
        first = project.assessor.attempts(1)
    assert 1 <= len(first) < 5
    window.judge.judge()
    qtbot.waitUntil(lambda: len(messages) == 2, timeout=120_000)
    with Project.open(small_project, read_only=True) as project:
        both = project.assessor.attempts(1)
    asked = list(zip(both["query_id"], both["doc_id"], strict=True))
    kept = first[first["grade"].notna()]
    graded_first = set(zip(kept["query_id"], kept["doc_id"], strict=True))
    assert not graded_first & set(asked[len(first) :])  # nothing graded in the first run is asked again
    assert {d for _q, d in asked} == {"A", "B", "C", "D", "E"}


def test_a_key_pasted_into_the_variable_field_is_cleared_said_and_never_saved(
    window, small_project, qtbot, monkeypatch, tmp_path
):
    """Issue 33 item 2: the field takes the name of a variable; a key pasted there is not kept, not shown again and
    not written to the preferences, and the dialog says why (the session's rule, as ndcg judge's)."""
    key = "sk-proj-Zx81pasted0key7"
    assert window.open_project(small_project)
    shown: list[str] = []

    def paste(dialog: JudgeDialog) -> int:
        dialog.key_env.setText(key)
        shown.append(dialog.key_env.text())
        shown.append(dialog.key_label.text() if dialog.key_label.isVisibleTo(dialog) else "")
        dialog.grab().save("/tmp/trust_key_pasted.png")
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(JudgeDialog, "exec", paste)
    window.judge.open_dialog()
    assert shown[0] == "" and "looked like the key itself" in shown[1] and key not in shown[1]
    saved = (tmp_path / "config" / "preferences.json").read_text(encoding="utf-8")
    assert key not in saved and json.loads(saved)["extra"][PREFERENCE]["api_key_env"] == ""


def test_the_dialog_remembers_its_inputs_and_never_a_key(window, small_project, qtbot, monkeypatch, tmp_path, messages):
    monkeypatch.setenv("NDCG_TEST_KEY", "sk-never-written")
    assert window.open_project(small_project)

    def fill(dialog: JudgeDialog) -> int:
        dialog.endpoint.setText("http://127.0.0.1:9/v1")
        dialog.model.setEditText("some-model")
        dialog.key_env.setText("NDCG_TEST_KEY")
        dialog.scope.setCurrentIndex(dialog.scope.findData("rated"))
        dialog.queries.setText("q1")
        dialog.sample.setValue(2)
        dialog.seed.setValue(9)
        dialog.concurrency.setValue(3)
        dialog.timeout.setValue(20)
        return QDialog.DialogCode.Rejected  # closed without judging: the inputs are remembered all the same

    monkeypatch.setattr(JudgeDialog, "exec", fill)
    window.judge.open_dialog()
    expected = JudgeInputs(
        endpoint="http://127.0.0.1:9/v1",
        model="some-model",
        api_key_env="NDCG_TEST_KEY",
        items="rated",
        queries="q1",
        sample=2,
        seed=9,
        concurrency=3,
        timeout=20.0,
    )
    saved = (tmp_path / "config" / "preferences.json").read_text(encoding="utf-8")
    assert json.loads(saved)["extra"][PREFERENCE] == expected.remembered()
    assert "sk-never-written" not in saved and "sk-never-written" not in small_project.read_bytes().decode("latin-1")
    # the next window's dialog starts from them
    from ndcg_desktop.gui.main_window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    assert isinstance(again.judge, JudgeActions) and again.judge.session.inputs == expected
    dialog = JudgeDialog(again.judge.session, again)
    qtbot.addWidget(dialog)
    assert (dialog.endpoint.text(), dialog.model.currentText(), dialog.key_env.text()) == (
        "http://127.0.0.1:9/v1",
        "some-model",
        "NDCG_TEST_KEY",
    )
    assert (dialog.scope.currentData(), dialog.sample.value(), dialog.concurrency.value()) == ("rated", 2, 3)


@pytest.mark.parametrize("writable", [True, False])
def test_the_menu_entry_needs_a_writable_draft(window, small_project, writable):
    if not writable:
        with Project.open(small_project) as project:
            freeze_draft(project, remove_ungraded=True, annotator="tester")
    assert window.open_project(small_project)
    assert window.judge.action.isEnabled() is writable


def test_calibrating_from_the_window_on_real_cranfield_items_shows_the_model_beside_the_person(
    window,
    cranfield,
    qtbot,
    messages,
    llama,
):
    """The issue's loop from the window: judge items a person (Cranfield's assessors, ``nist``) rated, then the
    Agreement tab compares the model with them, item by item and in the leniency table."""
    window.resize(1280, 800)
    assert window.open_project(cranfield)
    window.judge.session.set(model=MODEL, endpoint=llama.url, items="rated", sample=6, seed=1)
    window.judge.judge()
    qtbot.waitUntil(lambda: len(messages) == 1, timeout=300_000)
    ratings = window.project.ratings.verified(window.project.pools.draft().version)
    model = ratings[ratings["annotator"] == f"model:{MODEL}"]
    assert 1 <= len(model) <= 6 and set(ratings["annotator"]) == {"nist", f"model:{MODEL}"}
    assert messages[0][1].startswith(f"model:{MODEL} judged 6 items of draft v1: {len(model)} graded")
    agreement = window.agreement
    window.tabs.setCurrentWidget(agreement)
    agreement.compute()
    qtbot.waitUntil(lambda: agreement.result is not None, timeout=60_000)
    leniency = agreement.leniency
    assert [leniency.index(r, 0).data() for r in range(leniency.rowCount())] == ["model:" + MODEL, "nist"]
    shown = {leniency.index(r, 0).data(): leniency.index(r, 1).data() for r in range(leniency.rowCount())}
    assert shown["model:" + MODEL] == str(len(model))
    pairs = agreement.pairs  # all queries first: the model and the person on the items both rated
    assert (pairs.index(0, 0).data(), pairs.index(0, 1).data(), pairs.index(0, 2).data()) == (
        "model:" + MODEL,
        "nist",
        str(len(model)),
    )
    # the people's headline, the model on its own line (contract rule 18, issue 36 item 12)
    assert f"model:{MODEL} is a language model, an annotator and not the truth: its alpha with the people is " in (
        agreement.summary.text()
    )
    shot(window, "T6_agreement_cranfield_model")
