"""`ndcg assign`, `ndcg merge`, `ndcg import-qrels --annotator` (issue 15): one line per problem, exit 2."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.teams import ratings_table, read_work_file
from tests.store.conftest import dump


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="coord") as p:
        pairs = [(f"q{i}", f"d{k}") for i in range(5) for k in range(4)]
        p.judgments.add_items(pd.DataFrame(pairs, columns=["query_id", "doc_id"]), annotator="coord")
    return path


def test_assign_then_merge_from_the_command_line(project, tmp_path, capsys):
    out_dir = tmp_path / "work"
    argv = ["assign", str(project), "--annotators", "ana,ben", "--overlap", "0.4", "--seed", "7", "-o", str(out_dir)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    # 5 queries, round(0.4 * 5) = 2 shared: 7 query assignments of 4 items, balanced 4 and 3
    assert out[0] == "draft version 1: 5 queries, 2 of them for 2 annotators (seed 7)"
    assert sorted(line.split(" -> ")[0] for line in out[1:]) == [
        "  ana: 4 queries, 16 items",
        "  ben: 3 queries, 12 items",
    ]
    files = [out_dir / "ana.ndcgproj", out_dir / "ben.ndcgproj"]
    for path, grade in zip(files, (1, 2), strict=True):
        _, items, _ = read_work_file(path)
        with Project.open(path) as work:
            for q, d in items[["query_id", "doc_id"]].itertuples(index=False):
                work.judgments.set_grade(q, d, grade, annotator=path.stem)
    assert main(["merge", str(project), *map(str, files)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (
        "draft version 1: 28 new ratings, 0 changed, 0 unchanged; 8 items rated differently wait for adjudication"
    )
    assert main(["merge", str(project), *map(str, files)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "draft version 1: 0 new ratings, 0 changed, 28 unchanged; 8 items rated differently wait for adjudication"
    )


def test_assign_refuses_a_name_that_cannot_name_a_file(project, tmp_path, capsys):
    assert main(["assign", str(project), "--annotators", "ana,../ben", "-o", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "annotator name '../ben' cannot name a work file" in err
    assert not (tmp_path / "w").exists()


def test_import_qrels_with_an_annotator_adds_ratings(project, tmp_path, capsys):
    qrels = tmp_path / "dan.txt"
    qrels.write_text("q1 0 d0 2\nq1 0 d1 0\n")
    assert main(["import-qrels", str(project), str(qrels), "--annotator", "dan"]) == 0
    assert "dan: 2 new ratings" in capsys.readouterr().out
    with Project.open(project, read_only=True) as p:
        assert ratings_table(p).values.tolist() == [["q1", "d0", "dan", 2], ["q1", "d1", "dan", 0]]
    qrels.write_text("q1 0 d0 2\nq9 0 d1 0\n")  # dan again: refused, unless his ratings are to be replaced
    before = dump(project)
    assert main(["import-qrels", str(project), str(qrels), "--annotator", "dan"]) == 2
    assert capsys.readouterr().err == (
        f"error: {project}: dan already has 2 ratings in draft version 1; import this file under another name, or "
        "replace dan's ratings with it; ndcg import-qrels PROJECT FILE --annotator NAME --replace\n"
    )
    assert dump(project) == before
    assert main(["import-qrels", str(project), str(qrels), "--annotator", "dan", "--replace"]) == 0
    assert "dan: 1 new rating, 0 changed, 1 unchanged, 1 removed" in capsys.readouterr().out
    with Project.open(project, read_only=True) as p:
        assert ratings_table(p).values.tolist() == [["q1", "d0", "dan", 2], ["q9", "d1", "dan", 0]]


def test_merging_a_file_that_is_not_work_names_it(project, tmp_path, capsys):
    other = tmp_path / "other.ndcgproj"
    Project.create(other, annotator="x").close()
    assert main(["merge", str(project), str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(other) in err
