"""Issue 32 item 2: the store is persistence; policy and the command line's words live in tasks.

Freezing's policy (what blocks a freeze, when a model's ratings may fill a draft), the advice that names ``ndcg``
commands, the ``ndcg status`` report, the writing of qrels files and depth-k pooling are use cases in
``ndcg_desktop/tasks``; the store gives facts and raises typed errors that tasks words.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

STORE = Path(__file__).resolve().parents[1] / "ndcg_desktop" / "store"
# the command line's remedies the store's refusals named (freeze's options, an import's --release, --replace and
# --negative-as-ungraded)
REMEDIES = (
    "--remove-ungraded",
    "--fill-ungraded-from",
    "--with-work-out",
    "--min-shared",
    "--release",
    "--replace",
    "--negative-as-ungraded",
)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")  # any command-line option, as a message would name it


def _words(tree: ast.AST) -> list[str]:
    """The string constants of a module that it says (messages, hints), without its docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def _commands_said(source: str) -> set[str]:
    from ndcg_desktop.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[union-attr]
    named = re.compile(r"\bndcg (" + "|".join(map(re.escape, sorted(commands, key=len, reverse=True))) + r")\b")
    said = set()
    for text in _words(ast.parse(source)):
        said |= {f"ndcg {m.group(1)}" for m in named.finditer(text)}
        said |= {option for option in REMEDIES if option in text}
    return said


def test_the_store_words_no_command():
    """No message of the store names an ``ndcg`` command or a remedy's option: not even what a read-only file
    still allows (``ndcg status PROJECT works``), which the command line says (tasks.refusals.READ_ONLY_USE)."""
    found = {
        path.name: said for path in sorted(STORE.glob("*.py")) if (said := _commands_said(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_store_names_no_option():
    """No message of the store names a command-line option, listed above or not: an option is the command line's
    word for a choice, which tasks says (issue 32 item 2)."""
    found = {
        path.name: named
        for path in sorted(STORE.glob("*.py"))
        if (named := {m.group(0) for text in _words(ast.parse(path.read_text("utf-8"))) for m in OPTION.finditer(text)})
    }
    assert found == {}
    assert OPTION.findall("pool (ndcg pool PROJECT --depth K); -- a comment, x--y") == ["--depth"]


def test_the_check_finds_a_command_in_a_message_but_not_in_a_docstring():
    source = (
        'def f():\n    """Refused as ``ndcg freeze`` refuses it."""\n'
        '    raise InputError("x", hint="ndcg freeze PROJECT --remove-ungraded")\n'
        'ADVICE = "pool runs (ndcg pool PROJECT --depth K --runs NAME)"\n'
    )
    assert _commands_said(source) == {"ndcg freeze", "--remove-ungraded", "ndcg pool"}


def test_the_store_holds_no_use_case_moved_to_tasks():
    """Freezing's policy, the status report, writing qrels files and depth-k pooling are tasks' own: no class of
    the store has them; the store records a freeze it is told to (``record_freeze``)."""
    import importlib

    moved = {"freeze", "status", "export_qrels", "pool_from_runs"}
    found = []
    for path in sorted(STORE.glob("*.py")):
        module = importlib.import_module(f"ndcg_desktop.store.{path.stem}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found += [f"{path.stem}.{name}.{member}" for member in sorted(moved & set(vars(cls)))]
    assert found == []
    from ndcg_desktop.store import judgments
    from ndcg_desktop.store.project import Project

    assert not hasattr(Project, "counts")  # the status report's counts: tasks.status.project_counts

    assert not hasattr(judgments, "MIN_SHARED")  # the threshold a model's fill needs is the policy's (tasks.freezing)
    assert hasattr(judgments.JudgmentRepository, "record_freeze")
