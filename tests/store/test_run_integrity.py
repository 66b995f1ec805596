"""A stored run proves it is unchanged, like a frozen pool version (rule 15 of docs/evaluation-contract.md).

The tester's defect: negating the ``score`` column inside a run's Arrow blob through python sqlite3 + pyarrow
changed nDCG@10 silently while the manifest still printed the original file's sha256. Now the import records
``runs.data_hash`` (schema.run_hash of what is stored), every load recomputes it, and triggers refuse any
UPDATE, DELETE or REPLACE of a run row. Every tamper goes through a plain sqlite3 connection.
"""

from __future__ import annotations

import io
import math
import shutil
import sqlite3
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.domain.settings import UnjudgedPolicy
from ndcg_desktop.store import Project, ProtectionAltered, RunChanged
from ndcg_desktop.store.schema import SCHEMA_VERSION, run_hash
from ndcg_desktop.tasks import plan_send_for_judging, pool_preview
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run
from tests.helpers import tamper

RUN_TRIGGERS = ("stored_run_not_updated", "stored_run_not_deleted", "stored_run_not_replaced")
ARGV = ["--run-name", "bm25", "--unjudged", "zero"]


def expected_ndcg10() -> float:
    """nDCG@10, linear gain, log2 discount, of tests/data/schema_v1's bm25.txt against its qrels.txt, by hand.

    q1 ranks C(1) A(3) X(unjudged: 0) B(2); ideal A B C. q2 ranks D(1) E(2); ideal E D.
    """
    q1 = (1 + 3 / math.log2(3) + 2 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / 2)
    q2 = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    return (q1 + q2) / 2


def stored(path: Path) -> tuple[str, bytes]:
    con = sqlite3.connect(path)
    try:
        recorded, blob = con.execute("SELECT data_hash, data FROM runs WHERE name = 'bm25'").fetchone()
    finally:
        con.close()
    return str(recorded), bytes(blob)


def negated_blob(blob: bytes) -> bytes:
    """The tester's edit: the same Arrow stream with the ``score`` column negated."""
    table = pa.ipc.open_stream(blob).read_all()
    index = table.schema.get_field_index("score")
    table = table.set_column(index, "score", pc.negate(table.column("score")))
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()


def tamper_run(path: Path, blob: bytes, *, restore: bool) -> None:
    """Drop the UPDATE trigger, overwrite the blob, and (with ``restore``) recreate the trigger verbatim."""
    tamper(path, ("UPDATE runs SET data = ? WHERE name = 'bm25'", (blob,)), triggers=RUN_TRIGGERS[:1], restore=restore)


def now_hash(path: Path) -> str:
    """What the stored row hashes to now, read independently of the store's load."""
    con = sqlite3.connect(path)
    try:
        row = con.execute(
            "SELECT name, source_name, sha256, format, reading, rows, queries, data FROM runs WHERE name = 'bm25'"
        ).fetchone()
    finally:
        con.close()
    return run_hash(*row)


@pytest.fixture
def project(tmp_path, data_dir) -> Path:
    """A project built by this version from tests/data/schema_v1: its qrels frozen as version 1, run bm25."""
    path = tmp_path / "t4.ndcgproj"
    with Project.create(path, annotator="ann") as created:
        created.judgments.import_qrels(data_dir / "schema_v1" / "qrels.txt", annotator="ann")
        created.runs.import_run(data_dir / "schema_v1" / "bm25.txt", name="bm25", annotator="ann")
        freeze_draft(created, annotator="ann")
    return path


def score(path: Path, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["score", "--project", str(path), *ARGV])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_intact_stored_run_records_the_hash_of_what_is_stored_and_scores(project, capsys):
    recorded, _ = stored(project)
    assert recorded == now_hash(project)  # the independent computation agrees on an intact file
    code, out, _ = score(project, capsys)
    assert code == 0
    assert f"{expected_ndcg10():.4f}" in out


