"""The Python API (issue 23, item 6): the command line's figures, manifests and refusals, for files and DataFrames.

Every expectation is the command line's own output on the same real data (tests/data/cranfield), read from
``ndcg score --json`` / ``ndcg compare --json`` in the same test.
"""

from __future__ import annotations

import doctest
import hashlib
import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop import api
from ndcg_desktop.cli.main import main
from tests.conftest import RUN_X, TWO_VERSIONS_QRELS

REPO = Path(__file__).resolve().parents[1]
FILE_FIELDS = ("path", "sha256", "format", "reading")  # what names a source: the file, or the DataFrame


def plain(value):
    """JSON's view of a value: numpy scalars as Python's, NaN as None (as the CLI's JSON prints them)."""
    return json.loads(json.dumps(value, default=lambda v: v.item(), allow_nan=True), parse_constant=lambda _: None)


def records(frame: pd.DataFrame) -> list:
    return plain(frame.to_dict("records"))  # as the CLI's JSON lists a table: NaN as null


def without(manifest: dict, *keys: str) -> dict:
    out = {k: v for k, v in manifest.items() if k != "created"}
    for key in keys:
        out[key] = {k: v for k, v in out[key].items() if k not in FILE_FIELDS}
    return out


def cli(capsys, *args: str) -> tuple[int, dict | str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else err)


def trec_qrels(path: Path, names: tuple[str, str, str]) -> pd.DataFrame:
    frame = pd.read_csv(path, sep=" ", header=None, names=["q", "iteration", "d", "g"], dtype={"q": str, "d": str})
    return frame.drop(columns="iteration").set_axis(list(names), axis=1)


def trec_run(path: Path, names: tuple[str, str]) -> pd.DataFrame:
    columns = ["q", "Q0", "d", "rank", "score", "tag"]
    frame = pd.read_csv(path, sep=" ", header=None, names=columns, dtype={"q": str, "d": str})
    return frame[["q", "d", "rank", "score"]].rename(columns={"q": names[0], "d": names[1]})


# The advice of each refusal the API can meet, as the command line words it and as the API does (issue 36 item 4)
IN_API_WORDS = {
    "choose --unjudged zero|condense": 'choose unjudged="zero" or unjudged="condense"',
    "choose --duplicates first": 'choose duplicates="first"',
    "choose --unknown-queries ignore": 'choose unknown_queries="ignore"',
    "choose the judgments' scale with --scale LO..HI": 'choose the judgments\' scale with scale="LO..HI"',
}


def in_api_words(message: str) -> str:
    for flags, keywords in IN_API_WORDS.items():
        message = message.replace(flags, keywords)
    return message


OURS = (("query_id", "doc_id", "relevance"), ("query_id", "doc_id"))
PYTERRIER = (("qid", "docno", "label"), ("qid", "docno"))


@pytest.fixture
def cranfield(data_dir, monkeypatch):
    monkeypatch.chdir(data_dir / "cranfield")  # manifests name the files as given
    return data_dir / "cranfield"


def test_score_on_files_is_ndcg_score_json(cranfield, capsys):
    code, expected = cli(
        capsys,
        "score",
        "--qrels",
        "qrels.txt",
        "--run",
        "bm25.run.gz",
        "--scale",
        "0..4",
        "--unjudged",
        "zero",
        "--json",
    )
    assert code == 0
    result = api.score("bm25.run.gz", "qrels.txt", scale="0..4", unjudged="zero")
    assert result.mean == expected["summary"]["mean_ndcg"] and round(result.mean, 4) == 0.5105  # trec_eval's
    assert plain(result.summary) == expected["summary"]
    assert records(result.per_query.reset_index()) == expected["queries"]
    assert result.per_query.index.name == "query_id" and "ndcg" in result.per_query
    assert without(result.manifest) == without(expected["manifest"])


