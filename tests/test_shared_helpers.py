"""What the tests do to a project from outside is written once, in tests/helpers.py (issue 32 item 7).

Each test file once carried its own copy: the child process holding the project's lock, the second SQLite
client holding the write lock, the raw-SQL runner, the trigger-dropping tamper, the model's recorded answers.
These checks read the test files' source, so a new copy fails here and points at the shared helper.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HELPERS = TESTS / "helpers.py"
CHECKER = Path(__file__).resolve()  # this file names what it looks for


def modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(TESTS.rglob("*.py"))}


def helper_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The functions of a test module that are not tests (helpers, fixtures, nested helpers)."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and not node.name.startswith("test_")]


def strings(node: ast.AST) -> str:
    """Every string constant under ``node`` (f-strings' literal parts too), joined."""
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(TESTS.parent)}:{getattr(node, 'lineno', 0)}"


def calls_outside_helpers(matches: Callable[[ast.Call], bool]) -> list[str]:
    """Where a test file other than tests/helpers.py makes a call that ``matches``."""
    return [
        where(path, call)
        for path, tree in modules().items()
        if path not in (HELPERS, CHECKER)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and matches(call)
    ]


def holder_script() -> list[str]:
    """The script tests/helpers.py runs in the child that holds a project open, white space aside."""
    found = [
        node.value.value
        for node in ast.walk(modules().get(HELPERS, ast.Module(body=[], type_ignores=[])))
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "HOLDER" for t in node.targets)
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]
    return found[0].split() if found else ["Project.open(sys.argv[1])"]  # before it: the script's every copy


def test_a_fixture_holding_the_project_open_in_another_process_is_defined_once():
    script = holder_script()
    held = [
        where(path, node)
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if (isinstance(node, ast.FunctionDef) and node.name == "held")
        or (isinstance(node, ast.Constant) and isinstance(node.value, str) and _holds(node.value, script))
    ]
    assert [at.split(":")[0] for at in held] == ["tests/conftest.py", "tests/helpers.py"], (
        "use the `held` fixture (tests/conftest.py) or tests.helpers.held_open",
        held,
    )


def _holds(text: str, script: list[str]) -> bool:
    return text.split() == script or (len(script) == 1 and script[0] in text)


def test_another_clients_write_lock_is_taken_only_by_the_shared_helper():
    taking = calls_outside_helpers(lambda call: "BEGIN IMMEDIATE" in strings(call))
    assert taking == [], ("use tests.helpers.write_lock", taking)


def runs_sql_it_is_given(f: ast.FunctionDef) -> bool:
    """Whether ``f`` executes SQL text passed to it (a parameter, or each of its *statements)."""
    given = {a.arg for a in f.args.args + f.args.kwonlyargs}
    if f.args.vararg is not None:
        given |= {
            target.id
            for loop in ast.walk(f)
            if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Name) and loop.iter.id == f.args.vararg.arg
            for target in ast.walk(loop.target)
            if isinstance(target, ast.Name)
        }
    return any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in {"execute", "executescript"}
        and call.args
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id in given
        for call in ast.walk(f)
    )


def test_raw_sql_on_a_project_file_is_run_by_the_shared_helpers():
    """A helper that opens the file with sqlite3 to run the SQL it is handed, or to drop a guard trigger."""
    copies = [
        where(path, f)
        for path, tree in modules().items()
        if path != HELPERS
        for f in helper_functions(tree)
        if "sqlite3.connect" in ast.unparse(f) and (runs_sql_it_is_given(f) or "DROP TRIGGER" in strings(f))
    ]
    assert copies == [], ("use tests.helpers.raw_sql, sql_rows or tamper", copies)


def test_a_models_answers_are_recorded_by_the_shared_helper():
    starting = calls_outside_helpers(lambda call: getattr(call.func, "attr", None) == "start_run")
    assert starting == [], ("use tests.helpers.model_rates or start_model_run", starting)
