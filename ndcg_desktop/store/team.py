"""A pool version's team record (contract rule 16): each annotator's ratings with their SHA-256, how differing items
were settled, and the agreement figures.

Recorded when a version is frozen (``pool_versions.team``, protected like its hash) and read back at each use; the
recorded hashes are proven against the ratings where the version's own hash is (``pools.PoolRepository``), by
hashing text SQLite writes in one statement per annotator: no Python object per rating.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

import numpy as np
import pandas as pd

from ndcg_desktop.domain.names import MODEL_PREFIX
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store.schema import ASSESSOR_FORMAT, HANDOUT_FORMAT, RATINGS_FORMAT, framed, not_model, person_rating

# What an annotator's ratings "hash to" when their text no longer reads as one rating a line: never a hash.
UNFRAMED_RATINGS = "none: a stored ID or grade holds a tab or a line break"


def ratings_digest(lines: bytes, scale: GradeScale, annotator: str) -> str:
    """SHA-256 of one annotator's ratings written as sorted ``query<TAB>doc<TAB>grade`` lines.

    Under its own header, so it never coincides with a pool hash (``hashes.pool_hash``) of the same lines.
    """
    digest = hashlib.sha256(f"ndcg-ratings-v1 scale={scale} annotator={annotator}\n".encode())
    digest.update(lines)
    return digest.hexdigest()


def annotator_digests(conn: sqlite3.Connection, version: int, scale: GradeScale) -> dict[str, dict[str, Any]]:
    """Per annotator of ``version`` (in name order): how many ratings, and their :func:`ratings_digest`."""
    if _format(conn) < RATINGS_FORMAT:  # an older file opened read-only has no ratings, only grades
        return {}
    found: dict[str, dict[str, Any]] = {}
    name = ""
    while True:  # the next name up, from the (version, annotator) index: one seek per annotator, not a scan
        name = conn.execute(
            "SELECT min(annotator) FROM ratings WHERE version = ? AND annotator > ?", (version, name)
        ).fetchone()[0]
        if name is None:
            break
        # SQLite's BINARY order (UTF-8 bytes) is Python's (code points); an integer grade reads as Python writes it.
        # As a BLOB: the bytes come as they are (decoding them into a str and back held the GIL, see pools.py).
        count, lines = conn.execute(
            "SELECT count(*), "
            "CAST(group_concat(query_id || char(9) || doc_id || char(9) || grade || char(10), '') AS BLOB) "
            "FROM (SELECT query_id, doc_id, grade FROM ratings WHERE version = ? AND annotator = ? "
            "ORDER BY query_id, doc_id)",
            (version, name),
        ).fetchone()
        text = bytes(lines or b"")
        # A field holding a tab or a line break could pass one annotator's ratings off as others: no hash then.
        digest = ratings_digest(text, scale, str(name)) if framed(text, int(count)) else UNFRAMED_RATINGS
        found[str(name)] = {"ratings": int(count), "sha256": digest}
    return found


def adjudication_counts(conn: sqlite3.Connection, version: int) -> dict[str, int]:
    """How the differing items of a version were settled: count per way (pick, median, ...)."""
    if _format(conn) < RATINGS_FORMAT:
        return {}
    rows = conn.execute(
        "SELECT adjudication, count(*) FROM judgments WHERE version = ? AND adjudication IS NOT NULL "
        "GROUP BY adjudication ORDER BY adjudication",
        (version,),
    ).fetchall()
    return {str(how): int(n) for how, n in rows}


_FIGURES: dict[tuple[Any, ...], dict[str, Any]] = {}


def team_record(conn: sqlite3.Connection, version: int, scale: GradeScale) -> dict[str, Any]:
    """What rule 16 asks of a version's manifest, computed from its ratings: ``annotators`` (count and SHA-256 of
    each one's ratings), ``adjudication`` (count per way) and ``agreement`` (``AgreementReport.summary`` of the
    people's ratings over all queries; None with fewer than two people; a model's agreement
    with people is its own, under ``models``). The same content whether recorded at freezing or computed later.

    The agreement is remembered by the annotators' hashes: the same ratings are measured once per process.
    """
    annotators = annotator_digests(conn, version, scale)
    record = {
        "annotators": annotators,
        "adjudication": adjudication_counts(conn, version),
        "agreement": _agreement(conn, version, scale, annotators),
    }
    models = model_records(conn, version, scale)
    return record | ({"models": models} if models else {})


def model_records(conn: sqlite3.Connection, version: int, scale: GradeScale) -> dict[str, dict[str, Any]]:
    """Per machine assessor with ratings in ``version`` (contract rule 18): how many of the version's grades came
    from it (``grades``: items filled from it), its runs (model, endpoint host, template SHA-256, parameters) and
    its agreement with people (:func:`model_agreement`). Empty for a version no model rated."""
    if _format(conn) < ASSESSOR_FORMAT:
        return {}
    names = [
        str(name)
        for (name,) in conn.execute(
            "SELECT DISTINCT annotator FROM ratings WHERE version = ? AND NOT " + person_rating() + " ORDER BY 1",
            (version,),
        )
    ]
    found: dict[str, dict[str, Any]] = {}
    for name in names:
        runs = [
            {"model": m, "endpoint_host": h, "template_sha256": t, "parameters": json.loads(p)}
            for m, h, t, p in conn.execute(
                "SELECT DISTINCT model, endpoint_host, template_sha256, parameters FROM assessor_runs "
                "WHERE version = ? AND annotator = ? ORDER BY template_sha256, parameters",
                (version, name),
            )
        ]
        filled = conn.execute(
            "SELECT count(*) FROM judgments WHERE version = ? AND adjudication = ?", (version, name)
        ).fetchone()[0]
        found[name] = {"grades": int(filled), "runs": runs, "agreement": model_agreement(conn, version, scale, name)}
    return found


def model_agreement(conn: sqlite3.Connection, version: int, scale: GradeScale, annotator: str) -> dict[str, Any]:
    """How a model's ratings agree with people's on ``version``: over the items it rated that people graded (the
    pool's grade settled from people's ratings, not filled from a model): ``items``, the share given the same grade
    (``exact``), and the linearly and quadratically weighted Cohen's kappas (None with too few items)."""
    from ndcg_desktop.scoring.agreement import weighted_kappa

    rows = conn.execute(
        "SELECT r.grade, j.grade FROM ratings r JOIN judgments j ON (j.version, j.query_id, j.doc_id) = "
        "(r.version, r.query_id, r.doc_id) WHERE r.version = ? AND r.annotator = ? AND j.grade IS NOT NULL "
        "AND " + not_model("j.adjudication") + " "
        "AND EXISTS (SELECT 1 FROM ratings p WHERE p.version = r.version AND p.query_id = r.query_id "
        "AND p.doc_id = r.doc_id AND " + person_rating("p") + ")",
        (version, annotator),
    ).fetchall()
    grades = tuple(range(scale.low, scale.high + 1))
    model = np.array([int(a) for a, _ in rows], dtype=np.int64)
    people = np.array([int(b) for _, b in rows], dtype=np.int64)
    linear = weighted_kappa(model, people, grades, "linear")
    quadratic = weighted_kappa(model, people, grades, "quadratic")
    return {
        "items": len(rows),
        "exact": round(float((model == people).mean()), 6) if len(rows) else None,
        "kappa_linear": linear.value,
        "kappa_quadratic": quadratic.value,
    }


