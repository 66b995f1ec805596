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


def _open_store(tmp_path: Path) -> dict[str, object]:
    """What a front can reach of an open project: the Project itself ("project"), and each public attribute of it
    (the file, the repositories) under its name."""
    from ndcg_desktop.store.project import Project

    with Project.create(tmp_path / "p.ndcgproj", annotator="t") as project:
        return {"project": project} | {n: v for n, v in vars(project).items() if not n.startswith("_")}


def test_the_project_is_its_open_file_and_its_repositories(tmp_path):
    """Issue 32 item 1: no forwards; opening, closing, path, read-only, scale and labels, transaction, watch,
    protection, the file and the repositories under their plain names: at most 20 public members."""
    from ndcg_desktop.store.project import Project
    from ndcg_desktop.store.repository import Repository

    parts = _open_store(tmp_path)
    members = {n for n in dir(parts["project"]) if not n.startswith("_")}
    assert len(members) <= 20, sorted(members)
    repositories = {n for n, v in parts.items() if isinstance(v, Repository)}
    assert {"pools", "judgments", "ratings", "runs", "texts", "undo"} <= repositories
    assert not {n for n in members if n.endswith(("_store", "_repository"))}  # plain names
    # nothing of a repository is forwarded: no Project method shares a name with one of a repository's
    shared = {
        n for n in vars(Project) if not n.startswith("_") and any(hasattr(type(parts[r]), n) for r in repositories)
    }
    assert shared <= {"close", "transaction", "watch"}, sorted(shared)  # the file's own, not a repository's


def _store_writes(parts: dict[str, object]) -> dict[str, frozenset[str]]:
    """What changes the file, as the store's API itself declares it (store.core.writes), per part a front reaches:
    Project's own methods ("project"), the file's ("file"), each repository's under its attribute's name."""
    from ndcg_desktop.store.core import is_write

    return {
        name: frozenset(m for m in dir(type(part)) if not m.startswith("_") and is_write(getattr(type(part), m)))
        for name, part in parts.items()
    }


def test_every_method_that_writes_says_so(tmp_path):
    """The declaration the fronts are held to is complete: a public method of the store that opens a transaction,
    or calls a method that writes, is itself marked a write (so a new one cannot slip through as a read)."""
    import ast
    import inspect
    import textwrap

    parts = _open_store(tmp_path)
    writes = _store_writes(parts)
    every = frozenset().union(*writes.values())
    unmarked = []
    for name, part in parts.items():
        for member_name, member in vars(type(part)).items():
            if member_name.startswith("_") or not inspect.isfunction(member) or member_name in writes[name]:
                continue
            tree = ast.parse(textwrap.dedent(inspect.getsource(member)))
            called = {  # on itself, or on a part it holds (self.file, self.pools, ...)
                n.func.attr
                for n in ast.walk(tree)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and ast.unparse(n.func.value).split(".")[0] == "self"
            }
            if called & every:
                unmarked.append(f"{type(part).__name__}.{member_name} calls {sorted(called & every)}")
    assert unmarked == []
    assert "transaction" in writes["project"] and {"transaction", "set_meta"} <= writes["file"]
    assert "record_freeze" in writes["judgments"]
    assert {"ensure_draft", "new_draft_from"} <= writes["pools"] and "pool_items" not in writes["pools"]
    assert {"import_documents", "set_guidelines"} <= writes["texts"] and {"restore"} <= writes["undo"]


def test_every_public_method_of_a_repository_translates_storage_errors(tmp_path):
    """Callers go straight to the repositories, so each of their public methods turns SQLite errors into the
    one-line InputError, as Project's did (tests/store/test_environment.py reads a damaged page through one)."""
    import inspect

    from ndcg_desktop.store.repository import Repository

    parts = _open_store(tmp_path)
    untranslated = [
        f"{type(part).__name__}.{member_name}"
        for name, part in parts.items()
        if name != "file"
        for member_name, member in vars(type(part)).items()
        if not member_name.startswith("_") and inspect.isfunction(member) and not getattr(member, "translated", False)
    ]
    assert untranslated == []
    assert all(isinstance(part, Repository) for name, part in parts.items() if name not in {"project", "file"})


# Receivers in the fronts whose methods share a name with a write of Project's own (gc.freeze, Qt's style
# factory), and the views' Qt-free sessions (whose methods call the use cases); every other receiver of such a
# call counts as a project.
NOT_A_PROJECT = frozenset({"gc", "self.project_actions", "QStyleFactory"})


def _front_files() -> list[Path]:
    package = REPO / "ndcg_desktop"
    return sorted([*(package / "gui").rglob("*.py"), *(package / "cli").rglob("*.py"), package / "api.py"])


def _store_write_calls(source: str, writes: dict[str, frozenset[str]]) -> list[str]:
    """Where ``source`` reaches a write: a call of one of Project's own on any project-like receiver, or any use
    (a call, or the method handed on) of a repository's or the file's through the attribute that holds it."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        receiver = ast.unparse(node.value)
        part = receiver.split(".")[-1].lstrip("_")
        if part != "project" and node.attr in writes.get(part, ()):
            found.append(f"{node.lineno}: {receiver}.{node.attr}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in writes["project"]:
            receiver = ast.unparse(node.func.value)
            if receiver not in NOT_A_PROJECT and not receiver.split(".")[-1].lstrip("_").endswith("session"):
                found.append(f"{node.lineno}: {receiver}.{node.func.attr}(...)")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


def test_no_front_calls_a_write_of_the_store(tmp_path):
    """Issue 23: freezing, importing, grading, undoing, setting guidelines... are ndcg_desktop.tasks functions that
    every front calls; gui/, cli/ and api.py only read the store. What writes is what the store marks so (issue 32:
    no list of reads kept here)."""
    writes = _store_writes(_open_store(tmp_path))
    found = {
        str(path.relative_to(REPO)): calls
        for path in _front_files()
        if (calls := _store_write_calls(path.read_text(encoding="utf-8"), writes))
    }
    assert found == {}


def test_the_write_check_finds_what_it_looks_for(tmp_path):
    """The check above is no test that cannot fail: each way of reaching a write from a front is found."""
    writes = _store_writes(_open_store(tmp_path))
    source = (
        "project.judgments.record_freeze(draft)\n"
        "self.window.project.texts.import_documents(path)\n"
        "self.view.write(lambda p: p.undo.restore(taken, action='undo'))\n"
        "self.project.file.set_meta('judging_order', 'blind')\n"
        "self.view.write(project.pools.ensure_draft)\n"
        "with window.project.transaction() as conn: pass\n"
        "gc.freeze()\n"
        "project.pools.pool_items(1)\n"
        "self.view.session.undo(edit)\n"
        "self.project.ratings.verified(1)\n"
    )
    assert _store_write_calls(source, writes) == [
        "1: project.judgments.record_freeze",
        "2: self.window.project.texts.import_documents",
        "3: p.undo.restore",
        "4: self.project.file.set_meta",
        "5: project.pools.ensure_draft",
        "6: window.project.transaction(...)",
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
