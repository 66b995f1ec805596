"""Judging as a team (issue 15): work files handed out (assign), graded elsewhere, merged back (merge),
a second assessor's qrels (import-qrels --annotator). Everything is checked before anything is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.blind import judging_order
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.importing import import_ratings
from ndcg_desktop.tasks.teams import (
    WORK_META,
    WorkOrigin,
    assign_work,
    merge_work,
    plan_assignment,
    ratings_table,
    read_work_file,
)
from tests.helpers import raw_sql as raw
from tests.store.conftest import dump  # one copy, shared with the store tests

N_QUERIES, PER_QUERY_ITEMS = 10, 5


@pytest.fixture
def team(tmp_path) -> Path:
    """A project whose draft holds 10 queries x 5 documents, ungraded, with texts; no run."""
    return make_team(tmp_path)


def make_team(tmp_path: Path) -> Path:
    """The project of the ``team`` fixture (shared with tests/tasks/test_work_files.py)."""
    (tmp_path / "q.tsv").write_text(
        "query_id\ttitle\tdescription\tnarrative\n"
        + "".join(f"q{i}\tquery number {i}\twhat q{i} is about\trelevant: q{i}\n" for i in range(N_QUERIES))
    )
    (tmp_path / "d.jsonl").write_text(
        "".join(f'{{"doc_id": "d{j}", "title": "title {j}", "text": "text of {j}"}}\n' for j in range(40))
    )
    path = tmp_path / "team.ndcgproj"
    with Project.create(path, annotator="coord") as project:
        project.texts.import_topics(tmp_path / "q.tsv")
        project.texts.import_documents(tmp_path / "d.jsonl")
        project.texts.set_guidelines("# Grade\n\n3 is perfect.\n", source="test", annotator="coord")
        pairs = [(f"q{i}", f"d{(3 * i + k) % 40}") for i in range(N_QUERIES) for k in range(PER_QUERY_ITEMS)]
        project.judgments.add_items(pd.DataFrame(pairs, columns=["query_id", "doc_id"]), annotator="coord")
    return path


def grade_all(path: Path, annotator: str, grade_of, *, limit: int | None = None) -> None:
    """The test driver: an annotator grades their work file (the first ``limit`` items only, if given)."""
    _, items, _ = read_work_file(path)
    with Project.open(path) as work:
        for n, (q, d) in enumerate(items[["query_id", "doc_id"]].itertuples(index=False)):
            if limit is not None and n >= limit:
                break
            work.judgments.set_grade(q, d, grade_of(annotator, q, d), annotator=annotator)


def test_plan_shares_the_overlap_fraction_and_balances_the_work():
    sizes = pd.Series({f"q{i}": 5 for i in range(10)})
    plan = plan_assignment(sizes, ["ana", "ben", "chen"], overlap=0.2, seed=3)
    per_query = plan.groupby("query_id").size()
    assert sorted(per_query.tolist()) == [1] * 8 + [2] * 2  # round(0.2 * 10) = 2 queries to two annotators
    assert plan.groupby("annotator").size().to_dict() == {"ana": 4, "ben": 4, "chen": 4}  # 12 = 8 + 2 * 2
    assert plan.equals(plan_assignment(sizes, ["ana", "ben", "chen"], overlap=0.2, seed=3))  # reproducible
    three = plan_assignment(sizes, ["ana", "ben", "chen"], overlap=0.5, per_query=3, seed=3)
    assert sorted(three.groupby("query_id").size().tolist()) == [1] * 5 + [3] * 5
    with pytest.raises(InputError, match="3 annotators per shared query need at least 3"):
        plan_assignment(sizes, ["ana", "ben"], overlap=0.5, per_query=3)
    with pytest.raises(InputError, match="distinct"):
        plan_assignment(sizes, ["ana", "ana"], overlap=0.5)


def test_a_work_file_is_a_project_holding_only_its_queries_ungraded_with_texts(team, tmp_path):
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben", "chen"], tmp_path / "work", overlap=0.2, seed=1)
        handed = project.ratings.assignments(1)
    assert sorted(done.files) == ["ana", "ben", "chen"]
    assert {p.name for p in (tmp_path / "work").iterdir()} == {"ana.ndcgproj", "ben.ndcgproj", "chen.ndcgproj"}
    for name, path in done.files.items():
        mine = sorted(done.plan.loc[done.plan["annotator"] == name, "query_id"])
        assert sorted(handed.loc[handed["annotator"] == name, "query_id"]) == mine
        with Project.open(path) as work:  # opens like any project
            origin = WorkOrigin.from_json(work.file.setting(WORK_META) or "", path)
            assert (origin.annotator, origin.base_version, origin.base_hash) == (name, 1, "")
            items = work.pools.pool_items(1)
            assert sorted(items["query_id"].unique()) == mine
            assert len(items) == PER_QUERY_ITEMS * len(mine) == done.items[name]
            assert items["grade"].isna().all() and items["annotator"].isna().all()
            assert work.ratings.verified(1).empty  # nobody's grades
            assert work.runs.all() == []
            assert work.judgments.judging_order() == "blind"
            q = mine[0]
            assert work.texts.query(q) == {
                "query_id": q,
                "text": f"query number {q[1:]}",
                "title": f"query number {q[1:]}",
                "description": f"what {q} is about",
                "narrative": f"relevant: {q}",
            }
            guidelines = work.texts.guidelines()
            assert guidelines is not None and guidelines.text == "# Grade\n\n3 is perfect.\n"
            d = items.loc[items["query_id"] == q, "doc_id"].iloc[0]
            assert work.texts.document(d) == {"doc_id": d, "title": f"title {d[1:]}", "text": f"text of {d[1:]}"}
            docs = items.loc[items["query_id"] == q, "doc_id"].tolist()
            assert judging_order(q, docs) == sorted(
                docs, key=lambda x: __import__("hashlib").sha256(f"{q}\x1f{x}".encode()).hexdigest()
            )
    assert sum(done.items.values()) == PER_QUERY_ITEMS * (N_QUERIES + 2)


def test_assign_refuses_before_writing_anything(team, tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "ben.ndcgproj").write_text("mine")
    before = dump(team)
    with Project.open(team) as project:
        with pytest.raises(InputError, match="ben.ndcgproj: already exists"):
            assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.2)
        with pytest.raises(InputError, match="annotator name"):
            assign_work(project, ["ana", "b\u200bn"], tmp_path / "other", overlap=0.2)
    assert dump(team) == before
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["ben.ndcgproj"]
    assert not (tmp_path / "other").exists()


def test_merging_adds_ratings_settles_agreement_and_is_idempotent(team, tmp_path):
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben", "chen"], tmp_path / "work", overlap=0.2, seed=1)
    # ana grades 1 everywhere, ben 1 except 3 on d-numbers divisible by 3, chen 2
    grades = {"ana": lambda q, d: 1, "ben": lambda q, d: 3 if int(d[1:]) % 3 == 0 else 1, "chen": lambda q, d: 2}
    for name, path in done.files.items():
        grade_all(path, name, lambda a, q, d: grades[a](q, d))
    with Project.open(team) as project:
        report = merge_work(project, list(done.files.values()), annotator="coord")
        table = ratings_table(project)
        expected = done.plan.merge(project.pools.pool_items(1)[["query_id", "doc_id"]], on="query_id")
        assert len(table) == len(expected) == sum(done.items.values())
        assert report.totals["new"] == len(expected)
        items = project.pools.pool_items(1).set_index(["query_id", "doc_id"])
        by_item = table.groupby(["query_id", "doc_id"])["grade"].agg(["min", "max", "count"])
        agree = by_item[by_item["min"] == by_item["max"]]
        differ = by_item[by_item["min"] != by_item["max"]]
        assert (items.loc[agree.index, "grade"] == agree["min"]).all()  # one rating, or all equal: the grade
        assert items.loc[differ.index, "grade"].isna().all()  # rated differently: wait for adjudication
        assert report.totals["unsettled"] == len(differ) == project.ratings.unsettled(1)
        assert len(differ) > 0
        before = dump(team)
    with Project.open(team) as project:
        again = merge_work(project, list(done.files.values()), annotator="coord")
    assert again.totals == {
        "new": 0,
        "changed": 0,
        "unchanged": len(expected),
        "settled": 0,
        "unsettled": len(differ),
        "older": 0,
    }
    assert dump(team) == before  # re-merging changes nothing, not even the audit log


def test_partial_work_can_be_merged_and_merged_again(team, tmp_path):
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.0, seed=1)
    ana = done.files["ana"]
    grade_all(ana, "ana", lambda a, q, d: 2, limit=3)
    with Project.open(team) as project:
        first = merge_work(project, [ana], annotator="coord")
        assert (first.totals["new"], first.files[0].graded, first.files[0].ungraded) == (3, 3, done.items["ana"] - 3)
    grade_all(ana, "ana", lambda a, q, d: 2)
    with Project.open(team) as project:
        second = merge_work(project, [ana], annotator="coord")
        assert (second.totals["new"], second.totals["unchanged"]) == (done.items["ana"] - 3, 3)
        assert len(ratings_table(project)) == done.items["ana"]


def test_a_changed_mind_replaces_the_rating_and_settles_again(team, tmp_path):
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=1.0, seed=1)
    for name, path in done.files.items():
        grade_all(path, name, lambda a, q, d: 1)
    with Project.open(team) as project:
        merge_work(project, list(done.files.values()), annotator="coord")
        assert project.ratings.unsettled(1) == 0
    _, items, _ = read_work_file(done.files["ben"])
    q, d = items.iloc[0][["query_id", "doc_id"]]
    with Project.open(done.files["ben"]) as work:
        work.judgments.set_grade(q, d, 3, annotator="ben")
    with Project.open(team) as project:
        report = merge_work(project, [done.files["ben"]], annotator="coord")
        assert (report.totals["changed"], report.totals["unsettled"]) == (1, 1)
        row = project.pools.pool_items(1).set_index(["query_id", "doc_id"]).loc[(q, d)]
        assert pd.isna(row["grade"])


def assigned(team: Path, tmp_path: Path) -> dict[str, Path]:
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.2, seed=1)
    for name, path in done.files.items():
        grade_all(path, name, lambda a, q, d: 1)
    return done.files


def test_a_grade_outside_the_scale_is_refused_naming_the_file_and_nothing_is_written(team, tmp_path):
    files = assigned(team, tmp_path)
    _, items, _ = read_work_file(files["ben"])
    q, d = items.iloc[0][["query_id", "doc_id"]]
    raw(files["ben"], f"UPDATE judgments SET grade = 7 WHERE query_id = '{q}' AND doc_id = '{d}'")
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        merge_work(project, [files["ana"], files["ben"]], annotator="coord")
    assert str(files["ben"]) in str(refused.value)
    assert f"grades document {d} for query {q} 7, outside the scale 0..3; nothing was merged" in str(refused.value)
    assert dump(team) == before


def test_a_tampered_scope_is_refused(team, tmp_path):
    files = assigned(team, tmp_path)
    _, ben_items, _ = read_work_file(files["ben"])
    _, ana_items, _ = read_work_file(files["ana"])
    foreign = ana_items.iloc[0]
    raw(
        files["ben"],
        f"INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, '{foreign['query_id']}', "
        f"'{foreign['doc_id']}', 2)",
    )
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        merge_work(project, [files["ben"]], annotator="coord")
    message = str(refused.value)
    assert str(files["ben"]) in message
    assert f"document {foreign['doc_id']} for query {foreign['query_id']}, which was not handed out to ben" in message
    assert dump(team) == before


def forge_origin(path: Path, old: str, new: str) -> None:
    """Rewrite a work file's record of where it comes from, replacing ``old`` by ``new`` in its JSON."""
    origin, _, _ = read_work_file(path)
    raw(path, f"UPDATE meta SET value = '{origin.to_json().replace(old, new)}' WHERE key = 'work'")


