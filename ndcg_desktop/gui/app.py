"""Entry point of the ``ndcg-desktop`` window."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QWidget


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
    parser.add_argument(
        "--smoke-test",
        nargs="?",
        const="",
        metavar="PNG",
        help="start-up check: open (the project, the demo or the welcome page), wait until the window is on the "
        "screen, print OK and exit 0; with PNG, also save a screenshot of the screen there",
    )
    parser.add_argument("--version", action="version", version=f"ndcg-desktop {__version__}")
    return parser


ASSETS = Path(__file__).resolve().parent / "assets"


def main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()
    args = build_parser().parse_args(argv)
    from ndcg_desktop.gui import system

    system.utf8_locale(os.environ)  # before Qt reads the locale: no warning when LANG is unset
    problem = system.check_libraries()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        from PySide6.QtGui import QIcon
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:  # a library the check does not know about
        print(f"ndcg-desktop: cannot load Qt ({exc}); on Debian or Ubuntu: {system.APT_LINE}", file=sys.stderr)
        return 2

    from ndcg_desktop.gui import i18n, themes
    from ndcg_desktop.gui.preferences import Preferences

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else _create_application(QApplication)
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
    if args.smoke_test is not None:
        return _smoke_test(app, window, args.smoke_test)
    if os.environ.get("NDCG_DESKTOP_EXIT_AFTER_SHOW"):  # start-up benchmark: report, then leave
        app.processEvents()
        print(f"window shown after {time.perf_counter() - started:.3f} s in the process", flush=True)
        return 0
    return int(app.exec())


def _create_application(application: type[QApplication]) -> QApplication:
    """The QApplication, or one line on stderr and exit status 2 when Qt cannot open a window.

    Qt reports a platform plugin that cannot load (or a display it cannot reach) as a few warnings
    and a fatal message, then aborts. The handler turns them into one line naming the cause.
    """
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    from ndcg_desktop.gui.system import APT_LINE

    held: list[str] = []

    def handler(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if kind != QtMsgType.QtFatalMsg:
            held.append(message)
            return
        said = [line.strip() for text in [*held, message] for line in text.splitlines() if line.strip()]
        chosen = os.environ.get("QT_QPA_PLATFORM", "")
        if any("could not connect to display" in line for line in said):
            display = os.environ.get("DISPLAY", "")
            hint = f"no X display at DISPLAY={display!r}: start it from a desktop session (or under xvfb-run)"
        elif chosen and not chosen.startswith(("xcb", "wayland")):
            hint = f"Qt's platform plugin did not load ({said[0]}); check QT_QPA_PLATFORM={chosen!r}"
        else:
            hint = f"Qt's platform plugin did not load ({said[0]}); on Debian or Ubuntu: {APT_LINE}"
        print(f"ndcg-desktop: cannot open a window: {hint}", file=sys.stderr, flush=True)
        os._exit(2)  # Qt aborts after a fatal message; leave first, without a core dump

    previous = qInstallMessageHandler(handler)
    try:
        app = application(sys.argv[:1])
    finally:
        qInstallMessageHandler(previous)
    for message in held:  # warnings of a start that worked, as Qt would have printed them
        print(message, file=sys.stderr)
    return app


def _smoke_test(app: QApplication, window: QWidget, screenshot: str) -> int:
    """Wait until the window is on the screen, then print OK (and save a screenshot if asked)."""
    deadline = time.monotonic() + 30
    while not (window.windowHandle() and window.windowHandle().isExposed()):
        if time.monotonic() > deadline:
            print("ndcg-desktop: smoke test: the window was not shown within 30 s", file=sys.stderr)
            return 1
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):  # let the first paint finish
        app.processEvents()
        time.sleep(0.01)
    if screenshot:
        window.screen().grabWindow(0).save(screenshot)
    size = window.size()
    print(f"OK: window shown on {app.platformName()} ({size.width()}x{size.height()}): {window.windowTitle()}")
    return 0


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
