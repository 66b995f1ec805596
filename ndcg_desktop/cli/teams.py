"""`ndcg` subcommands for judging as a team: assign work files, merge them back, adjudicate (issue 15)."""

from __future__ import annotations

import argparse

import pandas as pd

from ndcg_desktop.cli.options import MAX_STORED, add_choice_option, add_k_option, decimal_number, whole, whole_number
from ndcg_desktop.cli.progress import terminal_progress
from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.counts import count, plural
from ndcg_desktop.domain.settings import Gain
from ndcg_desktop.formats.cells import plain
from ndcg_desktop.tasks.adjudication import RULES, apply_rule, disagreements, pick_all
from ndcg_desktop.tasks.identity import open_to_grade, open_to_read
from ndcg_desktop.tasks.teams import MergeReport, assign_work, merge_work


def add_team_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "assign",
        help="split the draft's ungraded items among annotators: one work file each",
        description="Write one work file per annotator (a project file that opens in ndcg-desktop) holding only "
        "their queries, the items ungraded, in blind order. A fraction of the queries goes to several annotators "
        "so that agreement can be measured.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--annotators", required=True, help="comma-separated names: ana,ben,chen")
    p.add_argument(
        "--overlap",
        type=decimal_number("--overlap", 0, 1),
        default=0.2,
        help="fraction of queries graded by several (0.2)",
    )
    p.add_argument(
        "--per-query",
        type=whole_number("--per-query", 2, 1000),
        default=2,
        metavar="N",
        help="annotators per shared query (2)",
    )
    p.add_argument("--seed", type=whole_number("--seed", 0), default=0, help="shuffles the queries reproducibly (0)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for the work files")
    p.set_defaults(handler=cmd_assign)

    p = sub.add_parser(
        "merge",
        help="add returned work files' grades as their annotators' ratings",
        description="Check that each work file belongs to this project's draft and holds only its assignment, "
        "then add its grades as ratings, all in one transaction. Merging again changes nothing.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(handler=cmd_merge)

    p = sub.add_parser(
        "adjudicate",
        help="list the items annotators rated differently, pick their grades, or settle the rest by a rule",
        description="Without --set or --rule: list the draft's differing items, those that can move a run's "
        "per-query nDCG@K most first. --set picks an item's grade; --rule settles every item still open. The way "
        "each item was settled is recorded with the version; freezing waits until none is open.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument(
        "--set", nargs=3, action="append", default=[], metavar=("QUERY", "DOC", "GRADE"), help="pick a grade"
    )
    p.add_argument("--rule", choices=list(RULES), help="; ".join(f"{k}: {v}" for k, v in RULES.items()))
    add_k_option(p, "cutoff for the nDCG swing that orders the list ({})")
    add_choice_option(p, "gain", help="")
    p.set_defaults(handler=cmd_adjudicate)


def cmd_assign(args: argparse.Namespace) -> int:
    names = [name for name in args.annotators.split(",")]
    if any(not name.strip() for name in names):
        raise InputError("--annotators: a name is empty; give comma-separated names such as ana,ben,chen")
    with open_to_grade(args.project) as (project, annotator):
        done = assign_work(project, names, args.output, overlap=args.overlap, per_query=args.per_query, seed=args.seed)
    print(
        f"draft version {done.version}: {count(done.plan['query_id'].nunique(), 'query')}, "
        f"{done.shared_queries} of them "
        f"for {count(args.per_query, 'annotator')} (seed {done.seed})"
    )
    for name, path in done.files.items():
        queries = int((done.plan["annotator"] == name).sum())
        print(f"  {plain(name)}: {count(queries, 'query')}, {count(done.items[name], 'item')} -> {plain(str(path))}")
    return 0


def _merge_text(report: MergeReport) -> str:
    t = report.totals
    lines = [
        f"  {plain(f.annotator)}: {count(f.graded, 'rating')}, {count(f.ungraded, 'item')} still ungraded"
        + (f", {f.missing} missing from the file" if f.missing else "")
        + (f", {f.withdrawn} removed from the draft since" if f.withdrawn else "")
        + f"  {plain(f.path.name)}"
        for f in report.files
    ]
    older = f", {t['older']} older left out" if t.get("older") else ""  # an older copy replayed (tasks.teams)
    lines.append(
        f"draft version {report.version}: {count(t['new'], 'new rating')}, {t['changed']} changed, {t['unchanged']} "
        f"unchanged{older}; {count(t['unsettled'], 'item')} rated differently "
        f"{plural(t['unsettled'], 'waits', 'wait')} for adjudication"
    )
    return "\n".join(lines)


def cmd_merge(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        with terminal_progress(lambda done, total, _: f"checked {done} of {count(total - 1, 'file')}") as progress:
            report = merge_work(project, args.files, progress=progress, annotator=annotator)
    print(_merge_text(report))
    for note in report.notes:
        print(plain(note))
    return 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    # every --set is read before the first is written: a bad one leaves the others unpicked too
    picks = [
        (q, d, whole(g, f"--set {plain(q)} {plain(d)}: the grade", -MAX_STORED, MAX_STORED)) for q, d, g in args.set
    ]
    listing = not picks and args.rule is None
    # Listing only reads: it works while the window (or another process) holds the project for writing.
    with open_to_read(args.project) if listing else open_to_grade(args.project) as (project, annotator):
        if picks:
            pick_all(project, picks, annotator=annotator)
        for query_id, doc_id, value in picks:
            print(f"{plain(query_id)} {plain(doc_id)}: {value} (picked)")
        if args.rule is not None:
            done = apply_rule(project, args.rule, annotator=annotator)
            print(f"{count(len(done.settled), 'item')} settled by the rule '{args.rule}', {done.left} left to pick")
        if args.set or args.rule is not None:
            return 0
        found = disagreements(project, k=args.k, gain=Gain(args.gain))
    print(
        f"draft version {found.version}: {count(len(found.items), 'item')} rated differently, {found.open} still open"
    )
    if not len(found.items):
        return 0
    # columns as wide as their longest ID (12 and 14 at least): a long ID widens its column, rows stay in line
    q = max(12, *(len(plain(str(v))) for v in found.items["query_id"]))
    d = max(14, *(len(plain(str(v))) for v in found.items["doc_id"]))
    print(f"{'swing':>7}  {'query':<{q}} {'doc':<{d}} {'grade':>5}  ratings")
    for row in found.items.itertuples():
        grade = "-" if pd.isna(row.grade) else str(int(row.grade))
        print(
            f"{row.swing:7.4f}  {plain(str(row.query_id)):<{q}} {plain(str(row.doc_id)):<{d}} {grade:>5}  "
            f"{plain(str(row.ratings))}"
        )
    return 0
