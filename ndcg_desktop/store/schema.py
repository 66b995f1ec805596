"""The project file's schema, its version, and the triggers that make frozen pools and stored runs immutable."""

from __future__ import annotations

import hashlib

from ndcg_desktop.domain.names import MODEL_PREFIX

APPLICATION_ID = 0x6E646367  # "ndcg": marks a SQLite file as an ndcg-desktop project
SCHEMA_VERSION = 11  # 2: runs.data_hash and the stored-run triggers; 3: topics, grading guidelines; 4: ratings;
# 5: pool_versions.team; 6: runs may store each row's document ID (the code before misread such a run);
# 7: the chain of frozen versions' hashes; 8: handouts, what each work file was handed out with; 9: a machine
# assessor's runs and every answer it gave; 10: how each pool was built (strategy, budget, runs, order chosen);
# 11: each judgment's iteration (the qrels' second column: a round) as read
RATINGS_FORMAT = 4  # the format that brought ratings per annotator (issue 15)
TEAM_FORMAT = 5  # the format that records a version's team (annotators' ratings hashes ...) when it is frozen
ROW_IDS_FORMAT = 6  # the format whose runs may hold each row's document ID instead of a dictionary of them
CHAIN_FORMAT = 7  # the format that keeps each frozen version's hash in an append-only chain (issue 24 item 5)
HANDOUT_FORMAT = 8  # the format that keeps each work file's handout: annotator, scope, items, keyed digest
ASSESSOR_FORMAT = 9  # the format that keeps a language model's runs and each of its answers (issue 25, rule 18)
POOLING_FORMAT = 10  # the format that records how a pool was built and the order it chose (issue 34, rule 20)
ITERATION_FORMAT = 11  # the format that keeps each judgment's qrels iteration (its round) as read (issue 35 item 4)

# How a draft's documents were chosen (issue 34, contract rule 20): each build's strategy with its parameters, the
# budget, depth, batch size (an adaptive build), queries, and runs with their hashes; and, per query, the documents
# in the order the strategy chose them. Kept with the version: removed only with its draft or its item.
POOLING_TABLES = """
CREATE TABLE pool_builds (
    build_id   INTEGER PRIMARY KEY,
    version    INTEGER NOT NULL REFERENCES pool_versions(version) ON DELETE CASCADE,
    strategy   TEXT NOT NULL,             -- its text form: depth(k=10), rrf(k=60), maxmean() (scoring/pooling.py)
    parameters TEXT NOT NULL,             -- JSON: each parameter's value
    budget     TEXT NOT NULL,             -- its text form: 100, 10%, total:5000
    depth      INTEGER NOT NULL,          -- the rank up to which each run's documents are candidates
    batch_size INTEGER,                   -- an adaptive build's documents a query's batch; NULL: chosen at once
    queries    TEXT NOT NULL,             -- JSON list: the query IDs it pooled
    runs       TEXT NOT NULL,             -- JSON list: each run's name, file SHA-256 and stored data hash
    built_at   TEXT NOT NULL,
    built_by   TEXT NOT NULL
);
CREATE TABLE pool_choices (
    build_id INTEGER NOT NULL REFERENCES pool_builds(build_id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    query_id TEXT NOT NULL,
    position INTEGER NOT NULL,            -- 1, 2, ...: the order the strategy chose the query's documents in
    doc_id   TEXT NOT NULL,
    batch    INTEGER NOT NULL,            -- the batch it came in (1 for a build chosen at once)
    new      INTEGER NOT NULL,            -- 1: the build added it to the pool; 0: it was there already
    PRIMARY KEY (build_id, query_id, position),
    FOREIGN KEY (version, query_id, doc_id) REFERENCES judgments (version, query_id, doc_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX pool_choices_by_item ON pool_choices (version, query_id, doc_id);
"""
POOLING_TRIGGERS = """
CREATE TRIGGER pool_build_not_updated BEFORE UPDATE ON pool_builds
BEGIN SELECT RAISE(ABORT, 'a pool build is recorded as it was made'); END;
CREATE TRIGGER pool_build_not_deleted BEFORE DELETE ON pool_builds
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: the record of how it was built cannot be removed'); END;
CREATE TRIGGER pool_build_not_added BEFORE INSERT ON pool_builds
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: nothing can be pooled into it'); END;
CREATE TRIGGER pool_choice_not_updated BEFORE UPDATE ON pool_choices
BEGIN SELECT RAISE(ABORT, 'the order a pool was chosen in is recorded as it was made'); END;
CREATE TRIGGER pool_choice_not_deleted BEFORE DELETE ON pool_choices
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: the order it was chosen in cannot be removed'); END;
CREATE TRIGGER pool_choice_not_added BEFORE INSERT ON pool_choices
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: nothing can be pooled into it'); END;
"""

