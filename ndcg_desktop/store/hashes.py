"""What a pool version's judgments hash to (contract rule 15): SHA-256 over the scale and the sorted
``query<TAB>doc<TAB>grade`` lines, the same wherever the judgments come from."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import pandas as pd

from ndcg_desktop.domain.settings import GradeScale

UNFRAMED_LINES = b"\0unframed"  # the marker PoolRepository._hashed_lines returns, compared by identity


def pool_hash(triples: pd.DataFrame, scale: GradeScale) -> str:
    """SHA-256 over the scale and the sorted (query, doc, grade) triples.

    The same judgments give the same hash wherever they come from (a project, or its
    exported qrels imported into another project with the same scale).
    """
    ordered = triples.sort_values(["query_id", "doc_id"], kind="stable")
    return hash_sorted(zip(ordered["query_id"], ordered["doc_id"], ordered["grade"], strict=True), scale)


def hash_sorted(rows: Iterable[tuple[Any, Any, Any]], scale: GradeScale) -> str:
    """The hash of (query, doc, grade) rows already sorted by query and document ID."""
    return hash_text("".join([f"{q}\t{d}\t{int(g)}\n" for q, d, g in rows]).encode(), scale)


# What a version's judgments "hash to" when their text no longer reads as one judgment a line: never a hash.
UNFRAMED = "no hash: a stored ID holds a tab or a line break, so its lines no longer read as one judgment each"


def hash_of(lines: bytes | None, scale: GradeScale) -> str | None:
    """What :meth:`.pools.PoolRepository._hashed_lines` hash to: None if some are ungraded, :data:`UNFRAMED` if they no
    longer read as one judgment a line."""
    if lines is None:
        return None
    return UNFRAMED if lines is UNFRAMED_LINES else hash_text(lines, scale)


def hash_text(lines: bytes, scale: GradeScale) -> str:
    """The hash of judgments written as sorted ``query<TAB>doc<TAB>grade`` lines (see :func:`pool_hash`)."""
    digest = hashlib.sha256(f"ndcg-pool-v1 scale={scale}\n".encode())
    digest.update(lines)  # one call: a call per line costs more than the hashing
    return digest.hexdigest()
