"""The whole team loop from the command line (issue 15): three annotators, 20% overlap, work files graded by a
test driver, merged, adjudicated, frozen, scored; merging again changes nothing."""

from __future__ import annotations

import json

import krippendorff
import pandas as pd

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import ratings_hash
from ndcg_desktop.tasks.teams import read_work_file
from tests.store.conftest import dump  # one copy, shared with the store tests

ANNOTATORS = ("ana", "ben", "chen")
N_QUERIES, DOCS = 20, 6


def grade_of(annotator: str, query_id: str, doc_id: str) -> int:
    """The driver's annotators: each grades by the document number, chen one grade more generous up to 3."""
    base = int(doc_id[1:]) % 4
    return min(3, base + 1) if annotator == "chen" else base


def run(argv: list[str], capsys) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def test_three_annotators_from_assignment_to_a_scored_frozen_version(tmp_path, capsys):
    project = tmp_path / "team.ndcgproj"
    queries = tmp_path / "q.tsv"
    queries.write_text("".join(f"q{i}\tquery {i}\n" for i in range(N_QUERIES)))
    pool = [(f"q{i}", f"d{i + j}") for i in range(N_QUERIES) for j in range(DOCS)]
    run_file = tmp_path / "run.txt"
    run_file.write_text(
        "".join(f"{q} Q0 {d} {r} {10 - r} sys\n" for q, d, r in ((q, d, j % DOCS + 1) for j, (q, d) in enumerate(pool)))
    )
    run(["init", str(project)], capsys)
    run(["import-queries", str(project), str(queries)], capsys)
    run(["import-run", str(project), str(run_file), "--name", "sys"], capsys)
    run(["pool", str(project), "--depth", "10", "--runs", "sys"], capsys)

    out = run(
        [
            "assign",
            str(project),
            "--annotators",
            ",".join(ANNOTATORS),
            "--overlap",
            "0.2",
            "-o",
            str(tmp_path / "work"),
            "--seed",
            "5",
        ],
        capsys,
    )
    assert out.splitlines()[0] == "draft version 1: 20 queries, 4 of them for 2 annotators (seed 5)"
    files = [tmp_path / "work" / f"{a}.ndcgproj" for a in ANNOTATORS]
    for path, name in zip(files, ANNOTATORS, strict=True):  # the driver grades each work file
        _, items, _ = read_work_file(path)
        with Project.open(path) as work:
            for q, d in items[["query_id", "doc_id"]].itertuples(index=False):
                work.judgments.set_grade(q, d, grade_of(name, q, d), annotator=name)

    out = run(["merge", str(project), *map(str, files)], capsys)
    assert out.splitlines()[-1].startswith(f"draft version 1: {(N_QUERIES + 4) * DOCS} new ratings, 0 changed")
    merged = dump(project)
    out = run(["merge", str(project), *map(str, files)], capsys)
    assert f"0 new ratings, 0 changed, {(N_QUERIES + 4) * DOCS} unchanged" in out
    assert dump(project) == merged  # re-merging changes nothing

    with Project.open(project, read_only=True) as p:
        ratings = p.ratings.verified(1)
    per_item = ratings.groupby(["query_id", "doc_id"])["grade"].agg(list)
    differing = per_item[per_item.map(lambda g: min(g) != max(g))]
    assert len(differing) > 0  # chen shares queries with ana or ben and grades differently
    assert main(["freeze", str(project)]) == 2
    assert f"{len(differing)} items that annotators rated differently" in capsys.readouterr().err

    out = run(["adjudicate", str(project)], capsys)
    assert (
        out.splitlines()[0] == f"draft version 1: {len(differing)} items rated differently, {len(differing)} still open"
    )
    out = run(["adjudicate", str(project), "--rule", "median"], capsys)
    assert out == f"{len(differing)} items settled by the rule 'median', 0 left to pick\n"

    out = run(["freeze", str(project)], capsys).splitlines()
    assert out[0] == "froze pool version 1"
    expected_names = sorted(ANNOTATORS)
    lines = {line.split(":")[0].split()[1]: line for line in out if line.startswith("annotator ")}
    assert sorted(lines) == expected_names
    for name in expected_names:
        theirs = ratings[ratings["annotator"] == name]
        assert lines[name] == (
            f"annotator {name}: {len(theirs)} ratings (SHA-256 of them: {ratings_hash(theirs, GradeScale(0, 3), name)})"
        )
    assert out[-2] == f"adjudicated {len(differing)} by median"
    assert out[-1].startswith("sha256 ")

    # the consensus, computed here: one rating or agreement gives the grade, a difference the lower median
    consensus = per_item.map(lambda g: sorted(g)[(len(g) - 1) // 2]).rename("grade").reset_index()
    qrels = tmp_path / "consensus.qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in consensus.itertuples(index=False)))
    from_project = json.loads(run(["score", "--project", str(project), "--run-name", "sys", "--json"], capsys))
    text = run(["score", "--project", str(project), "--run-name", "sys"], capsys).splitlines()
    # the agreement on the items rated twice, by the krippendorff package from the annotators x items matrix
    shared = per_item[per_item.map(len) >= 2]
    matrix = ratings.pivot(index="annotator", columns=["query_id", "doc_id"], values="grade")[shared.index]
    alpha = krippendorff.alpha(matrix.to_numpy(float), level_of_measurement="ordinal", value_domain=[0, 1, 2, 3])
    assert (
        f"judges     3 annotators (ana, ben, chen); adjudicated {len(differing)} by median; "
        f"the people's Krippendorff's alpha (ordinal) {alpha:.4f} on {len(shared)} items rated by two or more"
    ) in text
    from_files = json.loads(run(["score", "--qrels", str(qrels), "--run", str(run_file), "--json"], capsys))
    assert from_project["summary"]["mean_ndcg"] == from_files["summary"]["mean_ndcg"]
    assert from_project["manifest"]["judgments"]["adjudication"] == {"median": len(differing)}
    assert sorted(from_project["manifest"]["judgments"]["annotators"]) == expected_names
    assert (
        pd.DataFrame(from_project["queries"])["ndcg"].tolist() == pd.DataFrame(from_files["queries"])["ndcg"].tolist()
    )
