"""What the audit log proves of the frozen versions' count and numbers (issue 33 item 10), beside the chain of
their hashes (``frozen_chain``, checked by core.chain_problems)."""

from __future__ import annotations

import sqlite3


def audit_problems(conn: sqlite3.Connection, recorded: dict[int, str]) -> list[str]:
    """How the audit log and the record of frozen versions disagree on the versions' count and numbers (issue 33
    item 10): the log's rows are numbered 1, 2, ... and never removed, so a missing number is a row removed; each
    freeze is audited with its hash (since format 10's builds), so a freeze the record lacks is a frozen version
    removed with its link (a missing last link or a gap), and a record whose version was never audited as frozen
    after an audited freeze is a link added by hand."""
    rows, top = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM audit_log").fetchone()
    problems = []
    if int(rows) != int(top):
        problems.append(
            f"the audit log holds {int(rows):,} rows numbered up to {int(top):,}: {int(top) - int(rows):,} were removed"
        )
    freezes = conn.execute(
        "SELECT min(id), version, coalesce(new_note, '') FROM audit_log WHERE action = 'freeze' AND query_id = '' "
        "GROUP BY version ORDER BY version"
    ).fetchall()
    for row_id, version, digest in freezes:
        if int(version) not in recorded:
            problems.append(
                f"pool version {int(version)} was frozen with sha256 {digest or 'none'} (audit log row {int(row_id)}); "
                "the record of frozen versions lacks it: a frozen version was removed with its link"
            )
        elif recorded[int(version)] != digest:
            problems.append(
                f"pool version {int(version)} was frozen with sha256 {digest or 'none'} (audit log row {int(row_id)}); "
                f"the record of frozen versions gives {recorded[int(version)] or 'none'}"
            )
    if freezes:
        audited = {int(version) for _id, version, _digest in freezes}
        first = min(audited)
        problems += [
            f"pool version {v} is in the record of frozen versions but its freezing is not in the audit log"
            for v in sorted(recorded)
            if v > first and v not in audited
        ]
    return problems
