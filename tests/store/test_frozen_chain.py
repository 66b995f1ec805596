"""A version number, once frozen, never names other judgments (issue 24 item 5): each frozen version's hash is
kept in an append-only chain outside the pool_versions row, each link hashing the previous link, the number and
the hash; the chain is checked when the file opens and at every use."""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import FrozenVersionChanged, Project, ProtectionAltered
from ndcg_desktop.store.schema import SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.status import project_status

from .conftest import dump
from .test_frozen_integrity import frozen, tamper  # noqa: F401 - the fixture and the helper are shared

__all__ = ["frozen"]


def link(previous: str, version: int, digest: str) -> str:
    """The chain's link, written out independently of the code: length-prefixed fields under a header."""
    h = hashlib.sha256(b"ndcg-frozen-chain-v1\n")
    for part in (previous, str(version), digest):
        h.update(f"{len(part.encode())}:".encode() + part.encode())
    return h.hexdigest()


def chain(path: Path) -> list[tuple[int, str, str]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT version, hash, link FROM frozen_chain ORDER BY version").fetchall()
    finally:
        con.close()


def flip_to_draft(path: Path) -> None:
    tamper(path, "UPDATE pool_versions SET state = 'draft' WHERE version = 1", triggers=("frozen_version_is_final",))


def test_freezing_appends_a_link_that_chains_the_previous_one(frozen, tmp_path):  # noqa: F811
    path, v1 = frozen
    assert chain(path) == [(1, v1, link("", 1, v1))]
    with Project.open(path) as project:
        project.pools.new_draft_from(1, annotator="ann")
        project.judgments.set_grade("q1", "C", 0, annotator="ann")
        v2 = freeze_draft(project, annotator="ann").hash
    assert v2 is not None and v2 != v1
    assert chain(path) == [(1, v1, link("", 1, v1)), (2, v2, link(link("", 1, v1), 2, v2))]


def test_a_frozen_version_flipped_back_to_a_draft_is_reported_and_never_frozen_again(frozen, tmp_path, capsys):  # noqa: F811
    path, v1 = frozen
    flip_to_draft(path)
    said = f"pool version 1 was frozen with sha256 {v1}; it is a draft with sha256 {v1} now"
    before = dump(path)
    assert main(["status", str(path)]) == 0
    assert said in capsys.readouterr().out  # the WARNING line of status
    with Project.open(path, read_only=True) as project:
        assert project_status(project)["pool_versions"][0]["changed"] == said
        assert project_status(project)["pool_versions"][0]["intact"] is False
    with pytest.raises(ProtectionAltered, match=said):
        Project.open(path)
    assert main(["freeze", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err and str(path) in err and "Traceback" not in err
    assert dump(path) == before  # no different v1


def test_a_flip_made_while_the_project_is_open_is_caught_at_the_next_write(frozen):  # noqa: F811
    path, v1 = frozen
    with Project.open(path) as project:
        flip_to_draft(path)
        with pytest.raises(FrozenVersionChanged, match=f"pool version 1 was frozen with sha256 {v1}"):
            project.judgments.set_grade("q1", "C", 0, annotator="ann")
        with pytest.raises(FrozenVersionChanged, match=f"pool version 1 was frozen with sha256 {v1}"):
            freeze_draft(project, annotator="ann")
    assert chain(path) == [(1, v1, link("", 1, v1))]


@pytest.mark.parametrize(
    "statement, trigger, said",
    [
        ("DELETE FROM frozen_chain", "frozen_chain_not_deleted", "frozen pool version 1 is missing from the record"),
        ("UPDATE frozen_chain SET hash = 'x'", "frozen_chain_not_updated", "broken at version 1"),
        ("UPDATE frozen_chain SET link = 'x'", "frozen_chain_not_updated", "broken at version 1"),
    ],
    ids=["row deleted", "hash edited", "link edited"],
)
def test_a_chain_row_deleted_or_edited_is_reported_at_open_and_at_every_use(frozen, statement, trigger, said):  # noqa: F811
    path, _ = frozen
    tamper(path, statement, triggers=(trigger,))
    with pytest.raises(ProtectionAltered, match=said):
        Project.open(path)
    with Project.open(path, read_only=True) as project:
        assert any(said in problem for problem in project.protection_problems())
        with pytest.raises(FrozenVersionChanged, match=said):
            project.pools.qrels(1)


def test_the_chain_refuses_a_second_row_for_a_number_and_a_row_for_a_draft(frozen):  # noqa: F811
    path, v1 = frozen
    con = sqlite3.connect(path, isolation_level=None)
    try:
        for sql in (
            f"INSERT INTO frozen_chain VALUES (1, '{v1}', 'x')",
            f"INSERT OR REPLACE INTO frozen_chain VALUES (1, '{v1}', 'x')",
            "INSERT INTO frozen_chain VALUES (5, 'x', 'x')",  # no such frozen version
        ):
            with pytest.raises(sqlite3.IntegrityError, match="joins the record of frozen versions once"):
                con.execute(sql)
    finally:
        con.close()


def test_an_older_file_gets_its_chain_when_it_is_migrated(tmp_path, data_dir):
    path = tmp_path / "v4.ndcgproj"
    shutil.copyfile(data_dir / "schema_v4" / "project-v4.ndcgproj", path)
    con = sqlite3.connect(path)
    frozen_before = con.execute("SELECT version, hash FROM pool_versions WHERE state = 'frozen' ORDER BY 1").fetchall()
    con.close()
    assert frozen_before  # the old file has a frozen version to record
    with Project.open(path) as project:
        assert project.file.schema_version == SCHEMA_VERSION and project.protection_problems() == []
        project.pools.qrels(1)
    expected, previous = [], ""
    for version, digest in frozen_before:
        previous = link(previous, version, digest)
        expected.append((version, digest, previous))
    assert chain(path) == expected


def test_a_new_draft_after_a_discard_reuses_no_frozen_number(frozen):  # noqa: F811
    path, v1 = frozen
    with Project.open(path) as project:
        project.pools.new_draft_from(1, annotator="ann")
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["E"]}), annotator="ann")
        project.judgments.discard_draft(annotator="ann")
        # nor the discarded draft's number (issue 23 item 3: its undo brings it back under that number)
        assert project.pools.new_draft_from(1, annotator="ann").version == 3
    assert chain(path) == [(1, v1, link("", 1, v1))]


