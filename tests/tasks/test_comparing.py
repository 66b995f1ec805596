"""compare_project scores each stored run once for every K: each K's figures are score_run's own at that K."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import DataTerms, EvalSettings, UnjudgedPolicy
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.scoring import score_run


@pytest.mark.parametrize("unjudged", [UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE])
def test_each_k_equals_score_run_at_that_k(two_versions, unjudged):
    ks = [1, 2, 3]
    seen: list[tuple[int, int]] = []
    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(unjudged=unjudged)
        result = compare_project(
            project, ["x", "y"], 2, ks, base, StatsSettings(resamples=200), progress=lambda d, t: seen.append((d, t))
        )
        for name in ("x", "y"):
            for k in ks:
                alone = score_run(project, name, 2, base, k, record=False, bounds=True)
                together = result.evaluations[name][k]
                pd.testing.assert_frame_equal(together.per_query, alone.evaluation.per_query, check_exact=True)
                pd.testing.assert_frame_equal(together.per_position, alone.evaluation.per_position, check_exact=True)
                assert together.summary == alone.evaluation.summary
                assert {**together.manifest, "created": None} == {**alone.evaluation.manifest, "created": None}
                rows = result.per_query[(result.per_query["run"] == name) & (result.per_query["k"] == k)]
                assert rows["ndcg_upper"].tolist() == alone.bounds["ndcg_upper"].tolist()
    assert seen == [(3, 6), (6, 6)]  # a run's every K at once


@pytest.mark.parametrize("unjudged", [UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE])
def test_score_run_at_is_score_run_at_each_k_with_one_whole_ranking(two_versions, unjudged):
    """The one multi-K path of ndcg compare --project and the window's Runs view."""
    from ndcg_desktop.tasks.scoring import score_run_at

    ks = [2, 1, 3]
    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(unjudged=unjudged)
        together = score_run_at(project, "x", 2, base, ks, rankings=True, bounds=True)
        assert list(together) == ks
        for k in ks:
            alone = score_run(project, "x", 2, base, k, record=False, bounds=True, rankings=True)
            mine = together[k]
            assert (mine.run_name, mine.version, mine.evaluation_id) == (alone.run_name, alone.version, None)
            pd.testing.assert_frame_equal(mine.evaluation.per_query, alone.evaluation.per_query, check_exact=True)
            assert {**mine.evaluation.manifest, "created": None} == {**alone.evaluation.manifest, "created": None}
            pd.testing.assert_frame_equal(mine.bounds, alone.bounds, check_exact=True)
        first = score_run(project, "x", 2, base, ks[0], record=False, rankings=True).rankings
        assert all(s.rankings is together[ks[0]].rankings for s in together.values())  # one per run
        judged = {"A", "B", "C", "E", "F", "G"}
        for query in ("q1", "q2", "no such query"):
            assert together[2].rankings.ranking(query, judged) == first.ranking(query, judged)


def test_another_test_or_correction_restates_a_comparison_as_a_new_one_would_give_it(data_dir, tmp_path):
    """Cranfield's three runs and a fourth (BM25 with 80 queries' rankings taken from TF-IDF: significant under
    the Wilcoxon test alone, and only uncorrected) at two K: restating under each test and correction gives,
    frame for frame, what comparing afresh under them gives, and the significance marks do change."""
    import gzip

    from ndcg_desktop.domain import DuplicatePolicy, GradeScale, UnknownQueryPolicy
    from ndcg_desktop.scoring.stats import TEST_COLUMNS, Correction, StatTest
    from ndcg_desktop.tasks.comparing import compare_files, restated

    folder = data_dir / "cranfield"
    bm25, tfidf = (gzip.open(folder / f"{name}.run.gz", "rt").read().splitlines() for name in ("bm25", "tfidf"))
    swapped = set(list(dict.fromkeys(line.split()[0] for line in bm25))[:80])
    mixed = tmp_path / "mixed.run"
    mixed.write_text(
        "\n".join(
            [line for line in bm25 if line.split()[0] not in swapped]
            + [line for line in tfidf if line.split()[0] in swapped]
        )
        + "\n"
    )
    runs = [*(folder / f"{name}.run.gz" for name in ("bm25", "tfidf", "chunks")), mixed]
    base = EvalSettings(
        unjudged=UnjudgedPolicy.ZERO, unknown_queries=UnknownQueryPolicy.IGNORE, duplicates=DuplicatePolicy.FIRST
    ).under(DataTerms(scale=GradeScale(0, 4), id_map="#"))
    first = compare_files(folder / "qrels.txt", runs, [5, 10], base, StatsSettings(resamples=500))
    marks, corrected_p = set(), set()
    for test in StatTest:
        for correction in Correction:
            stats = StatsSettings(resamples=500, test=test, correction=correction)
            fresh = compare_files(folder / "qrels.txt", runs, [5, 10], base, stats)
            again = restated(first, stats)
            for table in ("runs", "pairs", "per_query"):
                pd.testing.assert_frame_equal(getattr(again, table), getattr(fresh, table), check_exact=True)
            assert {**again.manifest, "created": None} == {**fresh.manifest, "created": None}
            assert again.stats == stats and again.settings_line() == fresh.settings_line()
            marks.add(tuple(again.runs["superscript"]))
            corrected_p.add(tuple(again.pairs[TEST_COLUMNS[test] + "_corrected"].round(12)))
    assert len(marks) >= 2 and len(corrected_p) >= 6  # the choices change the figures here: the check can fail
    assert first.stats == StatsSettings(resamples=500)  # the first comparison is left as it was
    with pytest.raises(ValueError, match="only the test and the correction"):
        restated(first, StatsSettings(resamples=500, seed=1))  # other draws: a new comparison


