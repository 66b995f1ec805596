"""ndcg-desktop from Python (a notebook): score and compare runs, read a project. The third front over ``tasks``.

Runs and judgments are file paths, pandas DataFrames, with our column names (``query_id, doc_id, score`` /
``query_id, doc_id, relevance``) or PyTerrier's (``qid, docno, score`` / ``qid, docno, label``), or ranx's dicts
of dicts (``{query: {doc: score}}`` / ``{query: {doc: grade}}``); a DataFrame or a dict is checked cell by cell as
a file is. The evaluation choices are keywords named as in ``EvalSettings`` (``unjudged="zero"``), from the one
table of choices (:mod:`ndcg_desktop.domain.choices`); they refuse to guess exactly as the command line does: a
refusal raises :class:`Refused`, a ``ValueError`` whose message is the line ``ndcg`` prints after ``error:``, its
advice worded in this API's keywords (``choose unjudged="zero" or unjudged="condense"``) rather than the command
line's options.

``k`` is one cut-off (``k=10``) or several (``k=[5, 10]``, ``"5,10"``); with several, a score's ``means`` maps each
K to its mean and its ``per_query`` has a ``k`` column.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ndcg_desktop.domain import Cutoffs, DataTerms, EvalSettings, GradeScale, InputError
from ndcg_desktop.domain.choices import BY_NAME, CHOICES, DEFAULT_K
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.reading import ReadingAsked
from ndcg_desktop.formats.choices import ORDER_CHOICES
from ndcg_desktop.tasks.files import Judgments, Ranking, read_ranking, score_files_at

# Scoring files loads no pandas, scipy or project store (issue 37: tests/test_lean_imports.py): what else this
# front offers (DataFrames, dicts, comparisons, projects) is imported where it is used.
if TYPE_CHECKING:
    import pandas as pd

    from ndcg_desktop.scoring import Evaluation
    from ndcg_desktop.scoring.stats import StatsSettings
    from ndcg_desktop.tasks.browse import FrozenJudgments, ProjectReader
    from ndcg_desktop.tasks.comparing import RunsComparison

__all__ = ["Compared", "Project", "Refused", "Scored", "choices", "compare", "open_project", "score"]

Input: TypeAlias = "str | os.PathLike[str] | pd.DataFrame | Mapping[str, Mapping[str, float]]"
CutoffsAsked: TypeAlias = "int | Sequence[int] | str"


class Refused(ValueError):
    """What the command line refuses (exit 2): ``str(error)`` is its message, its advice in this API's keywords
    (``unjudged="zero"``, not ``--unjudged zero``); ``path`` and ``line`` locate it."""

    def __init__(self, error: InputError) -> None:
        super().__init__(error.worded("python"))
        self.path = error.path
        self.line = error.line


@contextmanager
def _refusals() -> Iterator[None]:
    try:
        yield
    except InputError as exc:
        frames = sys.modules.get("ndcg_desktop.formats.frames")  # not loaded: no dict was read
        dicts = (frames.RUN_DICT, frames.QRELS_DICT) if frames is not None else ()
        if exc.path in dicts and exc.line is not None:  # a dict has no lines: its refusals name
            exc = InputError(exc.message, path=exc.path, hint=exc.hint)  # the query and the document instead
        raise Refused(exc) from None  # the message says it all: no chain of the library's frames


@dataclass(frozen=True)
class Scored:
    """One run scored at one K or several: ``means`` maps each K to its mean, ``per_query`` (indexed by query ID,
    in natural order: q2 before q10) holds the JSON's per-query values, with a ``k`` column when ``k`` was a list.

    At one K, ``mean`` is the headline and ``summary`` and ``manifest`` are the JSON's (as ``ndcg score --json``
    prints them); at several, ``mean`` is refused as ambiguous and ``summary`` and ``manifest`` map each K to its own.
    """

    means: dict[int, float]
    summary: dict[Any, Any] = field(repr=False)
    manifest: dict[Any, Any] = field(repr=False)
    settings: str = ""  # the settings line: EvalSettings.to_text(k), every K named
    _evaluations: tuple[Evaluation, ...] = field(default=(), repr=False, compare=False)
    _several: bool = field(default=False, repr=False, compare=False)
    _table: list[pd.DataFrame] = field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def per_query(self) -> pd.DataFrame:
        """One row per query (and K, with several), indexed by query ID, in natural order; a pandas DataFrame made
        on first use (scoring itself loads no pandas), the same object at every use."""
        if not self._table:
            self._table.append(_per_query(self._evaluations, self._several))
        return self._table[0]

    @property
    def mean(self) -> float:
        """The mean at the one K scored; refused (:class:`Refused`) when several were: read ``means[k]``."""
        if len(self.means) == 1:
            return next(iter(self.means.values()))
        ks = list(self.means)
        raise Refused(
            InputError(
                f"mean is ambiguous: scored at {len(ks)} cut-offs (k={ks}); read "
                + " or ".join(f"means[{k}]" for k in ks)
            )
        )


@dataclass(frozen=True)
class Compared:
    """Runs compared: the ``runs`` and ``pairs`` tables (long form, a row per run or pair and K), ``per_query``
    (run, k, query_id, ...) and the ``manifest``, as ``ndcg compare --json`` and ``--export`` give them."""

    runs: pd.DataFrame = field(repr=False)
    pairs: pd.DataFrame = field(repr=False)
    per_query: pd.DataFrame = field(repr=False)
    manifest: dict[str, Any] = field(repr=False)
    settings_line: str = ""


def score(
    run: Input,
    qrels: Input,
    *,
    k: CutoffsAsked = DEFAULT_K,
    scale: str | GradeScale | None = None,
    id_map: str | None = None,
    id_map_file: str | os.PathLike[str] | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: str | None = None,
    **choices: str,
) -> Scored:
    """Score ``run`` against ``qrels`` at ``k`` (one K or several), as ``ndcg score --json`` does.

    ``choices``: ``gain``, ``unjudged``, ``duplicates``, ``zero_idcg``, ``queries``, ``unknown_queries``, ``ties``.
    ``scale``: the grades' scale, 0..3 unless given; judgments read from a project (``Project.judgments``) are on
    their version's scale, and the manifest names that version while they are unchanged.
    """
    with _refusals():
        _expect_text(qrels_format=qrels_format, run_format=run_format, order=order)
        ks, several = _cutoffs(k)
        frozen = _frozen(qrels, scale)
        grades = frozen.scale if frozen is not None else scale
        policies, terms = _settings(grades, choices, id_map, id_map_file, score)
        ordered = _order(order)
        judgments = frozen.qrels if frozen is not None else _judgments(qrels, terms.scale)
        evaluations = score_files_at(
            judgments,
            _ranking(run, ordered),
            policies.under(terms),
            ks,
            qrels_format=qrels_format,
            run_format=run_format,
            order=ordered,
        )
        if frozen is not None:
            for evaluation in evaluations.values():
                evaluation.manifest["judgments"].update(frozen.record)
    return _scored([evaluations[k] for k in ks], several)


def compare(
    runs: Mapping[str, Input] | Sequence[Input],
    qrels: Input,
    *,
    k: CutoffsAsked = DEFAULT_K,
    baseline: str | None = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: int = 0,
    ci: str = "bca",
    detect: float = 0.02,
    scale: str | GradeScale | None = None,
    id_map: str | None = None,
    id_map_file: str | os.PathLike[str] | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: str | None = None,
    **choices: str,
) -> Compared:
    """Compare ``runs`` (name -> run, or run files named after the file) as ``ndcg compare --json`` does.

    ``k`` is one cut-off, several, or ``"5,10,20"``; the statistics' keywords are the options of ``ndcg compare``.
    Without ``scale`` the grades are read on 0..3 and the upper bound gives an unjudged document the highest
    grade in the judgments, as ``ndcg compare`` without ``--scale`` does.
    """
    from ndcg_desktop.tasks.comparing import compare_files

    with _refusals():
        _expect_text(baseline=baseline, qrels_format=qrels_format, run_format=run_format, order=order)
        ks, _several = _cutoffs(k)
        frozen = _frozen(qrels, scale)
        grades = frozen.scale if frozen is not None else scale
        policies, terms = _settings(grades, choices, id_map, id_map_file, compare)
        stats = _stats(test, correction, alpha, resamples, seed, ci, detect)
        ordered = _order(order)
        names: list[str] | None = None
        if isinstance(runs, Mapping):
            bad = next((name for name in runs if not isinstance(name, str)), None)
            if bad is not None:
                raise InputError(f"run names are strings, not {type(bad).__name__} ({bad!r})")
            names, given = list(runs), list(runs.values())
        elif isinstance(runs, str | os.PathLike) or _is_frame(runs) or not isinstance(runs, Sequence):
            raise InputError(f"give the runs as a list of files or a dict of name -> run, not {_kind(runs)}")
        else:
            given = list(runs)
            if any(_is_frame(run) or isinstance(run, Mapping) for run in given):
                raise InputError("name each DataFrame or dict run: give a dict of name -> run")
        labels = [f"runs[{name!r}]" for name in names] if names else [f"runs[{i}]" for i in range(len(given))]
        result = compare_files(
            frozen.qrels if frozen is not None else _judgments(qrels, terms.scale),
            [_ranking(run, ordered, label) for label, run in zip(labels, given, strict=True)],
            ks,
            policies.under(terms),
            stats,
            baseline=baseline,
            qrels_format=qrels_format,
            run_format=run_format,
            order=ordered,
            names=names,
            top_grade=terms.scale.high if grades is not None else None,  # a version's: its scale's top
        )
        if frozen is not None:
            for evaluation in (e for at in result.evaluations.values() for e in at.values()):
                evaluation.manifest["judgments"].update(frozen.record)
            judged = result.manifest["judgments"]  # the first evaluation's (updated above), unless copied
            if isinstance(judged, dict):
                judged.update(frozen.record)
    return _compared(result)


class Project:
    """A project opened read-only (:func:`open_project`): its versions, judgments, runs and agreement as tables."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        from ndcg_desktop.tasks.browse import ProjectReader

        with _refusals():
            if not isinstance(path, str | os.PathLike):
                raise InputError(f"a project is a file path, not {_kind(path)}")
            _expect_path(path=path)
            self._reader: ProjectReader = ProjectReader(Path(path))

    def close(self) -> None:
        self._reader.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def versions(self) -> pd.DataFrame:
        """Every pool version, oldest first (``state``: draft or frozen), with its scale, authors and hash."""
        with _refusals():
            return self._reader.versions()

    def judgments(self, version: int | None = None) -> pd.DataFrame:
        """A frozen version's judgments (the latest by default): ``query_id, doc_id, grade``, proven unchanged.

        Given back to :func:`score` as ``qrels`` while unchanged, they are scored on the version's scale and the
        manifest names the version (``pool_version``, ``pool_hash``), as ``Project.score`` does."""
        with _refusals():
            _expect_version(version)
            return self._reader.judgments(version)

    def runs(self) -> pd.DataFrame:
        """The stored runs: name, source file, SHA-256, format, reading, rows, queries, import time."""
        with _refusals():
            return self._reader.runs()

    def run(self, name: str) -> pd.DataFrame:
        """A stored run's rows: ``query_id, doc_id`` and its ``score`` and/or ``rank``, proven unchanged."""
        with _refusals():
            _expect_name(name)
            return self._reader.run(name)

    def score(
        self,
        run: str | Input,
        *,
        version: int | None = None,
        k: CutoffsAsked = DEFAULT_K,
        order: str | None = None,
        id_map: str | None = None,
        id_map_file: str | os.PathLike[str] | None = None,
        residual_from: int | None = None,
        **choices: str,
    ) -> Scored:
        """Score a run against a frozen version (the latest by default), as ``ndcg score --project --json`` does
        (nothing recorded); the manifest names the version (``pool_version``, ``pool_hash``).

        ``run``: a stored run's name (it keeps the reading it was imported with: an ``order``, ``ties``, ``id_map``
        or ``id_map_file`` other than its own is refused), or a run not stored (a DataFrame, a dict of dicts, a
        file given as a ``pathlib.Path``), read as :func:`score` reads it. The scale is the version's.
        ``residual_from`` (``--residual-from``, a stored run only) scores residually: every document judged in
        that earlier frozen version is removed, per query, from the run and from the judgments first; the
        manifest's ``residual`` says what was removed."""
        with _refusals():
            _expect_version(version)
            _expect_residual(residual_from)
            _expect_text(order=order)
            ks, several = _cutoffs(k)
            # a given run's reading (a stored run's is checked against its own); the version's scale
            settings, terms = _settings(None, choices, id_map, id_map_file, Project.score)
            if isinstance(run, str):
                _order(order)  # one of the orders' names, as for a file
                evaluations = self._reader.score_at(
                    run,
                    version,
                    settings,
                    ks,
                    residual_from=residual_from,
                    asked=_reading_asked(order, choices, terms),
                )
            else:
                if not (_is_frame(run) or isinstance(run, Mapping | os.PathLike)):
                    raise InputError(
                        "a run is a stored run's name, a pandas DataFrame, a dict of query -> {document: score} "
                        f"or a pathlib.Path, not {_kind(run)}"
                    )
                if residual_from is not None:
                    raise InputError("residual_from scores a run stored in the project, not a run given as data")
                ranking = _ranking(run, _order(order))
                evaluations = self._reader.score_given(read_ranking(ranking), version, settings, terms, ks)
        return _scored(evaluations, several)

    def compare(
        self,
        run_names: Sequence[str],
        *,
        version: int | None = None,
        k: CutoffsAsked = DEFAULT_K,
        baseline: str | None = None,
        test: str = "t",
        correction: str = "holm",
        alpha: float = 0.05,
        resamples: int = 10_000,
        seed: int = 0,
        ci: str = "bca",
        detect: float = 0.02,
        scale: str | None = None,
        residual_from: int | None = None,
        order: str | None = None,
        id_map: str | None = None,
        id_map_file: str | os.PathLike[str] | None = None,
        **choices: str,
    ) -> Compared:
        """Compare stored runs against a frozen version (the latest by default), as ``ndcg compare --project
        --json`` does: the same tables and manifest. Each run keeps the reading it was imported with (an
        ``order``, ``ties``, ``id_map`` or ``id_map_file`` other than a run's own is refused, naming it); the scale
        is the version's (another ``scale`` is refused); ``residual_from`` as ``--residual-from``."""
        with _refusals():
            _expect_version(version)
            _expect_residual(residual_from)
            _expect_text(baseline=baseline, scale=scale, order=order)
            if isinstance(run_names, str) or not isinstance(run_names, Sequence):
                raise InputError(f"run_names is a list of stored runs' names, not {_kind(run_names)}")
            for name in run_names:
                _expect_name(name)
            ks, _several = _cutoffs(k)
            settings, terms = _settings(None, choices, id_map, id_map_file, Project.compare)  # the version: scale
            _order(order)
            stats = _stats(test, correction, alpha, resamples, seed, ci, detect)
            result = self._reader.compare(
                list(run_names),
                version,
                ks,
                settings,
                stats,
                baseline=baseline,
                scale=scale,
                residual_from=residual_from,
                asked=_reading_asked(order, choices, terms),
            )
        return _compared(result)

    def agreement(self, version: int | None = None, *, k: int = DEFAULT_K, **choices: str) -> dict[str, Any]:
        """The annotators' agreement on a version (the draft, else the latest frozen), as ``ndcg agreement
        --export`` writes it: one table per file name without ``.csv`` (``agreement``, ``pairs``, ``confusion``,
        ``leniency``, ``systems_means``, ...) and the ``manifest``."""
        from ndcg_desktop.tasks.agreement import agreement_tables

        with _refusals():
            _expect_version(version)
            ks, several = _cutoffs(k)
            if several:
                raise InputError("agreement takes one cut-off k")
            result = self._reader.agreement(
                version, _settings(None, choices, None, None, Project.agreement)[0], ks[0]
            )  # the policies
            tables: dict[str, Any] = {name.removesuffix(".csv"): t for name, t in agreement_tables(result).items()}
        return tables | {"manifest": result.manifest()}


