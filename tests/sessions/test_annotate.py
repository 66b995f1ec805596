"""The Annotate view's Qt-free state (issue 23, item 3): what is shown, where a key moves, why it does nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ndcg_desktop.domain.blind import BLIND, DOC_ID, blind_key
from ndcg_desktop.sessions import annotate as annotate_session
from ndcg_desktop.sessions.annotate import (
    COUNTS,
    CURRENT,
    ITEMS,
    LOADING,
    POOL,
    QUERIES,
    REFUSED,
    VERSION,
    AnnotateSession,
)
from ndcg_desktop.sessions.annotate_rules import Decision, Refusal
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.store import FrozenVersionChanged, Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.importing import import_ratings
from ndcg_desktop.tasks.pool_editing import discard, plan_discard, restore_discarded
from ndcg_desktop.tasks.pooling import apply_send_for_judging, plan_send_for_judging, take_back_sent

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C -1\nq1 0 D -1\nq2 0 E -1\n"  # q1: A, B graded, C, D not; q2: E not
RUN = "q1 Q0 A 1 3 s\nq1 Q0 X 2 2 s\nq2 Q0 E 1 1 s\nq2 Q0 Y 2 0.5 s\n"


@pytest.fixture
def path(tmp_path):
    """Two queries; q1 has four items (A=3, B=2, C and D ungraded), q2 one (E ungraded); run ``sys``."""
    (tmp_path / "q.tsv").write_text("q1\tfreezing judgment pools\nq2\twhy fixed universes matter\n")
    (tmp_path / "j.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    target = tmp_path / "p.ndcgproj"
    with Project.create(target, annotator="ann") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.judgments.import_qrels(tmp_path / "j.qrels", negative_as_ungraded=True, annotator="ann")
        p.runs.import_run(tmp_path / "r.run", name="sys", annotator="ann")
        p.judgments.set_judging_order(DOC_ID)
    return target


@pytest.fixture
def opened():
    """opened(path, **open_args) -> (slot, session): a session following a slot with the project open."""
    slots: list[ProjectSlot] = []

    def make(target, *, user="ann", **kwargs):
        slot, session = ProjectSlot(), AnnotateSession()
        session.follow(slot)
        slot.open(Project.open(target, **kwargs), annotator=user)
        slots.append(slot)
        return slot, session

    yield make
    for slot in slots:
        slot.close()


def counts(session) -> dict[str, tuple[int, int, int]]:
    """query -> (items, graded, awaiting adjudication) as the session lists them."""
    rows = session.queries
    return {q: (rows.sizes[r], rows.graded[r], rows.awaiting[r]) for r, q in enumerate(rows.ids)}


def test_the_core_module_never_loads_qt():
    code = (
        "import sys; import ndcg_desktop.sessions.annotate; "
        "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))], 'Qt was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_opening_shows_the_draft_its_queries_with_progress_and_the_first_ungraded_item(path, opened):
    _slot, session = opened(path)
    assert (session.version.version, session.version.frozen) == (1, False)
    assert counts(session) == {"q1": (4, 2, 0), "q2": (1, 0, 0)}
    assert session.progress() == (2, 5)
    assert [session.query_state(r) for r in range(2)] == ["to grade", "to grade"]
    assert (session.query_id, session.topic["title"]) == ("q1", "freezing judgment pools")
    assert session.shown_docs() == ["A", "B", "C", "D"]  # the project's judging order: document ID
    assert session.doc_id == "C"  # the first ungraded item, not the first row


def test_the_judging_order_is_shown_recorded_and_kept_off_a_read_only_project(path, opened):
    _slot, session = opened(path)
    session.select_item("D")
    session.set_judging_order(BLIND)
    assert session.shown_docs() == sorted("ABCD", key=lambda d: blind_key("q1", d))
    assert session.doc_id == "D"  # the current item stays current
    assert session.project.judgments.judging_order() == BLIND
    session.set_judging_order(DOC_ID)
    _slot2, reader = opened(path, read_only=True)
    reader.set_judging_order(BLIND)
    assert reader.shown_docs() == sorted("ABCD", key=lambda d: blind_key("q1", d))
    assert session.project.judgments.judging_order() == DOC_ID  # the read-only window recorded nothing
    with pytest.raises(ValueError, match="judging order must be one of"):
        session.set_judging_order("by-mood")


def test_why_a_key_does_nothing_and_when_a_regrade_is_confirmed(path, opened, tmp_path):
    _slot, session = opened(path)
    assert session.key(7) == Refusal("off_scale", grade=7, low=0, high=3)
    session.select_item("A")  # graded 3, credited to the file it came from
    assert session.key(3) == Decision("same")
    assert session.key(1) == Decision("confirm", old=3, who="import:j.qrels")
    session.select_item("C")
    assert session.key(1) == Decision("grade")
    session.select_item(None)
    assert session.key(1) == Refusal("no_document")
    assert session.note_refusal() == Refusal("no_document")
    freeze_draft(session.project, remove_ungraded=True, annotator="ann")
    assert session.version.frozen and session.version.version == 1  # a frozen shown version stays shown
    assert session.key(1) == Refusal("frozen", version=1)
    assert session.next_query(["q1", "q2"]) == Refusal("frozen", version=1)  # N: nothing to grade in it
    _slot2, reader = opened(path, read_only=True)
    assert reader.key(1) == Refusal("read_only")
    empty = tmp_path / "e.ndcgproj"
    Project.create(empty, annotator="ann").close()
    _slot3, nothing = opened(empty)
    assert nothing.key(1) == Refusal("no_pool")
    assert nothing.locked() == Refusal("no_pool")
    assert nothing.next_query([]) == Refusal("no_pool")


def test_a_grade_moves_to_the_next_ungraded_item_and_never_onto_a_graded_one(path, opened):
    _slot, session = opened(path)
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    session.grade_item(1, "q1", "C", 1)  # what the command does; the project's events bring the change back
    assert seen[0] == frozenset({COUNTS, ITEMS, CURRENT})
    assert counts(session)["q1"] == (4, 3, 0)
    assert session.pool.grades[session.item("C")] == 1 and session.pool.annotators[session.item("C")] == "ann"
    assert session.advance() is True and session.doc_id == "D"
    session.grade_item(1, "q1", "D", 0)
    assert session.advance() is False and session.doc_id == "D"  # every item graded: it stays
    assert session.next_query(["q1", "q2"]) == "q2"
    assert session.next_query(["q1"]) is None  # q2 filtered out of the list shown


def test_only_ungraded_items_shown_and_moving_with_j_and_k(path, opened):
    _slot, session = opened(path)
    session.set_ungraded_only(True)
    assert session.shown_docs() == ["C", "D"]
    assert [session.accepts(r) for r in range(4)] == [False, False, True, True]
    session.move(1)
    assert session.doc_id == "D"
    session.move(5)
    assert session.doc_id == "D"  # kept within the list
    session.grade_item(1, "q1", "C", 2)
    session.grade_item(1, "q1", "D", 2)
    assert session.advance() is False and session.doc_id is None  # nothing left to show
    session.set_ungraded_only(False)
    session.select_query("q2")
    session.set_ungraded_only(True)
    assert session.doc_id == "E"  # ungraded: it stays
    session.set_ungraded_only(False)
    session.select_query("q1")
    session.select_item("A")
    session.set_ungraded_only(True)
    assert session.doc_id is None  # hidden, and nothing ungraded to go to


def test_items_awaiting_adjudication_are_not_ordinary_ungraded_items(path, opened, tmp_path):
    (tmp_path / "ana.qrels").write_text("q2 0 E 1\n")
    (tmp_path / "ben.qrels").write_text("q2 0 E 3\n")
    with Project.open(path) as p:
        import_ratings(p, tmp_path / "ana.qrels", "ana", imported_by="lead")
        import_ratings(p, tmp_path / "ben.qrels", "ben", imported_by="lead")
    _slot, session = opened(path)
    assert counts(session)["q2"] == (1, 0, 1)
    assert session.query_state(session.queries.row_of("q2")) == "awaiting"
    assert session.awaiting_total() == 1
    session.grade_item(1, "q1", "C", 1)
    session.grade_item(1, "q1", "D", 1)
    assert session.next_query(["q1", "q2"]) is None  # q2's only open item is settled in the Adjudicate tab
    session.select_query("q2")
    assert session.is_awaiting("E") and session.doc_id == "E"  # shown (the first row) but not graded here
    assert session.next_ungraded(None) is None
    assert session.key(2) == Refusal("awaiting", doc_id="E")


def test_the_note_is_read_written_and_put_back(path, opened):
    _slot, session = opened(path)
    taken = session.note_item(1, "q1", "C", "on topic, thin")
    assert (session.doc_id, session.note()) == ("C", "on topic, thin")
    session.put_back(taken, "undo note")
    assert session.note() == ""


def test_undoing_a_send_for_judging_takes_the_documents_out_of_what_is_shown(path, opened):
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
        p.pools.new_draft_from(1, annotator="ann")
    _slot, session = opened(path)
    sent = apply_send_for_judging(
        session.project, plan_send_for_judging(session.project, "sys", 1, depth=10), annotator="ann"
    )
    assert session.version.version == 2 and "X" in session.pool.docs and counts(session)["q1"] == (3, 2, 0)
    take_back_sent(session.project, sent, annotator="ann")
    assert session.version.version == 2 and session.query_id == "q1"
    assert session.pool.docs == ["A", "B"] and counts(session) == {"q1": (2, 2, 0), "q2": (0, 0, 0)}
    assert session.progress() == (2, 2)
    assert session.doc_id in ("A", "B")  # an item that is there: a key grades it, never a removed one


def test_a_send_into_a_new_draft_its_undo_and_its_redo_show_the_draft_each_time(path, opened):
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
    _slot, session = opened(path)
    project = session.project
    session.select_item("A")
    sent = apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=10), annotator="ann")
    assert session.version.version == 2  # a new draft is shown
    assert (session.query_id, session.doc_id) == ("q1", "X")  # the query stays; the draft's first ungraded item
    taken = take_back_sent(project, sent, annotator="ann")
    assert (session.version.version, session.version.frozen) == (1, True)  # the draft went: the last frozen one
    project.undo.restore(taken, action="redo send for judging", annotator="ann")  # what the command's redo does
    assert (session.version.version, session.version.frozen) == (2, False)  # shown again, as after the send
    assert (session.query_id, session.doc_id) == ("q1", "X")  # its first ungraded item, as after the send


@pytest.mark.parametrize(
    "how", ["new draft", "send for judging", "redo of a send", "undo of a discard", "ratings import"]
)
def test_a_draft_that_appears_is_shown_whatever_brought_it(path, opened, tmp_path, how):
    """The class of the redone send's defect: every way a draft appears shows it, as a new draft is shown."""
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
        if how == "undo of a discard":
            p.pools.new_draft_from(1, annotator="ann")
    _slot, session = opened(path)
    project = session.project
    assert session.version.version == (2 if how == "undo of a discard" else 1)
    if how == "new draft":
        project.pools.new_draft_from(1, annotator="ann")
    elif how == "send for judging":
        apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=10), annotator="ann")
    elif how == "redo of a send":
        taken = take_back_sent(
            project,
            apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=10), annotator="ann"),
            annotator="ann",
        )
        assert session.version.version == 1
        project.undo.restore(taken, action="redo send for judging", annotator="ann")
    elif how == "undo of a discard":
        discarded = discard(project, plan_discard(project), annotator="ann")
        assert session.version.version == 1
        restore_discarded(project, discarded, annotator="ann")
    else:
        (tmp_path / "ana.qrels").write_text("q2 0 E 1\n")
        import_ratings(project, tmp_path / "ana.qrels", "ana", imported_by="ann")
    assert (session.version.version, session.version.frozen) == (2, False)
    stored = project.pools.query_progress(2)  # its counts, as the file has them
    assert counts(session) == {
        str(r.query_id): (int(r.pool_size), int(r.graded), int(r.awaiting)) for r in stored.itertuples()
    }
    assert session.progress() == (int(stored["graded"].sum()), int(stored["pool_size"].sum()))