@pytest.mark.parametrize("names", [OURS, PYTERRIER], ids=["ours", "pyterrier"])
def test_score_on_dataframes_is_ndcg_score_json(cranfield, capsys, names):
    code, expected = cli(
        capsys,
        "score",
        "--qrels",
        "qrels.txt",
        "--run",
        "tfidf.run.gz",
        "--scale",
        "0..4",
        "--unjudged",
        "condense",
        "--k",
        "5",
        "--json",
    )
    assert code == 0
    qrels, run = trec_qrels(cranfield / "qrels.txt", names[0]), trec_run(cranfield / "tfidf.run.gz", names[1])
    result = api.score(run, qrels, k=5, scale="0..4", unjudged="condense")
    assert plain(result.summary) == expected["summary"]
    assert records(result.per_query.reset_index()) == expected["queries"]
    assert without(result.manifest, "judgments", "run") == without(expected["manifest"], "judgments", "run")
    assert result.manifest["run"]["path"] == "<run DataFrame>"
    assert result.manifest["judgments"]["path"] == "<qrels DataFrame>"
    assert result.manifest["run"]["format"] == result.manifest["judgments"]["format"] == "dataframe"


def test_a_dataframes_hash_is_its_content_whatever_its_column_names(cranfield):
    hashes = set()
    for names in (OURS, PYTERRIER):
        qrels, run = trec_qrels(cranfield / "qrels.txt", names[0]), trec_run(cranfield / "bm25.run.gz", names[1])
        manifest = api.score(run, qrels, scale="0..4", unjudged="zero").manifest
        hashes.add((manifest["judgments"]["sha256"], manifest["run"]["sha256"]))
    assert len(hashes) == 1


@pytest.mark.parametrize("names", [None, OURS, PYTERRIER], ids=["files", "ours", "pyterrier"])
def test_a_refusal_carries_the_message_the_command_line_prints(cranfield, capsys, names):
    """The same sentence, its advice in the API's keywords instead of the command line's options (issue 36 item 4)."""
    code, err = cli(capsys, "score", "--qrels", "qrels.txt", "--run", "bm25.run.gz", "--scale", "0..4")
    assert code == 2 and err.startswith("error: bm25.run.gz:5: document 878 for query 1 is not in the judgment pool")
    assert err.endswith("; choose --unjudged zero|condense\n")
    message = (
        err.removeprefix("error: ")
        .rstrip("\n")
        .replace("choose --unjudged zero|condense", 'choose unjudged="zero" or unjudged="condense"')
    )
    if names is None:
        run, qrels = "bm25.run.gz", "qrels.txt"
    else:  # row 5 of the frame is line 5 of the file
        run, qrels = trec_run(cranfield / "bm25.run.gz", names[1]), trec_qrels(cranfield / "qrels.txt", names[0])
        message = message.replace("bm25.run.gz:", "<run DataFrame>:", 1)
    with pytest.raises(api.Refused) as refused:
        api.score(run, qrels, scale="0..4")
    assert str(refused.value) == message and isinstance(refused.value, ValueError)
    assert refused.value.line == 5


def test_compare_on_files_is_ndcg_compare_json(cranfield, capsys):
    code, expected = cli(
        capsys,
        "compare",
        "--qrels",
        "qrels.txt",
        "--runs",
        "bm25.run.gz",
        "tfidf.run.gz",
        "--scale",
        "0..4",
        "--unjudged",
        "zero",
        "--k",
        "5,10",
        "--resamples",
        "500",
        "--json",
    )
    assert code == 0
    result = api.compare(
        ["bm25.run.gz", "tfidf.run.gz"], "qrels.txt", k=[5, 10], scale="0..4", unjudged="zero", resamples=500
    )
    assert records(result.runs) == expected["runs"] and records(result.pairs) == expected["pairs"]
    assert without(result.manifest) == without(expected["manifest"])
    assert result.settings_line == expected["manifest"]["settings_line"]