# A machine assessor (issue 25): each run's model, endpoint host, parameters and template, and every answer it gave,
# a grade or a failure with its text (never both). A graded answer is also the rating of annotator model:<name>.
# Answers are kept as given: never updated; removed only with their draft or their item (discard, remove, undo).
ASSESSOR_TABLES = """
CREATE TABLE assessor_runs (
    run_id          INTEGER PRIMARY KEY,
    version         INTEGER NOT NULL REFERENCES pool_versions(version) ON DELETE CASCADE,
    annotator       TEXT NOT NULL,            -- model:<name>
    model           TEXT NOT NULL,
    endpoint_host   TEXT NOT NULL,            -- host and port only: no path, no credential
    parameters      TEXT NOT NULL,            -- JSON: temperature, seed, max_tokens, ... (never the API key)
    template_sha256 TEXT NOT NULL,
    template_source TEXT NOT NULL,            -- built-in, or the file it was read from
    started_at      TEXT NOT NULL,
    started_by      TEXT NOT NULL
);
CREATE TABLE assessor_attempts (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES assessor_runs(run_id) ON DELETE CASCADE,
    version           INTEGER NOT NULL,
    query_id          TEXT NOT NULL,
    doc_id            TEXT NOT NULL,
    grade             INTEGER,                -- NULL: a failed attempt
    failure           TEXT,                   -- why it is not a grade (NULL: graded)
    raw               TEXT NOT NULL,          -- the answer as the server sent it
    latency           REAL NOT NULL,          -- seconds
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    at                TEXT NOT NULL,
    CHECK ((grade IS NULL) != (failure IS NULL)),
    FOREIGN KEY (version, query_id, doc_id) REFERENCES judgments (version, query_id, doc_id) ON DELETE CASCADE
);
CREATE INDEX assessor_attempts_by_item ON assessor_attempts (version, query_id, doc_id);
"""


def not_model(column: str) -> str:
    """SQL: true unless ``column`` names a model (``model:<name>``). A model's credit is written by the program
    exactly so, and no person may take a name whose key starts with it (domain.names): the prefix tells them apart.
    """
    return f"substr(coalesce({column}, ''), 1, {len(MODEL_PREFIX)}) != '{MODEL_PREFIX}'"


def person_rating(alias: str = "") -> str:
    """SQL: true for a rating (``alias``: the ratings table's alias) given by a person, not a model."""
    return not_model(f"{alias}.annotator" if alias else "annotator")


