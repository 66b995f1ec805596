"""The built-in demo project: what it contains, the teaching example's score, and the user's copy."""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path

import platformdirs
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.demo import DATA_DIR_VARIABLE, build_demo, demo_path, ensure_demo
from ndcg_desktop.scoring.ranking import top_documents
from ndcg_desktop.store import Project, ProjectInUse
from ndcg_desktop.tasks.status import project_counts


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "demo.ndcgproj")


def test_contents(demo):
    with Project.open(demo, read_only=True) as project:
        assert project_counts(project)["queries"] == 13
        assert project.texts.query("t1")["text"].startswith("teaching example")
        assert all(project.texts.query(f"q{i}")["text"] for i in range(1, 13))
        assert (str(project.scale), project.labels) == (
            "0..3",
            ["Not relevant", "Related", "Highly relevant", "Perfect"],
        )

        v1, v2 = project.pools.versions()
        assert (v1.version, v1.state, v2.version, v2.state, v2.parent) == (1, "frozen", 2, "draft", 1)
        assert v1.hash and len(v1.hash) == 64 and v2.hash is None

        first, second = project.pools.pool_items(1), project.pools.pool_items(2)
        assert first["grade"].notna().all() and set(first["query_id"]) == {*(f"q{i}" for i in range(1, 13)), "t1"}
        assert second["grade"].notna().any() and second["grade"].isna().any()
        assert len(second) > len(first)
        added = second.merge(first[["query_id", "doc_id"]], how="left", indicator=True)
        added = added[added["_merge"] == "left_only"]
        assert added["grade"].notna().any() and added["grade"].isna().any()  # the draft is partly graded
        teaching = first[first["query_id"] == "t1"].set_index("doc_id")["grade"].to_dict()
        assert teaching == {"A": 3, "B": 2, "C": 1, "D": 0}

        for doc_id in set(first["doc_id"]) | set(second["doc_id"]):
            doc = project.texts.document(doc_id)
            assert doc and doc["title"] and doc["text"], doc_id
        assert (second["note"].fillna("") != "").sum() >= 2

        assert [r.name for r in project.runs.all()] == ["bm25", "dense"]
        for name in ("bm25", "dense"):
            run, info = project.runs.load_run(name)
            assert info.queries == 13
            returned = set(run.docs.to_pylist())
            assert all(project.texts.document(d) for d in returned), name
            assert returned - set(first["doc_id"]), f"{name} returns no document outside the frozen pool"


def test_data_files_are_well_formed():
    data = resources.files("ndcg_desktop.demo")
    docs = [json.loads(line) for line in (data / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len({d["doc_id"] for d in docs}) == len(docs)
    for d in docs:
        assert d["title"] and 60 <= len(d["text"].split()) <= 150, d["doc_id"]
    for name in ("bm25", "dense"):
        rows = [line.split() for line in (data / f"{name}.run").read_text().splitlines()]
        assert all(len(r) == 6 and r[1] == "Q0" and r[5] == name for r in rows)
        by_query: dict[str, list[float]] = {}
        for r in rows:
            by_query.setdefault(r[0], []).append(float(r[4]))
        assert len(by_query) == 13
        assert all(scores == sorted(scores, reverse=True) for scores in by_query.values())
        assert any(len(set(s)) < len(s) for s in by_query.values()), f"{name} has no tie"


def _ranking(project: Project, name: str, query_id: str) -> list[str]:
    run, info = project.runs.load_run(name)
    top = top_documents(run, 100, ties=info.reading.ties, id_map=info.reading.id_map)
    return top[top["query_id"] == query_id].sort_values("rank")["doc_id"].tolist()


def test_teaching_example_scores_as_in_rule_1(demo, capsys):
    with Project.open(demo, read_only=True) as project:
        rankings = {name: _ranking(project, name, "t1") for name in ("bm25", "dense")}
    teaching = [name for name, ranking in rankings.items() if ranking == ["B", "C"]]
    assert teaching, rankings
    args = ["score", "--project", str(demo), "--run-name", teaching[0], "--unjudged", "zero", "--pool-version", "1"]
    assert main([*args, "--k", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    t1 = next(q for q in doc["queries"] if q["query_id"] == "t1")
    assert round(t1["dcg"], 6) == 2.630930 and round(t1["idcg"], 6) == 4.261860
    assert round(t1["ndcg"], 6) == 0.617320 and t1["ndcg"] == pytest.approx(2.630930 / 4.261860, abs=1e-6)
    assert t1["candidate_ndcg"] == 1.0
    assert doc["summary"]["queries_total"] == 13 and doc["manifest"]["judgments"]["pool_version"] == 1
    assert doc["summary"]["unjudged_total"] > 0
    # without a policy the unjudged documents are refused, as the contract says
    assert main([*args[:5], "--pool-version", "1"]) == 2
    assert "choose --unjudged" in capsys.readouterr().err


def test_same_frozen_hash_wherever_it_is_built(demo, tmp_path):
    other = build_demo(tmp_path / "elsewhere.ndcgproj", user="someone else")
    with Project.open(demo, read_only=True) as a, Project.open(other, read_only=True) as b:
        assert a.pools.version(1).hash == b.pools.version(1).hash


def test_demo_path_honours_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    assert demo_path() == tmp_path / "data" / "demo.ndcgproj"
    monkeypatch.delenv(DATA_DIR_VARIABLE)
    assert demo_path() == platformdirs.user_data_path("ndcg-desktop") / "demo.ndcgproj"


def test_ensure_demo_builds_once_keeps_edits_and_rebuilds_on_request(monkeypatch, tmp_path):
    folder = tmp_path / "data" / "nested"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    path = ensure_demo()
    assert path == folder / "demo.ndcgproj" and path.is_file()

    with Project.open(path) as project:
        project.judgments.set_grade("q1", "d107", 3, annotator="someone else")
    assert ensure_demo() == path
    with Project.open(path, read_only=True) as project:
        assert project.pools.pool_items(2, "q1").set_index("doc_id")["grade"]["d107"] == 3

    with Project.open(path), pytest.raises(ProjectInUse):
        ensure_demo(force=True)

    assert ensure_demo(force=True) == path
    assert sorted(os.listdir(folder)) == [
        "demo.ndcgproj"
    ]  # no build leftovers (and no lock file: the lock is on the file)
    with Project.open(path, read_only=True) as project:
        assert project.pools.pool_items(2, "q1").set_index("doc_id")["grade"].isna()["d107"]


def test_the_demo_has_topics_and_guidelines(demo):
    """A new user sees issue 14's topics and guidelines: every query has a description and a narrative."""
    data = resources.files("ndcg_desktop.demo")
    guidelines = (data / "guidelines.md").read_text(encoding="utf-8")
    with Project.open(demo, read_only=True) as project:
        for query_id in [*(f"q{i}" for i in range(1, 13)), "t1"]:
            topic = project.texts.query(query_id)
            assert topic["title"] and topic["description"] and topic["narrative"], query_id
        assert project.texts.query("q2")["title"] == "cheapest way to get from Lisbon airport to the city centre"
        current = project.texts.guidelines()
        assert current is not None and current.text == guidelines and current.source == "file:guidelines.md"
        digest = hashlib.sha256(guidelines.encode("utf-8")).hexdigest()
        assert current.sha256 == digest
        assert project.pools.version(1).guidelines_sha256 == digest  # frozen under them: manifests name them