def choices() -> pd.DataFrame:
    """The evaluation choices ``score`` and ``compare`` take as keywords: each one's values, its default (whether
    that default refuses the input until a policy is chosen), the command line's option and what it decides."""
    import pandas as pd

    rows = [
        {
            "name": choice.name,
            "values": list(choice.values),
            "default": choice.default.value,
            "refuses": choice.refuses,
            "option": choice.option,
            "description": choice.description,
        }
        for choice in CHOICES
    ]
    return pd.DataFrame(rows).set_index("name")


def open_project(path: str | os.PathLike[str]) -> Project:
    """Open a project file read-only (use ``with``, or ``close()``); nothing is ever written to it."""
    return Project(path)


def _kind(value: object) -> str:
    """A value's type as a refusal names it: ``DataFrame``, ``list``, ``None``."""
    return "None" if value is None else type(value).__name__


def _expect_text(**given: object) -> None:
    """Each keyword a string or None, else refused naming it (a DataFrame in the wrong place, say)."""
    for name, value in given.items():
        if value is not None and not isinstance(value, str):
            raise InputError(f"{name} must be a string, not {_kind(value)}")


def _expect_path(**given: object) -> None:
    """An empty text names no file: refused naming the argument, not as the folder it would open."""
    for name, value in given.items():
        if isinstance(value, str) and not value:
            raise InputError(f"{name} is an empty path, not a file")


