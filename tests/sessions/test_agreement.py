"""The Agreement view's Qt-free state: any changed input drops the result, and a late result is refused."""

from __future__ import annotations

import pandas as pd

from ndcg_desktop.domain import Gain
from ndcg_desktop.sessions.agreement import INPUTS, PROJECT, RESULT, AgreementSession
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.agreement import compute_agreement
from ndcg_desktop.tasks.freezing import freeze_draft

RATINGS = pd.DataFrame(
    [("q1", "A", "ana", 3), ("q1", "A", "ben", 2), ("q1", "B", "ana", 0), ("q1", "B", "ben", 0)],
    columns=["query_id", "doc_id", "annotator", "grade"],
)


def loader(project, version, settings, **kwargs):
    return compute_agreement(project, project.pools.version(version), RATINGS, settings, **kwargs)


def test_inputs_drop_the_result_and_stale_results_are_refused(tmp_path):
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 0\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="lead")
        freeze_draft(project, annotator="lead")
        project.pools.new_draft_from(1, annotator="lead")
        session = AgreementSession(loader)
        seen: list[frozenset[str]] = []
        session.changed.connect(seen.append)
        assert not session.ready()
        session.set_project(project)
        assert (session.version, seen[-1]) == (2, frozenset({PROJECT, INPUTS, RESULT}))  # the newest: the draft
        session.set_version(1)
        job = session.job()
        assert session.apply(job, job()) is True and session.result is not None
        assert session.result.version.version == 1
        late = session.job()
        session.set_settings(gain=Gain.EXPONENTIAL)
        assert session.result is None
        assert session.apply(late, late()) is False  # computed with linear gain: never shown now
        session.set_settings(gain=Gain.EXPONENTIAL)  # no change: the new job stays valid
        fresh = session.job()
        assert session.apply(fresh, fresh()) is True
        session.reload()  # the project changed: version 1 still exists, the result is dropped
        assert (session.version, session.result) == (1, None)
        session.set_project(None)
        assert (session.version, session.ready()) == (None, False)


def test_policies_are_not_carried_to_another_pool_version_or_project(tmp_path):
    from ndcg_desktop.domain import DuplicatePolicy, EvalSettings, UnjudgedPolicy, UnknownQueryPolicy

    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 0\n")
    refusing = EvalSettings()
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="lead")
        freeze_draft(project, annotator="lead")
        project.pools.new_draft_from(1, annotator="lead")
        session = AgreementSession(loader)
        session.set_project(project)
        chosen = {
            "unjudged": UnjudgedPolicy.ZERO,
            "duplicates": DuplicatePolicy.FIRST,
            "unknown_queries": UnknownQueryPolicy.IGNORE,
        }
        session.set_k(5)
        session.set_settings(gain=Gain.EXPONENTIAL, **chosen)
        session.set_version(2)  # the newest already: nothing changes
        assert (session.settings, session.k) == (refusing.with_(gain=Gain.EXPONENTIAL, **chosen), 5)
        session.set_version(1)  # another version's runs: every policy refuses again; K and gain stay
        assert (session.settings, session.k) == (refusing.with_(gain=Gain.EXPONENTIAL), 5)
        session.set_settings(**chosen)
        session.reload()  # the same version after a merge or an adjudication: the choices stay
        assert (session.settings, session.k) == (refusing.with_(gain=Gain.EXPONENTIAL, **chosen), 5)
        session.set_project(project)  # (re)opening a project
        assert (session.settings, session.k) == (refusing.with_(gain=Gain.EXPONENTIAL), 5)


def test_the_caption_warns_of_two_identical_annotators_and_gives_the_figure_without_the_duplicate(tmp_path):
    """One file imported twice (under ana and ana2): the session's warnings name both and the alpha without ana2."""
    import krippendorff

    # ten items: two are no evidence of a duplicate (DUPLICATE_MIN_ITEMS)
    more = pd.DataFrame(
        [("q2", f"M{i}", who, i % 4) for i in range(8) for who in ("ana", "ben")], columns=RATINGS.columns
    )
    ten = pd.concat([RATINGS, more], ignore_index=True)
    twice = pd.concat([ten, ten[ten["annotator"] == "ana"].assign(annotator="ana2")], ignore_index=True)

    def twice_loader(project, version, settings, **kwargs):
        return compute_agreement(project, project.pools.version(version), twice, settings, **kwargs)

    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 0\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="lead")
        session = AgreementSession(twice_loader)
        session.set_project(project)
        assert session.warnings() == []  # nothing computed yet
        job = session.job()
        session.apply(job, job())
        # ana and ben on A, B: (3, 2) and (0, 0), then alike on eight more
        same = [i % 4 for i in range(8)]
        alpha = krippendorff.alpha(
            reliability_data=[[3, 0, *same], [2, 0, *same]], level_of_measurement="ordinal", value_domain=[0, 1, 2, 3]
        )
        assert session.warnings() == [
            "ana and ana2 gave the same grade on every one of the 10 items both rated (at least 10: one file imported "
            "twice, or one person under two names?); the figures above count those ratings twice",
            f"without ana2: alpha {alpha:.4f}, unanimous 0.9000 (ana, ben: 2 annotators sharing 10 items)",
        ]
        session.set_k(5)
        assert session.warnings() == []  # the result went with its inputs


def test_the_session_gives_the_caveats_ndcg_agreement_prints(tmp_path):
    """Two shared items (fewer than 10) and one run: the caveat on alpha and the kappas, with its numbers for the
    window, and the very sentences the command line prints and the manifest records; none before a result."""
    from ndcg_desktop.tasks.agreement import FEW_SHARED_ITEMS, Caveat, caveats

    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 0\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="lead")
        freeze_draft(project, annotator="lead")
        session = AgreementSession(loader)
        session.set_project(project)
        assert session.caveats() == []
        job = session.job()
        session.apply(job, job())
        result = session.result
        shared = len(RATINGS.groupby(["query_id", "doc_id"]))
        assert shared == 2 < FEW_SHARED_ITEMS
        assert session.caveats() == [Caveat("few_items", items=shared)]
        assert [c.text() for c in session.caveats()] == caveats(result.report, result.systems)
        assert result.manifest()["caveats"] == [c.text() for c in session.caveats()]
        session.set_k(5)
        assert session.caveats() == []
