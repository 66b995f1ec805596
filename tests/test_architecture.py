"""The layering STYLE.md asks for, checked by import-linter and by a clean interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold(tmp_path):
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert lint, "import-linter is part of the test extra"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([lint, "--no-cache"], cwd=REPO, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 3  # Qt only in gui; the layers; the store's own layers (no import cycle)
    said = " ".join(result.stdout.split())  # import-linter wraps long contract names
    for contract in contracts:
        assert f"{contract['name']} KEPT" in said
    assert f"Contracts: {len(contracts)} kept, 0 broken" in said


def test_scoring_a_run_never_loads_qt(tmp_path):
    (tmp_path / "q.txt").write_text("q1 0 A 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 A 1 1 s\n")
    code = (
        "import sys; from ndcg_desktop.cli.main import main; "
        f"main(['score','--qrels',{str(tmp_path / 'q.txt')!r},'--run',{str(tmp_path / 'r.txt')!r},'--json']); "
        "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))], 'Qt was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_the_layers_are_the_ones_style_md_draws():
    """gui and cli sit side by side over tasks (neither imports the other); tasks over store; store over the core."""
    import tomllib

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    assert layers == [
        "ndcg_desktop.gui | ndcg_desktop.cli | ndcg_desktop.api",  # three fronts: the window, ndcg, Python
        "ndcg_desktop.tasks | ndcg_desktop.demo",
        "ndcg_desktop.store",
        "ndcg_desktop.formats",
        "ndcg_desktop.scoring",
        "ndcg_desktop.domain",
    ]
    forbidden = next(c for c in contracts if c["type"] == "forbidden")
    assert "ndcg_desktop.tasks" in forbidden["source_modules"]  # the use cases never import Qt
    fronts = next(c for c in contracts if c.get("forbidden_modules") == ["ndcg_desktop.store"])
    # the window, the command line and the Python API reach the project through tasks only (issue 23)
    assert fronts["source_modules"] == ["ndcg_desktop.gui", "ndcg_desktop.cli", "ndcg_desktop.api"]
    assert "ndcg_desktop.api" in forbidden["source_modules"]  # nor Qt
    window = next(c for c in contracts if c.get("source_modules") == ["ndcg_desktop.gui"])
    assert window["forbidden_modules"] == ["ndcg_desktop.scoring"]  # the window computes nothing