def test_a_renamed_annotator_is_refused(team, tmp_path):
    files = assigned(team, tmp_path)
    forge_origin(files["ben"], '"annotator": "ben"', '"annotator": "ana"')
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError, match="says it is ana's work"):
        merge_work(project, [files["ben"]], annotator="coord")
    assert dump(team) == before


def test_work_for_another_project_or_version_is_refused(team, tmp_path):
    files = assigned(team, tmp_path)
    other = tmp_path / "other.ndcgproj"
    shutil.copyfile(team, other)
    raw(other, "UPDATE meta SET value = 'another-id' WHERE key = 'project_id'")
    with Project.open(other) as project, pytest.raises(InputError) as refused:
        merge_work(project, [files["ana"]], annotator="coord")
    assert str(files["ana"]) in str(refused.value) and "is work for another project (team.ndcgproj)" in str(
        refused.value
    )
    with Project.open(team) as project:
        merge_work(project, list(files.values()), annotator="coord")
        for item in project.pools.pool_items(1).itertuples():
            if pd.isna(item.grade):
                project.judgments.set_grade(item.query_id, item.doc_id, 0, annotator="coord")
        freeze_draft(project, annotator="coord")
        project.pools.new_draft_from(1, annotator="coord")
        before = dump(team)
        with pytest.raises(InputError, match="is work for pool version 1, but the draft is version 2"):
            merge_work(project, [files["ana"]], annotator="coord")
    assert dump(team) == before
    with Project.open(team) as project, pytest.raises(InputError, match="is a project, not a work"):
        merge_work(project, [other], annotator="coord")


