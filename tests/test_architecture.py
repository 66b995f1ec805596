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
    """gui, cli and api sit side by side (none imports another); the window's view sessions under them, over the use
    cases (tasks), which never import a session; tasks over store; store over the core."""
    import tomllib

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    assert layers == [
        "ndcg_desktop.gui | ndcg_desktop.cli | ndcg_desktop.api",  # three fronts: the window, ndcg, Python
        "ndcg_desktop.sessions",  # the window's view states (issue 32): a use case imports none
        "ndcg_desktop.tasks | ndcg_desktop.demo",
        "ndcg_desktop.store",
        "ndcg_desktop.formats",
        "ndcg_desktop.scoring",
        "ndcg_desktop.domain",
    ]
    forbidden = next(c for c in contracts if c["type"] == "forbidden")
    assert "ndcg_desktop.tasks" in forbidden["source_modules"]  # the use cases never import Qt
    assert "ndcg_desktop.sessions" in forbidden["source_modules"]  # nor the sessions
    window_only = next(c for c in contracts if c.get("forbidden_modules") == ["ndcg_desktop.sessions"])
    assert window_only["source_modules"] == ["ndcg_desktop.cli", "ndcg_desktop.api"]  # they call tasks directly
    fronts = next(c for c in contracts if c.get("forbidden_modules") == ["ndcg_desktop.store"])
    # the window, the command line and the Python API reach the project through tasks only (issue 23)
    assert fronts["source_modules"] == ["ndcg_desktop.gui", "ndcg_desktop.cli", "ndcg_desktop.api"]
    assert "ndcg_desktop.api" in forbidden["source_modules"]  # nor Qt
    window = next(c for c in contracts if c.get("source_modules") == ["ndcg_desktop.gui"])
    assert window["forbidden_modules"] == ["ndcg_desktop.scoring"]  # the window computes nothing


