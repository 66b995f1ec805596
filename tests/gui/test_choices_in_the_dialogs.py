"""Issue 32 item 6: the import dialog's ties, and every other choice's combo box, come from the one table of
choices (``domain/choices.py``): its values in its order, its labels translated in the ``analysis`` context,
its default selected. The table is patched here so a combo box that restated it by hand would show the old
words or start elsewhere."""

from __future__ import annotations

import dataclasses

import pytest

from ndcg_desktop.domain import choices
from ndcg_desktop.domain.choices import BY_NAME, TiePolicy
from ndcg_desktop.gui import i18n
from ndcg_desktop.gui.project.dialogs import ImportRunDialog


def _offered(combo) -> list[tuple[str, str]]:
    return [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]


def _ties_dialog(qtbot, tmp_path) -> ImportRunDialog:
    run = tmp_path / "r.run"
    run.write_text("q1 Q0 A 1 2.0 r\nq1 Q0 B 2 1.0 r\n")
    dialog = ImportRunDialog("r", [], str(run))
    qtbot.addWidget(dialog)
    return dialog


def test_the_tie_combo_is_the_tables(qtbot, tmp_path):
    ties = BY_NAME["ties"]
    dialog = _ties_dialog(qtbot, tmp_path)
    assert _offered(dialog.ties) == [(ties.labels[v], v) for v in ties.values]
    assert dialog.ties.currentData() == ties.default.value and dialog.values()[1] is ties.default


def test_the_tie_combo_follows_the_table_not_a_copy_of_it(qtbot, tmp_path, monkeypatch):
    changed = dataclasses.replace(
        BY_NAME["ties"],
        default=TiePolicy.FILE_ORDER,
        labels={v: f"words for {v}" for v in BY_NAME["ties"].values},
    )
    monkeypatch.setitem(choices.BY_NAME, "ties", changed)
    dialog = _ties_dialog(qtbot, tmp_path)
    assert _offered(dialog.ties) == [(f"words for {v}", v) for v in changed.values]
    assert dialog.ties.currentData() == "file-order" and dialog.values()[1] is TiePolicy.FILE_ORDER


def test_the_tie_combo_is_translated_in_the_tables_context(qapp, qtbot, tmp_path):
    from PySide6.QtCore import QCoreApplication

    ties = BY_NAME["ties"]
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        dialog = _ties_dialog(qtbot, tmp_path)
        texts = [dialog.ties.itemText(i) for i in range(dialog.ties.count())]
        assert texts == [QCoreApplication.translate("analysis", ties.labels[v]) for v in ties.values]
        assert texts == ["文档 ID 降序 (trec_eval)", "文档 ID 升序", "文件顺序"]  # as the dialog said them before
    finally:
        i18n.uninstall(qapp)


@pytest.mark.parametrize("name", ["gain", "zero_idcg"])
def test_the_scores_and_runs_combos_are_the_tables(window, name, monkeypatch):
    """The Scores and Runs views' gain and zero-IDCG boxes (zero-IDCG's words were once written out in both)."""
    from ndcg_desktop.gui.runs.inputs import RunsInputs
    from ndcg_desktop.gui.scores.pickers import InputsBar

    changed = dataclasses.replace(
        BY_NAME[name], label="the title", labels={v: f"say {v}" for v in BY_NAME[name].values}
    )
    monkeypatch.setitem(choices.BY_NAME, name, changed)
    for bar in (InputsBar(window.scores.session), RunsInputs(window.runs.session)):
        combo = getattr(bar, name)
        assert _offered(combo) == [(f"say {v}", v) for v in changed.values]
        assert combo.accessibleName() == "the title"
        bar.deleteLater()
