"""``python -m ndcg_desktop``: the desktop window without arguments (or with a project or --demo),
the ``ndcg`` command line otherwise (``python -m ndcg_desktop score ...``)."""

import sys


def _main() -> None:
    args = sys.argv[1:]
    if not args or args[0] == "--demo" or args[0].endswith(".ndcgproj"):
        from ndcg_desktop.gui.app import entry_point as gui

        gui()
    else:
        from ndcg_desktop.cli.main import entry_point as cli

        cli()


if __name__ == "__main__":
    _main()
