"""Entry point of the ``ndcg-desktop`` window."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    from ndcg_desktop import __version__

    parser = argparse.ArgumentParser(
        prog="ndcg-desktop",
        description="Build graded judgment pools and score runs against them. Without a project, shows the "
        "welcome page.",
    )
    parser.add_argument("project", nargs="?", help="a .ndcgproj project file to open")
    parser.add_argument("--demo", action="store_true", help="open the built-in demo project (a copy you can edit)")
    parser.add_argument(
        "--language",
        metavar="CODE",
        help="interface language for this run: en or zh_CN (default: the preference, else the system's)",
    )
    parser.add_argument(
        "--theme",
        choices=("system", "dark", "high-contrast"),
        help="colours for this run (default: the preference, else the system's palette)",
    )
    parser.add_argument("--version", action="version", version=f"ndcg-desktop {__version__}")
    return parser


ASSETS = Path(__file__).resolve().parent / "assets"


def main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()
    args = build_parser().parse_args(argv)
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ndcg_desktop.gui import i18n, themes
    from ndcg_desktop.gui.preferences import Preferences

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("ndcg-desktop")
    app.setOrganizationName("ndcg-desktop")
    app.setDesktopFileName("ndcg-desktop")  # matches packaging/ndcg-desktop.desktop (Wayland)
    app.setWindowIcon(QIcon(str(ASSETS / "ndcg-desktop.svg")))
    preferences = Preferences.load()
    i18n.install(app, args.language or preferences.language)  # before any widget exists
    themes.apply(app, args.theme or preferences.theme)

    from ndcg_desktop.gui.main_window import MainWindow

    window = MainWindow()
    window.show()
    if args.demo:
        window.open_demo()
    elif args.project:
        window.open_project(args.project)
    if os.environ.get("NDCG_DESKTOP_EXIT_AFTER_SHOW"):  # start-up benchmark: report, then leave
        app.processEvents()
        print(f"window shown after {time.perf_counter() - started:.3f} s in the process", flush=True)
        return 0
    return int(app.exec())


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
