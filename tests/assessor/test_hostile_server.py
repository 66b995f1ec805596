"""The model server is untrusted (issue 33 items 1, 3, 4, 7): small real HTTP servers on loopback addresses that
redirect, echo the key, trickle or flood their answers, refuse us, or give a key twice; ``ndcg judge`` against
each, through the command line's main() or as a process of its own.

Each class is checked by what leaves the machine (what the second host received), what the project keeps (a dump
of every table) and what is printed; never by the code's own account of itself."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from ndcg_desktop.tasks.assessing.client import MAX_BODY, MAX_RAW
from tests.store.conftest import dump

from .hostile import Hostile, after, completion, grade_answer, huge, raw_answer, redirect_to, send, trickle
from .servers import MODEL, ndcg
from .test_judge import REPO, attempts, rows

KEY = "sk-proj-" + "Zq9XwV3t" * 6  # a key as hosted APIs hand them out
KEY_VAR = "NDCG_TEST_HOSTILE_KEY"


def judge(project, url, *options):
    return ndcg("judge", project, "--endpoint", url, "--model", MODEL, "--items", "rated", "--retries", "0", *options)


def said(capsys) -> tuple[str, str]:
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return out, err


@pytest.fixture
def keyed(monkeypatch):
    monkeypatch.setenv(KEY_VAR, KEY)
    return ("--api-key-env", KEY_VAR)


def no_secret_anywhere(project, *texts: str, secrets=(KEY,)) -> None:
    """Neither the secret nor any 8 characters of it in a row, in the project (every table) or in ``texts``."""
    everything = "\n".join(dump(project)) + "\n".join(texts)
    for secret in secrets:
        pieces = {secret[i : i + 8] for i in range(len(secret) - 7)}
        leaked = sorted(p for p in pieces if p in everything)
        assert not leaked, f"{len(leaked)} pieces of a secret leaked, e.g. {leaked[0]!r}"


# -- 1. a redirect is never followed ----------------------------------------------------------------------------
@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_of_the_chat_request_is_not_followed_and_the_key_stays(cranfield, keyed, code, capsys):
    """The first host answers the chat request with a redirect to a second host: nothing reaches the second host
    (urllib's default handler re-sent the Authorization header there, and recorded its canned grades)."""
    before = dump(cranfield)
    with Hostile("127.0.0.2", chat=grade_answer(3)) as second:
        target = f"http://127.0.0.2:{second.port}/v1/chat/completions"
        with Hostile(chat=redirect_to(code, target)) as first:
            assert judge(cranfield, first.url, "--sample", "3", *keyed) == 2
            assert len(first.chats()) == 1  # one failed attempt, not tried again
        assert second.seen == []
    out, err = said(capsys)
    assert err.strip().splitlines() == [
        f"error: {first.url}: HTTP {code} {_reason(code)} for /chat/completions: a redirect to "
        f"http://127.0.0.2:{second.port}/v1/chat/completions, not followed (a request is sent only to the endpoint "
        "named, with its key; give the URL it redirects to as the endpoint if you trust it)"
    ]
    assert dump(cranfield) == before


def _reason(code: int) -> str:
    from http import HTTPStatus

    return HTTPStatus(code).phrase


@pytest.mark.parametrize("code", [301, 302, 307])
def test_a_redirect_of_the_model_list_is_not_followed(cranfield, keyed, code, capsys):
    before = dump(cranfield)
    with Hostile("127.0.0.2") as second:
        location = f"http://user:pw@127.0.0.2:{second.port}/v1/models?token=abc"
        with Hostile(models=redirect_to(code, location)) as first:
            assert judge(cranfield, first.url, "--sample", "2", *keyed) == 2
        assert second.seen == []
    _, err = said(capsys)
    assert err == (
        f"error: {first.url}: HTTP {code} {_reason(code)} for /models: a redirect to http://127.0.0.2:{second.port}"
        "/v1/models, not followed (a request is sent only to the endpoint named, with its key; give the URL it "
        "redirects to as the endpoint if you trust it)\n"
    )
    assert "pw" not in err and "token" not in err and dump(cranfield) == before


def test_redirects_in_the_middle_of_a_job_are_failed_attempts_and_stop_it(cranfield, keyed, capsys):
    """Once the job runs, each redirect is one failed attempt saying why; three in a row stop the job (the endpoint
    is not serving), keeping the first answer; the second host never hears of it."""
    with Hostile("127.0.0.2", chat=grade_answer(3)) as second:
        target = f"http://127.0.0.2:{second.port}/v1/chat/completions"
        with Hostile(chat=after(1, redirect_to(302, target))) as first:
            assert judge(cranfield, first.url, "--sample", "6", *keyed) == 2
        assert second.seen == []
    kept = attempts(cranfield)
    assert [g for _, _, g, _, _ in kept] == [1, None, None, None]
    for _, _, _, failure, _ in kept[1:]:
        assert failure.startswith(f"HTTP 302 Found for /chat/completions: a redirect to {target}, not followed")
    _, err = said(capsys)
    assert err.startswith(f"error: {first.url} stopped answering: HTTP 302 Found")


# -- 3. the key is redacted from everything; 401 and 403 stop the job ----------------------------------------
def _echo(status: int, form: str):
    """A refusal whose message echoes the key back in ``form``."""

    def reply(handler, seen, number):
        header = seen.headers.get("authorization", "")
        echoed = {
            "bearer": header,
            "json": json.dumps(KEY)[1:-1].replace("/", "\\/"),
            "half": KEY[:20] + "…",
            "tail": "…" + KEY[-12:],
        }[form]
        body = json.dumps({"error": {"message": f"Incorrect API key provided: {echoed}", "code": "invalid_api_key"}})
        send(handler, status, body.encode())

    return reply


@pytest.mark.parametrize(("status", "form"), [(401, "bearer"), (403, "json"), (401, "half"), (401, "tail")])
def test_a_key_echoed_in_a_refusal_is_never_kept_or_printed_and_the_job_stops_at_once(
    cranfield, keyed, status, form, capsys
):
    """The key is accepted for two answers, then the server refuses it, echoing it: the job stops at that answer
    (not after three), keeps the two grades and the refusal, and the key is in none of it."""
    with Hostile(chat=after(2, _echo(status, form))) as server:
        assert judge(cranfield, server.url, "--sample", "8", "--concurrency", "1", *keyed) == 2
        asked = len(server.chats())
    kept = attempts(cranfield)
    assert asked == 3 and [g for _, _, g, _, _ in kept] == [1, 1, None]
    failure, raw = kept[2][3], kept[2][4]
    assert failure.startswith(f"HTTP {status} ") and "[redacted]" in failure and "[redacted]" in raw
    out, err = said(capsys)
    assert err.startswith(f"error: {server.url} refuses our requests: HTTP {status} ")
    no_secret_anywhere(cranfield, out, err)


def test_a_key_echoed_when_the_first_request_is_refused_is_neither_printed_nor_kept(cranfield, keyed, capsys):
    before = dump(cranfield)
    with Hostile(chat=_echo(401, "bearer")) as server:
        assert judge(cranfield, server.url, "--sample", "3", *keyed) == 2
    out, err = said(capsys)
    assert err == (
        f'error: {server.url}: HTTP 401 Unauthorized: {{"error": {{"message": "Incorrect API key provided: '
        'Bearer [redacted]", "code": "invalid_api_key"}}\n'
    )
    no_secret_anywhere(cranfield, out, err)
    assert dump(cranfield) == before


def test_a_key_echoed_inside_an_answer_is_redacted_from_the_raw_answer_kept(cranfield, keyed, capsys):
    """An answer that parses nowhere near a grade but quotes the key (a model told to repeat its headers)."""
    with Hostile(chat=lambda h, seen, n: send(h, 200, completion(f"my key is {seen.headers['authorization']}"))) as s:
        assert judge(cranfield, s.url, "--sample", "2", *keyed) == 0
    kept = attempts(cranfield)
    assert [raw for *_, raw in kept] == ["my key is Bearer [redacted]"] * 2
    no_secret_anywhere(cranfield, *said(capsys))


def test_credentials_in_the_endpoint_are_sent_as_basic_auth_and_never_shown_or_kept(cranfield, capsys):
    """``http://user:password@host/v1``: the password goes to that host only, as HTTP basic authentication, and
    neither it nor its base64 form is in any message, the run's record or an answer the server echoes it in."""
    password = "pa55-" + "Wq8Yz" * 5
    basic = base64.b64encode(f"ana:{password}".encode()).decode()

    def echo_header(handler, seen, number):
        body = json.dumps({"error": {"message": f"bad credentials {seen.headers.get('authorization')} {password}"}})
        send(handler, 403, body.encode())

    with Hostile(chat=after(1, echo_header)) as server:
        url = f"http://ana:{password}@127.0.0.1:{server.port}/v1"
        assert judge(cranfield, url, "--sample", "4") == 2
        assert server.seen[0].headers["authorization"] == f"Basic {basic}"
    out, err = said(capsys)
    assert err.startswith(f"error: http://127.0.0.1:{server.port}/v1 refuses our requests: HTTP 403 Forbidden")
    assert f"127.0.0.1:{server.port}" in out
    no_secret_anywhere(cranfield, out, err, secrets=(password, basic))
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", "missing", "--dry-run") == 2
    out, err = said(capsys)
    assert err == f"error: http://127.0.0.1:{server.port}/v1: connection refused (is the server running?)\n"
    no_secret_anywhere(cranfield, out, err, secrets=(password, basic))


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/v1?api_key=sk-abcdefgh12345678", "http://127.0.0.1:9/v1#sk-abcdefgh12345678"]
)
def test_an_endpoint_with_a_query_or_fragment_is_refused_without_showing_it(cranfield, url, capsys):
    before = dump(cranfield)
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", MODEL) == 2
    out, err = said(capsys)
    assert err == (
        "error: endpoint 'http://127.0.0.1:9/v1' has a query or a fragment: give the server's base URL, and the API "
        "key's environment variable in --api-key-env\n"
    )
    assert dump(cranfield) == before


