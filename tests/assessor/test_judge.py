"""`ndcg judge` against a real model server (issue 25): every answer kept with its latency and tokens, a grade only
from an answer that parses, the run's model, host, parameters and template recorded, nothing judged twice, and a
job that survives its server being killed or the user pressing Ctrl+C."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from ndcg_desktop.tasks.assessing import Selection, load_template, select_items
from ndcg_desktop.tasks.project import Project
from tests.helpers import sql_rows as rows
from tests.helpers import write_lock
from tests.store.conftest import dump

from .servers import MODEL, ndcg, start_llama

ANNOTATOR = f"model:{MODEL}"
REPO = Path(__file__).resolve().parents[2]


def attempts(path: Path) -> list[tuple]:
    """(query_id, doc_id, grade, failure, raw) of every answer kept, in order."""
    return rows(path, "SELECT query_id, doc_id, grade, failure, raw FROM assessor_attempts ORDER BY id")


def model_ratings(path: Path) -> dict[tuple[str, str], int]:
    found = rows(path, "SELECT query_id, doc_id, grade FROM ratings WHERE annotator = ?", ANNOTATOR)
    return {(q, d): g for q, d, g in found}


def judge(project: Path, url: str, *options: str) -> int:
    """``ndcg judge`` on the items people rated (with ``options``), through the command line's main()."""
    return ndcg("judge", project, "--endpoint", url, "--model", MODEL, "--items", "rated", *options)


