"""Every ``--json`` of every command is valid JSON in every state of a project (issue 33, item 17).

``ndcg agreement PROJECT --json`` on a frozen project whose runs need a choice crashed (``NotScored is not JSON
serializable``). The walk below runs every command that has ``--json`` (found from the parser, so a new one is
walked too) over a fresh, a drafted, a frozen and a team project. A command either answers (exit 0, and its
output parses as strict JSON: no NaN, no Infinity) or refuses (exit 2, one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import build_parser, main

QRELS = "q1 0 A 3\nq1 0 B 0\nq1 0 C 1\nq2 0 A 2\nq2 0 D 0\n"
ANA = "q1 0 A 3\nq1 0 B 0\nq1 0 C 1\nq2 0 A 2\nq2 0 D 0\n"
BEN = "q1 0 A 2\nq1 0 B 0\nq1 0 C 1\nq2 0 A 2\nq2 0 D 1\n"
RUNS = {  # r2 returns X, which no version judged: it needs an unjudged policy (a choice) to be scored
    "r1": "q1 Q0 A 1 3 r1\nq1 Q0 C 2 2 r1\nq2 Q0 D 1 2 r1\nq2 Q0 A 2 1 r1\n",
    "r2": "q1 Q0 X 1 3 r2\nq1 Q0 B 2 2 r2\nq2 Q0 A 1 2 r2\n",
}
STATES = ("fresh", "drafted", "frozen", "team")


def commands_with_json() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name
        for name, command in sub.choices.items()
        if "--json" in [option for action in command._actions for option in action.option_strings]
    }


def _ok(argv: list[str]) -> None:
    assert main(argv) == 0, argv


def make_project(folder: Path, state: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    project = folder / f"{state}.ndcgproj"
    _ok(["init", str(project)])
    for name, text in {"qrels.txt": QRELS, "ana.qrels": ANA, "ben.qrels": BEN}.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, text in RUNS.items():
        (folder / f"{name}.run").write_text(text, encoding="utf-8")
    if state == "drafted":
        _ok(["import-qrels", str(project), str(folder / "qrels.txt")])
    if state == "frozen":
        _ok(["import-qrels", str(project), str(folder / "qrels.txt")])
        _ok(["freeze", str(project)])
    if state == "team":
        _ok(["import-qrels", str(project), str(folder / "ana.qrels"), "--annotator", "ana"])
        _ok(["import-qrels", str(project), str(folder / "ben.qrels"), "--annotator", "ben"])
        _ok(["adjudicate", str(project), "--rule", "median"])
        _ok(["freeze", str(project)])
    if state in ("frozen", "team"):
        for name in RUNS:
            _ok(["import-run", str(project), str(folder / f"{name}.run"), "--name", name])
        _ok(["new-draft", str(project)])  # a second version, drafted: diff-pools has two to compare
    return project


def invocations(project: Path) -> dict[str, list[list[str]]]:
    p = str(project)
    runs = ["--run-names", "r1", "r2"]
    return {
        "score": [
            ["score", "--project", p, "--run-name", "r1", "--json"],
            ["score", "--project", p, "--run-name", "r2", "--json"],  # needs a choice: refused on stderr
            ["score", "--project", p, "--run-name", "r2", "--unjudged", "zero", "--json"],
        ],
        "compare": [
            ["compare", "--project", p, *runs, "--json"],
            ["compare", "--project", p, *runs, "--unjudged", "condense", "--json", "--resamples", "200"],
        ],
        "diff-pools": [["diff-pools", p, "1", "2", "--json"]],
        "simulate-pooling": [["simulate-pooling", "--project", p, *runs, "--depth", "2", "--json"]],
        "reusability": [["reusability", "--project", p, *runs, "--depth", "2", "--json"]],
        "status": [["status", p, "--json"]],
        "agreement": [
            ["agreement", p, "--json"],
            ["agreement", p, "--version", "1", "--json"],  # runs that need a choice: listed as not scored, in JSON
            ["agreement", p, "--json", "--unjudged", "zero"],
        ],
    }


def strict_json(text: str) -> object:
    def refuse(constant: str) -> object:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_the_walk_covers_every_command_with_json(tmp_path: Path) -> None:
    assert set(invocations(tmp_path / "p.ndcgproj")) == commands_with_json()


@pytest.mark.parametrize("state", STATES)
def test_every_json_is_valid_json_in_every_state(tmp_path: Path, capsys, state: str) -> None:  # noqa: ANN001
    project = make_project(tmp_path / state, state)
    capsys.readouterr()
    answered = 0
    for runs in invocations(project).values():
        for argv in runs:
            code = main(argv)
            out, err = capsys.readouterr()
            if code == 0:
                strict_json(out)  # raises on anything that is not one strict JSON document
                answered += 1
            else:
                assert (code, out) == (2, ""), (state, argv, err)
                assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, (state, argv)
    assert answered >= (1 if state in ("fresh", "drafted") else 8), state  # status at least; all but refusals


def test_agreement_json_lists_the_runs_that_need_a_choice(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """The issue's crash: a frozen project whose runs need a choice. The refusal is text in the JSON."""
    project = make_project(tmp_path / "team", "team")
    capsys.readouterr()
    assert main(["agreement", str(project), "--version", "1", "--json"]) == 0
    refused = strict_json(capsys.readouterr().out)["systems"]["refused"]  # type: ignore[index]
    assert list(refused) == ["r2"]
    assert "document X for query q1 is not in the judgment pool" in refused["r2"]
