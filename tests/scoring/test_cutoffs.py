"""Several cutoffs from one ordering of a run (``evaluate_cutoffs``) give, at each K, what ``evaluate`` gives.

``ndcg compare`` scores every run at every K; ordering a 1M-line run is most of a scoring, so it is done
once. The oracle is the one-K evaluation itself, table for table and bit for bit, on real files and under
every policy that changes the rows before the cut (chunk IDs, duplicates, condensing, unknown queries,
queries the run answered, ties).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import Cutoffs, GradeScale, QuerySet, TiePolicy, UnjudgedPolicy
from ndcg_desktop.domain.settings import UnknownQueryPolicy as Unknown
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.ndcg import evaluate_cutoffs
from tests.helpers import measure

KS = [1, 3, 10, 20, 1000]
CRANFIELD_FIELDS = {"unjudged": UnjudgedPolicy.ZERO, "unknown_queries": Unknown.IGNORE, "scale": GradeScale(0, 4)}
CRANFIELD = measure(**CRANFIELD_FIELDS)


def _same(together, alone) -> None:
    pd.testing.assert_frame_equal(together.per_query, alone.per_query, check_exact=True)
    pd.testing.assert_frame_equal(together.per_position, alone.per_position, check_exact=True)
    assert together.summary == alone.summary
    assert {**together.manifest, "created": None} == {**alone.manifest, "created": None}
    assert (together.unknown_queries, together.dropped_queries) == (alone.unknown_queries, alone.dropped_queries)
    assert together.settings == alone.settings


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("bm25", {}),
        ("tfidf", {"unjudged": UnjudgedPolicy.CONDENSE, "queries": QuerySet.RUN}),
        ("chunks", {"id_map": "#", "duplicates": "first"}),
        ("chunks", {"id_map": "#", "duplicates": "first", "unjudged": UnjudgedPolicy.CONDENSE, "gain": "exponential"}),
        ("bm25", {"ties": TiePolicy.FILE_ORDER, "zero_idcg": "exclude"}),
    ],
)
def test_each_cutoff_equals_its_own_evaluation_on_cranfield(data_dir: Path, name: str, options: dict) -> None:
    settings = measure(**{**CRANFIELD_FIELDS, **options})
    qrels = read_qrels(data_dir / "cranfield" / "qrels.txt", scale=settings.terms.scale)
    run = read_run(data_dir / "cranfield" / f"{name}.run.gz")
    together = evaluate_cutoffs(qrels, run, settings, KS)
    assert list(together) == KS
    for k in KS:
        _same(together[k], evaluate(qrels, run, settings, k))


def test_each_cutoff_equals_its_own_evaluation_on_trec_evals_test_files(data_dir: Path) -> None:
    folder = data_dir / "trec_eval_test"
    settings = measure(unjudged=UnjudgedPolicy.ZERO, unknown_queries=Unknown.IGNORE)
    qrels = read_qrels(folder / "qrels.test", scale=settings.terms.scale)
    run = read_run(folder / "results.test")
    together = evaluate_cutoffs(qrels, run, settings, [100, 5, 15])
    for k in (100, 5, 15):
        _same(together[k], evaluate(qrels, run, settings, k))


def test_refusals_and_progress_are_those_of_one_evaluation(data_dir: Path) -> None:
    """A refused policy is refused once, with the message of a one-K evaluation; progress counts 4 + 3 per K."""
    folder = data_dir / "cranfield"
    qrels = read_qrels(folder / "qrels.txt", scale=CRANFIELD.terms.scale)
    run = read_run(folder / "bm25.run.gz")
    strict = CRANFIELD.with_(unjudged=UnjudgedPolicy.REJECT)
    with pytest.raises(InputError) as one:
        evaluate(qrels, run, strict)
    with pytest.raises(InputError) as several:
        evaluate_cutoffs(qrels, run, strict, [5, 10])
    assert str(several.value) == str(one.value)
    seen: list[tuple[int, int]] = []
    evaluate_cutoffs(qrels, run, CRANFIELD, [5, 10, 20], progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 4 + 3 * 3) for i in range(1, 14)]
    with pytest.raises(InputError, match="each cutoff once"):
        evaluate_cutoffs(qrels, run, CRANFIELD, Cutoffs([5, 5]))