def read_grade(raw: str, grades=range(5)) -> int | None:
    """The test's own strict reading of an answer: exactly {"grade": N}, N an integer on the scale."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if isinstance(value, dict) and list(value) == ["grade"] and type(value["grade"]) is int:
        return value["grade"] if value["grade"] in grades else None
    return None


def test_judging_rated_items_keeps_every_answer_and_records_the_run(cranfield, llama, capsys):
    assert judge(cranfield, llama.url, "--sample", "4", "--seed", "3") == 0
    out = capsys.readouterr().out
    kept = attempts(cranfield)
    with Project.open(cranfield, read_only=True) as p:
        expected = select_items(p, Selection(items="rated", sample=4, seed=3))
    assert [(q, d) for q, d, *_ in kept] == list(expected.itertuples(index=False, name=None))
    for _, _, grade, failure, raw in kept:  # a grade exactly when the answer parses, and it is the answer's
        assert grade == read_grade(raw) and (failure is None) == (grade is not None)
    assert model_ratings(cranfield) == {(q, d): g for q, d, g, _, _ in kept if g is not None}
    graded = sum(grade is not None for _, _, grade, _, _ in kept)
    assert f"{ANNOTATOR} on draft version 1 (127.0.0.1:{llama.port}, " in out
    assert f"{graded} graded, {len(kept) - graded} failed, 0 of 4 in scope judged before; run 1" in out
    (run,) = rows(
        cranfield,
        "SELECT annotator, model, endpoint_host, parameters, template_sha256, template_source FROM assessor_runs",
    )
    built_in = resources.files("ndcg_desktop.tasks.assessing").joinpath("template.txt").read_bytes()
    assert run[:3] == (ANNOTATOR, MODEL, f"127.0.0.1:{llama.port}")
    assert run[4:] == (hashlib.sha256(built_in).hexdigest(), "built-in")
    parameters = json.loads(run[3])
    assert parameters["temperature"] == 0.0 and parameters["seed"] == 3 and parameters["schema"] is True
    # llama-cpp-python refuses OpenAI's json_schema form and takes a schema inside json_object
    assert parameters["response_format"] == "json_object"
    latency, tokens = rows(
        cranfield, "SELECT min(latency), min(prompt_tokens + completion_tokens) FROM assessor_attempts"
    )[0]
    assert latency > 0 and tokens > 0


def test_a_second_run_with_the_same_model_and_template_judges_nothing_twice(cranfield, llama, tmp_path, capsys):
    job = (cranfield, llama.url, "--sample", "2")
    assert judge(*job) == 0
    first = attempts(cranfield)
    graded = [a for a in first if a[2] is not None]
    capsys.readouterr()
    assert judge(*job) == 0
    again = attempts(cranfield)
    asked = again[len(first) :]  # only the items that failed the first time are asked again
    assert {(q, d) for q, d, *_ in asked} == {(q, d) for q, d, g, *_ in first if g is None}
    assert f"{len(graded)} of 2 in scope judged before" in capsys.readouterr().out
    edited = tmp_path / "mine.txt"
    edited.write_text(load_template().text.replace("You judge", "You are asked to judge"))
    assert judge(*job, "--template", str(edited)) == 0  # another template: a new run asks every item again
    runs = rows(cranfield, "SELECT template_sha256, template_source FROM assessor_runs ORDER BY run_id")
    assert runs[-1] == (hashlib.sha256(edited.read_bytes()).hexdigest(), str(edited))


def test_a_dry_run_makes_real_calls_estimates_and_records_nothing(cranfield, llama, capsys):
    before = dump(cranfield)
    assert judge(cranfield, llama.url, "--dry-run", "--concurrency", "2") == 0
    out = capsys.readouterr().out.splitlines()
    with Project.open(cranfield, read_only=True) as p:
        in_scope = len(select_items(p, Selection(items="rated")))
    assert out[0] == f"{in_scope} items to judge (0 in scope already judged by {ANNOTATOR} with this template)"
    assert len([line for line in out if line.startswith("  ")]) == 3  # three real calls
    assert out[-2].startswith("estimate: ") and "at concurrency 2" in out[-2] and "tokens" in out[-2]
    assert out[-1] == "dry run: nothing was recorded"
    assert dump(cranfield) == before


def test_answers_that_do_not_parse_are_failed_attempts_never_grades(cranfield, llama):
    """Without the answer schema the small model writes prose: kept as failed attempts with their text."""
    assert judge(cranfield, llama.url, "--sample", "3", "--no-schema", "--max-tokens", "12") == 0
    kept = attempts(cranfield)
    assert len(kept) == 3
    failed = [a for a in kept if a[2] is None]
    assert failed, "the model answered every item in the schema's form without being asked to"
    for _, _, grade, failure, raw in kept:
        assert grade == read_grade(raw) and (failure is None) == (grade is not None)
    for _, _, _, failure, raw in failed:
        assert raw and failure.startswith(("the answer is not a JSON object", "the answer's grade"))
    assert model_ratings(cranfield) == {(q, d): g for q, d, g, _, _ in kept if g is not None}
    (parameters,) = rows(cranfield, "SELECT parameters FROM assessor_runs")[0]
    assert json.loads(parameters)["response_format"] == "none"


def test_concurrency_above_the_servers_slots_records_each_item_once(cranfield, llama):
    """llama-cpp-python answers one request at a time: four at once wait their turn, none is lost or doubled."""
    assert judge(cranfield, llama.url, "--sample", "4", "--concurrency", "4") == 0
    kept = attempts(cranfield)
    assert len(kept) == 4 and len({(q, d) for q, d, *_ in kept}) == 4
    assert all(failure is None for *_, failure, _ in kept)


def _judge_process(project: Path, url: str, *options: str) -> subprocess.Popen[str]:
    env = os.environ | {"PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ndcg_desktop",
            "judge",
            str(project),
            "--endpoint",
            url,
            "--model",
            MODEL,
            "--items",
            "rated",
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for_answers(project: Path, at_least: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if rows(project, "SELECT count(*) FROM assessor_attempts")[0][0] >= at_least:
            return
        time.sleep(0.1)
    pytest.fail(f"no {at_least} answers kept; the job ended with {process.returncode}")


def test_the_server_killed_mid_job_then_a_second_run_continues_where_it_stopped(cranfield, own_llama, tmp_path):
    job = _judge_process(cranfield, own_llama.url, "--sample", "6", "--retries", "0")
    _wait_for_answers(cranfield, 2, job)
    own_llama.stop()  # SIGKILL: the server dies in the middle of the job
    out, err = job.communicate(timeout=120)
    assert job.returncode == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"error: {own_llama.url} stopped answering: connection refused")
    assert err.strip().endswith("what was judged is kept, run the same command again to continue")
    first = attempts(cranfield)
    judged = {(q, d) for q, d, g, *_ in first if g is not None}
    assert judged and len(judged) < 6
    restarted = start_llama(tmp_path, own_llama.port)
    try:
        again = _judge_process(cranfield, restarted.url, "--sample", "6")
        out, err = again.communicate(timeout=300)
    finally:
        restarted.stop()
    assert again.returncode == 0, err
    assert f"{len(judged)} of 6 in scope judged before" in out
    kept = attempts(cranfield)
    graded = [(q, d) for q, d, g, *_ in kept if g is not None]
    assert len(graded) == len(set(graded)) == 6  # every item graded once, none twice
    assert set(model_ratings(cranfield)) == set(graded)


def test_ctrl_c_keeps_every_answer_received_and_the_next_run_continues(cranfield, llama):
    job = _judge_process(cranfield, llama.url, "--sample", "5")
    _wait_for_answers(cranfield, 2, job)
    job.send_signal(signal.SIGINT)
    out, err = job.communicate(timeout=120)
    assert job.returncode == 130 and "Traceback" not in err
    assert "interrupted: every answer received is kept; run the same command again to continue" in out
    kept = attempts(cranfield)
    assert 2 <= len(kept) < 5
    graded, failed = (sum(g is not None for _, _, g, *_ in kept), sum(g is None for _, _, g, *_ in kept))
    assert f"{graded} graded, {failed} failed" in out  # what it says it kept is what the file holds
    assert judge(cranfield, llama.url, "--sample", "5") == 0
    graded_items = [(q, d) for q, d, g, *_ in attempts(cranfield) if g is not None]
    assert len(graded_items) == len(set(graded_items)) == 5


def test_the_api_key_is_read_from_the_named_variable_and_never_stored(cranfield, tmp_path, monkeypatch, capsys):
    secret = "sk-test-" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:20]
    server = start_llama(tmp_path, None, "--api_key", secret)
    try:
        job = (cranfield, server.url, "--sample", "1", "--api-key-env", "NDCG_TEST_KEY")
        monkeypatch.delenv("NDCG_TEST_KEY", raising=False)
        assert judge(*job) == 2
        assert capsys.readouterr().err == (
            f"error: {server.url}: the API key's environment variable NDCG_TEST_KEY is not set\n"
        )
        monkeypatch.setenv("NDCG_TEST_KEY", "sk-wrong")
        assert judge(*job) == 2
        assert capsys.readouterr().err.startswith(f"error: {server.url}: HTTP 401 ")
        monkeypatch.setenv("NDCG_TEST_KEY", secret)
        assert judge(*job) == 0
    finally:
        server.stop()
    assert len(attempts(cranfield)) == 1
    everything = "\n".join(dump(cranfield))
    assert secret not in everything and "NDCG_TEST_KEY" in everything  # the variable's name is a parameter


def test_another_program_holding_the_project_mid_job_loses_nothing_and_is_said_honestly(cranfield, llama):
    """A sync tool or an sqlite3 shell takes the project's write lock while a job runs. A lock that goes away is
    waited out (the answers received meanwhile are written after it); one held to the end is one line saying how
    many answers were kept, never "nothing was written" over a file that holds some."""
    job = _judge_process(cranfield, llama.url, "--sample", "4", "--concurrency", "2")
    _wait_for_answers(cranfield, 1, job)
    with write_lock(cranfield):
        time.sleep(8)  # answers arrive meanwhile (perhaps all of them): shorter than a job's last write waits
    out, err = job.communicate(timeout=300)
    assert job.returncode == 0, err
    graded = [(q, d) for q, d, g, *_ in attempts(cranfield) if g is not None]
    assert len(graded) == len(set(graded)) == 4 == len(attempts(cranfield))  # all four kept, none twice

    job = _judge_process(cranfield, llama.url, "--sample", "8", "--concurrency", "2")  # holds the 4 above
    _wait_for_answers(cranfield, 5, job)
    with write_lock(cranfield):
        out, err = job.communicate(timeout=300)
    kept = len(attempts(cranfield)) - 4
    lines = err.strip().splitlines()
    assert job.returncode == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"error: {cranfield}: another program is writing to the project file")
    said = re.search(
        r"; (\d+) answers? of this job (?:are|is) kept, (\d+) could not be written: run the same "
        r"command again to continue$",
        lines[0],
    )
    assert said is not None and "nothing was written" not in lines[0], lines[0]
    assert int(said[1]) == kept >= 1 and int(said[2]) >= 1 and kept + int(said[2]) <= 4
    assert judge(cranfield, llama.url, "--sample", "8") == 0
    graded = [(q, d) for q, d, g, *_ in attempts(cranfield) if g is not None]
    assert len(graded) == len(set(graded)) == 8
