"""Entry point of the ``ndcg-desktop`` window."""

from __future__ import annotations

import sys

_NOT_YET = (
    "ndcg-desktop {version}: the desktop window is not part of this release yet.\n"
    "Score runs from the command line meanwhile, for example:\n"
    "  ndcg score --qrels qrels.txt --run run.txt --unjudged zero\n"
    "Run `ndcg score --help` for every option."
)


def main() -> None:
    from ndcg_desktop import __version__

    print(_NOT_YET.format(version=__version__), file=sys.stderr)
    sys.exit(1)
