"""Where preferences and UI state live: apart, under platformdirs, overridable for tests."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs
from PySide6.QtCore import QSettings

from ndcg_desktop.formats.export import atomic_write
from ndcg_desktop.tasks import identity

APP = "ndcg-desktop"
MAX_RECENT = 8


# The preferences folder is the command line's too: it reads the annotator name saved here (tasks.identity).
config_dir = identity.config_dir


def state_dir() -> Path:
    """Window geometry and recent files; ``NDCG_DESKTOP_STATE_DIR`` overrides it."""
    return Path(os.environ.get("NDCG_DESKTOP_STATE_DIR") or platformdirs.user_state_path(APP))


@dataclass
class Preferences:
    """What the user chose: saved as JSON in the config folder."""

    annotator: str = ""
    language: str = ""  # "" follows the system locale
    theme: str = ""  # "", "system", "dark" or "high-contrast"
    extra: dict = field(default_factory=dict)

    @classmethod
    def load(cls) -> Preferences:
        data = identity.read_preferences()  # the command line's read too: one annotator name for both
        try:
            return cls(
                annotator=identity.saved_name(data),
                language=str(data.get("language", "")),
                theme=str(data.get("theme", "")),
                extra=dict(data.get("extra", {})),  # type: ignore[call-overload]
            )
        except (ValueError, TypeError):  # an "extra" that is no object
            return cls()

    def save(self) -> None:
        folder = config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / "preferences.json", json.dumps(asdict(self), indent=2) + "\n")


def ui_state() -> QSettings:
    """Geometry, splitter positions, column widths and recent projects (an INI file)."""
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return QSettings(str(folder / "state.ini"), QSettings.Format.IniFormat)


def recent_projects() -> list[str]:
    value = ui_state().value("recent", [])
    items = [value] if isinstance(value, str) else list(value) if isinstance(value, list | tuple) else []
    return [p for p in items if p]


def remember_project(path: str | Path) -> None:
    text = str(Path(path).resolve())
    items = [text] + [p for p in recent_projects() if p != text]
    settings = ui_state()
    settings.setValue("recent", items[:MAX_RECENT])
    settings.sync()


def forget_project(path: str) -> None:
    settings = ui_state()
    settings.setValue("recent", [p for p in recent_projects() if p != path])
    settings.sync()
