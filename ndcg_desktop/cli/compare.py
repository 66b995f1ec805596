"""``ndcg compare``: several runs at several cut-offs, with intervals, paired tests and effect sizes."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ndcg_desktop.cli.json_out import json_text
from ndcg_desktop.cli.options import (
    add_policy_options,
    cutoffs_of,
    decimal_number,
    reading_asked,
    settings_of,
    terms_of,
    whole_number,
)
from ndcg_desktop.domain import Cutoffs, InputError
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.counts import count
from ndcg_desktop.formats.choices import ORDER_CHOICES

if TYPE_CHECKING:
    from ndcg_desktop.domain.manifest import JsonValue
    from ndcg_desktop.tasks.comparing import RunsComparison

_TESTS = ("t", "wilcoxon", "randomization")  # scoring.stats.StatTest; not imported here to keep start-up light
_CORRECTIONS = ("holm", "bh", "none")  # scoring.stats.Correction


def add_compare_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "compare",
        help="compare runs: means with confidence intervals, paired tests, effect sizes",
        description="Score several runs against the same judgments at one or more K and compare them: each run's "
        "mean with a bootstrap confidence interval, and for each pair the mean difference with its interval, "
        "Cohen's d_z, wins/ties/losses and three paired tests (t, Wilcoxon, randomization), corrected for "
        "multiple comparisons. Every run is resolved with the same explicit choices, as `ndcg score` requires.",
    )
    parser.add_argument("--qrels", metavar="FILE", help="judgments: TREC qrels, CSV or TSV (.gz ok)")
    parser.add_argument(
        "--runs",
        nargs="+",
        metavar="FILE",
        help="run files, each named after its TREC run tag when every line gives the same one, else after the file "
        "(bm25.run.gz -> bm25)",
    )
    parser.add_argument("--project", metavar="PROJECT", help="compare runs stored in a project instead of files")
    parser.add_argument(
        "--run-names",
        nargs="+",
        metavar="NAME",
        help="with --runs: a name for each run file, in order; with --project: the imported runs to compare",
    )
    parser.add_argument(
        "--pool-version",
        type=whole_number("--pool-version", 1),
        metavar="N",
        help="with --project: frozen pool version",
    )
    parser.add_argument(
        "--residual-from",
        type=whole_number("--residual-from", 1),
        metavar="U",
        help="with --project: score each run residually: every document judged in the earlier frozen version U is "
        "removed, per query, from the runs and from the judgments first",
    )
    parser.add_argument(
        "--k", default=str(DEFAULT_K), metavar="K[,K...]", help=f"cut-offs, e.g. 5,10,20 (default {DEFAULT_K})"
    )
    parser.add_argument("--baseline", metavar="NAME", help="compare each run with this one (default: every pair)")
    parser.add_argument("--test", choices=_TESTS, default="t", help="the paired test behind significance (default t)")
    parser.add_argument(
        "--correction", choices=_CORRECTIONS, default="holm", help="multiple comparisons (default holm)"
    )
    parser.add_argument(
        "--alpha",
        type=decimal_number("--alpha", 0, 1, open_low=True, open_high=True),
        default=0.05,
        help="significance level (default 0.05)",
    )
    parser.add_argument(
        "--resamples",
        type=whole_number("--resamples", 100, 10_000_000),
        default=10_000,
        help="bootstrap and randomization resamples",
    )
    parser.add_argument(
        "--seed", type=whole_number("--seed", 0), default=0, help="seed of every resampling (default 0)"
    )
    parser.add_argument(
        "--ci", choices=("bca", "percentile"), default="bca", help="the interval shown (both are exported)"
    )
    parser.add_argument(
        "--detect",
        type=decimal_number("--detect", 0, 1, open_low=True),
        default=0.02,
        help="difference for the queries-needed figure",
    )
    add_policy_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the tables")
    parser.add_argument("--export", metavar="DIR", help="write the tables and the manifest into DIR")
    parser.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from ndcg_desktop.scoring.stats import StatsSettings

    ks = cutoffs_of(args)
    stats = StatsSettings(
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        resamples=args.resamples,
        seed=args.seed,
        ci_method=args.ci,
        detect=args.detect,
    )
    result = _compare_project(args, ks, stats) if args.project else _compare_files(args, ks, stats)
    if args.export:
        from ndcg_desktop.tasks.comparing import export_comparison

        export_comparison(result, args.export)
    from ndcg_desktop.formats.cells import plain

    shown = set() if args.json else set(result.ties_texts())  # the text prints these under their runs table
    for warning in result.warnings:
        if warning not in shown:
            print(f"warning: {plain(warning)}", file=sys.stderr)
    if args.json:
        sys.stdout.write(json_text(to_json(result)))
    else:
        print(to_text(result))
    return 0


def _compare_files(args: argparse.Namespace, ks: Cutoffs, stats: Any) -> RunsComparison:
    from ndcg_desktop.tasks.comparing import compare_files

    if args.residual_from is not None:
        raise InputError("--residual-from names an earlier frozen pool version: give it with --project")
    if not (args.qrels and args.runs):
        raise InputError("give --qrels FILE and --runs FILE FILE ... (or --project PROJECT --run-names NAME ...)")
    terms = terms_of(args)  # how the files are read: --scale, --ties, --id-map
    base = settings_of(args).under(terms)
    return compare_files(
        args.qrels,
        args.runs,
        ks,
        base,
        stats,
        baseline=args.baseline,
        qrels_format=args.qrels_format,
        run_format=args.run_format,
        order=ORDER_CHOICES.get(args.order or ""),
        names=args.run_names,
        top_grade=terms.scale.high if args.scale else None,  # without --scale: the highest grade in the judgments
    )


def _compare_project(args: argparse.Namespace, ks: Cutoffs, stats: Any) -> RunsComparison:
    from ndcg_desktop.tasks.comparing import compare_stored
    from ndcg_desktop.tasks.project import Project

    if args.qrels or args.runs or not args.run_names:
        raise InputError("with --project, name the stored runs with --run-names (and give no --qrels or --runs)")
    base = settings_of(args)  # the policies; the runs bring their readings and the version its scale
    with Project.open(args.project, read_only=True) as project:  # nothing is recorded: reading is enough
        return compare_stored(
            project,
            args.run_names,
            args.pool_version,
            ks,
            base,
            stats,
            baseline=args.baseline,
            scale=args.scale,
            residual_from=args.residual_from,
            asked=reading_asked(args),  # each run's own reading, else refused naming the run
        )


def _number(value: Any, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def _p(value: Any, reason: Any = None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(reason, str) and reason.startswith("limit"):
        return "0 (lim.)"  # every difference the same: t is infinite (explained under the table)
    return f"{value:.2e}" if value < 1e-4 else f"{value:.4f}"


def to_text(result: RunsComparison) -> str:
    """The runs table per K (ranx-style superscripts), then the pairs table per K, then the settings."""
    from ndcg_desktop.cli.report import model_lines
    from ndcg_desktop.formats.cells import plain  # numpy and pyarrow: not at start-up
    from ndcg_desktop.scoring.stats import superscript_text
    from ndcg_desktop.tasks.comparing import reason_notes
    from ndcg_desktop.tasks.comparison_notes import superscripts_note

    s = result.stats
    lines: list[str] = []
    width = max(len("run"), *(len(plain(n)) for n in result.names))
    letters = max(2, *(len(str(letter)) for letter in result.runs["letter"]))  # aa, ab, ... past 26 runs
    means = [_number(row.mean) + superscript_text(row.superscript) for row in result.runs.itertuples(index=False)]
    mean_width = max(len("mean"), 12, *map(len, means))  # a long superscript widens the column, never the row
    for k in result.ks:
        runs = result.runs[result.runs["k"] == k]
        lines.append(f"nDCG@{k}: mean over queries, {s.confidence:.0%} CI ({s.ci_method}); {superscripts_note(s)}")
        header = (
            f"{'':<{letters}} {'run':<{width}}  {'mean':<{mean_width}}  {'CI':<17}  {'pooled':>6}  "
            f"{f'judged@{k}':>9}  {'queries':>7}  {'ties@K':>6}  {'tie-avg.':>8}  bounds from unjudged"
        )
        lines += [header, "-" * len(header)]
        for row in runs.itertuples(index=False):
            mean = _number(row.mean) + superscript_text(row.superscript)
            ci = f"[{_number(row.ci_low)}, {_number(row.ci_high)}]"
            lines.append(
                f"{row.letter:<{letters}} {plain(row.run):<{width}}  {mean:<{mean_width}}  {ci:<17}  "
                f"{_number(row.pooled):>6}  {_number(row.judged_at_k, 3):>9}  {row.queries:>7}  "
                f"{row.queries_with_tie_at_k:>6}  {_number(row.tie_averaged_mean):>8}  "
                f"[{_number(row.bound_low)}, {_number(row.bound_high)}]"
            )
        lines += [f"warning: {plain(tie.text())}" for tie in result.ties if tie.k == k]
        lines.append("")
        pairs = result.pairs[result.pairs["k"] == k]
        chosen = {"t": "p_t", "wilcoxon": "p_wilcoxon", "randomization": "p_randomization"}[str(s.test)]
        lines.append(f"pairs at K={k}: b - a over the queries in both; p-values raw, then {s.test} corrected")
        header = (
            f"{'a':<{width}}  {'b':<{width}}  {'diff':>7}  {'CI':<17}  {'d_z':>6}  {'W/T/L':<11}  {'p(t)':>8}  "
            f"{'p(wilc.)':>8}  {'p(rand.)':>8}  {'corr. p':>8}  sig  {'n needed':>8}"
        )
        lines += [header, "-" * len(header)]
        for row in pairs.itertuples(index=False):
            ci = f"[{_number(row.difference_low)}, {_number(row.difference_high)}]"
            wtl = f"{row.wins}/{row.ties}/{row.losses}"
            needed = "n/a" if math.isnan(row.queries_needed) else str(int(row.queries_needed))
            lines.append(
                f"{plain(row.a):<{width}}  {plain(row.b):<{width}}  {_number(row.difference):>7}  {ci:<17}  "
                f"{_number(row.cohens_dz, 2):>6}  {wtl:<11}  {_p(row.p_t, row.p_t_reason):>8}  "
                f"{_p(row.p_wilcoxon):>8}  "
                f"{_p(row.p_randomization):>8}  "
                f"{_p(getattr(row, chosen + '_corrected'), getattr(row, chosen + '_reason')):>8}  "
                f"{'yes' if row.significant else 'no':<3}  {needed:>8}"
            )
        lines.append("")
    notes = reason_notes(result)
    if notes:
        lines += ["n/a and limits:", *(f"  {plain(note)}" for note in notes), ""]
    lines.append(f"settings   {plain(result.settings_line())}")
    judgments = _object(result.manifest["judgments"])
    lines.append(
        f"judgments  {plain(str(judgments['path']))}"
        + (f" pool version {judgments['pool_version']}" if judgments.get("pool_version") else "")
        + f" (sha256 {str(judgments['sha256'])[:12]}…)"
    )
    lines += model_lines(judgments)  # rule 18: grades that came from a model, which one, its agreement
    runs = result.manifest["runs"]
    assert isinstance(runs, list)  # tasks.comparing writes one object per run
    for run in map(_object, runs):
        read = _object(run["run"])
        removed = _object(run["residual"])["run_documents_removed"] if "residual" in run else None
        lines.append(
            f"run {run['letter']!s:<6} {plain(str(run['name']))}: {plain(str(read['path']))} "
            f"(sha256 {str(read['sha256'])[:12]}…)"
            + (
                f"; {count(cast(int, removed), 'document')} judged in the earlier version removed"
                if removed is not None
                else ""
            )
        )
    return "\n".join(lines)


def _object(value: JsonValue) -> Mapping[str, JsonValue]:
    """A manifest's JSON object, read back (the manifest's shape is tasks.comparing's)."""
    assert isinstance(value, Mapping)
    return value


def _records(frame: Any) -> list[dict[str, Any]]:
    out = []
    for row in frame.to_dict("records"):
        item = {}
        for key, value in row.items():
            value = value.item() if hasattr(value, "item") else value
            item[key] = None if isinstance(value, float) and math.isnan(value) else value
        out.append(item)
    return out


def to_json(result: RunsComparison) -> dict[str, Any]:
    """Runs and pairs tables as lists of objects (NaN as null, each null with its ``*_reason``), the warnings and
    the manifest; per-query values go to --export."""
    return {
        "runs": _records(result.runs),
        "pairs": _records(result.pairs),
        "warnings": result.warnings,
        "manifest": result.manifest,
    }
