"""What a user sees of the evaluation choices, pinned from the code before they became one table (issue 23).

The snapshots in ``snapshots/`` were written by the code before the table (90840cf): every ``--help`` that
offers a choice, ``to_text``, ``describe`` and the manifest's settings for each choice's every value, and the
JSON of ``ndcg score`` and ``ndcg compare`` on the Cranfield files (the creation time masked). A change to
any of them is a change a user sees; ``NDCG_UPDATE_SNAPSHOTS=1`` rewrites them on purpose.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import build_parser, main
from ndcg_desktop.domain import DataTerms, EvalSettings, Measure
from ndcg_desktop.domain.settings import (
    DuplicatePolicy,
    Gain,
    QuerySet,
    TiePolicy,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
COMMANDS = ("score", "compare", "diff-pools", "agreement", "adjudicate", "import-run")


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("NDCG_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    assert text == path.read_text(encoding="utf-8")


def every_setting() -> list[tuple[Measure, int]]:
    """The defaults, each choice's every value on its own, then every non-default value at once (at K = 7); K 10."""
    out = [EvalSettings().under(DataTerms())]
    for name, enum in (
        ("gain", Gain),
        ("unjudged", UnjudgedPolicy),
        ("duplicates", DuplicatePolicy),
        ("zero_idcg", ZeroIdcgPolicy),
        ("queries", QuerySet),
        ("unknown_queries", UnknownQueryPolicy),
    ):
        out += [EvalSettings(**{name: value}).under(DataTerms()) for value in enum]
    out += [EvalSettings().under(DataTerms(ties=value)) for value in TiePolicy]  # the run's reading
    out.append(
        EvalSettings(
            gain="exponential",
            unjudged="condense",
            duplicates="first",
            zero_idcg="exclude",
            queries="run",
            unknown_queries="ignore",
        ).under(DataTerms(ties="file-order", scale="-1..4", id_map="#"))
    )
    return [(settings, 10) for settings in out[:-1]] + [(out[-1], 7)]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_unchanged(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal's width
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    check(f"help-{command}.txt", sub.choices[command].format_help())


def test_settings_texts_are_unchanged():
    lines = []
    for settings, k in every_setting():
        lines += [settings.to_text(k), settings.describe(k), json.dumps(settings.as_dict(k)), ""]
    check("settings.txt", "\n".join(lines))


def masked(text: str) -> str:
    return re.sub(r'"created": "[^"]*"', '"created": "<masked>"', text)


def pinned(doc_text: str) -> str:
    """Everything but the per-query objects verbatim, and those by their SHA-256 (225 queries)."""
    doc = json.loads(doc_text)
    queries = doc.pop("queries", None) if "queries" in doc else None
    digest = hashlib.sha256(doc_text.encode()).hexdigest()
    shown = json.dumps(doc, indent=2, ensure_ascii=False)
    return f"sha256 of the whole output: {digest}\nqueries: {len(queries) if queries else None}\n{shown}\n"


SCORED = (
    ("score-zero", ["--unjudged", "zero"]),
    (
        "score-all",
        "--unjudged condense --duplicates first --zero-idcg exclude --queries run --unknown-queries ignore "
        "--ties docid-asc --gain exponential --k 5".split(),
    ),
)


@pytest.mark.parametrize(("name", "options"), SCORED)
def test_score_json_is_unchanged(name, options, data_dir, capsys, monkeypatch):
    monkeypatch.chdir(data_dir / "cranfield")  # the manifest names the files as given
    assert main(["score", "--qrels", "qrels.txt", "--run", "bm25.run.gz", "--scale", "0..4", *options, "--json"]) == 0
    check(f"{name}.json.txt", pinned(masked(capsys.readouterr().out)))


def test_compare_json_is_unchanged(data_dir, capsys, monkeypatch):
    monkeypatch.chdir(data_dir / "cranfield")
    args = ["compare", "--qrels", "qrels.txt", "--runs", "bm25.run.gz", "tfidf.run.gz", "--scale", "0..4"]
    assert main([*args, "--unjudged", "zero", "--k", "5,10", "--resamples", "200", "--json"]) == 0
    check("compare.json.txt", masked(capsys.readouterr().out))


def test_runs_view_settings_line_is_unchanged(tmp_path):
    """The Runs view's line (and so its captions and manifest) on the demo project, scale 0..3 like the default."""
    from ndcg_desktop.demo import build_demo
    from ndcg_desktop.scoring.stats import StatsSettings
    from ndcg_desktop.sessions.runs import RunsSession
    from ndcg_desktop.store import Project

    with Project.open(build_demo(tmp_path / "demo.ndcgproj")) as project:
        session = RunsSession()
        session.set_project(project)
        session._stats = StatsSettings(resamples=200)
        job = session.check_job()
        assert session.apply(job, job())
        session.choose_all("unjudged", "zero")
        session.choose("dense", "duplicates", "first")  # each run's choices named in the line
        job = session.score_job()
        assert session.apply(job, job())
        comparison = session.result.comparison
        assert comparison.manifest["settings_line"] == comparison.settings_line()
        check("runs-view.txt", comparison.settings_line() + "\n")