@pytest.mark.parametrize("restore", [True, False], ids=["trigger-recreated", "trigger-left-dropped"])
def test_a_negated_score_column_in_the_run_blob_is_refused_by_score_project(project, capsys, restore):
    recorded, blob = stored(project)
    tamper_run(project, negated_blob(blob), restore=restore)
    changed = now_hash(project)
    assert changed != recorded

    code, out, err = score(project, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    if restore:  # protection intact: the hash is what tells
        assert "run 'bm25'" in err and recorded in err and changed in err and "import the run again" in err
    else:  # the dropped trigger is named at the writable open (ProtectionAltered)
        assert "trigger stored_run_not_updated is missing" in err


def test_a_changed_run_is_refused_by_every_use_in_the_tasks_layer(project, tmp_path):
    recorded, blob = stored(project)
    tamper_run(project, negated_blob(blob), restore=False)
    changed = now_hash(project)
    with Project.open(project, read_only=True) as opened:  # read-only: the changed trigger does not stop reading
        assert opened.protection_problems() == ["trigger stored_run_not_updated is missing"]
        for use in (
            lambda: opened.runs.load_run("bm25"),
            lambda: score_run(opened, "bm25", None, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False),
            lambda: plan_send_for_judging(opened, "bm25", None, depth=10),
            lambda: pool_preview(opened, ["bm25"], 10),
        ):
            with pytest.raises(RunChanged) as refused:
                use()
            message = str(refused.value)
            assert isinstance(refused.value, InputError)
            assert str(project) in message and "run 'bm25'" in message
            assert recorded in message and changed in message and "bm25.txt" in message


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE runs SET data = x'00' WHERE name = 'bm25'",
        "UPDATE runs SET reading = '{}' WHERE name = 'bm25'",
        "UPDATE runs SET data_hash = 'x' WHERE name = 'bm25'",
        "DELETE FROM runs WHERE name = 'bm25'",
        "INSERT OR REPLACE INTO runs SELECT * FROM runs WHERE name = 'bm25'",
    ],
    ids=["blob", "reading", "hash", "delete", "replace"],
)
def test_an_update_delete_or_replace_of_a_run_row_is_aborted_by_the_triggers(project, statement):
    before = stored(project)
    con = sqlite3.connect(project, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="a stored run cannot"):
            con.execute(statement)
    finally:
        con.close()
    assert stored(project) == before


def test_the_run_triggers_are_part_of_the_protection_checked_at_open(project):
    con = sqlite3.connect(project, isolation_level=None)
    try:
        con.execute("DROP TRIGGER stored_run_not_deleted")
    finally:
        con.close()
    with pytest.raises(ProtectionAltered, match="trigger stored_run_not_deleted is missing"):
        Project.open(project)


def test_a_format_1_project_is_migrated_and_its_run_scores_to_the_same_numbers(tmp_path, data_dir, capsys):
    """tests/data/schema_v1/project-v1.ndcgproj was written by the code before runs carried a hash (f84205e)."""
    path = tmp_path / "old.ndcgproj"
    shutil.copyfile(data_dir / "schema_v1" / "project-v1.ndcgproj", path)
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 1
        assert "data_hash" not in [row[1] for row in con.execute("PRAGMA table_info(runs)")]
    finally:
        con.close()

    with Project.open(path, read_only=True) as opened:  # read-only, not migrated: still opens, intact, scores
        assert opened.protection_problems() == []
        scored = score_run(opened, "bm25", None, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False)
        assert scored.evaluation.summary["mean_ndcg"] == pytest.approx(expected_ndcg10(), abs=1e-12)

    code, out, _ = score(path, capsys)  # writable: migrated, then scored
    assert code == 0
    assert f"{expected_ndcg10():.4f}" in out
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # format 1 -> 2 -> the latest
        names = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    finally:
        con.close()
    assert set(RUN_TRIGGERS) <= names
    recorded, _ = stored(path)
    assert recorded == now_hash(path)
    with Project.open(path) as opened:
        assert opened.protection_problems() == []
        scored = score_run(opened, "bm25", None, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False)
        assert scored.evaluation.summary["mean_ndcg"] == pytest.approx(expected_ndcg10(), abs=1e-12)

    recorded, blob = stored(path)  # and the migrated run is protected like a new one
    tamper_run(path, negated_blob(blob), restore=True)
    code, _, err = score(path, capsys)
    assert code == 2 and recorded in err and now_hash(path) in err


def test_a_format_1_project_with_altered_protection_is_refused_and_not_migrated(tmp_path, data_dir):
    """A file that is never written while its protection is altered is not migrated either."""
    path = tmp_path / "old.ndcgproj"
    shutil.copyfile(data_dir / "schema_v1" / "project-v1.ndcgproj", path)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("DROP TRIGGER frozen_judgment_not_updated")
        before = list(con.iterdump())
    finally:
        con.close()
    with pytest.raises(ProtectionAltered, match="trigger frozen_judgment_not_updated is missing"):
        Project.open(path)
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 1
        assert list(con.iterdump()) == before
    finally:
        con.close()


def test_a_migration_failing_at_its_last_step_leaves_the_file_at_its_own_format(tmp_path, data_dir, monkeypatch):
    """Every step from format 1 to the latest is one transaction: a failure in the last (a full disk, say) leaves
    the file exactly as it was, not at a format in between."""
    from ndcg_desktop.store import core

    path = tmp_path / "old.ndcgproj"
    shutil.copyfile(data_dir / "schema_v1" / "project-v1.ndcgproj", path)

    def dump() -> list[str]:
        con = sqlite3.connect(path)
        try:
            return [con.execute("PRAGMA user_version").fetchone()[0], *con.iterdump()]
        finally:
            con.close()

    before = dump()
    broken = core.MIGRATIONS[SCHEMA_VERSION - 1] + "\nINSERT INTO no_such_table VALUES (1);"
    monkeypatch.setitem(core.MIGRATIONS, SCHEMA_VERSION - 1, broken)
    with pytest.raises(InputError, match="no such table: no_such_table"):  # translated: no traceback
        Project.open(path)
    assert dump() == before and before[0] == 1
