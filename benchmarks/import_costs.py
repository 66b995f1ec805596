"""What each per-judgment guarantee costs `ndcg import-qrels` (issue 13, target 3: 766k judgments under 2 s).

An import writes every judgment three times, each by one INSERT ... SELECT from a temporary table of the
file's rows (store/judgments.py): the pool item, its audit row and the file's rating. This script times
those three statements as the project's schema has them, then each again with one guarantee taken away:

- a foreign key (checked per row: the pool version of an item, the pool item of a rating),
- a guard trigger (rule 15: frozen versions and the audit log refuse raw SQL; one subquery per row),
- a secondary index (judgments by query, ratings by annotator).

Every variant runs in a scratch copy of a new project and is rolled back; the statements mirror
``JudgmentRepository.import_qrels`` (file order staged, key order inserted). Medians of ``--repeats``.

    python benchmarks/import_costs.py                  # 7,000 queries: 766,560 judgments
    python benchmarks/import_costs.py --queries 1000 --repeats 1
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from qrels_speed import _path_data  # noqa: E402  (the same cached judgments as the project section)

from ndcg_desktop.formats.qrels import read_qrels  # noqa: E402
from ndcg_desktop.store import Project  # noqa: E402

STAGE = (
    "CREATE TEMP TABLE importing (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, grade INTEGER, line INTEGER NOT NULL)"
)
STATEMENTS = {
    "pool items": "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, updated_at) "
    "SELECT 1, query_id, doc_id, grade, 'import:bench', 't' FROM importing ORDER BY query_id, doc_id",
    "audit rows": "INSERT INTO audit_log (version, query_id, doc_id, action, new_grade, who, at) "
    "SELECT 1, query_id, doc_id, 'import', grade, 'bench', 't' FROM importing ORDER BY rowid",
    "ratings": "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
    "SELECT 1, query_id, doc_id, 'import:bench', grade, '', 't' FROM importing "
    "ORDER BY query_id, doc_id ON CONFLICT DO NOTHING",
}
# (label, statement it affects, SQL run before it in the scratch copy)
VARIANTS = [
    ("as stored", None, ""),
    ("no foreign keys", None, "PRAGMA foreign_keys = OFF"),
    ("no guard trigger", "pool items", "DROP TRIGGER frozen_judgment_not_added"),
    ("no guard trigger", "audit rows", "DROP TRIGGER audit_log_not_replaced"),
    ("no guard trigger", "ratings", "DROP TRIGGER frozen_rating_not_added"),
    ("no secondary index", "pool items", "DROP INDEX judgments_by_query"),
    ("no secondary index", "ratings", "DROP INDEX ratings_by_annotator"),
]
VARIANTS.append(("none of them", None, ";".join(sql for _, _, sql in VARIANTS if sql)))  # the floor


def timed(base: Path, scratch: Path, rows: list[tuple[str, str, int, int]], before: str) -> dict[str, float]:
    """Seconds of each statement, in one transaction (rolled back) on a fresh copy of ``base``."""
    shutil.copy(base, scratch)
    conn = sqlite3.connect(scratch, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")  # as every project connection (store/core.py)
        conn.execute("PRAGMA synchronous = FULL")
        for sql in filter(None, before.split(";")):
            conn.execute(sql)
        conn.execute(STAGE)
        conn.executemany("INSERT INTO importing VALUES (?, ?, ?, ?)", rows)
        conn.execute("BEGIN IMMEDIATE")
        seconds = {}
        for name, sql in STATEMENTS.items():
            start = time.perf_counter()
            conn.execute(sql)
            seconds[name] = time.perf_counter() - start
        conn.execute("ROLLBACK")
        return seconds
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=7_000, help="queries of the judgments (7,000: 766,560)")
    parser.add_argument("--depth", type=int, default=1_000, help="(names the cached data, as in qrels_speed.py)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--data-dir", type=Path, default=HERE / "data")
    args = parser.parse_args(argv)
    args.data_dir.mkdir(exist_ok=True)
    qrels_path, _ = _path_data(args, numeric=False)
    c = read_qrels(qrels_path).judgments
    queries = c.queries.take(pa.array(c.q)).to_pylist()
    rows = list(zip(queries, c.doc_ids.to_pylist(), c.grade.tolist(), c.lines().tolist(), strict=True))
    with tempfile.TemporaryDirectory(dir=args.data_dir) as tmp:
        base, scratch = Path(tmp) / "base.ndcgproj", Path(tmp) / "scratch.ndcgproj"
        with Project.create(base, annotator="bench") as project:
            project.pools.ensure_draft(annotator="bench")  # version 1, the draft every statement writes to
        figures: dict[tuple[str, str | None], dict[str, list[float]]] = {}
        # Rounds: every variant once per round, so load hits all alike; the first round warms the caches.
        for round_ in range(args.repeats + 1):
            for label, target, before in VARIANTS:
                for name, s in timed(base, scratch, rows, before).items():
                    if round_:
                        figures.setdefault((label, target), {}).setdefault(name, []).append(s)
    load = os.getloadavg()[0]
    print(f"{len(rows):,} judgments, medians of {args.repeats} (load {load:.1f} at the end)\n")
    print("| variant | " + " | ".join(f"{n} s" for n in STATEMENTS) + " | all three s |")
    print("|---|" + "---:|" * (len(STATEMENTS) + 1))
    for (label, target), by_name in figures.items():
        medians = {n: statistics.median(v) for n, v in by_name.items()}
        shown = [f"**{medians[n]:.2f}**" if n == target else f"{medians[n]:.2f}" for n in STATEMENTS]
        title = label if target is None else f"{label} ({target})"
        print(f"| {title} | " + " | ".join(shown) + f" | {sum(medians.values()):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
