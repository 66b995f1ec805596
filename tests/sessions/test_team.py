"""The team views' Qt-free sessions: Adjudicate's list, selection, keys and next item, kept true by the project's
events (a pick, an undo, another connection's rating); Assign work's plan and why work cannot be handed out."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.team import (
    LIST,
    AdjudicateSession,
    AssignChoices,
    AssignSession,
    KeyRefusal,
    TeamRefusal,
    known_people,
    team_refusal,
    work_to_hand_out,
)
from ndcg_desktop.tasks.adjudication import disagreements
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.project import create_project, open_project
from ndcg_desktop.tasks.teams import plan_summary
from tests.tasks.test_adjudication import rated  # noqa: F401 - the fixture: three differing items, run bm25


@pytest.fixture
def slot(rated):  # noqa: F811
    slot = ProjectSlot()
    slot.open(open_project(rated), annotator="judge")
    yield slot
    slot.close()


@pytest.fixture
def session(slot):
    session = AdjudicateSession()
    session.follow(slot)
    session.set_k(2)
    return session


def computed(session):
    job = session.job()
    assert job is not None and session.apply(job, job()) is True
    return session.items


def test_the_list_is_the_tasks_and_the_selection_survives_a_recomputed_list(session):
    assert session.stale and session.items.empty
    items = computed(session)
    expected = disagreements(session.project, k=2).items
    assert items[["query_id", "doc_id"]].values.tolist() == expected[["query_id", "doc_id"]].values.tolist()
    assert (session.scale.low, session.scale.high, session.labels[0]) == (0, 3, "Not relevant")
    session.select(("q1", "C"))
    assert session.ratings_of("q1", "C").values.tolist() == [["ana", 0, ""], ["ben", 1, ""]]
    assert session.chosen_grade("q1", "C") is None and session.open_count() == 3
    assert session.next_open() == ("q2", "E")  # after the selected one, in the list's order
    session.select(("q2", "E"))
    assert session.next_open() == ("q1", "A")  # wrapping round


def test_a_pick_reaches_the_list_through_the_events_and_its_undo_too(session):
    computed(session)
    session.select(("q1", "A"))
    seen = []
    session.changed.connect(seen.append)
    taken = session.pick("q1", "A", 2)
    assert session.stale and session.found is None and LIST in seen[-1]  # the list went with the ratings
    late = session.job()
    session.undo_pick(taken)  # meanwhile: the job made before it is stale
    assert session.apply(late, late()) is False
    computed(session)
    assert session.chosen_grade("q1", "A") is None and session.selected == ("q1", "A")
    session.pick("q1", "A", 3)
    computed(session)
    assert session.chosen_grade("q1", "A") == 3 and session.open_count() == 2
    applied = session.apply_rule("lowest")
    computed(session)
    assert session.open_count() == 0 and session.next_open() is None
    session.undo_rule(applied)
    computed(session)
    assert session.open_count() == 2


def test_a_rating_written_by_another_connection_reaches_the_list(session, slot):
    computed(session)
    conn = sqlite3.connect(session.project.path)
    conn.execute("UPDATE ratings SET grade = 1 WHERE annotator = 'ana' AND doc_id = 'C'")  # ana now agrees with ben
    conn.commit()
    conn.close()
    slot.check()  # the window does this on a timer
    assert session.found is None
    assert computed(session)[["query_id", "doc_id"]].values.tolist() == [["q1", "A"], ["q2", "E"]]


def test_why_a_key_does_nothing(session, rated):  # noqa: F811
    computed(session)
    assert session.key_refusal(2) == KeyRefusal("no_item")
    session.select(("q1", "A"))
    assert session.key_refusal(7) == KeyRefusal("off_scale", 7, 0, 3)
    assert session.key_refusal(3) is None
    session.select(("q9", "Z"))  # not listed
    assert session.key_refusal(3) == KeyRefusal("no_item")
    reader = AdjudicateSession()
    reader.set_project(open_project(rated, read_only=True))
    assert reader.key_refusal(1) == KeyRefusal("read_only")
    reader.project.close()
    reader.set_project(None)
    assert reader.key_refusal(1) == KeyRefusal("no_draft") and reader.job() is None


def test_a_frozen_draft_leaves_nothing_to_adjudicate(session):
    computed(session)
    session.pick("q1", "A", 3)
    session.apply_rule("median")
    freeze_draft(session.project, annotator="judge")
    assert session.draft is None and session.job() is None and session.items.empty


def test_why_work_cannot_be_handed_out(tmp_path, write):
    assert team_refusal(None) == TeamRefusal("no_project")
    with create_project(tmp_path / "p.ndcgproj", annotator="lead") as project:
        assert team_refusal(project) == TeamRefusal("no_draft")
        project.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="lead")
        assert team_refusal(project) is None
        assert work_to_hand_out(project) == TeamRefusal("nothing_to_grade")
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["B", "C"]}), annotator="lead")
        assert work_to_hand_out(project).to_dict() == {"q1": 2}
    with open_project(tmp_path / "p.ndcgproj", read_only=True) as reader:
        assert team_refusal(reader) == TeamRefusal("read_only")


def test_the_assign_plan_follows_the_choices_and_says_what_stops_it(tmp_path):
    sizes = pd.Series({f"q{i}": 4 for i in range(6)})
    assign = AssignSession(sizes, str(tmp_path / "work"), ("ana", "ben", "chen"))
    pd.testing.assert_frame_equal(assign.plan, plan_summary(sizes, ["ana", "ben", "chen"], overlap=0.2, seed=0))
    assert assign.ready()
    assign.set(names="ana, ../ben")
    assert assign.plan.empty and "cannot name a work file" in assign.problem and not assign.ready()
    assign.set(names="ana, ben", overlap_percent=50.0, seed=3, folder="  ")
    assert assign.problem == "" and assign.no_folder and not assign.ready()
    pd.testing.assert_frame_equal(assign.plan, plan_summary(sizes, ["ana", "ben"], overlap=0.5, seed=3))
    assign.set(folder=str(tmp_path / "w"))
    assert assign.values() == AssignChoices(
        annotators=("ana", "ben"), out_dir=str(tmp_path / "w"), overlap=0.5, per_query=2, seed=3
    )
    with pytest.raises(ValueError, match="no choice 'colour'"):
        assign.set(colour="red")


def test_assign_offers_only_the_projects_people_and_never_invents_names(tmp_path):
    """Issue 36: a project with no annotators got "ana, ben, chen" as real names; Enter handed work to them."""
    sizes = pd.Series({"q1": 4, "q2": 4})
    fresh = AssignSession(sizes, str(tmp_path / "work"))
    assert fresh.names == "" and fresh.values().annotators == ()
    assert fresh.no_names and fresh.plan.empty and fresh.problem == "" and not fresh.ready()
    fresh.set(names="zoe, yan")
    assert fresh.ready() and fresh.values().annotators == ("zoe", "yan")

    fresh.set(names="  ")
    assert fresh.no_names and not fresh.ready()


def test_the_people_assign_offers_are_the_projects_and_never_a_model(rated):  # noqa: F811
    with open_project(rated) as project:
        frame = pd.DataFrame(
            [("q1", "A", "model:smollm2", 2, "", "t")],
            columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"],
        )
        project.ratings.add_ratings(frame, version=1, source="test", annotator="coord")
        assert "model:smollm2" in project.ratings.annotators()
        assert known_people(project) == ("ana", "ben", "chen")
        assert AssignSession(pd.Series({"q1": 2}), "w", known_people(project)).names == "ana, ben, chen"
