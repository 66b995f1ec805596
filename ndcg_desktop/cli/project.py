"""`ndcg` subcommands over a project file, for teams that script their judging."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ndcg_desktop.cli.options import add_choice_option, add_iteration_option, whole_number
from ndcg_desktop.cli.progress import terminal_progress
from ndcg_desktop.cli.report import model_lines
from ndcg_desktop.cli.status import cmd_status
from ndcg_desktop.domain import GradeScale, InputError, TiePolicy
from ndcg_desktop.domain.counts import count, plural
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.settings import MAX_K
from ndcg_desktop.formats.cells import plain
from ndcg_desktop.formats.choices import ORDER_CHOICES
from ndcg_desktop.formats.export import in_natural_order
from ndcg_desktop.formats.guidelines import read_guidelines
from ndcg_desktop.formats.topics import TOPIC_FORMATS
from ndcg_desktop.scoring.pooling import STRATEGIES, Strategy, StrategySpec, strategies_help
from ndcg_desktop.tasks import (
    NegativeGrades,
    QueryScope,
    apply_send_for_judging,
    discard_draft,
    import_judgments,
    import_run,
    plan_send_for_judging,
)
from ndcg_desktop.tasks.assessing import MIN_SHARED
from ndcg_desktop.tasks.assessing.injection import flagged_text
from ndcg_desktop.tasks.export import export_frozen_pool
from ndcg_desktop.tasks.guidelines import set_guidelines
from ndcg_desktop.tasks.identity import open_to_grade, open_to_read
from ndcg_desktop.tasks.importing import (
    RatingsImport,
    ReleasePreview,
    apply_release,
    import_documents,
    import_queries,
    import_ratings,
    plan_release,
)
from ndcg_desktop.tasks.pool_builds import PoolRequest, apply_pool, budget_text, next_batches, parse_budget, plan_pool
from ndcg_desktop.tasks.pool_editing import DiscardPlan, plan_discard
from ndcg_desktop.tasks.project import Project, create_project, freeze, start_draft


def strategy_defaults(spec: StrategySpec) -> str:
    """A strategy's text form with every default, from the strategies' table: ``rbp(p=0.8,aggregate=sum)``."""
    return str(Strategy.of(spec.name))


def add_project_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("init", help="create a project file", description="Create a new project file.")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--scale", default=str(GradeScale()), metavar="LO..HI", help=f"grade range (default {GradeScale()})")
    p.add_argument(
        "--labels",
        help='one label per grade, comma separated: "Not relevant,Related,..." (default: each grade\'s label follows '
        'its gain, so only grade 0 is "Not relevant"; 1..3 gets "Related,Highly relevant,Perfect")',
    )
    p.set_defaults(handler=cmd_init)

    p = sub.add_parser(
        "import-queries",
        help="import queries (topics: title, description, narrative)",
        description="Import queries: TREC topic files (<top> <num> <title> <desc> <narr> </top>, or <topic "
        'number="…"> with closed tags), TSV (query_id<TAB>text, or a header naming query_id, title, description, '
        "narrative), CSV with such a header, or JSONL (query_id, title or text, description, narrative).",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=TOPIC_FORMATS, help="force the format (default: by content and extension)")
    p.set_defaults(handler=cmd_import_queries)

    p = sub.add_parser(
        "import-docs", help="import documents", description="Import documents: JSONL {doc_id, title, text} or CSV/TSV."
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(handler=cmd_import_docs)

    p = sub.add_parser(
        "set-guidelines",
        help="set the project's grading guidelines from a Markdown file (audited; manifests name their SHA-256)",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("file", metavar="FILE.md")
    p.set_defaults(handler=cmd_set_guidelines)

    p = sub.add_parser("import-qrels", help="import judgments into the draft pool")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=("trec", "csv", "tsv"), help="force the format")
    p.add_argument(
        "--negative-as-ungraded",
        action="store_true",
        help="import negative grades (trec_eval's 'pooled but not judged') as ungraded pool items",
    )
    p.add_argument(
        "--annotator",
        metavar="NAME",
        help="the grades are NAME's ratings (one assessor's file): items the draft lacks join it ungraded, and a "
        "draft is started if there is none; each rated item is settled as after a merge",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="with --annotator: replace NAME's ratings in the draft with the file's (without it, a name that "
        "already has ratings there is refused)",
    )
    p.add_argument(
        "--release",
        action="store_true",
        help="a corrected release: make the draft's judgments exactly the file's (items added, withdrawn and "
        "regraded; each change audited), after showing how many per query and asking",
    )
    p.add_argument("--dry-run", action="store_true", help="with --release: show the changes, write nothing")
    p.add_argument("--yes", action="store_true", help="with --release: apply without asking")
    p.set_defaults(handler=cmd_import_qrels)

    p = sub.add_parser("import-run", help="import a run (stored as read, with its reading settings)")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--name", required=True, help="a name for the run inside the project")
    add_choice_option(p, "ties", help="order of equal scores")
    p.add_argument("--id-map", metavar="SEP", help="cut returned IDs at the first SEP (doc12#3 -> doc12)")
    p.add_argument(
        "--id-map-file",
        metavar="FILE",
        help="map returned chunk IDs to documents (JSONL or CSV/TSV: chunk_id, doc_id)",
    )
    p.add_argument("--format", choices=("trec", "csv", "tsv", "jsonl"), help="force the format")
    p.add_argument("--order", choices=("score", "rank", "file"), help="by score (default), rank column or file order")
    p.set_defaults(handler=cmd_import_run)

    p = sub.add_parser(
        "pool",
        help="add documents of runs to the draft pool, chosen by a pooling strategy within a budget (default: the "
        "top K of every run, depth-k pooling)",
        description="Add documents of runs to the draft pool. Each query's candidates are the runs' top --depth "
        "documents; a strategy orders them and the budget takes the top of that order. The draft records the "
        "strategy, its parameters, the budget, the queries, the runs with their hashes and the order the documents "
        "were chosen in; a frozen version's manifest carries it. Strategies: " + strategies_help() + ".",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument(
        "--depth",
        type=whole_number("--depth", 1, MAX_K),
        required=True,
        metavar="K",
        help="each run's top K documents are the candidates",
    )
    p.add_argument("--runs", nargs="+", required=True, metavar="NAME", help="the runs, in order (it breaks ties)")
    p.add_argument(
        "--strategy",
        default="depth",
        metavar="STRATEGY",
        help="name or name(key=value,...): "
        + ", ".join(f"{s.name} ({strategy_defaults(s)})" for s in STRATEGIES)
        + " (default depth)",
    )
    p.add_argument(
        "--budget",
        metavar="B",
        help="documents per query (20), a share of each query's depth pool rounded down (10%%), or a total over "
        "the queries (total:500, total:10%%); default all: every candidate",
    )
    p.add_argument(
        "--queries", nargs="+", metavar="ID", help="pool only these queries (default every query a run answered)"
    )
    p.add_argument(
        "--batch-size",
        type=whole_number("--batch-size", 1, MAX_K),
        metavar="N",
        help="an adaptive strategy (maxmean): documents a query gets at a time; the next batch is chosen when a "
        "query's batch is graded (in the window, or by ndcg pool-next after merging work files)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would be added, change nothing")
    p.set_defaults(handler=cmd_pool)

    p = sub.add_parser(
        "pool-next",
        help="add the next batch of every query whose batch of an adaptive pool (maxmean) people have graded",
        description="For each adaptive build of the draft (ndcg pool --strategy maxmean --batch-size N), every query "
        "whose latest batch has a person's grade for each document gets its next batch, chosen from the grades so "
        "far (a model's grades never count). Run it after merging work files; hand the new batches out with ndcg "
        "assign.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.set_defaults(handler=cmd_pool_next)

    p = sub.add_parser(
        "send-for-judging",
        help="add a run's unjudged documents to the draft pool, to be graded and frozen before the run is scored "
        "(docs/evaluation-contract.md, rule 6)",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--run-name", required=True, metavar="NAME")
    p.add_argument(
        "--depth",
        type=whole_number("--depth", 1, MAX_K),
        metavar="K",
        help="only the top K documents of each query (default all)",
    )
    p.add_argument(
        "--pool-version",
        type=whole_number("--pool-version", 1),
        metavar="N",
        help="frozen version deciding what is unjudged (default latest)",
    )
    p.add_argument(
        "--queries",
        choices=[s.value for s in QueryScope],
        default=QueryScope.POOL.value,
        help="pool: only the pool version's queries (default); run: every query the run answered",
    )
    p.add_argument("--dry-run", action="store_true", help="list what would be added, change nothing")
    p.set_defaults(handler=cmd_send_for_judging)

    p = sub.add_parser("discard-draft", help="delete the draft pool and every item in it (audited)")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--yes", action="store_true", help="required: discarding cannot be undone")
    p.set_defaults(handler=cmd_discard_draft)

    p = sub.add_parser("freeze", help="freeze the draft pool into an immutable, hashed version")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--remove-ungraded", action="store_true", help="drop ungraded items instead of refusing")
    p.add_argument(
        "--fill-ungraded-from",
        metavar="model:NAME",
        help="give each item no person rated the grade of this model's rating (refused unless its agreement with "
        "people was measured on enough items of the draft; recorded in the version's manifest)",
    )
    p.add_argument(
        "--min-shared",
        type=whole_number("--min-shared", 1),
        default=MIN_SHARED,
        metavar="N",
        help=f"items the model must have been compared with people on before filling ({MIN_SHARED})",
    )
    p.add_argument(
        "--with-work-out",
        action="store_true",
        help="freeze although work files are still handed out (they are named in the audit log); without it, "
        "freeze refuses and names them",
    )
    p.set_defaults(handler=cmd_freeze)

    p = sub.add_parser("new-draft", help="start a new draft pool from a frozen version")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument(
        "--from-version",
        type=whole_number("--from-version", 1),
        metavar="N",
        help="frozen version to copy (default latest)",
    )
    p.set_defaults(handler=cmd_new_draft)

    p = sub.add_parser("status", help="versions, pools, grading progress and runs of a project")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_status)

    p = sub.add_parser("export-qrels", help="write a frozen pool version as TREC qrels or CSV")
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.add_argument("--version", type=whole_number("--version", 1), metavar="N", help="frozen version (default latest)")
    p.add_argument("--format", choices=("trec", "csv"), default="trec")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace a file at FILE (or FILE.manifest.json) that is not an earlier export of ours",
    )
    add_iteration_option(p, "write only the judgments of iteration VALUE")
    p.set_defaults(handler=cmd_export_qrels)


def cmd_init(args: argparse.Namespace) -> int:
    scale = GradeScale.parse(args.scale)
    labels = [x.strip() for x in args.labels.split(",")] if args.labels else None
    empty = [i for i, label in enumerate(labels or [], start=1) if not label]
    if empty:
        raise InputError(f"grade label {empty[0]} is empty; give every grade a label")
    with create_project(args.project, scale=scale, labels=labels) as project:
        print(f"created {plain(str(project.path))} (grades {project.scale}: {', '.join(map(plain, project.labels))})")
    return 0


def cmd_import_queries(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        done = import_queries(project, args.file, fmt=args.format)
        unchanged = f", {done.unchanged} already stored unchanged" if done.unchanged else ""
        print(
            f"imported {count(done.count, 'query')} ({done.with_description} with a description, {done.with_narrative} "
            f"with a narrative{unchanged}){plain(done.replaced_text())}"
        )
    return 0


def cmd_set_guidelines(args: argparse.Namespace) -> int:
    text = read_guidelines(args.file)  # before the project is opened: a bad file is refused first
    with open_to_grade(args.project) as (project, annotator):
        done = set_guidelines(project, text, source=Path(args.file), annotator=annotator)
        print(
            f"{'set the grading guidelines' if done.changed else 'guidelines unchanged'}: {count(done.lines, 'line')}, "
            f"sha256 {done.guidelines.sha256}"
        )
    return 0


def cmd_import_docs(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        with terminal_progress(lambda done, total, _: f"{100 * done / max(total, 1):5.1f}%") as progress:
            done = import_documents(project, args.file, progress=progress)
        print(f"imported {count(done.count, 'document')}")
    return 0


@contextmanager
def _format_is_called_format() -> Iterator[None]:
    """The readers' hints name ``ndcg score``'s ``--qrels-format`` and ``--run-format``; the import commands call
    that option ``--format``, so a hint suggests what works here."""
    try:
        yield
    except InputError as exc:
        hint = exc.hint if isinstance(exc.hint, str) else (exc.hint.command_line if exc.hint is not None else "")
        if "--qrels-format" not in hint and "--run-format" not in hint:
            raise
        hint = hint.replace("--qrels-format", "--format").replace("--run-format", "--format")
        raise type(exc)(exc.message, path=exc.path, line=exc.line, hint=hint) from None


def cmd_import_qrels(args: argparse.Namespace) -> int:
    negative = NegativeGrades.UNGRADED if args.negative_as_ungraded else NegativeGrades.REFUSE
    if args.annotator is not None and args.release:
        raise InputError("--release makes the pool's judgments a file's; --annotator imports one person's ratings")
    if args.annotator is not None:
        with open_to_grade(args.project) as (project, annotator), _format_is_called_format():
            done = import_ratings(
                project,
                args.file,
                args.annotator,
                replace=args.replace,
                negative=negative,
                fmt=args.format,
                imported_by=annotator,
            )
        print(_ratings_text(done))
        return 0
    if args.replace:
        raise InputError("--replace replaces an annotator's ratings: give it with --annotator NAME")
    if args.release:
        return _import_release(args, negative)
    for flag in ("dry_run", "yes"):
        if getattr(args, flag):
            raise InputError(f"--{flag.replace('_', '-')} goes with --release")
    with open_to_grade(args.project) as (project, annotator), _format_is_called_format():
        judged = import_judgments(project, args.file, negative=negative, fmt=args.format, annotator=annotator)
        print(
            f"draft version {judged.version if judged.version is not None else '?'}: "
            f"{count(judged.added, 'judgment')} added, "
            f"{count(judged.graded_existing, 'pool item')} graded, {judged.unchanged} unchanged, "
            f"{judged.ungraded} ungraded, {count(judged.identical_repeats, 'identical repeat')} ignored"
            + (f", {judged.comment_lines} comment lines skipped" if judged.comment_lines else "")
        )
    return 0


def _import_release(args: argparse.Namespace, negative: NegativeGrades) -> int:
    """``import-qrels --release``: the per-query changes, a question (or --yes), then the draft made the file's."""
    opened = open_to_read(args.project) if args.dry_run else open_to_grade(args.project)
    with opened as (project, annotator):
        preview = plan_release(project, args.file, negative=negative, fmt=args.format)
        print("\n".join(release_lines(preview)))
        if args.dry_run or preview.unchanged:
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError(
                    "a release changes the draft and stdin is not a terminal to ask: nothing was written; "
                    "confirm with --yes (or look first with --dry-run)",
                    path=args.file,
                )
            answer = input(f"make {preview.draft} equal to {plain(preview.path.name)}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing was written")
                return 1
        applied = apply_release(project, preview, annotator=annotator)
    print(
        f"draft version {applied.version} is now {plain(preview.path.name)}'s judgments, credited to "
        f"{plain(preview.source)}; every change is in the audit log as release ({plain(preview.source)})"
    )
    return 0


