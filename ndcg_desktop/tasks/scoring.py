"""Check and score a stored run against a frozen pool version: written once, for both fronts.

The run is read the way it was imported (its :class:`RunReading` owns order, ties and the ID
map); the pool version's scale is the scale; the manifest names the project, the pool version
and its hash, and the run's name. Scoring records the evaluation in the project.

Residual scoring (contract rule 21, TREC-COVID's rounds 2 to 5): ``residual_from=U`` removes every document
judged in frozen version U, per query, from the run and from the version's judgments before anything is
checked or scored (:mod:`ndcg_desktop.scoring.residual`); the manifest's ``residual`` names U, its hash and
what was removed.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

import pandas as pd

from ndcg_desktop.domain import (
    Cutoffs,
    DataTerms,
    EvalSettings,
    GradeScale,
    InputError,
    Measure,
    Qrels,
    Run,
    RunReading,
    UnjudgedPolicy,
)
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.domain.errors import terminal_safe
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.domain.reading import NOTHING_ASKED, ReadingAsked
from ndcg_desktop.formats.choices import ORDER_CHOICES
from ndcg_desktop.scoring import Evaluation, evaluate
from ndcg_desktop.scoring.bounds import unjudged_bounds
from ndcg_desktop.scoring.explain import FlagReport, FullRankings, inspect
from ndcg_desktop.scoring.ndcg import evaluate_cutoffs
from ndcg_desktop.scoring.residual import residual
from ndcg_desktop.store import PoolVersion, Project, RunInfo, StorageProblem
from ndcg_desktop.store.core import release_thread_connections
from ndcg_desktop.tasks.adjudication import team_manifest
from ndcg_desktop.tasks.advice import frozen_version

_T = TypeVar("_T")


@dataclass(frozen=True)
class ResidualRecord:
    """What residual scoring removed (rule 21): the earlier version, its hash, and the counts of the removal."""

    from_version: int
    from_hash: str
    judgments_removed: int
    judgments_left: int
    run_documents_removed: int
    emptied_queries: tuple[str, ...]  # the later version's queries with every judgment removed: not scored
    run_rows_of_emptied: int

    def as_manifest(self) -> dict[str, object]:
        """The manifest's ``residual`` object."""
        return {
            "from_version": self.from_version,
            "from_hash": self.from_hash,
            "rule": f"every document judged in pool version {self.from_version} is removed, per query, from the run "
            "and from the judgments before scoring (residual collection, as TREC-COVID scored rounds 2 to 5)",
            "judgments_removed": self.judgments_removed,
            "judgments_left": self.judgments_left,
            "run_documents_removed": self.run_documents_removed,
            "queries_without_residual_judgments": list(self.emptied_queries),
            "run_documents_of_those_queries": self.run_rows_of_emptied,
        }


@dataclass(frozen=True)
class Inputs:
    """A stored run and a frozen pool version, read and ready to score (residual ones when ``residual`` says so)."""

    version: PoolVersion
    qrels: Qrels
    run: Run
    info: RunInfo
    reading: RunReading
    residual: ResidualRecord | None = None

    def settings(self, base: EvalSettings) -> Measure:
        """``base`` with what is not the caller's to choose: the run's reading and the pool's scale."""
        return base.under(self.reading.terms(self.version.scale))


@dataclass(frozen=True)
class NotScored:
    """Why a run was not scored, for each front to word: the refusal, and the choices it still needs.

    ``str()`` is the command line's sentence (its hint names the option, ``choose --duplicates first``);
    the window shows ``error.located()`` and names its own control for each of ``choices``.
    """

    error: InputError
    choices: tuple[str, ...] = ()  # flag groups still refused: "unjudged", "duplicates", "unknown_queries"

    def __str__(self) -> str:
        return str(self.error)


def not_scored(inputs: Inputs, base: EvalSettings, k: int, error: InputError) -> NotScored:
    """The refusal ``error`` of scoring ``inputs`` at ``k`` under ``base``, with the flag groups that caused it."""
    try:
        report = inspect(inputs.qrels, inputs.run, inputs.settings(base), k)
    except InputError:  # not a flag group's refusal (a bad K, say): the error alone
        return NotScored(error)
    return NotScored(error, tuple(report.missing_groups(base)))


def load_inputs(
    project: Project, run_name: str, pool_version: int | None = None, *, residual_from: int | None = None
) -> Inputs:
    """Read a stored run and a frozen pool version (the latest when ``pool_version`` is None), both proven.

    Drafts are refused: a score needs a version that cannot change. ``residual_from``: see the module docstring.
    """
    with proven_inputs(project, run_name, pool_version, residual_from=residual_from) as inputs:
        return inputs


