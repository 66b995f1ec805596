"""The Python API as ranx and PyTerrier users hold data (issue 36, items 1-4 and 9).

Dicts of dicts checked cell by cell, several cut-offs in ``score``, ``Project.compare`` and ``Project.score`` on a
run given, refusals worded in the API's keywords, per-query rows in natural order. Expectations come from the
command line's own output on the same data, from ranx on the same dicts, or from formulas written out.
"""

from __future__ import annotations

import json
import math
import random
import re

import pandas as pd
import pytest

from ndcg_desktop import api
from ndcg_desktop.cli.main import main

RUN = {"q1": {"B": 2.0, "D": 1.0}, "q2": {"A": 0.5, "C": 0.25}, "q10": {"A": 1.0}}
QRELS = {"q1": {"A": 3, "B": 2, "C": 0}, "q2": {"A": 1, "C": 2}, "q10": {"A": 1}}


def frames(run: dict, qrels: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same cells as DataFrames (PyTerrier's names), query by query in the dicts' order."""
    r = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    j = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    return (
        pd.DataFrame(r, columns=["qid", "docno", "score"]),
        pd.DataFrame(j, columns=["qid", "docno", "label"]),
    )


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- item 1: ranx's dicts of dicts


def test_a_dict_of_dicts_scores_as_the_same_cells_in_a_dataframe():
    by_dict = api.score(RUN, QRELS, unjudged="zero")
    run, qrels = frames(RUN, QRELS)
    by_frame = api.score(run, qrels, unjudged="zero")
    assert by_dict.per_query.equals(by_frame.per_query)
    # q1: B (2) at 1, D unjudged at 2; ideal A (3), B (2). q2: A (1), C (2); ideal C, A. q10: A alone.
    q1 = (2 / math.log2(2)) / (3 / math.log2(2) + 2 / math.log2(3))
    q2 = (1 / math.log2(2) + 2 / math.log2(3)) / (2 / math.log2(2) + 1 / math.log2(3))
    assert by_dict.mean == pytest.approx((q1 + q2 + 1) / 3, abs=1e-15)
    assert by_dict.manifest["run"]["path"] == "<run dict>" and by_dict.manifest["run"]["format"] == "dict"
    assert by_dict.manifest["judgments"]["path"] == "<qrels dict>"
    assert by_dict.manifest["run"]["sha256"] == by_frame.manifest["run"]["sha256"]  # the cells, whatever holds them


BAD_CELLS = {
    "score not a number": ("run", "q2", "C", "high", "score 'high' is not a number"),
    "score NaN": ("run", "q2", "C", float("nan"), "score nan is not a finite number"),
    "score infinite": ("run", "q2", "C", float("inf"), "score inf is not a finite number"),
    "score None": ("run", "q2", "C", None, "score 'None' is not a number"),
    "score a bool": ("run", "q2", "C", True, "score 'True' is not a number"),
    "grade not whole": ("qrels", "q2", "C", 2.5, "grade '2.5' is not an integer"),
    "grade a word": ("qrels", "q2", "C", "two", "grade 'two' is not an integer"),
    "grade NaN": ("qrels", "q2", "C", float("nan"), "grade 'NaN' is not an integer"),
    "grade outside the scale": ("qrels", "q2", "C", 7, "grade 7 is outside the scale 0..3"),
    "empty document ID": ("qrels", "q2", "", 1, "empty document ID"),
    "document ID with a space": ("run", "q2", "C D", 1.0, "document ID 'C D' contains U+0020 (space)"),
}


@pytest.mark.parametrize("case", list(BAD_CELLS))
def test_a_bad_cell_in_a_dict_is_refused_naming_its_query_and_document(case):
    which, query, doc, value, problem = BAD_CELLS[case]
    given = {"run": json.loads(json.dumps(RUN)), "qrels": json.loads(json.dumps(QRELS))}
    given[which][query][doc] = value
    with pytest.raises(api.Refused) as refused:
        api.score(given["run"], given["qrels"], unjudged="zero")
    message = str(refused.value)
    assert message.startswith(f"<{which} dict>: query {query!r}, document {doc!r}: {problem}"), message
    assert "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize(
    ("qrels", "message"),
    [
        ({1: {"A": 1}}, "<qrels dict>: query 1: query IDs are strings, not int"),
        ({"q1": {2: 1}}, "<qrels dict>: query 'q1', document 2: document IDs are strings, not int"),
        ({"q1": [("A", 1)]}, "<qrels dict>: query 'q1': expected a dict of document -> grade, not list"),
        ({"q1": {}}, "<qrels dict>: query 'q1' has no documents"),
        ({}, "<qrels dict>: has no queries"),
        ({"": {"A": 1}}, "<qrels dict>: query '', document 'A': empty query ID"),
    ],
)
def test_a_dict_that_is_not_one_of_queries_of_documents_is_refused_in_one_line(qrels, message):
    with pytest.raises(api.Refused) as refused:
        api.score(RUN, qrels, unjudged="zero")
    assert str(refused.value).startswith(message), str(refused.value)


@pytest.mark.slow  # ranx compiles its kernels with numba on first use
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_dicts_score_as_ranx_scores_them(gain):
    """ranx's ndcg (Järvelin's linear gain) and ndcg_burges (2^g - 1) on random dicts without ties."""
    ranx = pytest.importorskip("ranx")
    rng = random.Random(36)
    run, qrels = {}, {}
    for q in range(1, 41):
        docs = [f"d{i}" for i in range(30)]
        qrels[f"q{q}"] = {d: rng.randint(0, 3) for d in rng.sample(docs, 15)}
        qrels[f"q{q}"][rng.choice(docs)] = 3  # every query has a relevant document (ranx skips the others)
        scores = rng.sample(range(1, 1000), 20)  # distinct: no ties for the two to break differently
        run[f"q{q}"] = {d: s / 7 for d, s in zip(rng.sample(docs, 20), scores, strict=True)}
    metric = "ndcg" if gain == "linear" else "ndcg_burges"
    for k in (5, 10):
        ours = api.score(run, qrels, k=k, unjudged="zero", gain=gain)
        theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), f"{metric}@{k}", return_mean=False)
        ranx_per_query = dict(zip(sorted(run), theirs, strict=True))  # ranx lists queries sorted
        assert ours.per_query["ndcg"].to_dict() == pytest.approx(ranx_per_query, abs=1e-12)
        assert ours.mean == pytest.approx(float(theirs.mean()), abs=1e-12)


# ---------------------------------------------------------------- item 2: several cut-offs in score


def test_score_at_several_k_gives_each_k_its_mean_and_a_k_column(data_dir, monkeypatch):
    monkeypatch.chdir(data_dir / "cranfield")
    both = api.score("bm25.run.gz", "qrels.txt", k=[5, 10], scale="0..4", unjudged="zero")
    assert list(both.means) == [5, 10]
    for k in (5, 10):
        alone = api.score("bm25.run.gz", "qrels.txt", k=k, scale="0..4", unjudged="zero")
        assert both.means[k] == alone.mean
        rows = both.per_query[both.per_query["k"] == k].drop(columns="k")
        assert rows.equals(alone.per_query)
        assert both.summary[k] == alone.summary and both.manifest[k]["settings"] == alone.manifest["settings"]
    assert both.settings.startswith("nDCG@5,10(gain=linear,unjudged=zero,")
    assert api.score("bm25.run.gz", "qrels.txt", k="5,10", scale="0..4", unjudged="zero").means == both.means
    with pytest.raises(api.Refused, match=r"^mean is ambiguous: scored at 2 cut-offs \(k=\[5, 10\]\); read means\[5\]"):
        _ = both.mean


def test_a_list_of_one_k_keeps_the_k_column_and_its_mean():
    one = api.score(RUN, QRELS, k=[2], unjudged="zero")
    assert list(one.per_query.columns[:2]) == ["k", "ndcg"] and set(one.per_query["k"]) == {2}
    assert one.mean == one.means[2] == api.score(RUN, QRELS, k=2, unjudged="zero").mean


@pytest.mark.parametrize(
    ("k", "message"),
    [
        ([5, 5], "k names 5 twice"),
        ([5, 0], "k takes positive whole numbers separated by commas (5,10,20), not '5,0'"),
        ("5,x", "k takes positive whole numbers separated by commas (5,10,20), not '5,x'"),
        ([], "k must be a cut-off (10), a list of them ([5, 10])"),
        (True, "k must be a cut-off (10), a list of them ([5, 10])"),
        ([5.0], "k must be a cut-off (10), a list of them ([5, 10])"),
        (0, "the cutoff K must be a positive integer, not 0"),
    ],
)
def test_cutoffs_are_checked_by_the_one_check_compare_uses(k, message):
    for call in (
        lambda: api.score(RUN, QRELS, k=k, unjudged="zero"),
        lambda: api.compare({"a": RUN, "b": RUN}, QRELS, k=k, unjudged="zero"),
    ):
        with pytest.raises(api.Refused) as refused:
            call()
        assert str(refused.value).startswith(message), str(refused.value)


# ---------------------------------------------------------------- item 3: Project.compare, Project.score


def test_project_compare_is_ndcg_compare_project_json(two_versions, capsys):
    code, out, _err = cli(
        capsys,
        "compare",
        "--project",
        str(two_versions),
        "--run-names",
        "x",
        "y",
        "--pool-version",
        "1",
        "--k",
        "1,2",
        "--unjudged",
        "zero",
        "--resamples",
        "500",
        "--json",
    )
    assert code == 0
    expected = json.loads(out)
    with api.open_project(two_versions) as project:
        result = project.compare(["x", "y"], version=1, k=[1, 2], unjudged="zero", resamples=500)
    as_json = json.loads(json.dumps(result.runs.to_dict("records"), default=lambda v: v.item()))
    assert as_json == expected["runs"]
    pairs = json.loads(json.dumps(result.pairs.to_dict("records"), default=lambda v: v.item(), allow_nan=True))
    assert pairs == expected["pairs"]
    assert result.settings_line == expected["manifest"]["settings_line"]
    created = {"created"}
    assert {k: v for k, v in result.manifest.items() if k not in created} == {
        k: v for k, v in expected["manifest"].items() if k not in created
    }


def test_project_score_takes_a_dataframe_run_and_names_the_version(two_versions):
    with api.open_project(two_versions) as project:
        stored = project.score("x", version=1, unjudged="zero")
        given = project.score(project.run("x"), version=1, unjudged="zero")
        as_dict = project.score({"q1": {"B": 3.0, "A": 2.0}, "q2": {"E": 1.0}}, version=1, unjudged="zero")
        hash_1 = project.versions().set_index("version").loc[1, "hash"]
    assert given.mean == stored.mean == as_dict.mean
    assert given.per_query.equals(stored.per_query)
    for scored in (given, as_dict):
        judged = scored.manifest["judgments"]
        assert judged["pool_version"] == 1 and judged["pool_hash"] == hash_1 and judged["path"] == str(two_versions)
    assert given.manifest["run"]["path"] == "<run DataFrame>"


def test_project_score_at_several_k_is_each_k_alone(two_versions):
    with api.open_project(two_versions) as project:
        both = project.score("x", version=2, k=[1, 2], unjudged="zero")
        for k in (1, 2):
            alone = project.score("x", version=2, k=k, unjudged="zero")
            assert both.means[k] == alone.mean and both.manifest[k]["judgments"]["pool_version"] == 2
            assert both.per_query[both.per_query["k"] == k].drop(columns="k").equals(alone.per_query)


def test_a_versions_judgments_compared_against_name_the_version(two_versions):
    with api.open_project(two_versions) as project:
        judged = project.judgments(2)
        runs = {name: project.run(name) for name in ("x", "y")}
        stored = project.compare(["x", "y"], version=2, unjudged="zero", resamples=200)
    given = api.compare(runs, judged, unjudged="zero", resamples=200)
    assert given.manifest["judgments"]["pool_version"] == 2
    assert given.manifest["judgments"]["pool_hash"] == stored.manifest["judgments"]["pool_hash"]
    assert given.runs[["run", "mean", "bound_low", "bound_high"]].equals(
        stored.runs[["run", "mean", "bound_low", "bound_high"]]
    )


def test_a_versions_judgments_given_as_qrels_name_the_version(two_versions):
    with api.open_project(two_versions) as project:
        judged = project.judgments(1)
        stored = project.score("x", version=1, unjudged="zero")
        run = project.run("x")
        hash_1 = project.versions().set_index("version").loc[1, "hash"]
    scored = api.score(run, judged, unjudged="zero")  # the project closed: the frame carries the version
    assert scored.mean == stored.mean
    assert scored.manifest["judgments"]["pool_version"] == 1 and scored.manifest["judgments"]["pool_hash"] == hash_1
    assert scored.manifest["judgments"]["annotators"] == stored.manifest["judgments"]["annotators"]
    changed = judged[judged["query_id"] == "q1"]  # pandas keeps attrs through a filter: the hash tells
    assert (
        api.score(run, changed, unjudged="zero", unknown_queries="ignore").manifest["judgments"].get("pool_version")
        is None
    )
    with pytest.raises(api.Refused, match=r"^pool version 1 uses the scale 0\.\.3, not 0\.\.4$"):
        api.score(run, judged, unjudged="zero", scale="0..4")


WRONG_TYPES = {
    "Project.score a DataFrame version": lambda p, f: p.score("x", version=f),
    "Project.score a list run": lambda p, f: p.score(["x"]),
    "Project.score a DataFrame choice": lambda p, f: p.score("x", unjudged=f),
    "Project.score a DataFrame k": lambda p, f: p.score("x", k=f),
    "Project.run a DataFrame name": lambda p, f: p.run(f),
    "Project.judgments a DataFrame version": lambda p, f: p.judgments(f),
    "Project.compare a DataFrame run_names": lambda p, f: p.compare(f),
    "Project.compare a str run_names": lambda p, f: p.compare("x"),
    "Project.compare a DataFrame baseline": lambda p, f: p.compare(["x", "y"], baseline=f, unjudged="zero"),
    "Project.compare a DataFrame alpha": lambda p, f: p.compare(["x", "y"], alpha=f, unjudged="zero"),
    "Project.agreement a DataFrame version": lambda p, f: p.agreement(f),
    "score a DataFrame scale": lambda p, f: api.score(f, f, scale=f),
    "score a list run": lambda p, f: api.score([1], QRELS),
    "score a DataFrame order": lambda p, f: api.score(RUN, QRELS, order=f),
    "score a DataFrame id_map": lambda p, f: api.score(RUN, QRELS, id_map=f),
    "compare a DataFrame of runs": lambda p, f: api.compare(f, QRELS),
    "compare a DataFrame resamples": lambda p, f: api.compare({"a": RUN, "b": RUN}, QRELS, resamples=f),
    "compare a DataFrame test": lambda p, f: api.compare({"a": RUN, "b": RUN}, QRELS, test=f),
    "compare a run named by an int": lambda p, f: api.compare({1: RUN, "b": RUN}, QRELS),
    "open_project a DataFrame": lambda p, f: api.open_project(f),
}


@pytest.mark.parametrize("case", list(WRONG_TYPES))
def test_every_wrong_type_is_refused_in_one_line(two_versions, case):
    frame = pd.DataFrame({"qid": ["q1"], "docno": ["A"], "score": [1.0]})
    with api.open_project(two_versions) as project, pytest.raises(api.Refused) as refused:
        WRONG_TYPES[case](project, frame)
    message = str(refused.value)
    assert "\n" not in message and "truth value" not in message and len(message) < 200, message
    assert re.search(r"\b(DataFrame|list|str|int)\b", message) or "must be one of" in message, message


# ---------------------------------------------------------------- item 4: refusals in the API's words

FLAG = re.compile(r"(?<![\w-])--[a-z]")  # an option: --unjudged, --k, --run-names (never a text's own dashes)


def _refusals_reachable(data_dir, project) -> dict[str, str]:
    """One refusal of each kind a notebook meets, from the API, as it is raised."""
    cranfield = data_dir / "cranfield"
    run, qrels = str(cranfield / "bm25.run.gz"), str(cranfield / "qrels.txt")
    known = {"q1": {"A": 2.0}, "q2": {"C": 1.0}}
    calls = {
        "unjudged": lambda: api.score(run, qrels, scale="0..4"),
        "unjudged in compare": lambda: api.compare([run, str(cranfield / "tfidf.run.gz")], qrels, scale="0..4"),
        "unjudged in a project": lambda: project.score({"q1": {"A": 2.0, "Z": 1.0}}, version=1),
        "duplicates in a project": lambda: project.score(
            pd.DataFrame({"qid": ["q1", "q1"], "docno": ["A", "A"], "score": [2.0, 1.0]}), version=1
        ),
        "duplicates": lambda: api.score(
            pd.DataFrame({"qid": ["q1", "q1"], "docno": ["A", "A"], "score": [2.0, 1.0]}), QRELS
        ),
        "unknown queries": lambda: api.score({"q9": {"A": 1.0}, **known}, QRELS, unjudged="zero"),
        "grade outside the scale": lambda: api.score(run, qrels, unjudged="zero"),
        "k twice": lambda: api.compare({"a": RUN, "b": RUN}, QRELS, k="5,5", unjudged="zero"),
        "two runs of one name": lambda: api.compare([run, run], qrels, scale="0..4", unjudged="zero"),
        "one run": lambda: api.compare({"a": RUN}, QRELS, unjudged="zero"),
        "a baseline not compared": lambda: api.compare({"a": RUN, "b": RUN}, QRELS, baseline="c", unjudged="zero"),
        "ties for a stored run": lambda: project.score("x", ties="docid-asc"),
        "order for a stored run": lambda: project.score("x", order="rank"),
        "ties for stored runs compared": lambda: project.compare(["x", "y"], ties="docid-asc"),
        "another scale than the version's": lambda: project.compare(["x", "y"], scale="0..4", unjudged="zero"),
        "a version that is not there": lambda: project.score("x", version=7, unjudged="zero"),
        "a run that is not stored": lambda: project.score("z", unjudged="zero"),
        "a bad choice": lambda: api.score(RUN, QRELS, unjudged="send"),
        "an unknown choice": lambda: api.score(RUN, QRELS, unjudge="zero"),
        "a bad test": lambda: api.compare({"a": RUN, "b": RUN}, QRELS, test="z", unjudged="zero"),
        "a bad order": lambda: api.score(RUN, QRELS, order="random"),
        "an order for a dict": lambda: api.score(RUN, QRELS, order="rank"),
        "a missing file": lambda: api.score(run, str(cranfield / "missing.txt")),
    }
    said: dict[str, str] = {}
    for name, call in calls.items():
        try:
            call()
        except api.Refused as refused:
            said[name] = str(refused)
    assert set(said) == set(calls)  # each one refused
    return said


def test_no_refusal_raised_through_the_api_names_a_command_line_option(data_dir, two_versions):
    with api.open_project(two_versions) as project:
        said = _refusals_reachable(data_dir, project)
    flagged = {name: message for name, message in said.items() if FLAG.search(message)}
    assert flagged == {}
    # and the advice names the keyword to type instead
    assert said["unjudged"].endswith('; choose unjudged="zero" or unjudged="condense"')
    assert said["unjudged in a project"].endswith('; choose unjudged="zero" or unjudged="condense"')
    assert said["duplicates"].endswith('; choose duplicates="first"')
    assert said["unknown queries"].endswith('; choose unknown_queries="ignore"')
    assert said["grade outside the scale"].endswith('; choose the judgments\' scale with scale="LO..HI"')
    assert said["two runs of one name"].endswith("give each its own name: a dict of name -> run")
    assert said["k twice"] == "k names 5 twice"


def test_the_command_line_keeps_its_options_in_its_advice(data_dir, capsys):
    cranfield = data_dir / "cranfield"
    code, _out, err = cli(
        capsys, "score", "--qrels", str(cranfield / "qrels.txt"), "--run", str(cranfield / "bm25.run.gz")
    )
    assert code == 2 and err.rstrip("\n").endswith("; choose the judgments' scale with --scale LO..HI")


# ---------------------------------------------------------------- item 9: natural order of queries

NATURAL = ["q1", "q2", "q10", "q11"]
QRELS_TEXT = "".join(f"{q} 0 A 1\n{q} 0 B 0\n" for q in ("q10", "q2", "q11", "q1"))
RUN_TEXT = "".join(f"{q} Q0 A 1 2.0 t\n{q} Q0 B 2 1.0 t\n" for q in ("q11", "q1", "q10", "q2"))


def test_per_query_rows_come_in_natural_order_in_every_output(tmp_path, capsys):
    (tmp_path / "q.txt").write_text(QRELS_TEXT, encoding="utf-8")
    (tmp_path / "r.txt").write_text(RUN_TEXT, encoding="utf-8")
    base = ("score", "--qrels", str(tmp_path / "q.txt"), "--run", str(tmp_path / "r.txt"))
    code, out, _ = cli(capsys, *base, "--json")
    assert code == 0 and [row["query_id"] for row in json.loads(out)["queries"]] == NATURAL
    code, out, _ = cli(capsys, *base, "--export", str(tmp_path / "out"))
    listed = [line.split()[0] for line in out.splitlines()[2 : 2 + len(NATURAL)]]
    assert code == 0 and listed == NATURAL
    assert list(pd.read_csv(tmp_path / "out" / "per_query.csv")["query_id"]) == NATURAL
    assert list(api.score(tmp_path / "r.txt", tmp_path / "q.txt").per_query.index) == NATURAL
    several = api.score(tmp_path / "r.txt", tmp_path / "q.txt", k=[1, 2]).per_query
    assert list(several.index) == NATURAL * 2 and list(several["k"]) == [1] * 4 + [2] * 4