def release_lines(preview: ReleasePreview) -> list[str]:
    """The per-query changes of a release and their totals, as the command line prints them."""
    table = preview.per_query
    width = max(12, *(len(plain(str(q))) for q in table["query_id"])) if len(table) else 12
    lines = [f"release {plain(preview.path.name)} into {preview.draft}: {preview.words()}"]
    if len(table):
        lines.append(f"{'query':<{width}} {'added':>8} {'withdrawn':>9} {'regraded':>8} {'iteration':>9}")
        for row in table.itertuples(index=False):
            lines.append(
                f"{plain(str(row.query_id)):<{width}} {row.added:>8} {row.withdrawn:>9} {row.regraded:>8} "
                f"{row.iteration:>9}"
            )
    return lines


def _ratings_text(done: RatingsImport) -> str:
    t, who = done.totals, plain(done.annotator)
    started = f" (started: {done.started})" if done.started else ""
    lines = [
        f"draft version {done.version}{started}: {count(done.items_added, 'item')} "
        "joined the pool"
        + (f", {done.ungraded} of them for negative grades, without a rating" if done.ungraded else "")
        + (f"; {count(done.comment_lines, 'comment line')} skipped" if done.comment_lines else ""),
        f"{who}: {count(t['new'], 'new rating')}, {t['changed']} changed, {t['unchanged']} unchanged"
        + (f", {t['removed']} removed" if t["removed"] else "")
        + f" from {plain(done.path.name)}; {count(t['unsettled'], 'item')} rated differently "
        + f"{plural(t['unsettled'], 'waits', 'wait')} for adjudication",
    ]
    lines += [
        f"warning: {who}'s ratings equal {plain(other)}'s on every one of the {count(items, 'item')} "
        "both rated (the same file twice, or one person under two names?); ndcg agreement shows the figures with "
        "and without the duplicate"
        for other, items in done.identical
    ]
    return "\n".join(lines)