def residual_version(project: Project, version: PoolVersion, residual_from: int) -> PoolVersion:
    """The earlier frozen version residual scoring against ``version`` removes, proven; refused (one line) when it
    is a draft, ``version`` itself, or newer than ``version``."""
    if residual_from == version.version:
        raise InputError(
            f"--residual-from {residual_from} is the pool version scored: every judgment would be removed; "
            "name an earlier frozen version",
            path=project.path,
        )
    earlier = project.pools.version(residual_from)
    if not earlier.frozen:
        raise InputError(
            f"--residual-from {residual_from} is a draft; residual scoring removes what a frozen version judged: "
            "freeze it first, or name a frozen version",
            path=project.path,
        )
    if residual_from > version.version:
        raise InputError(
            f"--residual-from {residual_from} is newer than pool version {version.version}, the version scored; "
            "the documents removed come from an earlier round",
            path=project.path,
        )
    return earlier


@contextmanager
def proven_inputs(
    project: Project,
    run_name: str,
    pool_version: int | None = None,
    *,
    residual_from: int | None = None,
    iterations: tuple[str, ...] = (),
) -> Iterator[Inputs]:
    """:func:`load_inputs` for a block that scores them while the last of the proof runs.

    The run is read and proven on a thread with its own connection while SQLite hashes the version's judgments
    here (rule 15; the run's blob read, hash and decoding release the GIL: 0.33 s at 7M lines). The version's
    ratings and adjudications (rule 16: 0.5 s for 766k ratings) are proven on a thread while the block runs
    (numpy, no SQLite); leaving waits for that proof, and a version that fails it is refused there
    (FrozenVersionChanged), whatever the block computed or raised, so nothing scored against it is used.
    ``iterations``: only the version's judgments of those rounds (the qrels' iteration column as read), once the
    whole version is proven.
    """
    version = frozen_version(project, pool_version, check=False)
    earlier = residual_version(project, version, residual_from) if residual_from is not None else None
    with ThreadPoolExecutor(1, thread_name_prefix="load-run") as pool:  # leaving waits for it, even on an error
        loading = pool.submit(_apart, project.runs.load_run, run_name)
        qrels = project.pools.qrels(version.version, team=False, iterations=iterations)  # proves the lines it scores
    run, info = loading.result()
    record = None
    if earlier is not None:  # rule 21: what the earlier round judged leaves the run and the judgments
        left = residual(qrels, run, project.pools.qrels(earlier.version), id_map=info.reading.id_map)  # U proven whole
        qrels, run = left.qrels, left.run
        record = ResidualRecord(
            earlier.version,
            earlier.hash or "",
            left.judgments_removed,
            qrels.n_judgments,
            left.run_documents_removed,
            left.emptied_queries,
            left.run_rows_of_emptied,
        )
    # Not beside the judgments' hash: two such statements at once wait on SQLite's allocator (several times slower).
    with ThreadPoolExecutor(1, thread_name_prefix="prove-team") as pool:
        proof = pool.submit(_apart, project.pools.prove_team, version.version)
        try:
            yield Inputs(version, qrels, run, info, info.reading, record)
        finally:
            failed = proof.exception()  # waits
            if failed is not None:
                raise failed


def _apart(call: Callable[..., _T], *args: object) -> _T:
    """``call(*args)`` on a worker thread, whose own connection to the project is closed afterwards."""
    try:
        return call(*args)
    finally:
        release_thread_connections()


@dataclass(frozen=True)
class CheckedRun:
    """What a run needs decided before it can be scored against one pool version."""

    run_name: str
    pool_version: int
    pool_hash: str
    settings: Measure  # the measure the check counted under, at the report's K (unjudged in the top K)
    report: FlagReport
    residual: ResidualRecord | None = None  # the check was of the residual run and judgments


