"""Issue 32 item 4, second half, held by structure: what the data owns (the scale, the tie policy, the ID map) is one
value, :class:`~ndcg_desktop.domain.DataTerms`, joined with the policies by ``EvalSettings.under`` alone; no use
case or session sets those fields on the settings one by one and then replaces them."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_FIELDS = {"scale", "ties", "id_map"}


def _field_settings(folder: str, root: Path = REPO) -> list[str]:
    """Each call under ``folder`` that names a data field as a keyword of ``.with_(...)``, ``replace(...)`` or
    ``EvalSettings(...)``."""
    found = []
    for path in sorted((root / "ndcg_desktop" / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name not in {"with_", "replace", "EvalSettings"}:
                continue
            named = DATA_FIELDS & {keyword.arg for keyword in node.keywords}
            if named:
                found.append(f"{path.relative_to(root)}:{node.lineno} {name}({', '.join(sorted(named))}=...)")
    return found


def test_no_use_case_sets_what_the_data_owns_on_the_settings():
    assert _field_settings("tasks") == []
    assert _field_settings("sessions") == []
    assert _field_settings("scoring") == []


def test_the_checker_sees_a_field_set_on_the_settings(tmp_path):
    folder = tmp_path / "ndcg_desktop" / "tasks"
    folder.mkdir(parents=True)
    (folder / "use.py").write_text("s = base.with_(scale=v.scale)\nt = EvalSettings(ties='file-order')\n")
    assert _field_settings("tasks", tmp_path) == [
        "ndcg_desktop/tasks/use.py:1 with_(scale=...)",
        "ndcg_desktop/tasks/use.py:2 EvalSettings(ties=...)",
    ]


def test_the_data_terms_join_the_policies_in_one_place():
    """A stored run's reading and a version's scale become one :class:`DataTerms`; ``under`` joins them with the
    policies and keeps every policy, and the settings text is what the old field-by-field replacement printed."""
    from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale, RunReading, TiePolicy, UnjudgedPolicy

    policies = EvalSettings(unjudged=UnjudgedPolicy.CONDENSE)
    reading = RunReading(ties=TiePolicy.FILE_ORDER, id_map="#")
    joined = policies.under(reading.terms(GradeScale(0, 2)))
    assert joined.terms == DataTerms(GradeScale(0, 2), TiePolicy.FILE_ORDER, "#")
    assert joined.policies == policies.policies
    assert joined == policies.with_(ties=reading.ties, id_map=reading.id_map, scale=GradeScale(0, 2))
    assert joined.to_text(10) == (
        "nDCG@10(gain=linear,unjudged=condense,duplicates=reject,zero_idcg=keep,queries=pool,unknown_queries=reject,"
        'ties=file-order,scale=0..2,id_map="#")'
    )
    assert EvalSettings.parse(joined.to_text(10)) == (joined, 10)
