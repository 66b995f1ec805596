"""`ndcg agreement`: how far a pool version's annotators agree, and whether it matters for the systems."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ndcg_desktop.cli.json_out import json_text
from ndcg_desktop.cli.options import add_choice_option, add_k_option, whole_number
from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.domain.counts import count
from ndcg_desktop.formats.cells import plain


def add_agreement_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "agreement",
        help="agreement between annotators (weighted kappas, Krippendorff's alpha) and its effect on the runs",
        description="Agreement between the annotators of a pool version, on the items two or more of them rated: "
        "Cohen's weighted kappa per pair (linear, quadratic), Krippendorff's alpha (ordinal), raw agreement, "
        "confusion matrices and each annotator's mean grade, overall and per query. For a frozen version, every "
        "imported run is also scored under each annotator's grades and the consensus, with Kendall's tau between "
        "the orderings.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument(
        "--version",
        type=whole_number("--version", 1),
        metavar="N",
        help="pool version (default: the draft, else the latest)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document instead of the tables")
    p.add_argument("--export", metavar="DIR", help="write every table as CSV with manifest.json into DIR")
    add_k_option(p, "cutoff K the runs are scored at (default {})")
    add_choice_option(p, "gain", help="")
    add_choice_option(
        p,
        "unjudged",
        help="returned documents without a judgment: reject (default: the run is listed as not scored), zero, condense",
    )
    add_choice_option(p, "duplicates", help="reject (default) or first")
    add_choice_option(p, "unknown_queries", help="run queries not in the pool: reject (default) or ignore")
    p.set_defaults(handler=cmd_agreement)


def cmd_agreement(args: argparse.Namespace) -> int:
    from ndcg_desktop.tasks.agreement import export_agreement, load_agreement
    from ndcg_desktop.tasks.project import Project

    settings = EvalSettings(
        gain=args.gain,
        unjudged=args.unjudged,
        duplicates=args.duplicates,
        unknown_queries=args.unknown_queries,
    )
    with Project.open(args.project, read_only=True) as project:
        result = load_agreement(project, args.version, settings, args.k)
    if args.export:
        export_agreement(result, args.export)  # refusals and system errors are InputError, naming the path
    if args.json:
        sys.stdout.write(json_text(as_json(result)))
    else:
        print(as_text(result))
    return 0


def _records(frame: Any) -> list[dict[str, Any]]:
    """Rows as dicts, with None where pandas holds NaN (JSON has no NaN)."""
    return [
        {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
        for row in frame.astype(object).to_dict("records")
    ]


def as_json(result: Any) -> dict[str, Any]:
    """Everything the export holds, as one JSON document (numbers at full precision, undefined as null)."""
    report, systems = result.report, result.systems
    return {
        "manifest": result.manifest(),
        "agreement": _records(report.groups_frame()),
        "pairs": _records(report.pairs_frame()),
        "leniency": _records(report.leniency),
        "leniency_by_query": _records(report.leniency_by_query),
        "confusion": _records(report.confusion),
        "duplicates": result.duplicates_json(),
        "flagged_texts": result.flagged_json(),  # items a model rated whose text addresses the grader
        "systems": {
            "not_compared": systems.why,
            "queries": list(systems.queries),
            "means": _records(systems.means),
            "kendall_tau": _records(systems.taus_frame()),
            "refused": {run: str(why) for run, why in systems.refused.items()},  # the sentence, as the manifest
        },
    }


def _num(value: Any) -> str:
    return "—" if value is None or (isinstance(value, float) and value != value) else f"{float(value):.4f}"


def as_text(result: Any) -> str:
    report, overall, systems, v = result.report, result.report.overall, result.systems, result.version
    headline = result.headline  # the people's figures (rule 18: a model's agreement is its own line)
    state = f"frozen, sha256 {(v.hash or '')[:12]}…" if v.frozen else "draft"
    names = ", ".join(map(plain, report.annotators)) or "none"
    people = "" if not result.models else f" (people only: {', '.join(map(plain, result.people_names())) or 'none'})"
    lines = [
        f"pool version {v.version} ({state}): {count(len(report.annotators), 'annotator')} ({names})",
        f"items      {headline.items} of {report.rated_items} rated items were rated by two or more "
        f"{'people' if result.models else 'annotators'}",
        f"alpha      {headline.alpha.text(4)}   (Krippendorff, ordinal){people}",
        f"unanimous  {headline.unanimous.text(4)}   (share of shared items given one grade by all){people}",
        *(
            f"model      {plain(m.name)}: alpha with the people {m.with_people.alpha.text(4)} on "
            f"{count(m.with_people.items, 'item')} "
            "rated by two or more (its own line: a model is an annotator, not the truth)"
            for m in result.models
        ),
        *(f"WARNING    {line}" for line in result.warnings()),  # identical annotators, and the figures without them
    ]
    # A column is as wide as its longest name (imports' and models' names are long): rows stay in line, names whole.
    if overall.pairs:
        pair_names = [plain(f"{pair.a} - {pair.b}") for pair in overall.pairs]
        width = max(24, *map(len, pair_names))
        lines += ["", f"{'pair':<{width}} {'items':>6} {'raw':>8} {'kappa lin':>10} {'kappa quad':>10}"]
        for pair, name in zip(overall.pairs, pair_names, strict=True):
            figures = (pair.raw, pair.kappa_linear, pair.kappa_quadratic)
            cells = " ".join(f"{_num(f.value):>{cell}}" for f, cell in zip(figures, (8, 10, 10), strict=True))
            lines.append(f"{name:<{width}} {pair.items:>6} {cells}")
            why = next((f.why for f in figures if f.value is None), "")
            lines += [f"{'':<{width}} undefined: {why}"] if why else []
    if len(report.leniency):
        width = max(20, *(len(plain(name)) for name in report.leniency["annotator"]))
        lines += ["", f"{'annotator':<{width}} {'ratings':>8} {'mean grade':>11} {'shared':>7} {'mean on shared':>15}"]
        for row in report.leniency.itertuples(index=False):
            lines.append(
                f"{plain(row.annotator):<{width}} {row.ratings:>8} {_num(row.mean_grade):>11} "
                f"{row.shared_ratings:>7} {_num(row.mean_grade_shared):>15}"
            )
    if report.per_query:
        width = max(20, *(len(plain(group.query_id or "")) for group in report.per_query))
        lines += ["", f"{'query':<{width}} {'items':>6} {'alpha':>8} {'unanimous':>10}"]
        for group in report.per_query:
            lines.append(
                f"{plain(group.query_id or ''):<{width}} {group.items:>6} {_num(group.alpha.value):>8} "
                f"{_num(group.unanimous.value):>10}"
            )
    lines += ["", "systems: " + (f"not compared: {systems.why}" if systems.why else _systems_head(result))]
    if not systems.why:
        judges = [plain(j) for j in systems.judges]
        width = max(20, *(len(plain(str(run))) for run in systems.means.iloc[:, 0]))
        widths = [max(12, len(j)) for j in judges]
        lines.append(f"{'run':<{width}} " + " ".join(f"{j:>{w}}" for j, w in zip(judges, widths, strict=True)))
        for means in systems.means.itertuples(index=False):
            shown = " ".join(f"{_num(v):>{w}}" for v, w in zip(means[1:], widths, strict=True))
            lines.append(f"{plain(str(means[0])):<{width}} " + shown)
        lines += [f"kendall tau {plain(a)} / {plain(b)}: {tau.text(4)}" for a, b, tau in systems.taus]
        lines += [f"not scored: {plain(run)}: {why}" for run, why in systems.refused.items()]
        if systems.refused:
            lines.append("(a run is scored once its flags have a policy: --unjudged, --duplicates, --unknown-queries)")
    lines += [f"caveat: {plain(caveat.text())}" for caveat in result.caveats()]  # the manifest's and the window's
    lines += [f"flagged: {plain(flagged.text())}" for flagged in result.flagged]  # every one (issue 33 item 5)
    return "\n".join(lines)


def _systems_head(result: Any) -> str:
    return (
        f"mean nDCG over the {count(len(result.systems.queries), 'query')} "
        "rated by two or more annotators, each annotator's "
        f"grades in place of the consensus on the items they rated; {result.settings.describe(result.k)}"
    )
