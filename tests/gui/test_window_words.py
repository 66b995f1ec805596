"""The window names its own controls, never a command-line option (issue 26).

A refusal from the core carries the command line's hint (``choose --duplicates first``); the tasks return
it structured (``tasks.scoring.NotScored``: the error and the flag groups still refused) and the window
words it, while the command line keeps its option.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ndcg_desktop.gui.pools.diff import POLICIES, PoolDiffDialog
from ndcg_desktop.store import Project

GUI = Path(__file__).resolve().parents[2] / "ndcg_desktop" / "gui"
OPTION = re.compile(r"(?<![\w-])--[a-z]")  # --duplicates, --k; not an en dash or "—"
REFUSALS = {  # InputError and the subclasses the window catches
    "InputError",
    "NegativeGradesFound",
    "ProjectInUse",
    "ProtectionAltered",
    "ProjectReadOnly",
    "FrozenVersionChanged",
}


def _shown_whole(handler: ast.ExceptHandler) -> list[int]:
    """Lines where the handler's error is shown whole (str(), f-string, .format(x=exc)): its hint with it."""
    name = handler.name
    lines = []
    for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str":
            if any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                lines.append(node.lineno)
        if isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Name) and node.value.id == name:
            lines.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            if any(isinstance(k.value, ast.Name) and k.value.id == name for k in node.keywords):
                lines.append(node.lineno)
    return lines


def test_no_view_shows_a_refusal_with_its_command_line_hint():
    found = []
    for source in sorted(GUI.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ExceptHandler) or node.name is None or node.type is None:
                continue
            types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if {getattr(t, "id", getattr(t, "attr", "")) for t in types} & REFUSALS:
                found += [f"{source.relative_to(GUI)}:{line}" for line in _shown_whole(node)]
    assert found == []


def _compare(qtbot, dialog: PoolDiffDialog) -> None:
    before = dialog.tables
    dialog.compare_button.click()
    qtbot.waitUntil(lambda: dialog.tables is not None and dialog.tables is not before, timeout=20_000)


def test_compare_pool_versions_offers_every_policy_and_words_a_refusal_in_its_own_terms(
    qtbot, window, two_versions, tmp_path
):
    run = tmp_path / "dup.txt"  # A twice (a duplicate) and Z (judged in neither version)
    run.write_text("q1 Q0 A 1 3 t\nq1 Q0 A 2 2 t\nq1 Q0 Z 3 1 t\nq2 Q0 F 1 1 t\n")
    with Project.open(two_versions) as project:
        project.runs.import_run(run, name="dup", annotator="tester")
    assert window.open_project(two_versions)
    dialog = window.pool_diff.open()
    assert [name for name, _caption, _options in POLICIES] == [
        "gain", "unjudged", "duplicates", "unknown_queries", "zero_idcg", "queries"
    ]  # fmt: skip
    _compare(qtbot, dialog)
    text = dialog.refused.text()
    assert text == "Not scored: dup: needs a choice for Unjudged documents, Duplicate documents"
    assert OPTION.search(text) is None
    assert "dup" not in dialog.tables.diff.means["run"].tolist()
    duplicates = dialog.policies["duplicates"]
    duplicates.setCurrentIndex(duplicates.findData("first"))
    dialog.unjudged.setCurrentIndex(dialog.unjudged.findData("zero"))
    assert dialog.settings().duplicates.value == "first"
    _compare(qtbot, dialog)
    assert dialog.refused.isHidden()
    assert "dup" in dialog.tables.diff.means["run"].tolist()


def test_the_runs_view_says_k_not_the_option(window, small_project):
    assert window.open_project(small_project)
    inputs = window.runs.inputs
    inputs.ks.setText("5,5")
    inputs._ks_edited()
    assert inputs.ks_error.text() == "K names 5 twice"
