"""Judging a draft's items with a machine assessor (issue 25): connection test, prompt preview, estimate, the job.

A job asks the model about each item in scope that it has not graded yet under the same template (so a second run
continues where the first stopped), at most ``concurrency`` requests at a time, and keeps every answer as it comes
(one transaction per batch of answers): a cancel, Ctrl+C or a crash loses at most the requests in flight.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from urllib.parse import urlsplit

import numpy as np
import pandas as pd

from ndcg_desktop.domain.counts import count, plural
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import MODEL_PREFIX
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.cells import check_id, show
from ndcg_desktop.store import PoolVersion, Project, ProjectBusy
from ndcg_desktop.store.assessor import AnswerRow
from ndcg_desktop.tasks.advice import start_a_draft
from ndcg_desktop.tasks.assessing.client import FORMATS, Answer, Client, kept_raw, parse_grade
from ndcg_desktop.tasks.assessing.lock import judging
from ndcg_desktop.tasks.assessing.model import (
    SCOPES,
    AssessorSettings,
    Attempt,
    ConnectionReport,
    Estimate,
    Item,
    JobResult,
    Selection,
    Template,
    is_variable_name,
    shown_url,
)
from ndcg_desktop.tasks.assessing.prompt import labels_text, render
from ndcg_desktop.tasks.work_files import work_annotator

DOWN_IN_A_ROW = 3  # answers in a row that say the endpoint is down (not the item) stop a job
_KEPT_FAILURES = 5
_BATCH_SECONDS = 1.0  # answers are kept at least this often, and at every end
_POLL_SECONDS = 0.2  # how often a job looks at its cancel and abort flags while requests are in flight
_LAST_WRITE_SECONDS = 10.0  # how long a job's last write waits for another program's lock


def check_connection(settings: AssessorSettings) -> ConnectionReport:
    """Whether ``settings.endpoint`` answers as an OpenAI-compatible server that has ``settings.model``.

    Reads ``/models`` only (no model call), through the one guarded :class:`Client`. The message names the
    endpoint, and the models it lists when the model is not among them. Without a model name it reports what the
    server lists (``ok`` when it lists any), so the model can be chosen from the answer.
    """
    if settings.model:
        check_settings(settings)
    else:  # no model named yet: the test is how a new user finds out what the server serves (issue 36)
        check_endpoint(settings)
    _check_key_is_set(settings)  # here, not in check_settings: a prompt can be previewed without a key
    models, why = Client(settings).models()
    where = settings.shown_endpoint
    if models is None:
        return ConnectionReport(False, f"{where}: {why}")
    if not settings.model:
        listed = ", ".join(models[:10]) or "none"
        return ConnectionReport(
            bool(models), f"{where} serves {count(len(models), 'model')} ({listed}): choose one", tuple(models)
        )
    if settings.model not in models:
        listed = ", ".join(models[:10]) or "none"
        return ConnectionReport(False, f"{where} has no model {settings.model!r} (it lists: {listed})", tuple(models))
    return ConnectionReport(True, f"{where} serves {settings.model!r}", tuple(models))


def check_settings(settings: AssessorSettings) -> None:
    """Refuse settings that cannot make a request, each naming what is wrong."""
    check_endpoint(settings)
    # the name becomes annotator model:<name>: the ID rule (no whitespace, control or invisible characters)
    check_id(settings.model, "model name", "--model", None)
    if settings.model != settings.model.strip():
        raise InputError(f"model name {show(settings.model)} has surrounding whitespace")


def check_endpoint(settings: AssessorSettings) -> None:
    """Refuse settings that cannot reach a server (all of :func:`check_settings` but the model's name)."""
    shown = settings.shown_endpoint
    if not settings.endpoint.startswith(("http://", "https://")) or not settings.host:
        raise InputError(f"endpoint {shown!r} is not an http:// or https:// URL")
    parts = urlsplit(settings.endpoint)
    if parts.query or parts.fragment:  # a key in ?api_key=... would be sent, logged by proxies, shown
        raise InputError(
            f"endpoint {shown!r} has a query or a fragment: give the server's base URL, and the API key's "
            "environment variable in --api-key-env"
        )
    _check_port(settings.endpoint)
    _check_key_name(settings)
    if settings.concurrency < 1 or settings.concurrency > 64:
        raise InputError(f"concurrency {settings.concurrency} is not between 1 and 64")
    if not settings.timeout > 0:
        raise InputError(f"timeout {settings.timeout} is not a positive number of seconds")
    if settings.retries < 0 or settings.max_tokens < 1 or settings.document_chars < 1:
        raise InputError("retries must be 0 or more, max tokens and document characters 1 or more")


def _check_port(endpoint: str) -> None:
    """A port out of range or not a number is the URL's fault, not a server's that is not running."""
    parts = urlsplit(endpoint)
    shown = shown_url(endpoint)
    try:
        port = parts.port
    except ValueError:
        raw = parts.netloc.rpartition(":")[2]
        problem = f"port {raw} is not between 1 and 65535" if raw.isdigit() else f"port {raw!r} is not a number"
        raise InputError(f"endpoint {shown!r}: {problem}") from None
    if port == 0:
        raise InputError(f"endpoint {shown!r}: port 0 is not between 1 and 65535")


def _check_key_name(settings: AssessorSettings) -> None:
    """A name for the API key's variable that is no variable name is likely the key itself, pasted: it is neither
    shown nor recorded."""
    name = settings.api_key_env
    if name is not None and not is_variable_name(name):
        raise InputError(key_name_refusal(settings))


def key_name_refusal(settings: AssessorSettings) -> str:
    """What every front says of a value given for the API key's variable that is no variable name (never the value:
    it is likely the key itself)."""
    return (
        f"{settings.shown_endpoint}: the API key's environment variable is given by its name (letters, digits and "
        "_), not the key itself"
    )


def _check_key_is_set(settings: AssessorSettings) -> None:
    """The variable named for the API key holds one: unset or empty, every request would go without a key."""
    name = settings.api_key_env
    if name is None:
        return
    value = os.environ.get(name)
    if value is None or not value.strip():
        state = "not set" if value is None else "empty"
        raise InputError(f"{settings.shown_endpoint}: the API key's environment variable {name} is {state}")


def draft_of(project: Project) -> PoolVersion:
    """The draft a model judges (models judge drafts only: a frozen version's ratings are final)."""
    draft = project.pools.draft()
    if draft is None:
        raise InputError(
            f"has no draft to judge (a model's ratings go into a draft); {start_a_draft(project)}",
            path=project.path,
        )
    return draft


def select_items(project: Project, selection: Selection, version: int | None = None) -> pd.DataFrame:
    """query_id, doc_id of the draft's items in ``selection``, in natural order (a seeded sample if asked).

    ``ungraded``: items no person has rated; ``rated``: items a person has rated (to calibrate the model against
    people); ``all``: every item. A model's own ratings never make an item rated.
    """
    if selection.items not in SCOPES:
        raise InputError(f"items {selection.items!r} is not one of {', '.join(SCOPES)}")
    v = draft_of(project) if version is None else project.pools.version(version)
    pool = project.pools.items(v.version)[["query_id", "doc_id"]]
    ratings = project.ratings.verified(v.version)
    people = ratings[~ratings["annotator"].str.startswith(MODEL_PREFIX)]
    rated = pd.MultiIndex.from_frame(people[["query_id", "doc_id"]].drop_duplicates())
    keys = pd.MultiIndex.from_frame(pool)
    items = pool
    if selection.items == "rated":
        items = pool[keys.isin(rated)]
    elif selection.items == "ungraded":
        items = pool[~keys.isin(rated)]
    if selection.queries:
        unknown = sorted(set(selection.queries) - set(pool["query_id"]), key=natural_key)
        if unknown:
            raise InputError(f"query {unknown[0]} has no items in draft version {v.version}", path=project.path)
        items = items[items["query_id"].isin(selection.queries)]
    if selection.sample is not None and selection.sample < 1:
        raise InputError(f"sample {selection.sample} is not a positive number of items")
    pairs = zip(items["query_id"].tolist(), items["doc_id"].tolist(), strict=True)
    keys_in_order = [(natural_key(q), natural_key(d)) for q, d in pairs]
    order = sorted(range(len(items)), key=keys_in_order.__getitem__)
    if selection.sample is not None:
        # the first N of one seeded shuffle of the items in natural order: a larger sample holds a smaller one, so
        # growing a sample asks only the new items. A Generator takes any seed up to 2^63 (RandomState below 2^32).
        shuffled = np.random.default_rng(selection.seed).permutation(len(order))
        order = [order[i] for i in np.sort(shuffled[: selection.sample])]
    return items.iloc[order].reset_index(drop=True)


def messages_for(project: Project, settings: AssessorSettings, template: Template, item: Item) -> list[dict[str, str]]:
    """The chat messages sent for ``item``: one user message, the template filled with its texts."""
    draft = draft_of(project)
    topic = project.texts.query(item.query_id) or {}
    document = project.texts.document(item.doc_id) or {}
    guidelines = project.texts.guidelines()
    text = str(document.get("text", ""))
    fields = {
        "title": str(topic.get("title", "")) or item.query_id,
        "description": str(topic.get("description", "")),
        "narrative": str(topic.get("narrative", "")),
        "guidelines": guidelines.text if guidelines is not None and guidelines.text else "(none given)",
        "labels": labels_text(draft.scale.low, list(draft.labels)),
        "low": str(draft.scale.low),
        "high": str(draft.scale.high),
        "doc_id": item.doc_id,
        "doc_title": str(document.get("title", "")),
        "document": text[: settings.document_chars],
    }
    return [{"role": "user", "content": render(template, fields)}]


def preview_prompt(
    project: Project, settings: AssessorSettings, template: Template, item: Item | None = None
) -> tuple[Item, str]:
    """The prompt for ``item`` (default: the first item of the draft), as the model would read it."""
    if item is None:
        items = select_items(project, Selection(items="all"))
        if items.empty:
            raise InputError(f"draft version {draft_of(project).version} has no items", path=project.path)
        item = Item(str(items.iloc[0, 0]), str(items.iloc[0, 1]))
    return item, messages_for(project, settings, template, item)[0]["content"]


def ask(
    project: Project, settings: AssessorSettings, template: Template, item: Item, fmt: str | None, client: Client
) -> tuple[Attempt, Answer]:
    """One item asked once: the attempt as it will be recorded, and the server's answer."""
    return _ask(client, item, messages_for(project, settings, template, item), _grades(project), fmt)


def _grades(project: Project) -> tuple[int, ...]:
    scale = draft_of(project).scale
    return tuple(range(scale.low, scale.high + 1))


def _ask(
    client: Client, item: Item, messages: list[dict[str, str]], grades: tuple[int, ...], fmt: str | None
) -> tuple[Attempt, Answer]:
    """The request of :func:`ask`, prompt built: HTTP only, so it runs on a worker thread without the project."""
    answer = client.chat(messages, grades, fmt)
    grade: int | None = None
    failure = answer.failure
    if failure is None:
        try:
            grade = parse_grade(answer.content, grades)
        except ValueError as exc:
            failure = str(exc)
    attempt = Attempt(
        item.query_id,
        item.doc_id,
        grade,
        failure,
        kept_raw(answer.content, whole=answer.whole),
        answer.latency,
        answer.prompt_tokens,
        answer.completion_tokens,
    )
    return attempt, answer


def estimate(
    project: Project, settings: AssessorSettings, template: Template, selection: Selection, *, calls: int = 3
) -> Estimate:
    """A dry run: a few real calls (the first ``calls`` items to judge) and what the whole job would take.

    Nothing is written to the project.
    """
    plan = _plan(project, settings, template, selection)
    client = Client(settings)
    fmt = _format_that_works(project, settings, template, plan.todo, client)
    sample = [fmt.first] if fmt.first is not None else []  # the first item, asked while finding the format
    for query_id, doc_id in plan.todo.iloc[len(sample) : calls].itertuples(index=False):
        attempt, _ = ask(project, settings, template, Item(query_id, doc_id), fmt.kind, client)
        sample.append(attempt)
    timed = [a.latency for a in sample if a.ok]
    tokens = [
        a.prompt_tokens + a.completion_tokens
        for a in sample
        if a.prompt_tokens is not None and a.completion_tokens is not None
    ]
    return Estimate(
        items=len(plan.todo),
        already_judged=plan.skipped,
        sample=tuple(sample),
        seconds_per_item=sum(timed) / len(timed) if timed else None,
        tokens_per_item=sum(tokens) / len(tokens) if tokens else None,
        concurrency=settings.concurrency,
    )


def run_job(
    project: Project,
    settings: AssessorSettings,
    template: Template,
    selection: Selection,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    aborted: IsCancelled | None = None,
    started_by: str,
) -> JobResult:
    """Judge the items in ``selection`` that this model has not graded under this template, keeping every answer.

    ``progress(done, total)`` is called as answers come; ``cancelled()`` is polled every :data:`_POLL_SECONDS`:
    no request is started after it, and the requests in flight end within their deadline (``timeout``), their
    answers kept. ``aborted()`` (a window closing, a second Ctrl+C) ends the requests in flight at once; every
    answer received before is kept. The endpoint is checked first (:func:`check_connection`): a server that does
    not answer as an OpenAI one, or lacks the model, is refused before anything is recorded. A job stops, keeping
    what it has, when :data:`DOWN_IN_A_ROW` answers in a row say the endpoint is down, and at once when the
    endpoint refuses us (HTTP 401 or 403).

    One job per project at a time, from any front (:func:`.lock.judging`); a work file is refused (a model judges
    the coordinator's draft: answers in an annotator's file would be dropped at merge).
    """
    with judging(project.path):
        return _run(project, settings, template, selection, progress, cancelled, aborted, started_by=started_by)


def _run(
    project: Project,
    settings: AssessorSettings,
    template: Template,
    selection: Selection,
    progress: Progress | None,
    cancelled: IsCancelled | None,
    aborted: IsCancelled | None,
    *,
    started_by: str,
) -> JobResult:
    plan = _plan(project, settings, template, selection)
    draft = plan.draft
    if plan.todo.empty:
        return JobResult(None, settings.annotator, draft.version, plan.in_scope, plan.skipped, 0, 0, False)
    client = Client(settings)
    watcher = _watch_abort(client, cancelled, aborted)  # from here on, whatever stage asks
    try:
        return _judge(project, settings, template, plan, client, progress, cancelled, aborted, started_by=started_by)
    except _Stopped:  # stopped before anything was received: nothing recorded, and said as a cancel
        return JobResult(None, settings.annotator, plan.draft.version, plan.in_scope, plan.skipped, 0, 0, True)
    finally:
        watcher.set()


class _Stopped(Exception):
    """The job was stopped while the first item was asked (the format chosen): nothing was received."""


def _watch_abort(client: Client, cancelled: IsCancelled | None, aborted: IsCancelled | None) -> threading.Event:
    """A thread that tells ``client`` as soon as ``cancelled()`` (no request is sent again: each in flight ends at
    its deadline) or ``aborted()`` (every request ends now) says so, polled every 0.1 s until the returned event is
    set: a request stuck while the format is chosen ends as one in the main loop does."""
    stop = threading.Event()
    if aborted is None and cancelled is None:
        return stop

    def watch() -> None:
        while not stop.wait(0.1):
            if cancelled is not None and cancelled():
                client.stop_retrying()
            if aborted is not None and aborted():
                client.abort()
                return

    threading.Thread(target=watch, name="ndcg-assessor-abort", daemon=True).start()
    return stop


def _judge(
    project: Project,
    settings: AssessorSettings,
    template: Template,
    plan: _Plan,
    client: Client,
    progress: Progress | None,
    cancelled: IsCancelled | None,
    aborted: IsCancelled | None,
    *,
    started_by: str,
) -> JobResult:
    draft = plan.draft
    fmt = _format_that_works(project, settings, template, plan.todo, client)
    parameters = settings.parameters() | {"response_format": fmt.kind or "none"}
    run_id = project.assessor.start_run(
        draft.version,
        annotator=settings.annotator,
        model=settings.model,
        endpoint_host=settings.host,
        parameters=parameters,
        template_sha256=template.sha256,
        template_source=template.source,
        started_by=started_by,
    )
    items = [Item(q, d) for q, d in plan.todo.itertuples(index=False)]
    grades = _grades(project)
    total = len(items)
    graded = failed = down = 0
    failures: list[Attempt] = []
    pending: list[AnswerRow] = []
    stopped: str | None = None
    was_cancelled = False
    last_write = time.monotonic()
    written = 0  # answers of this job in the project file
    if fmt.first is not None:  # the first item was asked while choosing the format: kept, not asked again
        pending.append(_row(fmt.first))
        graded, failed = (1, 0) if fmt.first.ok else (0, 1)
        if not fmt.first.ok:
            failures.append(fmt.first)
        items = items[1:]
    if progress is not None:
        progress(graded + failed, total)
    queue = iter(items)
    with ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="ndcg-assessor") as pool:
        flight: dict[Future[tuple[Attempt, Answer]], Item] = {}

        def top_up() -> None:
            while len(flight) < settings.concurrency:
                item = next(queue, None)
                if item is None:
                    return
                # the prompt is read here, on the project's thread; the worker only talks HTTP
                messages = messages_for(project, settings, template, item)
                flight[pool.submit(_ask, client, item, messages, grades, fmt.kind)] = item

        try:
            top_up()
            while flight:
                done, _ = wait(flight, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    del flight[future]
                    attempt, answer = future.result()
                    if answer.aborted:  # ended before an answer came: nothing received, nothing to keep
                        continue
                    pending.append(_row(attempt))
                    if attempt.ok:
                        graded += 1
                        down = 0
                    else:
                        failed += 1
                        down = down + 1 if answer.endpoint_down else 0
                        if len(failures) < _KEPT_FAILURES:
                            failures.append(attempt)
                        if answer.refused and stopped is None:
                            stopped = f"{settings.shown_endpoint} refuses our requests: {attempt.failure}"
                        if down >= DOWN_IN_A_ROW and stopped is None:
                            stopped = f"{settings.shown_endpoint} stopped answering: {attempt.failure}"
                if time.monotonic() - last_write >= _BATCH_SECONDS:
                    written += _keep(project, run_id, pending)
                    last_write = time.monotonic()
                if done and progress is not None:
                    progress(graded + failed, total)
                if cancelled is not None and cancelled():
                    was_cancelled = True
                if aborted is not None and aborted():
                    was_cancelled = True
                    client.abort()
                if stopped is not None:
                    client.abort()  # the endpoint refuses us: the requests in flight would fail alike
                if stopped is None and not was_cancelled:
                    top_up()
        finally:
            client.abort()  # nothing is in flight after the job (an exception, a second Ctrl+C): none waits
            for future in flight:
                future.cancel()
            for future in flight:  # an answer that came as the job was interrupted is kept too
                if future.done() and not future.cancelled() and future.exception() is None:
                    attempt, answer = future.result()
                    if not answer.aborted:
                        pending.append(_row(attempt))
            if pending:
                written += _keep_at_last(project, run_id, pending, written)
    return JobResult(
        run_id,
        settings.annotator,
        draft.version,
        plan.in_scope,
        plan.skipped,
        graded,
        failed,
        was_cancelled,
        tuple(failures),
        stopped,
    )


class _Plan:
    """What a job would judge: the draft, the items in scope, and those still to ask (``todo``)."""

    def __init__(self, draft: PoolVersion, in_scope: int, todo: pd.DataFrame) -> None:
        self.draft = draft
        self.in_scope = in_scope
        self.todo = todo
        self.skipped = in_scope - len(todo)


def _plan(project: Project, settings: AssessorSettings, template: Template, selection: Selection) -> _Plan:
    """What a job would judge, after checking the endpoint (:func:`check_connection`): a server that does not
    answer as an OpenAI one, or lacks the model, is an :class:`InputError` naming it, before anything is asked.
    So is a work file: its answers would never reach the coordinator's project (a merge takes its annotator's
    grades only)."""
    annotator = work_annotator(project)
    if annotator is not None:
        raise InputError(
            f"is a work file handed to {annotator}: a model judges the coordinator's draft, not an annotator's work "
            "file (a merge takes only the annotator's grades, so its answers would be dropped); judge with a "
            "model on the project the work file came from",
            path=project.path,
        )
    draft = draft_of(project)
    scope = select_items(project, selection, draft.version)
    judged = project.assessor.judged(draft.version, settings.annotator, template.sha256)
    done = pd.MultiIndex.from_frame(judged) if len(judged) else pd.MultiIndex.from_arrays([[], []])
    todo = scope[~pd.MultiIndex.from_frame(scope).isin(done)] if len(scope) else scope
    _check_texts(project, todo)
    report = check_connection(settings)
    if not report.ok:
        raise InputError(report.message)
    return _Plan(draft, len(scope), todo.reset_index(drop=True))


def _check_texts(project: Project, todo: pd.DataFrame) -> None:
    """Refuse items whose document or topic the project has no text for (qrels imported without import-docs or
    import-queries): the model would grade an empty document, or a bare query ID, and keep that as its rating."""
    if todo.empty:
        return
    topics, docs = project.texts.texts_of(sorted(set(todo["query_id"])), sorted(set(todo["doc_id"])))
    said_docs = docs["doc_id"][(docs["title"].str.strip() != "") | (docs["text"].str.strip() != "")]
    fields = topics[["text", "description", "narrative"]]
    said_topics = topics["query_id"][(fields.apply(lambda column: column.str.strip()) != "").any(axis=1)]
    missing = todo[~todo["doc_id"].isin(said_docs)]
    if len(missing):
        raise InputError(
            f"{_without_text(missing, todo, 'document')}: import the documents first (ndcg import-docs PROJECT FILE)",
            path=project.path,
        )
    missing = todo[~todo["query_id"].isin(said_topics)]
    if len(missing):
        raise InputError(
            f"{_without_text(missing, todo, 'topic')}: import the queries first (ndcg import-queries PROJECT FILE)",
            path=project.path,
        )


def _without_text(missing: pd.DataFrame, todo: pd.DataFrame, what: str) -> str:
    first = missing.iloc[0]
    return (
        f"{len(missing)} of the {count(len(todo), 'item')} to judge {plural(len(missing), 'has', 'have')} no "
        f"{what} text in the project (the first: query "
        f"{first['query_id']}, document {first['doc_id']})"
    )


class _Format:
    """The response format a job uses (None: free text) and the first item's attempt made while finding it."""

    def __init__(self, kind: str | None, first: Attempt | None) -> None:
        self.kind = kind
        self.first = first


def _format_that_works(
    project: Project, settings: AssessorSettings, template: Template, todo: pd.DataFrame, client: Client
) -> _Format:
    """The structured-output form the server accepts, found by asking the first item in each form in turn.

    A server that refuses every form is asked in free text, parsed strictly. An endpoint that fails here (it went
    away, it is not an OpenAI server) is an :class:`InputError` naming it: nothing recorded.
    """
    if not settings.schema:
        return _Format(None, None)
    if todo.empty:
        return _Format(FORMATS[0], None)
    item = Item(str(todo.iloc[0, 0]), str(todo.iloc[0, 1]))
    for kind in FORMATS:
        attempt, answer = ask(project, settings, template, item, kind, client)
        if answer.aborted:  # cancelled (a window's Cancel, a second Ctrl+C) before the first answer came
            raise _Stopped()
        if answer.endpoint_down or answer.refused:
            raise InputError(f"{settings.shown_endpoint}: {attempt.failure}")
        if not answer.refused_format:
            return _Format(kind, attempt)
    return _Format(None, None)


def _keep(project: Project, run_id: int, pending: list[AnswerRow]) -> int:
    """Write the answers received since the last write and empty ``pending``; while another program holds the
    file's lock they stay in ``pending`` for the next write. Returns how many were written."""
    try:
        project.assessor.record(run_id, pending)
    except ProjectBusy:
        return 0
    count = len(pending)
    pending.clear()
    return count


def _keep_at_last(project: Project, run_id: int, pending: list[AnswerRow], written: int) -> int:
    """The last write of a job, waiting up to :data:`_LAST_WRITE_SECONDS` for a lock another program holds; if it
    is still held, the refusal says how many answers this job kept and how many it could not write."""
    deadline = time.monotonic() + _LAST_WRITE_SECONDS
    while True:
        try:
            project.assessor.record(run_id, pending)
            return len(pending)
        except ProjectBusy as exc:
            if time.monotonic() >= deadline:
                said = exc.message.split("; nothing was written", 1)[0]
                verb = "is" if written == 1 else "are"
                raise ProjectBusy(
                    f"{said}; {written} answer{'s' if written != 1 else ''} of this job {verb} kept, {len(pending)} "
                    "could not be written: run the same command again to continue",
                    path=project.path,
                ) from None
            time.sleep(0.2)


def _row(attempt: Attempt) -> AnswerRow:
    return (
        attempt.query_id,
        attempt.doc_id,
        attempt.grade,
        attempt.failure,
        attempt.raw,
        attempt.latency,
        attempt.prompt_tokens,
        attempt.completion_tokens,
    )