def _agreement(
    conn: sqlite3.Connection, version: int, scale: GradeScale, annotators: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """The people's agreement (rule 18: a model's is its own entry, ``models[name]["agreement"]``): a reader never
    takes a model's disagreement for the people's. Its ``annotators`` name people only (a record frozen before this
    rule names a model there too: the fronts then say the figure is theirs together)."""
    people = {name: rated for name, rated in annotators.items() if not name.startswith(MODEL_PREFIX)}
    if len(people) < 2:
        return None
    key = (str(scale), tuple((name, rated["sha256"]) for name, rated in people.items()))
    if key not in _FIGURES:
        from ndcg_desktop.scoring.agreement import agreement

        if len(_FIGURES) >= 16:
            _FIGURES.clear()
        ratings = pd.read_sql_query(
            "SELECT query_id, doc_id, annotator, grade FROM ratings WHERE version = ? AND " + person_rating() + " "
            "ORDER BY query_id, doc_id, annotator",
            conn,
            params=[version],
        )
        ratings["grade"] = ratings["grade"].astype("int64")
        _FIGURES[key] = agreement(ratings, scale, per_query=False).summary()
    return _FIGURES[key]


def encode(record: dict[str, Any]) -> str:
    """The recorded form of a team record (JSON; read back by :func:`decode` to an equal record)."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def decode(text: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(text)
    return record


def _format(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def outstanding_handouts(conn: sqlite3.Connection, version: int) -> list[tuple[str, str, int, int]]:
    """The work files of draft ``version`` still out (issue 33, item 13): each handout with an item, still in the
    draft, that its annotator has not rated here (nothing merged from it yet, or not all of it), as
    ``(annotator, work_id, items, unrated)`` in name order. Empty before the format that keeps handouts."""
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) < HANDOUT_FORMAT:
        return []
    rows = conn.execute(
        "SELECT h.annotator, h.work_id, count(*), sum(r.annotator IS NULL) FROM handouts h JOIN handout_items i "
        "ON i.work_id = h.work_id JOIN judgments j ON j.version = h.version AND j.query_id = i.query_id AND "
        "j.doc_id = i.doc_id LEFT JOIN ratings r ON r.version = h.version AND r.query_id = i.query_id AND "
        "r.doc_id = i.doc_id AND r.annotator = h.annotator WHERE h.version = ? GROUP BY h.work_id "
        "HAVING sum(r.annotator IS NULL) > 0 ORDER BY h.annotator, h.work_id",
        (version,),
    ).fetchall()
    return [(str(a), str(w), int(n), int(u)) for a, w, n, u in rows]


def outstanding_text(out: list[tuple[str, str, int, int]]) -> str:
    """The hand-outs still out, named in one phrase: ``ana (12 of 20 items not returned, work 3f2a…)``."""
    return ", ".join(f"{a} ({u} of {n} items not returned, work {w[:8]})" for a, w, n, u in out)
