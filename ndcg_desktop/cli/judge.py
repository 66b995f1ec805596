"""`ndcg judge`: a language model judges a draft's items as annotator model:<name> (issue 25, contract rule 18)."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from types import FrameType

from ndcg_desktop.cli.options import decimal_number, whole_number
from ndcg_desktop.cli.progress import terminal_progress
from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.counts import count
from ndcg_desktop.formats.cells import plain
from ndcg_desktop.tasks.assessing import (
    SCOPES,
    AssessorSettings,
    Estimate,
    JobResult,
    Selection,
    estimate,
    load_template,
    run_job,
)
from ndcg_desktop.tasks.identity import open_to_grade


def add_judge_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "judge",
        help="let a language model grade the draft's items as annotator model:NAME (measured, never trusted blindly)",
        description="Ask a model behind an OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp, vLLM, "
        "LM Studio, a hosted API) to grade the draft's items. Its grades are the ratings of annotator model:NAME; "
        "every answer is kept with its latency and tokens, an answer that does not parse is a failed attempt. "
        "A second run with the same model and template continues where the first stopped. Its ratings never "
        "settle an item: calibrate with --items rated, read ndcg agreement, and fill ungraded items only with "
        "ndcg freeze --fill-ungraded-from model:NAME.",
    )
    p.add_argument("project", metavar="PROJECT")
    p.add_argument("--endpoint", required=True, metavar="URL", help="the server's base URL: http://127.0.0.1:8080/v1")
    p.add_argument("--model", required=True, metavar="NAME", help="the model's name on that server")
    p.add_argument("--template", metavar="FILE", help="a prompt template instead of the built-in one")
    p.add_argument(
        "--items",
        choices=list(SCOPES),
        default="ungraded",
        help="ungraded: items no person rated (default); rated: items people rated, to calibrate; all",
    )
    p.add_argument("--queries", metavar="ID,...", help="only these queries (comma-separated)")
    p.add_argument("--sample", type=whole_number("--sample", 1), metavar="N", help="a random sample of N items")
    p.add_argument("--seed", type=whole_number("--seed", 0), default=0, help="the sample's seed and the model's (0)")
    p.add_argument(
        "--concurrency", type=whole_number("--concurrency", 1, 64), default=1, metavar="N", help="requests at once (1)"
    )
    p.add_argument(
        "--timeout",
        type=decimal_number("--timeout", 0, 3600, open_low=True),
        default=60.0,
        metavar="S",
        help="seconds to wait for one answer (60)",
    )
    p.add_argument(
        "--retries",
        type=whole_number("--retries", 0, 10),
        default=2,
        metavar="N",
        help="tries again after a timeout or a server error, with backoff (2)",
    )
    p.add_argument(
        "--max-tokens", type=whole_number("--max-tokens", 1, 100_000), default=16, metavar="N", help="per answer (16)"
    )
    p.add_argument(
        "--api-key-env", metavar="VAR", help="the environment variable holding the API key (it is never stored)"
    )
    p.add_argument(
        "--no-schema",
        action="store_true",
        help="do not ask for structured output (for servers without it); answers are parsed strictly",
    )
    p.add_argument("--dry-run", action="store_true", help="make a few real calls, estimate the job, record nothing")
    p.set_defaults(handler=cmd_judge)


def settings_of(args: argparse.Namespace) -> AssessorSettings:
    return AssessorSettings(
        endpoint=args.endpoint,
        model=args.model,
        api_key_env=args.api_key_env,
        seed=args.seed,
        max_tokens=args.max_tokens,
        timeout=args.timeout,
        retries=args.retries,
        concurrency=args.concurrency,
        schema=not args.no_schema,
    )


def cmd_judge(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    template = load_template(args.template)
    queries = tuple(q.strip() for q in args.queries.split(",")) if args.queries else ()
    if any(not q for q in queries):
        raise InputError("--queries: a query ID is empty; give comma-separated IDs such as q1,q2")
    selection = Selection(items=args.items, queries=queries, sample=args.sample, seed=args.seed)
    with open_to_grade(args.project) as (project, annotator):
        if args.dry_run:
            print(_estimate_text(estimate(project, settings, template, selection), settings))
            return 0
        result = _run_interruptible(
            lambda cancelled, aborted, progress: run_job(
                project,
                settings,
                template,
                selection,
                progress=progress,
                cancelled=cancelled,
                aborted=aborted,
                started_by=annotator,
            )
        )
    print(_result_text(result, settings, template.sha256))
    if result.stopped:
        raise InputError(f"{result.stopped}; what was judged is kept, run the same command again to continue")
    return 130 if result.cancelled else 0


Flag = Callable[[], bool]


def _run_interruptible(job: Callable[[Flag, Flag, Callable[[int, int], None]], JobResult]) -> JobResult:
    """Run ``job(cancelled, aborted, progress)`` with Ctrl+C asking it to stop after the answers in flight (each
    within its deadline, kept); a second Ctrl+C ends the requests in flight at once, keeping every answer received;
    a third interrupts. Progress with an ETA goes to a terminal's stderr."""
    stop = {"asked": False, "now": False}

    def interrupted(signum: int, frame: FrameType | None) -> None:
        if stop["now"]:
            raise KeyboardInterrupt
        if stop["asked"]:
            stop["now"] = True
            print("\nstopping now: the requests in flight are dropped", file=sys.stderr, flush=True)
            return
        stop["asked"] = True
        print("\nstopping after the answers in flight (Ctrl+C again to stop now)", file=sys.stderr, flush=True)

    def words(done: int, total: int, elapsed: float) -> str:
        eta = f", about {_duration(elapsed / done * (total - done))} left" if done else ""
        return f"judged {done} of {total}{eta}"

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        with terminal_progress(words) as progress:
            return job(lambda: stop["asked"], lambda: stop["now"], progress)
    finally:
        signal.signal(signal.SIGINT, previous)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if seconds >= 3600
        else (f"{seconds // 60}:{seconds % 60:02d}")
    )