def _keywords(function: Callable[..., Any]) -> list[str]:
    """The keywords ``function`` names (its ``**choices`` aside)."""
    import inspect

    named = inspect.signature(function).parameters.values()
    return [p.name for p in named if p.name != "self" and p.kind is not inspect.Parameter.VAR_KEYWORD]


def _expect_name(name: object) -> None:
    if not isinstance(name, str):
        raise InputError(f"a stored run is named by a string, not {_kind(name)}")


def _expect_version(version: object) -> None:
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError(
            f"version must be a pool version's number (an int) or None for the latest, not {_kind(version)}"
        )


def _expect_residual(residual_from: object) -> None:
    if residual_from is not None and (isinstance(residual_from, bool) or not isinstance(residual_from, int)):
        raise InputError(
            f"residual_from must be a frozen pool version's number (an int) or None, not {_kind(residual_from)}"
        )


def _cutoffs(k: object) -> tuple[Cutoffs, bool]:
    """The cut-offs asked, checked once here as the command line's ``--k`` is (whole, positive, each once), and
    whether several were asked for (a list or a text, even of one K: the result has a ``k`` column)."""
    if isinstance(k, int) and not isinstance(k, bool):
        return Cutoffs((k,)), False
    if isinstance(k, str):
        return Cutoffs.parse(k, option="k"), True
    if isinstance(k, Sequence) and k and all(isinstance(x, int) and not isinstance(x, bool) for x in k):
        return Cutoffs.parse(",".join(map(str, k)), option="k"), True  # a list's refusal words it as the text
    raise InputError(
        f'k must be a cut-off (10), a list of them ([5, 10]) or a text ("5,10"), not {_kind(k)} {k!r}'[:200]
    )


