"""``python -m ndcg_desktop``: the command line with arguments, the desktop window without."""

import sys


def _main() -> None:
    if len(sys.argv) > 1:
        from ndcg_desktop.cli.main import entry_point

        entry_point()
    else:
        from ndcg_desktop.gui.app import main

        main()


if __name__ == "__main__":
    _main()