def _estimate_text(found: Estimate, settings: AssessorSettings) -> str:
    lines = [
        f"{count(found.items, 'item')}"
        f" to judge ({found.already_judged} in scope already judged by {settings.annotator} "
        "with this template)"
    ]
    for attempt in found.sample:
        what = f"grade {attempt.grade}" if attempt.ok else f"failed: {attempt.failure}"
        lines.append(f"  {plain(attempt.query_id)} {plain(attempt.doc_id)}: {plain(what)} ({attempt.latency:.2f} s)")
    if not found.items:
        lines.append("nothing left to judge")
    elif found.seconds is None:
        lines.append("no call of the sample succeeded: no estimate of time")
    else:
        tokens = f", about {found.tokens:,.0f} tokens" if found.tokens is not None else ""
        lines.append(
            f"estimate: {found.seconds_per_item:.2f} s per item, about {_duration(found.seconds)} at concurrency "
            f"{found.concurrency}{tokens}"
        )
    lines.append("dry run: nothing was recorded")
    return "\n".join(lines)


def _result_text(result: JobResult, settings: AssessorSettings, template_sha256: str) -> str:
    lines = [
        f"{settings.annotator} on draft version {result.version} ({settings.host}, template sha256 "
        f"{template_sha256[:12]}…): {result.graded} graded, {result.failed} failed, {result.skipped} of "
        f"{result.in_scope} in scope judged before"
        + (
            f"; run {result.run_id}"
            if result.run_id is not None
            else "; nothing received"
            if result.cancelled
            else "; nothing left to judge"
        )
    ]
    for attempt in result.failures:
        lines.append(f"  failed {plain(attempt.query_id)} {plain(attempt.doc_id)}: {plain(attempt.failure or '')}")
    if result.cancelled:
        lines.append("interrupted: every answer received is kept; run the same command again to continue")
    return "\n".join(lines)
