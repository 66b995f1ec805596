"""The Scores view's state without Qt: changing an input invalidates what depended on it."""

from __future__ import annotations

import pytest

from ndcg_desktop.sessions.scores import CHOICES, Missing, ScoresSession
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 X 2 1.5 s\nq1 Q0 C 3 1.0 s\nq2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\n"
# Judged documents only, but B twice for q1: a duplicate and nothing unjudged.
DUPLICATED = "q1 Q0 B 1 3.0 s\nq1 Q0 A 2 2.0 s\nq1 Q0 B 3 1.0 s\nq2 Q0 E 1 1.0 s\n"


@pytest.fixture
def project(stored, write):
    p = stored(QRELS, RUN)
    p.runs.import_run(write("dup.txt", DUPLICATED), name="dup", annotator="ann")
    return p


def run_job(session, job):
    assert session.apply(job, job())


def test_choices_come_from_the_domain_and_start_unset(project):
    assert CHOICES["unjudged"] == ("zero", "condense") and CHOICES["duplicates"] == ("first",)
    session = ScoresSession()
    session.set_project(project)
    assert (session.run, session.pool_version, session.other_run) == ("sys", 1, None)
    assert session.choices == {"unjudged": None, "duplicates": None, "unknown_queries": None, "queries": "pool"}
    assert not session.ready() and session.suggestion is None


def test_check_then_choose_then_score(project):
    session = ScoresSession()
    session.set_project(project)
    seen = []
    session.changed.connect(seen.append)
    run_job(session, session.check_job())
    assert seen[-1] == {"checks"}
    assert session.missing() == [Missing("unjudged", {"sys": 2})]
    session.choose("unjudged", "zero")
    assert session.ready() and session.settings().unjudged.value == "zero"
    run_job(session, session.score_job())
    result = session.result
    assert result.first.run_name == "sys" and result.first.version.version == 1
    assert result.first.evaluation.manifest["judgments"]["pool_hash"] == project.pools.version(1).hash
    assert [(s.run_name, s.pool_version) for s in session.history()] == [("sys", 1)]


def test_a_new_pair_unsets_choices_and_drops_checks_and_results(project):
    session = ScoresSession()
    session.set_project(project)
    run_job(session, session.check_job())
    session.choose("unjudged", "zero")
    run_job(session, session.score_job())
    session.set_run("dup")
    assert session.result is None and session.checks == {} and session.choices["unjudged"] is None
    # K keeps the pair's choices but drops checks (counts in the top K change) and results.
    session.set_run("sys")
    run_job(session, session.check_job())
    session.choose("unjudged", "condense")
    session.set_k(3)
    assert session.choices["unjudged"] == "condense" and session.checks == {} and session.result is None


def test_a_result_computed_for_old_inputs_is_dropped(project):
    session = ScoresSession()
    session.set_project(project)
    job = session.check_job()
    session.set_k(5)  # while the check runs
    assert session.apply(job, job()) is False
    assert session.checks == {}


def test_the_comparison_run_is_checked_and_its_flags_need_choices(project):
    session = ScoresSession()
    session.set_project(project)
    session.set_other_run("dup")
    run_job(session, session.check_job())
    assert sorted(session.checks) == ["dup", "sys"]
    assert session.missing() == [Missing("unjudged", {"sys": 2, "dup": 0}), Missing("duplicates", {"sys": 0, "dup": 1})]
    session.choose("unjudged", "zero")
    assert not session.ready()  # dup's duplicate still needs a choice
    session.choose("duplicates", "first")
    run_job(session, session.score_job())
    assert session.result.second.run_name == "dup" and len(session.result.comparison) == 2


def test_a_previous_choice_is_offered_never_applied(project):
    first = ScoresSession()
    first.set_project(project)
    run_job(first, first.check_job())
    first.choose("unjudged", "condense")
    run_job(first, first.score_job())
    again = ScoresSession()
    again.set_project(project)
    assert again.choices["unjudged"] is None
    assert again.suggestion == {"unjudged": "condense", "queries": "pool"}
    again.accept_suggestion()  # the user confirmed it
    assert again.choices == {"unjudged": "condense", "duplicates": None, "unknown_queries": None, "queries": "pool"}


def test_another_project_resets_everything(project, tmp_path):
    session = ScoresSession()
    session.set_project(project)
    run_job(session, session.check_job())
    session.choose("unjudged", "zero")
    run_job(session, session.score_job())
    with Project.create(tmp_path / "empty.ndcgproj", annotator="ann") as empty:
        session.set_project(empty)
        assert (session.run, session.pool_version, session.result, session.checks) == (None, None, None, {})
        assert session.choices["unjudged"] is None and session.history() == []