def check_run(
    project: Project,
    run_name: str,
    pool_version: int | None,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    residual_from: int | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> CheckedRun:
    """Count every flag group of ``run_name`` at ``k`` against a frozen pool version (nothing is refused); with
    ``residual_from``, of what residual scoring leaves (the module docstring)."""
    with proven_inputs(project, run_name, pool_version, residual_from=residual_from) as inputs:
        settings = inputs.settings(base)
        report = inspect(inputs.qrels, inputs.run, settings, k, progress=progress, cancelled=cancelled)
    return CheckedRun(run_name, inputs.version.version, inputs.version.hash or "", settings, report, inputs.residual)


@dataclass
class ScoredRun:
    """One scored run: its evaluation (manifest stamped), and what the breakdown needs to look past K."""

    run_name: str
    version: PoolVersion
    evaluation: Evaluation
    qrels: Qrels
    rankings: FullRankings | None = None
    bounds: pd.DataFrame | None = None  # per query, bounds from unjudged documents (scoring.bounds), if asked
    evaluation_id: int | None = None  # the row recorded in the project, if recorded
    not_recorded: str | None = None  # why recording failed (another program writing, a full disk); scores stand
    residual: ResidualRecord | None = None  # scored residually (rule 21): what was removed first

    @property
    def pool_hash(self) -> str:
        return self.version.hash or ""


def version_to_score(
    project: Project, pool_version: int | None, *, scale: str | None = None, check: bool = True
) -> PoolVersion:
    """The frozen version a score or a comparison is against (the latest when ``pool_version`` is None), proven
    unless ``check`` is False (:func:`score_run` proves it as it reads it). Its scale is the scale: another one
    asked (``scale``, as given: ``"0..4"``) is refused, naming both."""
    version = frozen_version(project, pool_version, check=check)
    if scale and GradeScale.parse(scale) != version.scale:
        raise InputError(f"pool version {version.version} uses the scale {version.scale}, not {scale}")
    return version


@dataclass(frozen=True)
class StoredRunToScore:
    """A stored run and the frozen version it is to be scored against (:func:`stored_run_to_score`)."""

    info: RunInfo
    version: PoolVersion


def stored_run_to_score(
    project: Project,
    run_name: str,
    pool_version: int | None,
    *,
    asked: ReadingAsked = NOTHING_ASKED,
    scale: str | None = None,
) -> StoredRunToScore:
    """The stored run and version ``ndcg score --project`` scores: the reading asked must be the run's own
    (:func:`check_readings`), the scale the version's (:func:`version_to_score`)."""
    check_readings(project, [run_name], asked)
    info = project.runs.run_info(run_name)
    return StoredRunToScore(info, version_to_score(project, pool_version, scale=scale, check=False))


def check_readings(project: Project, run_names: Iterable[str], asked: ReadingAsked) -> None:
    """Import time owns a stored run's reading: an order (``score``, ``rank``, ``file``), tie policy or ID map asked
    of stored runs is accepted when it is each run's own (it changes nothing), else refused naming the first run
    read otherwise and saying to import it again that way. One check for every path that scores stored runs
    (``score``, ``compare`` and the pool studies from ``--project``, ``diff-pools``, the Python API's ``Project``):
    each passes what it was given, None for what was not."""
    if asked == NOTHING_ASKED:
        return  # nothing asked: no run is looked up before it is scored
    named_orders = {kind: name for name, kind in ORDER_CHOICES.items()}
    for name in run_names:
        info = project.runs.run_info(name)
        reading = info.reading
        pairs = (
            ("--order", asked.order, named_orders[reading.order]),
            ("--ties", asked.ties, reading.ties.value),
            ("--id-map", asked.id_map, reading.id_map),
        )
        for option, wanted, stored in pairs:
            if wanted is not None and wanted != stored:
                raise ReadingRefused(info.name, option, stored, wanted)


class ReadingRefused(InputError):
    """Another reading asked of a stored run (:func:`check_readings`): the command line's message names its
    options, the Python API's its keywords (``ties="docid-asc"``, not ``--ties docid-asc``)."""

    def __init__(self, run_name: str, option: str, stored: object, wanted: object) -> None:
        self.python = _refusal(
            run_name, stored, wanted, lambda value: _shown(option, value, keyword=True), "another name"
        )
        super().__init__(_refusal(run_name, stored, wanted, lambda value: _shown(option, value), "another --name"))

    def worded(self, front: str) -> str:
        return terminal_safe(self.python) if front == "python" else super().worded(front)  # as located() is


def _refusal(run_name: str, stored: object, wanted: object, shown: Callable[[object], str], name: str) -> str:
    """``run x was imported without an ID map; import it again under another --name with --id-map '#' ...``: its
    own name is taken, so the run comes in again under another (``name``: how the front says so)."""
    imported = "without an ID map" if stored is None else f"with {shown(stored)}"
    again = f"import it again under {name} with {shown(wanted)} to score it that way"
    return f"run {run_name} was imported {imported}; {again}"


def _shown(option: str, value: object, *, keyword: bool = False) -> str:
    """An option as it is typed in a shell: ``--ties docid-asc``, ``--id-map '#'`` (unquoted, ``#`` starts a
    comment), ``--id-map-file chunks.jsonl (sha256 …)``; as a keyword: ``ties="docid-asc"``,
    ``id_map_file="chunks.jsonl" (sha256 …)``."""
    if isinstance(value, ChunkMap):
        if keyword:
            return f'id_map_file="{value.source}"{value.label().removeprefix(value.source)}'
        return f"--id-map-file {value.label(quote=shlex.quote)}"
    if keyword:
        return f'{option.removeprefix("--").replace("-", "_")}="{value}"'
    return f"{option} {shlex.quote(str(value))}"


def stamp(
    evaluation: Evaluation,
    project: Project,
    version: PoolVersion,
    run_name: str | None,
    residual_record: ResidualRecord | None = None,
) -> None:
    """Rule 13 for a stored run: the manifest names the project, the pool version, its hash and the run.

    And the grading guidelines the version was judged under (their SHA-256, recorded when it was frozen; null
    if the project had none then); scored residually (rule 21), the manifest's ``residual`` says from which
    version and what was removed. ``run_name`` None: a run not stored in the project keeps its own name.
    """
    evaluation.manifest["judgments"].update(version_record(project, version))
    if run_name is not None:
        evaluation.manifest["run"]["name"] = run_name
    if residual_record is not None:
        evaluation.manifest["residual"] = residual_record.as_manifest()


def version_record(project: Project, version: PoolVersion) -> dict[str, object]:
    """What a manifest's judgments say of a frozen version (rules 13, 16, 20): the project, the version, its
    hash, its guidelines' SHA-256, who graded it and how it was settled, how it was pooled."""
    from ndcg_desktop.tasks.pool_builds import pooling_record  # (imports the pooling strategies only here)

    record: dict[str, object] = {
        "path": str(project.path),
        "pool_version": version.version,
        "pool_hash": version.hash,
        "guidelines_sha256": version.guidelines_sha256,
    }
    record.update(team_manifest(project, version))  # rule 16: who graded, how settled
    record["pooling"] = pooling_record(project, version.version, order=False)  # rule 20
    return record


def score_given_run(
    project: Project, run: Run, pool_version: int | None, base: EvalSettings, terms: DataTerms, ks: Cutoffs
) -> dict[int, Evaluation]:
    """Score a run that is not stored in the project (a notebook's DataFrame, already read and checked) against a
    frozen version (the latest when None) at every K of ``ks``, the version proven as it is read (rules 15, 16);
    the caller read the run (``terms``: its tie policy and ID map), the version's scale is the scale, and each
    manifest names the version as a stored run's does (:func:`stamp`). Nothing is recorded."""
    version = frozen_version(project, pool_version, check=False)
    qrels = project.pools.qrels(version.version)  # proves the judgments and the team
    evaluations = evaluate_cutoffs(qrels, run, base.under(terms.with_scale(version.scale)), ks)
    for evaluation in evaluations.values():
        stamp(evaluation, project, version, None)
    return evaluations


def score_inputs(
    project: Project,
    inputs: Inputs,
    base: EvalSettings,
    k: int,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Evaluation:
    """Score loaded inputs at ``k`` (not recorded), the manifest stamped as :func:`score_run_at` stamps it.

    ``inputs.qrels`` may be other grades for the same pool version (one annotator's, see
    ``tasks.agreement``); the run's reading and the version's scale still come from ``inputs``.
    """
    evaluation = evaluate(inputs.qrels, inputs.run, inputs.settings(base), k, progress=progress, cancelled=cancelled)
    stamp(evaluation, project, inputs.version, inputs.info.name, inputs.residual)
    return evaluation


def score_run(
    project: Project,
    run_name: str,
    pool_version: int | None,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    record: bool = True,
    rankings: bool = False,
    bounds: bool = False,
    residual_from: int | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    iterations: tuple[str, ...] = (),
) -> ScoredRun:
    """Score a stored run against a frozen pool version and (by default) record it in the project.

    ``base`` carries the caller's choices (gain, each flag group's policy), ``k`` the cutoff; the run's reading
    and the pool's scale come from the project. A refused flag group raises :class:`InputError`.
    A read-only project is scored but not recorded; so is one whose write fails (another program
    holding the write lock, a full disk): the scores stand and ``not_recorded`` says why.
    ``bounds`` adds the bounds from unjudged documents (:func:`~ndcg_desktop.scoring.bounds.unjudged_bounds`;
    under *condense* they come from a second scoring under *zero*, which reads the run as returned).
    ``residual_from``: score residually against that earlier frozen version (the module docstring).
    ``iterations``: against only the version's judgments of those rounds (``--iteration``; the manifest lists them).

    >>> # ndcg score --project p.ndcgproj --run-name bm25 --unjudged zero is, in code:
    >>> # score_run(Project.open(p), "bm25", None, EvalSettings(unjudged="zero"), 10)
    >>> # and with --pool-version 3 --residual-from 2: score_run(project, "bm25", 3, settings, 10, residual_from=2)
    """
    scored = score_run_at(
        project, run_name, pool_version, base, Cutoffs((k,)), rankings=rankings, bounds=bounds,
        residual_from=residual_from, progress=progress, cancelled=cancelled, iterations=iterations,
    )[k]  # fmt: skip
    if record:
        record_score(project, scored)
    return scored


def record_score(project: Project, scored: ScoredRun) -> ScoredRun:
    """Record a scored run in its project (``evaluation_id``), unless the project is read-only; a write that
    fails (another program holding the write lock, a full disk) leaves ``not_recorded`` saying why."""
    evaluation = scored.evaluation
    if not project.read_only:
        try:
            scored.evaluation_id = project.runs.save_evaluation(
                scored.run_name, scored.version.version, evaluation.settings.to_text(evaluation.k), evaluation.manifest
            )
        except StorageProblem as exc:  # only the record failed, and nothing of it was written
            scored.not_recorded = str(exc)
    return scored


def score_run_at(
    project: Project,
    run_name: str,
    pool_version: int | None,
    base: EvalSettings,
    ks: Cutoffs,
    *,
    rankings: bool = False,
    bounds: bool = False,
    residual_from: int | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    iterations: tuple[str, ...] = (),
) -> dict[int, ScoredRun]:
    """:func:`score_run` (not recorded) at every K of ``ks``, each the same as its own call.

    The run is loaded, verified and ordered once for all of them
    (:func:`~ndcg_desktop.scoring.ndcg.evaluate_cutoffs`); ``rankings`` gives every K the run's one whole
    ranking, read at the first K. Used by ``ndcg compare --project`` and the window's Runs view alike.
    """
    with proven_inputs(project, run_name, pool_version, residual_from=residual_from, iterations=iterations) as inputs:
        settings = inputs.settings(base)
        evaluations, bounded = evaluate_with_bounds(
            inputs.qrels, inputs.run, settings, ks, bounds=bounds, progress=progress, cancelled=cancelled
        )
        whole = FullRankings.of(inputs.run, settings) if rankings else None
    scored: dict[int, ScoredRun] = {}
    for k in ks:
        stamp(evaluations[k], project, inputs.version, inputs.info.name, inputs.residual)
        if iterations:  # a round of the version, not the whole: said beside its hash
            evaluations[k].manifest["judgments"]["iterations"] = list(iterations)
        scored[k] = ScoredRun(
            inputs.info.name, inputs.version, evaluations[k], inputs.qrels, rankings=whole, residual=inputs.residual
        )
        if bounded is not None:
            scored[k].bounds = bounded[k]
    return scored


def evaluate_with_bounds(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    ks: Cutoffs,
    *,
    bounds: bool = True,
    top_grade: int | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> tuple[dict[int, Evaluation], dict[int, pd.DataFrame] | None]:
    """``run`` scored at every K of ``ks`` from one ordering of it and, with ``bounds``, each K's bounds from
    unjudged documents (:func:`~ndcg_desktop.scoring.bounds.unjudged_bounds`; ``top_grade`` as it takes it).

    Under *condense* the bounds come from a second scoring under *zero*: they read the run as returned.
    """
    evaluations = evaluate_cutoffs(qrels, run, settings, ks, progress=progress, cancelled=cancelled)
    if not bounds:
        return evaluations, None
    as_zero = evaluations
    if settings.policies.unjudged is UnjudgedPolicy.CONDENSE:
        as_zero = evaluate_cutoffs(qrels, run, settings.with_(unjudged=UnjudgedPolicy.ZERO), ks, cancelled=cancelled)
    return evaluations, {k: unjudged_bounds(as_zero[k], qrels, top_grade=top_grade) for k in ks}


@dataclass
class ScoreResult:
    """A scored run, and when comparing, the other run and the per-query comparison."""

    first: ScoredRun
    second: ScoredRun | None = None
    comparison: pd.DataFrame | None = None
    counts: dict[str, int] = field(default_factory=dict)
