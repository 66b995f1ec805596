"""``ndcg simulate-pooling`` and ``ndcg reusability``: what a pool would cost and be worth, from existing judgments."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ndcg_desktop.cli.compare import _records
from ndcg_desktop.cli.json_out import json_text
from ndcg_desktop.cli.options import add_choice_option, add_k_option, reading_asked, settings_of, terms_of, whole_number
from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.settings import MAX_K
from ndcg_desktop.formats.choices import ORDER_CHOICES, QRELS_FORMATS, RUN_FORMATS

_SCORING_CHOICES = ("gain", "duplicates", "zero_idcg", "ties")  # unjudged, unknown queries, query set: fixed


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--qrels", metavar="FILE", help="the oracle: TREC qrels, CSV or TSV (.gz ok)")
    parser.add_argument("--runs", nargs="+", metavar="FILE", help="run files, named as ndcg compare names them")
    parser.add_argument("--project", metavar="PROJECT", help="a project's frozen version as the oracle")
    parser.add_argument(
        "--run-names",
        nargs="+",
        metavar="NAME",
        help="with --runs: a name per run file, in order; with --project: the stored runs",
    )
    parser.add_argument(
        "--pool-version", type=whole_number("--pool-version", 1), metavar="N", help="with --project (default latest)"
    )
    parser.add_argument("--depth", type=whole_number("--depth", 1, MAX_K), default=100, help="pool depth (100)")
    add_k_option(parser, "cutoff K of nDCG@K ({})")
    for name in _SCORING_CHOICES:
        add_choice_option(parser, name, default=name != "ties")
    parser.add_argument(
        "--scale", metavar="LO..HI", help=f"grade range (default {GradeScale()}; a project uses its own)"
    )
    parser.add_argument("--qrels-format", choices=QRELS_FORMATS, help="force the judgments format")
    parser.add_argument("--run-format", choices=RUN_FORMATS, help="force the run format")
    parser.add_argument("--order", choices=("score", "rank", "file"), help="how rankings are formed (score)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the table")


_STRATEGIES = "(the strategies)"  # the epilog's place for scoring.pooling's table, filled when help is shown


class _StrategiesHelp(argparse.HelpFormatter):
    """Help whose epilog lists every strategy from scoring.pooling's table: imported only when help is shown
    (``ndcg --version`` and the parser import no numpy)."""

    def add_text(self, text: str | None) -> None:
        if text == _STRATEGIES:
            from ndcg_desktop.scoring.pooling import strategies_help

            text = "Strategies: " + strategies_help()
        super().add_text(text)


def add_pooling_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "simulate-pooling",
        help="simulate pooling strategies and budgets on existing judgments (the oracle)",
        description="Simulate each strategy at each budget with the judgments as the oracle (a document they lack "
        "is non-relevant): documents judged, relevant found, Kendall's tau-b and tau_AP between the runs' mean "
        "nDCG@K under the partial and the full judgments, and the largest change of a run's rank.",
        epilog=_STRATEGIES,
        formatter_class=_StrategiesHelp,
    )
    _common(parser)
    parser.add_argument(
        "--strategies",
        default="depth,rrf,rbp,maxmean",
        metavar="S[,S...]",
        help="e.g. depth,rrf(k=60),rbp(p=0.8,aggregate=max),maxmean (default: the four)",
    )
    parser.add_argument(
        "--budgets",
        default="10%,20%,30%",
        metavar="B[,B...]",
        help="per query: N or a share of its depth pool (10%%); in total: total:N or total:10%% (default "
        "10%%,20%%,30%%)",
    )
    parser.add_argument("--export", metavar="DIR", help="write simulation.csv, means.csv, per_query.csv, manifest")
    parser.set_defaults(handler=run_simulate)

    parser = sub.add_parser(
        "reusability",
        help="leave-one-run-out: is the pool fair to a run that did not contribute to it",
        description="For each run (or group), its mean nDCG@K against the judgments of the depth-D pool without "
        "the documents only it contributed, beside its mean against the judgments of the full pool.",
    )
    _common(parser)
    parser.add_argument("--groups", metavar="FILE", help="a file of 'run group' lines: a group is left out whole")
    parser.add_argument("--group-by", metavar="REGEX", help="a run's group: the regex's first group in its name")
    parser.set_defaults(handler=run_reusability)


def _pool(args: argparse.Namespace) -> Any:
    from ndcg_desktop.tasks.pool_runs import pool_runs_from_files

    if args.project:
        if args.qrels or args.runs or not args.run_names:
            raise InputError("with --project, name the stored runs with --run-names (and give no --qrels or --runs)")
        return None
    if not (args.qrels and args.runs):
        raise InputError("give --qrels FILE and --runs FILE FILE ... (or --project PROJECT --run-names NAME ...)")
    fixed = _with_defaults(args)
    terms = terms_of(fixed)  # how the files are read: --scale, --ties
    base = settings_of(fixed)
    return pool_runs_from_files(
        args.qrels,
        args.runs,
        base.under(terms),
        names=args.run_names,
        qrels_format=args.qrels_format,
        run_format=args.run_format,
        order=ORDER_CHOICES.get(args.order or ""),
    ), base


def _with_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the evaluation choices this command fixes (settings_of reads every choice)."""
    fixed = argparse.Namespace(**vars(args))
    fixed.unjudged, fixed.unknown_queries, fixed.queries = "zero", "ignore", "pool"
    fixed.id_map = fixed.id_map_file = None
    return fixed