# -- 4. one deadline per answer; bounded bodies ------------------------------------------------------------------
@pytest.mark.parametrize("where", ["body", "headers"])
def test_an_answer_trickled_a_byte_at_a_time_ends_at_its_deadline(cranfield, where, capsys):
    """One byte every 0.3 s keeps every read under a 2 s timeout: a timeout per read waited 36 s and more for each
    item; one deadline per answer ends each within 2 s, a failed attempt saying so."""
    with Hostile(chat=after(1, trickle(where, every=0.3, most=120))) as server:
        started = time.monotonic()
        assert judge(cranfield, server.url, "--sample", "2", "--timeout", "2") == 0
        took = time.monotonic() - started
    kept = attempts(cranfield)
    assert [(g, f) for _, _, g, f, _ in kept] == [(1, None), (None, "no answer within 2 s")]
    assert took < 2 + 6, took  # one deadline, plus the time to start and record
    said(capsys)


def test_a_body_larger_than_the_limit_is_not_read_whole_and_only_its_head_is_kept(cranfield, capsys):
    size = 6 * MAX_BODY
    with Hostile(chat=huge(size)) as server:
        assert judge(cranfield, server.url, "--sample", "3") == 0
    kept = attempts(cranfield)
    assert len(kept) == 3
    for _, _, grade, failure, raw in kept:
        assert grade is None and failure == f"the answer is larger than {MAX_BODY:,} bytes: not read further"
        assert raw.endswith(f"… [more than {MAX_BODY:,} bytes in all; only the first {MAX_RAW:,} characters kept]")
        assert raw.index("…") == MAX_RAW
    (stored,) = rows(cranfield, "SELECT max(length(raw)) FROM assessor_attempts")[0]
    assert stored < MAX_RAW + 100
    said(capsys)


