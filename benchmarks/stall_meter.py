"""A stall meter that cannot miss a block of the GUI thread.

A watchdog thread posts a probe to the GUI thread every ``interval`` seconds and records when it
was posted; the GUI thread records when it serves it. A probe waits in the queue while the GUI
thread is busy, so every block shows up as the wait of the probe posted before it, whoever caused
it (a slot, a paint, a model reset, a callback after ``done()``). ``stop()`` posts a last probe and
waits for it, so a block that is still going on when the measured work "finishes" is counted too.

The 5 ms ``QTimer`` this replaces measured only while its caller kept the timer running and missed
what came after ``done()`` returned (a refresh, a model load): the timer was already stopped.
"""

from __future__ import annotations

import threading
import time

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

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.waits_ms: list[float] = []
        self._pending = 0
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._probe = _Probe(self)  # created on the GUI thread, so it lives there
        self._thread: threading.Thread | None = None

    def _served(self, posted_at: float, served_at: float) -> None:
        with self._lock:
            self.waits_ms.append((served_at - posted_at) * 1000)
            self._pending -= 1

    def _post(self) -> None:
        with self._lock:
            self._pending += 1
        self._probe.posted.emit(time.perf_counter())

    def _watch(self) -> None:
        while self._running.is_set():
            self._post()
            time.sleep(self.interval)

    def start(self) -> StallMeter:
        self.waits_ms.clear()
        self._running.set()
        self._thread = threading.Thread(target=self._watch, name="stall-meter", daemon=True)
        self._thread.start()
        return self

    def stop(self, settle: float = 0.3) -> None:
        """Keep measuring for ``settle`` seconds of event processing, then stop once every probe is served."""
        app = QCoreApplication.instance()
        end = time.perf_counter() + settle
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.001)
        self._running.clear()
        if self._thread is not None:
            self._thread.join()
        while True:
            with self._lock:
                if self._pending <= 0:
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
