"""docs/guarantees.md's "Project file" section names only tests and files that exist."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "guarantees.md"


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"^## Project file.*?(?=^## |\Z)", text, flags=re.M | re.S)
    assert match is not None, "docs/guarantees.md has no 'Project file' section"
    return match.group(0)


def test_every_test_the_project_file_section_names_exists():
    text = section()
    named = set(re.findall(r"`(?:[\w/]+\.py::)?(test_\w+)`", text))
    defined = {
        m
        for path in (REPO / "tests").rglob("test_*.py")
        for m in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M)
    }
    assert len(named) >= 20
    assert sorted(named - defined) == []
    files = set(re.findall(r"`(tests/[\w/]+\.py)", text))
    assert len(files) >= 6
    assert sorted(f for f in files if not (REPO / f).is_file()) == []
