"""Compare several runs at several cut-offs, with the uncertainty of every claim (rule 17): written once.

Each run is scored by the scoring core as ``ndcg score`` scores it (files:
:func:`~ndcg_desktop.scoring.ndcg.evaluate_cutoffs`, every K from one ordering of the run; a
project: :func:`~ndcg_desktop.tasks.scoring.score_run`), under the same explicit choices, recorded
per run; nothing here computes an nDCG. The per-query scores then go to
:func:`ndcg_desktop.scoring.stats.compare_tables`, every cut-off in one batch.

Tables (long form, one row per run and K, per pair and K, per run, K and query):

- ``runs``: letter, run, k, mean, the interval (headline method, BCa and percentile), pooled
  ratio, judged@K, queries in the mean, the queries of the mean where a tie straddles K
  (``queries_with_tie_at_k``) and the tie-averaged mean (``tie_averaged_mean``, rule 10), the bounds
  from unjudged documents (``bound_low``, ``bound_high``, ``bound_gap``: :mod:`ndcg_desktop.scoring.bounds`),
  the ranx-style superscript (corrected for multiple comparisons, unlike ranx's: :func:`superscripts_note`);
- ``pairs``: k, a, b and everything :func:`~ndcg_desktop.scoring.stats.pair_row` gives;
- ``per_query``: run, k, query_id, ndcg, in_mean, unjudged_in_top_k, ndcg_lower, ndcg_upper, ndcg_gap;
- ``differences``: k, a, b, query_id, difference: per pair the differences b - a over the queries in both
  means, rounded to 1e-12 as every paired test takes them (``scipy.stats.wilcoxon(difference)`` gives
  ``p_wilcoxon``).

A figure that is null has a ``*_reason`` column beside it saying why (:mod:`ndcg_desktop.scoring.stats`);
``warnings`` names every pair compared over fewer than :data:`FEW_QUERIES` queries and every run whose mean
the tie policy changes (:class:`TiesAtK`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ndcg_desktop import __version__
from ndcg_desktop.domain import Cutoffs, EvalSettings, InputError, Measure, UnjudgedPolicy
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.data import OrderKind, Run
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.progress import Progress
from ndcg_desktop.domain.reading import NOTHING_ASKED, ReadingAsked
from ndcg_desktop.formats.export import export_folder, in_natural_order
from ndcg_desktop.formats.workbook import manifest_rows, runs_latex, runs_markdown, write_text, write_workbook
from ndcg_desktop.scoring import Evaluation
from ndcg_desktop.scoring.bounds import mean_bounds
from ndcg_desktop.scoring.stats import (
    TEST_COLUMNS,
    TOLERANCE,
    Comparison,
    StatsSettings,
    compare_tables,
    corrected,
    paired_differences,
    reason_column,
    run_letter,
    superscripts,
)
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.advice import frozen_version
from ndcg_desktop.tasks.compare_inputs import given_run_names, run_names_of
from ndcg_desktop.tasks.comparison_notes import (
    TiesAtK,
    choices_note,
    few_queries,
    reading_differs,
    residual_note,
    superscripts_note,
    unscaled_bound_note,
)
from ndcg_desktop.tasks.files import Judgments, Ranking, read_judgments, read_ranking
from ndcg_desktop.tasks.scoring import (
    ScoredRun,
    check_readings,
    evaluate_with_bounds,
    score_run_at,
    version_to_score,
)

_AtEachK = tuple[dict[int, Evaluation], dict[int, pd.DataFrame]]  # a run's evaluations and bounds by K
ROUNDED_TO = TOLERANCE  # every paired test takes b - a rounded to this (scoring.stats.paired_differences)


@dataclass
class RunsComparison:
    """Everything one comparison produces; ``manifest`` says how, to reproduce every figure."""

    names: list[str]
    ks: Cutoffs
    baseline: str | None
    settings: Measure  # the shared choices on the judgments' terms (K is each row's own)
    stats: StatsSettings
    runs: pd.DataFrame
    pairs: pd.DataFrame
    per_query: pd.DataFrame
    manifest: JsonObject
    evaluations: dict[str, dict[int, Evaluation]] = field(repr=False, default_factory=dict)
    choices_note: str = ""  # runs resolved with different choices (the window's Runs view): which run chose what
    bound_note: str = ""  # the grade the upper bound gives unjudged documents, when not the scale's top
    residual_note: str = ""  # scored residually (rule 21): from which version, what left the judgments
    warnings: list[str] = field(default_factory=list)  # few queries (FewQueries), then ties at K (TiesAtK)
    differences: pd.DataFrame = field(repr=False, default_factory=pd.DataFrame)  # k, a, b, query_id, difference
    ties: list[TiesAtK] = field(default_factory=list)  # the runs whose mean the tie policy changes, per K

    def spec(self) -> str:
        """The nDCG choices the runs share, their reading where the runs share it (else ``per run``, each run's
        named in :attr:`choices_note`)."""
        measures = [self.evaluations[name][self.ks[0]].settings for name in self.names if name in self.evaluations]
        return self.settings.spec(reading_differs(measures))

    def settings_line(self) -> str:
        """The settings of every figure, in one line: the nDCG choices at each K, then the statistics."""
        ks = ",".join(str(k) for k in self.ks)
        against = f"against {self.baseline}" if self.baseline else "all pairs"
        line = f"nDCG@{ks}({self.spec()}); {self.stats.describe()}; {against}"
        notes = [note for note in (self.residual_note, self.bound_note, self.choices_note) if note]
        return "; ".join([line, *notes])

    def ties_texts(self) -> list[str]:
        """The warnings of the runs whose mean the tie policy changes (rule 10), as ``ndcg compare`` prints them."""
        return [tie.text() for tie in self.ties]

    def reason(self, table: str, row: int, column: str) -> str | None:
        """Why ``column`` of row ``row`` (positional) of ``runs`` or ``pairs`` is null or a limit; None if it is not.

        The window's tooltips read this: a corrected p-value's reason is its test's, an interval end's the
        interval's (:data:`~ndcg_desktop.scoring.stats.REASON_COLUMNS`).
        """
        frame = self.runs if table == "runs" else self.pairs
        name = reason_column(column)
        if name is None or name not in frame.columns:
            return None
        value = frame[name].iloc[row]
        return value if isinstance(value, str) else None


def compare_files(
    qrels_path: Judgments,
    run_paths: Sequence[Ranking],
    ks: Cutoffs,
    base: Measure,
    stats: StatsSettings,
    *,
    baseline: str | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: OrderKind | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
    top_grade: int | None = None,
) -> RunsComparison:
    """Score every run file against one judgments file at every K, then compare them.

    ``base`` carries every choice (K aside) on the terms the files are read with and applies to each run alike;
    a run that needs a choice not made is refused as ``ndcg score`` refuses it, naming its file and line.
    Judgments and runs may also be given already read (:mod:`ndcg_desktop.tasks.files`).
    ``names``: one per run (``--run-names``; needed for runs given already read); without, :func:`run_names_of`.
    ``top_grade``: the grade the upper bound gives an unjudged document (the scale's top, when the scale was
    given); without, the highest grade in the judgments, and the settings line says so.
    """
    if names is not None:
        names = given_run_names(names, run_paths)
        _check_runs(names, baseline)
    elif len(run_paths) < 2:
        _check_runs([str(p) for p in run_paths], None)
    elif any(isinstance(p, Run) for p in run_paths):
        raise InputError(f"give one name for each run: {count(len(run_paths), 'run')}, 0 names")
    qrels = read_judgments(qrels_path, base.terms.scale, qrels_format)
    bound_note = ""
    if top_grade is None:
        grades = qrels.judgments.grade
        top_grade = int(grades.max()) if len(grades) else base.terms.scale.high
        bound_note = unscaled_bound_note(base.terms.scale, top_grade)
    evaluations: dict[str, dict[int, Evaluation]] = {}
    bounds: dict[str, dict[int, pd.DataFrame]] = {}
    total, done = len(run_paths) * len(ks), 0
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="read-run") as reader:
        # The next run is read (pyarrow, mostly outside the GIL) while this one is scored; errors
        # still come in run order: a run's reading error is raised when its turn comes.
        reading = reader.submit(read_ranking, run_paths[0], run_format, order)
        scored: list[_AtEachK] = []
        tags: list[str | None] = []
        for i in range(len(run_paths)):
            run = reading.result()
            if i + 1 < len(run_paths):
                reading = reader.submit(read_ranking, run_paths[i + 1], run_format, order)
            tags.append(run.tag)
            evaluated, bounded = evaluate_with_bounds(qrels, run, base, ks, top_grade=top_grade)
            assert bounded is not None  # bounds=True
            scored.append((evaluated, bounded))
            del run
            done += len(ks)
            if progress is not None:
                progress(done, total)
    if names is None:  # a run is named after its tag, known once it is read (every run here came as a file)
        names = run_names_of([p for p in run_paths if not isinstance(p, Run)], tags)
        _check_runs(names, baseline)
    for name, (evaluations[name], bounds[name]) in zip(names, scored, strict=True):
        for evaluation in evaluations[name].values():
            evaluation.manifest["run"]["name"] = name
    return compare_evaluations(
        evaluations, ks, base.policies, stats, baseline=baseline, bounds=bounds, bound_note=bound_note
    )


def compare_project(
    project: Project,
    run_names: Sequence[str],
    pool_version: int | None,
    ks: Cutoffs,
    base: EvalSettings,
    stats: StatsSettings,
    *,
    baseline: str | None = None,
    residual_from: int | None = None,
    progress: Progress | None = None,
) -> RunsComparison:
    """Score stored runs against one frozen pool version at every K (not recorded), then compare them.

    Each run is scored by :func:`~ndcg_desktop.tasks.scoring.score_run_at` (as ``score_run`` scores it,
    ``record=False, bounds=True``, every K from one ordering of it), as the window's Runs view scores it;
    ``residual_from``, each residually against that earlier frozen version (rule 21).

    Each run keeps the reading it was imported with (order, ties, ID map); ``base`` carries the
    other choices, the same for every run, and each run's manifest records them.
    """
    _check_runs(list(run_names), baseline)
    version = frozen_version(project, pool_version).version
    scored: dict[str, dict[int, ScoredRun]] = {}
    total, done = len(run_names) * len(ks), 0
    for name in run_names:
        scored[name] = score_run_at(project, name, version, base, ks, bounds=True, residual_from=residual_from)
        done += len(ks)
        if progress is not None:
            progress(done, total)
    names = list(run_names)
    return compare_scored(scored, names, ks, dict.fromkeys(names, base), stats, baseline)


def compare_scored(
    scored: dict[str, dict[int, ScoredRun]],
    names: list[str],
    ks: Cutoffs,
    settings: dict[str, EvalSettings],
    stats: StatsSettings,
    baseline: str | None,
) -> RunsComparison:
    """The comparison of scored runs (``ndcg compare``'s tables), each run's choices named when they differ."""
    evaluations = {name: {k: scored[name][k].evaluation for k in ks} for name in names}
    bounds: dict[str, dict[int, pd.DataFrame]] = {}
    for name in names:
        bounds[name] = {}
        for k in ks:
            frame = scored[name][k].bounds
            assert frame is not None  # scored with bounds=True
            bounds[name][k] = frame
    result = compare_evaluations(evaluations, ks, settings[names[0]], stats, baseline=baseline, bounds=bounds)
    note = choices_note({name: evaluations[name][ks[0]].settings for name in names})
    if note:
        result.choices_note = note
        result.manifest["settings_line"] = result.settings_line()
    return result


def compare_stored(
    project: Project,
    run_names: Sequence[str],
    pool_version: int | None,
    ks: Cutoffs,
    base: EvalSettings,
    stats: StatsSettings,
    *,
    baseline: str | None = None,
    scale: str | None = None,
    residual_from: int | None = None,
    asked: ReadingAsked = NOTHING_ASKED,
) -> RunsComparison:
    """``ndcg compare --project``: stored runs against a frozen version (the latest when None), whose scale is the
    scale (another one asked, ``scale``, is refused: :func:`~ndcg_desktop.tasks.scoring.version_to_score`), each
    run read as it was imported (another ``order``, ``ties`` or ``id_map`` asked is refused:
    :func:`~ndcg_desktop.tasks.scoring.check_readings`); the command line and the Python API's ``Project.compare``
    both call this. ``residual_from``: ``--residual-from``."""
    check_readings(project, run_names, asked)
    version = version_to_score(project, pool_version, scale=scale)
    return compare_project(
        project,
        run_names,
        version.version,
        ks,
        base,  # the runs bring their readings and the version its scale (score_run_at)
        stats,
        baseline=baseline,
        residual_from=residual_from,
    )


def _check_runs(names: list[str], baseline: str | None) -> None:
    if len(names) < 2:
        raise InputError("a comparison needs at least two runs")
    if len(set(names)) != len(names):
        raise InputError("each run may be named once")
    if baseline is not None and baseline not in names:
        raise InputError(f"the baseline {baseline} is not one of the runs compared ({', '.join(names)})")


def judged_at_k(per_query: pd.DataFrame, k: int, unjudged: UnjudgedPolicy) -> pd.Series:
    """Per query, the share of the top K that is judged, as returned (ir_measures' Judged@K: over K).

    Under *condense* the unjudged documents were removed before the cut: the returned list is the
    condensed one plus them, and the share is of the list as the run returned it.
    """
    listed = per_query["returned"] + (per_query["unjudged_total"] if unjudged is UnjudgedPolicy.CONDENSE else 0)
    top = np.minimum(listed.to_numpy(), k)
    return pd.Series((top - per_query["unjudged_in_top_k"].to_numpy()) / k, index=per_query.index)


def compare_evaluations(
    evaluations: dict[str, dict[int, Evaluation]],
    ks: Cutoffs,
    base: EvalSettings,
    stats: StatsSettings,
    *,
    baseline: str | None = None,
    bounds: dict[str, dict[int, pd.DataFrame]] | None = None,
    bound_note: str = "",
) -> RunsComparison:
    """The runs, pairs and per-query tables of evaluations already made (run -> K -> evaluation), ``base`` the
    policies they share.

    ``bounds`` (run -> K -> :func:`~ndcg_desktop.scoring.bounds.unjudged_bounds`) adds the bounds
    from unjudged documents: per query, and their means over each run's queries in the mean;
    ``bound_note`` says which grade their upper reading gave, when not the scale's top.
    """
    names = list(evaluations)
    # The line's terms are the data's: the judgments' scale (a pool version's own) and the first run's reading.
    settings = base.under(evaluations[names[0]][ks[0]].settings.terms)
    letters = {name: run_letter(i) for i, name in enumerate(names)}
    run_rows, pair_frames, query_frames, difference_frames = [], [], [], []
    ties: list[TiesAtK] = []
    tables = []
    for k in ks:
        per = {name: evaluations[name][k].per_query.set_index("query_id") for name in names}
        scores = pd.DataFrame({name: per[name]["ndcg"] for name in names})
        counted = pd.DataFrame({name: per[name]["in_mean"] for name in names}).fillna(False).astype(bool)
        scores = scores.fillna(0.0)  # a query one run does not count (queries=run) is left out by ``counted``
        tables.append((scores, counted))
    comparisons = compare_tables(tables, settings=stats, baseline=baseline)  # every K's resampling in one batch
    for k, comparison, (scores, counted) in zip(ks, comparisons, tables, strict=True):
        per = {name: evaluations[name][k].per_query.set_index("query_id") for name in names}
        difference_frames.append(_differences(k, comparison.pairs, scores, counted))
        marks = superscripts(comparison)
        for row in comparison.runs.to_dict("records"):
            name = row["run"]
            evaluation = evaluations[name][k]
            table = per[name][per[name]["in_mean"]]
            judged = judged_at_k(table, k, evaluation.settings.policies.unjudged)
            low = high = float("nan")
            if bounds is not None:
                low, high = mean_bounds(bounds[name][k], evaluation.per_query["in_mean"])
            none = "no query is in this run's mean" if not len(table) else None
            pooled = evaluation.summary["pooled_ndcg"]
            tied = int(table["tie_at_k"].sum())
            tie_mean = float(table["tie_averaged_ndcg"].mean()) if len(table) else float("nan")
            if abs(tie_mean - row["mean"]) > TOLERANCE:  # rule 10: the tie policy changed this mean
                ties.append(
                    TiesAtK(k, name, tied, len(table), row["mean"], tie_mean, str(evaluation.settings.terms.ties))
                )
            run_rows.append(
                {
                    "letter": letters[name],
                    "run": name,
                    "k": k,
                    **{key: value for key, value in row.items() if key != "run"},
                    "pooled": pooled,
                    "pooled_reason": none or ("no query has a positive IDCG" if pooled != pooled else None),
                    "judged_at_k": float(judged.mean()) if len(judged) else float("nan"),
                    "judged_at_k_reason": none,
                    "queries_with_tie_at_k": tied,
                    "tie_averaged_mean": tie_mean,
                    "tie_averaged_mean_reason": none,
                    "bound_low": low,
                    "bound_high": high,
                    "bound_gap": high - low,
                    "bound_reason": none if bounds is not None else "not computed for this comparison",
                    "superscript": marks[name],
                }
            )
        pairs = comparison.pairs.copy()
        pairs.insert(0, "k", k)
        pair_frames.append(pairs)
        for name in names:
            frame = evaluations[name][k].per_query[["query_id", "ndcg", "in_mean", "unjudged_in_top_k"]].copy()
            if bounds is not None:
                for column in ("ndcg_lower", "ndcg_upper", "ndcg_gap"):
                    frame[column] = bounds[name][k][column].to_numpy()
            frame.insert(0, "k", k)
            frame.insert(0, "run", name)
            query_frames.append(in_natural_order(frame, "query_id"))  # q2 before q10, as the window lists them
    runs = pd.DataFrame(run_rows)
    pairs = pd.concat(pair_frames, ignore_index=True)
    per_query = pd.concat(query_frames, ignore_index=True)
    result = RunsComparison(names, ks, baseline, settings, stats, runs, pairs, per_query, {}, evaluations)
    result.bound_note = bound_note
    result.differences = pd.concat(difference_frames, ignore_index=True)
    result.ties = ties
    result.warnings = few_queries(pairs) + [tie.text() for tie in ties]
    result.residual_note = residual_note(evaluations[names[0]][ks[0]].manifest)
    result.manifest = _manifest(result, letters)
    return result


def _differences(k: int, pairs: pd.DataFrame, scores: pd.DataFrame, counted: pd.DataFrame) -> pd.DataFrame:
    """Per pair at K, b - a on each query in both means, rounded as every paired test takes them
    (:func:`~ndcg_desktop.scoring.stats.paired_differences`), in the order the tests took them: a sum in another
    order differs in its last bits, and a reviewer's ``scipy.stats.ttest_1samp`` would too."""
    frames = [pd.DataFrame(columns=["k", "a", "b", "query_id", "difference"])]
    for a, b in zip(pairs["a"], pairs["b"], strict=True):
        both = (counted[a] & counted[b]).to_numpy(dtype=bool)
        d = paired_differences(scores[a].to_numpy(dtype=np.float64)[both], scores[b].to_numpy(dtype=np.float64)[both])
        frame = pd.DataFrame({"k": k, "a": a, "b": b, "query_id": scores.index[both].astype(str), "difference": d})
        frames.append(frame)
    return pd.concat(frames, ignore_index=True).astype({"k": "int64", "difference": "float64"})


# Each reason column of the runs and pairs tables, and the figure it explains as the reports name it.
_RUN_REASONS = {
    "mean_reason": "mean",
    "ci_reason": "CI",
    "pooled_reason": "pooled ratio",
    "judged_at_k_reason": "judged@K",
    "tie_averaged_mean_reason": "tie-averaged mean",
    "bound_reason": "bounds",
}
_PAIR_REASONS = {
    "difference_reason": "difference",
    "difference_ci_reason": "CI of the difference",
    "cohens_dz_reason": "d_z",
    "p_t_reason": "p(t)",
    "p_wilcoxon_reason": "p(Wilcoxon)",
    "p_randomization_reason": "p(randomization)",
    "queries_needed_reason": "queries needed",
}


def reason_notes(result: RunsComparison) -> list[str]:
    """Every n/a (and limit) of the runs and pairs tables with its reason, one line per run or pair and reason:
    the note under the printed tables and in the Markdown and LaTeX exports."""
    notes = []
    for table, reasons in ((result.runs, _RUN_REASONS), (result.pairs, _PAIR_REASONS)):
        for row in table.to_dict("records"):
            label = f"run {row['run']}" if "run" in row else f"{row['b']} - {row['a']}"
            said: dict[str, list[str]] = {}
            for column, figure in reasons.items():
                if isinstance(row.get(column), str):
                    said.setdefault(row[column], []).append(figure)
            notes += [f"K={row['k']} {label}: {', '.join(figures)}: {why}" for why, figures in said.items()]
    return notes


def restated(result: RunsComparison, stats: StatsSettings) -> RunsComparison:
    """``result`` under another test or correction, as :func:`compare_evaluations` would give it, without resampling.

    Every pair already carries each test's raw p-value (the randomization test's from its own draws), so only
    the corrected p-values, ``significant``, the superscripts and the manifest change. Any other statistic
    setting changes draws or figures: that is a new comparison.
    """
    if replace(stats, test=result.stats.test, correction=result.stats.correction) != result.stats:
        raise ValueError("only the test and the correction can change without a new comparison")
    frames, runs = [], result.runs.copy()
    for k in result.ks:
        pairs = corrected(result.pairs[result.pairs["k"] == k], stats)
        at = runs["k"] == k
        marks = superscripts(Comparison(runs.loc[at], pairs, stats))
        runs.loc[at, "superscript"] = runs.loc[at, "run"].map(marks)
        frames.append(pairs)
    pairs = pd.concat(frames, ignore_index=True) if frames else result.pairs.copy()
    new = replace(result, stats=stats, runs=runs, pairs=pairs, manifest={})
    new.manifest = _manifest(new, {name: run_letter(i) for i, name in enumerate(new.names)})
    return new


def _manifest(result: RunsComparison, letters: dict[str, str]) -> JsonObject:
    """Rule 13 and 17: what every figure was computed from and how (each run's own settings and file)."""
    first = result.evaluations[result.names[0]][result.ks[0]].manifest
    runs = []
    for name in result.names:
        at = result.evaluations[name]
        manifest = at[result.ks[0]].manifest
        runs.append(
            {
                "name": name,
                "letter": letters[name],
                "run": manifest["run"],
                "settings": {str(k): at[k].settings.to_text(k) for k in result.ks},
                "counts": {str(k): at[k].manifest["counts"] for k in result.ks},
                **({"residual": manifest["residual"]} if "residual" in manifest else {}),
            }
        )
    residual = first.get("residual")
    common = ("from_version", "from_hash", "rule", "judgments_removed", "judgments_left")
    return {
        "tool": "ndcg-desktop",
        "version": __version__,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "measure": "nDCG",
        "cutoffs": list(result.ks),
        "settings_line": result.settings_line(),
        "statistics": {
            **result.stats.as_dict(),
            "baseline": result.baseline,
            "pairs": "each run against the baseline" if result.baseline else "every pair (a before b in run order)",
            "correction_family": "each test's p-values over the pairs compared at one K",
            "significance": f"{result.stats.test} test p-value after {result.stats.correction} correction "
            f"below alpha {result.stats.alpha:g}",
            "superscripts": superscripts_note(result.stats),
            "differences": "differences.csv: per pair and K, b - a on each query in both means rounded to 1e-12, "
            "what every paired test takes (scipy.stats.wilcoxon(difference) gives p_wilcoxon)",
            "ties_at_k": "queries_with_tie_at_k: the queries of a run's mean where a tie straddles K; "
            "tie_averaged_mean: their mean with every tie averaged (McSherry and Najork 2008, rule 10)",
            "intervals": "over the queries in each run's mean; a pair over the queries in both",
            "bounds": "per query, nDCG with the unjudged documents of the top K as non-relevant and as the top "
            "grade (the ideal then holds them too); bound_low/bound_high: the means of the two readings over the "
            "queries in the mean, smaller first (docs/evaluation-contract.md, rule 17)",
        },
        "judgments": first["judgments"],
        **({"residual": {key: residual[key] for key in common}} if isinstance(residual, dict) else {}),
        "runs": runs,
        "warnings": result.warnings,
    }


def significance_matrix(result: RunsComparison) -> pd.DataFrame:
    """Per K, a run x run matrix of the chosen test's corrected p-values (empty where a pair was not compared)."""
    column = TEST_COLUMNS[result.stats.test] + "_corrected"
    rows = []
    for k in result.ks:
        pairs = result.pairs[result.pairs["k"] == k]
        p = {(a, b): value for a, b, value in zip(pairs["a"], pairs["b"], pairs[column], strict=True)}
        for name in result.names:
            row: dict[str, Any] = {"k": k, "run": name}
            for other in result.names:
                row[other] = p.get((name, other), p.get((other, name), float("nan")))
            rows.append(row)
    return pd.DataFrame(rows)


# What a comparison export folder may hold (an earlier comparison export in it is replaced whole).
COMPARISON_FILES = (
    "runs.csv",
    "pairs.csv",
    "per_query.csv",
    "significance.csv",
    "differences.csv",
    "comparison.xlsx",
    "runs.md",
    "runs.tex",
    "manifest.json",
)


def export_comparison(result: RunsComparison, folder: str | Path) -> list[Path]:
    """Everything, whole or not at all, into ``folder``: the tables as CSV, one workbook, Markdown and LaTeX.

    ``runs.csv``, ``pairs.csv``, ``per_query.csv``, ``significance.csv``, ``differences.csv`` (the rounded
    differences every paired test took); ``comparison.xlsx`` with a sheet per table (runs, the per-query scores
    of each run, comparison, significance, differences, manifest); ``runs.md``
    and ``runs.tex`` (the runs table for papers, the settings line as caption); ``manifest.json``.
    """
    significance = significance_matrix(result)
    notes = reason_notes(result)
    sheets = {"runs": result.runs}
    for letter, name in zip(result.runs["letter"].drop_duplicates(), result.names, strict=True):
        sheets[f"{letter} {name}"] = result.per_query[result.per_query["run"] == name].drop(columns="run")
    sheets |= {"comparison": result.pairs, "significance": significance, "differences": result.differences}
    sheets["manifest"] = manifest_rows(result.manifest)
    caption = "; ".join([superscripts_note(result.stats), result.settings_line(), *result.ties_texts()])
    caption += "; n/a and limits: " + "; ".join(notes) if notes else ""
    writers: dict[str, Callable[[Path], object]] = {
        "comparison.xlsx": lambda path: write_workbook(path, sheets),
        "runs.md": lambda path: write_text(path, runs_markdown(result.runs, caption)),
        "runs.tex": lambda path: write_text(path, runs_latex(result.runs, caption)),
    }
    tables = {
        "runs.csv": result.runs,
        "pairs.csv": result.pairs,
        "per_query.csv": result.per_query,
        "significance.csv": significance,
        "differences.csv": result.differences,
    }
    return export_folder(tables, result.manifest, folder, COMPARISON_FILES, writers=writers)