def cmd_import_run(args: argparse.Namespace) -> int:
    from ndcg_desktop.cli.options import id_map_of

    with open_to_grade(args.project) as (project, annotator), _format_is_called_format():
        info = import_run(
            project,
            args.file,
            name=args.name,
            ties=TiePolicy(args.ties),
            id_map=id_map_of(args),
            fmt=args.format,
            order=ORDER_CHOICES.get(args.order or ""),
            annotator=annotator,
        )
        print(
            f"imported run {plain(info.name)}: {count(info.rows, 'document')} "
            f"for {count(info.queries, 'query')} ({info.format}, "
            f"sha256 {info.sha256[:12]}…)"
        )
    return 0


def cmd_pool(args: argparse.Namespace) -> int:
    request = PoolRequest(
        tuple(args.runs),
        Strategy.parse(args.strategy),
        parse_budget(args.budget),
        args.depth,
        tuple(args.queries) if args.queries else None,
        args.batch_size,
    )
    # a dry run writes nothing; a change is credited as tasks.identity and tasks.work_files decide
    with open_to_read(args.project) if args.dry_run else open_to_grade(args.project) as (project, annotator):
        plan = plan_pool(project, request)
        counts = plan.per_query if args.dry_run else apply_pool(project, plan, annotator=annotator).per_query
        draft = project.pools.draft()
        verb = "would add" if args.dry_run else "added"
        for row in in_natural_order(counts).itertuples(index=False):  # q2 before q10, as the window
            print(f"{row.query_id}\t{verb} {row.new} of {row.chosen} chosen (depth pool {row.candidates})")
        where = f"draft version {draft.version}" if draft else "a new draft"
        print(f"{verb} {count(int(counts['new'].sum()), 'document')} to {where} ({count(len(counts), 'query')})")
        batch = f", first batch of {request.batch_size} a query" if request.batch_size else ""
        print(f"strategy {request.strategy}, budget {budget_text(request.budget)}, depth {request.depth}{batch}")
    return 0


