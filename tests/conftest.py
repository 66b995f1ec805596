"""Shared test set-up: offscreen Qt, the real evaluation files in tests/data, small file helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before anything imports Qt

# Hypothesis profiles: `dev` (the default) keeps the suite quick while iterating; `ci` explores more
# and is what .ci/run uses. Choose with HYPOTHESIS_PROFILE=ci or pytest's --hypothesis-profile ci.
# Tests set no example counts of their own, except a few expensive ones that ask for fewer.
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"  # origin and licence of every file: tests/data/SOURCES.md


@pytest.fixture
def data_dir() -> Path:
    """The real public evaluation files kept in the repository (large ones gzipped).

    Never skipped: a test whose file is missing fails on reading it.
    """
    return DATA


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text_or_bytes) -> path of a new file in the test's folder."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", newline="")
        else:
            path.write_bytes(content)
        return path

    return _write
