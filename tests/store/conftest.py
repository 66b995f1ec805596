"""Helpers shared by the store tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def dump(path: Path) -> list[str]:
    """Every table and the schema as SQL text, read without writing: equal dumps mean an unchanged project."""
    con = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()
