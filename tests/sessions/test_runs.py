"""The Runs view's session: every run resolved on its own before scoring, and each input invalidates what it feeds."""

from __future__ import annotations

import math
from importlib import resources

import pandas as pd
import pytest

from ndcg_desktop.demo import build_demo
from ndcg_desktop.domain import DataTerms, EvalSettings, InputError
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.explain import compare
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.sessions.runs import (
    CHECKS,
    RESULT,
    RunsSession,
    matrix_at,
    matrix_cells,
    pairs_rows,
    runs_rows,
)
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.comparison_notes import choices_note
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run

FAST = StatsSettings(resamples=1000)
DEMO = resources.files("ndcg_desktop.demo")


@pytest.fixture
def demo(tmp_path):
    with Project.open(build_demo(tmp_path / "demo.ndcgproj")) as project:
        yield project


def trec(name: str, columns: list[str]) -> pd.DataFrame:
    return pd.read_csv(DEMO / name, sep=r"\s+", header=None, names=columns, dtype=str)


def unjudged_in_file(run: str) -> int:
    """Returned (query, document) pairs that frozen version 1 has not judged, read with pandas from the demo files."""
    qrels = trec("judgments_v1.qrels", ["q", "i", "doc", "g"])
    returned = trec(f"{run}.run", ["q", "z", "doc", "r", "s", "t"])
    judged = set(zip(qrels["q"], qrels["doc"], strict=True))
    return sum((q, d) not in judged for q, d in zip(returned["q"], returned["doc"], strict=True))


def run_job(session: RunsSession, job) -> object:
    result = job()
    assert session.apply(job, result)
    return result


def checked_session(project: Project) -> RunsSession:
    session = RunsSession()
    session.set_project(project)
    session._stats = FAST  # the statistics' own tests pin them at 10,000 resamples; the session only passes them on
    run_job(session, session.check_job())
    return session


def test_each_run_is_checked_and_must_be_resolved_before_scoring(demo):
    session = RunsSession()
    events = []
    session.changed.connect(events.append)
    session.set_project(demo)
    assert (session.runs, session.included, session.pool_version, session.ks) == (["bm25", "dense"],) * 2 + (1, [10])
    assert not session.ready() and session.unchecked() == ["bm25", "dense"]
    run_job(session, session.check_job())
    for run in ("bm25", "dense"):
        assert session.found(run, "unjudged") == unjudged_in_file(run)
        unset = {"unjudged": None, "duplicates": None, "unknown_queries": None, "queries": "pool"}
        assert session.choices(run) == unset
    assert unjudged_in_file("bm25") > 0 and unjudged_in_file("dense") > 0
    assert session.missing() == {"bm25": ["unjudged"], "dense": ["unjudged"]}
    assert not session.ready()
    session.choose("bm25", "unjudged", "zero")
    assert session.missing() == {"dense": ["unjudged"]} and not session.ready()
    with pytest.raises(ValueError, match="not ready"):
        session.score_job()
    session.choose_all("unjudged", "condense")  # one click, recorded for each run
    assert [session.choices(r)["unjudged"] for r in session.runs] == ["condense", "condense"]
    assert session.ready()
    with pytest.raises(ValueError, match="not a choice"):
        session.choose("bm25", "unjudged", "send")  # sending for judging is the Scores view's, one run at a time
    assert events[0] >= {"project", "result"}


def test_scores_equal_ndcg_compare_on_the_project_when_runs_are_resolved_alike(demo):
    session = checked_session(demo)
    session.set_ks("5,10")
    run_job(session, session.check_job())  # another K: checked again
    session.choose_all("unjudged", "zero")
    result = run_job(session, session.score_job())
    cli = compare_project(demo, ["bm25", "dense"], 1, [5, 10], EvalSettings(unjudged="zero"), FAST)
    mine = result.comparison
    columns = ["run", "k", "mean", "ci_low", "ci_high", "pooled", "judged_at_k", "queries", "bound_low", "bound_high"]
    pd.testing.assert_frame_equal(mine.runs[columns], cli.runs[columns])
    pd.testing.assert_frame_equal(mine.pairs, cli.pairs)
    assert mine.settings_line() == cli.settings_line() and mine.choices_note == ""
    rows = runs_rows(mine)
    first = rows.iloc[0]
    assert rows["mean_text"].tolist()[0] == f"{first['mean']:.4f}" + "".join(
        {"a": "ᵃ", "b": "ᵇ"}[c] for c in first["superscript"]
    )
    assert rows["ci"].tolist() == (rows["ci_high"] - rows["ci_low"]).tolist()
    pairs = pairs_rows(mine, 10)
    assert pairs["p_chosen"].tolist() == pairs["p_t_corrected"].tolist()  # the t test is the default
    matrix = matrix_at(mine, 10)
    assert matrix.loc["bm25", "dense"] == matrix.loc["dense", "bm25"] == pairs["p_t_corrected"].iloc[0]


