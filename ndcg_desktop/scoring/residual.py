"""Residual collections: what an earlier round judged, removed from a run and from the judgments before scoring.

Relevance feedback is evaluated on the *residual collection* (Salton and Buckley 1990, "Improving retrieval
performance by relevance feedback", JASIS 41(4)): the documents already seen are taken out of the collection, so a
system earns nothing for finding again what was known. TREC-COVID scored its rounds 2 to 5 that way (Voorhees et
al. 2020, "TREC-COVID: Constructing a Pandemic Information Retrieval Test Collection", SIGIR Forum 54(1)): every
document judged in an earlier round is removed, per topic, from the submitted runs and from the round's qrels,
and trec_eval is run on what is left.

Here, per query: a run row whose document (after the run's ID map, rule 11) the earlier judgments hold for that
query is removed, and so is every judgment of that (query, document). A query whose judgments are all removed has
no residual universe: it leaves the judgments (as it is absent from residual qrels files), and the run's rows for
it leave the run with it, counted apart. A query the run answered whose rows are all removed stays answered, with
an empty ranking (it scores 0, rule 3).

Pure arithmetic over :class:`Qrels` and :class:`Run`: nothing here reads a file or the project.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.data import JudgmentColumns, Qrels, Run
from ndcg_desktop.scoring.ranking import doc_strings, map_ids


@dataclass(frozen=True)
class Residual:
    """A run and judgments with an earlier round's judged documents removed, and what was removed."""

    qrels: Qrels
    run: Run
    judgments_removed: int  # judgments of the later version whose (query, document) the earlier one judged
    run_documents_removed: int  # run rows whose (query, document) the earlier version judged
    emptied_queries: tuple[str, ...]  # queries of the later version left with no judgment (every one judged before)
    run_rows_of_emptied: int  # run rows of those queries not counted above, removed with their query


def _pair_keys(queries: pa.Array, docs: pa.Array) -> pa.Array:
    """``query<TAB>document`` per row: IDs hold no whitespace (rule 14), so the pair is unambiguous."""
    return pc.binary_join_element_wise(queries.cast(pa.string()), docs.cast(pa.string()), "\t")


def residual(qrels: Qrels, run: Run, earlier: Qrels, *, id_map: IdMap | None = None) -> Residual:
    """``qrels`` and ``run`` without every (query, document) that ``earlier`` judged (see the module docstring).

    >>> import pandas as pd
    >>> from ndcg_desktop.domain.data import Source
    >>> from ndcg_desktop.formats.frames import run_from_frame
    >>> def judged(rows):
    ...     frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"]).assign(line=range(1, len(rows) + 1))
    ...     return Qrels(frame, Source("q", "", "test"))
    >>> later = judged([("q1", "A", 3), ("q1", "B", 2), ("q1", "C", 1), ("q1", "D", 0)])
    >>> run = run_from_frame(pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["B", "A", "C"], "score": [3.0, 2, 1]}))
    >>> left = residual(later, run, judged([("q1", "A", 3)]))
    >>> sorted(left.qrels.frame["doc_id"]), left.judgments_removed, left.run_documents_removed
    (['B', 'C', 'D'], 1, 1)
    """
    earlier_keys = _judged_pairs(earlier.judgments)
    c = qrels.judgments
    judged_before = pc.is_in(_pair_keys(c.queries.take(pa.array(c.q)), c.doc_ids), value_set=earlier_keys)
    drop = judged_before.to_numpy(zero_copy_only=False).astype(bool, copy=False)
    keep = ~drop
    used = np.bincount(c.q, minlength=len(c.queries)) > 0
    still = np.bincount(c.q[keep], minlength=len(c.queries)) > 0
    emptied = c.queries.filter(pa.array(used & ~still))
    code = np.full(len(c.queries), -1, dtype=np.int32)  # the queries left, in their order (sorted, as readers give)
    code[still] = np.arange(int(still.sum()), dtype=np.int32)
    left = JudgmentColumns(
        queries=c.queries.filter(pa.array(still)),
        q=code[c.q[keep]],
        doc_ids=c.doc_ids.filter(pa.array(keep)),
        grade=c.grade[keep],
        line=c.lines()[keep],
        doc_keys=c.doc_keys[keep] if c.doc_keys is not None else None,
    )
    new_qrels = Qrels(left, qrels.source)

    n = len(run)
    docs, codes = map_ids(run, id_map)
    mapped = doc_strings(docs, codes if codes is not None else np.arange(n, dtype=np.int64))
    row_queries = run.queries.take(pa.array(run.q))
    seen = pc.is_in(_pair_keys(row_queries, mapped), value_set=earlier_keys)
    removed = seen.to_numpy(zero_copy_only=False).astype(bool, copy=False)
    of_emptied = pc.is_in(row_queries, value_set=emptied).to_numpy(zero_copy_only=False).astype(bool, copy=False)
    gone = removed | of_emptied
    return Residual(
        qrels=new_qrels,
        run=_rows_kept(run, ~gone, set(emptied.to_pylist())),
        judgments_removed=int(drop.sum()),
        run_documents_removed=int(removed.sum()),
        emptied_queries=tuple(emptied.to_pylist()),
        run_rows_of_emptied=int((of_emptied & ~removed).sum()),
    )


def _judged_pairs(judgments: JudgmentColumns) -> pa.Array:
    return _pair_keys(judgments.queries.take(pa.array(judgments.q)), judgments.doc_ids).unique()


def _rows_kept(run: Run, keep: np.ndarray, emptied: set[str]) -> Run:
    """``run`` with only the rows ``keep`` marks, each keeping its file line; a query whose rows all went stays
    answered with an empty ranking, unless it is one of ``emptied`` (no residual universe: it leaves the run)."""
    index = np.flatnonzero(keep)
    used = np.bincount(run.q[index], minlength=len(run.queries)) > 0
    answered = np.bincount(run.q, minlength=len(run.queries)) > 0
    codes = np.full(len(run.queries), -1, dtype=np.int32)
    codes[used] = np.arange(int(used.sum()), dtype=np.int32)
    emptied_now = [q for q in run.queries.filter(pa.array(answered & ~used)).to_pylist() if q not in emptied]
    empty = tuple(q for q in run.empty_queries if q not in emptied) + tuple(emptied_now)
    lines = run.line_numbers[index] if run.line_numbers is not None else index.astype(np.int64) + run.first_line
    rows = pa.array(index)
    return Run(
        queries=run.queries.filter(pa.array(used)),
        docs=run.docs if run.doc_numbers is None and run.doc_column is None else None,
        q=codes[run.q[index]],
        d=run.d[index] if run.doc_numbers is None and run.doc_column is None else None,
        score=run.score[index] if run.score is not None else None,
        rank=run.rank[index] if run.rank is not None else None,
        order=run.order,
        source=run.source,
        line_numbers=lines,
        notes=list(run.notes),
        empty_queries=empty,
        doc_numbers=run.doc_numbers[index] if run.doc_numbers is not None else None,
        doc_column=run.doc_column.take(rows) if run.doc_column is not None else None,
        tag=run.tag,
    )
