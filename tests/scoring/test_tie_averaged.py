"""Tie-averaged NDCG (rule 10; McSherry and Najork 2008) against scikit-learn's ``ndcg_score``.

``ndcg_score(y_true, y_score, k=K, ignore_ties=False)`` averages the gain over each group of
equal scores. One query becomes one sample over the union of its judged universe and the
documents the run returned: ``y_true`` holds gains (unjudged: 0), ``y_score`` the run's scores,
and the universe documents the run did not return get one score below every returned one.
"""

from __future__ import annotations

from dataclasses import replace
from math import log2
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

from ndcg_desktop.domain import Measure
from ndcg_desktop.domain.settings import Gain, GradeScale, TiePolicy, UnjudgedPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import Evaluation, evaluate
from tests.helpers import measure

SCALE = GradeScale(-1, 3)
TOLERANCE = 1e-12
UNIVERSE = {"A": 3, "B": 2, "C": 1, "D": 0}


def gain(grade: int, kind: Gain) -> float:
    grade = max(grade, 0)  # trec_eval: only grades above zero earn gain
    return 2.0**grade - 1.0 if kind is Gain.EXPONENTIAL else float(grade)


def write(folder: Path, judgments: dict[str, dict[str, int]], rows: list[tuple[str, str, float]]) -> tuple[Path, Path]:
    qrels_path, run_path = folder / "ties.qrels", folder / "ties.run"
    qrels_path.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, universe in judgments.items() for d, g in universe.items()), encoding="utf-8"
    )
    run_path.write_text("".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in rows), encoding="utf-8")
    return qrels_path, run_path


def score(folder: Path, judgments: dict, rows: list, eval_settings: Measure, k: int) -> Evaluation:
    qrels_path, run_path = write(folder, judgments, rows)
    return evaluate(read_qrels(qrels_path, scale=SCALE), read_run(run_path), eval_settings, k)


def sklearn_tie_averaged(
    universe: dict[str, int], returned: dict[str, float], eval_settings: Measure, k: int
) -> float | None:
    """scikit-learn's tie-averaged NDCG@K of one query, or None where it cannot stand in for ours."""
    universe = {d: g for d, g in universe.items() if g >= 0}  # a negative grade: in the pool, not judged
    if eval_settings.policies.unjudged is UnjudgedPolicy.CONDENSE:
        returned = {d: s for d, s in returned.items() if d in universe}
    # sklearn ranks every document of the sample; the unreturned ones form one tied tail group
    # and share its averaged gain. Our rankings are never padded (rule 3): a document the run
    # did not return earns nothing. The two agree only when the tail starts after position K,
    # i.e. when the run returns at least K documents.
    if len(returned) < k:
        return None
    docs = sorted(set(universe) | set(returned))
    if len(docs) < 2:
        return None  # sklearn refuses a single document
    below = min(returned.values()) - 1.0
    y_true = [[gain(universe.get(d, 0), eval_settings.policies.gain) for d in docs]]
    y_score = [[returned.get(d, below) for d in docs]]
    return float(ndcg_score(y_true, y_score, k=k, ignore_ties=False))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module-scoped: hypothesis and function-scoped fixtures don't mix.
    return tmp_path_factory.mktemp("tie_averaged")


# --- hand-made cases -------------------------------------------------------------------------

IDCG_2 = 3 / log2(2) + 2 / log2(3)


