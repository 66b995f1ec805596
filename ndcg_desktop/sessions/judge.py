"""The state of *Pool ▸ Judge with a model…* as a Qt-free, evented model (the pattern of :mod:`.session`).

The dialog's inputs (endpoint, model, the name of the API key's environment variable, template file, scope,
queries, sample and seed, concurrency, timeout) are one frozen :class:`JudgeInputs`; what was found from them (the
connection test, the prompt of a real item, the dry run's estimate) is dropped as soon as an input it depends on
changes, and a finding computed from older inputs is refused by :meth:`JudgeSession.apply`. The work itself is
``tasks.assessing``'s: the session only builds its arguments, so the window judges exactly as ``ndcg judge`` does.

>>> session = JudgeSession()
>>> session.set(endpoint="http://127.0.0.1:8080/v1", model="smollm2", queries="q1, q2")
>>> session.settings().annotator, session.selection().queries
('model:smollm2', ('q1', 'q2'))
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, cast

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.sessions.events import (
    FollowsProject,
    ItemsChanged,
    ProjectEvent,
    TextsChanged,
    VersionRefused,
    VersionsChanged,
)
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.assessing import (
    SCOPES,
    AssessorSettings,
    ConnectionReport,
    Estimate,
    Item,
    JobResult,
    Scope,
    Selection,
    Template,
    check_connection,
    estimate,
    load_template,
    preview_prompt,
    run_job,
    select_items,
)
from ndcg_desktop.tasks.assessing.job import check_endpoint, check_settings, key_name_refusal
from ndcg_desktop.tasks.assessing.model import kept_key_name

# Aspects carried by JudgeSession.changed.
PROJECT, INPUTS, CONNECTION, PREVIEW, ESTIMATE = "project", "inputs", "connection", "preview", "estimate"

# What each finding depends on: changing one of these inputs drops it.
_CONNECTION_INPUTS = frozenset({"endpoint", "model", "api_key_env", "timeout"})
_PREVIEW_INPUTS = frozenset({"template", "items", "queries", "sample", "seed"})
_QUERY_SEPARATORS = re.compile(r"[,\s]+")


@dataclass(frozen=True)
class JudgeInputs:
    """What the dialog asks, as typed. Never the API key: only the name of the variable it is read from."""

    endpoint: str = "http://127.0.0.1:8080/v1"
    model: str = ""
    api_key_env: str = ""  # "" sends no key
    template: str = ""  # a file; "" is the built-in template
    items: Scope = "ungraded"
    queries: str = ""  # query IDs separated by commas or spaces; "" is every query
    sample: int = 0  # 0 judges every item in scope
    seed: int = 0
    concurrency: int = 1
    timeout: float = 60.0

    def remembered(self) -> JsonObject:
        """The inputs as saved in the preferences (plain JSON values): the API key's variable only if it is a
        variable name (:func:`kept_key_name`), so a key pasted there is never written."""
        return {**asdict(self), "api_key_env": kept_key_name(self.api_key_env)}

    @classmethod
    def from_remembered(cls, saved: object) -> JudgeInputs:
        """Inputs saved by :meth:`remembered`; a value of the wrong type or out of range is left at its default
        (preferences are a file anyone can edit)."""
        defaults = cls()
        if not isinstance(saved, Mapping):
            return defaults
        chosen: dict[str, Any] = {}
        for f in fields(cls):
            value, default = saved.get(f.name), getattr(defaults, f.name)
            if isinstance(default, str) and isinstance(value, str):
                chosen[f.name] = value
            elif isinstance(default, float) and isinstance(value, int | float) and not isinstance(value, bool):
                chosen[f.name] = float(value)
            elif isinstance(default, int) and isinstance(value, int) and not isinstance(value, bool):
                chosen[f.name] = value
        inputs = replace(defaults, **chosen)
        # a key saved there by an older version: never shown again
        inputs = replace(inputs, api_key_env=kept_key_name(inputs.api_key_env))
        if inputs.items not in SCOPES:
            inputs = replace(inputs, items=defaults.items)
        return inputs


class JudgeSession(FollowsProject):
    """Project + :class:`JudgeInputs` -> the connection test, a prompt preview, an estimate, and the job."""

    def __init__(self, inputs: JudgeInputs | None = None) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.inputs = inputs or JudgeInputs()
        self.connection: ConnectionReport | None = None
        self.preview: tuple[Item, str] | None = None
        self.estimate: Estimate | None = None
        self.generations = {CONNECTION: 0, PREVIEW: 0, ESTIMATE: 0}
        self.key_refused = False  # the last text given for the key's variable was no variable name: not kept
        self._aborting = threading.Event()  # set by abort(): the running job ends its requests at once

    # -- inputs ------------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        self.project = project
        self._drop({CONNECTION, PREVIEW, ESTIMATE}, {PROJECT})

    def set(self, **changes: object) -> None:
        """Change inputs by name (``endpoint=``, ``items=``, ...); what depended on them is dropped.

        Given for ``api_key_env``, text that is no variable name is likely the key itself, pasted (the rule
        ``ndcg judge --api-key-env`` refuses by): it is not kept, so nothing shows, records or remembers it, and
        :attr:`key_refused` says so to the front."""
        if "api_key_env" in changes:
            given = str(changes["api_key_env"])
            changes = {**changes, "api_key_env": kept_key_name(given)}
            refused = bool(given.strip()) and not changes["api_key_env"]
            if refused != self.key_refused:
                self.key_refused = refused
                self.changed.emit(frozenset({INPUTS}))
        inputs = replace(self.inputs, **cast(dict[str, Any], changes))  # each field's type checked below
        changed = {name for name in changes if getattr(inputs, name) != getattr(self.inputs, name)}
        if not changed:
            return
        self.inputs = inputs
        dropped = {ESTIMATE}  # every input shapes the estimate (the concurrency its time)
        if changed & _CONNECTION_INPUTS:
            dropped.add(CONNECTION)
        if changed & _PREVIEW_INPUTS:
            dropped.add(PREVIEW)
        self._drop(dropped, {INPUTS})

    def draft(self) -> PoolVersion | None:
        return self.project.pools.draft() if self.project is not None else None

    def settings(self) -> AssessorSettings:
        """The assessor's settings from the inputs; a problem is an :class:`InputError` naming the input."""
        i = self.inputs
        name = i.api_key_env.strip()
        return AssessorSettings(
            endpoint=i.endpoint.strip().rstrip("/"),
            model=i.model.strip(),
            api_key_env=name or None,
            timeout=i.timeout,
            concurrency=i.concurrency,
            seed=i.seed,
        )

    def selection(self) -> Selection:
        i = self.inputs
        queries = tuple(dict.fromkeys(q for q in _QUERY_SEPARATORS.split(i.queries) if q))
        return Selection(items=i.items, queries=queries, sample=i.sample or None, seed=i.seed)

    def template(self) -> Template:
        return load_template(self.inputs.template.strip() or None)

    def key_missing(self) -> str | None:
        """The API key variable named but not set in this process's environment (no key would be sent), else None."""
        name = kept_key_name(self.inputs.api_key_env)
        return name if name and not os.environ.get(name) else None

    def problem(self) -> tuple[str, str] | None:
        """Why nothing can be judged with these inputs, as (kind, words): ``no_project``, ``read_only``,
        ``no_draft``, ``no_model`` (each for the front to word), or ``input`` with the core's refusal; else None."""
        if self.project is None:
            return "no_project", "no project is open"
        if self.project.read_only:
            return "read_only", "the project is open read-only"
        if self.draft() is None:
            return "no_draft", "the project has no draft: a model's ratings go into a draft"
        try:  # the endpoint first: a connection test needs it, and not a model
            check_endpoint(self.settings())
        except InputError as exc:
            return "input", exc.located()
        if not self.inputs.model.strip():
            return "no_model", "name the model"
        if self.key_refused:  # the key itself was pasted: refused as ndcg judge refuses it (it was not kept)
            return "input", key_name_refusal(self.settings())
        try:
            check_settings(self.settings())
            self.template()
        except InputError as exc:
            return "input", exc.located()
        return None

    def can_test_connection(self) -> bool:
        """The connection test needs an endpoint, not a model (it lists the server's models to choose from),
        nor a draft or a writable project (it records nothing)."""
        problem = self.problem()
        return problem is None or problem[0] in ("no_draft", "read_only", "no_model")

    def can_preview(self) -> bool:
        """The prompt can be shown before a model is named (it does not name the model)."""
        problem = self.problem()
        return problem is None or problem[0] == "no_model"

    # -- findings, each a job for any thread -----------------------------------------------------
    def connection_job(self) -> Job[ConnectionReport]:
        """Ask the endpoint which models it serves (no model call)."""
        settings = self.settings()
        return Job(CONNECTION, self.generations[CONNECTION], lambda **_: check_connection(settings))

    def preview_job(self) -> Job[tuple[Item, str]]:
        """The prompt of the first item in scope (of the draft when the scope holds none), filled with its texts."""
        project, settings, template, selection = self._project(), self.settings(), self.template(), self.selection()

        def work(**_: object) -> tuple[Item, str]:
            chosen = select_items(project, replace(selection, sample=None))
            item = Item(str(chosen.iloc[0, 0]), str(chosen.iloc[0, 1])) if len(chosen) else None
            return preview_prompt(project, settings, template, item)

        return Job(PREVIEW, self.generations[PREVIEW], work)

    def estimate_job(self, calls: int = 3) -> Job[Estimate]:
        """A dry run: ``calls`` real requests, and what the whole job would take. Nothing is written."""
        project, settings, template, selection = self._project(), self.settings(), self.template(), self.selection()
        return Job(
            ESTIMATE,
            self.generations[ESTIMATE],
            lambda **_: estimate(project, settings, template, selection, calls=calls),
        )

    def run_job(self) -> Job[JobResult]:
        """The judging itself (``tasks.assessing.run_job``), with progress and cancel; resumes where a run with the
        same model and template stopped.

        Its cancel is the command line's first Ctrl+C: no new request, the requests in flight answer or end at their
        deadline (``timeout``), every answer received kept; :meth:`abort` (a window closing) is the second, ending
        them at once. One job per project at a time from any front: another job holding the project is refused,
        naming it (so a job still ending after its cancel is never joined by a second asking the same items)."""
        job = self._project(), self.settings(), self.template(), self.selection()
        aborting = self._aborting = threading.Event()
        started_by = self.annotator  # who starts it, decided when the project was opened

        def work(progress: Any = None, cancelled: Any = None) -> JobResult:
            return run_job(*job, progress=progress, cancelled=cancelled, aborted=aborting.is_set, started_by=started_by)

        return Job("judge", 0, work)

    def abort(self) -> None:
        """End the running job's requests at once (the window is closing); the answers received are kept."""
        self._aborting.set()

    def apply(self, job: Job[object], result: object) -> bool:
        """Keep ``result`` of ``job`` if nothing it depended on changed since it was made; False (dropped) else."""
        if job.kind not in self.generations or job.generation != self.generations[job.kind]:
            return False
        setattr(self, job.kind, result)
        self.changed.emit(frozenset({job.kind}))
        return True

    # -- the project's events ----------------------------------------------------------------
    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, ItemsChanged | VersionsChanged):
            self.reload()  # what is in scope, and so the estimate and the item previewed, may differ
        elif isinstance(event, TextsChanged):
            self._drop({PREVIEW}, set())
        elif isinstance(event, VersionRefused):
            self.forget_results()

    def reload(self) -> None:
        self._drop({PREVIEW, ESTIMATE}, {INPUTS})

    def forget_results(self) -> None:
        self._drop({PREVIEW, ESTIMATE}, set())

    def _project(self) -> Project:
        if self.project is None:
            raise InputError("no project is open")
        return self.project

    def _drop(self, findings: Iterable[str], aspects: Iterable[str]) -> None:
        for kind in findings:
            self.generations[kind] += 1
            setattr(self, kind, None)
        self.changed.emit(frozenset(findings) | frozenset(aspects))
