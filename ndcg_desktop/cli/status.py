"""``ndcg status``: the project's state (its grades, contents, guidelines, pool versions and how each was built,
runs) and its judging pace, as text or JSON (``tasks.status`` and ``tasks.pace`` compute them)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ndcg_desktop.cli.json_out import json_text
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.pace import duration_text
from ndcg_desktop.formats.cells import plain, show
from ndcg_desktop.tasks.pace import PaceReport, pace_report
from ndcg_desktop.tasks.project import Project
from ndcg_desktop.tasks.status import project_status


def cmd_status(args: argparse.Namespace) -> int:
    with Project.open(args.project, read_only=True) as project:
        status = project_status(project)
        pace = pace_report(project)
    if args.json:
        sys.stdout.write(json_text({**status, "pace": pace.as_dict()}))
        return 0
    print(_status_text(status))
    print(_pace_text(pace))
    return 0


def _pace_text(report: PaceReport) -> str:
    """The judging-pace section of ``ndcg status``: per annotator and day, then the draft's time left."""
    pace = report.pace
    if pace.by_annotator.empty:
        return "\njudging pace: no grades given in this project yet (imported grades are not timed)"
    lines = ["", f"judging pace ({report.rule}):"]

    def seconds(value: float) -> str:
        return "-" if value != value else f"{value:.1f} s"

    for who, day, graded, timed, median_s in pace.by_day.itertuples(index=False, name=None):
        lines.append(f"  {plain(who)}  {day}  {graded} graded, median {seconds(median_s)} per judgment ({timed} timed)")
    for who, graded, timed, median_s in pace.by_annotator.itertuples(index=False, name=None):
        lines.append(f"  {plain(who)}  all days    {graded} graded, median {seconds(median_s)} ({timed} timed)")
    if report.draft is not None:
        left = (
            f"about {duration_text(report.time_left_s)} left at {pace.median_s:.1f} s per judgment"
            if report.time_left_s is not None and pace.median_s is not None
            else "no timed judgment yet to estimate the time left"
        )
        lines.append(f"draft v{report.draft}: {report.ungraded} ungraded, {left}")
    return "\n".join(lines)


def _status_text(s: dict[str, Any]) -> str:
    lines = [
        f"project    {plain(str(s['project']))}",
        *(
            [f"WARNING    protection triggers not intact ({'; '.join(s['protection'])}); open read-only only"]
            if s["protection"]
            else []
        ),
        f"grades     {s['scale']}: {', '.join(map(plain, s['labels']))}",
        f"contents   {count(s['counts']['queries'], 'query')}, {count(s['counts']['documents'], 'document')}, "
        f"{count(s['counts']['runs'], 'run')}",
        (
            f"guidelines sha256 {s['guidelines']['sha256']}, set {s['guidelines']['set_at']} by "
            f"{plain(str(s['guidelines']['set_by']))} ({plain(str(s['guidelines']['source']))})"
            if s["guidelines"]
            else "guidelines none (ndcg set-guidelines PROJECT FILE.md)"
        ),
        "",
        "pool versions:" if s["pool_versions"] else "pool versions: none yet (import judgments or pool from runs)",
    ]
    for v in s["pool_versions"]:
        state = (
            f"frozen {v['frozen_at']} by {plain(str(v['frozen_by']))}, sha256 {v['hash'][:12]}…"
            + (
                ""
                if v["intact"]
                else f" CHANGED SINCE FROZEN: {plain(v['changed'])}"
                if v.get("changed")
                else f" NOT PROVEN: {plain(str(v.get('unproven')))}"
            )
            if v["state"] == "frozen"
            else "draft" + ("" if v.get("changed") is None else f" FROZEN BEFORE: {plain(v['changed'])}")
        )
        lines.append(
            f"  v{v['version']}  {state}; {count(v['queries'], 'query')}, "
            f"{count(v['items'], 'item')}, {v['graded']} graded, "
            f"{v['ungraded']} ungraded"
            + (f", judged under guidelines {v['guidelines_sha256'][:12]}…" if v["guidelines_sha256"] else "")
        )
        for b in v.get("pooling", []):  # rule 20: how the pool was built
            runs = ", ".join(plain(str(r["name"])) for r in b["runs"])
            batch = f", batches of {b['batch_size']}" if b["batch_size"] is not None else ""
            lines.append(
                f"      pooled by {b['strategy']}, budget {b['budget']}, depth {b['depth']}{batch}, "
                f"{count(len(b['queries']), 'query')}, runs {runs} ({b['built_at']} by {plain(str(b['built_by']))})"
            )
    if s["runs"]:
        lines += ["", "runs:"]
        for r in s["runs"]:
            mapping = f", IDs cut at {show(r['id_map'])}" if isinstance(r["id_map"], str) else ""
            if isinstance(r["id_map"], dict):
                mapping = f", IDs mapped by {plain(r['id_map']['file'])} (sha256 {r['id_map']['sha256'][:12]}…)"
            lines.append(
                f"  {plain(r['name'])}  {plain(r['source'])} ({r['format']}, {count(r['rows'], 'document')}, "
                f"{count(r['queries'], 'query')}, ties {r['ties']}{mapping})"
            )
    return "\n".join(lines)
