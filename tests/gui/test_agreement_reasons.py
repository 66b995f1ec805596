"""Every reason the core gives for an undefined agreement figure is worded in Chinese (issue 26)."""

from __future__ import annotations

import ast
from pathlib import Path

from ndcg_desktop.gui import i18n
from ndcg_desktop.gui.agreement.reasons import reason_words

from .test_translation import CJK, ENGLISH

CORE = Path(__file__).resolve().parents[2] / "ndcg_desktop"
SOURCES = (CORE / "scoring" / "agreement.py", CORE / "tasks" / "agreement.py")


def _text(node: ast.expr, names: dict[str, ast.expr]) -> str:
    """A reason as the core would write it: each formatted value as a grade or a name ("2")."""
    if isinstance(node, ast.Name):
        return _text(names[node.id], names)
    if isinstance(node, ast.Constant):
        return str(node.value)
    assert isinstance(node, ast.JoinedStr), ast.dump(node)
    return "".join(str(v.value) if isinstance(v, ast.Constant) else "2" for v in node.values)


def core_reasons() -> list[str]:
    """The second argument of every ``Figure(None, …)`` in the core, module constants and local names resolved."""
    reasons = []
    for source in SOURCES:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        names = {
            target.id: node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "Figure"
                and len(node.args) == 2
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value is None
            ):
                reasons.append(_text(node.args[1], names))
    return sorted(set(reasons))


def test_every_reason_the_core_gives_reads_in_chinese(qapp):
    reasons = core_reasons()
    assert len(reasons) >= 8
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        cells = [f"{name}: {reason}" for name, reason in zip(["raw", "linear", "quadratic"], reasons, strict=False)]
        cells.append(f"alpha: {reasons[0]}; unanimous: {reasons[-1]}")  # a table's "Undefined because" cell
        shown = {text: reason_words(text) for text in [*reasons, *cells]}
    finally:
        i18n.uninstall(qapp)
    left = {reason: text for reason, text in shown.items() if ENGLISH.search(text) or not CJK.search(text)}
    assert left == {}


def test_in_english_the_reasons_read_as_the_core_wrote_them():
    for reason in core_reasons():
        assert reason_words(reason) == reason