@pytest.mark.parametrize("names", [OURS, PYTERRIER], ids=["ours", "pyterrier"])
def test_compare_on_dataframes_is_ndcg_compare_json(cranfield, capsys, names):
    code, expected = cli(
        capsys,
        "compare",
        "--qrels",
        "qrels.txt",
        "--runs",
        "bm25.run.gz",
        "tfidf.run.gz",
        "--scale",
        "0..4",
        "--unjudged",
        "zero",
        "--resamples",
        "500",
        "--test",
        "wilcoxon",
        "--json",
    )
    assert code == 0
    runs = {name: trec_run(cranfield / f"{name}.run.gz", names[1]) for name in ("bm25", "tfidf")}
    result = api.compare(
        runs,
        trec_qrels(cranfield / "qrels.txt", names[0]),
        k="10",
        scale="0..4",
        unjudged="zero",
        resamples=500,
        test="wilcoxon",
    )
    assert records(result.runs) == expected["runs"] and records(result.pairs) == expected["pairs"]
    assert result.settings_line == expected["manifest"]["settings_line"]


def test_compare_refuses_as_the_command_line_does(cranfield, capsys):
    code, err = cli(
        capsys, "compare", "--qrels", "qrels.txt", "--runs", "bm25.run.gz", "tfidf.run.gz", "--scale", "0..4"
    )
    assert code == 2
    with pytest.raises(api.Refused) as refused:
        api.compare(["bm25.run.gz", "tfidf.run.gz"], "qrels.txt", scale="0..4")
    said = err.removeprefix("error: ").rstrip("\n")
    assert said.endswith("; choose --unjudged zero|condense")
    assert str(refused.value) == said.replace("--unjudged zero|condense", 'unjudged="zero" or unjudged="condense"')


# Each row: judgments and a run, one cell wrong; the frame is refused exactly as the same rows in a CSV file.
GOOD_QRELS = {"query_id": ["q1", "q1", "q2"], "doc_id": ["A", "B", "C"], "grade": [3, 1, 2]}
GOOD_RUN = {"query_id": ["q1", "q1", "q2"], "doc_id": ["A", "B", "C"], "score": [2.0, 1.0, 1.0]}
BAD_INPUTS = {
    "zero-width in a document ID": ("qrels", "doc_id", 1, "B\u200b"),
    "space inside a query ID": ("qrels", "query_id", 2, "q 2"),
    "empty document ID": ("qrels", "doc_id", 0, ""),
    "grade off the scale": ("qrels", "grade", 2, 9),
    "grade not whole": ("qrels", "grade", 1, "2.5"),
    "grade not a number": ("qrels", "grade", 0, "high"),
    "BOM in a run's document ID": ("run", "doc_id", 1, "\ufeffB"),
    "score not a number": ("run", "score", 2, "abc"),
    "score infinite": ("run", "score", 0, "inf"),
    "document twice for a query (rule 5)": ("run", "doc_id", 1, "A"),
    "unjudged document (rule 6)": ("run", "doc_id", 2, "Z"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_a_dataframe_is_refused_as_the_same_rows_in_a_file(case, tmp_path, capsys):
    which, column, row, value = BAD_INPUTS[case]
    frames = {"qrels": pd.DataFrame(GOOD_QRELS), "run": pd.DataFrame(GOOD_RUN)}
    bad = frames[which]
    bad[column] = bad[column].astype(object)
    bad.loc[row, column] = value
    paths = {}
    for name, frame in frames.items():
        paths[name] = tmp_path / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    code, err = cli(capsys, "score", "--qrels", str(paths["qrels"]), "--run", str(paths["run"]))
    assert code == 2
    prefix = f"error: {paths[which]}:{row + 2}: "  # the header is line 1: row r of the frame is line r + 2
    assert err.startswith(prefix), err
    said = re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) - 1}", err.removeprefix(prefix).rstrip("\n"))
    expected = in_api_words(f"<{which} DataFrame>:{row + 1}: {said}")  # a line named inside is a row too
    with pytest.raises(api.Refused) as refused:
        api.score(frames["run"], frames["qrels"])
    assert str(refused.value) == expected


