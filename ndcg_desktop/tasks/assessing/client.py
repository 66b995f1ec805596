"""Talking to an OpenAI-compatible chat-completions server with the standard library (urllib), one request a call.

Every way a request can go wrong ends as an :class:`Answer` with a failure text, never as an exception: the job
records it as a failed attempt. ``endpoint_down`` marks failures that say nothing about the item but about the
endpoint (refused connection, not an OpenAI server, unknown model): a job stops on a run of those.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.tasks.assessing.model import AssessorSettings

# How structured output is asked for: OpenAI's form (vLLM, Ollama, LM Studio, hosted APIs), or llama-cpp-python's
# (a JSON schema inside a json_object format), used when a server refuses the first.
FORMATS = ("json_schema", "json_object")
_BODY_SHOWN = 300  # characters of a response body kept in a failure's text
_BODY_SAID = 80  # characters of it in a refusal said to the user (the whole page says little more)


@dataclass(frozen=True)
class Answer:
    """One request's outcome: the message content (or the body / error text), its tokens, and its failure if any."""

    content: str
    failure: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency: float = 0.0
    endpoint_down: bool = False  # the failure is the endpoint's, not the item's
    refused_format: bool = False  # the server refused the response_format asked for


def grade_schema(grades: tuple[int, ...]) -> JsonObject:
    """The JSON schema of an answer: an object with one integer ``grade`` among the scale's grades, nothing else."""
    return {
        "type": "object",
        "properties": {"grade": {"type": "integer", "enum": list(grades)}},
        "required": ["grade"],
        "additionalProperties": False,
    }


def response_format(kind: str, grades: tuple[int, ...]) -> JsonObject:
    """The ``response_format`` field for ``kind`` (one of :data:`FORMATS`)."""
    schema = grade_schema(grades)
    if kind == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "grade", "strict": True, "schema": schema}}
    return {"type": "json_object", "schema": schema}


def parse_grade(content: str, grades: tuple[int, ...]) -> int:
    """The grade in an answer, read strictly: exactly a JSON object ``{"grade": N}`` with N one of ``grades``.

    Anything else (prose around it, a string or a float grade, another key, a grade off the scale) is refused
    with a ValueError saying why.

    >>> parse_grade(' {"grade": 2}\\n', (0, 1, 2, 3))
    2
    >>> parse_grade('The answer is {"grade": 2}', (0, 1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: the answer is not a JSON object {"grade": N}
    """
    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        raise ValueError('the answer is not a JSON object {"grade": N}') from None
    if not isinstance(value, dict) or set(value) != {"grade"}:
        raise ValueError('the answer is not a JSON object {"grade": N}')
    grade = value["grade"]
    if type(grade) is not int:  # bool, float and str are refused: 2.0 or "2" is not what was asked for
        raise ValueError(f"the answer's grade {grade!r} is not a whole number")
    if grade not in grades:
        raise ValueError(f"the answer's grade {grade} is not on the scale {grades[0]}..{grades[-1]}")
    return grade


