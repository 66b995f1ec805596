"""Endpoints that go wrong, each a real process (issue 25): no traceback, one line naming the endpoint, exit 2, and
nothing recorded (the project's dump unchanged) when the endpoint fails before any answer."""

from __future__ import annotations

import time

import pytest

from tests.store.conftest import dump

from .servers import MODEL, ndcg


def judge(project, url, *options):
    return ndcg("judge", project, "--endpoint", url, "--model", MODEL, "--items", "rated", "--sample", "3", *options)


def refused_line(capsys) -> str:
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_server_that_accepts_and_never_answers_is_a_timeout_naming_the_endpoint(cranfield, silent, capsys):
    before = dump(cranfield)
    started = time.monotonic()
    assert judge(cranfield, silent.url, "--timeout", "1", "--retries", "0") == 2
    assert time.monotonic() - started < 10
    assert refused_line(capsys) == f"error: {silent.url}: no answer within 1 s"
    assert dump(cranfield) == before


def test_a_port_where_nothing_listens_is_named(cranfield, nobody, capsys):
    before = dump(cranfield)
    assert judge(cranfield, nobody.url) == 2
    assert refused_line(capsys) == f"error: {nobody.url}: connection refused (is the server running?)"
    assert dump(cranfield) == before


def test_a_web_server_that_is_not_openai_compatible_is_named(cranfield, plain_web, capsys):
    before = dump(cranfield)
    assert judge(cranfield, plain_web.url) == 2
    line = refused_line(capsys)
    assert line.startswith(f"error: {plain_web.url}: HTTP 404 File not found for /models: ")
    assert dump(cranfield) == before


def test_a_model_the_server_does_not_have_is_refused_before_anything_is_asked(cranfield, llama, capsys):
    before = dump(cranfield)
    assert ndcg("judge", cranfield, "--endpoint", llama.url, "--model", "gpt-4o", "--items", "rated") == 2
    assert refused_line(capsys) == f"error: {llama.url} has no model 'gpt-4o' (it lists: {MODEL})"
    assert dump(cranfield) == before


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/v1", "127.0.0.1:8080", "http://"])
def test_an_endpoint_that_is_not_an_http_url_is_refused(cranfield, url, capsys):
    before = dump(cranfield)
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", MODEL) == 2
    assert refused_line(capsys) == f"error: endpoint {url!r} is not an http:// or https:// URL"
    assert dump(cranfield) == before


@pytest.mark.parametrize(
    ("port", "problem"),
    [
        ("99999", "port 99999 is not between 1 and 65535"),
        ("0", "port 0 is not between 1 and 65535"),
        ("80a", "port '80a' is not a number"),
    ],
)
def test_an_endpoint_whose_port_cannot_be_reached_says_so_not_connection_refused(cranfield, port, problem, capsys):
    """A port out of range or not a number is the URL's fault: saying "connection refused (is the server running?)"
    sends the user to look for a server."""
    before = dump(cranfield)
    url = f"http://127.0.0.1:{port}/v1"
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", MODEL, "--dry-run") == 2
    assert refused_line(capsys) == f"error: endpoint {url!r}: {problem}"
    assert dump(cranfield) == before


@pytest.mark.parametrize("value", [None, "", "  "])
def test_an_api_key_variable_that_is_not_set_is_refused_before_any_request(
    cranfield, nobody, value, monkeypatch, capsys
):
    """--api-key-env names a variable that is unset or empty (a typo, a shell that did not export it): the job must
    not go ahead without a key (a local server would take it silently, a hosted one fail every item)."""
    if value is None:
        monkeypatch.delenv("NDCG_TEST_NO_KEY", raising=False)
    else:
        monkeypatch.setenv("NDCG_TEST_NO_KEY", value)
    before = dump(cranfield)
    # nothing listens at the endpoint: any request would end as "connection refused" instead
    for extra in ((), ("--dry-run",)):
        assert judge(cranfield, nobody.url, "--api-key-env", "NDCG_TEST_NO_KEY", *extra) == 2
        assert refused_line(capsys) == (
            f"error: {nobody.url}: the API key's environment variable NDCG_TEST_NO_KEY is "
            + ("not set" if value is None else "empty")
        )
    assert dump(cranfield) == before


def test_a_key_given_where_its_variables_name_belongs_is_refused_and_never_shown_or_kept(cranfield, nobody, capsys):
    """--api-key-env sk-... (the key pasted instead of the variable's name) would be recorded as a parameter and
    printed in the refusal: it is refused without either."""
    key = "sk-proj-" + "a1B2" * 8
    before = dump(cranfield)
    assert judge(cranfield, nobody.url, "--api-key-env", key) == 2
    line = refused_line(capsys)
    assert line == (
        f"error: {nobody.url}: the API key's environment variable is given by its name (letters, digits and _), "
        "not the key itself"
    )
    assert key not in line and dump(cranfield) == before
