"""Choosing the items a machine assessor judges (issue 25), without a server: scope, queries, a seeded sample."""

from __future__ import annotations

import functools

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import RATING_COLUMNS
from ndcg_desktop.tasks.assessing import AssessorSettings, Selection, select_items
from ndcg_desktop.tasks.assessing.job import check_settings
from tests.store.conftest import dump


@pytest.fixture
def project(tmp_path):
    """q2 and q10 with d1..d3 each; ana rated q2 d1; the model rated q10 d1 (which leaves it unrated by people)."""
    path = tmp_path / "p.ndcgproj"
    pairs = [(q, d) for q in ("q10", "q2") for d in ("d1", "d2", "d3")]
    with Project.create(path, scale=GradeScale(0, 3), annotator="coord") as p:
        p.judgments.add_items(pd.DataFrame(pairs, columns=["query_id", "doc_id"]), annotator="coord")
        rows = [("q2", "d1", "ana", 1, "", "t"), ("q10", "d1", "model:tiny", 3, "", "t")]
        p.ratings.add_ratings(pd.DataFrame(rows, columns=RATING_COLUMNS), version=1, source="test", annotator="coord")
    return path


def chosen(project, **selection) -> list[tuple[str, str]]:
    with Project.open(project, read_only=True) as p:
        return list(select_items(p, Selection(**selection)).itertuples(index=False, name=None))


def test_the_scopes_count_only_peoples_ratings_and_list_items_in_natural_order(project):
    assert chosen(project, items="rated") == [("q2", "d1")]
    assert chosen(project, items="ungraded") == [
        ("q2", "d2"), ("q2", "d3"), ("q10", "d1"), ("q10", "d2"), ("q10", "d3")
    ]  # fmt: skip
    assert len(chosen(project, items="all")) == 6
    assert chosen(project, items="all", queries=("q10",)) == [("q10", "d1"), ("q10", "d2"), ("q10", "d3")]


def test_a_sample_is_seeded_for_any_seed_the_command_line_takes(project):
    for seed in (0, 7, 2**32, 2**63 - 1):
        first = chosen(project, items="all", sample=3, seed=seed)
        assert len(first) == 3 and chosen(project, items="all", sample=3, seed=seed) == first
    assert len(chosen(project, items="all", sample=50)) == 6  # more than there are: all of them


def test_a_larger_sample_with_the_same_seed_holds_the_smaller_one(project):
    """Growing a calibration sample (--sample 30, then --sample 60) asks only the new items: a second run skips
    what the first judged only when the first sample is inside the second."""
    for seed in (0, 1, 3, 2**63 - 1):
        samples = [set(chosen(project, items="all", sample=n, seed=seed)) for n in range(1, 7)]
        assert all(len(s) == n for n, s in enumerate(samples, 1))
        assert all(smaller < larger for smaller, larger in zip(samples, samples[1:], strict=False)), seed


def test_a_query_without_items_is_refused_naming_it(project):
    with pytest.raises(InputError, match="query q3 has no items in draft version 1"):
        chosen(project, items="all", queries=("q3",))


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ("gpt\x1b[31m", "--model: model name 'gpt\\x1b[31m' contains U+001B (escape)"),
        ("a b", "--model: model name 'a b' contains U+0020 (space)"),
        ("d\u200b7", "--model: model name 'd\\u200b7' contains U+200B (zero width space)"),
        (" gpt", "model name ' gpt' has surrounding whitespace"),
        ("", "--model: empty model name"),
    ],
)
def test_a_model_name_that_cannot_name_an_annotator_is_refused_before_any_request(model, said):
    """The name becomes annotator model:<name>: it follows the ID rule, and nothing is sent anywhere."""
    with pytest.raises(InputError) as refused:
        check_settings(AssessorSettings(endpoint="http://127.0.0.1:9/v1", model=model))
    assert str(refused.value).startswith(said)


def test_items_without_a_document_or_topic_text_are_refused_before_any_request(project):
    """A project built from qrels alone (no import-docs, no import-queries) would have the model grade an empty
    document for a bare query number, and keep those grades as its ratings."""
    from ndcg_desktop.tasks.assessing import estimate, load_template, run_job

    settings = AssessorSettings(endpoint="http://127.0.0.1:9/v1", model="tiny")  # any request: connection refused
    template, scope = load_template(), Selection(items="ungraded")  # q2 d2, q2 d3, q10 d1..d3, natural order

    def refusal() -> list[str]:
        said = []
        with Project.open(project) as p:
            for job in (estimate, functools.partial(run_job, started_by="coord")):
                with pytest.raises(InputError) as refused:
                    job(p, settings, template, scope)
                said.append(str(refused.value))
        return said

    assert (
        refusal()
        == [
            f"{project}: 5 of the 5 items to judge have no document text in the project (the first: query q2, "
            "document d2): import the documents first (ndcg import-docs PROJECT FILE)"
        ]
        * 2
    )
    with Project.open(project) as p:
        topics = pd.DataFrame(
            [("q2", "wing flutter", "", ""), ("q10", "", "", "")],
            columns=["query_id", "text", "description", "narrative"],
        )
        docs = pd.DataFrame([(d, "", f"text of {d}") for d in ("d1", "d2", "d3")], columns=["doc_id", "title", "text"])
        p.texts.put_texts(topics, docs)
    assert (
        refusal()
        == [
            f"{project}: 3 of the 5 items to judge have no topic text in the project (the first: query q10, "
            "document d1): import the queries first (ndcg import-queries PROJECT FILE)"
        ]
        * 2
    )
    with Project.open(project) as p:
        p.texts.put_texts(topics.assign(text=["wing flutter", "heat transfer"]), docs.iloc[:0])
    before = dump(project)
    assert refusal() == ["http://127.0.0.1:9/v1: connection refused (is the server running?)"] * 2  # texts: fine
    assert dump(project) == before  # nothing recorded by any refusal
