"""The one progress and cancel protocol of long work, from the kernel to the window's worker threads.

Long work takes ``progress(done, total)`` and ``cancelled()``, both optional; when ``cancelled()`` turns true it
stops at the next step and raises :class:`Cancelled`, with nothing written.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]


class Cancelled(Exception):
    """Raised when the caller's cancel flag is set (or the project closed under the work); nothing has been changed."""