def test_two_copies_of_one_annotators_work_that_disagree_are_refused(team, tmp_path):
    files = assigned(team, tmp_path)
    copy = tmp_path / "ana-copy.ndcgproj"
    shutil.copyfile(files["ana"], copy)
    _, items, _ = read_work_file(copy)
    q, d = items.iloc[0][["query_id", "doc_id"]]
    with Project.open(copy) as work:
        work.judgments.set_grade(q, d, 3, annotator="ana")
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        merge_work(project, [files["ana"], copy], annotator="coord")
    assert f"ana rated document {d} for query {q} differently in ana-copy.ndcgproj and ana.ndcgproj" in str(
        refused.value
    )
    assert dump(team) == before


def test_an_annotator_with_work_out_on_the_draft_is_refused_new_work(team, tmp_path):
    with Project.open(team) as project:
        assign_work(project, ["ana", "ben"], tmp_path / "first", overlap=0.0, seed=1)
        # ana's first file is out; her items there are still ungraded in the draft
        before = dump(team)
        with pytest.raises(InputError) as refused:
            assign_work(project, ["chen", "ana"], tmp_path / "second", overlap=0.0, seed=1)
    assert "ana already has a work file for draft version 1 (it stays valid: merge it when it comes back)" in str(
        refused.value
    )
    assert dump(team) == before
    assert not (tmp_path / "second" / "chen.ndcgproj").exists()


