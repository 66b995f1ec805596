"""A stall meter that cannot miss a block of the GUI thread.

A watchdog thread posts a probe to the GUI thread every ``interval`` seconds and records when it
was posted; the GUI thread records when it serves it. A probe waits in the queue while the GUI
thread is busy, so every block shows up as the wait of the probe posted before it, whoever caused
it (a slot, a paint, a model reset, a callback after ``done()``). ``stop()`` posts a last probe and
waits for it, so a block that is still going on when the measured work "finishes" is counted too.

A probe counts from when it was due, not from when the watchdog got to post it: the watchdog is
Python, so a block that holds the GIL (one long C call on the GUI thread, or a worker's pandas call
that the GUI thread's next slot must wait for) also keeps the watchdog from posting. Timed from
the late post, such a block looked like nothing: the probe was served at once.

When a probe has waited longer than ``sample_after`` seconds, the watchdog also records where every
other thread is (``sys._current_frames``), so a failing test or a benchmark can say what blocked:
the GUI thread's own code, or a worker holding the GIL. ``culprits()`` lists the commonest places.

The 5 ms ``QTimer`` this replaces measured only while its caller kept the timer running and missed
what came after ``done()`` returned (a refresh, a model load): the timer was already stopped.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
import traceback

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot


class _Probe(QObject):
    posted = Signal(float)

    def __init__(self, meter: StallMeter) -> None:
        super().__init__()
        self.meter = meter
        # Queued: the slot runs on the GUI thread (this object's thread) whenever its event loop gets to it.
        self.posted.connect(self.serve, Qt.ConnectionType.QueuedConnection)

    @Slot(float)
    def serve(self, posted_at: float) -> None:
        self.meter._served(posted_at, time.perf_counter())


class StallMeter:
    """``with StallMeter() as m: ...``; then ``m.longest_ms`` is the longest the GUI thread left a probe waiting."""

    def __init__(self, interval: float = 0.005, sample_after: float = 0.05) -> None:
        self.interval = interval
        self.sample_after = sample_after
        self.waits_ms: list[float] = []
        self.samples: collections.Counter[str] = collections.Counter()
        self._pending: collections.deque[float] = collections.deque()  # when each unserved probe was posted
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._probe = _Probe(self)  # created on the GUI thread, so it lives there
        self._thread: threading.Thread | None = None

    def _served(self, posted_at: float, served_at: float) -> None:
        with self._lock:
            self.waits_ms.append((served_at - posted_at) * 1000)
            self._pending.popleft()

    def _post(self, due: float) -> None:
        """Post a probe stamped with when it was due (``due`` <= now when the watchdog was kept waiting)."""
        now = time.perf_counter()
        with self._lock:
            self._pending.append(due)
            oldest = self._pending[0]
        self._probe.posted.emit(due)
        if now - oldest > self.sample_after:
            self._sample()

    def _sample(self) -> None:
        # Frames are read as they are, without traceback's source-line lookup: the watchdog holds the GIL while it
        # samples, and reading source files then would lengthen the very stall it is looking at.
        gui = threading.main_thread().ident
        for ident, frame in sys._current_frames().items():
            if ident == threading.get_ident():
                continue
            places = [
                f"{os.path.basename(f.f_code.co_filename)}:{line} {f.f_code.co_name}"
                for f, line in traceback.walk_stack(frame)
                if "site-packages" not in f.f_code.co_filename and "/lib/python" not in f.f_code.co_filename
            ][:6]
            if places:  # a thread only in library code (an idle pool, pytest-xdist's channel) says nothing of ours
                self.samples[("GUI: " if ident == gui else "worker: ") + " < ".join(places)] += 1

    def culprits(self, count: int = 5) -> str:
        """The commonest places of the threads while a probe waited too long, one a line with its sample count."""
        return "\n".join(f"{n:4d}  {place}" for place, n in self.samples.most_common(count))

    def _watch(self) -> None:
        # A watchdog the OS wakes late reads as a stall it did not see: where allowed (root, CAP_SYS_NICE), it runs
        # ahead of the process's other threads. Elsewhere a loaded machine adds its scheduling delay to the figures.
        if hasattr(os, "setpriority"):
            try:
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
            except OSError:
                pass
        due = time.perf_counter()
        while self._running.is_set():
            self._post(min(due, time.perf_counter()))
            # The next probe is due one interval after this post. If the watchdog wakes much later, something
            # held the GIL meanwhile, which any slot of the GUI thread would have waited for as well.
            due = time.perf_counter() + self.interval
            time.sleep(self.interval)

    def start(self) -> StallMeter:
        self.waits_ms.clear()
        self.samples.clear()
        self._running.set()
        self._thread = threading.Thread(target=self._watch, name="stall-meter", daemon=True)
        self._thread.start()
        return self

    def stop(self, settle: float = 0.3) -> None:
        """Keep measuring for ``settle`` seconds of event processing, then stop once every probe is served."""
        app = QCoreApplication.instance()
        assert app is not None, "the meter measures a running Qt application"
        end = time.perf_counter() + settle
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.001)
        self._running.clear()
        if self._thread is not None:
            self._thread.join()
        while True:
            with self._lock:
                if not self._pending:
                    break
            app.processEvents()
            time.sleep(0.001)

    def __enter__(self) -> StallMeter:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def longest_ms(self) -> float:
        return max(self.waits_ms, default=0.0)
