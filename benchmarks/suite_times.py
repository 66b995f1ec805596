"""Where the test suite's time goes: a pytest plugin that writes each test's wall and CPU seconds to a JSON file.

    NDCG_SUITE_TIMES=times.jsonl HYPOTHESIS_PROFILE=ci python -m pytest -p benchmarks.suite_times
    python benchmarks/suite_times.py times.jsonl* [--top 20]   # per-directory totals and the slowest tests

CPU is what matters on a shared machine: wall time there measures the load. Each test's CPU is this
process's user + system time over its setup, call and teardown, plus the CPU of the child processes
it waited for (a model server, a SIGKILLed job); a child still running at a test's end (the session's
model server) counts where it is reaped. Collection is timed too (``<collection>``). A line is written as each
test ends, so a run stopped early still tells where its time went; under pytest-xdist each worker writes
its own file (``times.jsonl.gw0``, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from pathlib import Path

import pytest


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class _Clock:
    def __init__(self, out: Path) -> None:
        self.out = out
        out.write_text("")

    def _now(self) -> tuple[float, float, float]:
        own, children = _cpu()
        return time.perf_counter(), own, children

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection(self, session):  # noqa: ANN001, ANN201
        start = self._now()
        yield
        end = self._now()
        self._write("<collection>", end[0] - start[0], end[1] - start[1], end[2] - start[2])

    def _write(self, nodeid: str, wall: float, cpu: float, children_cpu: float) -> None:
        with self.out.open("a") as out:
            out.write(json.dumps({"test": nodeid, "wall": wall, "cpu": cpu, "children_cpu": children_cpu}) + "\n")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):  # noqa: ANN001, ANN201
        start = self._now()
        yield
        end = self._now()
        self._write(item.nodeid, end[0] - start[0], end[1] - start[1], end[2] - start[2])


def pytest_configure(config) -> None:  # noqa: ANN001
    out = os.environ.get("NDCG_SUITE_TIMES")
    if out and not hasattr(config, "workerinput"):  # under xdist each worker writes its own file
        config.pluginmanager.register(_Clock(Path(out)), "suite_times_clock")
    elif out:
        worker = config.workerinput["workerid"]
        config.pluginmanager.register(_Clock(Path(f"{out}.{worker}")), "suite_times_clock")


def _directory(nodeid: str) -> str:
    path = nodeid.split("::")[0]
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else path


def report(files: list[Path], top: int) -> str:
    times: dict[str, dict[str, float]] = {}
    for file in files:
        for line in file.read_text().splitlines():
            row = json.loads(line)
            times[row.pop("test")] = row
    per_dir: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for nodeid, t in times.items():
        row = per_dir[_directory(nodeid)]
        row[0] += 1
        row[1] += t["wall"]
        row[2] += t["cpu"] + t["children_cpu"]
    lines = ["| directory | tests | wall s | CPU s |", "|---|---:|---:|---:|"]
    for name, (count, wall, cpu) in sorted(per_dir.items(), key=lambda kv: -kv[1][2]):
        lines.append(f"| {name} | {count} | {wall:.1f} | {cpu:.1f} |")
    total_wall = sum(r[1] for r in per_dir.values())
    total_cpu = sum(r[2] for r in per_dir.values())
    lines.append(f"| **total** | {sum(r[0] for r in per_dir.values())} | {total_wall:.1f} | {total_cpu:.1f} |")
    lines += ["", f"| slowest {top} by CPU | wall s | CPU s |", "|---|---:|---:|"]
    ranked = sorted(times.items(), key=lambda kv: -(kv[1]["cpu"] + kv[1]["children_cpu"]))
    for nodeid, t in ranked[:top]:
        lines.append(f"| `{nodeid}` | {t['wall']:.1f} | {t['cpu'] + t['children_cpu']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    print(report(args.files, args.top))