@pytest.mark.parametrize(
    ("scores", "k", "gain_kind", "expected"),
    [
        # B and C tie for position 1: each order is equally likely, so position 1 earns (2+1)/2.
        ({"B": 1.0, "C": 1.0}, 1, Gain.LINEAR, (2 + 1) / 2 / log2(2) / (3 / log2(2))),
        # Both orders fit inside K=2: the mean of [B, C] and [C, B].
        ({"B": 1.0, "C": 1.0}, 2, Gain.LINEAR, ((2 + 1) / 2 / log2(2) + (2 + 1) / 2 / log2(3)) / IDCG_2),
        # A alone, then B, C, D tied across K=2: position 2 earns (2+1+0)/3.
        ({"A": 2.0, "B": 1.0, "C": 1.0, "D": 1.0}, 2, Gain.LINEAR, (3 / log2(2) + (2 + 1 + 0) / 3 / log2(3)) / IDCG_2),
        (
            {"B": 1.0, "C": 1.0},
            1,
            Gain.EXPONENTIAL,
            ((2**2 - 1) + (2**1 - 1)) / 2 / log2(2) / ((2**3 - 1) / log2(2)),
        ),
    ],
)
def test_hand_made_tie_groups(folder: Path, scores: dict, k: int, gain_kind: Gain, expected: float) -> None:
    eval_settings = measure(gain=gain_kind, scale=SCALE)
    rows = [("q1", d, s) for d, s in scores.items()]
    row = score(folder, {"q1": UNIVERSE}, rows, eval_settings, k).per_query.iloc[0]
    assert row["tie_averaged_ndcg"] == pytest.approx(expected, abs=TOLERANCE)
    assert sklearn_tie_averaged(UNIVERSE, scores, eval_settings, k) == pytest.approx(expected, abs=TOLERANCE)


# --- generated cases ---------------------------------------------------------------------------

# No ID starts with '#': such a TREC line is a comment (trec_eval 10.0). '#' inside an ID stays (chunk IDs).
ids = st.text("aZ09é#._-", min_size=1, max_size=3).filter(lambda s: not s.startswith("#"))
scores = st.integers(-2, 3).map(lambda i: i / 2)  # few values: many ties, across K too


@st.composite
def tie_cases(draw: st.DrawFn) -> tuple[Measure, int, dict[str, dict[str, int]], list[tuple[str, str, float]]]:
    k = draw(st.integers(1, 5))
    eval_settings = measure(
        gain=draw(st.sampled_from(list(Gain))),
        unjudged=draw(st.sampled_from([UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE])),
        ties=draw(st.sampled_from(list(TiePolicy))),
        scale=SCALE,
    )
    docs = draw(st.lists(ids, min_size=2, max_size=10, unique=True))
    strangers = [d for d in draw(st.lists(ids, max_size=3, unique=True)) if d not in docs]
    judgments: dict[str, dict[str, int]] = {}
    rows: list[tuple[str, str, float]] = []
    for query in draw(st.lists(ids, min_size=1, max_size=3, unique=True)):
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True))
        judgments[query] = {d: draw(st.integers(SCALE.low, SCALE.high)) for d in judged}
        # At least K distinct documents, so sklearn's unreturned tail starts after K (see above).
        candidates = docs + strangers
        returned = draw(st.lists(st.sampled_from(candidates), min_size=min(k, len(candidates)), unique=True))
        rows += [(query, d, draw(scores)) for d in returned]
    return eval_settings, k, judgments, draw(st.permutations(rows))


@settings(deadline=None)  # how many examples: the hypothesis profile (tests/conftest.py)
@given(case=tie_cases())
def test_tie_averaged_ndcg_agrees_with_sklearn(folder: Path, case: tuple) -> None:
    eval_settings, k, judgments, rows = case
    frame = score(folder, judgments, rows, eval_settings, k).per_query
    got = dict(zip(frame["query_id"], frame["tie_averaged_ndcg"], strict=True))
    compared = 0
    for query, universe in judgments.items():
        returned = {d: s for q, d, s in rows if q == query}
        expected = sklearn_tie_averaged(universe, returned, eval_settings, k)
        if expected is not None:
            assert got[query] == pytest.approx(expected, abs=TOLERANCE), query
            compared += 1
    assume(compared > 0)  # hypothesis fails the test if too few examples compare anything


@settings(deadline=None)
@given(case=tie_cases())
def test_tie_averaged_ndcg_does_not_depend_on_the_tie_policy(folder: Path, case: tuple) -> None:
    eval_settings, k, judgments, rows = case
    values = [
        score(folder, judgments, rows, eval_settings.policies.under(replace(eval_settings.terms, ties=ties)), k)
        .per_query["tie_averaged_ndcg"]
        .to_numpy()
        for ties in TiePolicy
    ]
    for other in values[1:]:
        np.testing.assert_allclose(other, values[0], rtol=0, atol=TOLERANCE)
