"""The Runs view's state as a Qt-free, evented model (the pattern of :mod:`ndcg_desktop.sessions.scores`).

Every run imported into the project, scored against one frozen pool version at one or more K and
compared (rule 17: intervals, paired tests, corrections, effect sizes, bounds from unjudged
documents). Each run is resolved on its own, as the Scores view resolves one: its flag groups start
unset for every (run, pool version), a group its check found needs a choice before anything is
scored, and a choice applied to all runs is recorded for each run.

What invalidates what, by construction:

- a new project resets everything;
- another pool version unsets every run's choices and drops the checks, scores and result;
- other cut-offs drop the checks (the counts in the top K change), the scores and the result;
- another gain or zero-IDCG rule drops the scores and the result;
- scoring residually from an earlier frozen version (rule 21), or no longer, drops the checks, the scores and the
  result; another pool version drops a residual choice that is no longer older than it;
- a run's choice drops that run's scores and the result;
- including or leaving out a run, or another baseline, drops the result (scores stay: they do not depend
  on them); the selected pair goes with the result;
- another test or correction restates the result at once (every test's raw p-value is in it already:
  only the corrected p-values, the significance marks and the manifest change); the pair stays.

Jobs carry the generation they were made at; :meth:`RunsSession.apply` refuses a result computed
from inputs that have changed since.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import pandas as pd

from ndcg_desktop.domain import Cutoffs, EvalSettings, Gain, InputError, ZeroIdcgPolicy
from ndcg_desktop.domain.choices import DEFAULT_K, FLAG_GROUPS
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.explain import compare_per_query
from ndcg_desktop.scoring.stats import TEST_COLUMNS, StatsSettings, superscript_text
from ndcg_desktop.scoring.stats import Correction as Correction  # the views' choices
from ndcg_desktop.scoring.stats import StatTest as StatTest
from ndcg_desktop.sessions.events import FollowsProject
from ndcg_desktop.sessions.kit import Emitter, Job, VersionChoice, prove_or_forget
from ndcg_desktop.sessions.scores import CHOICES, DEFAULT_CHOICES, REFUSING_GROUPS
from ndcg_desktop.store import PoolVersion, Project, RunInfo
from ndcg_desktop.tasks.comparing import RunsComparison, compare_scored, restated, significance_matrix
from ndcg_desktop.tasks.comparison_notes import FewQueries, TiesAtK, find_few_queries
from ndcg_desktop.tasks.scoring import CheckedRun, ScoredRun, check_run, score_run_at

# Each group's choices: the scoring policies, as in the Scores view (whose window alone also sends for judging).
RUN_CHOICES: dict[str, tuple[str, ...]] = CHOICES

# Aspects carried by RunsSession.changed.
PROJECT, INPUTS, SETTINGS, CHOICES_CHANGED, CHECKS, SCORES, STATS, RESULT, PAIR, SHOWN = (
    "project",
    "inputs",
    "settings",
    "choices",
    "checks",
    "scores",
    "stats",
    "result",
    "pair",
    "shown",
)


@dataclass
class RunsResult:
    """A comparison and the scored runs it came from (run -> K -> scored run, for the breakdowns)."""

    comparison: RunsComparison
    scored: dict[str, dict[int, ScoredRun]] = field(repr=False)


@dataclass(frozen=True)
class PairQueries:
    """Run b against run a at one K, query by query, over the queries in both means."""

    k: int
    a: str
    b: str
    table: pd.DataFrame  # query_id, ndcg_a, ndcg_b, difference
    counts: dict[str, int]  # wins, ties, losses (b against a)


class RunsSession(FollowsProject, VersionChoice):
    """The state of one Runs view. See the module docstring for what invalidates what."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self._project: Project | None = None
        self._runs: list[RunInfo] = []
        self._versions: list[PoolVersion] = []
        self._pool_version: int | None = None
        self._residual_from: int | None = None
        self._included: list[str] = []
        self._ks = Cutoffs()  # checked once, by set_ks, and handed as they are to the scoring
        self._settings = EvalSettings()  # gain and zero-IDCG rule; the choices are each run's
        self._stats = StatsSettings()
        self._baseline: str | None = None
        self._choices: dict[str, dict[str, str | None]] = {}
        self._checks: dict[str, CheckedRun] = {}
        self._scored: dict[str, dict[int, ScoredRun]] = {}
        self._result: RunsResult | None = None
        self._pair: PairQueries | None = None
        self._shown_k = DEFAULT_K  # the cut-off the plot, the matrix and the pairs show (the runs table lists every K)
        self._generation = 0

    # -- reading -------------------------------------------------------------------------------
    project = property(lambda self: self._project)
    runs = property(lambda self: [info.name for info in self._runs])
    included = property(lambda self: list(self._included))
    pool_version = property(lambda self: self._pool_version)
    ks = property(lambda self: list(self._ks))
    stats = property(lambda self: self._stats)
    baseline = property(lambda self: self._baseline)
    result = property(lambda self: self._result)
    pair = property(lambda self: self._pair)
    shown_k = property(lambda self: self._shown_k)
    generation = property(lambda self: self._generation)
    gain = property(lambda self: self._settings.gain)
    zero_idcg = property(lambda self: self._settings.zero_idcg)

    @property
    def checks(self) -> dict[str, CheckedRun]:
        return dict(self._checks)

    def run_info(self, name: str) -> RunInfo | None:
        return next((info for info in self._runs if info.name == name), None)

    def warnings(self) -> list[FewQueries]:
        """The result's pairs compared over fewer than 10 queries, per K (the warnings ``ndcg compare`` prints
        and its manifest records); [] without a result."""
        return find_few_queries(self._result.comparison.pairs) if self._result is not None else []

    def tie_warnings(self) -> list[TiesAtK]:
        """The result's runs whose mean the tie policy changes, per K (rule 10: the warnings ``ndcg compare``
        prints under its runs table); [] without a result."""
        return list(self._result.comparison.ties) if self._result is not None else []

    def choices(self, run: str) -> dict[str, str | None]:
        return dict(self._choices.get(run, DEFAULT_CHOICES))

    def scored(self, run: str) -> dict[int, ScoredRun]:
        """The run's scores at each K under its current choices (empty until scored)."""
        return dict(self._scored.get(run, {}))

    # -- inputs --------------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): every run included, the newest frozen version, nothing chosen or computed."""
        self._project = project
        self._runs = project.runs.all() if project is not None else []
        self._versions = project.pools.versions() if project is not None else []
        frozen = self.frozen_versions
        self._pool_version = frozen[0].version if frozen else None
        self._residual_from = None
        self._included = self.runs
        self._ks = Cutoffs()
        self._settings = EvalSettings()
        self._stats = StatsSettings()
        self._baseline = None
        self._choices = {name: dict(DEFAULT_CHOICES) for name in self.runs}
        self._shown_k = DEFAULT_K
        self._drop(checks=True, scores=True)
        self.changed.emit(frozenset({PROJECT, INPUTS, SETTINGS, STATS, CHOICES_CHANGED, CHECKS, SCORES, RESULT, PAIR}))

    def reload(self) -> None:
        """The project changed (a run imported, a version frozen): new runs come in, unset; the rest stays if valid."""
        if self._project is None:
            return
        before = (self.runs, self._pool_version)
        listed = [v.version for v in self.frozen_versions]
        self._runs = self._project.runs.all()
        self._versions = self._project.pools.versions()
        names = self.runs
        frozen = [v.version for v in self.frozen_versions]
        chosen = self._pool_version
        self._follow_versions(listed)
        if self._pool_version != chosen:  # choices belong to (run, version)
            self._choices = {}
            self._drop(checks=True, scores=True)
        residual_gone = self._residual_gone()
        if residual_gone:  # what was computed residually from it goes with it
            self._drop(checks=True, scores=True)
        self._included = [n for n in names if n in self._included or n not in before[0]]
        self._choices = {name: self._choices.get(name, dict(DEFAULT_CHOICES)) for name in names}
        for gone in set(self._checks) - set(names):
            del self._checks[gone]
        for gone in set(self._scored) - set(names):
            del self._scored[gone]
        if self._baseline not in self._included:
            self._baseline = None
        if residual_gone or (names, self._pool_version) != before or self._result_stale():
            self._drop()
            self.changed.emit(frozenset({INPUTS, STATS, CHOICES_CHANGED, CHECKS, SCORES, RESULT, PAIR}))
        elif frozen != listed:  # a version frozen (or gone) since: the choice of versions changes, nothing else
            self.changed.emit(frozenset({INPUTS}))

    def _result_stale(self) -> bool:
        return self._result is not None and self._result.comparison.names != self._included

    def set_residual_from(self, number: int | None) -> None:
        """Score every run residually (rule 21): the documents judged in frozen version ``number``, older than the
        one scored, leave the runs and the judgments first (None: not residual); checks and scores go."""
        self._check_residual(number)
        if number != self._residual_from:
            self._residual_from = number
            self._drop(checks=True, scores=True)
            self.changed.emit(frozenset({SETTINGS, CHECKS, SCORES, RESULT, PAIR}))

    def set_pool_version(self, number: int | None) -> None:
        if number != self._pool_version:
            self._pool_version = number
            self._residual_gone()
            self._choices = {name: dict(DEFAULT_CHOICES) for name in self.runs}  # choices belong to (run, version)
            self._drop(checks=True, scores=True)
            self.changed.emit(frozenset({INPUTS, CHOICES_CHANGED, CHECKS, SCORES, RESULT, PAIR}))

    def set_included(self, names: list[str]) -> None:
        """The runs compared, kept in the project's order."""
        unknown = [n for n in names if n not in self.runs]
        if unknown:
            raise ValueError(f"no run named {unknown[0]!r}")
        included = [n for n in self.runs if n in names]
        if included != self._included:
            self._included = included
            if self._baseline not in included:
                self._baseline = None
            self._drop()
            self.changed.emit(frozenset({INPUTS, STATS, RESULT, PAIR}))

    def include(self, name: str, included: bool) -> None:
        others = [n for n in self._included if n != name]
        self.set_included([*others, name] if included else others)

    def set_ks(self, ks: list[int] | str) -> None:
        """The cut-offs (``[5, 10]`` or the window's field, ``"5,10"``; positive, distinct), checked here once;
        the check counts change with them."""
        if not ks:
            raise InputError("name at least one cut-off K")
        values = Cutoffs.parse(ks if isinstance(ks, str) else ",".join(map(str, ks)), option="K")  # a list as its text
        if values != self._ks:
            self._ks = values
            self._drop(checks=True, scores=True)
            self.changed.emit(frozenset({SETTINGS, CHECKS, SCORES, RESULT, PAIR}))

    def set_gain(self, gain: Gain | str) -> None:
        self._set_settings(gain=Gain(gain))

    def set_zero_idcg(self, rule: ZeroIdcgPolicy | str) -> None:
        self._set_settings(zero_idcg=ZeroIdcgPolicy(rule))

    def _set_settings(self, **changes: Any) -> None:
        settings = self._settings.with_(**changes)
        if settings != self._settings:
            self._settings = settings
            self._drop(scores=True)
            self.changed.emit(frozenset({SETTINGS, SCORES, RESULT, PAIR}))

    def set_test(self, test: StatTest | str) -> None:
        self._set_stats(test=StatTest(test))

    def set_correction(self, correction: Correction | str) -> None:
        self._set_stats(correction=Correction(correction))

    def _set_stats(self, **changes: Any) -> None:
        stats = StatsSettings(**{**self._stats.__dict__, **changes})
        if stats != self._stats:
            self._stats = stats
            if self._result is not None:  # the same draws: restated at once, the open pair stays
                self._generation += 1  # a job made under the old test or correction would not match
                self._result = RunsResult(restated(self._result.comparison, stats), self._result.scored)
                self.changed.emit(frozenset({STATS, RESULT}))
                return
            self._drop()
            self.changed.emit(frozenset({STATS, RESULT, PAIR}))

    def set_baseline(self, name: str | None) -> None:
        """Compare every run with ``name``, or (None) every pair."""
        if name is not None and name not in self._included:
            raise ValueError(f"the baseline {name!r} is not one of the runs compared")
        if name != self._baseline:
            self._baseline = name
            self._drop()
            self.changed.emit(frozenset({STATS, RESULT, PAIR}))

    def choose(self, run: str, group: str, value: str | None) -> None:
        """Resolve one flag group of one run (``None`` unsets it); that run's scores and the result go."""
        if run not in self._choices:
            raise ValueError(f"no run named {run!r}")
        if group not in RUN_CHOICES:
            raise ValueError(f"no flag group {group!r}")
        if value is not None and value not in RUN_CHOICES[group]:
            raise ValueError(f"{value!r} is not a choice for {group} ({', '.join(RUN_CHOICES[group])})")
        if self._choices[run][group] != value:
            self._choices[run][group] = value
            self._scored.pop(run, None)
            self._drop()
            self.changed.emit(frozenset({CHOICES_CHANGED, SCORES, RESULT, PAIR}))

    def choose_all(self, group: str, value: str | None) -> None:
        """The same choice for every included run, recorded for each one."""
        for run in self._included:
            self.choose(run, group, value)

    def show_k(self, k: int) -> None:
        """Show another of the result's cut-offs in the plot, the matrix and the pairs (the open pair closes)."""
        if self._result is None or k not in self._result.comparison.ks:
            raise ValueError(f"K={k} was not compared")
        if k != self._shown_k:
            self._shown_k = k
            self._pair = None
            self.changed.emit(frozenset({SHOWN, PAIR}))

    def select_pair(self, k: int, a: str, b: str) -> PairQueries:
        """Open one pair's per-query comparison (b against a at K) from the current result."""
        if self._result is None:
            raise ValueError("nothing compared yet")
        self._pair = pair_queries(self._result, k, a, b)
        self.changed.emit(frozenset({PAIR}))
        return self._pair

    def forget_results(self) -> None:
        """The project refused a frozen version (changed on disk): checks, scores and result go; the inputs stay."""
        self._drop(checks=True, scores=True)
        self.changed.emit(frozenset({CHECKS, SCORES, RESULT, PAIR}))

    def prove(self) -> None:
        """Before the result leaves the window (an export): :func:`prove_or_forget` its pool version."""
        if self._project is not None and self._pool_version is not None:
            prove_or_forget(self._project, self._pool_version, self.forget_results)

    def _drop(self, *, checks: bool = False, scores: bool = False) -> None:
        self._generation += 1
        if checks:
            self._checks = {}
        if scores:
            self._scored = {}
        self._result = None
        self._pair = None

    # -- what the checks say -------------------------------------------------------------------
    def found(self, run: str, group: str) -> int:
        """How many of ``group`` the run's check found (0 when not checked)."""
        checked = self._checks.get(run)
        if checked is None:
            return 0
        report = checked.report
        return {
            "unjudged": report.unjudged_total,
            "duplicates": report.duplicates,
            "unknown_queries": len(report.unknown_queries),
            "queries": len(report.unanswered_queries),
        }[group]

    def unchecked(self) -> list[str]:
        return [n for n in self._included if n not in self._checks]

    def missing(self) -> dict[str, list[str]]:
        """Per included, checked run: the flag groups its check found that still have no choice."""
        out: dict[str, list[str]] = {}
        for run in self._included:
            if run in self._checks:
                groups = [g for g in REFUSING_GROUPS if self.found(run, g) and self._choices[run][g] is None]
                if groups:
                    out[run] = groups
        return out

    def ready(self) -> bool:
        """At least two runs, a frozen version, every run checked and resolved: Score may go ahead."""
        return (
            self._project is not None
            and self._pool_version is not None
            and len(self._included) >= 2
            and not self.unchecked()
            and not self.missing()
        )

    def settings_of(self, run: str) -> EvalSettings:
        """The run's evaluation settings; unset groups keep their refusing default."""
        chosen = self._choices.get(run, DEFAULT_CHOICES)
        policies = {group: value for group, value in chosen.items() if value is not None}
        defaults = {choice.name: choice.default for choice in FLAG_GROUPS}
        return self._settings.with_(**{**defaults, **policies})

    # -- work ----------------------------------------------------------------------------------
    def _need(self) -> tuple[Project, int]:
        if self._project is None or self._pool_version is None:
            raise ValueError("open a project with a frozen pool version first")
        return self._project, self._pool_version

    def check_job(self) -> Job[dict[str, CheckedRun]]:
        """Check every included run not checked yet, counting unjudged documents in the top max(K)."""
        project, version = self._need()
        names, base, k, residual = self.unchecked(), self._settings, max(self._ks), self._residual_from

        def work(progress: Any = None, cancelled: Any = None) -> dict[str, CheckedRun]:
            out = {}
            for i, name in enumerate(names):
                out[name] = check_run(project, name, version, base, k, residual_from=residual, cancelled=cancelled)
                if progress is not None:
                    progress(i + 1, len(names))
            return out

        return Job("check", self._generation, work)

    def score_job(self) -> Job[RunsResult]:
        """Score every included run not scored yet at every K (not recorded), then compare them all."""
        if not self.ready():
            raise ValueError("not ready: check every run and resolve what its check found")
        project, version = self._need()
        names, ks, stats, baseline = list(self._included), self._ks, self._stats, self._baseline
        settings = {name: self.settings_of(name) for name in names}
        known = {name: dict(self._scored[name]) for name in names if name in self._scored}
        residual = self._residual_from

        def work(progress: Any = None, cancelled: Any = None) -> RunsResult:
            # Runs scored before are reused: their version proves itself again first (changed on disk since?).
            project.pools.frozen_version(version)
            todo = [name for name in names if name not in known]
            total, done = len(todo) * len(ks) + 1, 0
            scored = dict(known)
            for name in todo:  # loaded, verified and ordered once for every K, as ndcg compare --project does
                scored[name] = score_run_at(
                    project, name, version, settings[name], ks, rankings=True, bounds=True, residual_from=residual,
                    cancelled=cancelled,
                )  # fmt: skip
                done += len(ks)
                if progress is not None:
                    progress(done, total)
            if cancelled is not None and cancelled():  # the statistics take longest: not started once cancelled
                raise Cancelled()
            comparison = compare_scored(scored, names, ks, settings, stats, baseline)
            if progress is not None:
                progress(total, total)
            return RunsResult(comparison, scored)

        return Job("score", self._generation, work)

    def apply(self, job: Job[object], result: object) -> bool:
        """Take a job's result (``job()``: its ``kind`` names its type), unless an input changed since the job was
        made (then it is dropped)."""
        if job.generation != self._generation:
            return False
        if job.kind == "check":
            self._checks.update(cast("dict[str, CheckedRun]", result))
            self.changed.emit(frozenset({CHECKS}))
        elif job.kind == "score":
            scored = cast(RunsResult, result)
            self._result = scored
            self._shown_k = scored.comparison.ks[0]
            self._scored.update(scored.scored)
            self.changed.emit(frozenset({SCORES, RESULT}))
        return True


