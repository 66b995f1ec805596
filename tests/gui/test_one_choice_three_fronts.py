"""Issue 23: one choice, ``unjudged``, walked from the command line, the window and the Python API to the one
table of choices (``domain/choices.py``). Nothing here restates the table: every label, help text, value and
default a front shows is asserted to be the table entry's own (identity where the front keeps the object)."""

from __future__ import annotations

import argparse

import pandas as pd
import pytest

from ndcg_desktop import api
from ndcg_desktop.cli.main import build_parser
from ndcg_desktop.domain import DataTerms, EvalSettings, UnjudgedPolicy
from ndcg_desktop.domain.choices import BY_NAME
from ndcg_desktop.gui.scores.text import CHOICE_TEXTS, GROUP_TITLES, SEND, describe_settings

CHOICE = BY_NAME["unjudged"]
QRELS = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "B"], "relevance": [2, 0]})
RUN = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["X", "A"], "score": [2.0, 1.0]})  # X is unjudged


def _option(command: str) -> argparse.Action:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return next(a for a in sub.choices[command]._actions if a.dest == CHOICE.name)


@pytest.mark.parametrize("command", ["score", "compare", "diff-pools"])
def test_the_command_line_option_is_the_tables(command):
    option = _option(command)
    assert option.option_strings == [CHOICE.option] == ["--unjudged"]
    assert option.help is CHOICE.help  # the table's text object, not a copy of it
    assert option.choices == list(CHOICE.values) == [member.value for member in CHOICE.enum]
    assert option.default == CHOICE.default.value == UnjudgedPolicy.REJECT.value


def test_the_command_lines_help_prints_the_tables_help(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["score", "--help"])
    said = " ".join(capsys.readouterr().out.split())  # argparse wraps its lines
    assert f"{CHOICE.option} {{{','.join(CHOICE.values)}}} {' '.join(CHOICE.help.split())}" in said


def test_the_windows_title_and_combo_box_are_the_tables(window):
    combo = window.scores.choices[CHOICE.name]
    assert GROUP_TITLES[CHOICE.name] is CHOICE.label
    assert combo.accessibleName() == CHOICE.label
    values = [combo.itemData(i) for i in range(combo.count())]
    # the refusing default is no choice: the box starts unset, then the policies, then the window's own action
    assert values == [None, *CHOICE.policies, SEND] and CHOICE.refuses
    assert [combo.itemText(i) for i in range(1, combo.count() - 1)] == [CHOICE.labels[v] for v in CHOICE.policies]
    assert all(CHOICE_TEXTS[(CHOICE.name, v)] is CHOICE.labels[v] for v in CHOICE.policies)
    assert combo.currentData() is None and window.scores.session.choices[CHOICE.name] is None


def test_the_windows_choice_reaches_the_settings_line_in_the_tables_words(window):
    combo = window.scores.choices[CHOICE.name]
    for value in CHOICE.policies:
        combo.setCurrentIndex(combo.findData(value))
        settings = window.scores.session.settings()
        assert getattr(settings, CHOICE.name) is CHOICE.enum(value)
        measure = settings.under(DataTerms())  # the policies on the data's terms, as the kernel gets them
        assert CHOICE.describe(CHOICE.enum(value)) in describe_settings(measure, 10)
        assert describe_settings(measure, 10) == measure.describe(10)  # the window's line is the core's, in English
        assert f"{CHOICE.name}={value}" in measure.to_text(10)


def test_the_python_api_takes_the_tables_name_values_and_default():
    table = api.choices().loc[CHOICE.name]
    assert (table["values"], table["default"], table["refuses"], table["option"], table["description"]) == (
        list(CHOICE.values),
        CHOICE.default.value,
        CHOICE.refuses,
        CHOICE.option,
        CHOICE.description,
    )
    with pytest.raises(api.Refused) as refused:  # the default refuses, as `ndcg score` does
        api.score(RUN, QRELS)
    assert "unjudged document" in str(refused.value)
    for value in CHOICE.policies:
        scored = api.score(RUN, QRELS, **{CHOICE.name: value})
        assert scored.manifest["settings"][CHOICE.name] == value
        assert f"{CHOICE.name}={value}" in scored.settings
    with pytest.raises(api.Refused) as refused:
        api.score(RUN, QRELS, **{CHOICE.name: "guess"})
    assert str(refused.value) == f"{CHOICE.name} must be one of {'|'.join(CHOICE.values)}, not 'guess'"
    assert EvalSettings().unjudged is CHOICE.default
