"""The one table of evaluation choices (issue 23): every front's options and words are the table's."""

from __future__ import annotations

from dataclasses import fields

from ndcg_desktop.cli.main import build_parser
from ndcg_desktop.domain import DataTerms, EvalSettings
from ndcg_desktop.domain.choices import BY_NAME, CHOICES, FLAG_GROUPS, POLICY_CHOICES, _Choice
from ndcg_desktop.sessions.runs import RUN_CHOICES
from ndcg_desktop.sessions.scores import CHOICES as SESSION_CHOICES
from ndcg_desktop.sessions.scores import DEFAULT_CHOICES, REFUSING_GROUPS


def test_every_choice_of_the_settings_is_in_the_table_with_its_default():
    defaults = EvalSettings().under(DataTerms())  # the policies, then the run's reading (its tie policy)
    enum_fields = [
        f.name for part in (defaults.policies, defaults.terms) for f in fields(part)
        if isinstance(getattr(part, f.name), _Choice)
    ]  # fmt: skip
    assert [c.name for c in CHOICES] == enum_fields
    assert [c.name for c in POLICY_CHOICES] == [f.name for f in fields(EvalSettings)]  # the settings: policies only
    for choice in CHOICES:
        assert defaults.choice(choice.name) is choice.default and isinstance(choice.default, choice.enum)
        assert sorted(choice.labels) == sorted(choice.values), choice.name  # a label for every value
        assert sorted(choice.words) == sorted(choice.values), choice.name  # and a word in the settings line


def test_the_refusing_defaults_are_the_contracts():
    assert [c.name for c in CHOICES if c.refuses] == ["unjudged", "duplicates", "unknown_queries"]
    assert all(c.default.value == "reject" for c in CHOICES if c.refuses)


def test_the_command_lines_options_are_the_tables():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in ("score", "compare", "diff-pools"):
        actions = {a.dest: a for a in sub.choices[command]._actions}
        for choice in CHOICES:
            action = actions[choice.name]
            assert action.option_strings == [choice.option] and tuple(action.choices) == choice.values
            assert action.help == choice.help
            assert action.default == (None if choice.name == "ties" else choice.default.value)  # ties: the run's


def test_the_sessions_choices_are_the_tables_policies():
    assert list(SESSION_CHOICES) == [c.name for c in FLAG_GROUPS] == list(DEFAULT_CHOICES)
    for choice in FLAG_GROUPS:
        assert SESSION_CHOICES[choice.name] == tuple(v for v in choice.values if not (choice.refuses and v == "reject"))
        assert DEFAULT_CHOICES[choice.name] == (None if choice.refuses else choice.default.value)
    assert RUN_CHOICES == SESSION_CHOICES and REFUSING_GROUPS == ("unjudged", "duplicates", "unknown_queries")
    assert "send" not in SESSION_CHOICES["unjudged"]  # the window's action, not a policy


def test_describe_and_the_settings_text_say_every_choice():
    settings = EvalSettings(unjudged="condense", zero_idcg="exclude").under(DataTerms(ties="file-order"))
    text, described = settings.to_text(10), settings.describe(10)
    for choice in CHOICES:
        value = settings.choice(choice.name)
        assert f"{choice.name}={value}" in text
        assert choice.describe(value) in described
    assert BY_NAME["zero_idcg"].describe(settings.policies.zero_idcg) == "zero-IDCG: excluded"


def test_every_value_has_its_label_and_word_in_the_tables_order():
    """What every combo box offers (gui.scores.text.choice_items) and the settings line say: nothing missing, no
    stray key, no empty text; the keys in the values' order, so a list of a choice reads the same everywhere."""
    for choice in CHOICES:
        for texts in (choice.labels, choice.words):
            assert tuple(texts) == choice.values, choice.name
            assert all(isinstance(t, str) and t.strip() for t in texts.values()), choice.name
        assert choice.label.strip() and choice.default.value in choice.values, choice.name
