"""A corrected release makes the draft equal to its file (issue 35 item 2), on TREC DL 2019's qrels split into
artificial rounds: every expected number is derived here from the files with pandas, and the release's judgments
are compared whole with the file."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.importing import apply_release, import_judgments, plan_release, undo_release
from ndcg_desktop.tasks.project import freeze, start_draft
from tests.store.test_undo import append_only, assert_same, full_dump

COLUMNS = ["query_id", "iteration", "doc_id", "grade"]
ROUNDS = ("0.5", "1", "1.5")


def read_file(path: Path) -> pd.DataFrame:
    """A qrels file as pandas reads it, every field as text (the iteration exactly as written)."""
    frame = pd.read_csv(path, sep=r"\s+", header=None, names=COLUMNS, dtype=str)
    return frame.astype({"grade": "int64"})


def as_set(frame: pd.DataFrame) -> set[tuple[str, str, int, str]]:
    return {
        (str(q), str(d), int(g), str(i)) for q, d, g, i in frame[["query_id", "doc_id", "grade", "iteration"]].values
    }


def write(frame: pd.DataFrame, path: Path) -> Path:
    path.write_text("".join(f"{q} {i} {d} {g}\n" for q, i, d, g in frame[COLUMNS].itertuples(index=False)))
    return path


@pytest.fixture
def rounds(data_dir: Path, tmp_path: Path) -> dict[str, Path]:
    """Round files (cumulative, as TREC-COVID's) and a final release that withdraws, regrades, moves and adds."""
    dl = read_file(data_dir / "trec_dl" / "qrels.dl19-passage.txt.gz")
    position = dl.groupby("query_id").cumcount()
    size = dl.groupby("query_id")["doc_id"].transform("size")
    dl["iteration"] = [ROUNDS[min(2, 3 * p // s)] for p, s in zip(position, size, strict=True)]
    files = {
        "r1": write(dl[dl["iteration"] == "0.5"], tmp_path / "round1.qrels"),
        "r2": write(dl[dl["iteration"].isin(ROUNDS[:2])], tmp_path / "round2.qrels"),
    }
    final = dl.copy()
    final = final[final.index % 13 != 5]  # withdrawn
    regrade = final.index % 17 == 3
    final.loc[regrade, "grade"] = (final.loc[regrade, "grade"] + 1) % 4
    moved = (final.index % 19 == 7) & ~regrade
    final.loc[moved, "iteration"] = "2"
    extra = pd.DataFrame(
        {
            "query_id": ["1037798", "1037798", "19335"],
            "iteration": "2",
            "doc_id": ["x1", "x2", "x3"],
            "grade": [3, 0, 1],
        }
    )
    files["final"] = write(pd.concat([final, extra], ignore_index=True), tmp_path / "final.qrels")
    return files


def _expected(draft: pd.DataFrame, final: pd.DataFrame) -> pd.DataFrame:
    """Per query: added, withdrawn, regraded, iteration (moved only), computed independently of the code."""
    both = draft.merge(final, on=["query_id", "doc_id"], how="outer", suffixes=("_d", "_f"), indicator=True)
    both["added"] = both["_merge"] == "right_only"
    both["withdrawn"] = both["_merge"] == "left_only"
    on = both["_merge"] == "both"
    both["regraded"] = on & (both["grade_d"] != both["grade_f"])
    both["iteration"] = on & ~both["regraded"] & (both["iteration_d"] != both["iteration_f"])
    table = both.groupby("query_id")[["added", "withdrawn", "regraded", "iteration"]].sum().astype("int64")
    table = table[table.sum(axis=1) > 0].reset_index()
    return table.iloc[sorted(range(len(table)), key=lambda i: natural_key(table["query_id"].iloc[i]))].reset_index(
        drop=True
    )


def _project_in_round_2(tmp_path: Path, rounds: dict[str, Path]) -> Project:
    project = Project.create(tmp_path / "covid.ndcgproj", annotator="ana")
    import_judgments(project, rounds["r1"], annotator="ana")
    freeze(project, annotator="ana")
    start_draft(project, 1, annotator="ana")
    import_judgments(project, rounds["r2"], annotator="ana")
    freeze(project, annotator="ana")
    start_draft(project, 2, annotator="ana")
    return project


def test_a_release_makes_the_draft_exactly_the_file_and_counts_each_change_per_query(tmp_path, rounds):
    final = read_file(rounds["final"])
    with _project_in_round_2(tmp_path, rounds) as project:
        draft = project.pools.draft()
        assert draft is not None
        before = project.pools.pool_items(draft.version)
        assert as_set(before) == as_set(read_file(rounds["r2"]))  # each round's iteration kept as read
        preview = plan_release(project, rounds["final"])
        expected = _expected(read_file(rounds["r2"]), final)
        pd.testing.assert_frame_equal(preview.per_query, expected)
        totals = expected[["added", "withdrawn", "regraded", "iteration"]].sum()
        assert [preview.total(c) for c in ("added", "withdrawn", "regraded", "iteration")] == totals.tolist()
        assert preview.total("added") > 0 and preview.total("withdrawn") > 0 and preview.total("regraded") > 0
        assert as_set(project.pools.pool_items(draft.version)) == as_set(before)  # the preview wrote nothing

        applied = apply_release(project, preview, annotator="ana")
        items = project.pools.pool_items(applied.version)
        assert as_set(items) == as_set(final)  # the release's judgments are the file's, whole
        rewritten = preview.changes[preview.changes["change"].isin(["added", "regraded"])]
        keys = set(zip(rewritten["query_id"], rewritten["doc_id"], strict=True))
        credited = items[[key in keys for key in zip(items["query_id"], items["doc_id"], strict=True)]]
        assert len(credited) == len(rewritten) and set(credited["annotator"]) == {"import:final.qrels"}  # not ana
        audit = project.judgments.audit_log(applied.version)
        release = audit[audit["action"] == "release (import:final.qrels)"]
        assert len(release) == len(preview.changes) and set(release["who"]) == {"ana"}
        gone = release[release["new_grade"].isna()]
        assert len(gone) == preview.total("withdrawn")


def test_the_release_is_undone_row_for_row(tmp_path, rounds):
    with _project_in_round_2(tmp_path, rounds) as project:
        path = project.path
        dump, logs = full_dump(path), append_only(path)
        applied = apply_release(project, plan_release(project, rounds["final"]), annotator="ana")
        assert full_dump(path) != dump
        undo_release(project, applied, annotator="ana")
        assert_same(dump, full_dump(path), logs)
        audit = project.judgments.audit_log(applied.version)
        assert (audit["action"] == "undo release").sum() == len(applied.preview.changes)


def test_a_release_is_refused_once_the_draft_changed_since_its_preview(tmp_path, rounds):
    with _project_in_round_2(tmp_path, rounds) as project:
        preview = plan_release(project, rounds["final"])
        draft = project.pools.draft()
        assert draft is not None
        project.judgments.add_items(
            pd.DataFrame({"query_id": ["19335"], "doc_id": ["x-new"]}), action="add", annotator="ana"
        )
        with pytest.raises(InputError, match="changed since the release was compared"):
            apply_release(project, preview, annotator="ana")


def test_a_regrade_in_a_plain_import_names_release_as_the_remedy(tmp_path, rounds):
    with _project_in_round_2(tmp_path, rounds) as project, pytest.raises(InputError) as caught:
        import_judgments(project, rounds["final"], annotator="ana")
    assert "is already graded" in caught.value.message and "--release" in str(caught.value)
    assert caught.value.line is not None and str(rounds["final"]) in str(caught.value)


def _ndcg(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``ndcg ARGS`` in this process (its ``main``), with its output and exit code as a child's would be."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _stdin(stdin):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(text: str | None) -> Iterator[None]:
    if text is None:
        yield
        return
    saved, sys.stdin = sys.stdin, io.StringIO(text)  # not a terminal: a question cannot be asked
    try:
        yield
    finally:
        sys.stdin = saved


def test_the_command_line_previews_asks_and_applies(tmp_path, rounds):
    _project_in_round_2(tmp_path, rounds).close()
    project = str(tmp_path / "covid.ndcgproj")
    final = read_file(rounds["final"])
    dump = full_dump(Path(project))
    dry = _ndcg("import-qrels", project, str(rounds["final"]), "--release", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    expected = _expected(read_file(rounds["r2"]), final)
    rows = [line.split() for line in dry.stdout.splitlines()[2:]]
    assert rows == [[str(v) for v in row] for row in expected.itertuples(index=False)]  # natural order, per query
    assert full_dump(Path(project)) == dump  # nothing written
    refused = _ndcg("import-qrels", project, str(rounds["final"]), "--release", stdin="")
    assert refused.returncode == 2 and "--yes" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert full_dump(Path(project)) == dump
    done = _ndcg("import-qrels", project, str(rounds["final"]), "--release", "--yes")
    assert done.returncode == 0, done.stderr
    with Project.open(project, read_only=True) as p:
        draft = p.pools.draft()
        assert draft is not None and as_set(p.pools.pool_items(draft.version)) == as_set(final)


def test_a_release_reads_negative_grades_as_the_plain_import_does(tmp_path):
    """One reading of a judgments file for every import (issue 33 item 15 met issue 35 item 2): a -1 is trec_eval's
    "pooled, not judged", an ungraded item of the draft under --negative-as-ungraded, for a release as for a plain
    import. Releasing the very file a plain import took changes nothing; an item whose -1 a release drops is
    withdrawn, one whose -1 it adds is added ungraded."""
    from ndcg_desktop.tasks.importing import NegativeGrades

    ungraded = NegativeGrades.UNGRADED
    first = tmp_path / "first.qrels"
    first.write_text("q1 0 A 2\nq1 0 B -1\nq2 0 C 1\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        import_judgments(project, first, negative=ungraded, annotator="ann")
        same = plan_release(project, first, negative=ungraded)
        assert same.plan.changes.empty, same.plan.changes
        later = tmp_path / "later.qrels"
        later.write_text("q1 0 A 2\nq2 0 C 1\nq2 0 D -1\n")
        changes = plan_release(project, later, negative=ungraded).plan.changes
        assert {(q, d, c) for q, d, c in changes[["query_id", "doc_id", "change"]].values} == {
            ("q1", "B", "withdrawn"),
            ("q2", "D", "added"),
        }
        assert changes.loc[changes["doc_id"] == "D", "new_grade"].isna().all()  # added ungraded, not graded -1
        with pytest.raises(InputError, match="negative-as-ungraded"):  # refused without the choice, as an import is
            plan_release(project, later)
