"""Entry point of the ``ndcg-desktop`` window."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    from ndcg_desktop import __version__

    parser = argparse.ArgumentParser(
        prog="ndcg-desktop",
        description="Build graded judgment pools and score runs against them. Without a project, shows the "
        "welcome page.",
    )
    parser.add_argument("project", nargs="?", help="a .ndcgproj project file to open")
    parser.add_argument("--demo", action="store_true", help="open the built-in demo project (a copy you can edit)")
    parser.add_argument("--version", action="version", version=f"ndcg-desktop {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from PySide6.QtWidgets import QApplication

    from ndcg_desktop.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ndcg-desktop")
    app.setOrganizationName("ndcg-desktop")
    window = MainWindow()
    window.show()
    if args.demo:
        window.open_demo()
    elif args.project:
        window.open_project(args.project)
    return int(app.exec())


def entry_point() -> None:
    sys.exit(main())
