"""Issue 11 item 4: memory has a bound, stated in the messages and in docs/guarantees.md.

Every input path reads under an address-space limit (RLIMIT_AS) far below what the inputs would
take if held whole: a 1 GiB decompression bomb of about 1 MB, an endless device, a scale with
10^20 grades. Each is refused with exit status 2 and one line naming the file (and line).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

LIMIT_MIB = 1100  # the interpreter with pandas and pyarrow takes about 730 MiB of address space; a bomb 1 GiB

# Runs each command through the command line's main() in one child with the limit set, and
# prints one JSON line per command: exit status and what went to stderr.
CHILD = textwrap.dedent(
    """
    import contextlib, io, json, resource, sys
    limit = int(sys.argv[1]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from ndcg_desktop.cli.main import main
    for argv in json.loads(sys.argv[2]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code
        print(json.dumps({"argv": argv, "status": status, "stderr": err.getvalue()}), flush=True)
    """
)


def _gzip_bomb(path: Path, gib: int = 1) -> Path:
    """``gib`` GiB of NUL bytes in about 1 MB: one compressed MiB repeated as gzip members (a valid .gz)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = compressor.compress(bytes(1 << 20)) + compressor.flush()
    path.write_bytes(member * (1024 * gib))
    return path


def _lines_bomb(path: Path) -> Path:
    """1 GiB of valid-looking short lines, compressed about 1000 times."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = compressor.compress(b"q1 0 A 1\n" * (1 << 20)) + compressor.flush()  # 9 MiB in about 9 KB
    path.write_bytes(member * 114)
    return path


def _run_limited(argvs: list[list[str]], cwd: Path) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(LIMIT_MIB), json.dumps(argvs)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "MALLOC_ARENA_MAX": "2"},  # each thread's malloc arena reserves 64 MiB of address space
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
def test_bombs_and_endless_inputs_are_refused_within_a_memory_limit(tmp_path):
    bomb = _gzip_bomb(tmp_path / "bomb.txt.gz")
    lines = _lines_bomb(tmp_path / "lines.txt.gz")
    small_run = tmp_path / "run.txt"
    small_run.write_text("q1 Q0 A 1 2 s\n")
    small_qrels = tmp_path / "qrels.txt"
    small_qrels.write_text("q1 0 A 1\n")
    project = tmp_path / "p.ndcgproj"
    too_long = "line is longer than 16 MiB (the limit for one line of any input file)"
    expected = {
        ("score", "--qrels", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("score", "--run", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("score", "--run", "/dev/zero"): f"error: /dev/zero:1: {too_long}",
        ("score", "--qrels", str(lines)): f"error: {lines}: expands to more than 100 times its compressed size: "
        "refused as a likely decompression bomb (decompress it yourself if it is real data)",
        ("import-docs", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("import-queries", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("import-qrels", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("import-run", str(bomb)): f"error: {bomb}:1: {too_long}",
        ("init", "0..99999999999999999999"): "error: grade scale 0..99999999999999999999: grades must lie "
        "between -100 and 100",
    }
    argvs = [["init", str(project)]]
    for key in expected:
        command, *rest = key
        if command == "score":
            files = {"--qrels": str(small_qrels), "--run": str(small_run), rest[0]: rest[1]}
            argvs.append(["score", "--qrels", files["--qrels"], "--run", files["--run"], "--unjudged", "zero"])
        elif command == "init":
            argvs.append(["init", str(tmp_path / "wide.ndcgproj"), "--scale", rest[0]])
        elif command == "import-run":
            argvs.append(["import-run", str(project), rest[0], "--name", "r"])
        else:
            argvs.append([command, str(project), rest[0]])
    results = _run_limited(argvs, tmp_path)
    assert results[0]["status"] == 0, results[0]
    assert [(r["status"], r["stderr"]) for r in results[1:]] == [(2, line + "\n") for line in expected.values()]
