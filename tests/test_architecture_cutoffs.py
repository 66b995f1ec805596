"""Issue 32 items 4, 6 and 7, held by structure: the settings hold the policies only, the cut-offs travel as one
checked value from each front to the kernel, no front restates a default, and the kernel is named stages."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "ndcg_desktop"


def test_evaluation_settings_hold_the_policies_only():
    from ndcg_desktop.domain import EvalSettings

    assert "k" not in {f.name for f in dataclasses.fields(EvalSettings)}
    with pytest.raises(TypeError):
        EvalSettings(k=10)  # type: ignore[call-arg]


def test_the_cutoffs_travel_as_one_checked_value_to_the_kernel():
    """Every hop from the Runs view, ``ndcg compare`` and the API to the kernel takes :class:`Cutoffs`, the one value
    checked where a front took the text or the list; none takes a bare list to check again."""
    from ndcg_desktop.scoring.ndcg import evaluate_cutoffs
    from ndcg_desktop.sessions.runs import RunsSession
    from ndcg_desktop.tasks import browse, comparing, files, scoring

    hops = [
        evaluate_cutoffs,
        scoring.score_run_at,
        scoring.evaluate_with_bounds,
        scoring.score_given_run,
        files.score_files_at,
        comparing.compare_files,
        comparing.compare_project,
        comparing.compare_stored,
        comparing.compare_scored,
        comparing.compare_evaluations,
        browse.ProjectReader.score_at,
        browse.ProjectReader.score_given,
        browse.ProjectReader.compare,
    ]
    annotations = {hop.__qualname__: inspect.signature(hop).parameters["ks"].annotation for hop in hops}
    assert annotations == {name: "Cutoffs" for name in annotations}
    assert {f.name: f.type for f in dataclasses.fields(comparing.RunsComparison)}["ks"] == "Cutoffs"
    assert type(RunsSession()._ks).__name__ == "Cutoffs"


def test_the_settings_line_is_built_from_its_parts():
    """No front or use case cuts K off a settings text (``to_text().split("(", 1)``): ``Measure.spec()``."""
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if 'split("(", 1)' in line
    ]
    assert found == []


K_NAMES = frozenset({"k", "_k", "ks", "_ks", "_shown_k", "cutoff"})
SCALE_TEXT, TIE_TEXT = "0..3", "docid-desc"


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (a module's, a class's, a function's)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _restated_defaults(source: str) -> list[str]:
    """Defaults a front writes itself instead of taking them from the table of choices (domain.choices): a literal
    K (a parameter's default, an attribute or widget set to one, ``--k``'s default), the scale 0..3 or the tie
    policy's name as text outside docstrings."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []

    def literal(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and not isinstance(node.value, bool) and node.value is not None

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            pairs = list(zip(args.args[len(args.args) - len(args.defaults) :], args.defaults, strict=True))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
            found += [f"{node.lineno}: {a.arg}={ast.unparse(d)}" for a, d in pairs if a.arg in K_NAMES and literal(d)]
        elif isinstance(node, ast.Assign):
            names = [t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "") for t in node.targets]
            if not set(names) & K_NAMES:
                continue
            value = node.value
            given = [value] if literal(value) else []
            if isinstance(value, ast.Call):
                given += [a for a in value.args if literal(a)]
                given += [kw.value for kw in value.keywords if kw.arg == "value"]
            found += [f"{node.lineno}: {names[0]} = {ast.unparse(value)}" for g in given[:1] if literal(g)]
        elif isinstance(node, ast.Call) and node.args and ast.unparse(node.args[0]) == "'--k'":
            default = next((kw.value for kw in node.keywords if kw.arg == "default"), None)
            if literal(default):
                found.append(f"{node.lineno}: --k default={ast.unparse(default)}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if SCALE_TEXT in node.value or node.value == TIE_TEXT:
                found.append(f"{node.lineno}: {node.value!r}")
    return found


def _fronts() -> list[Path]:
    return sorted(
        [
            *(PACKAGE / "gui").rglob("*.py"),
            *(PACKAGE / "cli").rglob("*.py"),
            *(PACKAGE / "sessions").rglob("*.py"),
            PACKAGE / "api.py",
        ]
    )


def test_no_front_restates_a_default_of_the_table_of_choices():
    """Issue 32 item 6: K = 10, the scale 0..3 and the tie policy's default are the table's (``DEFAULT_K``,
    ``GradeScale()``, ``BY_NAME["ties"].default``), never written again in the window, ``ndcg``, the API or the
    view sessions."""
    found = {
        str(path.relative_to(REPO)): hits
        for path in _fronts()
        if (hits := _restated_defaults(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_default_check_finds_what_it_looks_for():
    source = (
        "def score(run, *, k=10):\n"
        "    self.k = 10\n"
        "    self.k = QSpinBox(minimum=1, maximum=10_000, value=10)\n"
        "    self.ks = QLineEdit('10')\n"
        "    parser.add_argument('--k', default='10', help='cut-offs')\n"
        "    scale = GradeScale.parse(args.scale or '0..3')\n"
        "    settings_of(args, ties='docid-desc')\n"
        "    self.k = DEFAULT_K\n"
        "    self.depth = QSpinBox(value=10)\n"
    )
    assert [hit.split(":")[0] for hit in _restated_defaults(source)] == ["1", "2", "3", "4", "5", "6", "7"]


def test_the_condense_bounds_are_written_once():
    """Issue 32 item 7: the bounds from unjudged documents (a second scoring under *zero* when the run is condensed)
    are made in one function, ``tasks.scoring.evaluate_with_bounds``, for ``ndcg compare`` and the window alike."""
    calls = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in sorted((PACKAGE / "tasks").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("unjudged_bounds")
    ]
    assert calls == ["ndcg_desktop/tasks/scoring.py:" + calls[0].split(":")[1]] and len(calls) == 1


def test_the_kernel_is_named_stages():
    """Issue 32 item 7: ``_evaluate`` (167 lines before) and ``_cut`` (110) compose named stages, each tested alone
    (tests/scoring/test_dcg_stages.py), the way ranx composes ``_dcg``, ``_idcg`` and ``_ndcg``."""
    from ndcg_desktop.scoring import dcg, ndcg

    lengths = {f.__name__: len(inspect.getsource(f).splitlines()) for f in (ndcg._evaluate, ndcg._cut)}
    assert lengths["_evaluate"] <= 110 and lengths["_cut"] <= 30, lengths
    stages = ("_universe", "_run_queries", "_ordered_rows", "_candidate_judgments", "_without_duplicates")
    assert all(callable(getattr(ndcg, name)) for name in (*stages, "_judged_rows", "_refuse_unjudged"))
    assert all(callable(getattr(dcg, name)) for name in ("near_top_k", "dcg_at_k", "ties_at_k", "per_query_at_k"))
