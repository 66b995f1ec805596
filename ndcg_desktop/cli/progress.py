"""The one progress line of the command line: long work counts up on a terminal's stderr, one line rewritten in
place (``\\r``), and nothing when stderr is a file or a pipe, so redirected output stays clean."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ndcg_desktop.domain.progress import Progress

Words = Callable[[int, int, float], str]  # (done, total, seconds since the start) -> the line


@contextmanager
def terminal_progress(words: Words) -> Iterator[Progress]:
    """A ``progress(done, total)`` callback that shows ``words(done, total, elapsed)``; the line is ended when the
    work ends, however it ends, so a message printed next starts on its own line."""
    show = sys.stderr.isatty()
    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\r{words(done, total, time.monotonic() - started)}   ", end="", file=sys.stderr, flush=True)

    try:
        yield progress
    finally:
        if show:
            print(file=sys.stderr)
