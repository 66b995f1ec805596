"""The Simplified Chinese translation is complete, compiled from the current sources, and used."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtWidgets import QAbstractButton, QComboBox, QGroupBox, QLabel, QTableView, QTabWidget

from ndcg_desktop.gui import i18n
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot

REPO = Path(__file__).resolve().parents[2]
TS = REPO / "resources" / "translations" / "ndcg_desktop_zh_CN.ts"
QM = REPO / "ndcg_desktop" / "gui" / "translations" / "ndcg_desktop_zh_CN.qm"
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH = re.compile(r"\b[A-Za-z]{3,}\s+[A-Za-z]{2,}\b")  # two English words in a row


def tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    assert Path(found).exists(), f"{name} is not installed (PySide6-Essentials ships it)"
    return found


def test_every_message_is_translated():
    messages = ET.parse(TS).getroot().iter("message")
    missing = [
        m.findtext("source")
        for m in messages
        if not (m.findtext("translation") or "").strip() or m.find("translation").get("type") == "unfinished"
    ]
    assert missing == []


def test_catalogue_lists_every_string_of_the_sources(tmp_path):
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    sources = sorted(str(p) for p in (REPO / "ndcg_desktop" / "gui").rglob("*.py"))  # gui/scores/ too
    sources.append(str(REPO / "ndcg_desktop" / "domain" / "choices.py"))  # the choices' words, shown by the window
    sources.append(str(REPO / "ndcg_desktop" / "scoring" / "pooling.py"))  # the strategies' words (Build pool)
    out = subprocess.run(
        [tool("pyside6-lupdate"), *sources, "-ts", str(copy), "-no-obsolete", "-locations", "none"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "(0 new and" in out, out  # a string added to the code without running lupdate + translating
    assert copy.read_text(encoding="utf-8") == TS.read_text(encoding="utf-8"), "run pyside6-lupdate (README)"


def test_compiled_catalogue_is_current(tmp_path):
    out = tmp_path / "check.qm"
    subprocess.run([tool("pyside6-lrelease"), str(TS), "-qm", str(out)], capture_output=True, check=True)
    assert out.read_bytes() == QM.read_bytes(), "recompile: pyside6-lrelease (see README, Translations)"


def visible_texts(window) -> list[str]:
    texts = []
    for widget in window.findChildren(QLabel):
        if widget.isVisibleTo(window) and widget.accessibleName() not in DATA_LABELS:
            texts.append(widget.text())
    for widget in window.findChildren(QAbstractButton):
        if widget.isVisibleTo(window):
            texts.append(widget.text())
    for widget in window.findChildren(QGroupBox):
        texts.append(widget.title())
    for widget in window.findChildren(QTabWidget):
        texts += [widget.tabText(i) for i in range(widget.count())]
    for widget in window.findChildren(QComboBox):
        if widget.accessibleName() not in DATA_COMBOS:
            texts += [widget.itemText(i) for i in range(widget.count())]
    for view in window.findChildren(QTableView):
        model = view.model()
        texts += [
            str(model.headerData(c, view.horizontalHeader().orientation()) or "") for c in range(model.columnCount())
        ]
    for action in window.menuBar().actions():
        texts.append(action.text())
        texts += [a.text() for a in action.menu().actions()] if action.menu() else []
    texts.append(window.windowTitle())
    texts.append(window.statusBar().currentMessage())
    return [t for t in texts if t]


def test_main_views_in_chinese_leave_nothing_in_english(qapp, qtbot, small_project):
    from ndcg_desktop.gui.main_window import MainWindow
    from ndcg_desktop.store import Project

    with Project.open(small_project) as p:
        p.judgments.remove_ungraded(annotator="tester")
        freeze_draft(p, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        window = MainWindow()
        qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()
        welcome = visible_texts(window)
        window.open_project(small_project)
        qtbot.wait(20)
        shot(window, "zh_CN_workspace")
        annotate = visible_texts(window)
        window.tabs.setCurrentIndex(1)
        view = window.analysis
        view.check()
        qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
        for key, value in (("unjudged", "zero"), ("unknown_queries", "ignore")):
            view.choices[key].setCurrentIndex(view.choices[key].findData(value))
        view.score_button.click()
        qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
        shot(window, "zh_CN_scores")
        scores = visible_texts(window)
        assert any(CJK.search(t) for t in scores)
        left = sorted({t for t in welcome + annotate + scores if ENGLISH.search(strip(t)) and not CJK.search(t)})
        assert left == []
    finally:
        i18n.uninstall(qapp)
        window.close_project()


def strip(text: str) -> str:
    """Remove markup and the data this test's project shows (IDs, titles, the core's settings line)."""
    text = re.sub(r"<[^>]+>", " ", text)
    for data in DATA_TEXTS:
        text = text.replace(data, " ")
    return text


DATA_LABELS = {"Query text", "Document", "Document text", "Document title"}
DATA_COMBOS = {"Run", "Compare with run"}
DATA_TEXTS = [
    "freezing judgment pools",
    "why fixed universes matter",
    "Freezing pools",
    "Judgment basics",
    "A frozen pool never changes.",
    "It is hashed.",
    "Not relevant",
    "Highly relevant",
    "Related",
    "Perfect",
]  # the small project's own data and grade labels (project data is never translated)


def test_qts_own_dialogs_speak_the_interface_language(qapp, qtbot):
    """Qt's catalogue (qtbase_zh_CN, from PySide6's translations folder) and ours for what it lacks."""
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox

    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        assert [Path(t.filePath()).name for t in i18n._installed] == ["ndcg_desktop_zh_CN.qm", "qtbase_zh_CN.qm"]
        dialog = QFileDialog(None, "x")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own: what a Linux desktop shows
        qtbot.addWidget(dialog)
        box = QMessageBox(QMessageBox.Icon.Question, "x", "x", QMessageBox.StandardButton.Open)
        box.addButton(QMessageBox.StandardButton.Cancel)
        qtbot.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close | QDialogButtonBox.StandardButton.Ok)
        qtbot.addWidget(buttons)
        texts = [w.text() for w in dialog.findChildren(QLabel)] + [
            b.text() for b in dialog.findChildren(QAbstractButton)
        ]
        texts += [b.text() for b in box.buttons()] + [b.text() for b in buttons.buttons()]
        english = [t for t in texts if re.search(r"[A-Za-z]{3}", t.replace("&", "")) and not CJK.search(t)]
        assert english == []
        assert len([t for t in texts if CJK.search(t)]) >= 6  # the labels and the buttons of all three
    finally:
        i18n.uninstall(qapp)


GLOSSARY = REPO / "resources" / "translations" / "glossary_zh_CN.tsv"


def glossary() -> list[tuple[re.Pattern[str], str, list[str]]]:
    rows = [line.split("\t") for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert rows[0] == ["english", "chinese", "instead_of"]
    return [(re.compile(rf"\b(?:{en})\b", re.I), zh, [w for w in avoid.split(",") if w]) for en, zh, avoid in rows[1:]]


def catalogue_pairs() -> list[tuple[str, str]]:
    """(source, translation) of our own messages (Qt's context QFileDialog holds Qt's words, not ours)."""
    root = ET.parse(TS).getroot()
    return [
        (m.findtext("source") or "", m.findtext("translation") or "")
        for context in root.iter("context")
        if not context.findtext("name", "").startswith("Q")
        for m in context.iter("message")
    ]


def test_the_glossary_word_is_used_for_each_term_and_no_other():
    terms = glossary()
    assert len(terms) >= 10
    pairs = catalogue_pairs()
    missing, replaced = [], []
    for english, chinese, avoid in terms:
        for source, translation in pairs:
            if english.search(re.sub(r"\{[^}]*\}", " ", source).replace("&", "")) and chinese not in translation:
                missing.append((chinese, source))
            if any(word in translation.replace(chinese, "") for word in avoid):
                replaced.append((chinese, translation))
    assert (missing, replaced) == ([], [])


def test_the_compiled_catalogue_translates_each_term_with_the_glossary_word(qapp):
    """The .qm the application loads, not only the .ts: a term's translations carry the glossary's word."""
    from PySide6.QtCore import QTranslator

    translator = QTranslator()
    assert translator.load(str(QM))
    root = ET.parse(TS).getroot()
    checked = 0
    for english, chinese, _avoid in glossary():
        for context in root.iter("context"):
            for m in context.iter("message"):
                source = m.findtext("source") or ""
                if m.get("numerus") or not english.search(re.sub(r"\{[^}]*\}", " ", source).replace("&", "")):
                    continue
                shown = translator.translate(context.findtext("name"), source, m.findtext("comment"))
                assert chinese in shown, (source, shown)
                checked += 1
    assert checked > 100


def test_qts_catalogue_is_found_in_pyside6s_folder_when_qts_own_path_lacks_it(qapp, tmp_path, monkeypatch):
    """A frozen build's QLibraryInfo may point where no catalogue is: PySide6's translations folder is next."""
    monkeypatch.setattr(i18n.QLibraryInfo, "path", staticmethod(lambda _which: str(tmp_path)))
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        assert [Path(t.filePath()).name for t in i18n._installed] == ["ndcg_desktop_zh_CN.qm", "qtbase_zh_CN.qm"]
    finally:
        i18n.uninstall(qapp)
