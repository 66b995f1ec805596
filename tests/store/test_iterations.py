"""The round of every judgment is kept (issue 35 item 4): the qrels iteration column is stored as read, written back
by export-qrels, filters a version when scoring or exporting, and older projects migrate with iteration 0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.schema import ITERATION_FORMAT, SCHEMA_VERSION
from ndcg_desktop.tasks.export import export_frozen_pool
from ndcg_desktop.tasks.importing import import_judgments
from ndcg_desktop.tasks.project import freeze
from tests.tasks.test_releases import _ndcg, as_set, read_file, write

ROUNDS = ("0.5", "1", "1.5")


@pytest.fixture
def rounds_file(data_dir: Path, tmp_path: Path) -> Path:
    """TREC DL 2019's judgments, each query's split into three rounds written as TREC-COVID writes them."""
    dl = read_file(data_dir / "trec_dl" / "qrels.dl19-passage.txt.gz")
    position = dl.groupby("query_id").cumcount()
    size = dl.groupby("query_id")["doc_id"].transform("size")
    dl["iteration"] = [ROUNDS[min(2, 3 * p // s)] for p, s in zip(position, size, strict=True)]
    return write(dl, tmp_path / "rounds.qrels")


def _frozen(tmp_path: Path, qrels: Path, name: str = "p.ndcgproj") -> Project:
    project = Project.create(tmp_path / name, annotator="ana")
    import_judgments(project, qrels, annotator="ana")
    freeze(project, annotator="ana")
    return project


def test_each_judgment_keeps_its_iteration_as_written_and_export_writes_it_back(tmp_path, rounds_file):
    expected = read_file(rounds_file)
    with _frozen(tmp_path, rounds_file) as project:
        assert as_set(project.pools.pool_items(1)) == as_set(expected)
        export_frozen_pool(project, tmp_path / "out.qrels", version=1)
        export_frozen_pool(project, tmp_path / "out.csv", version=1, fmt="csv")
        digest = project.pools.version(1).hash
    assert as_set(read_file(tmp_path / "out.qrels")) == as_set(expected)  # not 0 on every line
    csv = pd.read_csv(tmp_path / "out.csv", dtype=str).astype({"grade": "int64"})
    assert list(csv.columns) == ["query_id", "doc_id", "grade", "iteration"] and as_set(csv) == as_set(expected)
    for exported in ("out.qrels", "out.csv"):  # each re-imports to the same hash and the same rounds
        with _frozen(tmp_path, tmp_path / exported, name=f"{exported}.ndcgproj") as again:
            assert again.pools.version(1).hash == digest and as_set(again.pools.pool_items(1)) == as_set(expected)


def test_a_new_draft_copies_each_judgments_iteration(tmp_path, rounds_file):
    from ndcg_desktop.tasks.project import start_draft

    with _frozen(tmp_path, rounds_file) as project:
        draft = start_draft(project, 1, annotator="ana")
        assert as_set(project.pools.pool_items(draft.draft.version)) == as_set(project.pools.pool_items(1))


def test_iteration_filters_what_is_exported_and_an_unknown_one_is_refused(tmp_path, rounds_file):
    expected = read_file(rounds_file)
    with _frozen(tmp_path, rounds_file) as project:
        export_frozen_pool(project, tmp_path / "r1.qrels", version=1, iterations=("0.5", "1"))
        manifest = json.loads((tmp_path / "r1.qrels.manifest.json").read_text())
        with pytest.raises(InputError, match=r"no judgment of iteration '2'; its iterations are '0\.5', '1', '1\.5'"):
            export_frozen_pool(project, tmp_path / "r9.qrels", version=1, iterations=("2",))
    assert as_set(read_file(tmp_path / "r1.qrels")) == as_set(expected[expected["iteration"].isin(["0.5", "1"])])
    assert manifest["iterations"] == ["0.5", "1"]


def test_scoring_one_iteration_equals_scoring_that_rounds_file(tmp_path, rounds_file):
    expected = read_file(rounds_file)
    # a run over the judged documents, in an order unlike the grades' (reverse document ID), 20 a query
    run = expected.sort_values(["query_id", "doc_id"], ascending=[True, False]).groupby("query_id").head(20)
    run_file = tmp_path / "r.run"
    run_file.write_text(
        "".join(
            f"{q} Q0 {d} {i % 20 + 1} {100 - i % 20} r\n"
            for i, (q, d) in enumerate(zip(run["query_id"], run["doc_id"], strict=True))
        )
    )
    subset = write(expected[expected["iteration"] == "1"], tmp_path / "round1.qrels")
    _frozen(tmp_path, rounds_file).close()
    project = str(tmp_path / "p.ndcgproj")
    assert _ndcg("import-run", project, str(run_file), "--name", "r").returncode == 0
    common = ["--unjudged", "zero", "--queries", "pool", "--unknown-queries", "ignore", "--json"]
    stored = _ndcg("score", "--project", project, "--run-name", "r", "--iteration", "1", *common)
    assert stored.returncode == 0, stored.stderr
    files = _ndcg("score", "--qrels", str(subset), "--run", str(run_file), *common)
    assert files.returncode == 0, files.stderr
    a, b = json.loads(stored.stdout), json.loads(files.stdout)
    assert a["summary"]["mean_ndcg"] == pytest.approx(b["summary"]["mean_ndcg"], abs=1e-12)
    assert [(q["query_id"], q["ndcg"]) for q in a["queries"]] == [(q["query_id"], q["ndcg"]) for q in b["queries"]]
    assert a["manifest"]["judgments"]["iterations"] == ["1"]
    whole = _ndcg("score", "--project", project, "--run-name", "r", *common)
    assert json.loads(whole.stdout)["summary"]["mean_ndcg"] != a["summary"]["mean_ndcg"]


def _copy_v4(tmp_path: Path, data_dir: Path) -> Path:
    for name in ("project-v4.ndcgproj", "project-v4.ndcgproj-wal", "project-v4.ndcgproj-shm"):
        shutil.copy(data_dir / "schema_v4" / name, tmp_path / name)
    return tmp_path / "project-v4.ndcgproj"


def test_an_older_project_migrates_with_iteration_0_and_keeps_its_hashes(tmp_path, data_dir):
    path = _copy_v4(tmp_path, data_dir)
    with Project.open(path, read_only=True) as old:  # read-only: not migrated, read as iteration 0
        assert old.file.schema_version < ITERATION_FORMAT
        frozen = [v for v in old.pools.versions() if v.frozen]
        items = {v.version: old.pools.pool_items(v.version) for v in frozen}
        export_frozen_pool(old, tmp_path / "before.qrels", version=frozen[0].version)
    assert frozen and all(set(frame["iteration"]) == {"0"} for frame in items.values())
    with Project.open(path) as p:
        assert p.file.schema_version == SCHEMA_VERSION == ITERATION_FORMAT
        assert p.protection_problems() == []
        for v in frozen:
            assert p.pools.frozen_version(v.version).hash == v.hash  # proven against the hash recorded before
            assert set(p.pools.pool_items(v.version)["iteration"]) == {"0"}
        export_frozen_pool(p, tmp_path / "after.qrels", version=frozen[0].version)
    assert (tmp_path / "after.qrels").read_bytes() == (tmp_path / "before.qrels").read_bytes()
    assert {line.split()[1] for line in (tmp_path / "after.qrels").read_text().splitlines()} == {"0"}
