"""Issue 37: scoring files reads and scores with pyarrow and numpy only.

``ndcg score`` on files, ``ndcg_desktop.api.score`` on file paths and the scoring behind ``ndcg compare`` load no
pandas, scipy, scikit-learn, statsmodels, Qt or project store: importing pandas was more than half of the start-up
on a small file, and pyarrow imports it by itself at its first ``pa.array``, ``pa.scalar`` or ``to_numpy``
(``ndcg_desktop.domain.arrays`` converts without them). Each check runs in a fresh interpreter, every case of a
group one after the other; the first case after which a forbidden module is loaded fails the test, with the
stack that imported it.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

FORBIDDEN = ("pandas", "scipy", "sklearn", "statsmodels", "PySide6", "shiboken6", "ndcg_desktop.store")

# Runs in the child: records the stack of the first import of each forbidden module, then runs the cases.
_CHILD = r"""
import contextlib, io, json, sys, traceback
from importlib.abc import MetaPathFinder

FORBIDDEN = {forbidden!r}
first = {{}}

class Watch(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        for module in FORBIDDEN:
            if (name == module or name.startswith(module + ".")) and module not in first:
                frames = [f for f in traceback.extract_stack()[:-1] if "importlib" not in f.filename]
                first[module] = [f"{{f.filename}}:{{f.lineno}} {{f.line}}" for f in frames[-8:]]
        return None

sys.meta_path.insert(0, Watch())
{setup}
cases = json.loads({cases!r})
for number, case in enumerate(cases):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        code = run(case)
    loaded = sorted(m for m in FORBIDDEN if m in sys.modules)
    if loaded:
        print(json.dumps({{"case": case, "loaded": loaded, "where": first, "code": code}}))
        break
    print(json.dumps({{"case": case, "code": code, "out": out.getvalue()[:200], "err": err.getvalue()[:300]}}))
"""

_CLI = """
from ndcg_desktop.cli.main import main
def run(argv):
    return main(argv)
"""

_LARGE = """
import ndcg_desktop.formats.large as large, ndcg_desktop.formats.runs as runs
large.LARGE_FILE_BYTES = runs.STREAM_MIN_BYTES = 0  # every file takes the large-file path (pyarrow from disk)
"""

_API = """
from ndcg_desktop import api
def run(case):
    try:
        scored = api.score(case["run"], case["qrels"], **case["keywords"])
    except api.Refused as refused:
        return f"refused: {refused}"
    return scored.mean
"""

_COMPARE = """
from ndcg_desktop.domain import Cutoffs, DataTerms, EvalSettings, GradeScale
from ndcg_desktop.scoring.ndcg import evaluate_cutoffs
from ndcg_desktop.tasks.files import read_judgments, read_ranking
def run(case):  # what ``ndcg compare`` does for each run before its statistics (tasks.scoring.evaluate_with_bounds)
    settings = EvalSettings(unjudged="zero").under(DataTerms(GradeScale(-1, 4)))
    qrels = read_judgments(case["qrels"], settings.terms.scale)
    at = evaluate_cutoffs(qrels, read_ranking(case["run"]), settings, Cutoffs([5, 10, 20]))
    return [at[k].summary["mean_ndcg"] for k in (5, 10, 20)]
"""


def _run_cases(setup: str, cases: list, tmp_path: Path) -> list[dict]:
    code = _CHILD.format(forbidden=FORBIDDEN, setup=setup, cases=json.dumps(cases))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    last = results[-1] if results else {}
    assert "loaded" not in last, (
        f"{last.get('loaded')} loaded by the case {last.get('case')}; first imported at:\n"
        + "\n".join(f"{module}:\n  " + "\n  ".join(stack) for module, stack in last.get("where", {}).items())
    )
    assert len(results) == len(cases)
    return results


@pytest.fixture
def files(tmp_path: Path, data_dir: Path) -> dict[str, str]:
    """Small judgments and runs in every format the readers take, and real TREC files."""
    qrels = "q1 0 D1 3\nq1 0 D2 1\nq1 0 D3 0\nq2 0 D4 2\nq2 0 D5 0\nq3 0 D6 1\n"
    run = (
        "q1 Q0 D2 1 9.5 bm25\nq1 Q0 D9 2 8.5 bm25\nq1 Q0 D1 3 8.5 bm25\nq1 Q0 D3 4 1.25 bm25\n"
        "q2 Q0 D5 1 3 bm25\nq2 Q0 D4 2 2 bm25\nq3 Q0 D6 1 1 bm25\n"
    )
    written = {
        "qrels": qrels,
        "run": run,
        "qrels_repeats": qrels + "q2 0 D4 2\n",  # an identical repeat, dropped
        "qrels_conflict": qrels + "q2 0 D4 1\n",  # a repeat with another grade, refused
        "qrels_csv": "query_id,doc_id,grade\n" + qrels.replace(" 0 ", ",").replace(" ", ","),
        "qrels_tsv": "query_id\tdoc_id\tgrade\n" + qrels.replace(" 0 ", "\t").replace(" ", "\t"),
        "run_csv": "query_id,doc_id,score\nq1,D2,9.5\nq1,D1,8.5\nq2,D4,2\nq3,D6,1\n",
        "run_tsv": "query_id\tdoc_id\trank\nq1\tD2\t1\nq1\tD1\t2\nq2\tD4\t1\n",
        "run_jsonl": '{"query_id": "q1", "doc_ids": ["D2", "D1"]}\n{"query_id": "q2", "doc_ids": []}\n',
        "run_irregular": run.replace(" Q0 ", "\tQ0  ").replace(" bm25", "  bm25 "),  # the line-by-line reader
        "run_repeat": run + "q1 Q0 D2 5 0.5 bm25\n",  # a document twice for one query
        "run_unknown": run + "q9 Q0 D1 1 1 bm25\n",
        "run_chunks": run.replace("D2 ", "D2#1 ").replace("D6 ", "D6#4 "),
        "qrels_unicode": qrels.replace("D1 ", "Dé1 ").replace("q3", "q३"),  # not ASCII: trimmed and checked by pyarrow
        "run_unicode": run.replace("D1 ", "Dé1 ").replace("q3", "q३"),
        "qrels_numeric": "1 0 10 2\n1 0 11 0\n2 0 12 1\n",
        "run_numeric": "1 Q0 11 1 2.5 r\n1 Q0 10 2 2.5 r\n1 Q0 13 3 1 r\n2 Q0 12 1 1 r\n",
    }
    paths = {}
    for name, text in written.items():
        suffix = {"csv": ".csv", "tsv": ".tsv", "jsonl": ".jsonl"}.get(name.rsplit("_", 1)[-1], ".txt")
        path = tmp_path / f"{name}{suffix}"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    for name in ("qrels", "run"):
        packed = tmp_path / f"{name}.txt.gz"
        packed.write_bytes(gzip.compress(written[name].encode()))
        paths[f"{name}_gz"] = str(packed)
    real = data_dir / "trec_eval_test"
    paths |= {
        "trec_qrels": str(real / "qrels.rel_level"),
        "trec_run": str(real / "results.test"),
        "trec_run_trunc": str(real / "results.trunc"),
        "rag_qrels": str(real / "qrels.comment.test.gz"),
        "rag_run": str(real / "results.comment.test.gz"),
    }
    return paths


def _score(paths: dict[str, str], qrels: str, run: str, *options: str) -> list[str]:
    return ["score", "--qrels", paths[qrels], "--run", paths[run], *options]


def _score_cases(f: dict[str, str]) -> list[list[str]]:
    return [
        _score(f, "qrels", "run", "--unjudged", "zero"),
        _score(f, "qrels", "run", "--unjudged", "zero", "--json"),
        _score(f, "qrels", "run"),  # refused: an unjudged document (exit 2)
        _score(f, "qrels", "run", "--unjudged", "condense", "--k", "3", "--gain", "exponential"),
        _score(f, "qrels", "run", "--unjudged", "zero", "--ties", "docid-asc", "--zero-idcg", "exclude"),
        _score(f, "qrels", "run", "--unjudged", "zero", "--ties", "file-order", "--order", "rank", "--queries", "run"),
        _score(f, "qrels_gz", "run_gz", "--unjudged", "zero", "--json"),
        _score(f, "qrels_repeats", "run", "--unjudged", "zero"),
        _score(f, "qrels_conflict", "run", "--unjudged", "zero"),  # refused: two grades for one pair
        _score(f, "qrels_csv", "run_csv", "--unjudged", "zero"),
        _score(f, "qrels_tsv", "run_tsv", "--unjudged", "zero", "--json"),
        _score(f, "qrels", "run_jsonl", "--json"),
        _score(f, "qrels", "run_irregular", "--unjudged", "zero"),
        _score(f, "qrels", "run_repeat", "--unjudged", "zero"),  # refused: a duplicate
        _score(f, "qrels", "run_repeat", "--unjudged", "zero", "--duplicates", "first"),
        _score(f, "qrels", "run_unknown", "--unjudged", "zero"),  # refused: an unknown query
        _score(f, "qrels", "run_unknown", "--unjudged", "zero", "--unknown-queries", "ignore", "--json"),
        _score(f, "qrels", "run_chunks", "--unjudged", "zero", "--id-map", "#"),
        _score(f, "qrels_unicode", "run_unicode", "--unjudged", "zero", "--json"),
        _score(f, "qrels_numeric", "run_numeric", "--unjudged", "zero", "--json"),
        _score(f, "trec_qrels", "trec_run", "--unjudged", "zero", "--scale", "-1..4", "--json"),
        _score(f, "trec_qrels", "trec_run_trunc", "--unjudged", "condense", "--scale", "-1..4"),  # refused: 9 fields
        _score(f, "rag_qrels", "rag_run", "--unjudged", "zero", "--unknown-queries", "ignore", "--k", "20"),
    ]


def test_ndcg_score_on_files_loads_no_pandas_scipy_qt_or_store(files, tmp_path):
    results = _run_cases(_CLI, _score_cases(files), tmp_path)
    codes = [r["code"] for r in results]
    refused = [(r["case"][4].rsplit("/", 1)[-1], r["err"]) for r in results if r["code"] != 0]
    expected = ["run.txt", "run.txt", "run_repeat.txt", "run_unknown.txt", "results.trunc"]
    assert [name for name, _ in refused] == expected, refused
    assert codes.count(2) == len(expected), codes  # the refusals, each exit 2
    assert results[0]["out"].startswith("query ") and results[1]["out"].startswith('{\n  "summary": {')


def test_the_large_file_reader_loads_none_of_them_either(files, tmp_path):
    """Files of 32 MiB and more are parsed by pyarrow from disk while a thread scans them: the same check with
    that path taken by every file."""
    results = _run_cases(_CLI + _LARGE, _score_cases(files), tmp_path)
    assert [r["code"] for r in results].count(0) == len(results) - 5


def test_the_python_api_scores_file_paths_without_them(files, tmp_path):
    f = files
    cases = [
        {"run": f["run"], "qrels": f["qrels"], "keywords": {"unjudged": "zero"}},
        {"run": f["run"], "qrels": f["qrels"], "keywords": {}},  # refused
        {"run": f["run_gz"], "qrels": f["qrels_gz"], "keywords": {"unjudged": "condense", "k": 3}},
        {"run": f["run_csv"], "qrels": f["qrels_csv"], "keywords": {"unjudged": "zero", "ties": "docid-asc"}},
        {"run": f["run_jsonl"], "qrels": f["qrels_tsv"], "keywords": {"queries": "run"}},
        {"run": f["run_repeat"], "qrels": f["qrels_repeats"], "keywords": {"unjudged": "zero", "duplicates": "first"}},
        {"run": f["run_chunks"], "qrels": f["qrels"], "keywords": {"unjudged": "zero", "id_map": "#"}},
        {"run": f["trec_run"], "qrels": f["trec_qrels"], "keywords": {"unjudged": "zero", "scale": "-1..4"}},
    ]
    results = _run_cases(_API, cases, tmp_path)
    assert str(results[1]["code"]).startswith("refused: ") and all(type(r["code"]) is float for r in results[2:])


def test_the_scoring_behind_ndcg_compare_loads_none_of_them(files, tmp_path):
    """``ndcg compare`` reads and scores each run through the same readers and ``evaluate_cutoffs`` (its
    statistics then load scipy and statsmodels, the features that need them)."""
    f = files
    cases = [
        {"qrels": f["qrels"], "run": f["run"]},
        {"qrels": f["qrels_gz"], "run": f["run_irregular"]},
        {"qrels": f["trec_qrels"], "run": f["trec_run"]},
    ]
    results = _run_cases(_COMPARE, cases, tmp_path)
    assert all(len(r["code"]) == 3 for r in results)


def test_the_tables_are_built_on_first_use_and_only_then_load_pandas(files, tmp_path):
    """The per-query and per-position DataFrames (the window, the exports, ``Scored.per_query``) still exist:
    asking for one imports pandas, and gives the same columns as the evaluation's."""
    code = (
        "import sys\n"
        "from ndcg_desktop import api\n"
        f"scored = api.score({files['run']!r}, {files['qrels']!r}, unjudged='zero')\n"
        "assert 'pandas' not in sys.modules\n"
        "table = scored.per_query\n"
        "assert 'pandas' in sys.modules and table is scored.per_query\n"
        "same = round(float(table['ndcg'].mean()), 12) == round(scored.mean, 12)\n"
        "print(table.index.name, list(table.columns)[:3], same)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert done.stdout.split() == ["query_id", "['ndcg',", "'dcg',", "'idcg']", "True"]
