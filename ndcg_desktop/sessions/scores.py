"""The Scores view's state as a Qt-free, evented model (napari's ``ViewerModel`` is the pattern).

The session holds the inputs (project, run, pool version, comparison run, K, gain, zero-IDCG
rule), each flag group's choice, each run's check, the send-for-judging plan and the scored
result. Every setter invalidates what depended on what it changed, by construction:

- a new project resets everything;
- a new (run, pool version) pair unsets the choices and drops the checks, the plan and the
  result; another comparison run drops the checks, the plan and the result but keeps the choices
  (they apply to both runs);
- a version frozen since is chosen as the pool version;
- another K, gain or zero-IDCG rule drops the checks and the result (K changes the counts) but
  keeps the choices, which belong to the pair;
- another choice drops the result;
- scoring residually from an earlier frozen version (rule 21), or no longer, drops the checks, the plan and the
  result (the counts change) but keeps the choices; a residual choice that is no longer an older frozen version
  (another pool version chosen) is dropped.

Long work is split in two: a :class:`Job` (a plain callable the owner runs on any thread) and
:meth:`ScoresSession.apply`, which accepts its result only if nothing changed since the job was
made. A result can therefore never land on inputs it was not computed from.

Views subscribe to :attr:`ScoresSession.changed`, which carries the set of aspects that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ndcg_desktop.domain import EvalSettings, Gain, Measure, ZeroIdcgPolicy
from ndcg_desktop.domain.choices import DEFAULT_K, FLAG_GROUPS
from ndcg_desktop.scoring.explain import compare
from ndcg_desktop.sessions.events import EvaluationsChanged, FollowsProject, ProjectEvent
from ndcg_desktop.sessions.kit import Emitter, Job, VersionChoice, prove_or_forget
from ndcg_desktop.store import PoolVersion, Project, RunInfo, SavedEvaluation
from ndcg_desktop.tasks.pooling import JudgingPlan, QueryScope, plan_send_for_judging
from ndcg_desktop.tasks.scoring import CheckedRun, ScoreResult, check_run, score_run

# Each flag group's resolutions, from the domain's table (a refusing default is no resolution: "unset"). Sending
# unjudged documents for judging is no scoring policy: it is the window's action (ScoresSession.send_for_judging).
CHOICES: dict[str, tuple[str, ...]] = {choice.name: choice.policies for choice in FLAG_GROUPS}
# Unset where the default refuses; rule 9's "every pool query counts" is the contract's default, not a guess.
DEFAULT_CHOICES: dict[str, str | None] = {
    choice.name: None if choice.refuses else choice.default.value for choice in FLAG_GROUPS
}
REFUSING_GROUPS = tuple(choice.name for choice in FLAG_GROUPS if choice.refuses)

# Aspects carried by ScoresSession.changed.
PROJECT, INPUTS, SETTINGS, CHOICES_CHANGED, CHECKS, PLAN, RESULT, HISTORY, QUERY = (
    "project",
    "inputs",
    "settings",
    "choices",
    "checks",
    "plan",
    "result",
    "history",
    "query",  # the result's selected query: the results table, the comparison table and the breakdown follow it
)


@dataclass(frozen=True)
class Missing:
    """A flag group that still needs a choice, and what each run's check found for it."""

    group: str
    found: dict[str, int]  # run name -> count


