"""What a machine assessor is asked, and what it answered (issue 25, contract rule 18): frozen values only.

The settings name everything a run depends on (endpoint, model, parameters); the API key itself is never held
here, only the name of the environment variable it is read from at the moment of a request.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from ndcg_desktop.domain.names import MODEL_PREFIX

Scope = Literal["ungraded", "rated", "all"]
SCOPES: tuple[Scope, ...] = ("ungraded", "rated", "all")
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_variable_name(text: str) -> bool:
    """Whether ``text`` can name an environment variable (letters, digits and ``_``, not first a digit). What is
    given for the API key's variable and is no such name is likely the key itself, pasted: the one rule by which
    every front refuses it, and never shows, records or remembers it.

    >>> is_variable_name("OPENAI_API_KEY"), is_variable_name("sk-proj-a1B2c3"), is_variable_name("")
    (True, False, False)
    """
    return _VARIABLE_NAME.fullmatch(text) is not None


def kept_key_name(text: str) -> str:
    """What may be kept, shown or remembered of what was given for the API key's variable: the name, stripped, if it
    is a variable name (:func:`is_variable_name`); else "" (likely the key itself: it is never kept, issue 33 item 2).

    >>> kept_key_name(" OPENAI_API_KEY "), kept_key_name("sk-proj-a1B2c3"), kept_key_name("Bearer sk-x")
    ('OPENAI_API_KEY', '', '')
    """
    name = text.strip()
    return name if is_variable_name(name) else ""


def shown_url(url: str) -> str:
    """``url`` as every message shows it: without credentials (``user:password@``), query or fragment, where a key
    may sit (``http://user:sk-...@host/v1``, ``...?api_key=sk-...``).

    >>> shown_url("http://ana:sk-secret@127.0.0.1:8080/v1?key=sk-secret#x")
    'http://127.0.0.1:8080/v1'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url.split("?", 1)[0].split("#", 1)[0].rpartition("@")[2]
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


@dataclass(frozen=True)
class AssessorSettings:
    """One machine assessor: an OpenAI-compatible chat-completions endpoint, a model, and every parameter.

    ``endpoint`` is the server's base URL (``http://127.0.0.1:8080/v1``); requests go to
    ``{endpoint}/chat/completions``. ``api_key_env`` names the environment variable holding the key (None: no
    key is sent). ``schema`` False asks for free text and parses it strictly (for servers without structured
    output). ``retries`` are extra tries of a request that failed for a transient reason (timeout, refused
    connection, HTTP 429/5xx), with exponential backoff from ``backoff`` seconds.
    """

    endpoint: str
    model: str
    api_key_env: str | None = None
    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 16
    timeout: float = 60.0
    retries: int = 2
    backoff: float = 0.5
    concurrency: int = 1
    schema: bool = True
    document_chars: int = 4000  # a document's text is cut after this many characters (the context is finite)

    @property
    def annotator(self) -> str:
        """The annotator the model's grades are credited to: ``model:<name>``."""
        return MODEL_PREFIX + self.model

    @property
    def shown_endpoint(self) -> str:
        """The endpoint as messages show it: :func:`shown_url` (no credentials, query or fragment)."""
        return shown_url(self.endpoint)

    @property
    def host(self) -> str:
        """The endpoint's host (and port), recorded with each run; never the path or any credential."""
        return urlsplit(self.endpoint).netloc.rpartition("@")[2]

    def parameters(self) -> dict[str, object]:
        """Every parameter that shapes an answer, as recorded (no key, no URL path)."""
        return {
            "temperature": self.temperature,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "retries": self.retries,
            "concurrency": self.concurrency,
            "schema": self.schema,
            "document_chars": self.document_chars,
            "api_key_env": self.api_key_env,
        }


@dataclass(frozen=True)
class Template:
    """A prompt template: its text (``{placeholders}`` filled per item), where it came from, and its SHA-256."""

    text: str
    source: str  # "built-in" or the file's path

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Item:
    """One pool item to judge, with the texts the prompt is built from."""

    query_id: str
    doc_id: str


@dataclass(frozen=True)
class Selection:
    """Which items of the draft a job judges: ``items`` ungraded, rated (by people) or all; optionally only some
    ``queries``; optionally a seeded random ``sample`` of that many items."""

    items: Scope = "ungraded"
    queries: tuple[str, ...] = ()
    sample: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class Attempt:
    """One answer of the model for one item: a grade, or a failure with its text (never both).

    ``raw`` is the answer as the server sent it (the message content, or the response body / error text).
    """

    query_id: str
    doc_id: str
    grade: int | None
    failure: str | None
    raw: str
    latency: float  # seconds, the request's wall time (retries included)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    @property
    def ok(self) -> bool:
        return self.grade is not None


@dataclass(frozen=True)
class ConnectionReport:
    """What a connection test found: whether the endpoint answers as an OpenAI-compatible server with this model."""

    ok: bool
    message: str  # one line, naming the endpoint
    models: tuple[str, ...] = ()  # the models the server lists (empty when it lists none or did not answer)


@dataclass(frozen=True)
class Estimate:
    """A dry run's estimate for a whole job, from a few real calls (``sample``)."""

    items: int  # items the job would judge (already judged by this model and template left out)
    already_judged: int  # items in scope it would not judge again
    sample: tuple[Attempt, ...]
    seconds_per_item: float | None  # mean latency of the sample's calls; None if none succeeded
    tokens_per_item: float | None  # mean prompt + completion tokens of the sample
    concurrency: int

    @property
    def seconds(self) -> float | None:
        """Estimated wall time of the job at its concurrency."""
        if self.seconds_per_item is None:
            return None
        return self.items * self.seconds_per_item / max(1, self.concurrency)

    @property
    def tokens(self) -> float | None:
        return None if self.tokens_per_item is None else self.items * self.tokens_per_item


@dataclass(frozen=True)
class JobResult:
    """What a job did: its recorded run, how many items it judged, graded and failed, and whether it was cancelled."""

    run_id: int | None  # None when nothing was left to judge (nothing recorded)
    annotator: str
    version: int
    in_scope: int
    skipped: int  # already judged by this model and template: not asked again
    graded: int
    failed: int
    cancelled: bool
    failures: tuple[Attempt, ...] = field(default=())  # the first few failed attempts, to show
    stopped: str | None = None  # why the job stopped before its end (the endpoint stopped answering), or None

    @property
    def judged(self) -> int:
        return self.graded + self.failed
