"""Talking to an OpenAI-compatible chat-completions server, which is untrusted (issue 33): one guarded HTTP exchange
per request, with the standard library's ``http.client``.

Every request goes through :meth:`Client._exchange`, the one path to the network, which

- **never follows a redirect**: any 3xx is one failed attempt saying so (a redirect would carry the API key, or
  the prompt, to a host nobody named);
- carries **one deadline per answer**: connecting, sending, the headers and the whole body together end within
  ``timeout`` seconds, enforced by shutting the socket when the deadline passes (a body trickled one byte a second
  ends there, not never), and :meth:`Client.abort` ends every request in flight at once;
- **reads at most** :data:`MAX_BODY` bytes of a body, and an answer keeps at most :data:`MAX_RAW` characters of it
  (:func:`kept_raw`, which records the full length);
- **redacts** the API key's value and the endpoint's credentials (``user:password@``) from every text it returns
  (:class:`Redactor`): what the server echoes back is never stored, printed or shown.

Every way a request can go wrong ends as an :class:`Answer` with a failure text, never as an exception: the job
records it as a failed attempt. ``endpoint_down`` marks failures that say nothing about the item but about the
endpoint (refused connection, not an OpenAI server, a redirect): a job stops on a run of those; ``refused`` (HTTP 401
or 403: the endpoint refuses us) stops it at once.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import ssl
import threading
import time
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.tasks.assessing.model import AssessorSettings, shown_url

# How structured output is asked for: OpenAI's form (vLLM, Ollama, LM Studio, hosted APIs), or llama-cpp-python's
# (a JSON schema inside a json_object format), used when a server refuses the first.
FORMATS = ("json_schema", "json_object")
MAX_BODY = 1 << 20  # bytes of a response body read at most: a grade's answer is a few hundred
MAX_RAW = 4096  # characters of an answer kept in the project (the full length is said after them)
_BODY_SHOWN = 300  # characters of a response body kept in a failure's text
_BODY_SAID = 80  # characters of it in a refusal said to the user (the whole page says little more)
_REDACTED = "[redacted]"
_SHORTEST_PIECE = 8  # a run of this many characters of a secret, anywhere in a text, is redacted


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
    refused: bool = False  # HTTP 401 or 403: the endpoint refuses our requests, a job stops at once
    aborted: bool = False  # ended by Client.abort() before an answer came: nothing was received
    whole: bool = True  # False: the body was longer than MAX_BODY, ``content`` holds its first MAX_BODY bytes


class Redactor:
    """Removes secrets from texts: each secret whole, in its JSON- and URL-escaped forms, and every run of
    :data:`_SHORTEST_PIECE` or more of its characters (a server that echoes half a key, or the key cut where a
    snippet ends, leaks no more than 7 of its characters).

    >>> Redactor(["sk-abcdefghijklmnop"]).redact('{"message": "Incorrect API key provided: Bearer sk-abcdefghij..."}')
    '{"message": "Incorrect API key provided: Bearer [redacted]..."}'
    """

    def __init__(self, secrets: list[str]) -> None:
        forms = {form for secret in secrets if secret for form in _forms(secret)}
        self._whole = sorted(forms, key=len, reverse=True)
        self._pieces = {
            form[i : i + _SHORTEST_PIECE]
            for form in forms
            if len(form) >= _SHORTEST_PIECE
            for i in range(len(form) - _SHORTEST_PIECE + 1)
        }

    def redact(self, text: str) -> str:
        if not self._whole:
            return text
        for form in self._whole:  # a short secret (under 8 characters) only whole
            text = text.replace(form, _REDACTED)
        if not self._pieces:
            return text
        n = _SHORTEST_PIECE
        hidden = [False] * len(text)
        for i in range(len(text) - n + 1):
            if text[i : i + n] in self._pieces:
                hidden[i : i + n] = [True] * n
        if not any(hidden):
            return text
        out: list[str] = []
        for i, char in enumerate(text):
            if not hidden[i]:
                out.append(char)
            elif i == 0 or not hidden[i - 1]:
                out.append(_REDACTED)
        return "".join(out)


def _forms(secret: str) -> set[str]:
    """A secret as a server may echo it: as sent, JSON-escaped, URL-quoted or -unquoted."""
    escaped = json.dumps(secret)[1:-1]
    return {secret, escaped, escaped.replace("/", "\\/"), quote(secret, safe=""), unquote(secret)}


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

    Anything else (prose around it, a string or a float grade, another key, the key given twice, a grade off the
    scale) is refused with a ValueError saying why.

    >>> parse_grade(' {"grade": 2}\\n', (0, 1, 2, 3))
    2
    >>> parse_grade('The answer is {"grade": 2}', (0, 1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: the answer is not a JSON object {"grade": N}
    >>> parse_grade('{"grade": 2, "grade": 3}', (0, 1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: the answer gives the key 'grade' twice
    """
    try:
        value = _strict_json(content)
    except _TwiceGiven as exc:
        raise ValueError(f"the answer gives the key {exc.args[0]!r} twice") from None
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


