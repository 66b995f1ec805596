"""Contract rule 18: every summary and manifest of a version some of whose grades came from a model says how many,
from which model and template, and its measured agreement (the store's own record, no model server needed: the
answers are recorded as tests/store/test_assessor_record.py records them)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import RATING_COLUMNS
from ndcg_desktop.tasks.freezing import freeze_draft
from tests.helpers import model_rates

MODEL = "model:tiny"
PEOPLE = {"d1": 2, "d2": 2, "d3": 2, "d4": 0, "d5": 0, "d6": 0}  # ana's grades
MODEL_GRADES = {"d1": 2, "d2": 1, "d3": 2, "d4": 0, "d5": 1, "d6": 0, "d7": 3, "d8": 0}  # d7, d8: nobody else
FROM_MODEL = 2  # d7 and d8 are filled from the model
MODEL_LINE = f"model      {FROM_MODEL} grades from {MODEL} (host 127.0.0.1:9, template sha256 {'a' * 12}…)"


def ndcg(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def filled(tmp_path):
    """q1 d1..d8 (0..3): ana rated d1..d6, the model all eight; frozen filling d7, d8 from the model; two runs."""
    path = tmp_path / "p.ndcgproj"
    docs = list(MODEL_GRADES)
    with Project.create(path, scale=GradeScale(0, 3), annotator="coord") as p:
        p.judgments.add_items(pd.DataFrame({"query_id": ["q1"] * len(docs), "doc_id": docs}), annotator="coord")
        rows = [("q1", d, "ana", g, "", "2026-01-01T00:00:00") for d, g in PEOPLE.items()]
        p.ratings.add_ratings(pd.DataFrame(rows, columns=RATING_COLUMNS), version=1, source="test", annotator="coord")
        model_rates(p, MODEL, {("q1", d): g for d, g in MODEL_GRADES.items()}, version=1)
        freeze_draft(p, fill_from=MODEL, min_shared=len(PEOPLE), annotator="coord")
    for name, order in (("a", docs), ("b", docs[::-1])):
        (tmp_path / f"{name}.run").write_text(
            "".join(f"q1 Q0 {d} {i + 1} {10 - i} {name}\n" for i, d in enumerate(order))
        )
        assert ndcg("import-run", path, tmp_path / f"{name}.run", "--name", name) == 0
    return path


def test_every_text_summary_of_the_version_names_the_grades_from_the_model(filled, capsys):
    capsys.readouterr()
    outputs = {}
    assert ndcg("score", "--project", filled, "--run-name", "a") == 0
    outputs["score"] = capsys.readouterr().out
    assert ndcg("compare", "--project", filled, "--run-names", "a", "b") == 0
    outputs["compare"] = capsys.readouterr().out
    for command, out in outputs.items():
        lines = [line for line in out.splitlines() if line.startswith("model ")]
        assert len(lines) == 1 and lines[0].startswith(MODEL_LINE + "; agreement with people on 6 items"), command


def test_every_manifest_of_the_version_names_the_grades_from_the_model(filled, tmp_path, capsys):
    capsys.readouterr()
    assert ndcg("score", "--project", filled, "--run-name", "a", "--json") == 0
    scored = json.loads(capsys.readouterr().out)["manifest"]["judgments"]
    assert scored["models"][MODEL]["grades"] == FROM_MODEL and scored["adjudication"] == {MODEL: FROM_MODEL}
    assert ndcg("compare", "--project", filled, "--run-names", "a", "b", "--json") == 0
    compared = json.loads(capsys.readouterr().out)["manifest"]["judgments"]
    assert ndcg("export-qrels", filled, "-o", tmp_path / "v1.qrels") == 0
    exported = json.loads((tmp_path / "v1.qrels.manifest.json").read_text(encoding="utf-8"))
    for manifest in (compared, exported):  # the same record of who graded the version as the score's manifest
        for key in ("annotators", "adjudication", "agreement", "models"):
            assert manifest[key] == scored[key], key