def unsettled_items(*, one_query: bool = False, per_item: bool = False) -> str:
    """SQL: the items (``query_id``, ``doc_id``) of version ``:v`` (of query ``:q`` with ``one_query``) that wait
    for adjudication: ungraded, and people rated them differently (a model's rating never does, rule 18).

    The ratings are grouped, not looked up per item: a fresh pool holds many ungraded items and few ratings.
    ``per_item`` is the same set the other way round, for a pool about to freeze (few ungraded items, many
    ratings: grouping 766k ratings took 0.6 s of every freeze).
    """
    if per_item:
        return (
            "SELECT j.query_id, j.doc_id FROM judgments j WHERE j.version = :v AND j.grade IS NULL AND ("
            "SELECT min(r.grade) != max(r.grade) FROM ratings r WHERE r.version = j.version "
            f"AND r.query_id = j.query_id AND r.doc_id = j.doc_id AND {person_rating('r')})"
        )
    rated, item = (" AND query_id = :q", " AND j.query_id = :q") if one_query else ("", "")
    keys = "doc_id, query_id" if one_query else "query_id, doc_id"  # one query: its documents, nothing per query
    return (
        "SELECT j.query_id, j.doc_id FROM judgments j JOIN (SELECT query_id, doc_id FROM ratings WHERE version = :v"
        f"{rated} AND {person_rating()} GROUP BY {keys} HAVING min(grade) != max(grade)) d "
        f"ON d.query_id = j.query_id AND d.doc_id = j.doc_id WHERE j.version = :v{item} AND j.grade IS NULL"
    )


ASSESSOR_TRIGGERS = """
CREATE TRIGGER assessor_run_not_updated BEFORE UPDATE ON assessor_runs
BEGIN SELECT RAISE(ABORT, 'a model run is recorded as it started'); END;
CREATE TRIGGER assessor_attempt_not_updated BEFORE UPDATE ON assessor_attempts
BEGIN SELECT RAISE(ABORT, 'a model''s answers are kept as given'); END;
CREATE TRIGGER assessor_attempt_not_deleted BEFORE DELETE ON assessor_attempts
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: its model answers cannot be removed'); END;
CREATE TRIGGER assessor_attempt_not_added BEFORE INSERT ON assessor_attempts
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: no model answer can be added'); END;
"""

# A version number, once frozen, never names other judgments: each frozen version's hash is also kept here, outside
# the pool_versions row that another program could flip back to 'draft'. Each link hashes the previous link, the
# version number and its hash (chain_link), so a row deleted or edited breaks every link after it.
CHAIN_TABLE = """
CREATE TABLE frozen_chain (
    version INTEGER PRIMARY KEY,
    hash    TEXT NOT NULL,
    link    TEXT NOT NULL
);
"""
CHAIN_TRIGGERS = """
CREATE TRIGGER frozen_chain_not_updated BEFORE UPDATE ON frozen_chain
BEGIN SELECT RAISE(ABORT, 'the record of frozen versions is append-only'); END;
CREATE TRIGGER frozen_chain_not_deleted BEFORE DELETE ON frozen_chain
BEGIN SELECT RAISE(ABORT, 'the record of frozen versions is append-only'); END;
CREATE TRIGGER frozen_chain_in_order BEFORE INSERT ON frozen_chain
WHEN NEW.version <= coalesce((SELECT max(version) FROM frozen_chain), 0)
  OR (SELECT state FROM pool_versions WHERE version = NEW.version) IS NOT 'frozen'
BEGIN SELECT RAISE(ABORT, 'a version number joins the record of frozen versions once, when it is frozen'); END;
"""

