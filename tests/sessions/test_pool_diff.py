"""*Compare pool versions*' Qt-free session: every choice from the one table, a diff only for the inputs it was
computed from, and the project's changes (a version frozen, a run imported, a refusal) followed without a refresh."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import EvalSettings, UnjudgedPolicy
from ndcg_desktop.domain.choices import BY_NAME
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.pool_diff import DIFF_CHOICES, INPUTS, RESULT, PoolDiffSession
from ndcg_desktop.store import FrozenVersionChanged
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_diff import diff_pools
from ndcg_desktop.tasks.project import open_project
from tests.conftest import RUN_X


@pytest.fixture
def slot(two_versions):
    slot = ProjectSlot()
    slot.open(open_project(two_versions), annotator="ann")
    yield slot
    slot.close()


@pytest.fixture
def session(slot):
    session = PoolDiffSession()
    session.follow(slot)
    return session


def computed(session):
    job = session.job()
    assert session.apply(job, job()) is True
    return session.result


def test_the_two_latest_versions_and_every_choice_of_the_table_at_its_default(session):
    assert (session.a, session.b, session.k) == (1, 2, 10) and session.ready()
    assert [c.name for c in DIFF_CHOICES] == [
        "gain",
        "unjudged",
        "duplicates",
        "unknown_queries",
        "zero_idcg",
        "queries",
    ]
    assert session.choices == {c.name: c.default.value for c in DIFF_CHOICES}
    assert session.choices["unjudged"] == "reject"  # nothing guessed until the user chooses (rule 6)
    for choice in DIFF_CHOICES:  # offered as the table declares them, the default first
        assert session.options(choice.name) == list(BY_NAME[choice.name].labels.items())
        assert session.options(choice.name)[0][0] == choice.default.value
    with pytest.raises(ValueError, match="'maybe' is not a value of unjudged"):
        session.choose("unjudged", "maybe")
    with pytest.raises(ValueError, match="no choice 'ties' here"):
        session.choose("ties", "file-order")


def test_the_diff_is_the_tasks_and_any_changed_input_drops_it_and_refuses_a_late_one(session):
    session.set_k(2)
    session.choose("unjudged", "zero")
    settings = EvalSettings(unjudged=UnjudgedPolicy.ZERO)
    assert (session.settings(), session.k) == (settings, 2)
    diff = computed(session)
    expected = diff_pools(session.project, 1, 2, settings, 2)
    assert diff.summary() == expected.summary()
    late = session.job()
    for change in (
        lambda: session.set_k(3),
        lambda: session.set_versions(2, 1),
        lambda: session.choose("gain", "exponential"),
    ):
        job = session.job()
        change()
        assert session.result is None
        assert session.apply(job, job()) is False
    assert session.apply(late, late()) is False
    session.choose("gain", "linear")  # back: a job made now holds
    assert computed(session).a == 2


def test_a_refused_comparison_leaves_no_earlier_diff(session):
    session.choose("unjudged", "zero")
    computed(session)
    job = session.job()
    assert session.refused(job, "pool version 1 has changed since it was frozen") is True
    assert (session.result, session.problem) == (None, "pool version 1 has changed since it was frozen")


def test_a_version_frozen_since_is_offered_and_the_diff_of_the_two_chosen_stays(session):
    session.choose("unjudged", "zero")
    diff = computed(session)
    seen = []
    session.changed.connect(seen.append)
    session.project.pools.new_draft_from(2, annotator="ann")  # a draft is no choice here
    assert [v.version for v in session.frozen] == [1, 2]
    item = session.project.pools.pool_items(3).iloc[0]  # a regrade: a copy of its parent would not freeze (issue 35)
    session.project.judgments.set_grade(
        item["query_id"], item["doc_id"], 0 if item["grade"] else 1, version=3, annotator="ann"
    )
    freeze_draft(session.project, version=3, annotator="ann")
    assert [v.version for v in session.frozen] == [1, 2, 3]
    assert (session.a, session.b, session.result) == (1, 2, diff)
    assert seen and all(aspects == frozenset({INPUTS}) for aspects in seen)


def test_a_new_run_or_a_refused_version_drops_the_diff(session, slot, write):
    session.choose("unjudged", "zero")
    computed(session)
    session.project.runs.import_run(write("x2.txt", RUN_X.replace(" x\n", " x2\n")), name="x2", annotator="ann")
    assert session.result is None  # its runs table would lack x2
    computed(session)
    slot.refused(FrozenVersionChanged("pool version 1 has changed since it was frozen", path="p"))
    assert session.result is None and (session.a, session.b) == (1, 2)


def test_another_project_starts_over(session, slot, tmp_path, write):
    from ndcg_desktop.tasks.project import create_project

    session.set_k(5)
    session.choose("unjudged", "zero")
    p = create_project(tmp_path / "one.ndcgproj", annotator="ann")
    p.judgments.import_qrels(write("q1.txt", "q1 0 A 1\n"), annotator="ann")
    freeze_draft(p, annotator="ann")
    slot.open(p, annotator="ann")
    assert (session.frozen[0].version, session.a, session.b, session.k) == (1, 1, 1, 10)
    assert session.choices["unjudged"] == "reject" and not session.ready()
    seen = []
    session.changed.connect(seen.append)
    slot.close()
    assert session.project is None and RESULT in seen[-1]


def test_a_draft_discarded_elsewhere_leaves_the_chosen_pair_and_a_draft_is_no_choice(session):
    from ndcg_desktop.tasks.pool_editing import discard, plan_discard

    session.choose("unjudged", "zero")
    diff = computed(session)
    draft = session.project.pools.new_draft_from(2, annotator="ann")
    with pytest.raises(ValueError, match=f"pool version {draft.version} is not a frozen version of this project"):
        session.set_versions(1, draft.version)
    discard(session.project, plan_discard(session.project), annotator="ann")
    assert [v.version for v in session.frozen] == [1, 2]
    assert (session.a, session.b, session.result) == (1, 2, diff)


def test_shared_queries_is_a_choice_of_the_session_as_of_diff_pools(session, slot):
    """`ndcg diff-pools --shared-queries` in the window: the session passes it to the task and drops a diff made
    without it."""
    session.choose("unjudged", "zero")
    whole = computed(session)
    assert whole is not None and whole.shared_queries is False
    session.set_shared_queries(True)
    assert session.result is None
    shared = computed(session)
    expected = diff_pools(slot.project, 1, 2, session.settings(), shared_queries=True)
    assert shared is not None and shared.shared_queries is True
    assert shared.means.to_dict("records") == expected.means.to_dict("records")
    session.set_project(slot.project)  # another project (here, the same again): the choice back at its default
    assert session.shared_queries is False
