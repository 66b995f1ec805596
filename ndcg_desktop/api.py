"""ndcg-desktop from Python (a notebook): score and compare runs, read a project. The third front over ``tasks``.

Runs and judgments are file paths or pandas DataFrames, with our column names (``query_id, doc_id, score`` /
``query_id, doc_id, relevance``) or PyTerrier's (``qid, docno, score`` / ``qid, docno, label``); a DataFrame is
checked cell by cell as a file is. The evaluation choices are keywords named as in ``EvalSettings`` and in the
command line's options (``unjudged="zero"`` is ``--unjudged zero``), from the one table of choices
(:mod:`ndcg_desktop.domain.choices`); they refuse to guess exactly as the command line does: a refusal raises
:class:`Refused`, a ``ValueError`` whose message is the line ``ndcg`` prints after ``error:``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ndcg_desktop.domain import EvalSettings, GradeScale, InputError
from ndcg_desktop.domain.choices import BY_NAME, CHOICES
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.formats.choices import ORDER_CHOICES
from ndcg_desktop.tasks.files import Judgments, Ranking, score_files

# Scoring files loads no pandas, scipy or project store (issue 37: tests/test_lean_imports.py): what else this
# front offers (DataFrames, comparisons, projects) is imported where it is used.
if TYPE_CHECKING:
    import pandas as pd

    from ndcg_desktop.scoring import Evaluation
    from ndcg_desktop.tasks.browse import ProjectReader

__all__ = ["Compared", "Project", "Refused", "Scored", "choices", "compare", "open_project", "score"]

Input: TypeAlias = "str | os.PathLike[str] | pd.DataFrame"


class Refused(ValueError):
    """What the command line refuses (exit 2): ``str(error)`` is its message; ``path`` and ``line`` locate it."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.path = error.path
        self.line = error.line


@contextmanager
def _refusals() -> Iterator[None]:
    try:
        yield
    except InputError as exc:
        raise Refused(exc) from None  # the message says it all: no chain of the library's frames


@dataclass(frozen=True)
class Scored:
    """One run scored: ``mean`` (the headline), ``per_query`` (indexed by query ID, the JSON's per-query values),
    ``summary`` and ``manifest`` (the JSON's, as ``ndcg score --json`` prints them).

    ``per_query`` is a pandas DataFrame made on first use: scoring itself loads no pandas."""

    mean: float
    _evaluation: Evaluation = field(repr=False, compare=False)
    summary: dict[str, Any] = field(repr=False)
    manifest: dict[str, Any] = field(repr=False)
    settings: str = ""  # the settings line: EvalSettings.to_text()
    _table: list[pd.DataFrame] = field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def per_query(self) -> pd.DataFrame:
        """One row per query in the evaluation, indexed by query ID (the same object at every use)."""
        if not self._table:
            self._table.append(self._evaluation.per_query.set_index("query_id"))
        return self._table[0]


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
    k: int = 10,
    scale: str | GradeScale = "0..3",
    id_map: str | None = None,
    id_map_file: str | os.PathLike[str] | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: str | None = None,
    **choices: str,
) -> Scored:
    """Score ``run`` against ``qrels`` at ``k``, as ``ndcg score --json`` does (the same keywords as its options).

    ``choices``: ``gain``, ``unjudged``, ``duplicates``, ``zero_idcg``, ``queries``, ``unknown_queries``, ``ties``.
    """
    with _refusals():
        settings = _settings(k, scale, choices, id_map, id_map_file)
        ordered = _order(order)
        evaluation = score_files(
            _judgments(qrels, settings.scale),
            _ranking(run, ordered),
            settings,
            qrels_format=qrels_format,
            run_format=run_format,
            order=ordered,
        )
    return _scored(evaluation)


