"""Issue 32 item 4, second half, held by structure: the evaluation settings hold the policies only; what the data owns
(the scale, the tie policy, the ID map) is one value, :class:`~ndcg_desktop.domain.DataTerms`, taken from the data;
the two are joined into the :class:`~ndcg_desktop.domain.Measure` a kernel scores under by ``EvalSettings.under``
alone. No use case or front sets those fields on the settings and then replaces them: the settings have none."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_FIELDS = {"scale", "ties", "id_map"}


def _calls(folder: str, root: Path = REPO) -> list[tuple[Path, ast.Call, str]]:
    """Each call under ``ndcg_desktop/folder`` (the whole package for ``""``), with the name it calls."""
    found = []
    for path in sorted((root / "ndcg_desktop" / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                found.append((path, node, name))
    return found


def _field_settings(folder: str, root: Path = REPO) -> list[str]:
    """Each call under ``folder`` that names a data field as a keyword of ``.with_(...)``, ``replace(...)`` or
    ``EvalSettings(...)``."""
    found = []
    for path, node, name in _calls(folder, root):
        if name not in {"with_", "replace", "EvalSettings"}:
            continue
        named = DATA_FIELDS & {keyword.arg for keyword in node.keywords}
        if named:
            found.append(f"{path.relative_to(root)}:{node.lineno} {name}({', '.join(sorted(named))}=...)")
    return found


def _joins(root: Path = REPO) -> list[str]:
    """Where the package builds a :class:`Measure` itself instead of asking ``EvalSettings.under`` for one."""
    return [
        f"{path.relative_to(root)}:{node.lineno}"
        for path, node, name in _calls("", root)
        if name == "Measure" and path.relative_to(root).as_posix() != "ndcg_desktop/domain/settings.py"
    ]


def test_the_settings_hold_the_policies_only():
    from ndcg_desktop.domain import DataTerms, EvalSettings, Measure
    from ndcg_desktop.domain.choices import POLICY_CHOICES

    policies = [f.name for f in dataclasses.fields(EvalSettings)]
    assert policies == ["gain", "unjudged", "duplicates", "zero_idcg", "queries", "unknown_queries"]
    assert policies == [choice.name for choice in POLICY_CHOICES]
    assert [f.name for f in dataclasses.fields(DataTerms)] == ["scale", "ties", "id_map"]
    assert {f.name: f.type for f in dataclasses.fields(Measure)} == {"policies": "EvalSettings", "terms": "DataTerms"}


def test_no_module_sets_what_the_data_owns_on_the_settings():
    """Outside the domain, which defines the types (``DataTerms.with_scale`` is a ``replace`` of the terms)."""
    assert [found for found in _field_settings("") if not found.startswith("ndcg_desktop/domain/")] == []


def test_the_policies_join_the_data_terms_in_one_place():
    assert _joins() == []


def test_the_checkers_see_a_field_set_on_the_settings_and_a_measure_built(tmp_path):
    folder = tmp_path / "ndcg_desktop" / "tasks"
    folder.mkdir(parents=True)
    (folder / "use.py").write_text(
        "s = base.with_(scale=v.scale)\nt = EvalSettings(ties='file-order')\nm = Measure(base, terms)\n"
    )
    assert _field_settings("tasks", tmp_path) == [
        "ndcg_desktop/tasks/use.py:1 with_(scale=...)",
        "ndcg_desktop/tasks/use.py:2 EvalSettings(ties=...)",
    ]
    assert _joins(tmp_path) == ["ndcg_desktop/tasks/use.py:3"]


def test_the_data_terms_join_the_policies_in_one_place():
    """A stored run's reading and a version's scale become one :class:`DataTerms`; ``under`` joins them with the
    policies and keeps every policy, and the measure's text is what the old field-by-field settings printed."""
    from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale, Measure, RunReading, TiePolicy, UnjudgedPolicy

    policies = EvalSettings(unjudged=UnjudgedPolicy.CONDENSE)
    reading = RunReading(ties=TiePolicy.FILE_ORDER, id_map="#")
    joined = policies.under(reading.terms(GradeScale(0, 2)))
    assert joined.terms == DataTerms(GradeScale(0, 2), TiePolicy.FILE_ORDER, "#")
    assert joined.policies == policies
    assert joined == Measure(policies, DataTerms(ties=reading.ties, id_map=reading.id_map, scale=GradeScale(0, 2)))
    assert joined.to_text(10) == (
        "nDCG@10(gain=linear,unjudged=condense,duplicates=reject,zero_idcg=keep,queries=pool,unknown_queries=reject,"
        'ties=file-order,scale=0..2,id_map="#")'
    )
    assert Measure.parse(joined.to_text(10)) == (joined, 10)