class ScoresSession(FollowsProject, VersionChoice):
    """The state of one Scores view. See the module docstring for what invalidates what."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self._project: Project | None = None
        self._runs: list[RunInfo] = []
        self._versions: list[PoolVersion] = []
        self._run: str | None = None
        self._pool_version: int | None = None
        self._residual_from: int | None = None
        self._other_run: str | None = None
        self._settings = EvalSettings()
        self._k = DEFAULT_K
        self._choices: dict[str, str | None] = dict(DEFAULT_CHOICES)
        self._sending = False  # the unjudged documents go to a draft instead of a policy scoring them
        self._checks: dict[str, CheckedRun] = {}
        self._plan: JudgingPlan | None = None
        self._result: ScoreResult | None = None
        self._suggestion: dict[str, str] | None = None
        self._query: str | None = None
        self._generation = 0

    # -- reading -----------------------------------------------------------------------------
    project = property(lambda self: self._project)
    runs = property(lambda self: [info.name for info in self._runs])
    run = property(lambda self: self._run)
    pool_version = property(lambda self: self._pool_version)
    other_run = property(lambda self: self._other_run)
    plan = property(lambda self: self._plan)
    result = property(lambda self: self._result)
    suggestion = property(lambda self: dict(self._suggestion) if self._suggestion else None)
    generation = property(lambda self: self._generation)
    selected_query = property(lambda self: self._query)

    def select_query(self, query_id: str | None) -> None:
        """The query whose breakdown is shown (chosen in the results or in the comparison table)."""
        query_id = query_id or None
        if self._result is not None and query_id != self._query:
            self._query = query_id
            self.changed.emit(frozenset({QUERY}))

    @property
    def k(self) -> int:
        return self._k

    @property
    def gain(self) -> Gain:
        return self._settings.gain

    @property
    def zero_idcg(self) -> ZeroIdcgPolicy:
        return self._settings.zero_idcg

    @property
    def choices(self) -> dict[str, str | None]:
        return dict(self._choices)

    @property
    def sending_chosen(self) -> bool:
        """Send for judging is chosen for the unjudged documents (instead of a policy)."""
        return self._sending

    @property
    def checks(self) -> dict[str, CheckedRun]:
        """Each checked run's report, by run name (the run, and the comparison run if any)."""
        return dict(self._checks)

    def compared_runs(self) -> list[str]:
        """The runs this session scores: the run, and the comparison run if it is another one."""
        names = [self._run] if self._run else []
        if self._other_run and self._other_run != self._run:
            names.append(self._other_run)
        return names

    def run_info(self, name: str) -> RunInfo | None:
        return next((info for info in self._runs if info.name == name), None)

    # -- inputs ------------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): every input, choice, check and result starts over."""
        self._project = project
        self._runs = project.runs.all() if project is not None else []
        self._versions = project.pools.versions() if project is not None else []
        self._run = self._runs[0].name if self._runs else None
        frozen = self.frozen_versions
        self._pool_version = frozen[0].version if frozen else None
        self._residual_from = None
        self._other_run = None
        self._settings, self._k = EvalSettings(), DEFAULT_K
        self._reset(choices=True)
        self.changed.emit(frozenset({PROJECT, INPUTS, SETTINGS, CHOICES_CHANGED, CHECKS, PLAN, RESULT, HISTORY}))

    def reload(self) -> None:
        """The project changed (a run imported, a version frozen): keep what is still valid, drop the rest."""
        if self._project is None:
            return
        listed = [v.version for v in self.frozen_versions]
        self._runs = self._project.runs.all()
        self._versions = self._project.pools.versions()
        names = self.runs
        pair = (self._run, self._pool_version, self._other_run, self._residual_from)
        if self._run not in names:
            self._run = names[0] if names else None
        self._follow_versions(listed)
        self._residual_gone()
        if self._other_run not in names:
            self._other_run = None
        aspects = {INPUTS, HISTORY}
        if pair != (self._run, self._pool_version, self._other_run, self._residual_from):
            self._reset(choices=True)
            aspects |= {CHOICES_CHANGED, CHECKS, PLAN, RESULT}
        self.changed.emit(frozenset(aspects))

    def set_run(self, name: str | None) -> None:
        if name != self._run:
            self._run = name
            if self._other_run == name:  # a run is not compared with itself
                self._other_run = None
            self._new_pair()

    def set_pool_version(self, number: int | None) -> None:
        if number != self._pool_version:
            self._pool_version = number
            self._residual_gone()
            self._new_pair()

    def set_residual_from(self, number: int | None) -> None:
        """Score residually (rule 21): the documents judged in frozen version ``number``, older than the one scored,
        leave the runs and the judgments first (None: not residual). The checks go (their counts change); the
        choices stay."""
        self._check_residual(number)
        if number != self._residual_from:
            self._residual_from = number
            self._reset(choices=False)
            self.changed.emit(frozenset({SETTINGS, CHECKS, PLAN, RESULT}))

    def set_other_run(self, name: str | None) -> None:
        """The run to compare with: checked anew, the choices already made kept (they apply to both runs)."""
        name = None if name == self._run else name  # a run is not compared with itself
        if name != self._other_run:
            self._other_run = name
            self._reset(choices=False)
            self.changed.emit(frozenset({INPUTS, CHECKS, PLAN, RESULT}))

    def _new_pair(self) -> None:
        self._reset(choices=True)
        self.changed.emit(frozenset({INPUTS, CHOICES_CHANGED, CHECKS, PLAN, RESULT}))

    def set_k(self, k: int) -> None:
        self._set_settings(k)

    def set_gain(self, gain: Gain | str) -> None:
        self._set_settings(gain=Gain(gain))

    def set_zero_idcg(self, rule: ZeroIdcgPolicy | str) -> None:
        self._set_settings(zero_idcg=ZeroIdcgPolicy(rule))

    def _set_settings(self, k: int | None = None, **changes: Any) -> None:
        settings, k = self._settings.with_(**changes), self._k if k is None else k
        if (settings, k) != (self._settings, self._k):
            self._settings, self._k = settings, k
            self._reset(choices=False)  # the counts depend on K: check again
            self.changed.emit(frozenset({SETTINGS, CHECKS, PLAN, RESULT}))

    def choose(self, group: str, value: str | None) -> None:
        """Resolve one flag group with a policy (``None`` unsets it); a policy for unjudged documents ends sending."""
        if group not in CHOICES:
            raise ValueError(f"no flag group {group!r}")
        if value is not None and value not in CHOICES[group]:
            raise ValueError(f"{value!r} is not a choice for {group} ({', '.join(CHOICES[group])})")
        self._change(group, value, sending=self._sending and group != "unjudged")

    def send_for_judging(self) -> None:
        """Choose the window's action for the unjudged documents: send them to a draft, then score once it is
        frozen (rule 6). No policy scores them meanwhile: the unjudged group is left unset."""
        self._change("unjudged", None, sending=True)

    def _change(self, group: str, value: str | None, *, sending: bool) -> None:
        if self._choices[group] != value or self._sending != sending:
            self._choices[group] = value
            self._sending = sending
            self._generation += 1
            self._plan = None
            self._result = None
            self.changed.emit(frozenset({CHOICES_CHANGED, PLAN, RESULT}))

    def accept_suggestion(self) -> None:
        """Take the choices recorded with the last evaluation of this pair (the user confirmed them)."""
        for group, value in (self._suggestion or {}).items():
            self.choose(group, value)

    def forget_results(self) -> None:
        """The project refused a frozen version (changed on disk): checks, plan and result go; the inputs stay."""
        self._reset(choices=False)
        self.changed.emit(frozenset({CHECKS, PLAN, RESULT}))

    def prove(self) -> None:
        """Before the result leaves the window (an export): :func:`prove_or_forget` its pool version."""
        if self._project is not None and self._result is not None:
            prove_or_forget(self._project, self._result.first.version.version, self.forget_results)

    def _reset(self, *, choices: bool) -> None:
        self._generation += 1
        self._checks = {}
        self._plan = None
        self._result = None
        self._query = None
        if choices:
            self._choices = dict(DEFAULT_CHOICES)
            self._sending = False
            self._suggestion = self._previous_choices()

    def _previous_choices(self) -> dict[str, str] | None:
        """The choices of the newest saved evaluation of this (run, pool version) pair, to offer, never to apply."""
        if self._project is None or self._run is None or self._pool_version is None:
            return None
        for saved in self.history():
            if saved.run_name == self._run and saved.pool_version == self._pool_version:
                return _choices_of(Measure.parse(saved.settings)[0].policies)
        return None

    # -- what the checks say -------------------------------------------------------------------
    def checked(self) -> bool:
        """Every run this session scores has been checked under the current inputs."""
        names = self.compared_runs()
        return bool(names) and all(name in self._checks for name in names)

    def found(self, group: str) -> dict[str, int]:
        """Per checked run, how many of ``group`` its check found (0 for none)."""
        counts: dict[str, int] = {}
        for name, checked in self._checks.items():
            report = checked.report
            counts[name] = {
                "unjudged": report.unjudged_total,
                "duplicates": report.duplicates,
                "unknown_queries": len(report.unknown_queries),
                "queries": len(report.unanswered_queries),
            }[group]
        return counts

    def missing(self) -> list[Missing]:
        """The flag groups some checked run needs resolved and that have no choice yet."""
        out = []
        for group in REFUSING_GROUPS:
            found = self.found(group)
            if any(found.values()) and self._choices[group] is None and not (group == "unjudged" and self._sending):
                out.append(Missing(group, found))
        return out

    def sending(self) -> bool:
        """Send for judging is chosen and the run has unjudged documents to send."""
        if not self._sending or self._run not in self._checks:
            return False
        return self._checks[self._run].report.unjudged_total > 0

    def ready(self) -> bool:
        """Every run checked, every flag resolved with a scoring policy: Score may go ahead."""
        if not self.checked() or self.missing():
            return False
        return not (self._sending and any(self.found("unjudged").values()))

    def settings(self) -> EvalSettings:
        """The evaluation settings the inputs and choices make (unset groups keep their refusing default)."""

        chosen = {group: value for group, value in self._choices.items() if value is not None}
        return self._settings.with_(**{**{choice.name: choice.default for choice in FLAG_GROUPS}, **chosen})

    # -- work ----------------------------------------------------------------------------------
    def _need_inputs(self) -> tuple[Project, str, int]:
        if self._project is None or self._run is None or self._pool_version is None:
            raise ValueError("choose a run and a frozen pool version first")
        return self._project, self._run, self._pool_version

    def check_job(self) -> Job[dict[str, CheckedRun]]:
        """Check the run and the comparison run against the pool version."""
        project, _run, version = self._need_inputs()
        names, base, k, residual = self.compared_runs(), self._settings, self._k, self._residual_from

        def work(progress: Any = None, cancelled: Any = None) -> dict[str, CheckedRun]:
            return {
                name: check_run(
                    project, name, version, base, k, residual_from=residual, progress=progress, cancelled=cancelled
                )
                for name in names
            }

        return Job("check", self._generation, work)

    def score_job(self) -> Job[ScoreResult]:
        """Score the run (and the comparison run) with the chosen settings, recording each evaluation."""
        if not self.ready():
            raise ValueError("not ready to score: check the runs and resolve every flag first")
        project, run, version = self._need_inputs()
        other = self._other_run if self._other_run != run else None
        settings, k, residual = self.settings(), self._k, self._residual_from

        def work(progress: Any = None, cancelled: Any = None) -> ScoreResult:
            first = score_run(
                project, run, version, settings, k, rankings=True, bounds=True, residual_from=residual,
                progress=progress, cancelled=cancelled,
            )  # fmt: skip
            if other is None:
                return ScoreResult(first)
            second = score_run(
                project, other, version, settings, k, residual_from=residual, progress=progress, cancelled=cancelled
            )
            table, counts = compare(first.evaluation, second.evaluation)
            return ScoreResult(first, second, table, counts)

        return Job("score", self._generation, work)

    def plan_job(self, depth: int, scope: QueryScope = QueryScope.POOL) -> Job[JudgingPlan]:
        """Preview what send for judging would add (the run only, never the comparison run)."""
        project, run, version = self._need_inputs()
        generation = self._generation

        def work(progress: Any = None, cancelled: Any = None) -> JudgingPlan:
            return plan_send_for_judging(
                project, run, version, depth=depth, scope=scope, progress=progress, cancelled=cancelled
            )

        return Job("plan", generation, work)

    def apply(self, job: Job[object], result: object) -> bool:
        """Take a job's result (``job()``: its ``kind`` names its type), unless an input changed since the job was
        made (then it is dropped)."""
        if job.generation != self._generation:
            return False
        if job.kind == "check":
            self._checks = dict(cast("dict[str, CheckedRun]", result))
            self.changed.emit(frozenset({CHECKS}))
        elif job.kind == "score":
            self._result = cast(ScoreResult, result)
            self._query = None  # the views select the result's first query
            self._suggestion = self._previous_choices()  # "last time" is now this scoring, if it was recorded
            self.changed.emit(frozenset({RESULT, HISTORY, CHOICES_CHANGED}))
        elif job.kind == "plan":
            self._plan = cast(JudgingPlan, result)
            self.changed.emit(frozenset({PLAN}))
        return True

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, EvaluationsChanged):  # recorded here or elsewhere: the history and "last time" follow
            self.changed.emit(frozenset({HISTORY}))
        else:
            super().project_changed(event)

    # -- history -------------------------------------------------------------------------------
    def history(self) -> list[SavedEvaluation]:
        """The project's saved evaluations, newest first."""
        return self._project.runs.evaluations() if self._project is not None else []

    def reopen(self, saved: SavedEvaluation) -> None:
        """Set every input and choice to a saved evaluation's (the user chose it); then check and score."""
        measure, k = Measure.parse(saved.settings)
        settings = measure.policies
        self._run = saved.run_name
        self._pool_version = saved.pool_version
        residual = saved.manifest.get("residual")
        self._residual_from = int(residual["from_version"]) if isinstance(residual, dict) else None
        self._other_run = None
        self._settings, self._k = EvalSettings(gain=settings.gain, zero_idcg=settings.zero_idcg), k
        self._reset(choices=True)
        self._choices = {**DEFAULT_CHOICES, **_choices_of(settings)}
        self.changed.emit(frozenset({INPUTS, SETTINGS, CHOICES_CHANGED, CHECKS, PLAN, RESULT}))


def _choices_of(settings: EvalSettings) -> dict[str, str]:
    """The resolutions a settings value made (refusing defaults are no choice)."""
    values = {choice.name: getattr(settings, choice.name).value for choice in FLAG_GROUPS}
    return {group: value for group, value in values.items() if value in CHOICES[group]}