def test_a_run_with_no_query_in_its_mean_gives_every_runs_figure_a_reason(tmp_path):
    """Every query zero-IDCG and excluded: each run's mean, interval, pooled ratio, judged@K and bounds are n/a,
    each with its reason, and so is every figure of the pair; the comparison warns that it has too few queries."""
    import math

    from ndcg_desktop.domain.settings import ZeroIdcgPolicy
    from ndcg_desktop.scoring.stats import reason_column
    from ndcg_desktop.tasks.comparing import compare_files, reason_notes

    qrels = tmp_path / "z.qrels"
    qrels.write_text("1 0 A 0\n2 0 A 0\n")
    runs = [tmp_path / "x.run", tmp_path / "y.run"]
    for path in runs:
        path.write_text(f"1 Q0 A 1 1 {path.stem}\n2 Q0 A 1 1 {path.stem}\n")
    settings = EvalSettings(zero_idcg=ZeroIdcgPolicy.EXCLUDE).under(DataTerms())
    result = compare_files(qrels, runs, [10], settings, StatsSettings(resamples=100))
    for table, row in ((result.runs, 0), (result.runs, 1), (result.pairs, 0)):
        nulls = [c for c in table.columns if isinstance(table[c].iloc[row], float) and math.isnan(table[c].iloc[row])]
        assert nulls  # the case has them
        for column in nulls:
            name = "runs" if table is result.runs else "pairs"
            assert isinstance(result.reason(name, row, column), str), column
            assert reason_column(column) is not None, column
    assert result.reason("runs", 0, "mean") == "no query is in this run's mean"
    assert result.reason("pairs", 0, "p_t_corrected") == "no query is counted in both runs"
    assert result.warnings == [
        "K=10: compared over fewer than 10 queries: x vs y (0); the tests have little power and the intervals are rough"
    ]
    assert len(reason_notes(result)) == 6  # per run: the mean's group and the interval; the pair's two


def test_the_line_names_the_runs_reading_and_each_runs_when_they_differ(tmp_path, write):
    """Issue 32: the line's ties and ID map are the data's (the runs' reading), never a default put there to be
    replaced; runs imported with different readings are each named in the note."""
    from ndcg_desktop.domain import TiePolicy
    from ndcg_desktop.tasks.freezing import freeze_draft

    qrels = "q1 0 A 2\nq1 0 B 1\nq2 0 C 1\n"
    run = "q1 Q0 A 1 1 s\nq1 Q0 B 2 1 s\nq2 Q0 C 1 1 s\n"
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        project.judgments.import_qrels(write("q.txt", qrels), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.runs.import_run(write("a.txt", run), name="a", ties=TiePolicy.FILE_ORDER, annotator="ann")
        project.runs.import_run(write("b.txt", run), name="b", ties=TiePolicy.FILE_ORDER, annotator="ann")
        project.runs.import_run(write("c.txt", run), name="c", ties=TiePolicy.DOCID_ASC, annotator="ann")
        base, stats = EvalSettings(unjudged="zero"), StatsSettings(resamples=100)
        project.runs.import_run(write("d.txt", run), name="d", id_map="#", annotator="ann")
        alike = compare_project(project, ["a", "b"], None, [2], base, stats)
        assert "ties=file-order" in alike.settings_line() and alike.choices_note == ""
        mixed = compare_project(project, ["a", "c"], None, [2], base, stats)
        backwards = compare_project(project, ["c", "a"], None, [2], base, stats)
        mapped = compare_project(project, ["b", "c", "d"], None, [2], base, stats)
    # the line names no one run's reading as all's, whatever the order of the runs (the note names each one's)
    assert mixed.choices_note == "choices per run: a: ties=file-order; c: ties=docid-asc"
    for result in (mixed, backwards):
        assert "ties=per run,scale=0..3)" in result.settings_line() and "id_map" not in result.settings_line()
        assert result.settings_line().endswith(result.choices_note)
        assert result.manifest["settings_line"] == result.settings_line()
    assert mapped.choices_note == (
        'choices per run: b: ties=file-order, no ID map; c: ties=docid-asc, no ID map; d: ties=docid-desc, id_map="#"'
    )
    assert "ties=per run,scale=0..3,id_map=per run)" in mapped.settings_line()
