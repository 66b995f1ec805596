"""Endpoints that go wrong, each a real process (issue 25): no traceback, one line naming the endpoint, exit 2, and
nothing recorded (the project's dump unchanged) when the endpoint fails before any answer."""

from __future__ import annotations

import time

import pytest

from tests.store.conftest import dump

from .conftest import MODEL, ndcg


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
    assert refused_line(capsys) == f"error: {silent.url}: no answer in time"
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
