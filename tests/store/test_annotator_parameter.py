"""Issue 32 item 5 in the store: whoever a write records is a parameter of that write, never state of the file.

The store reads no environment and keeps no user; every function of it that writes an audit row (or a row's
author) takes the name; the one grade write and the one note write return what they took; the audit log has one
row writer.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.store import Project
from ndcg_desktop.store.core import ProjectFile
from ndcg_desktop.store.judgments import JudgmentRepository
from ndcg_desktop.store.undo import Taken

STORE = Path(__file__).resolve().parents[2] / "ndcg_desktop" / "store"
# Who the one function that writes audit rows without a person credits: the model a run was started for, recorded
# with the run (store/assessor.py); its person is the run's started_by.
CREDITED_BY_THE_ROW = {"AssessorRepository.record"}
NAMES = {"annotator", "started_by", "imported_by"}


def test_the_store_reads_no_name_from_the_environment():
    """NDCG_USER, the login name and the preferences are tasks.identity's; the store only stores what it is given."""
    for path in sorted(STORE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for word in ("NDCG_USER", "environ", "getpass", "getenv", "preferences"):
            assert word not in text, f"{path.name} mentions {word}"


def test_the_open_file_holds_no_user():
    assert "user" not in inspect.signature(ProjectFile.__init__).parameters
    assert "user" not in inspect.signature(Project.open).parameters
    assert not hasattr(Project, "user")
    with pytest.raises(AttributeError):
        ProjectFile.user  # noqa: B018


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            found |= {f"{node.name}.{f.name}": f for f in node.body if isinstance(f, ast.FunctionDef)}
    return found


def _audit_writers() -> dict[str, ast.FunctionDef]:
    """Every function of the store that writes the audit log, itself or through another store function it calls."""
    functions = {
        f"{path.stem}:{name}": node
        for path in sorted(STORE.glob("*.py"))
        for name, node in _functions(ast.parse(path.read_text(encoding="utf-8"))).items()
    }

    def called(node: ast.FunctionDef) -> set[str]:
        """The store functions ``node`` calls: module functions, and methods of its own and its repositories."""
        return {
            c.func.attr if isinstance(c.func, ast.Attribute) else c.func.id
            for c in ast.walk(node)
            if isinstance(c, ast.Call)
            and (
                isinstance(c.func, ast.Name)
                or isinstance(c.func, ast.Attribute)
                and ast.unparse(c.func.value).startswith("self")
            )
        }

    writers = {
        key
        for key, node in functions.items()
        if "INSERT INTO audit_log" in ast.unparse(node) or "audit" in called(node) and not key.startswith("audit:")
    }
    while True:  # a function calling a writer (self.pools.open_draft, self._settle, ...) writes too
        more = {
            key
            for key, node in functions.items()
            if key not in writers and called(node) & {w.split(":")[1].split(".")[-1] for w in writers}
        }
        if not more:
            return {key: functions[key] for key in writers}
        writers |= more


def test_every_store_function_that_writes_an_audit_row_takes_the_name_it_records():
    writers = _audit_writers()
    # the ones the issue names, found by the walk: grades, notes, drafts, freezing, imports, adjudication, undo
    assert {
        "judgments:JudgmentRepository.set_grade",
        "judgments:JudgmentRepository.set_note",
        "judgments:JudgmentRepository.record_freeze",
        "judgments:JudgmentRepository.import_qrels",
        "pools:PoolRepository.ensure_draft",
        "pools:PoolRepository.mark_frozen",
        "ratings:RatingRepository.adjudicate",
        "ratings:RatingRepository.import_ratings",
        "undo:UndoRepository.restore",
        "releases:ReleaseRepository.apply",
        "pool_builds:PoolBuildRepository.take_batches",
    } <= set(writers)
    missing = [
        key
        for key, node in writers.items()
        if key.split(":")[1] not in CREDITED_BY_THE_ROW
        and not NAMES & {a.arg for a in [*node.args.args, *node.args.kwonlyargs]}
    ]
    assert missing == []


def test_the_audit_log_has_one_row_writer():
    """The INSERT of a row from values is written once (store/audit.py); the others copy a staged table in SQL."""
    values = [
        path.name
        for path in sorted(STORE.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and "INSERT INTO audit_log" in node.value
        and "SELECT" not in node.value
    ]
    assert values == ["audit.py"]


def test_one_grade_write_and_one_note_write_return_what_they_took():
    for twin in ("set_grade", "grade_taken", "set_note", "note_taken"):
        assert not hasattr(Project, twin)
    assert not hasattr(JudgmentRepository, "grade_taken") and not hasattr(JudgmentRepository, "note_taken")
    grade = inspect.signature(JudgmentRepository.set_grade)
    assert "restore" not in grade.parameters and grade.parameters["annotator"].kind is inspect.Parameter.KEYWORD_ONLY
    assert grade.return_annotation in (Taken, "Taken")
    assert inspect.signature(JudgmentRepository.set_note).return_annotation in (Taken, "Taken")
    assert "what" not in Taken.__dataclass_fields__


def test_a_write_records_the_name_it_is_given_whatever_the_environment_says(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_USER", "somebody-else")
    with Project.create(tmp_path / "p.ndcgproj", annotator="ana") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"]}), annotator="ana")
        taken = project.judgments.set_grade("q1", "d1", 2, annotator="zoe")
        project.undo.restore(taken, action="undo grade", annotator="ben")
        project.judgments.set_note("q1", "d1", "on topic", annotator="zoe")
        log = project.judgments.audit_log()
        created_by = project.file.meta("created_by", "")
    assert log[["action", "who"]].values.tolist() == [
        ["draft", "ana"],
        ["add", "ana"],
        ["grade", "zoe"],
        ["undo grade", "ben"],
        ["note", "zoe"],
    ]
    assert created_by == "ana"