def cmd_pool_next(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        added = next_batches(project, annotator=annotator)
        for batches in added.added.values():
            for query_id in sorted(batches, key=natural_key):
                print(f"{query_id}\tadded {count(len(batches[query_id]), 'document')}")
        print(
            f"added {count(added.documents, 'document')}"
            f" to draft version {added.version} ({count(added.queries, 'query')})"
        )
    return 0


def cmd_send_for_judging(args: argparse.Namespace) -> int:
    # a dry run writes nothing; a change is credited as tasks.identity and tasks.work_files decide
    with open_to_read(args.project) if args.dry_run else open_to_grade(args.project) as (project, annotator):
        plan = plan_send_for_judging(
            project,
            args.run_name,
            args.pool_version,
            depth=args.depth,
            scope=QueryScope(args.queries),
        )
        verb = "would add" if args.dry_run else "added"
        for row in in_natural_order(plan.per_query).itertuples(index=False):  # q2 before q10, as the window
            print(f"{row.query_id}\t{verb} {row.to_add} of {row.unjudged} unjudged ({row.waiting} already waiting)")
        if args.dry_run:
            where = f"draft version {plan.draft}" if plan.draft is not None else "a new draft"
            print(f"would add {count(plan.total, 'document')} of run {plain(args.run_name)} to {where}")
            return 0
        sent = apply_send_for_judging(project, plan, annotator=annotator)
        print(
            f"{count(plan.total, 'document')} of run {args.run_name} "
            f"{plural(plan.total, 'awaits', 'await')} grading in draft version "
            f"{sent.draft}; freeze it, then score again"
        )
    return 0


def discard_words(plan: DiscardPlan) -> str:
    """What a discard deletes, as the window's confirmation counts it: the items, then every rating, adjudication,
    handout and model answer that goes with them (a table a later format adds is named as it is)."""
    parts = [f"its {count(plan.items, 'item')}"]
    if plan.ratings:
        parts.append(f"{count(plan.ratings, 'rating')} (by {', '.join(plain(a) for a in plan.annotators)})")
    if plan.adjudicated:
        parts.append(count(plan.adjudicated, "adjudication"))
    if plan.assignments:
        parts.append(count(plan.assignments, "work-file assignment"))
    if plan.model_answers:
        parts.append(f"{count(plan.model_answers, 'answer')} given by language models")
    if plan.handouts:
        parts.append(f"{count(plan.handouts, 'work file')} handed out")
    if plan.pool_builds:
        parts.append(f"{count(plan.pool_builds, 'record')} of how it was pooled (strategy, runs, order of choice)")
    parts += [f"{count(rows, 'row')} of {table}" for table, rows in sorted(plan.unnamed.items())]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def cmd_discard_draft(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        plan = plan_discard(project)
        if not args.yes:
            raise InputError(
                f"discarding draft version {plan.draft.version} cannot be undone and deletes {discard_words(plan)}; "
                "add --yes to confirm",
                path=project.path,
            )
        print(f"discarded draft version {discard_draft(project, annotator=annotator)}")
    return 0


def cmd_freeze(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        frozen = freeze(
            project,
            remove_ungraded=args.remove_ungraded,
            fill_from=args.fill_ungraded_from,
            min_shared=args.min_shared,
            work_out=args.with_work_out,
            annotator=annotator,
        )
        print(f"froze pool version {frozen.version.version}")
        if args.fill_ungraded_from is not None:
            what = f"filled from {plain(args.fill_ungraded_from)}"
            print(f"filled     {count(frozen.filled, 'item')}; " + flagged_text(frozen.flagged, frozen.filled, what))
        for line in model_lines(frozen.team):
            print(line)
        for rated in frozen.annotators:
            print(f"annotator {plain(rated.name)}: {count(rated.ratings, 'rating')} (SHA-256 of them: {rated.sha256})")
        if frozen.adjudication:
            print("adjudicated " + ", ".join(f"{n} by {how}" for how, n in frozen.adjudication))
        print(f"sha256 {frozen.version.hash}")  # last: scripts read the version's hash from here
    return 0


def cmd_new_draft(args: argparse.Namespace) -> int:
    with open_to_grade(args.project) as (project, annotator):
        started = start_draft(project, args.from_version, annotator=annotator)
        print(f"draft version {started.draft.version} started from version {started.source}")
    return 0


def cmd_export_qrels(args: argparse.Namespace) -> int:
    with Project.open(args.project, read_only=True) as project:
        version, manifest = export_frozen_pool(
            project,
            args.output,
            version=args.version,
            fmt=args.format,
            force=args.force,
            iterations=tuple(args.iteration or ()),
        )
        print(
            f"wrote pool version {version.version} (sha256 {(version.hash or '')[:12]}…) to {plain(str(args.output))}"
            f", its manifest to {plain(str(manifest))}"
        )
    return 0