def _settings(
    scale: str | GradeScale | None,
    choices: dict[str, str],
    id_map: str | None,
    id_map_file: Any,
    of: Callable[..., Any],
) -> tuple[EvalSettings, DataTerms]:
    """The policies ``choices`` name, and what the data owns as read from files: the scale (None: the default),
    the tie policy (``choices``' ``ties``) and the ID map; each checked once, in the order the options were.
    ``of`` is the function called: an unknown keyword is refused with every keyword it takes."""
    unknown = [name for name in choices if name not in BY_NAME]
    if unknown:
        raise InputError(
            f"unknown choice {unknown[0]!r}; the choices are {', '.join(BY_NAME)}; "
            f"{of.__name__} also takes {', '.join(_keywords(of))}"
        )
    for name, value in choices.items():
        if not isinstance(value, str):
            values = "|".join(BY_NAME[name].values)
            raise InputError(f"{name} must be one of {values}, not {_kind(value)}")
    _expect_text(id_map=id_map)
    if id_map_file is not None and not isinstance(id_map_file, str | os.PathLike):
        raise InputError(f"id_map_file must be a file path, not {_kind(id_map_file)}")
    _expect_path(id_map_file=id_map_file)
    if id_map is not None and id_map_file is not None:
        raise InputError("give id_map (a separator) or id_map_file, not both")
    mapping: IdMap | None = id_map
    if id_map_file is not None:
        from ndcg_desktop.formats.chunk_map import read_chunk_map

        mapping = read_chunk_map(os.fspath(id_map_file))
    if scale is not None and not isinstance(scale, str | GradeScale):
        raise InputError(f'scale must be a text such as "{GradeScale()}", not {_kind(scale)}')
    grades = scale if isinstance(scale, GradeScale) else GradeScale.parse(scale) if scale is not None else GradeScale()
    DataTerms(grades, id_map=mapping)  # the ID map is checked before any choice, as it always was
    policies = EvalSettings(**{name: value for name, value in choices.items() if name != "ties"})  # type: ignore[arg-type]
    return policies, DataTerms(grades, choices.get("ties", BY_NAME["ties"].default), mapping)  # type: ignore[arg-type]


