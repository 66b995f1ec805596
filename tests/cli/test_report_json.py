"""`ndcg score --json` writes exactly what `json.dumps(..., indent=2, ensure_ascii=False)` would.

report.to_json_text renders the per-query list column by column for speed and claims equality with
json.dumps; these tests hold it to that, on its fast path (checked), with real and awkward data.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from ndcg_desktop.cli import report
from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale
from ndcg_desktop.formats.cells import allowed_in_id
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate


def reference(evaluation) -> str:
    return json.dumps(report.to_json(evaluation), indent=2, ensure_ascii=False)


def assert_same_as_json_dumps(evaluation) -> None:
    assert report._query_objects(evaluation.per_query) is not None  # the fast renderer, not the fallback
    assert report.to_json_text(evaluation) == reference(evaluation)


def test_cranfield_bm25_equals_json_dumps(data_dir):
    cran = data_dir / "cranfield"
    scale = GradeScale(0, 4)
    evaluation = evaluate(
        read_qrels(cran / "qrels.txt", scale=scale),
        read_run(cran / "bm25.run.gz"),
        EvalSettings(unjudged="zero").under(DataTerms(scale=scale)),
        10,
    )
    assert len(evaluation.per_query) == 225
    assert_same_as_json_dumps(evaluation)


def test_awkward_ids_flags_and_values_equal_json_dumps(write):
    # Non-ASCII, quotes and backslashes in IDs; an unanswered query (no ranking); a zero-IDCG query;
    # a tie at K; an unknown query ignored.
    qrels = write(
        "q.tsv",
        'query_id\tdoc_id\tgrade\nq"1\tdoc\\a\t3\nq"1\tB\t2\nq"1\tC\t1\n中文\tdé\t0\nunanswered\tZ\t2\n',
    )
    run = write(
        "r.tsv",
        'query_id\tdoc_id\tscore\nq"1\tC\t5\nq"1\tdoc\\a\t5\nq"1\tX\t1\n中文\tdé\t1\nextra\tE\t1\n',
    )
    evaluation = evaluate(
        read_qrels(qrels), read_run(run), EvalSettings(unjudged="zero", unknown_queries="ignore").under(DataTerms()), 1
    )
    table = evaluation.per_query.set_index("query_id")
    assert bool(table.loc["unanswered", "no_ranking"]) and bool(table.loc["中文", "zero_idcg"])
    assert bool(table.loc['q"1', "tie_at_k"])
    assert_same_as_json_dumps(evaluation)


def test_every_scalar_type_renders_as_json_does():
    frame = pd.DataFrame(
        {
            "s": ["a", 'q"\\\n\t', "中"],
            "f": [0.1, float("nan"), float("inf")],
            "g": [1e-300, -0.0, -float("inf")],
            "i": np.array([0, -3, 2**40], dtype=np.int64),
            "b": [True, False, True],
            "n": [None, "x", None],
        }
    )
    rendered = report._query_objects(frame)
    expected = json.dumps(
        {
            "queries": [
                {k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()} for r in frame.to_dict("records")
            ]
        },
        indent=2,
        ensure_ascii=False,
    )
    assert rendered is not None
    assert f'{{\n  "queries": {rendered}\n}}' == expected


@given(
    ids=st.lists(
        st.text(
            st.characters(blacklist_categories=["Cs", "Cc", "Cf", "Z"], blacklist_characters='"#').filter(
                allowed_in_id
            ),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=6,
        unique=True,
    ),
    grades=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    k=st.integers(1, 4),
)
def test_generated_evaluations_equal_json_dumps(tmp_path_factory, ids, grades, k):
    folder = tmp_path_factory.mktemp("json")
    lines = [f'{{"query_id": {json.dumps(q)}, "doc_ids": {json.dumps(ids[: i + 1])}}}' for i, q in enumerate(ids)]
    (folder / "r.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = "".join(f"{q}\t{d}\t{grades[j]}\n" for q in ids for j, d in enumerate(ids))
    (folder / "q.tsv").write_text("query_id\tdoc_id\tgrade\n" + qrels, encoding="utf-8")
    evaluation = evaluate(
        read_qrels(folder / "q.tsv"), read_run(folder / "r.jsonl"), EvalSettings().under(DataTerms()), k
    )
    assert_same_as_json_dumps(evaluation)