def test_a_discard_shows_the_last_frozen_version_with_its_counts(path, opened):
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
        p.pools.new_draft_from(1, annotator="ann")
    _slot, session = opened(path)
    session.grade_item(2, "q1", "A", 1)
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    discard(session.project, plan_discard(session.project), annotator="ann")
    assert VERSION in seen[-1]
    assert (session.version.version, session.version.frozen) == (1, True)
    assert [v.version for v in session.versions] == [1]
    assert counts(session) == {"q1": (2, 2, 0), "q2": (0, 0, 0)}
    assert session.pool.grades == [3, 2]  # v1's grades, not the discarded draft's
    assert session.locked() == Refusal("frozen", version=1)


def test_the_version_chosen_is_shown_and_a_missing_one_gives_way(path, opened):
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
        p.pools.new_draft_from(1, annotator="ann")
    _slot, session = opened(path)
    assert session.version.version == 2
    session.show_version(1)
    assert (session.version.version, session.query_id) == (1, "q1")  # the query shown stays
    session.show_version(9)
    assert session.version.version == 2  # no such version: the draft


def test_a_large_list_is_read_by_a_job_and_a_late_one_is_dropped(path, opened, monkeypatch):
    monkeypatch.setattr(annotate_session, "LARGE", 0)
    _slot, session = opened(path)
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    session.show_version(1)
    assert LOADING in seen[-1] and len(session.queries) == 0 and session.query_id is None
    late = session.pending
    session.show_version(1)  # read again: the first read's rows would be of an older state
    fresh = session.pending
    assert session.apply(late, late()) is False and len(session.queries) == 0
    assert session.apply(fresh, fresh()) is True
    assert counts(session) == {"q1": (4, 2, 0), "q2": (1, 0, 0)} and session.query_id == "q1"
    assert session.apply(fresh, fresh()) is False  # once