def _stats(
    test: str, correction: str, alpha: float, resamples: int, seed: int, ci: str, detect: float
) -> StatsSettings:
    from ndcg_desktop.scoring.stats import StatsSettings

    _expect_text(test=test, correction=correction, ci=ci)
    for name, value in (("alpha", alpha), ("detect", detect), ("resamples", resamples), ("seed", seed)):
        whole = name in ("resamples", "seed")
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            raise InputError(f"{name} must be {'a whole number' if whole else 'a number'}, not {_kind(value)}")
    try:
        return StatsSettings(
            test=test,  # type: ignore[arg-type]  # validated (InputError) by StatsSettings
            correction=correction,  # type: ignore[arg-type]
            alpha=alpha,
            resamples=resamples,
            seed=seed,
            ci_method=ci,  # type: ignore[arg-type]
            detect=detect,
        )
    except InputError as exc:  # the settings name their field ci_method; the caller's keyword is ci
        if exc.message.startswith("ci_method "):
            raise InputError("ci " + exc.message.removeprefix("ci_method ")) from None
        raise


def _reading_asked(order: str | None, choices: dict[str, str], terms: DataTerms) -> ReadingAsked:
    """What was asked of a stored run's reading, None for what was not: the task refuses another than its own."""
    return ReadingAsked(order, choices.get("ties"), terms.id_map)