class Client:
    """Requests to one endpoint with one settings object; thread-safe (each call opens its own connection)."""

    def __init__(self, settings: AssessorSettings) -> None:
        self.settings = settings
        self.base = settings.endpoint.rstrip("/")

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        name = self.settings.api_key_env
        if name:
            key = os.environ.get(name, "")
            if key:  # read at each request, never kept
                headers["Authorization"] = f"Bearer {key}"
        return headers

    def models(self) -> tuple[list[str] | None, str | None]:
        """The model IDs the server lists at ``/models``, or None and why it could not be read."""
        request = urllib.request.Request(self.base + "/models", headers=self._headers(), method="GET")
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout) as response:
                body = response.read(1 << 20)
        except urllib.error.HTTPError as exc:
            return None, f"HTTP {exc.code} {exc.reason} for /models{_snippet(_read(exc))}"
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
            return None, _network_error(exc)
        try:
            data = json.loads(body)
            return [str(entry["id"]) for entry in data["data"]], None
        except (ValueError, KeyError, TypeError, RecursionError):
            return None, f"its /models is not an OpenAI model list{_snippet(body, _BODY_SAID)}"

    def chat(self, messages: list[dict[str, str]], grades: tuple[int, ...], fmt: str | None) -> Answer:
        """One chat-completions request (with retries for transient failures); ``fmt`` None asks for free text."""
        s = self.settings
        payload: dict[str, Any] = {
            "model": s.model,
            "messages": messages,
            "temperature": s.temperature,
            "seed": s.seed,
            "max_tokens": s.max_tokens,
        }
        if fmt is not None:
            payload["response_format"] = response_format(fmt, grades)
        body = json.dumps(payload).encode("utf-8")
        start = time.monotonic()
        answer = Answer("", "no request made")
        for attempt in range(s.retries + 1):
            answer, transient = self._post(body)
            if not transient or attempt == s.retries:
                break
            time.sleep(s.backoff * 2**attempt)
        return _timed(answer, time.monotonic() - start)

    def _post(self, body: bytes) -> tuple[Answer, bool]:
        """One POST: the answer, and whether trying again might help."""
        request = urllib.request.Request(self.base + "/chat/completions", data=body, headers=self._headers())
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout) as response:
                raw = response.read(1 << 22)
        except urllib.error.HTTPError as exc:
            text = _read(exc)
            failure = f"HTTP {exc.code} {exc.reason}{_snippet(text)}"
            if exc.code in (404, 405, 501):
                return Answer(text, failure, endpoint_down=True), False
            refused = exc.code in (400, 422, 500) and ("response_format" in text or "json_schema" in text)
            return Answer(text, failure, refused_format=refused), exc.code == 429 or exc.code >= 500 and not refused
        except TimeoutError:
            return Answer("", f"no answer within {self.settings.timeout:g} s"), True
        except http.client.HTTPException as exc:  # the connection broke mid-answer (the server died)
            return Answer("", f"the answer broke off ({type(exc).__name__})", endpoint_down=True), True
        except (urllib.error.URLError, OSError, ValueError) as exc:
            if isinstance(getattr(exc, "reason", None), TimeoutError):
                return Answer("", f"no answer within {self.settings.timeout:g} s"), True
            return Answer("", _network_error(exc), endpoint_down=True), True
        return _completion(raw), False


def _completion(raw: bytes) -> Answer:
    """A chat-completions response body read as one: its message content, refusal, and token counts."""
    text = raw.decode("utf-8", "replace")
    try:
        data = json.loads(text)
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
        refusal = message.get("refusal")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
        return Answer(text, f"not an OpenAI chat-completions answer{_snippet(text)}", endpoint_down=True)
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    prompt, completion = (_count(usage.get(k)) for k in ("prompt_tokens", "completion_tokens"))
    if refusal:
        return Answer(str(refusal), f"the model refused: {str(refusal)[:_BODY_SHOWN]}", prompt, completion)
    if not isinstance(content, str):
        return Answer(text, "the answer has no text", prompt, completion)
    return Answer(content, None, prompt, completion)


def _count(value: object) -> int | None:
    return value if type(value) is int else None


def _timed(answer: Answer, seconds: float) -> Answer:
    return Answer(
        answer.content,
        answer.failure,
        answer.prompt_tokens,
        answer.completion_tokens,
        seconds,
        answer.endpoint_down,
        answer.refused_format,
    )


def _read(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read(1 << 16).decode("utf-8", "replace")
    except OSError:
        return ""


def _snippet(body: bytes | str, limit: int = _BODY_SHOWN) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = " ".join(text.split())
    return f": {text[:limit]}{'…' if len(text) > limit else ''}" if text else ""


def _network_error(exc: BaseException) -> str:
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is the server running?)"
    if isinstance(reason, socket.gaierror):
        return f"unknown host ({reason.strerror})"
    if isinstance(reason, TimeoutError | socket.timeout):
        return "no answer in time"
    text = getattr(reason, "strerror", None) or str(reason)
    return f"cannot reach it ({text})"