def pair_queries(result: RunsResult, k: int, a: str, b: str) -> PairQueries:
    """Run b against run a at K, query by query (the queries in both means), with wins, ties and losses."""
    if k not in result.comparison.ks or a not in result.scored or b not in result.scored:
        raise ValueError(f"no comparison of {a} and {b} at K={k}")
    table, counts = compare_per_query(
        result.scored[a][k].evaluation.per_query, result.scored[b][k].evaluation.per_query
    )
    return PairQueries(k, a, b, table, counts)


def runs_rows(comparison: RunsComparison) -> pd.DataFrame:
    """The runs table as the view lists it: the comparison's rows, the mean with its superscript as text,
    and each interval's width as its sort value (``ci``, ``bound``)."""
    rows = comparison.runs.copy()
    rows["mean_text"] = [
        f"{m:.4f}{superscript_text(s)}" if m == m else "—"
        for m, s in zip(rows["mean"], rows["superscript"], strict=True)
    ]
    rows["ci"] = rows["ci_high"] - rows["ci_low"]
    rows["bound"] = rows["bound_gap"]
    # Why a figure is n/a, beside it as ``<column>_reason`` (the table shows it as the cell's tooltip)
    rows["mean_text_reason"] = rows["mean_reason"]
    return rows


def pairs_rows(comparison: RunsComparison, k: int) -> pd.DataFrame:
    """The pairs compared at K, with the chosen test's corrected p-value as ``p_chosen`` and the difference's CI."""
    rows = comparison.pairs[comparison.pairs["k"] == k].reset_index(drop=True).copy()
    rows["p_chosen"] = rows[TEST_COLUMNS[comparison.stats.test] + "_corrected"]
    rows["p_chosen_reason"] = rows[TEST_COLUMNS[comparison.stats.test] + "_reason"]  # each *_reason: its tooltip
    rows["difference_ci"] = rows["difference_high"] - rows["difference_low"]
    rows["difference_ci_low"], rows["difference_ci_high"] = rows["difference_low"], rows["difference_high"]
    rows["wtl"] = [f"{w}/{t}/{lo}" for w, t, lo in zip(rows["wins"], rows["ties"], rows["losses"], strict=True)]
    return rows