def _order(order: str | None) -> Any:
    if order is not None and order not in ORDER_CHOICES:
        raise InputError(f"order must be one of {'|'.join(ORDER_CHOICES)}, not {order!r}")
    return ORDER_CHOICES.get(order or "")


def _is_frame(value: object) -> bool:
    """Whether ``value`` is a pandas DataFrame (without importing pandas: then it cannot be one)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


def _frozen(qrels: object, scale: str | GradeScale | None) -> FrozenJudgments | None:
    """A frozen version's judgments as ``Project.judgments`` gave them, still unchanged; else None."""
    if not _is_frame(qrels):
        return None
    from ndcg_desktop.tasks.browse import frozen_judgments

    if scale is not None and not isinstance(scale, str | GradeScale):
        raise InputError(f'scale must be a text such as "{GradeScale()}", not {_kind(scale)}')
    asked = scale if isinstance(scale, GradeScale) or scale is None else GradeScale.parse(scale)
    return frozen_judgments(qrels, asked)


def _judgments(qrels: object, scale: GradeScale) -> Judgments:
    if _is_frame(qrels):
        from ndcg_desktop.formats.frames import qrels_from_frame

        return qrels_from_frame(qrels, scale=scale)
    if isinstance(qrels, Mapping):
        from ndcg_desktop.formats.frames import qrels_from_mapping

        return qrels_from_mapping(qrels, scale=scale)
    if isinstance(qrels, str | os.PathLike):
        _expect_path(qrels=qrels)
        return os.fspath(qrels)
    raise InputError(
        "judgments must be a file path, a pandas DataFrame or a dict of query -> {document: grade}, "
        f"not {_kind(qrels)}"
    )


