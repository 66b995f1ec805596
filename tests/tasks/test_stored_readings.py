"""A stored run keeps the reading it was imported with (order, tie policy, ID map), on every path that scores stored
runs: a value equal to each run's stored reading changes nothing and is accepted; another is refused naming the run,
what it was imported with and the remedy, in the words ``score --project`` has always used
(tasks.scoring.check_readings, the one check every front calls)."""

from __future__ import annotations

import json

import pytest

from ndcg_desktop import api
from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import TiePolicy
from ndcg_desktop.store import Project
from tests.conftest import RUN_Y

REFUSED = "run {run} was imported {stored}; import it again under {name} with {asked} to score it that way"
CLI, PYTHON = "another --name", "another name"  # its own name is taken


@pytest.fixture
def project(two_versions, write):
    """x and y as two_versions stores them (ordered by score, ties docid-desc, no ID map), and z: y's lines read
    with ties docid-asc."""
    with Project.open(two_versions) as p:
        p.runs.import_run(write("z.txt", RUN_Y), name="z", ties=TiePolicy.DOCID_ASC, annotator="bob")
    return str(two_versions)


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.strip()


def _without_time(doc: object) -> object:
    """``doc`` without the moments it was made (``created``), wherever they are."""
    if isinstance(doc, dict):
        return {key: _without_time(value) for key, value in doc.items() if key != "created"}
    if isinstance(doc, list):
        return [_without_time(value) for value in doc]
    return doc


@pytest.mark.parametrize(
    "reading", [["--ties", "docid-desc"], ["--order", "score"], ["--ties", "docid-desc", "--order", "score"]]
)
def test_compare_project_accepts_the_reading_every_run_was_imported_with(project, capsys, reading):
    argv = ["compare", "--project", project, "--run-names", "x", "y", "--unjudged", "zero", "--json"]
    code, plain_out, plain_err = _run(capsys, *argv)
    assert code == 0
    code, out, err = _run(capsys, *argv, *reading)
    assert (code, err) == (0, plain_err)  # the warnings of two queries only, and no refusal
    assert _without_time(json.loads(out)) == _without_time(json.loads(plain_out))  # it changes nothing


@pytest.mark.parametrize(
    ("reading", "run", "stored", "asked"),
    [
        (["--ties", "docid-desc"], "z", "with --ties docid-asc", "--ties docid-desc"),
        (["--ties", "docid-asc"], "x", "with --ties docid-desc", "--ties docid-asc"),
        (["--order", "rank"], "x", "with --order score", "--order rank"),
        (["--id-map", "#"], "x", "without an ID map", "--id-map '#'"),  # pasted into a shell, # is no comment
    ],
)
def test_compare_project_refuses_another_reading_naming_the_run(project, capsys, reading, run, stored, asked):
    argv = ["compare", "--project", project, "--run-names", "x", "z", "--unjudged", "zero", *reading]
    code, _, err = _run(capsys, *argv)
    assert (code, err) == (2, "error: " + REFUSED.format(run=run, stored=stored, asked=asked, name=CLI))


@pytest.mark.parametrize("command", ["simulate-pooling", "reusability"])
def test_pool_studies_from_a_project_take_the_stored_reading_and_refuse_another(project, capsys, command):
    argv = [command, "--project", project, "--run-names", "x", "y", "--depth", "2", "--json"]
    code, plain_out, _ = _run(capsys, *argv)
    assert code == 0
    code, out, err = _run(capsys, *argv, "--ties", "docid-desc", "--order", "score")
    assert (code, err) == (0, "")
    assert json.loads(out).keys() == json.loads(plain_out).keys()
    code, _, err = _run(capsys, *argv, "--ties", "docid-asc")
    assert (code, err) == (
        2,
        "error: " + REFUSED.format(run="x", stored="with --ties docid-desc", asked="--ties docid-asc", name=CLI),
    )


def test_diff_pools_takes_the_stored_reading_of_every_run_and_refuses_another(two_versions, capsys):
    path = str(two_versions)
    code, plain_out, _ = _run(capsys, "diff-pools", path, "1", "2", "--k", "2", "--json")
    assert code == 0
    code, out, err = _run(capsys, "diff-pools", path, "1", "2", "--k", "2", "--json", "--ties", "docid-desc")
    assert (code, err) == (0, "")
    assert json.loads(out)["runs"] == json.loads(plain_out)["runs"]
    code, _, err = _run(capsys, "diff-pools", path, "1", "2", "--order", "rank")
    assert (code, err) == (
        2,
        "error: " + REFUSED.format(run="x", stored="with --order score", asked="--order rank", name=CLI),
    )
    code, _, err = _run(capsys, "diff-pools", path, "1", "2", "--scale", "0..3")  # not a reading: as before
    assert (code, err) == (2, "error: --scale does not apply here: stored runs keep their reading")


def test_the_api_scores_a_stored_run_with_its_own_reading_and_refuses_another_in_keywords(project):
    with api.open_project(project) as p:
        plain = p.score("x", unjudged="zero")
        same = p.score("x", unjudged="zero", ties="docid-desc", order="score")
        assert same.means == plain.means and same.settings == plain.settings
        refusals = [
            ({"ties": "docid-asc"}, 'with ties="docid-desc"', 'ties="docid-asc"'),
            ({"order": "rank"}, 'with order="score"', 'order="rank"'),
            ({"id_map": "#"}, "without an ID map", 'id_map="#"'),
        ]
        for given, stored, asked in refusals:
            with pytest.raises(api.Refused) as refused:
                p.score("x", unjudged="zero", **given)
            assert str(refused.value) == REFUSED.format(run="x", stored=stored, asked=asked, name=PYTHON)


def test_the_api_compares_stored_runs_with_their_own_reading_and_refuses_another_naming_the_run(project):
    with api.open_project(project) as p:
        plain = p.compare(["x", "y"], unjudged="zero", resamples=200)
        same = p.compare(["x", "y"], unjudged="zero", resamples=200, ties="docid-desc", order="score")
        assert same.runs.equals(plain.runs) and same.settings_line == plain.settings_line
        with pytest.raises(api.Refused) as refused:
            p.compare(["x", "z"], unjudged="zero", ties="docid-desc")
        assert str(refused.value) == REFUSED.format(
            run="z", stored='with ties="docid-asc"', asked='ties="docid-desc"', name=PYTHON
        )
        with pytest.raises(api.Refused) as refused:
            p.compare(["x", "y"], unjudged="zero", id_map="#")
        assert str(refused.value) == REFUSED.format(
            run="x", stored="without an ID map", asked='id_map="#"', name=PYTHON
        )