class _TwiceGiven(ValueError):
    """A JSON object names one key twice: which value counts is the parser's guess, so neither is taken."""


def _refuse_twice_given(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise _TwiceGiven(next(name for i, name in enumerate(names) if name in names[:i])[:60])
    return dict(pairs)


def _strict_json(text: str | bytes) -> Any:
    """``json.loads`` that refuses an object naming a key twice (:class:`_TwiceGiven`, a ValueError)."""
    return json.loads(text, object_pairs_hook=_refuse_twice_given)


def kept_raw(text: str, *, whole: bool = True) -> str:
    """An answer as the project keeps it: at most :data:`MAX_RAW` characters, followed by its full length when it
    is longer (``whole`` False: more than :data:`MAX_BODY` bytes were sent and reading stopped there).

    >>> kept_raw("x" * 5000)[-61:]
    'xxx… [5,000 characters in all; only the first 4,096 are kept]'
    """
    if not whole:
        return f"{text[:MAX_RAW]}… [more than {MAX_BODY:,} bytes in all; only the first {MAX_RAW:,} characters kept]"
    if len(text) <= MAX_RAW:
        return text
    return f"{text[:MAX_RAW]}… [{len(text):,} characters in all; only the first {MAX_RAW:,} are kept]"


@dataclass(frozen=True)
class _Reply:
    """A response as :meth:`Client._exchange` read it: status, reason, the body (redacted; at most MAX_BODY bytes
    of it) and the size it had (None when it was longer than that), and a redirect's target host."""

    status: int
    reason: str
    body: str
    size: int | None
    location: str


class _Failed(Exception):
    """A request that ended without a response: the failure's text, and what it says."""

    def __init__(self, text: str, *, transient: bool, endpoint_down: bool, aborted: bool = False) -> None:
        super().__init__(text)
        self.text, self.transient, self.endpoint_down, self.aborted = text, transient, endpoint_down, aborted


class Client:
    """Requests to one endpoint with one settings object; thread-safe (each call opens its own connection)."""

    def __init__(self, settings: AssessorSettings) -> None:
        self.settings = settings
        parts = urlsplit(settings.endpoint)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._path = parts.path.rstrip("/")
        self._user = (unquote(parts.username or ""), unquote(parts.password or ""))
        self._open: set[http.client.HTTPConnection] = set()
        self._lock = threading.Lock()
        self._aborted = threading.Event()
        self._no_retry = threading.Event()  # a cancelled job: a request ends at its deadline, never asked again

    # -- secrets ---------------------------------------------------------------------------------
    def _key(self) -> str:
        name = self.settings.api_key_env
        return os.environ.get(name, "") if name else ""  # read at each request, never kept

    def redactor(self) -> Redactor:
        """What hides this endpoint's secrets (the key as it is now, the URL's user and password) from a text."""
        user, password = self._user
        basic = base64.b64encode(f"{user}:{password}".encode()).decode() if user or password else ""
        return Redactor([self._key(), password, f"{user}:{password}" if password else "", basic])

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self._key()
        user, password = self._user
        if key:
            headers["Authorization"] = f"Bearer {key}"
        elif user or password:  # http://user:password@host/v1: HTTP basic authentication, as curl sends it
            token = base64.b64encode(f"{user}:{password}".encode()).decode()
            headers["Authorization"] = f"Basic {token}"
        return headers

    # -- the requests ----------------------------------------------------------------------------
    def models(self) -> tuple[list[str] | None, str | None]:
        """The model IDs the server lists at ``/models``, or None and why it could not be read."""
        try:
            reply = self._exchange("GET", "/models", None)
        except _Failed as exc:
            return None, exc.text
        if 300 <= reply.status < 400:
            return None, _redirected(reply, "/models")
        if reply.status >= 400:
            return None, f"HTTP {reply.status} {reply.reason} for /models{_snippet(reply.body)}"
        try:
            data = _strict_json(reply.body)
            return [str(entry["id"]) for entry in data["data"]], None
        except (ValueError, KeyError, TypeError, RecursionError):
            return None, f"its /models is not an OpenAI model list{_snippet(reply.body, _BODY_SAID)}"

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
            if not transient or attempt == s.retries or self._no_retry.is_set():
                break
            if self._aborted.wait(s.backoff * 2**attempt) or self._no_retry.is_set():
                break
        return replace(answer, latency=time.monotonic() - start)

    def stop_retrying(self) -> None:
        """A job cancelled: each request in flight answers or ends at its deadline, and is not sent again."""
        self._no_retry.set()

    def abort(self) -> None:
        """End every request in flight now, and every later one before it starts: their answers are ``aborted``."""
        self._aborted.set()
        with self._lock:
            for connection in list(self._open):
                _shut(connection)

    def _post(self, body: bytes) -> tuple[Answer, bool]:
        """One POST: the answer, and whether trying again might help."""
        try:
            reply = self._exchange("POST", "/chat/completions", body)
        except _Failed as exc:
            return Answer("", exc.text, endpoint_down=exc.endpoint_down, aborted=exc.aborted), exc.transient
        answer, transient = _answer_of(reply)
        return replace(answer, whole=reply.size is not None), transient

    def _exchange(self, method: str, path: str, body: bytes | None) -> _Reply:
        """The one request to the network: no redirect followed, one deadline for the whole exchange, the body read
        up to :data:`MAX_BODY`, every text redacted. Raises :class:`_Failed` when no response was read whole."""
        timeout = self.settings.timeout
        if self._aborted.is_set():
            raise _Failed("cancelled before its answer came", transient=False, endpoint_down=False, aborted=True)
        deadline = time.monotonic() + timeout
        connection: http.client.HTTPConnection
        if self._https:
            connection = http.client.HTTPSConnection(
                self._host, self._port, timeout=timeout, context=ssl.create_default_context()
            )
        else:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        expired = threading.Event()

        def at_deadline() -> None:
            expired.set()
            _shut(connection)

        watchdog = threading.Timer(timeout, at_deadline)
        watchdog.daemon = True
        with self._lock:
            self._open.add(connection)
        redactor = self.redactor()
        try:
            connection.connect()  # before the watchdog starts: it shuts a socket that exists
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                expired.set()
                raise TimeoutError
            watchdog.interval = remaining
            watchdog.start()
            if self._aborted.is_set():
                _shut(connection)
            connection.request(method, self._path + path, body=body, headers=self._headers())
            response = connection.getresponse()
            raw = response.read(MAX_BODY + 1)
            if self._aborted.is_set():  # shut mid-read by abort(): what came is not the answer
                raise ConnectionAbortedError
            if expired.is_set():  # shut mid-read at the deadline: what came is not the whole answer
                raise TimeoutError
            if len(raw) <= MAX_BODY and response.length:  # fewer bytes than its Content-Length said
                raise http.client.IncompleteRead(raw, response.length)
            size = len(raw) if len(raw) <= MAX_BODY else None
            text = redactor.redact(raw[:MAX_BODY].decode("utf-8", "replace"))
            location = response.getheader("Location", "") or ""
            return _Reply(response.status, redactor.redact(str(response.reason)), text, size, location)
        except _Failed:
            raise
        except BaseException as exc:
            if self._aborted.is_set():
                raise _Failed(
                    "cancelled before its answer came", transient=False, endpoint_down=False, aborted=True
                ) from None
            if expired.is_set() or isinstance(exc, TimeoutError):
                raise _Failed(f"no answer within {timeout:g} s", transient=True, endpoint_down=False) from None
            if isinstance(exc, http.client.HTTPException):  # the connection broke mid-answer (the server died)
                raise _Failed(
                    redactor.redact(f"the answer broke off ({type(exc).__name__})"), transient=True, endpoint_down=True
                ) from None
            if isinstance(exc, OSError | ValueError):
                raise _Failed(redactor.redact(_network_error(exc)), transient=True, endpoint_down=True) from None
            raise
        finally:
            watchdog.cancel()
            with self._lock:
                self._open.discard(connection)
            connection.close()


def _answer_of(reply: _Reply) -> tuple[Answer, bool]:
    """A chat request's response as an answer, and whether trying again might help."""
    if 300 <= reply.status < 400:
        return Answer(reply.body, _redirected(reply, "/chat/completions"), endpoint_down=True), False
    if reply.status >= 400:
        text, code = reply.body, reply.status
        failure = f"HTTP {code} {reply.reason}{_snippet(text)}"
        if code in (401, 403):
            return Answer(text, failure, refused=True), False
        if code in (404, 405, 501):
            return Answer(text, failure, endpoint_down=True), False
        refused = code in (400, 422, 500) and ("response_format" in text or "json_schema" in text)
        return Answer(text, failure, refused_format=refused), code == 429 or code >= 500 and not refused
    if reply.size is None:
        return Answer(reply.body, f"the answer is larger than {MAX_BODY:,} bytes: not read further"), False
    return _completion(reply.body), False


def _shut(connection: http.client.HTTPConnection) -> None:
    """Shut a connection's socket from another thread: a read blocked on it returns at once."""
    sock = connection.sock
    if sock is None:
        return
    try:  # socket.socket's own shutdown: an SSL socket's would tear down its state under the reading thread
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


def _redirected(reply: _Reply, path: str) -> str:
    target = urlsplit(reply.location)
    where = f" to {shown_url(reply.location)}" if target.netloc else ""
    return (
        f"HTTP {reply.status} {reply.reason} for {path}: a redirect{where}, not followed (a request is sent only to "
        "the endpoint named, with its key; give the URL it redirects to as the endpoint if you trust it)"
    )


def _completion(text: str) -> Answer:
    """A chat-completions response body read as one: its message content, refusal, and token counts."""
    try:
        data = _strict_json(text)
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
        refusal = message.get("refusal")
    except _TwiceGiven as exc:
        return Answer(text, f"not an OpenAI chat-completions answer (the key {exc.args[0]!r} is given twice)")
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


def _snippet(body: str, limit: int = _BODY_SHOWN) -> str:
    text = " ".join(body.split())
    return f": {text[:limit]}{'…' if len(text) > limit else ''}" if text else ""


def _network_error(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLError):
        return f"no secure connection ({exc.reason or exc})"
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is the server running?)"
    if isinstance(reason, socket.gaierror):
        return f"unknown host ({reason.strerror})"
    if isinstance(reason, TimeoutError | socket.timeout):
        return "no answer in time"
    text = getattr(reason, "strerror", None) or str(reason)
    return f"cannot reach it ({text})"