def _ranking(run: object, order: Any, name: str = "run") -> Ranking:
    if _is_frame(run):
        from ndcg_desktop.formats.frames import run_from_frame

        return run_from_frame(run, order=order)
    if isinstance(run, Mapping):
        if order is not None:
            raise InputError("a dict run is ordered by its scores; order is for files and DataFrames")
        from ndcg_desktop.formats.frames import run_from_mapping

        return run_from_mapping(run)
    if isinstance(run, str | os.PathLike):
        _expect_path(**{name: run})
        return os.fspath(run)
    raise InputError(
        f"a run must be a file path, a pandas DataFrame or a dict of query -> {{document: score}}, not {_kind(run)}"
    )


def _scored(evaluations: list[Evaluation], several: bool) -> Scored:
    """One score per K, as :class:`Scored` gives them (its per-query table is built on first use)."""
    ks = [evaluation.k for evaluation in evaluations]
    means = {k: float(evaluation.summary["mean_ndcg"]) for k, evaluation in zip(ks, evaluations, strict=True)}
    if not several:
        only = evaluations[0]
        return Scored(means, only.summary, only.manifest, only.settings.to_text(only.k), (only,), False)
    settings = f"nDCG@{','.join(map(str, ks))}({evaluations[0].settings.spec()})"
    summaries = {k: evaluation.summary for k, evaluation in zip(ks, evaluations, strict=True)}
    manifests = {k: evaluation.manifest for k, evaluation in zip(ks, evaluations, strict=True)}
    return Scored(means, summaries, manifests, settings, tuple(evaluations), True)


def _per_query(evaluations: Sequence[Evaluation], several: bool) -> pd.DataFrame:
    """The per-query rows of each K in natural order (the exports' order), with a ``k`` column when several."""
    import pandas as pd

    from ndcg_desktop.formats.export import in_natural_order

    tables = [in_natural_order(evaluation.per_query) for evaluation in evaluations]
    if not several:
        return tables[0].set_index("query_id")
    ks = [evaluation.k for evaluation in evaluations]
    frames = [table.assign(k=k)[["k", *table.columns]] for k, table in zip(ks, tables, strict=True)]
    return pd.concat(frames, ignore_index=True).set_index("query_id")


def _compared(result: RunsComparison) -> Compared:
    return Compared(result.runs, result.pairs, result.per_query, result.manifest, result.settings_line())