@pytest.mark.parametrize("status", [200, 500])
def test_a_long_answer_is_kept_to_its_first_characters_with_its_length(cranfield, status, capsys):
    """Under the read limit but far over what a grade needs: the project keeps the first 4,096 characters and the
    length it had (4 MiB were kept per answer, and every run asks the failed items again)."""
    content = "no grade here " * 20_000
    body = completion(content) if status == 200 else json.dumps({"error": content}).encode()
    with Hostile(chat=raw_answer(body, status)) as server:
        assert judge(cranfield, server.url, "--sample", "2") == 0
    whole = content if status == 200 else body.decode()
    for *_, raw in attempts(cranfield):
        assert raw == f"{whole[:MAX_RAW]}… [{len(whole):,} characters in all; only the first {MAX_RAW:,} are kept]"
    said(capsys)


# -- 7. a key given twice in an answer -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "failure"),
    [
        (completion('{"grade": 0, "grade": 3}'), "the answer gives the key 'grade' twice"),
        (completion('{"grade": 2, "grade": 2}'), "the answer gives the key 'grade' twice"),
        (
            b'{"choices": [{"message": {"role": "assistant", "content": "{\\"grade\\": 0}", '
            b'"content": "{\\"grade\\": 3}"}}]}',
            "not an OpenAI chat-completions answer (the key 'content' is given twice)",
        ),
        (
            b'{"choices": [{"message": {"content": "{\\"grade\\": 0}"}}], '
            b'"choices": [{"message": {"content": "{\\"grade\\": 3}"}}]}',
            "not an OpenAI chat-completions answer (the key 'choices' is given twice)",
        ),
    ],
)
def test_an_answer_giving_a_key_twice_is_a_failed_attempt_never_a_grade(cranfield, body, failure, capsys):
    with Hostile(chat=raw_answer(body)) as server:
        assert judge(cranfield, server.url, "--sample", "2") == 0
    assert [(g, f) for _, _, g, f, _ in attempts(cranfield)] == [(None, failure)] * 2
    assert rows(cranfield, "SELECT count(*) FROM ratings WHERE annotator = ?", f"model:{MODEL}") == [(0,)]
    said(capsys)


