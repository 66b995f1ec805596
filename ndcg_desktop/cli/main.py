"""The ``ndcg`` command line: a thin front over the use cases in :mod:`ndcg_desktop.tasks`."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ndcg_desktop import __version__
from ndcg_desktop.cli.compare import add_compare_command
from ndcg_desktop.cli.diff_pools import add_diff_pools_command
from ndcg_desktop.cli.options import (
    add_iteration_option,
    add_k_option,
    add_policy_options,
    given_scale_named,
    reading_asked,
    settings_of,
    terms_of,
    whole_number,
)
from ndcg_desktop.cli.pooling import add_pooling_commands
from ndcg_desktop.domain import (
    InputError,
)
from ndcg_desktop.formats.choices import ORDER_CHOICES

# numpy, pyarrow and pandas (together about half a second) are imported where they are used:
# ``ndcg --version`` and the parser need none of them, scoring files (tasks.files) loads no project store,
# and no pandas unless --export asks for its tables (tests/cli/test_lean_imports.py).
if TYPE_CHECKING:
    from ndcg_desktop.scoring import Evaluation


def build_parser(*, project_commands: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ndcg",
        description="Score retrieval runs with NDCG against a fixed judged universe, making every choice explicit.",
    )
    parser.add_argument("--version", action="version", version=f"ndcg-desktop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    score = sub.add_parser(
        "score",
        help="score a run against judgments",
        description="Score a run against judgments (qrels). Problems are errors until you choose a policy.",
        epilog="The ideal ranking (IDCG) comes from every judged document of the query, never from the ones the "
        "run returned. The rules behind every option, each with a worked example: docs/evaluation-contract.md "
        "in the source repository.",
    )
    score.add_argument("--qrels", metavar="FILE", help="judgments: TREC qrels, CSV or TSV (.gz ok)")
    score.add_argument("--run", metavar="FILE", help="run: TREC, CSV, TSV or JSONL (.gz ok)")
    score.add_argument("--project", metavar="PROJECT", help="score a run stored in a project instead of files")
    score.add_argument("--run-name", metavar="NAME", help="with --project: the imported run to score")
    score.add_argument(
        "--pool-version",
        type=whole_number("--pool-version", 1),
        metavar="N",
        help="with --project: frozen pool version (default latest)",
    )
    score.add_argument(
        "--residual-from",
        type=whole_number("--residual-from", 1),
        metavar="U",
        help="with --project: score residually: every document judged in the earlier frozen version U is removed, "
        "per query, from the run and from the judgments before scoring (TREC-COVID's rounds 2-5)",
    )
    add_iteration_option(score, "with --project: score against the version's judgments of iteration VALUE only")
    add_k_option(score)
    add_policy_options(score)
    score.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    score.add_argument("--export", metavar="DIR", help="write per_query.csv, per_position.csv, manifest.json")
    add_compare_command(sub)
    add_diff_pools_command(sub)
    add_pooling_commands(sub)
    if project_commands:
        from ndcg_desktop.cli.agreement import add_agreement_command
        from ndcg_desktop.cli.project import add_project_commands

        add_project_commands(sub)
        add_agreement_command(sub)
        from ndcg_desktop.cli.judge import add_judge_command
        from ndcg_desktop.cli.teams import add_team_commands

        add_team_commands(sub)
        add_judge_command(sub)
    return parser


def run_score(args: argparse.Namespace) -> int:
    if args.project:
        _score_project(args)
    else:
        if args.iteration:
            raise InputError("--iteration filters a project's pool version: give it with --project")
        _report(args, _score_files(args))
    return 0


def _report(args: argparse.Namespace, evaluation: Evaluation) -> None:
    """The export and the printed result; raises if either cannot be written (a full disk, a closed pipe)."""
    from ndcg_desktop.cli.report import to_json_text, to_text

    if args.export:
        from ndcg_desktop.formats.export import export_evaluation  # here: it loads pandas (issue 37)

        export_evaluation(evaluation, args.export)  # refusals and system errors are InputError, naming the path
    sys.stdout.write((to_json_text(evaluation) if args.json else to_text(evaluation)) + "\n")  # one write
    sys.stdout.flush()  # a write that fails fails here, before anything is recorded


def _score_files(args: argparse.Namespace) -> Evaluation:
    if args.residual_from is not None:
        raise InputError("--residual-from names an earlier frozen pool version: give it with --project")
    if not (args.qrels and args.run):
        raise InputError("give --qrels FILE and --run FILE (or --project PROJECT --run-name NAME)")
    terms = terms_of(args)  # how the files are read: --scale, --ties, --id-map
    settings = settings_of(args).under(terms)
    from ndcg_desktop.tasks.files import score_files  # here: --version and the parser import no pandas

    return score_files(
        args.qrels,
        args.run,
        settings,
        args.k,
        qrels_format=args.qrels_format,
        run_format=args.run_format,
        order=ORDER_CHOICES.get(args.order or ""),
    )


def _score_project(args: argparse.Namespace) -> None:
    """Score a stored run, report it, then record it: a command that fails (its export or its output
    cannot be written) records nothing."""
    from ndcg_desktop.tasks import score_run
    from ndcg_desktop.tasks.identity import open_to_grade
    from ndcg_desktop.tasks.project import Project, ProjectInUse, ProjectReadOnly
    from ndcg_desktop.tasks.scoring import record_score, stored_run_to_score

    if args.qrels or args.run or not args.run_name:
        raise InputError("with --project, name the stored run with --run-name (and give no --qrels or --run)")
    try:
        project = open_to_grade(args.project).project  # writable: the evaluation is recorded in the project
    except (ProjectInUse, ProjectReadOnly) as exc:  # score anyway, from a read-only view
        project = Project.open(args.project, read_only=True)
        why = "is open elsewhere" if isinstance(exc, ProjectInUse) else "cannot be written"
        from ndcg_desktop.formats.cells import plain

        print(f"note: {plain(args.project)} {why}; this evaluation is not recorded in it", file=sys.stderr)
    with project:
        chosen = stored_run_to_score(
            project,
            args.run_name,
            args.pool_version,
            asked=reading_asked(args),  # the run's own reading, else refused
            scale=args.scale,
        )
        info, version = chosen.info, chosen.version
        settings = settings_of(args)  # the policies; the run's reading and the version's scale are the task's
        iterations = tuple(args.iteration or ())
        scored = score_run(
            project,
            info.name,
            version.version,
            settings,
            args.k,
            record=False,
            residual_from=args.residual_from,
            iterations=iterations,
        )
        try:
            _report(args, scored.evaluation)
        except BrokenPipeError:  # the reader stopped reading (`| head`): a success, as its exit code says
            record_score(project, scored)
            raise
        record_score(project, scored)
        if scored.not_recorded:
            print(f"note: {scored.not_recorded}; this evaluation is not recorded in it", file=sys.stderr)


def _join_negative_scale(argv: list[str]) -> list[str]:
    """Let ``--scale -1..4`` through: argparse would take ``-1..4`` for an option."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--scale" and re.match(r"-\d", arg):
            out[-1] = f"--scale={arg}"
        else:
            out.append(arg)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _join_negative_scale(list(sys.argv[1:] if argv is None else argv))
    # ``score`` and ``--version`` parse the same without the project commands, and skip importing the store.
    parser = build_parser(project_commands=arguments[:1] not in (["score"], ["--version"]))
    args = parser.parse_args(arguments)
    try:
        code = run_score(args) if args.command == "score" else int(args.handler(args))
        sys.stdout.flush()  # a full disk or a closed pipe shows here, inside the handlers below
        return code
    except InputError as exc:
        print(f"error: {_said(given_scale_named(exc, args))}", file=sys.stderr)
        return 2
    except MemoryError:  # a last resort: the readers bound what they hold, a machine may still have less
        # The readers name their file; this names the command's input file for what runs after them.
        where = getattr(args, "file", None) or getattr(args, "run", None)
        from ndcg_desktop.formats.cells import show

        print(f"error: {show(str(where)) + ': ' if where else ''}not enough memory for this input", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as exc:  # only writing the output reaches here: inputs and outputs are InputError
        if exc.filename is not None:
            raise
        _drop_stdout()
        reason = exc.strerror[:1].lower() + exc.strerror[1:] if exc.strerror else str(exc)
        print(f"error: cannot write the output: {reason}", file=sys.stderr)
        return 2
    except Exception as exc:  # sqlite3.Error (unrelated to the classes above), a last resort: the store translates
        # what it raises; the same map, here too. sqlite3 is only looked at once a command has loaded it.
        sqlite3 = sys.modules.get("sqlite3")
        if sqlite3 is None or not isinstance(exc, sqlite3.Error):
            raise
        from ndcg_desktop.tasks.project import known_error

        known = known_error(exc, getattr(args, "project", None) or "the project file")
        if known is None:
            raise
        print(f"error: {_said(known)}", file=sys.stderr)
        return 2


def _said(error: InputError) -> str:
    """``error`` in the command line's words: a project's refusals are worded by tasks (what still works on a file
    that cannot be written)."""
    from ndcg_desktop.tasks.refusals import said_on_the_command_line  # here: ``ndcg --version`` imports no tasks

    return said_on_the_command_line(error)


def _drop_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush of what it holds fails no more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout (a test's capture): nothing is flushed at exit either
        pass


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":  # python -m ndcg_desktop.cli.main, as the ndcg script
    entry_point()
