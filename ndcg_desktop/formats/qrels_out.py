"""A frozen version's judgments as the text of a qrels file (TREC or CSV), each with its iteration as read, so that
re-importing the file gives the same hash (rule 14)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import show


def qrels_text(items: pd.DataFrame, fmt: str, path: str | Path) -> str:
    """``items`` (query_id, doc_id, grade, iteration) as a ``fmt`` file (``trec`` or ``csv``) to be written at
    ``path``; a query a TREC line cannot hold (one starting with ``#``, a comment to trec_eval 10.0) is refused."""
    if fmt == "csv":  # the iteration column only when a judgment has another than 0 (older readers skip it)
        columns = ["query_id", "doc_id", "grade"] + (["iteration"] if (items["iteration"] != "0").any() else [])
        text = str(items[columns].to_csv(index=False, lineterminator="\n"))
    else:  # each judgment's iteration as it was read (trec_eval ignores the column; TREC-COVID's rounds)
        commented = items["query_id"].str.startswith("#")
        if commented.any():  # a CSV file may hold such a query; a TREC line of it would be a comment
            query = items["query_id"][commented].iloc[0]
            raise InputError(
                f"query {show(query)} starts with '#': trec_eval 10.0 reads a TREC line that starts with '#' as a "
                "comment, so its judgments would be lost from a TREC file; export this version as CSV",
                path=path,
                hint="choose --format csv",
            )
        text = "".join(
            f"{q} {i} {d} {int(g)}\n"
            for q, i, d, g in zip(items["query_id"], items["iteration"], items["doc_id"], items["grade"], strict=True)
        )
    return text