def _run(args: argparse.Namespace, study: Any) -> Any:
    """``study(pool, base)`` on files, or inside the open project (read only)."""
    loaded = _pool(args)
    if loaded is not None:
        return study(*loaded)
    from ndcg_desktop.tasks.advice import frozen_version
    from ndcg_desktop.tasks.pool_runs import pool_runs_from_project
    from ndcg_desktop.tasks.project import Project

    with Project.open(args.project, read_only=True) as project:
        frozen_version(project, args.pool_version, check=False)  # a missing version is refused before the runs
        base = settings_of(_with_defaults(args))  # the version brings its scale and each run its reading
        pool = pool_runs_from_project(
            project, args.run_names, args.pool_version, base, asked=reading_asked(args)
        )  # each run's own reading (another is refused naming the run)
        return study(pool, base)


def _split(text: str, option: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise InputError(f"{option} needs at least one value")
    return parts


def run_simulate(args: argparse.Namespace) -> int:
    from ndcg_desktop.scoring.pooling import Budget, parse_strategies
    from ndcg_desktop.tasks.pool_simulation import export_simulation, simulate_pooling

    strategies = parse_strategies(args.strategies)
    budgets = [Budget.parse(text) for text in _split(args.budgets, "--budgets")]
    if len({str(b) for b in budgets}) != len(budgets):
        raise InputError("--budgets names a budget twice")
    result = _run(
        args,
        lambda pool, base: simulate_pooling(
            pool, depth=args.depth, k=args.k, strategies=strategies, budgets=budgets, base=base
        ),
    )
    if args.export:
        export_simulation(result, args.export)
    if args.json:
        document = {
            "rows": _records(result.rows),
            "means": _records(result.means),
            "pool_documents": result.pool_documents,
            "pool_relevant": result.pool_relevant,
            "manifest": result.manifest,
        }
        sys.stdout.write(json_text(document))
        return 0
    from ndcg_desktop.formats.cells import plain

    lines = [
        f"depth-{args.depth} pool: {count(result.pool_documents, 'document')}, {result.pool_relevant} relevant; "
        f"nDCG@{args.k}; tau: partial against full judgments",
        f"{'strategy':<28} {'budget':>10} {'judged':>8} {'relevant':>9} {'share':>6} {'tau_b':>7} {'tau_ap':>7} "
        f"{'max dRank':>9}",
    ]
    for row in result.rows.to_dict("records"):
        lines.append(
            f"{plain(row['strategy']):<28} {row['budget']:>10} {row['judged']:>8} {row['relevant_found']:>9} "
            f"{_n(row['relevant_share'], 3):>6} {_n(row['tau_b']):>7} {_n(row['tau_ap']):>7} "
            f"{row['max_rank_change']:>9}"
        )
    print("\n".join(lines))
    return 0


def run_reusability(args: argparse.Namespace) -> int:
    from ndcg_desktop.tasks.pool_simulation import groups_of, read_groups, reusability

    given = read_groups(args.groups) if args.groups else None

    def study(pool: Any, base: Any) -> Any:
        groups = groups_of(pool.names, groups=given, group_by=args.group_by)
        return reusability(pool, depth=args.depth, k=args.k, base=base, groups=groups)

    result = _run(args, study)
    if args.json:
        document = {"runs": _records(result.runs), "tau_b": result.tau_b, "tau_ap": result.tau_ap}
        document["manifest"] = result.manifest
        sys.stdout.write(json_text(document))
        return 0
    from ndcg_desktop.formats.cells import plain

    width = max(len("run"), *(len(plain(n)) for n in result.runs["run"]))
    lines = [
        f"leave-one-group-out at depth {args.depth}, nDCG@{args.k}; tau-b {_n(result.tau_b)}, "
        f"tau_AP {_n(result.tau_ap)}",
        f"{'run':<{width}}  {'group':<12} {'full':>7} {'w/o own':>7} {'rank':>5} {'w/o':>5} {'own rel.':>8}",
    ]
    for row in result.runs.to_dict("records"):
        lines.append(
            f"{plain(row['run']):<{width}}  {plain(row['group']):<12} {_n(row['mean_full']):>7} "
            f"{_n(row['mean_without_own']):>7} {row['rank_full']:>5} {row['rank_without_own']:>5} "
            f"{row['unique_relevant']:>8}"
        )
    print("\n".join(lines))
    return 0


def _n(value: Any, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"
