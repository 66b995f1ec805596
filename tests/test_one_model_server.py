"""One model server per test session: the fixtures of tests/assessor/servers.py are a plugin of the whole suite
(tests/conftest.py), and no test module imports one of them, since an imported fixture is a second definition of
it, session-scoped or not, and so a second llama.cpp server started (and the Cranfield project built twice)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SERVERS = TESTS / "assessor" / "servers.py"


def _fixtures() -> set[str]:
    tree = ast.parse(SERVERS.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list)
    }


def test_the_model_server_fixtures_are_the_suites_plugin_and_never_imported_by_a_test_module():
    fixtures = _fixtures()
    assert {"llama", "cranfield_built", "cranfield"} <= fixtures
    conftest = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    plugins = [
        ast.literal_eval(node.value)
        for node in conftest.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytest_plugins" for t in node.targets)
    ]
    assert plugins == [["tests.assessor.servers"]]
    imported = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("servers"):
                imported += [f"{path.relative_to(TESTS)}: {a.name}" for a in node.names if a.name in fixtures]
    assert imported == []