def test_runs_resolved_differently_are_scored_each_with_its_own_choices(demo):
    session = checked_session(demo)
    session.choose("bm25", "unjudged", "zero")
    session.choose("dense", "unjudged", "condense")
    result = run_job(session, session.score_job()).comparison
    for run, policy in (("bm25", "zero"), ("dense", "condense")):
        alone = score_run(demo, run, 1, EvalSettings(unjudged=policy), record=False).evaluation
        assert result.runs.set_index("run").at[run, "mean"] == alone.summary["mean_ndcg"]
        recorded = next(r for r in result.manifest["runs"] if r["name"] == run)
        assert recorded["settings"]["10"] == alone.settings.to_text(10)
    assert (
        result.choices_note == choices_note({name: result.evaluations[name][10].settings for name in ("bm25", "dense")})
        and "ties" not in result.choices_note
    )  # both runs read alike
    assert result.choices_note == choices_note(
        {
            "bm25": EvalSettings(unjudged="zero").under(DataTerms()),
            "dense": EvalSettings(unjudged="condense").under(DataTerms()),
        }
    )
    assert result.settings_line().endswith(result.choices_note) and result.manifest["settings_line"].endswith(
        "dense: unjudged=condense, duplicates=reject, unknown_queries=reject, queries=pool"
    )
    assert len(demo.runs.evaluations()) == 0  # a comparison is not recorded (as `ndcg compare`)


def test_a_pair_opens_query_by_query(demo):
    session = checked_session(demo)
    session.choose_all("unjudged", "zero")
    run_job(session, session.score_job())
    pair = session.select_pair(10, "bm25", "dense")
    a = score_run(demo, "bm25", 1, EvalSettings(unjudged="zero"), record=False).evaluation
    b = score_run(demo, "dense", 1, EvalSettings(unjudged="zero"), record=False).evaluation
    table, counts = compare(a, b)
    pd.testing.assert_frame_equal(pair.table, table)
    row = pairs_rows(session.result.comparison, 10).iloc[0]
    assert counts == pair.counts == {"wins": row["wins"], "ties": row["ties"], "losses": row["losses"]}
    assert session.scored("bm25")[10].rankings is not None  # where missed documents sit, for the breakdown


def scored_session(demo) -> RunsSession:
    session = checked_session(demo)
    session.choose_all("unjudged", "zero")
    run_job(session, session.score_job())
    session.select_pair(10, "bm25", "dense")
    return session


# (change, checks kept, bm25's scores kept, choices kept)
CHANGES = [
    ("pool version", lambda s: s.set_pool_version(None), False, False, False),
    ("cut-offs", lambda s: s.set_ks([5]), False, False, True),
    ("gain", lambda s: s.set_gain("exponential"), True, False, True),
    ("zero-IDCG rule", lambda s: s.set_zero_idcg("exclude"), True, False, True),
    ("a choice of dense", lambda s: s.choose("dense", "duplicates", "first"), True, True, True),
    ("a choice of bm25", lambda s: s.choose("bm25", "duplicates", "first"), True, False, True),
    ("baseline", lambda s: s.set_baseline("dense"), True, True, True),
    ("runs compared", lambda s: s.include("dense", False), True, True, True),
]


@pytest.mark.parametrize(("change", "do", "checks", "scores", "choices"), CHANGES, ids=[c[0] for c in CHANGES])
def test_every_input_invalidates_what_depends_on_it(demo, change, do, checks, scores, choices):
    session = scored_session(demo)
    stale = session.score_job() if session.ready() else None
    do(session)
    assert session.result is None and session.pair is None
    assert bool(session.checks) is checks
    assert bool(session.scored("bm25")) is scores
    assert (session.choices("bm25")["unjudged"] == "zero") is choices
    if stale is not None:
        assert not session.apply(stale, object())  # computed from the old inputs: dropped


def test_a_result_from_before_a_change_is_dropped_and_the_project_resets_all(demo, tmp_path):
    session = checked_session(demo)
    session.choose_all("unjudged", "zero")
    job = session.score_job()
    result = job()
    session.choose("dense", "unjudged", "condense")
    assert not session.apply(job, result) and session.result is None
    check = session.check_job()
    session.set_ks("3")
    assert not session.apply(check, check())
    events = []
    session.changed.connect(events.append)
    session.set_project(None)
    assert (session.runs, session.checks, session.result, session.pool_version) == ([], {}, None, None)
    assert {CHECKS, RESULT} <= events[-1]