def test_a_grade_column_of_whole_floats_reads_as_whole_grades():
    """pandas turns an integer column with a missing value into floats: 3.0 is the grade 3, NaN stays refused."""
    qrels = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["A", "B"], "label": [3.0, 1.0]})
    run = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["B", "A"], "score": [2.0, 1.0]})
    expected = (1 / math.log2(2) + 3 / math.log2(3)) / (3 / math.log2(2) + 1 / math.log2(3))
    assert api.score(run, qrels).mean == pytest.approx(expected, abs=1e-15)
    qrels.loc[1, "label"] = float("nan")
    with pytest.raises(api.Refused, match=r"^<qrels DataFrame>:2: grade"):
        api.score(run, qrels)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda q, r: api.score(r, q, unjudged="send"), "unjudged must be one of reject|zero|condense, not 'send'"),
        (lambda q, r: api.score(r, q, unjudge="zero"), "unknown choice 'unjudge'; the choices are gain, unjudged"),
        (lambda q, r: api.score(r, q, k=0), "the cutoff K must be a positive integer, not 0"),
        (lambda q, r: api.score(r, q.rename(columns={"grade": "x"})), "<qrels DataFrame>: needs the columns"),
        (lambda q, r: api.score(r.assign(qid=r["query_id"]), q), "<run DataFrame>: has both query_id and qid"),
        (lambda q, r: api.score(r.drop(columns="score"), q), "<run DataFrame>: needs the columns query_id, doc_id"),
        (lambda q, r: api.score(r.iloc[:0], q), "<run DataFrame>: has no rows"),
        (lambda q, r: api.score(r, 42), "judgments must be a file path, a pandas DataFrame or a dict of query -> "),
        (lambda q, r: api.compare([r, r], q), "name each DataFrame or dict run: give a dict of name -> run"),
        (lambda q, r: api.compare({"a": r, "b": r}, q, k="5,5"), "k names 5 twice"),
        (lambda q, r: api.compare({"a": r, "b": r}, q, test="z"), "test must be one of t|wilcoxon|randomization"),
        (lambda q, r: api.score(r, q, order="random"), "order must be one of score|rank|file, not 'random'"),
    ],
)
def test_bad_calls_are_refused_in_one_sentence(call, message):
    with pytest.raises(api.Refused) as refused:
        call(pd.DataFrame(GOOD_QRELS), pd.DataFrame(GOOD_RUN))
    assert str(refused.value).startswith(message)


def test_a_missing_file_is_refused_naming_it(tmp_path):
    with pytest.raises(api.Refused, match="missing.txt"):
        api.score(tmp_path / "run.txt", tmp_path / "missing.txt")


def test_open_project_reads_versions_judgments_runs_and_agreement_without_writing(two_versions, capsys):
    before = hashlib.sha256(two_versions.read_bytes()).hexdigest()
    with api.open_project(two_versions) as project:
        versions = project.versions()
        assert list(versions["version"]) == [1, 2] and list(versions["state"]) == ["frozen", "frozen"]
        assert list(versions["parent"].astype(object)) == [pd.NA, 1] and set(versions["scale"]) == {"0..3"}
        judged = project.judgments(1)
        lines = [line.split() for line in TWO_VERSIONS_QRELS.splitlines()]
        assert sorted(judged.itertuples(index=False, name=None)) == sorted((q, d, int(g)) for q, _, d, g in lines)
        assert project.judgments().equals(project.judgments(2)) and not project.judgments(2).equals(judged)  # latest
        assert list(project.runs()["name"]) == ["x", "y"]
        run = project.run("x")
        expected = [(q, d, float(s)) for q, _, d, _, s, _ in (line.split() for line in RUN_X.splitlines())]
        assert list(run[["query_id", "doc_id", "score"]].itertuples(index=False, name=None)) == expected
        scored = project.score("x", version=2, unjudged="zero")
        agreement = project.agreement(1, unjudged="zero")
        assert {"agreement", "pairs", "systems_means", "manifest"} <= set(agreement)
        assert agreement["manifest"]["pool_version"] == 1
        with pytest.raises(api.Refused, match='run x was imported with ties="docid-desc"'):  # not its own reading
            project.score("x", ties="docid-asc")
    assert hashlib.sha256(two_versions.read_bytes()).hexdigest() == before  # read-only: nothing recorded
    code, expected_json = cli(
        capsys,
        "score",
        "--project",
        str(two_versions),
        "--run-name",
        "x",
        "--pool-version",
        "2",
        "--unjudged",
        "zero",
        "--json",
    )
    assert code == 0 and plain(scored.summary) == expected_json["summary"]
    assert without(scored.manifest) == without(expected_json["manifest"])