def compare(
    runs: Mapping[str, Input] | Sequence[Input],
    qrels: Input,
    *,
    k: int | Sequence[int] | str = 10,
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
    from ndcg_desktop.scoring.stats import StatsSettings
    from ndcg_desktop.tasks.comparing import compare_files, parse_cutoffs

    with _refusals():
        # one check of the cut-offs, the command line's: whole, positive, each once
        ks = parse_cutoffs(k if isinstance(k, str) else ",".join(map(str, [k] if isinstance(k, int) else k)))
        settings = _settings(ks[0], scale if scale is not None else "0..3", choices, id_map, id_map_file)
        stats = StatsSettings(
            test=test,  # type: ignore[arg-type]  # validated (InputError) by StatsSettings
            correction=correction,  # type: ignore[arg-type]
            alpha=alpha,
            resamples=resamples,
            seed=seed,
            ci_method=ci,  # type: ignore[arg-type]
            detect=detect,
        )
        ordered = _order(order)
        names: list[str] | None = None
        if isinstance(runs, Mapping):
            names, given = [str(name) for name in runs], list(runs.values())
        elif isinstance(runs, str | os.PathLike) or _is_frame(runs):
            raise InputError("give the runs as a list of files or a dict of name -> run")
        else:
            given = list(runs)
            if any(_is_frame(run) for run in given):
                raise InputError("name each DataFrame run: give a dict of name -> run")
        result = compare_files(
            _judgments(qrels, settings.scale),
            [_ranking(run, ordered) for run in given],
            ks,
            settings,
            stats,
            baseline=baseline,
            qrels_format=qrels_format,
            run_format=run_format,
            order=ordered,
            names=names,
            top_grade=settings.scale.high if scale is not None else None,
        )
    return Compared(result.runs, result.pairs, result.per_query, result.manifest, result.settings_line())


class Project:
    """A project opened read-only (:func:`open_project`): its versions, judgments, runs and agreement as tables."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        from ndcg_desktop.tasks.browse import ProjectReader

        with _refusals():
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
        """A frozen version's judgments (the latest by default): ``query_id, doc_id, grade``, proven unchanged."""
        with _refusals():
            return self._reader.judgments(version)

    def runs(self) -> pd.DataFrame:
        """The stored runs: name, source file, SHA-256, format, reading, rows, queries, import time."""
        with _refusals():
            return self._reader.runs()

    def run(self, name: str) -> pd.DataFrame:
        """A stored run's rows: ``query_id, doc_id`` and its ``score`` and/or ``rank``, proven unchanged."""
        with _refusals():
            return self._reader.run(name)

    def score(self, run: str, *, version: int | None = None, k: int = 10, **choices: str) -> Scored:
        """Score a stored run against a frozen version, as ``ndcg score --project --json`` does (nothing recorded);
        the run keeps the reading it was imported with, the version its scale."""
        with _refusals():
            if "ties" in choices:
                raise InputError("a stored run keeps the reading it was imported with; ties is for run files")
            settings = _settings(k, "0..3", choices, None, None)  # the scale: the version's, set by the task
            evaluation = self._reader.score(run, version, settings).evaluation
        return _scored(evaluation)

    def agreement(self, version: int | None = None, *, k: int = 10, **choices: str) -> dict[str, Any]:
        """The annotators' agreement on a version (the draft, else the latest frozen), as ``ndcg agreement
        --export`` writes it: one table per file name without ``.csv`` (``agreement``, ``pairs``, ``confusion``,
        ``leniency``, ``systems_means``, ...) and the ``manifest``."""
        from ndcg_desktop.tasks.agreement import agreement_tables

        with _refusals():
            result = self._reader.agreement(version, _settings(k, "0..3", choices, None, None))  # scale: the version's
            tables: dict[str, Any] = {name.removesuffix(".csv"): t for name, t in agreement_tables(result).items()}
        return tables | {"manifest": result.manifest()}


def choices() -> pd.DataFrame:
    """The evaluation choices ``score`` and ``compare`` take as keywords: each one's values, its default (whether
    that default refuses the input until a policy is chosen), the command line's option and what it decides."""
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
    import pandas as pd

    return pd.DataFrame(rows).set_index("name")


def open_project(path: str | os.PathLike[str]) -> Project:
    """Open a project file read-only (use ``with``, or ``close()``); nothing is ever written to it."""
    return Project(path)


def _settings(
    k: int, scale: str | GradeScale, choices: dict[str, str], id_map: str | None, id_map_file: Any
) -> EvalSettings:
    unknown = [name for name in choices if name not in BY_NAME]
    if unknown:
        raise InputError(f"unknown choice {unknown[0]!r}; the choices are {', '.join(BY_NAME)}")
    if id_map is not None and id_map_file is not None:
        raise InputError("give id_map (a separator) or id_map_file, not both")
    mapping: IdMap | None = id_map
    if id_map_file is not None:
        from ndcg_desktop.formats.chunk_map import read_chunk_map

        mapping = read_chunk_map(os.fspath(id_map_file))
    grades = scale if isinstance(scale, GradeScale) else GradeScale.parse(str(scale))
    return EvalSettings(k=k, scale=grades, id_map=mapping, **choices)  # type: ignore[arg-type]  # text: validated


def _order(order: str | None) -> Any:
    if order is not None and order not in ORDER_CHOICES:
        raise InputError(f"order must be one of {'|'.join(ORDER_CHOICES)}, not {order!r}")
    return ORDER_CHOICES.get(order or "")


def _is_frame(value: object) -> bool:
    """Whether ``value`` is a pandas DataFrame (without importing pandas: then it cannot be one)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


def _judgments(qrels: Input, scale: GradeScale) -> Judgments:
    if _is_frame(qrels):
        from ndcg_desktop.formats.frames import qrels_from_frame

        return qrels_from_frame(qrels, scale=scale)
    if isinstance(qrels, str | os.PathLike):
        return os.fspath(qrels)
    raise InputError(f"judgments must be a file path or a pandas DataFrame, not {type(qrels).__name__}")


def _ranking(run: Input, order: Any) -> Ranking:
    if _is_frame(run):
        from ndcg_desktop.formats.frames import run_from_frame

        return run_from_frame(run, order=order)
    if isinstance(run, str | os.PathLike):
        return os.fspath(run)
    raise InputError(f"a run must be a file path or a pandas DataFrame, not {type(run).__name__}")


def _scored(evaluation: Evaluation) -> Scored:
    summary = evaluation.summary
    return Scored(float(summary["mean_ndcg"]), evaluation, summary, evaluation.manifest, evaluation.settings.to_text())
