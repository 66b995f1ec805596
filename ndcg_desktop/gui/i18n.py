"""The interface language: the system locale's, or the one chosen in preferences (or --language).

Translations are Qt .qm files compiled from ``resources/translations/*.ts`` into
``ndcg_desktop/gui/translations/`` (package data); Qt's own strings (standard buttons, file
dialogs) come from the qtbase catalogue that ships with Qt.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:

    def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name pyside6-lupdate looks for
        """Qt's marker for a string translated later: returns ``text`` (PySide6 types it ``object``)."""
        ...
else:
    from PySide6.QtCore import QT_TRANSLATE_NOOP  # noqa: F401 - re-exported, typed above

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGUAGES = {"en": "English", "zh_CN": "简体中文 (Simplified Chinese)"}  # each name in its own language


def resolve(choice: str | None, system: str | None = None) -> str:
    """The language to use: a supported ``choice``, else the system locale's, else English."""
    for code in (choice, system if system is not None else QLocale.system().name()):
        if not code:
            continue
        if code in LANGUAGES:
            return code
        if code.lower().replace("-", "_").startswith("zh"):  # zh_SG, zh-Hans...: the Simplified catalogue
            return "zh_CN"
        if code.split("_")[0] == "en":
            return "en"
    return "en"


_installed: list[QTranslator] = []


def install(app: QApplication, choice: str | None = None) -> str:
    """Load the catalogues for the chosen language into ``app``; returns the language used."""
    uninstall(app)
    language = resolve(choice)
    QLocale.setDefault(QLocale(language))
    if language == "en":
        return language
    for name, folders in (("ndcg_desktop", [TRANSLATIONS]), ("qtbase", qt_translation_folders())):
        translator = QTranslator(app)  # parented: lives as long as the application
        if any(translator.load(f"{name}_{language}", str(folder)) for folder in folders):
            app.installTranslator(translator)
            _installed.append(translator)
    return language


def qt_translation_folders() -> list[Path]:
    """Where Qt's own catalogues are: Qt's configured folder, else PySide6's (a frozen build may lack the first)."""
    import PySide6

    return [
        Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)),
        Path(PySide6.__file__).resolve().parent / "Qt" / "translations",
    ]


def uninstall(app: QApplication) -> None:
    """Back to the source language (English)."""
    while _installed:
        app.removeTranslator(_installed.pop())
    QLocale.setDefault(QLocale("en_US"))
