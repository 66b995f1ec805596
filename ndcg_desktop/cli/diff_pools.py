"""``ndcg diff-pools PROJECT V1 V2``: what changed between two frozen versions, and what it does to the runs."""

from __future__ import annotations

import argparse
import sys
from typing import Any, cast

from ndcg_desktop.cli.json_out import json_text
from ndcg_desktop.cli.options import (
    add_k_option,
    add_policy_options,
    reading_asked,
    settings_of,
    whole_number,
)
from ndcg_desktop.domain.counts import count


def add_diff_pools_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "diff-pools",
        help="two frozen pool versions side by side: changes, and each run's mean under both",
        description="Items added, removed and regraded from version V1 to V2 (with who and when, from V2's audit "
        "log), and every stored run's mean nDCG under both versions with Kendall's tau between the two "
        "orderings of the runs. Runs are scored with the choices given (as `ndcg score`), not recorded; a run "
        "that needs a choice not given is listed with why.",
    )
    parser.add_argument("project", metavar="PROJECT")
    parser.add_argument("v1", type=whole_number("V1", 1), metavar="V1")
    parser.add_argument("v2", type=whole_number("V2", 1), metavar="V2")
    add_k_option(parser)
    add_policy_options(parser)
    parser.add_argument(
        "--summary", action="store_true", help="the per-query counts and the runs, without a line per item"
    )
    parser.add_argument(
        "--shared-queries",
        action="store_true",
        help="each run's means over the queries both versions judge (a later version's new topics left out)",
    )
    parser.add_argument(
        "--show-iteration",
        action="store_true",
        help="each item's iteration (its round) in both versions; an item only moved to another iteration is a "
        "change too",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document (with its manifest)")
    parser.set_defaults(handler=run_diff_pools)


def run_diff_pools(args: argparse.Namespace) -> int:
    from ndcg_desktop.domain import InputError
    from ndcg_desktop.formats.cells import plain  # numpy and pyarrow: not at start-up
    from ndcg_desktop.tasks.pool_diff import diff_pools
    from ndcg_desktop.tasks.project import Project

    for option in ("qrels_format", "run_format", "scale"):
        if getattr(args, option) is not None:
            raise InputError(f"--{option.replace('_', '-')} does not apply here: stored runs keep their reading")
    with Project.open(args.project, read_only=True) as project:
        base = settings_of(args)  # the policies; the versions bring their scales and the runs their readings
        diff = diff_pools(
            project,
            args.v1,
            args.v2,
            base,
            args.k,
            shared_queries=args.shared_queries,
            iterations=args.show_iteration,
            asked=reading_asked(args),  # every run's own reading, else refused naming the run
        )
    if args.json:
        document = {
            "summary": diff.summary(),
            **({} if args.summary else {"changes": _records(diff.changes)}),
            "per_query": _records(diff.per_query),
            "runs": _records(diff.means),
            "manifest": diff.manifest(str(args.project)),
        }
        sys.stdout.write(json_text(document))
        return 0
    s = diff.summary()
    lines = [
        f"pool v{diff.a} (sha256 {diff.hashes[0][:12]}…) -> v{diff.b} (sha256 {diff.hashes[1][:12]}…): "
        f"{s['added']} added, {s['removed']} removed, {s['regraded']} regraded"
        + (f", {s['iteration']} moved to another iteration" if "iteration" in s else "")
        + f", in {count(cast(int, s['queries_changed']), 'query')}",
    ]
    if diff.releases:  # the release files that made b's draft (import-qrels --release)
        lines.append(f"released into v{diff.b} from {', '.join(plain(r) for r in diff.releases)}")
    if args.shared_queries:
        q_a, q_b, q_both = diff.queries
        lines.append(
            f"means over the {count(q_both, 'query')} both versions judge (v{diff.a}: {q_a}, v{diff.b}: {q_b})"
        )
    if args.summary:
        lines += _per_query_lines(diff.per_query)
    # columns as wide as their longest ID (12 and 20 at least): long IDs widen them instead of shifting a row
    elif len(diff.changes):
        q = max(12, *(len(plain(str(v))) for v in diff.changes["query_id"]))
        d = max(20, *(len(plain(str(v))) for v in diff.changes["doc_id"]))
        rounds = args.show_iteration
        moves = zip(diff.changes["iteration_a"], diff.changes["iteration_b"], strict=True)
        r = max(9, *(len(plain(f"{_grade(x)} -> {_grade(y)}")) for x, y in moves))
        round_head = f"{'iteration':<{r}}  " if rounds else ""
        lines += ["", f"{'query':<{q}} {'document':<{d}} {'change':<9} {'grade':>9}  {round_head}who, when"]
        for row in diff.changes.itertuples(index=False):
            grades = f"{_grade(row.grade_a)} -> {_grade(row.grade_b)}"
            moved = f"{_grade(row.iteration_a)} -> {_grade(row.iteration_b)}"
            iteration = f"{moved:<{r}}  " if rounds else ""
            lines.append(
                f"{plain(str(row.query_id)):<{q}} {plain(str(row.doc_id)):<{d}} {row.change:<9} {grades:>9}  "
                f"{plain(iteration)}"
                f"{'?' if _missing(row.who) else plain(str(row.who))}, {'?' if _missing(row.at) else row.at}"
            )
    width = max(20, *(len(plain(run)) for run in diff.means["run"])) if len(diff.means) else 20
    lines += ["", f"{'run':<{width}} {f'mean v{diff.a}':>9} {f'mean v{diff.b}':>9} {'diff':>8} {'rank':>9}"]
    for row in diff.means.itertuples(index=False):
        lines.append(
            f"{plain(row.run):<{width}} {row.mean_a:>9.4f} {row.mean_b:>9.4f} {row.difference:>+8.4f} "
            f"{f'{row.rank_a} -> {row.rank_b}':>9}"
        )
    tau = "n/a (fewer than two runs scored)" if diff.tau is None else f"{diff.tau:.4f} (p {diff.tau_p:.3g})"
    lines += [
        "",
        f"Kendall's tau-b between the two orderings: {tau}",
        f"settings   {plain(diff.settings.to_text(diff.k))}",
    ]
    for name, why in diff.refused.items():
        lines.append(f"not scored: {plain(name)}: {plain(str(why))}")  # the core's words, with the option
    print("\n".join(lines))
    return 0


def _per_query_lines(per_query: Any) -> list[str]:
    """The per-query counts (natural order), one line a query that changed."""
    from ndcg_desktop.formats.cells import plain

    if not len(per_query):
        return []
    q = max(12, *(len(plain(str(v))) for v in per_query["query_id"]))
    counts = [c for c in per_query.columns if c != "query_id"]
    lines = ["", f"{'query':<{q}} " + " ".join(f"{c:>9}" for c in counts)]
    for row in per_query.itertuples(index=False):
        lines.append(f"{plain(str(row[0])):<{q}} " + " ".join(f"{v:>9}" for v in row[1:]))
    return lines


def _missing(value: Any) -> bool:
    import pandas as pd

    return bool(pd.api.types.is_scalar(value) and pd.isna(value))


def _grade(value: Any) -> str:
    return "-" if _missing(value) else str(value)


def _records(frame: Any) -> list[dict[str, Any]]:
    out = []
    for row in frame.astype(object).to_dict("records"):
        out.append({k: (None if _missing(v) else (v.item() if hasattr(v, "item") else v)) for k, v in row.items()})
    return out