FIRST = "WHERE (query_id, doc_id) = (SELECT query_id, doc_id FROM judgments ORDER BY 1, 2 LIMIT 1)"
HAND_EDITS = [
    (f"UPDATE judgments SET grade = 2.5 {FIRST}", "holds the real 2.5 where a number is stored"),
    (f"UPDATE judgments SET grade = 'x' {FIRST}", "holds the text 'x' where a number is stored"),
    (f"UPDATE judgments SET grade = x'02' {FIRST}", "holds the blob X'02' where a number is stored"),
    (f"UPDATE judgments SET grade = 1e300 {FIRST}", "holds the real 1.0e+300 where a number is stored"),
    (f"UPDATE judgments SET note = x'ff' {FIRST}", "judgments.note of the row keyed 1, "),
    ("UPDATE judgments SET note = CAST(x'ff' AS TEXT)", "Could not decode to UTF-8"),
    (
        f"UPDATE judgments SET updated_at = x'01' {FIRST}",
        "holds a blob where text is stored",
    ),  # TEXT affinity keeps a blob a blob
]


@pytest.mark.parametrize(("edit", "said"), HAND_EDITS, ids=[e[1] for e in HAND_EDITS])
def test_a_work_file_edited_by_hand_is_refused_naming_it(team, tmp_path, edit, said):
    """A work file is the annotator's copy: what ndcg-desktop never writes there (a grade that is no whole number,
    a blob, text that is not UTF-8) is refused with the file named, before anything is merged; never a traceback."""
    files = assigned(team, tmp_path)
    grade_all(files["ben"], "ben", lambda a, q, d: 1)
    raw(files["ben"], edit)
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        merge_work(project, [files["ben"]], annotator="coord")
    assert str(files["ben"]) in str(refused.value) and said in str(refused.value)
    assert dump(team) == before


def test_a_work_file_whose_record_names_its_version_as_text_is_refused(team, tmp_path):
    files = assigned(team, tmp_path)
    forge_origin(files["ben"], '"base_version": 1', '"base_version": "1"')
    with pytest.raises(InputError, match="its work-file record is damaged"):
        read_work_file(files["ben"])


# -- assign: refusals that write nothing (issue 24 items 9 and 15, issue 26) --------------------------------------


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_name_too_long_for_a_file_name_is_refused_before_anything_is_written(team, tmp_path):
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        assign_work(project, ["ana", "b" * 300], tmp_path / "work", overlap=0.0)
    assert f"annotator name '{'b' * 60}…' (300 characters) is too long to name a work file: at most 200 bytes" in str(
        refused.value
    )
    assert dump(team) == before and leftovers(tmp_path / "work") == []


def test_a_folder_that_cannot_hold_files_is_refused_naming_it(team, tmp_path):
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        assign_work(project, ["ana"], "/proc/self", overlap=0.0)
    assert str(refused.value).startswith("/proc/self") and "cannot write the work files there" in str(refused.value)
    assert "nothing was handed out" in str(refused.value)
    assert dump(team) == before