def test_a_new_run_comes_in_unresolved_and_drops_the_result(demo, tmp_path):
    session = scored_session(demo)
    with resources.as_file(DEMO / "bm25.run") as path:
        demo.runs.import_run(path, name="bm25 again", annotator="ann")
    session.reload()
    assert session.included == ["bm25", "dense", "bm25 again"] and session.result is None
    assert session.unchecked() == ["bm25 again"] and not session.ready()
    assert session.choices("bm25")["unjudged"] == "zero" and session.choices("bm25 again")["unjudged"] is None
    assert session.scored("bm25")  # nothing of theirs changed


def test_bad_cut_offs_are_refused_in_one_sentence(demo):
    session = RunsSession()
    session.set_project(demo)
    for text, message in (("0", "positive whole numbers"), ("5,5", "names 5 twice"), ("ten", "positive whole")):
        with pytest.raises(InputError, match=message):
            session.set_ks(text)
    assert session.ks == [10]


def test_the_matrix_is_the_pairs_seen_from_each_row_and_another_k_closes_the_pair(demo):
    session = checked_session(demo)
    session.set_ks([5, 10])
    run_job(session, session.check_job())
    session.choose_all("unjudged", "zero")
    with resources.as_file(DEMO / "bm25.run") as path:  # a third run, so that a baseline leaves a pair out
        demo.runs.import_run(path, name="again", annotator="ann")
    session.reload()
    run_job(session, session.check_job())
    session.choose("again", "unjudged", "zero")
    session.set_baseline("bm25")
    result = run_job(session, session.score_job()).comparison
    assert session.shown_k == 5
    pairs = pairs_rows(result, 5).set_index(["a", "b"])
    cells = matrix_cells(result, 5)
    names = result.names
    assert names == ["bm25", "dense", "again"]
    for r, row in enumerate(names):
        for c, column in enumerate(names):
            cell = cells[r][c]
            if row == column or "bm25" not in (row, column):
                assert cell is None  # the diagonal, and dense against again: not compared against a baseline
                continue
            a, b = ("bm25", column) if row == "bm25" else ("bm25", row)
            pair = pairs.loc[(a, b)]
            expected = -pair["difference"] if row == "bm25" else pair["difference"]
            assert (cell.a, cell.b, cell.difference) == (a, b, expected)
            assert cell.significant == bool(pair["significant"])
            if b == "again":  # the same rankings as bm25: every difference 0, nothing to test (n/a, never made up)
                assert math.isnan(cell.p) and math.isnan(pair["p_t_corrected"]) and cell.difference == 0
            else:
                assert cell.p == pair["p_t_corrected"]
    session.select_pair(5, "bm25", "dense")
    session.show_k(10)
    assert session.shown_k == 10 and session.pair is None
    with pytest.raises(ValueError, match="K=3 was not compared"):
        session.show_k(3)


def test_a_cancelled_job_changes_nothing(demo):
    session = checked_session(demo)
    session.choose_all("unjudged", "zero")
    asked = []
    session.score_job()(cancelled=lambda: asked.append(1) and False)  # how often an uncancelled job asks
    last = len(asked)  # the last time: just before the statistics, after every run is scored

    def cancel_at(n):
        calls = []
        return lambda: calls.append(1) or len(calls) == n

    for n in (1, last):
        with pytest.raises(Cancelled):
            session.score_job()(cancelled=cancel_at(n))
        assert session.result is None and session.scored("bm25") == {} and session.scored("dense") == {}
    run_job(session, session.score_job())  # and the same inputs score afterwards
    assert session.result is not None


def test_a_score_job_reads_each_run_once_for_every_k(demo, monkeypatch):
    """As ndcg compare --project: a run is loaded, verified and ordered once, however many cut-offs."""
    from ndcg_desktop.tasks import scoring

    loads: list[str] = []
    original = scoring.proven_inputs
    monkeypatch.setattr(
        scoring,
        "proven_inputs",
        lambda project, name, *a, **kw: (loads.append(name), original(project, name, *a, **kw))[1],
    )
    session = checked_session(demo)
    session.set_ks("5,10,20")
    run_job(session, session.check_job())
    loads.clear()
    session.choose_all("unjudged", "zero")
    result = run_job(session, session.score_job())
    assert sorted(loads) == ["bm25", "dense"]  # was once per run and K: six
    assert set(result.scored["bm25"]) == {5, 10, 20}


