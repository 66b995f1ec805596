"""64-bit keys of string IDs (scoring/idkeys.py): the order key sorts as the full comparison does, identity
keys are equal exactly for equal IDs (or verified), and a hash collision falls back to exact codes.

Cases the keys could get wrong are generated on purpose: IDs sharing their first 8 bytes, IDs of exactly 8
bytes and their extensions, non-ASCII IDs (multi-byte UTF-8), numeric IDs, and IDs at the very end of an
Arrow buffer without padding.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain.settings import DuplicatePolicy, EvalSettings, GradeScale, TiePolicy, UnjudgedPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate, idkeys, ranking
from ndcg_desktop.scoring.idkeys import identity_keys, order_keys, string_ranks
from ndcg_desktop.scoring.ranking import top_documents
from tests.helpers import measure

# IDs built from parts so that many share their first 8 bytes, some are exactly 8 bytes long, some are
# numbers, and some hold multi-byte characters (é is 2 bytes, 日 3, 𝄞 4) on either side of byte 8.
PARTS = ["abcdefgh", "abcdefg", "D123456", "D1234567", "9", "10", "0", "é", "日本", "𝄞", "Z", "a", "#"]
id_text = st.lists(st.sampled_from(PARTS), min_size=1, max_size=4).map("".join)


def utf8_order(values: list[str]) -> list[str]:
    return sorted(values, key=lambda v: v.encode("utf-8"))  # C's strcmp on UTF-8 bytes


@settings(deadline=None)
@given(values=st.lists(id_text, min_size=1, max_size=40))
def test_the_order_key_sorts_as_the_full_comparison(values: list[str]) -> None:
    ranks = string_ranks(pa.array(values, pa.string()))
    assert [values[i] for i in np.argsort(ranks, kind="stable")] == utf8_order(values)
    # Equal IDs, equal ranks; distinct IDs, distinct ranks.
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            assert (ranks[i] == ranks[j]) == (a == b), (a, b)


@settings(deadline=None)
@given(values=st.lists(id_text, min_size=1, max_size=40))
def test_identity_keys_are_equal_for_equal_ids_and_exact_up_to_8_bytes(values: list[str]) -> None:
    keys, injective = identity_keys(pa.array(values, pa.large_string()))
    assert injective == all(len(v.encode()) <= 8 for v in values)
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if a == b:
                assert keys[i] == keys[j]
            elif injective:
                assert keys[i] != keys[j], (a, b)


def test_numeric_ids_order_as_strings_not_as_numbers() -> None:
    values = ["9", "10", "100", "0", "1", "99999999", "100000000"]
    ranks = string_ranks(pa.array(values))
    assert [values[i] for i in np.argsort(ranks)] == ["0", "1", "10", "100", "100000000", "9", "99999999"]


@pytest.mark.parametrize("values", [["a", "bcdefghij"], ["abcdefgh"], ["x" * 20, "y"], ["é日𝄞", "é"]])
def test_ids_at_the_end_of_an_unpadded_buffer(values: list[str]) -> None:
    """Arrow usually pads its buffers; one built from exact bytes is not, and the last IDs end at its last byte."""
    data = "".join(values).encode()
    offsets = np.cumsum([0] + [len(v.encode()) for v in values]).astype(np.int32)
    strings = pa.StringArray.from_buffers(len(values), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data))
    assert strings.buffers()[2].size == len(data)
    padded = pa.array(values)
    assert identity_keys(strings)[0].tolist() == identity_keys(padded)[0].tolist()
    assert order_keys(strings).tolist() == [int.from_bytes(v.encode()[:8].ljust(8, b"\0"), "big") for v in values]


def _trec_eval(qrels: Path, run: Path, k: int) -> dict[str, float]:
    with open(qrels, encoding="utf-8") as f:
        judged = pytrec_eval.parse_qrel(f)
    with open(run, encoding="utf-8") as f:
        ranked = pytrec_eval.parse_run(f)
    found = pytrec_eval.RelevanceEvaluator(judged, {f"ndcg_cut.{k}"}).evaluate(ranked)
    return {q: v[f"ndcg_cut_{k}"] for q, v in found.items()}


SCALE = GradeScale(0, 3)


def _ours(qrels: Path, run: Path, k: int, **policies: object) -> dict[str, float]:
    chosen = measure(unjudged=UnjudgedPolicy.ZERO, ties=TiePolicy.DOCID_DESC, scale=SCALE).with_(**policies)
    evaluation = evaluate(read_qrels(qrels, scale=SCALE), read_run(run), chosen, k)
    return dict(zip(evaluation.per_query["query_id"], evaluation.per_query["ndcg"], strict=True))


@st.composite
def long_id_cases(draw: st.DrawFn) -> tuple[str, str]:
    """(qrels, run): IDs sharing long prefixes, many tied scores, unjudged documents."""
    docs = draw(st.lists(id_text, min_size=1, max_size=12, unique=True))
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "query-number-three"]), min_size=1, unique=True))
    qrels, run = [], []
    for query in queries:
        for doc in draw(st.lists(st.sampled_from(docs), min_size=1, unique=True)):
            qrels.append(f"{query} 0 {doc} {draw(st.integers(0, 3))}\n")
        for doc in draw(st.lists(st.sampled_from(docs), min_size=1, unique=True)):
            run.append(f"{query} Q0 {doc} 0 {draw(st.integers(0, 3)) / 2} t\n")
    return "".join(qrels), "".join(run)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("idkeys")


@settings(deadline=None)
@given(case=long_id_cases())
def test_long_and_non_ascii_ids_agree_with_trec_eval(folder: Path, case: tuple[str, str]) -> None:
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    qrels.write_text(case[0], encoding="utf-8")
    run.write_text(case[1], encoding="utf-8")
    for k in (1, 3, 10):
        theirs, mine = _trec_eval(qrels, run, k), _ours(qrels, run, k)
        assert set(theirs) <= set(mine)
        for query, value in theirs.items():
            assert mine[query] == pytest.approx(value, abs=1e-12), (k, query)


def _colliding(strings: pa.Array) -> tuple[np.ndarray, bool]:
    """A deliberately bad identity: every ID of the same length gets the same key."""
    import pyarrow.compute as pc

    return pc.binary_length(strings).to_numpy().astype(np.uint64), False


def test_a_hash_collision_falls_back_to_exact_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With keys that collide for every pair of IDs of equal length, every number and flag stays the same."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 DOC-AAAAAAAA 3\nq1 0 DOC-BBBBBBBB 1\nq2 0 DOC-CCCCCCCC 2\nq2 0 X 1\n")
    run.write_text(
        "q1 Q0 DOC-BBBBBBBB 1 3 t\nq1 Q0 DOC-AAAAAAAA 2 2 t\nq1 Q0 DOC-DDDDDDDD 3 2 t\nq1 Q0 DOC-BBBBBBBB 4 1 t\n"
        "q2 Q0 DOC-EEEEEEEE 1 5 t\nq2 Q0 DOC-CCCCCCCC 2 5 t\nq2 Q0 Y 3 1 t\n"
    )
    honest = evaluate(read_qrels(qrels), read_run(run), _settings(), 3)
    pool = top_documents(read_run(run), 2, ties=TiePolicy.DOCID_DESC)
    calls: list[int] = []

    def counted(strings: pa.Array, rows: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
        calls.append(len(strings))
        keys, injective = _colliding(strings)
        return (keys if rows is None else keys[rows]), injective

    monkeypatch.setattr(ranking, "identity_keys", counted)
    collided = evaluate(read_qrels(qrels), read_run(run), _settings(), 3)
    assert calls  # the bad keys were used, then given up for exact codes
    assert collided.per_query.equals(honest.per_query)
    assert collided.per_position.equals(honest.per_position)
    assert top_documents(read_run(run), 2, ties=TiePolicy.DOCID_DESC).equals(pool)
    # The duplicate DOC-BBBBBBBB of q1 is found, and only it.
    assert collided.per_query.set_index("query_id")["duplicates_removed"].to_dict() == {"q1": 1, "q2": 0}


def _settings() -> EvalSettings:
    return measure(unjudged=UnjudgedPolicy.ZERO, duplicates=DuplicatePolicy.FIRST, scale=SCALE)


def test_pair_keys_compose_exactly_for_codes() -> None:
    pairs = idkeys.pair_keys(np.array([1, 2, 1]), np.array([7, 7, 8], dtype=np.uint64), exact=True)
    assert pairs.tolist() == [(1 << 32) | 7, (2 << 32) | 7, (1 << 32) | 8]


def test_exact_keys_are_the_codes_themselves_and_pairs_compose_across_blocks() -> None:
    """No 8-byte copy of every ranked row for exact keys; pairs and mixing done a block at a time are exact."""
    codes = np.arange(3 * idkeys._STEP + 5, dtype=np.int32)[::-1].copy()
    assert ranking.keys_of(ranking.NumberedIds(len(codes)), codes).ident is codes
    groups = codes % 7
    pairs = idkeys.pair_keys(groups, codes, exact=True)
    assert pairs.tolist() == [(g << 32) | c for g, c in zip(groups.tolist(), codes.tolist(), strict=True)]
    m1, m2, top = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, (1 << 64) - 1

    def splitmix(x: int) -> int:  # splitmix64's finaliser on Python integers
        x ^= x >> 30
        x = (x * m1) & top
        x ^= x >> 27
        x = (x * m2) & top
        return x ^ (x >> 31)

    mixed = idkeys.mix(pairs)
    assert [int(mixed[i]) for i in (0, idkeys._STEP - 1, idkeys._STEP, len(pairs) - 1)] == [
        splitmix(int(pairs[i])) for i in (0, idkeys._STEP - 1, idkeys._STEP, len(pairs) - 1)
    ]


def _msmarco_ids(n: int) -> pa.Array:
    """``msmarco_doc_17_10768284``-shaped IDs (MS MARCO v2 documents: 22-24 bytes, three words), with repeats."""
    numbers = np.arange(n, dtype=np.int64) * 7919 % (n // 3 + 1)
    return pa.array([f"msmarco_doc_{v % 60:02d}_{v * 401 + 13}" for v in numbers.tolist()], pa.string())


def test_the_keys_of_chosen_rows_are_those_rows_keys_across_blocks() -> None:
    """``identity_keys(s, rows)`` is ``identity_keys(s)[0][rows]``, for rows in any order across block edges;
    equal IDs anywhere get equal keys, and the keys of the same IDs in another array are the same."""
    strings = _msmarco_ids(3 * idkeys._BLOCK + 17)
    every, injective = identity_keys(strings)
    assert not injective
    rows = np.random.default_rng(28).permutation(len(strings))[: 2 * idkeys._BLOCK + 5]
    chosen, chosen_injective = identity_keys(strings, rows)
    assert chosen.tolist() == every[rows].tolist() and not chosen_injective
    again, _ = identity_keys(strings.take(pa.array(rows)))  # the same IDs in an array of their own
    assert again.tolist() == every[rows].tolist()
    values = strings.to_pylist()
    first: dict[str, int] = {}
    for i, v in enumerate(values):
        assert every[i] == every[first.setdefault(v, i)]
    assert len(set(every.tolist())) == len(first)  # no collision among these distinct IDs
    short = pa.array([f"D{i}" for i in range(idkeys._BLOCK + 3)])
    short_keys, exact = identity_keys(short)
    assert exact and len(set(short_keys.tolist())) == len(short)  # at most 8 bytes each: distinct keys, exactly


def test_identity_keys_hold_a_block_beside_their_output() -> None:
    """Issue 28: keys of a million long IDs allocate their 8 MiB output and a block's temporaries, not a dozen
    whole-column arrays (77 MiB before: each a fresh mapping the kernel zeroes, most of the system time)."""
    import tracemalloc

    n = 1 << 20
    strings = _msmarco_ids(n)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        keys, _ = identity_keys(strings)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Beside the output, at most 16 arrays of 8 bytes per row of one block.
    assert peak <= keys.nbytes + 16 * 8 * idkeys._BLOCK


@pytest.mark.parametrize(
    "values",
    [
        ["msmarco_doc_17_10768284", "msmarco_doc_17_1076828", "msmarco_doc_01_99", "msmarco_doc_17_10768284"],
        ["x" * 40 + "b", "x" * 40 + "a", "x" * 40, "x" * 33, "x" * 32, "x" * 31, "x" * 40 + "a", "x" * 8],
        ["é" * 20 + "a", "é" * 20, "é" * 16 + "日", "é" * 16 + "𝄞", "é" * 20 + "a"],
    ],
)
def test_ids_sharing_long_prefixes_rank_as_the_full_comparison(values: list[str]) -> None:
    """Issue 28: ties are ordered by the first 32 bytes as four words (every msmarco_doc ID shares its first 8);
    longer IDs equal on those are compared in full. Equal IDs, equal ranks; the order is strcmp's."""
    ranks = string_ranks(pa.array(values, pa.string()))
    assert [values[i] for i in np.argsort(ranks, kind="stable")] == utf8_order(values)
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            assert (ranks[i] == ranks[j]) == (a == b), (a, b)