def test_open_project_refuses_what_is_not_a_project(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello", encoding="utf-8")
    with pytest.raises(api.Refused, match="notes.txt"):
        api.open_project(path)


def test_the_readme_example_runs_as_shown(monkeypatch):
    monkeypatch.chdir(REPO)
    failures, tried = doctest.testfile(
        str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert tried >= 5 and failures == 0


def test_the_choices_listed_are_the_keywords_taken():
    from ndcg_desktop.domain.choices import CHOICES

    table = api.choices()
    assert list(table.index) == [choice.name for choice in CHOICES]
    for name, row in table.iterrows():
        assert row["default"] in row["values"] and row["option"] == "--" + name.replace("_", "-")
        for value in row["values"]:  # every value listed is taken as a keyword; another one is refused
            assert api.score(pd.DataFrame(GOOD_RUN), pd.DataFrame(GOOD_QRELS), **{name: value}).mean >= 0
        with pytest.raises(api.Refused, match=f"^{name} must be one of {'[|]'.join(row['values'])}, not 'x'$"):
            api.score(pd.DataFrame(GOOD_RUN), pd.DataFrame(GOOD_QRELS), **{name: "x"})


def test_an_empty_separator_is_refused_before_any_choice_as_it_always_was(data_dir, monkeypatch):
    """The policies and what the data owns became two values (issue 32); the order of the checks stayed."""
    monkeypatch.chdir(data_dir / "cranfield")
    with pytest.raises(api.Refused, match="the ID map separator must not be empty"):
        api.score("bm25.run.gz", "qrels.txt", scale="0..4", id_map="", unjudged="maybe")
    with pytest.raises(api.Refused, match="unjudged must be one of reject|zero|condense, not 'maybe'"):
        api.score("bm25.run.gz", "qrels.txt", scale="0..4", id_map="#", unjudged="maybe", ties="sideways")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda q, r: api.compare({"a": r, "b": r}, q, ci="x"), "ci must be one of bca|percentile, not 'x'"),
        (lambda q, r: api.score("", q), "run is an empty path, not a file"),
        (lambda q, r: api.score(r, ""), "qrels is an empty path, not a file"),
        (lambda q, r: api.score(r, q, id_map_file=""), "id_map_file is an empty path, not a file"),
        (lambda q, r: api.compare({"a": r, "b": ""}, q), "runs['b'] is an empty path, not a file"),
        (lambda q, r: api.compare([""], q), "runs[0] is an empty path, not a file"),
        (lambda q, r: api.open_project(""), "path is an empty path, not a file"),
    ],
)
def test_a_refusal_names_the_keyword_the_caller_used(call, message):
    """The new-user report, item 10: ``ci`` was refused as ``ci_method``, an empty path as ``: is a directory``."""
    with pytest.raises(api.Refused) as refused:
        call(pd.DataFrame(GOOD_QRELS), pd.DataFrame(GOOD_RUN))
    assert str(refused.value) == message


def test_an_unknown_keyword_is_refused_with_every_keyword_the_function_takes(tmp_path):
    run, qrels = pd.DataFrame(GOOD_RUN), pd.DataFrame(GOOD_QRELS)
    choices = "gain, unjudged, duplicates, zero_idcg, queries, unknown_queries, ties"
    with pytest.raises(api.Refused) as refused:
        api.score(run, qrels, bogus="1")
    assert str(refused.value) == (
        f"unknown choice 'bogus'; the choices are {choices}; score also takes run, qrels, k, scale, id_map, "
        "id_map_file, qrels_format, run_format, order"
    )
    with pytest.raises(api.Refused) as refused:
        api.compare({"a": run, "b": run}, qrels, bogus="1")
    assert str(refused.value).endswith(
        "; compare also takes runs, qrels, k, baseline, test, correction, alpha, resamples, seed, ci, detect, scale, "
        "id_map, id_map_file, qrels_format, run_format, order"
    )