# Issue 33 item 10: the chain proves the versions' count and numbers, through the audit log's freezes.
_VERSION_TRIGGERS = (
    "frozen_chain_not_deleted",
    "frozen_version_not_deleted",
    "frozen_judgment_not_deleted",
    "frozen_rating_not_deleted",
)


def _two_frozen(path: Path) -> str:
    with Project.open(path) as project:
        project.pools.new_draft_from(1, annotator="ann")
        project.judgments.set_grade("q1", "C", 0, annotator="ann")
        v2 = freeze_draft(project, annotator="ann").hash
    assert v2 is not None
    return v2


def _remove_version(number: int, *, audit: bool) -> list[str]:
    statements = [f"DELETE FROM {t} WHERE version = {number}" for t in ("frozen_chain", "ratings", "judgments")]
    statements.append(f"DELETE FROM pool_versions WHERE version = {number}")
    return statements + ([f"DELETE FROM audit_log WHERE version = {number}"] if audit else [])


def test_freezing_and_new_drafts_are_audited_with_the_hash_and_the_parent(frozen):  # noqa: F811
    path, v1 = frozen
    v2 = _two_frozen(path)
    con = sqlite3.connect(path)
    try:
        rows = con.execute(
            "SELECT version, action, new_note, who FROM audit_log WHERE query_id = '' ORDER BY id"
        ).fetchall()
    finally:
        con.close()
    assert rows == [
        (1, "draft", "", "ann"),
        (1, "freeze", v1, "ann"),
        (2, "draft", "from version 1", "ann"),
        (2, "freeze", v2, "ann"),
    ]


@pytest.mark.parametrize("audit", [False, True], ids=["its audit rows kept", "its audit rows removed too"])
def test_the_last_frozen_version_removed_with_its_link_and_rows_is_tampering(frozen, audit, capsys):  # noqa: F811
    path, v1 = frozen
    v2 = _two_frozen(path)
    with Project.open(path) as project:
        project.pools.new_draft_from(
            2, annotator="ann"
        )  # its 'draft' row follows v2's in the log: removing v2's rows leaves a gap
    tamper(path, *_remove_version(2, audit=audit), triggers=_VERSION_TRIGGERS + ("audit_log_not_deleted",) * audit)
    said = (
        "rows numbered up to"
        if audit
        else f"pool version 2 was frozen with sha256 {v2} (audit log row 9); the record of frozen versions lacks it"
    )
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert said in out and "CHANGED SINCE FROZEN" not in out  # v1 is as recorded: not proven, never blamed
    with Project.open(path, read_only=True) as project:
        assert any(said in problem for problem in project.protection_problems())
        row = project_status(project)["pool_versions"][0]
        assert (row["version"], row["intact"], row["changed"]) == (1, False, None)
        assert said in row["unproven"]
        with pytest.raises(FrozenVersionChanged, match="pool version 1 cannot be proven: the record"):
            project.pools.qrels(1)
    with pytest.raises(ProtectionAltered, match=re.escape(said)) as refused:
        Project.open(path)
    assert "every frozen version still matches" not in str(refused.value)
    assert main(["freeze", str(path)]) == 2  # no other v2 (or v3) is frozen
    assert chain(path) == [(1, v1, link("", 1, v1))]


def test_a_version_flipped_back_blames_itself_and_never_clears_the_frozen_versions(frozen, capsys):  # noqa: F811
    path, v1 = frozen
    v2 = _two_frozen(path)
    tamper(path, "UPDATE pool_versions SET state = 'draft' WHERE version = 2", triggers=("frozen_version_is_final",))
    said = f"pool version 2 was frozen with sha256 {v2}; it is a draft with sha256 {v2} now"
    with pytest.raises(ProtectionAltered, match=said) as refused:
        Project.open(path)
    assert "every frozen version still matches its recorded hash" not in str(refused.value)
    with Project.open(path, read_only=True) as project:
        rows = project_status(project)["pool_versions"]
        assert [(r["version"], r["intact"], r["changed"]) for r in rows] == [(1, False, None), (2, False, said)]
        with pytest.raises(FrozenVersionChanged) as unproven:
            project.pools.qrels(1)
    assert str(unproven.value).split(": ", 1)[1].startswith("pool version 1 cannot be proven")
    assert "pool version 1 has changed" not in str(unproven.value)
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "CHANGED SINCE FROZEN" not in out.splitlines()[[i for i, x in enumerate(out.splitlines()) if "  v1" in x][0]]