def test_an_immutable_folder_is_refused_naming_it(team, tmp_path):
    import subprocess

    folder = tmp_path / "locked"
    folder.mkdir()
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i needs root and a file system that supports it")
    try:
        before = dump(team)
        with Project.open(team) as project, pytest.raises(InputError) as refused:
            assign_work(project, ["ana"], folder, overlap=0.0)
        assert str(refused.value).startswith(str(folder)) and "cannot write the work files there" in str(refused.value)
        assert dump(team) == before and leftovers(folder) == []
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_write_failing_half_way_leaves_no_work_file_and_no_staging(team, tmp_path, monkeypatch):
    import errno
    import os

    real = os.replace
    calls = []

    def full_disk(src, dst):  # the second work file moved into place finds the disk full
        if Path(dst).parent == tmp_path / "work":
            calls.append(dst)
            if len(calls) == 2:
                raise OSError(errno.ENOSPC, "No space left on device", str(src), None, str(dst))
        real(src, dst)

    monkeypatch.setattr("ndcg_desktop.tasks.teams.os.replace", full_disk)
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as refused:
        assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.0)
    assert str(refused.value).startswith(str(tmp_path / "work" / "ben.ndcgproj"))
    assert "No space left on device" in str(refused.value)
    assert dump(team) == before and leftovers(tmp_path / "work") == []


def test_a_killed_assign_leaves_a_staging_folder_that_the_next_assign_removes(team, tmp_path):
    """SIGKILL in the middle of writing the work files: the next assign into that folder removes what it left."""
    import os
    import subprocess
    import sys

    script = (
        "import os, signal\n"
        "from ndcg_desktop.store import Project\n"
        "from ndcg_desktop.tasks import teams\n"
        "real = teams._write_work_file\n"
        "def write_then_die(*args):\n"
        "    real(*args)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "teams._write_work_file = write_then_die\n"
        f"project = Project.open({str(team)!r})\n"
        f"teams.assign_work(project, ['ana', 'ben'], {str(tmp_path / 'work')!r}, overlap=0.0)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    killed = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True)
    assert killed.returncode == -9
    stale = leftovers(tmp_path / "work")
    assert len(stale) == 1 and stale[0].startswith(".ndcg-work-")
    with Project.open(team) as project:
        assign_work(project, ["chen"], tmp_path / "work", overlap=0.0)
    assert leftovers(tmp_path / "work") == ["chen.ndcgproj"]


def test_a_staging_folder_of_a_running_assign_is_left_alone(team, tmp_path):
    import os

    busy = tmp_path / "work" / f".ndcg-work-{os.getppid()}-abcd"  # the test runner's parent: alive
    busy.mkdir(parents=True)
    with Project.open(team) as project:
        assign_work(project, ["chen"], tmp_path / "work", overlap=0.0)
    assert leftovers(tmp_path / "work") == [busy.name, "chen.ndcgproj"]


def test_assign_run_twice_names_every_annotator_with_work_out_and_what_to_do(team, tmp_path):
    with Project.open(team) as project:
        assign_work(project, ["ana", "ben", "chen"], tmp_path / "first", overlap=0.0, seed=1)
        with pytest.raises(InputError) as refused:
            assign_work(project, ["ben", "dan", "ana"], tmp_path / "second", overlap=0.0, seed=1)
    assert str(refused.value) == (
        f"{team}: ana, ben already have work files for draft version 1 (they stay valid: merge them when they come "
        "back); hand new work out under other names (for example ana-2, ben-2), or merge the returned work and start "
        "a new draft"
    )


@pytest.mark.parametrize("given", ["ana,Ana", "ana,ＡＮＡ", "José,Jose\u0301"])
def test_names_that_compare_as_one_are_refused_as_two_annotators(team, tmp_path, given):
    with Project.open(team) as project, pytest.raises(InputError, match="are compared as one"):
        assign_work(project, given.split(","), tmp_path / "work", overlap=0.0)


def test_a_look_alike_of_an_annotator_with_work_out_is_refused(team, tmp_path):
    with Project.open(team) as project:
        assign_work(project, ["José"], tmp_path / "first", overlap=0.0)
        with pytest.raises(InputError, match="annotator name 'JOSE' would be taken for 'José'"):
            assign_work(project, ["JOSE"], tmp_path / "second", overlap=0.0)
        with pytest.raises(InputError, match="annotator name 'jose' would be taken for 'José'"):
            import_ratings(project, tmp_path / "none.qrels", "jose", imported_by="coord")


def test_a_small_positive_overlap_shares_at_least_one_query():
    sizes = pd.Series({f"q{i}": 5 for i in range(12)})
    plan = plan_assignment(sizes, ["ana", "ben"], overlap=0.01, seed=3)  # round(0.12) would share none
    assert sorted(plan.groupby("query_id").size().tolist()) == [1] * 11 + [2]
    assert plan_assignment(sizes, ["ana", "ben"], overlap=0.0, seed=3).groupby("query_id").size().max() == 1