# A stored run is written once, whole: it is never updated, deleted or replaced (the app deletes no run).
RUN_TRIGGERS = """
CREATE TRIGGER stored_run_not_updated BEFORE UPDATE ON runs
BEGIN SELECT RAISE(ABORT, 'a stored run cannot change; import its file again under another name'); END;
CREATE TRIGGER stored_run_not_deleted BEFORE DELETE ON runs
BEGIN SELECT RAISE(ABORT, 'a stored run cannot be deleted'); END;
CREATE TRIGGER stored_run_not_replaced BEFORE INSERT ON runs
WHEN EXISTS (SELECT 1 FROM runs WHERE name = NEW.name OR run_id = NEW.run_id)
BEGIN SELECT RAISE(ABORT, 'a stored run cannot be replaced'); END;
"""
# The grading guidelines are a history: each change is a new row (who, when, from where), the last one is current.
GUIDELINES_TRIGGERS = """
CREATE TRIGGER guidelines_not_updated BEFORE UPDATE ON guidelines
BEGIN SELECT RAISE(ABORT, 'the guidelines history is append-only'); END;
CREATE TRIGGER guidelines_not_deleted BEFORE DELETE ON guidelines
BEGIN SELECT RAISE(ABORT, 'the guidelines history is append-only'); END;
CREATE TRIGGER guidelines_not_replaced BEFORE INSERT ON guidelines
WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM guidelines WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'the guidelines history is append-only'); END;
"""
GUIDELINES_TABLE = """
CREATE TABLE guidelines (
    id     INTEGER PRIMARY KEY,
    text   TEXT NOT NULL,             -- Markdown; '' clears the guidelines
    sha256 TEXT NOT NULL,             -- SHA-256 of text as UTF-8 ('' for no guidelines)
    source TEXT NOT NULL,             -- file:NAME, window, undo, redo
    who    TEXT NOT NULL,
    at     TEXT NOT NULL
);
"""
# Ratings per annotator (issue 15): (version, query, document, annotator) -> grade, note, time. The pool
# item's own grade (judgments.grade) is the adjudicated one. A frozen version's ratings are as final as its grades.
RATINGS_TABLE = """
CREATE TABLE ratings (
    version   INTEGER NOT NULL,
    query_id  TEXT NOT NULL,
    doc_id    TEXT NOT NULL,
    annotator TEXT NOT NULL CHECK (length(annotator) > 0),
    grade     INTEGER NOT NULL,
    note      TEXT NOT NULL DEFAULT '',
    rated_at  TEXT NOT NULL,
    PRIMARY KEY (version, query_id, doc_id, annotator),
    FOREIGN KEY (version, query_id, doc_id) REFERENCES judgments (version, query_id, doc_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE assignments (
    version   INTEGER NOT NULL REFERENCES pool_versions(version) ON DELETE CASCADE,
    annotator TEXT NOT NULL,
    query_id  TEXT NOT NULL,
    work_id   TEXT NOT NULL,              -- the work file's identity (meta work_id inside it)
    PRIMARY KEY (version, annotator, query_id)
) WITHOUT ROWID;
"""
# What each work file was handed out with (issue 24 item 3), kept only in the coordinator's project: a merge
# compares the file with it. digest: HMAC-SHA256 of the handout under meta 'handout_secret' (tasks/teams.py).
HANDOUT_TABLES = """
CREATE TABLE handouts (
    work_id      TEXT PRIMARY KEY,
    version      INTEGER NOT NULL REFERENCES pool_versions(version) ON DELETE CASCADE,
    annotator    TEXT NOT NULL,
    scope_sha256 TEXT NOT NULL,
    digest       TEXT NOT NULL,
    assigned_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE handout_items (
    work_id  TEXT NOT NULL REFERENCES handouts(work_id) ON DELETE CASCADE,
    query_id TEXT NOT NULL,
    doc_id   TEXT NOT NULL,
    PRIMARY KEY (work_id, query_id, doc_id)
) WITHOUT ROWID;
"""
RATING_TRIGGERS = """
CREATE TRIGGER frozen_rating_not_updated BEFORE UPDATE ON ratings
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
  OR (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: its ratings cannot change'); END;
CREATE TRIGGER frozen_rating_not_deleted BEFORE DELETE ON ratings
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: its ratings cannot be removed'); END;
CREATE TRIGGER frozen_rating_not_added BEFORE INSERT ON ratings
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: no rating can be added'); END;
"""
# The schema version that introduced each trigger not in version 1 (an older file opened read-only lacks them).
TRIGGERS_SINCE = {
    "stored_run_not_updated": 2,
    "stored_run_not_deleted": 2,
    "stored_run_not_replaced": 2,
    "guidelines_not_updated": 3,
    "guidelines_not_deleted": 3,
    "guidelines_not_replaced": 3,
    "frozen_rating_not_updated": RATINGS_FORMAT,
    "frozen_rating_not_deleted": RATINGS_FORMAT,
    "frozen_rating_not_added": RATINGS_FORMAT,
    "frozen_chain_not_updated": CHAIN_FORMAT,
    "frozen_chain_not_deleted": CHAIN_FORMAT,
    "frozen_chain_in_order": CHAIN_FORMAT,
    "assessor_run_not_updated": ASSESSOR_FORMAT,
    "assessor_attempt_not_updated": ASSESSOR_FORMAT,
    "assessor_attempt_not_deleted": ASSESSOR_FORMAT,
    "assessor_attempt_not_added": ASSESSOR_FORMAT,
    "pool_build_not_updated": POOLING_FORMAT,
    "pool_build_not_deleted": POOLING_FORMAT,
    "pool_build_not_added": POOLING_FORMAT,
    "pool_choice_not_updated": POOLING_FORMAT,
    "pool_choice_not_deleted": POOLING_FORMAT,
    "pool_choice_not_added": POOLING_FORMAT,
}