def matrix_at(comparison: RunsComparison, k: int) -> pd.DataFrame:
    """The run x run matrix of corrected p-values at K (NaN where a pair was not compared)."""
    matrix = significance_matrix(comparison)
    return matrix[matrix["k"] == k].drop(columns="k").set_index("run")


@dataclass(frozen=True)
class MatrixCell:
    """One cell of the significance matrix: row run against column run at one K."""

    a: str  # the pair as compared (b against a)
    b: str
    p: float  # the chosen test's corrected p-value
    difference: float  # the row run's mean minus the column run's, over the queries in both
    significant: bool
    reason: str | None = None  # why ``p`` is n/a, or that it is a limit (the chosen test's ``*_reason``)


def matrix_cells(comparison: RunsComparison, k: int) -> list[list[MatrixCell | None]]:
    """The significance matrix at K in the runs' order; None on the diagonal and for pairs not compared."""
    rows = pairs_rows(comparison, k)
    found = {}
    for row in rows.itertuples(index=False):
        why = row.p_chosen_reason if isinstance(row.p_chosen_reason, str) else None
        found[(row.a, row.b)] = MatrixCell(row.a, row.b, row.p_chosen, -row.difference, bool(row.significant), why)
        found[(row.b, row.a)] = MatrixCell(row.a, row.b, row.p_chosen, row.difference, bool(row.significant), why)
    return [[found.get((r, c)) for c in comparison.names] for r in comparison.names]
