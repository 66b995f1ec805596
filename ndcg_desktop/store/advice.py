"""What to do next, in commands that work in the project's current state (issue 27).

A refusal that suggests a command suggests one that works now: a fresh project has no frozen version for
``ndcg new-draft`` to copy, a project without runs has nothing for ``ndcg pool`` to pool, a draft with ungraded
items does not freeze as it is. Placeholders are upper case (PROJECT, FILE, NAME, K); every ``ndcg`` command
named here is run in each of those states by ``tests/cli/test_refusal_advice.py``.
"""

from __future__ import annotations

import sqlite3

from ndcg_desktop.domain.names import MODEL_PREFIX

IMPORT_QRELS = "ndcg import-qrels PROJECT FILE"


def start_a_draft(conn: sqlite3.Connection) -> str:
    """How a project without a draft gets one: copy its latest frozen version (``start one from pool version 2
    (ndcg new-draft PROJECT)``), or else import judgments, or pool runs if it has some."""
    frozen = conn.execute("SELECT max(version) FROM pool_versions WHERE state = 'frozen'").fetchone()[0]
    if frozen is not None:
        return f"start one from pool version {frozen} (ndcg new-draft PROJECT)"
    ways = f"import judgments to start one ({IMPORT_QRELS}; add --annotator NAME for one assessor's grades)"
    if conn.execute("SELECT EXISTS (SELECT 1 FROM runs)").fetchone()[0]:
        ways += ", or pool the top documents of runs (ndcg pool PROJECT --depth K --runs NAME)"
    return ways


def get_a_frozen_version(conn: sqlite3.Connection) -> str:
    """How a project without a frozen version gets one, from the state of its draft (if any)."""
    draft = conn.execute("SELECT max(version) FROM pool_versions WHERE state = 'draft'").fetchone()[0]
    if draft is None:
        return f"import graded judgments ({IMPORT_QRELS}) and freeze them"
    return what_blocks_freezing(conn, draft) or "freeze the draft first (ndcg freeze PROJECT)"


def what_blocks_freezing(conn: sqlite3.Connection, draft: int) -> str:
    """Why draft ``draft`` cannot be frozen as it is, and what to do; "" when nothing does."""
    items, graded = conn.execute("SELECT count(*), count(grade) FROM judgments WHERE version = ?", (draft,)).fetchone()
    unsettled = conn.execute(
        "SELECT count(*) FROM judgments j WHERE j.version = ? AND j.grade IS NULL AND (SELECT min(r.grade) != "
        "max(r.grade) FROM ratings r WHERE r.version = j.version AND r.query_id = j.query_id AND r.doc_id = j.doc_id "
        f"AND substr(r.annotator, 1, {len(MODEL_PREFIX)}) != '{MODEL_PREFIX}')",  # schema.person_rating('r'): a
        # model's rating never leaves anything to adjudicate (rule 18); this module sits beside schema, not above
        (draft,),
    ).fetchone()[0]
    if unsettled:
        return (
            f"draft version {draft} has {_items(unsettled)} that annotators rated differently: adjudicate them "
            "(ndcg adjudicate PROJECT --rule median settles them all, ndcg adjudicate PROJECT lists them)"
        )
    if not items:
        return f"draft version {draft} is empty: import judgments into it ({IMPORT_QRELS})"
    if not graded:
        return (
            f"draft version {draft} has no graded item: grade its {_items(items)} in the window, or hand them out "
            "(ndcg assign PROJECT --annotators NAMES -o DIR)"
        )
    if graded < items:
        return (
            f"draft version {draft} has {_items(items - graded)} ungraded: grade them, or freeze without them "
            "(ndcg freeze PROJECT --remove-ungraded)"
        )
    return ""


def _items(n: int) -> str:
    return f"{n} item{'s' if n != 1 else ''}"