def test_a_refused_frozen_version_is_forgotten(path, opened, monkeypatch):
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="ann")
    slot, session = opened(path)
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    error = FrozenVersionChanged("pool version 1 changed", path=path)

    def refuse(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(session.project.pools, "frozen_version", refuse)
    with pytest.raises(FrozenVersionChanged):
        session.prove()
    assert session.version is None and session.pool.docs == []  # nothing of it stays
    assert session.key(1) == Refusal("no_pool")
    monkeypatch.setattr(session.project.pools, "query_progress", refuse)
    session.show_version(1)  # read again: the list fails its proof while read
    assert REFUSED in seen[-1] and session.refusal is error and session.version is None


def test_closing_forgets_everything_and_another_project_starts_over(path, opened, tmp_path):
    slot, session = opened(path)
    seen: list[frozenset[str]] = []
    session.changed.connect(seen.append)
    slot.close()
    assert (session.project, session.version, session.query_id, session.doc_id) == (None, None, None, None)
    assert len(session.queries) == 0 and session.pool.docs == [] and {QUERIES, POOL} <= seen[-1]
    other = tmp_path / "o.ndcgproj"
    (tmp_path / "o.qrels").write_text("z1 0 Z 1\n")
    with Project.create(other, annotator="ann") as p:
        p.judgments.import_qrels(tmp_path / "o.qrels", annotator="ann")
    slot.open(Project.open(other), annotator="ann")
    assert session.queries.ids == ["z1"] and session.pool.docs == ["Z"]


def test_who_is_grading_comes_from_the_identity_and_a_work_file_is_its_annotators(path, opened, tmp_path, monkeypatch):
    from ndcg_desktop.tasks.identity import grading_name, open_to_grade
    from ndcg_desktop.tasks.teams import assign_work

    monkeypatch.setenv("NDCG_USER", "carol")
    slot, session = opened(path, user=grading_name())
    assert session.grading_as() == ("carol", None)
    session.grade_item(1, "q1", "C", 1)
    assert session.pool.annotators[session.item("C")] == "carol"
    slot.close()
    with Project.open(path) as p:
        files = assign_work(p, ["bob"], tmp_path / "work", overlap=0.0).files
    monkeypatch.delenv("NDCG_USER")
    monkeypatch.setenv("NDCG_DESKTOP_CONFIG_DIR", str(tmp_path / "config"))  # no saved name
    work = AnnotateSession()
    work_slot = ProjectSlot()
    work.follow(work_slot)
    opened = open_to_grade(files["bob"])
    work_slot.open(opened.project, annotator=opened.annotator)
    name, origin = work.grading_as()
    assert name == "bob" and origin is not None and origin.annotator == "bob"
    work_slot.close()
