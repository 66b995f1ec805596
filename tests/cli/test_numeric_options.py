"""Every numeric input of every command (issue 24 items 9 and 14): a whole number in ASCII digits within its bounds,
or one message naming that option (never another option's, never a traceback); exit 2 and nothing written."""

from __future__ import annotations

import argparse

import pandas as pd
import pytest

from ndcg_desktop.cli.main import build_parser, main
from ndcg_desktop.store import Project
from tests.store.conftest import dump


def numeric_actions() -> list[tuple[str, str, argparse.Action]]:
    """(command, option, action) of every option or argument of every command whose value is a number."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for command, subparser in sub.choices.items():
        for action in subparser._actions:
            kind = action.type
            if kind in (int, float) or hasattr(kind, "bounds"):
                name = action.option_strings[0] if action.option_strings else str(action.metavar or action.dest)
                found.append((command, name, action))
    return found


NUMERIC = numeric_actions()


def test_the_class_is_found():
    """The inventory the tests below run over: if a command gains a number, it is in here."""
    names = {(command, name) for command, name, _ in NUMERIC}
    assert {("score", "--k"), ("score", "--pool-version"), ("compare", "--seed"), ("assign", "--seed")} <= names
    assert {("adjudicate", "--k"), ("agreement", "--version"), ("pool", "--depth"), ("diff-pools", "V1")} <= names
    assert len(names) >= 20


@pytest.mark.parametrize(("command", "name", "action"), NUMERIC, ids=[f"{c} {n}" for c, n, _ in NUMERIC])
def test_every_numeric_option_checks_its_value_and_names_itself(command, name, action):
    assert action.type not in (int, float), f"{command} {name}: a bare int() takes '３', '1_0' and any size"
    low, high = action.type.bounds
    for bad in ("３", "1_0", "٣", "x", "", "nan", "inf", "1e999", "99999999999999999999999", str(2**63)):
        if bad in (str(2**63), "99999999999999999999999") and high >= 2**63:
            continue
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            action.type(bad)
        assert str(refused.value).startswith(f"{name} must be "), str(refused.value)
    for outside in (low - 1, high + 1):
        with pytest.raises(argparse.ArgumentTypeError, match=f"^{name} must be a "):
            action.type(str(outside) if isinstance(low, int) else f"{outside:g}")
    inside = low if isinstance(low, int) else (low + high) / 2
    assert action.type(str(inside)) == inside


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="coord") as p:
        p.judgments.add_items(
            pd.DataFrame([("q2", "d21"), ("q2", "d22")], columns=["query_id", "doc_id"]), annotator="coord"
        )
    return path


@pytest.mark.parametrize(
    ("grade", "said"),
    [
        ("99999999999999999999999", "must be a whole number from -9223372036854775807 to 9223372036854775807"),
        ("9223372036854775808", "must be a whole number from -9223372036854775807 to 9223372036854775807"),
        ("9223372036854775807", "is outside the scale 0..3"),
        ("-1", "grade -1 is outside the scale 0..3 (document d21 of query q2)"),
        ("4", "is outside the scale 0..3"),
        ("３", "must be a whole number written in ASCII digits, not '３'"),
        ("1_0", "must be a whole number written in ASCII digits, not '1_0'"),
        ("2.0", "must be a whole number written in ASCII digits"),
    ],
)
def test_adjudicate_set_refuses_a_grade_in_one_line_and_writes_nothing(project, capsys, grade, said):
    before = dump(project)
    assert main(["adjudicate", str(project), "--set", "q2", "d22", "1", "--set", "q2", "d21", grade]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
    assert "q2" in err and "d21" in err
    assert dump(project) == before


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["score", "--qrels", "q", "--run", "r", "--pool-version", "0"], "--pool-version: --pool-version must"),
        (["compare", "--qrels", "q", "--runs", "r", "--seed", str(2**64)], "argument --seed: --seed must be a whole"),
        (["adjudicate", "P", "--k", "99999999999"], "argument --k: --k must be a whole number from 1 to 2147483647"),
        (["assign", "P", "--annotators", "a", "-o", "o", "--per-query", "1"], "argument --per-query: --per-query"),
        (["assign", "P", "--annotators", "a", "-o", "o", "--overlap", "１"], "argument --overlap: --overlap must"),
        (["compare", "--qrels", "q", "--runs", "r", "--alpha", "1"], "argument --alpha: --alpha must be a decimal"),
    ],
)
def test_the_issues_examples_name_their_own_option(argv, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err.splitlines()[-1]


def test_adjudicate_set_of_an_item_not_in_the_pool_writes_none_of_the_picks(project, capsys):
    before = dump(project)
    assert main(["adjudicate", str(project), "--set", "q2", "d22", "1", "--set", "q2", "d99", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "document d99 is not in the pool of query q2" in err
    assert dump(project) == before