def test_reopen_sets_the_saved_inputs_and_choices(project):
    session = ScoresSession()
    session.set_project(project)
    session.set_k(3)
    run_job(session, session.check_job())
    session.choose("unjudged", "condense")
    run_job(session, session.score_job())
    mean = session.result.first.evaluation.summary["mean_ndcg"]
    session.set_project(project)
    session.reopen(session.history()[0])
    assert (session.run, session.pool_version, session.k, session.choices["unjudged"]) == ("sys", 1, 3, "condense")
    run_job(session, session.check_job())
    run_job(session, session.score_job())
    assert session.result.first.evaluation.summary["mean_ndcg"] == mean


def test_the_offer_of_last_time_follows_each_recorded_scoring(project):
    """Scored with 'condense', then with 'zero' in the same session: "last time" is now 'zero' (it kept offering
    the choices from before the session's own scoring)."""
    session = ScoresSession()
    session.set_project(project)
    run_job(session, session.check_job())
    session.choose("unjudged", "condense")
    run_job(session, session.score_job())
    assert session.suggestion == {"unjudged": "condense", "queries": "pool"}
    session.choose("unjudged", "zero")
    run_job(session, session.score_job())
    assert session.suggestion == {"unjudged": "zero", "queries": "pool"}


def test_send_for_judging_is_the_windows_action_not_a_scoring_policy(project):
    """Issue 23: "send" sat among the unjudged policies; it is an action, and no policy scores meanwhile."""
    session = ScoresSession()
    session.set_project(project)
    run_job(session, session.check_job())
    with pytest.raises(ValueError, match="not a choice"):
        session.choose("unjudged", "send")
    session.send_for_judging()
    assert session.sending_chosen and session.sending() and session.choices["unjudged"] is None
    assert session.missing() == [] and not session.ready()  # unjudged found: nothing is scored until judged
    assert session.settings().unjudged.value == "reject"
    session.choose("unjudged", "condense")  # a policy instead: sending ends
    assert not session.sending_chosen and not session.sending() and session.ready()
    session.send_for_judging()
    session.set_run("dup")  # a new pair starts unset, the action too
    assert not session.sending_chosen and session.choices["unjudged"] is None


def test_a_run_is_never_compared_with_itself():
    """Found by a new user: 'compare with' offered the run being scored; scoring then compared nothing, silently."""
    session = ScoresSession()
    session._run = "bm25"
    session.set_other_run("bm25")
    assert session.other_run is None and session.compared_runs() == ["bm25"]
    session.set_other_run("dense")
    session.set_run("dense")  # the comparison run became the run: no longer a comparison
    assert (session.run, session.other_run) == ("dense", None)


def _newly_frozen_sessions(project):
    """Scores and Runs sessions following ``project`` through its events (as the window's views do)."""
    from ndcg_desktop.sessions.events import ProjectSlot
    from ndcg_desktop.sessions.runs import RunsSession

    slot = ProjectSlot()
    slot.open(project, annotator="ann")
    sessions = (ScoresSession(), RunsSession())
    for session in sessions:
        session.follow(slot)
    return slot, sessions


def test_a_version_frozen_while_the_views_are_open_is_preselected_in_scores_and_runs(project):
    """Issue 36: after freezing v2, Scores and Runs kept offering v1 until the project was reopened."""
    slot, sessions = _newly_frozen_sessions(project)
    assert [s.pool_version for s in sessions] == [1, 1]
    sessions[1].set_pool_version(1)
    project.pools.new_draft_from(1, annotator="ann")
    assert [s.pool_version for s in sessions] == [1, 1]  # a draft is not scored: nothing changes
    item = project.pools.pool_items(2).iloc[0]  # a regrade: a draft identical to version 1 would not freeze (issue 35)
    project.judgments.set_grade(item["query_id"], item["doc_id"], 0 if item["grade"] else 1, version=2, annotator="ann")
    freeze_draft(project, annotator="ann")
    assert [v.version for v in project.pools.versions() if v.frozen] == [1, 2]
    assert [s.pool_version for s in sessions] == [2, 2]
    for session in sessions:  # an older version chosen by hand stays chosen while nothing new is frozen
        session.set_pool_version(1)
    project.runs.import_run(project.path.parent / "r.txt", name="again", annotator="ann")
    assert [s.pool_version for s in sessions] == [1, 1]
    slot.events.close()


def test_choosing_a_run_to_compare_with_keeps_the_choices_made(project):
    """Issue 36: 'compare with' reset the unjudged choice already made; the checks and the result go, the choices
    (which apply to both runs) stay."""
    session = ScoresSession()
    session.set_project(project)
    run_job(session, session.check_job())
    session.choose("unjudged", "condense")
    run_job(session, session.score_job())
    session.set_other_run("dup")
    assert session.choices["unjudged"] == "condense"
    assert (session.result, session.checks) == (None, {})
    run_job(session, session.check_job())
    assert session.missing() == [Missing("duplicates", {"sys": 0, "dup": 1})]  # only what is still unresolved
    session.set_other_run(None)
    assert session.choices["unjudged"] == "condense"
