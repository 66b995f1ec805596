"""Start-up time of ``ndcg-desktop``, from launching the process to a shown, usable window.

Each case is a fresh process on the offscreen platform with ``NDCG_DESKTOP_EXIT_AFTER_SHOW=1``:
the application builds its window, opens what it was asked to open, handles the pending events,
prints and leaves. The time is taken by this script around the whole process (interpreter start,
imports, window, exit). The peer is the smallest PySide6 program that shows a QMainWindow, which
is the floor any PySide6 application pays.

    python benchmarks/startup.py              # 7 runs per case, medians
    python benchmarks/startup.py --cold       # also drop the page cache before each run (needs root)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PEER = """
import os, sys
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setCentralWidget(QLabel("hello"))
window.show()
app.processEvents()
"""


def drop_caches() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def once(cmd: list[str], env: dict[str, str], cold: bool) -> float:
    if cold and not drop_caches():
        raise SystemExit("--cold needs permission to write /proc/sys/vm/drop_caches (root)")
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cold", action="store_true", help="drop the page cache before every run (root only)")
    args = parser.parse_args(argv)
    folders = {name: tempfile.mkdtemp(prefix=f"ndcg-startup-{name.lower()}-") for name in ("CONFIG", "STATE", "DATA")}
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NDCG_DESKTOP_EXIT_AFTER_SHOW="1")
    env.update({f"NDCG_DESKTOP_{name}_DIR": path for name, path in folders.items()})
    py = sys.executable
    subprocess.run([py, "-m", "ndcg_desktop", "--demo"], env=env, cwd=REPO, check=True, capture_output=True)
    cases = [
        ("PySide6 hello window (peer)", [py, "-c", PEER]),
        ("ndcg-desktop, welcome page", [py, "-m", "ndcg_desktop"]),
        ("ndcg-desktop --demo (project open)", [py, "-m", "ndcg_desktop", "--demo"]),
        ("ndcg-desktop --demo --language zh_CN", [py, "-m", "ndcg_desktop", "--demo", "--language", "zh_CN"]),
        ("ndcg-desktop --version", [py, "-m", "ndcg_desktop.gui.app", "--version"]),
    ]
    results = []
    for name, cmd in cases:
        times = [once(cmd, env, args.cold) for _ in range(args.repeats)]
        results.append((name, statistics.median(times), max(times)))
        print(f"{name}: median {results[-1][1]:.2f} s, slowest {results[-1][2]:.2f} s", file=sys.stderr, flush=True)
    peer = results[0][1]
    cache = "cold" if args.cold else "warm"
    print(f"| case ({cache} page cache, {args.repeats} runs) | median s | slowest s | / peer |")
    print("|---|---:|---:|---:|")
    for name, median, slowest in results:
        print(f"| {name} | {median:.2f} | {slowest:.2f} | {median / peer:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