SCHEMA = (
    """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE queries (
    query_id    TEXT PRIMARY KEY CHECK (length(query_id) > 0),
    text        TEXT NOT NULL DEFAULT '',  -- the title
    description TEXT NOT NULL DEFAULT '',
    narrative   TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE TABLE documents (
    doc_id TEXT PRIMARY KEY CHECK (length(doc_id) > 0),
    title  TEXT NOT NULL DEFAULT '',
    text   TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE TABLE pool_versions (
    version    INTEGER PRIMARY KEY,
    state      TEXT NOT NULL CHECK (state IN ('draft', 'frozen')),
    parent     INTEGER REFERENCES pool_versions(version),
    scale_low  INTEGER NOT NULL,
    scale_high INTEGER NOT NULL,
    labels     TEXT NOT NULL,             -- JSON list, one label per grade
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    frozen_at  TEXT,
    frozen_by  TEXT,
    hash       TEXT,
    guidelines_sha256 TEXT,               -- the grading guidelines current when it was frozen (NULL: none)
    team       TEXT                       -- JSON, recorded when frozen: each annotator's ratings count and hash,
                                          -- adjudications, agreement (store/team.py); NULL: a draft, or frozen
                                          -- before format 5 (then computed at each use)
);
CREATE TABLE judgments (
    version    INTEGER NOT NULL REFERENCES pool_versions(version),
    query_id   TEXT NOT NULL,
    doc_id     TEXT NOT NULL,
    grade      INTEGER,                   -- NULL: in the pool, not graded yet
    annotator  TEXT,
    note       TEXT NOT NULL DEFAULT '',
    updated_at TEXT,
    adjudication TEXT,                    -- NULL, or how differing ratings were settled: pick, median, ...
    iteration  TEXT NOT NULL DEFAULT '0', -- the qrels' iteration column as read (a round: 0.5, 1, 1.5 ...);
                                          -- not part of the version's hash, which covers items and grades
    PRIMARY KEY (version, query_id, doc_id)
) WITHOUT ROWID;
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    version   INTEGER NOT NULL,
    query_id  TEXT NOT NULL,
    doc_id    TEXT NOT NULL,
    action    TEXT NOT NULL,              -- grade, note, add, remove, import
    old_grade INTEGER,
    new_grade INTEGER,
    old_note  TEXT,
    new_note  TEXT,
    who       TEXT NOT NULL,
    at        TEXT NOT NULL
);
CREATE TABLE runs (
    run_id      INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    source_name TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    format      TEXT NOT NULL,
    reading     TEXT NOT NULL,            -- JSON: order, ties, id_map, notes
    rows        INTEGER NOT NULL,
    queries     INTEGER NOT NULL,
    data        BLOB NOT NULL,            -- Arrow IPC: query_id, doc_id, score, rank, line in file order
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    data_hash   TEXT NOT NULL             -- run_hash() of the columns above, checked at every load
);
CREATE TABLE evaluations (
    id           INTEGER PRIMARY KEY,
    run_name     TEXT NOT NULL,
    pool_version INTEGER NOT NULL REFERENCES pool_versions(version),
    settings     TEXT NOT NULL,
    manifest     TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX judgments_by_query ON judgments (version, query_id, grade);

-- A frozen pool version can never change, whoever writes to the file.
CREATE TRIGGER frozen_version_is_final BEFORE UPDATE ON pool_versions
WHEN OLD.state = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen and cannot change'); END;
CREATE TRIGGER frozen_version_not_deleted BEFORE DELETE ON pool_versions
WHEN OLD.state = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen and cannot be deleted'); END;
CREATE TRIGGER frozen_judgment_not_updated BEFORE UPDATE ON judgments
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
  OR (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: its judgments cannot change'); END;
CREATE TRIGGER frozen_judgment_not_deleted BEFORE DELETE ON judgments
WHEN (SELECT state FROM pool_versions WHERE version = OLD.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: its judgments cannot be removed'); END;
CREATE TRIGGER frozen_judgment_not_added BEFORE INSERT ON judgments
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen: nothing can be added'); END;
CREATE TRIGGER freezing_needs_grades BEFORE UPDATE OF state ON pool_versions
WHEN NEW.state = 'frozen'
 AND EXISTS (SELECT 1 FROM judgments WHERE version = NEW.version AND grade IS NULL)
BEGIN SELECT RAISE(ABORT, 'every pool item needs a grade before freezing'); END;

-- REPLACE deletes conflicting rows without firing DELETE triggers: refuse it up front.
CREATE TRIGGER frozen_version_not_replaced BEFORE INSERT ON pool_versions
WHEN (SELECT state FROM pool_versions WHERE version = NEW.version) = 'frozen'
BEGIN SELECT RAISE(ABORT, 'pool version is frozen and cannot be replaced'); END;
CREATE TRIGGER version_numbers_are_final BEFORE UPDATE OF version ON pool_versions
WHEN NEW.version IS NOT OLD.version
BEGIN SELECT RAISE(ABORT, 'pool version numbers never change'); END;

-- The audit log only grows.
CREATE TRIGGER audit_log_not_replaced BEFORE INSERT ON audit_log
WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_not_updated BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_not_deleted BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""
    + RUN_TRIGGERS
    + GUIDELINES_TABLE
    + GUIDELINES_TRIGGERS
    + RATINGS_TABLE
    + "CREATE INDEX ratings_by_annotator ON ratings (version, annotator);\n"
    + RATING_TRIGGERS
    + CHAIN_TABLE
    + CHAIN_TRIGGERS
    + HANDOUT_TABLES
    + ASSESSOR_TABLES
    + ASSESSOR_TRIGGERS
    + POOLING_TABLES
    + POOLING_TRIGGERS
)

# Forward migrations: MIGRATIONS[n] takes a file from schema version n to n + 1.
# A migration may call ndcg_run_hash(...), which core registers on the connection before migrating.
MIGRATIONS: dict[int, str] = {
    1: "ALTER TABLE runs ADD COLUMN data_hash TEXT NOT NULL DEFAULT '';\n"
    "UPDATE runs SET data_hash = ndcg_run_hash(name, source_name, sha256, format, reading, rows, queries, data);\n"
    + RUN_TRIGGERS,
    2: "ALTER TABLE queries ADD COLUMN description TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE queries ADD COLUMN narrative TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE pool_versions ADD COLUMN guidelines_sha256 TEXT;\n" + GUIDELINES_TABLE + GUIDELINES_TRIGGERS,
    # Every graded judgment becomes the rating of its recorded annotator and stays the adjudicated grade: the
    # judgments (and so every frozen hash) and the audit log are untouched. Ratings are copied before their
    # triggers exist, frozen versions' included.
    RATINGS_FORMAT - 1: "ALTER TABLE judgments ADD COLUMN adjudication TEXT;\n"
    + RATINGS_TABLE
    + "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
    "SELECT version, query_id, doc_id, coalesce(nullif(annotator, ''), 'unrecorded'), grade, note, "
    "coalesce(updated_at, '') FROM judgments WHERE grade IS NOT NULL ORDER BY version, query_id, doc_id;\n"
    "CREATE INDEX ratings_by_annotator ON ratings (version, annotator);\n" + RATING_TRIGGERS,
    # Versions frozen before have no record (NULL): their team is computed from their ratings at each use, as
    # before; the frozen rows are not rewritten.
    TEAM_FORMAT - 1: "ALTER TABLE pool_versions ADD COLUMN team TEXT;\n",
    # Nothing to rewrite: runs stored before keep their dictionaries, which load as before. The number alone
    # makes older code refuse a file whose newer runs it would misread (it took each row's IDs for numbers).
    ROW_IDS_FORMAT - 1: "",
    # The chain is built from the versions frozen so far, in version order, before its triggers exist.
    CHAIN_FORMAT - 1: CHAIN_TABLE + "INSERT INTO frozen_chain (version, hash, link) "
    "WITH RECURSIVE f AS (SELECT row_number() OVER (ORDER BY version) AS n, version, coalesce(hash, '') AS hash "
    "                     FROM pool_versions WHERE state = 'frozen'), "
    "c (n, version, hash, link) AS (SELECT n, version, hash, ndcg_chain_link('', version, hash) FROM f WHERE n = 1 "
    "  UNION ALL SELECT f.n, f.version, f.hash, ndcg_chain_link(c.link, f.version, f.hash) FROM f JOIN c "
    "  ON f.n = c.n + 1) "
    "SELECT version, hash, link FROM c ORDER BY n;\n" + CHAIN_TRIGGERS,
    # Work files handed out before keep their query-level record (assignments) and are merged by it.
    HANDOUT_FORMAT - 1: HANDOUT_TABLES,
    # Nothing to rewrite: a project before it has no model's answers.
    ASSESSOR_FORMAT - 1: ASSESSOR_TABLES + ASSESSOR_TRIGGERS,
    # Nothing to rewrite: pools built before have no record of how (depth pooling, its runs unrecorded).
    POOLING_FORMAT - 1: POOLING_TABLES + POOLING_TRIGGERS,
    # Every judgment stored before was exported with iteration 0: it keeps that. Adding a column fires no trigger
    # and changes no hashed line, so frozen versions and their chain are untouched.
    ITERATION_FORMAT - 1: "ALTER TABLE judgments ADD COLUMN iteration TEXT NOT NULL DEFAULT '0';\n",
}


def chain_link(previous: str, version: int, digest: str) -> str:
    """A link of the frozen versions' chain: SHA-256 over the previous link ('' for the first), the version number
    and its hash, each length-prefixed."""
    h = hashlib.sha256(b"ndcg-frozen-chain-v1\n")
    for part in (previous, str(int(version)), digest):
        encoded = str(part).encode("utf-8")
        h.update(f"{len(encoded)}:".encode())
        h.update(encoded)
    return h.hexdigest()


def run_hash(
    name: str, source_name: str, sha256: str, fmt: str, reading: str, rows: int, queries: int, data: bytes
) -> str:
    """SHA-256 over exactly what is stored for a run: its name, source, reading settings, counts and Arrow blob.

    Each field is length-prefixed, so no two different rows hash alike by shifting bytes between fields.
    """
    digest = hashlib.sha256(b"ndcg-run-v1\n")
    for field in (name, source_name, sha256, fmt, reading, str(int(rows)), str(int(queries))):
        encoded = str(field).encode("utf-8")
        digest.update(f"{len(encoded)}:".encode())
        digest.update(encoded)
    blob = bytes(data)
    digest.update(f"{len(blob)}:".encode())
    digest.update(blob)
    return digest.hexdigest()


def framed(lines: bytes, rows: int) -> bool:
    """True if the hashed text of ``rows`` judgments (or ratings) has one line end and two tabs a row, as each
    row writes them: then no field holds either, so two different sets of rows never give the same text."""
    return lines.count(b"\n") == rows and lines.count(b"\t") == 2 * rows
