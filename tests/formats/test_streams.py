"""Issue 24 item 2: reading a stream (a pipe, a FIFO, a device, a gzip stream) is bounded by the data it gives.

Each case runs the command line in a child under an address-space limit (as ``test_memory.py`` does)
and reports its peak RSS. A stream that never gives a valid line (``/dev/urandom``, ``yes x``, endless
blank lines, a gzip of blank lines) is refused at once with one line naming what is wrong; a pipe of N
real lines costs what a file of the same N lines costs; an endless stream of valid lines ends when the
temporary folder is nearly full, with its memory flat.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import ndcg_desktop
from ndcg_desktop.domain import InputError
from ndcg_desktop.formats import streams
from ndcg_desktop.formats.runs import read_run

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS, /dev/urandom and pipes as Linux has them")

LIMIT_MIB = 1100  # the interpreter with pandas and pyarrow takes about 730 MiB of address space
CHILD = textwrap.dedent(
    """
    import contextlib, io, json, resource, sys
    limit = int(sys.argv[1]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from ndcg_desktop.cli.main import main
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = main(json.loads(sys.argv[2]))
    # VmHWM: this program's own peak (ru_maxrss keeps the forking parent's peak across exec on Linux)
    own = open("/proc/self/status").read()
    peak = int(own.split("VmHWM:")[1].split()[0]) >> 10
    print(json.dumps({"status": status, "stderr": err.getvalue(), "stdout": out.getvalue(), "peak_mib": peak}))
    """
)
SOURCE = os.pathsep.join([str(Path(ndcg_desktop.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])  # this tree
TOO_MANY_BLANKS = (
    "holds more than 16 MiB of blank lines in a row: refused as input that gives no data (the limit for a stream "
    "or a .gz)"
)


def _child(argv: list[str], cwd: Path, *, feed: list[str] | None = None, env: dict | None = None) -> dict:
    """``ndcg argv`` in a child under the limit, its standard input fed by the command ``feed`` (a pipe)."""
    producer = subprocess.Popen(feed, stdout=subprocess.PIPE, cwd=cwd) if feed else None
    try:
        result = subprocess.run(
            [sys.executable, "-c", CHILD, str(LIMIT_MIB), json.dumps(argv)],
            stdin=producer.stdout if producer else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
            cwd=cwd,
            env={**os.environ, "MALLOC_ARENA_MAX": "2", "PYTHONPATH": SOURCE, **(env or {})},
        )
    finally:
        if producer is not None:
            producer.stdout.close()  # type: ignore[union-attr]
            producer.kill()
            producer.wait()
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    (tmp_path / "q.txt").write_text("q1 0 d1 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 d1 1 1 s\n")
    (tmp_path / "d.jsonl").write_text('{"doc_id": "d1", "text": "x"}\n')
    subprocess.run(
        [sys.executable, "-c", "from ndcg_desktop.cli.main import main; main(['init', 'p.ndcgproj'])"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    return tmp_path


def _commands(stream: str) -> dict[str, list[str]]:
    """Every command that reads a run, judgments, queries or documents, given ``stream`` as that input."""
    return {
        "score --run": ["score", "--qrels", "q.txt", "--run", stream, "--unjudged", "zero"],
        "score --qrels": ["score", "--qrels", stream, "--run", "r.txt", "--unjudged", "zero"],
        "import-run": ["import-run", "p.ndcgproj", stream, "--name", "s"],
        "import-qrels": ["import-qrels", "p.ndcgproj", stream],
        "import-queries": ["import-queries", "p.ndcgproj", stream],
        "import-docs": ["import-docs", "p.ndcgproj", stream],
    }


@pytest.fixture(scope="module")
def baseline_mib(tmp_path_factory) -> int:
    """The peak RSS of the child scoring two one-line files: what every case below starts from."""
    folder = tmp_path_factory.mktemp("baseline")
    (folder / "q.txt").write_text("q1 0 d1 1\n")
    (folder / "r.txt").write_text("q1 Q0 d1 1 1 s\n")
    outcome = _child(_commands("r.txt")["score --run"], folder)
    assert outcome["status"] == 0
    return int(outcome["peak_mib"])


URANDOM = re.compile(r"error: /dev/urandom:\d+: invalid UTF-8( \(the file must be UTF-8 text\))?\n")


@pytest.mark.parametrize("command", list(_commands("")))
def test_dev_urandom_is_refused_at_once(small, baseline_mib, command):
    outcome = _child(_commands("/dev/urandom")[command], small)
    assert outcome["status"] == 2 and URANDOM.fullmatch(outcome["stderr"]), outcome["stderr"]
    print(f"/dev/urandom as {command}: peak {outcome['peak_mib']} MiB (baseline {baseline_mib})")
    assert outcome["peak_mib"] < baseline_mib + 64


# command -> (what the pipe gives forever, the refusal)
NEVER_VALID = {
    "score --run": (["yes", "x"], "1: expected 6 columns (query_id Q0 doc_id rank score tag), found 1"),
    "score --qrels": (["yes", "q1 0 d1 x"], "1: grade 'x' is not an integer"),
    "import-run": (["yes", ""], f"1: {TOO_MANY_BLANKS}"),
    "import-qrels": (["yes", "q1 0 d1"], "1: expected 4 columns (query_id iteration doc_id grade), found 3"),
    "import-queries": (["yes", "xx"], "1: expected query_id<TAB>text"),
    "import-docs": (["yes", "x"], "1: the header must name doc_id (and optionally title, text); found 'x'"),
}


@pytest.mark.parametrize("command", list(NEVER_VALID))
def test_a_pipe_that_never_gives_a_valid_line_is_refused_at_once(small, baseline_mib, command):
    feed, refusal = NEVER_VALID[command]
    outcome = _child(_commands("/dev/stdin")[command], small, feed=feed)
    assert (outcome["status"], outcome["stderr"]) == (2, f"error: /dev/stdin:{refusal}\n")
    print(f"{' '.join(feed)!r} into {command}: peak {outcome['peak_mib']} MiB (baseline {baseline_mib})")
    assert outcome["peak_mib"] < baseline_mib + 64


def _blank_gzip(path: Path, members: int = 640) -> Path:
    """A valid .gz of ``members`` x 64 MiB of blank lines, about 65 KB a member (40 MB, 40 GiB of text)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = compressor.compress(b"\n" * (64 << 20)) + compressor.flush()
    path.write_bytes(member * members)
    return path


@pytest.mark.parametrize("command", list(_commands("")))
def test_a_gzip_of_blank_lines_is_refused_at_16_mib_not_at_the_bomb_limit(small, baseline_mib, command):
    """Forty concatenated members of 1 GB of blank lines (41 MB) once reached 4.2 GB before the bomb limit."""
    bomb = _blank_gzip(small / ("blank.jsonl.gz" if command == "import-docs" else "blank.txt.gz"))  # docs: no header
    outcome = _child(_commands(bomb.name)[command], small)
    assert (outcome["status"], outcome["stderr"]) == (2, f"error: {bomb.name}:1: {TOO_MANY_BLANKS}\n")
    print(f"blank-line gzip as {command}: peak {outcome['peak_mib']} MiB (baseline {baseline_mib})")
    assert outcome["peak_mib"] < baseline_mib + 128


def test_a_pipe_of_n_lines_costs_what_a_file_of_n_lines_costs(tmp_path):
    lines = 2_000_000
    with open(tmp_path / "big.run", "w") as handle:
        handle.writelines(f"q{i // 1000} Q0 d{i} 1 {lines - i} s\n" for i in range(lines))
    (tmp_path / "q.txt").write_text("".join(f"q{q} 0 d{q * 1000} 1\n" for q in range(lines // 1000)))
    as_file = _child(_commands("big.run")["score --run"], tmp_path)
    piped = _child(_commands("/dev/stdin")["score --run"], tmp_path, feed=["cat", "big.run"])
    assert as_file["status"] == piped["status"] == 0
    assert piped["stdout"].replace("/dev/stdin", "big.run") == as_file["stdout"]
    print(f"{lines:,} lines: peak {as_file['peak_mib']} MiB from a file, {piped['peak_mib']} MiB from a pipe")
    # The file is 58 MB: a pipe held whole in memory (and joined) cost about 150 MiB more than the file.
    assert piped["peak_mib"] < as_file["peak_mib"] + 48


@pytest.fixture
def small_tmp(tmp_path: Path) -> Iterator[Path]:
    """A 96 MiB tmpfs to serve as the temporary folder (root only)."""
    where = tmp_path / "tmpfs"
    where.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96m", "tmpfs", str(where)], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def test_an_endless_stream_of_valid_lines_ends_at_the_temporary_folders_room(small, small_tmp, baseline_mib):
    outcome = _child(
        _commands("/dev/stdin")["score --run"], small, feed=["yes", "q1 Q0 d1 1 1 s"], env={"TMPDIR": str(small_tmp)}
    )
    assert outcome["status"] == 2
    assert re.fullmatch(
        rf"error: /dev/stdin: the stream had not ended after \d+ MiB, when the temporary folder {small_tmp} was "
        r"nearly full; save it to a file and read that\n",
        outcome["stderr"],
    ), outcome["stderr"]
    assert list(small_tmp.iterdir()) == []  # its copy removed
    print(f"endless valid lines: peak {outcome['peak_mib']} MiB (baseline {baseline_mib})")
    assert outcome["peak_mib"] < baseline_mib + 64


def test_an_endless_stream_ends_once_its_copy_outgrows_the_computers_memory(tmp_path, monkeypatch):
    """Where the temporary folder has room, the copy still stops past the memory: its columns could not fit."""
    monkeypatch.setattr(streams, "_memory_bytes", lambda: 100 << 20)  # as if the computer had 100 MiB
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    fifo = tmp_path / "endless.run"
    os.mkfifo(fifo)

    def write_forever() -> None:
        with open(fifo, "wb") as handle:
            try:
                while True:
                    handle.write(b"q1 Q0 d1 1 1 s\n" * 65536)
            except BrokenPipeError:
                pass  # the reader stopped

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    with pytest.raises(InputError) as refused:
        read_run(fifo)
    writer.join(30)
    assert re.fullmatch(
        rf"{fifo}: the stream had not ended after \d+ MiB, more than this computer's memory could read; save it to "
        "a file and read that",
        str(refused.value),
    ), str(refused.value)
    assert list((tmp_path / "tmp").iterdir()) == []  # the copy removed