# -- 4. Ctrl+C during a stuck request ----------------------------------------------------------------------------
def test_ctrl_c_twice_during_a_stuck_request_ends_at_once_keeping_the_answers(cranfield):
    """Two answers come, then a request is stuck (a body trickled for a minute, under a 60 s timeout): the first
    Ctrl+C asks to stop after it, the second ends it at once; the two answers are kept (exit 130)."""
    with Hostile(chat=after(2, trickle("body", every=0.5, most=120))) as server:
        command = [sys.executable, "-m", "ndcg_desktop", "judge", str(cranfield), "--endpoint", server.url]
        command += ["--model", MODEL, "--items", "rated", "--sample", "5", "--timeout", "60", "--retries", "0"]
        job = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ | {"PYTHONPATH": str(REPO)},
        )
        try:
            deadline = time.monotonic() + 60
            while len(server.chats()) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert len(server.chats()) == 3, "the third request never came"
            time.sleep(0.5)
            job.send_signal(signal.SIGINT)
            time.sleep(0.5)
            started = time.monotonic()
            job.send_signal(signal.SIGINT)
            out, err = job.communicate(timeout=30)
            took = time.monotonic() - started
        finally:
            if job.poll() is None:
                job.kill()  # this test's own child, by its handle
                job.wait()
    assert job.returncode == 130 and "Traceback" not in err, err
    assert took < 5, took
    assert [g for _, _, g, _, _ in attempts(cranfield)] == [1, 1]
    assert "2 graded, 0 failed" in out
