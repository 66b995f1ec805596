"""Evaluation settings: named, validated, and round-tripping through their text form."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import (
    DataTerms,
    EvalSettings,
    Gain,
    GradeScale,
    InputError,
    Measure,
    TiePolicy,
    UnjudgedPolicy,
)
from ndcg_desktop.domain.choices import DEFAULT_K


def test_defaults_refuse_to_guess():
    s, terms = EvalSettings(), DataTerms()
    assert (DEFAULT_K, s.gain, s.unjudged, terms.ties) == (10, Gain.LINEAR, UnjudgedPolicy.REJECT, TiePolicy.DOCID_DESC)
    assert s.duplicates.value == "reject" and s.unknown_queries.value == "reject"


@pytest.mark.parametrize(
    ("settings", "k"),
    [
        (EvalSettings().under(DataTerms()), 10),
        (
            EvalSettings(gain="exponential", unjudged="condense").under(
                DataTerms(ties="file-order", scale=GradeScale(-1, 4))
            ),
            3,
        ),
        (EvalSettings().under(DataTerms(id_map="#")), 10),
        (EvalSettings().under(DataTerms(id_map='a,b")')), 10),
    ],
)
def test_text_form_round_trips(settings, k):
    assert Measure.parse(settings.to_text(k)) == (settings, k)


def test_strings_become_named_choices_and_bad_ones_are_refused():
    assert EvalSettings(gain="exponential").gain is Gain.EXPONENTIAL
    with pytest.raises(InputError, match="gain must be one of linear|exponential"):
        EvalSettings(gain="cubic")
    with pytest.raises(InputError, match="unknown evaluation setting"):
        Measure.parse("nDCG@10(colour=blue)")


def test_describe_is_one_readable_line():
    text = EvalSettings(unjudged="zero").under(DataTerms()).describe(5)
    assert text.startswith("nDCG@5, linear gain, log2 discount, unjudged: zero")
    assert "\n" not in text


@pytest.mark.parametrize("text", ["0..3", "-1..4", " 1 .. 2 "])
def test_scale_parse(text):
    scale = GradeScale.parse(text)
    assert str(scale) == text.replace(" ", "")


def test_scale_must_not_be_empty():
    with pytest.raises(InputError, match="empty"):
        GradeScale.parse("3..0")
