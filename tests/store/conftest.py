"""Helpers shared by the store tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest


def dump(path: Path) -> list[str]:
    """Every table and the schema as SQL text, read without writing: equal dumps mean an unchanged project."""
    con = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.fixture
def frozen_reads(monkeypatch) -> dict[str, int]:
    """Counts, while a test runs, how often a frozen version's judgments are read whole (for its hash) and how
    often its annotators' ratings are (for their hashes)."""
    from ndcg_desktop.store import pools, team

    reads = {"judgments": 0, "ratings": 0}
    lines, digests = pools.PoolRepository._hashed_lines, team.annotator_digests

    def counted_lines(self: pools.PoolRepository, number: int) -> bytes | None:
        reads["judgments"] += 1
        return lines(self, number)

    def counted_digests(*args: Any) -> Any:
        reads["ratings"] += 1
        return digests(*args)

    monkeypatch.setattr(pools.PoolRepository, "_hashed_lines", counted_lines)
    monkeypatch.setattr(team, "annotator_digests", counted_digests)
    return reads