def test_no_view_session_is_left_among_the_use_cases():
    """Issue 32: ``ndcg_desktop.tasks`` holds use cases only; every class that keeps a view's state (a ``*Session``,
    or one with a ``changed`` signal) lives in ``ndcg_desktop.sessions``."""
    import ast

    found = []
    for path in sorted((REPO / "ndcg_desktop" / "tasks").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and (
                node.name.endswith("Session")
                or any(isinstance(n, ast.Attribute) and n.attr == "changed" for n in ast.walk(node))
            ):
                found.append(f"{path.relative_to(REPO)}:{node.name}")
    assert found == []


def test_one_progress_and_cancel_protocol():
    """Issue 32: ``Progress``, ``IsCancelled`` and the cancel exception are declared once (domain/progress.py) and
    imported from there by every layer; no module declares its own, and there is one cancel exception."""
    import ast

    found = []
    for path in sorted((REPO / "ndcg_desktop").rglob("*.py")):
        if path.name == "progress.py" and path.parent.name == "domain":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if {"Progress", "IsCancelled"} & set(names):
                found.append(f"{path.relative_to(REPO)}:{node.lineno} declares {names}")
            if isinstance(node, ast.ClassDef) and "Cancel" in node.name:
                found.append(f"{path.relative_to(REPO)}:{node.lineno} class {node.name}")
    assert found == []


# What the fronts may ask the store's Project directly: its reads (persistence queries) and opening, closing.
# Every other public method, and any added later, is a use case: the fronts reach it through ndcg_desktop.tasks.
STORE_READS = frozenset(
    {
        "adjudications",
        "audit_log",
        "awaiting_adjudication",
        "chunk_parents",
        "close",
        "counts",
        "document",
        "draft",
        "draft_ungraded",
        "frozen_version",
        "guidelines",
        "guidelines_history",
        "items",
        "judging_log",
        "judging_order",
        "latest_frozen",
        "load_run",
        "meta",
        "open",
        "pairs",
        "pool_items",
        "protection_problems",
        "prove_team",
        "qrels",
        "query",
        "query_list_exceeds",
        "query_progress",
        "ratings",
        "run_info",
        "runs",
        "saved_evaluations",
        "search_documents",
        "status",
        "team",
        "version",
        "version_contents",
        "versions",
        "watch",
    }
)
# Receivers in the fronts whose methods share a name with a store use case (gc.freeze, the window's File ▸
# Import… actions, Qt's style factory), and the views' Qt-free sessions (tasks objects whose methods call the use
# cases); every other receiver of such a call counts as a project.
NOT_A_PROJECT = frozenset({"gc", "self.project_actions", "QStyleFactory"})


def _front_files() -> list[Path]:
    package = REPO / "ndcg_desktop"
    return sorted([*(package / "gui").rglob("*.py"), *(package / "cli").rglob("*.py"), package / "api.py"])


def _store_use_cases() -> tuple[frozenset[str], frozenset[str]]:
    """The store Project's public methods that are not reads, and the repositories it holds (``self.X = ...``)."""
    import ast
    import inspect

    from ndcg_desktop.store.project import Project

    public = {name for name, member in vars(Project).items() if not name.startswith("_") and callable(member)}
    public |= {name for name, member in vars(Project).items() if isinstance(member, classmethod)}
    assert STORE_READS <= public, sorted(STORE_READS - public)  # the list names no method that is gone
    init = ast.parse(inspect.getsource(Project.__init__).strip())
    held = {
        target.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    return frozenset(public - STORE_READS), frozenset(held)


def _store_use_case_calls(source: str, use_cases: frozenset[str], held: frozenset[str]) -> list[str]:
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in use_cases:
            receiver = ast.unparse(node.func.value)
            if receiver not in NOT_A_PROJECT and not receiver.split(".")[-1].lstrip("_").endswith("session"):
                found.append(f"{node.lineno}: {receiver}.{node.func.attr}(...)")
        if isinstance(node, ast.Attribute) and node.attr in held:
            receiver = ast.unparse(node.value)
            if receiver.split(".")[-1].lstrip("_") == "project":
                found.append(f"{node.lineno}: {receiver}.{node.attr}")
    return found


def test_no_front_calls_a_use_case_on_the_stores_project():
    """Issue 23: freezing, importing, grading, undoing, setting guidelines... are ndcg_desktop.tasks functions that
    every front calls; the store's Project is only read (its repositories not at all) from gui/, cli/ and api.py."""
    use_cases, held = _store_use_cases()
    assert {"freeze", "import_documents", "set_guidelines", "add_items", "undo"} <= use_cases
    assert {"pools", "rating_store", "undo_store"} <= held
    found = {
        str(path.relative_to(REPO)): calls
        for path in _front_files()
        if (calls := _store_use_case_calls(path.read_text(encoding="utf-8"), use_cases, held))
    }
    assert found == {}


def test_the_use_case_check_finds_what_it_looks_for():
    """The check above is no test that cannot fail: each way of reaching the store from a front is found."""
    use_cases, held = _store_use_cases()
    source = (
        "project.freeze(remove_ungraded=True)\n"
        "self.window.project.import_documents(path)\n"
        "self.view.write(lambda p: p.undo(taken, action='undo'))\n"
        "self.project.rating_store.ratings(1)\n"
        "gc.freeze()\n"
        "project.pool_items(1)\n"
        "self.view.session.undo(edit)\n"
    )
    assert _store_use_case_calls(source, use_cases, held) == [
        "1: project.freeze(...)",
        "2: self.window.project.import_documents(...)",
        "3: p.undo(...)",
        "4: self.project.rating_store",
    ]


def _public_signatures(module: object) -> list[tuple[str, object]]:
    """(qualified name, callable) of every public function and method (``__init__`` and properties included)
    that ``module`` itself defines."""
    import inspect

    name = module.__name__  # type: ignore[attr-defined]
    found: list[tuple[str, object]] = []
    for attr, value in vars(module).items():
        if attr.startswith("_") or getattr(value, "__module__", None) != name:
            continue
        if inspect.isfunction(value):
            found.append((f"{name}.{attr}", value))
        elif inspect.isclass(value):
            for member_name, member in vars(value).items():
                if member_name.startswith("_") and member_name != "__init__":
                    continue
                if isinstance(member, property) and member.fget is not None:
                    member = member.fget
                elif isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                if inspect.isfunction(member):
                    found.append((f"{name}.{attr}.{member_name}", member))
    return found


def _mentions_any(hint: object) -> bool:
    import typing

    return hint is typing.Any or any(_mentions_any(arg) for arg in typing.get_args(hint))


def test_no_public_signature_of_tasks_takes_or_returns_any():
    """Issue 23: the use cases take and return named types; a JSON document is ``domain.manifest.JsonObject``, a
    recursive JSON type, never ``dict[str, Any]``. Every parameter and return of every public function, method and
    dataclass field of ``ndcg_desktop.tasks.*``, resolved by ``typing.get_type_hints``."""
    import importlib
    import pkgutil
    import typing

    import ndcg_desktop.tasks as tasks

    checked, found = 0, []
    # every module, those of subpackages (tasks.assessing) included
    for info in sorted(pkgutil.walk_packages(tasks.__path__, "ndcg_desktop.tasks."), key=lambda m: m.name):
        module = importlib.import_module(info.name)
        for qualified, function in _public_signatures(module):
            hints = typing.get_type_hints(function)  # a hint that does not resolve fails here, naming it
            checked += 1
            found += [f"{qualified}: {where}: {hint}" for where, hint in hints.items() if _mentions_any(hint)]
    assert checked > 200  # every module was walked, not none
    assert found == []


def test_the_any_check_finds_any_wherever_it_is_nested():
    from collections.abc import Callable
    from typing import Any

    from ndcg_desktop.domain.manifest import JsonObject, JsonValue

    assert all(_mentions_any(h) for h in (Any, dict[str, Any], list[dict[str, Any]], Callable[..., Any], Any | None))
    assert not any(_mentions_any(h) for h in (dict[str, int], Callable[..., object], JsonObject, JsonValue))