def test_another_test_or_correction_restates_the_result_at_once_and_keeps_the_pair(demo):
    """The scores, the result (restated, as comparing afresh gives it) and the open pair stay; a job made under the
    old statistics is dropped."""
    from ndcg_desktop.sessions.runs import PAIR, STATS
    from ndcg_desktop.tasks.comparing import compare_scored

    session = scored_session(demo)
    stale = session.score_job()
    pair = session.pair
    events = []
    session.changed.connect(events.append)
    for do, stats in (
        (lambda s: s.set_test("wilcoxon"), StatsSettings(resamples=1000, test="wilcoxon")),
        (lambda s: s.set_correction("none"), StatsSettings(resamples=1000, test="wilcoxon", correction="none")),
    ):
        do(session)
        assert session.stats == stats and session.result is not None and session.pair is pair
        assert RESULT in events[-1] and STATS in events[-1] and PAIR not in events[-1]
        names, ks = session.result.comparison.names, session.result.comparison.ks
        settings = {name: session.settings_of(name) for name in names}
        fresh = compare_scored(session.result.scored, names, ks, settings, stats, None)
        for table in ("runs", "pairs", "per_query"):
            pd.testing.assert_frame_equal(getattr(session.result.comparison, table), getattr(fresh, table))
        assert {**session.result.comparison.manifest, "created": 0} == {**fresh.manifest, "created": 0}
    assert not session.apply(stale, stale())  # computed under the old test and correction
    session.set_baseline("dense")  # other pairs: other draws, so the result goes
    assert session.result is None and session.pair is None


def test_the_settings_line_its_captions_and_manifest_name_the_scale_of_the_version_scored(tmp_path, data_dir):
    """Issue 23: a 0..4 project's Runs view said scale=0..3 (the default's) in its line, captions and manifest."""
    from ndcg_desktop.domain import GradeScale
    from ndcg_desktop.tasks.comparing import export_comparison

    cranfield = data_dir / "cranfield"
    with Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 4), annotator="ann") as project:
        project.judgments.import_qrels(cranfield / "qrels.txt", annotator="ann")
        freeze_draft(project, annotator="ann")
        for name in ("bm25", "tfidf"):
            project.runs.import_run(cranfield / f"{name}.run.gz", name=name, annotator="ann")
        session = checked_session(project)
        session.choose_all("unjudged", "zero")
        comparison = run_job(session, session.score_job()).comparison
        line = comparison.settings_line()
        expected = EvalSettings(unjudged="zero").under(DataTerms(scale=GradeScale(0, 4))).to_text(10).split("(", 1)[1]
        assert line.startswith(f"nDCG@10({expected}; ") and "0..3" not in line
        assert comparison.manifest["settings_line"] == line
        export_comparison(comparison, tmp_path / "out")
    for caption in ("runs.md", "runs.tex"):
        text = (tmp_path / "out" / caption).read_text(encoding="utf-8")
        assert "scale=0..4" in text and "0..3" not in text, caption


def test_the_session_says_which_pairs_rest_on_fewer_than_10_queries_as_ndcg_compare_warns(tmp_path, write):
    """Three queries: the warning `ndcg compare` prints (and its manifest records) is the session's too, with the
    numbers the window words it with; none before a result."""
    from ndcg_desktop.tasks.comparison_notes import FEW_QUERIES, FewQueries

    qrels = "".join(f"q{i} 0 D{j} {j} \n" for i in range(3) for j in range(3))
    runs = {
        name: "".join(f"q{i} Q0 D{j} {r + 1} {9 - r} {name}\n" for i in range(3) for r, j in enumerate(order))
        for name, order in (("a", (2, 1, 0)), ("b", (0, 1, 2)))
    }
    with Project.create(tmp_path / "few.ndcgproj", annotator="ann") as project:
        project.judgments.import_qrels(write("q.txt", qrels), annotator="ann")
        freeze_draft(project, annotator="ann")
        for name, text in runs.items():
            project.runs.import_run(write(f"{name}.run", text), name=name, annotator="ann")
        session = checked_session(project)
        assert session.warnings() == []
        session.set_ks("2,3")
        run_job(session, session.check_job())
        comparison = run_job(session, session.score_job()).comparison
        assert 3 < FEW_QUERIES == 10
        assert session.warnings() == [FewQueries(k, (("a", "b", 3),)) for k in (2, 3)]
        assert [w.text() for w in session.warnings()] == comparison.warnings == comparison.manifest["warnings"]
        cli = compare_project(project, ["a", "b"], 1, [2, 3], EvalSettings(), FAST)
        assert cli.warnings == comparison.warnings
        session.set_ks("3")
        assert session.warnings() == []  # the result went with its inputs
