"""No duplicate versions (issue 35, item 3; contract rule 21): a draft identical to its parent (the same items with the
same grades) does not freeze into a new number; the refusal is one line naming the parent, and nothing changes."""

from __future__ import annotations

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.project import freeze

QRELS = "q1 0 A 3\nq1 0 B 2\nq2 0 C 1\n"


def _frozen_once(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    assert main(["init", str(path)]) == 0
    assert main(["import-qrels", str(path), str(write("v1.qrels", QRELS))]) == 0
    assert main(["freeze", str(path)]) == 0
    assert main(["new-draft", str(path)]) == 0  # version 2 copies version 1
    return path


def test_freezing_a_copy_of_the_parent_is_refused_in_one_line_naming_it(tmp_path, write, capsys):
    path = _frozen_once(tmp_path, write)
    capsys.readouterr()
    assert main(["freeze", str(path)]) == 2
    err = capsys.readouterr().err
    assert "draft version 2 is identical to its parent, pool version 1 (the same items with the same grades)" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    with Project.open(path, read_only=True) as project:
        assert [(v.version, v.state) for v in project.pools.versions()] == [(1, "frozen"), (2, "draft")]


def test_the_task_refuses_and_the_draft_stays_as_it_was(tmp_path, write):
    path = _frozen_once(tmp_path, write)
    with Project.open(path) as project:
        before = project.pools.pool_items(2)[["query_id", "doc_id", "grade"]]
        with pytest.raises(InputError, match="draft version 2 is identical to its parent, pool version 1"):
            freeze(project, annotator="tester")
        assert project.pools.version(2).frozen is False
        assert project.pools.pool_items(2)[["query_id", "doc_id", "grade"]].equals(before)


def test_ungraded_items_removed_back_to_the_parent_are_refused_and_kept(tmp_path, write, capsys):
    # The draft differs only by an ungraded item: removing it on freezing would leave the parent's judgments.
    path = _frozen_once(tmp_path, write)
    assert main(["import-qrels", str(path), str(write("pooled.qrels", "q2 0 D -1\n")), "--negative-as-ungraded"]) == 0
    capsys.readouterr()
    assert main(["freeze", str(path), "--remove-ungraded"]) == 2
    assert "draft version 2 is identical to its parent, pool version 1" in capsys.readouterr().err
    with Project.open(path, read_only=True) as project:
        items = project.pools.pool_items(2)
        assert project.pools.version(2).frozen is False
        assert ("q2", "D") in set(zip(items["query_id"], items["doc_id"], strict=True))  # the removal rolled back


def test_a_regrade_freezes_and_a_draft_back_to_an_older_version_names_that_version(tmp_path, write, capsys):
    path = _frozen_once(tmp_path, write)
    with Project.open(path) as project:
        project.judgments.set_grade(
            "q1", "B", 1, version=2, annotator="tester"
        )  # a regrade: no longer the parent's judgments
        assert freeze(project, annotator="tester").version.version == 2
        project.pools.new_draft_from(
            2, annotator="tester"
        )  # version 3 copies version 2; graded back as version 1 had it
        project.judgments.set_grade("q1", "B", 2, version=3, annotator="tester")
        with pytest.raises(InputError) as refused:
            freeze(project, annotator="tester")
        assert refused.value.message.startswith(
            "draft version 3 is identical to pool version 1 (the same items with the same grades): freezing it would "
            "repeat version 1 under a new number"
        )
        assert [v.state for v in project.pools.versions()] == ["frozen", "frozen", "draft"]
