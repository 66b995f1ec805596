"""Issue 36 items 11 and 12 (contract rule 18): the headline alpha of a version is the people's, and a model's
agreement is its own line, in the frozen record, its manifests, ``ndcg agreement`` (text, JSON, export) and the
score's summary; the caveats of every front come from one list."""

from __future__ import annotations

import json

import krippendorff
import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import RATING_COLUMNS
from tests.helpers import model_rates

MODEL = "model:smollm2"
ANA = {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 0, "d6": 2}
BEN = {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 1, "d6": 2}  # the people agree but on d5
MODEL_GRADES = {"d1": 0, "d2": 3, "d3": 2, "d4": 3, "d5": 2, "d6": 0}  # the model does not


@pytest.fixture
def frozen(tmp_path):
    path = tmp_path / "p.ndcgproj"
    docs = list(ANA)
    with Project.create(path, scale=GradeScale(0, 3), annotator="coord") as p:
        p.judgments.add_items(pd.DataFrame({"query_id": ["q1"] * len(docs), "doc_id": docs}), annotator="coord")
        rows = [("q1", d, who, g, "", "2026-01-01T00:00:00") for who, grades in (("ana", ANA), ("ben", BEN))
                for d, g in grades.items()]  # fmt: skip
        p.ratings.add_ratings(pd.DataFrame(rows, columns=RATING_COLUMNS), version=1, source="test", annotator="coord")
        model_rates(p, MODEL, {("q1", d): g for d, g in MODEL_GRADES.items()}, version=1)
    assert main(["adjudicate", str(path), "--rule", "highest"]) == 0
    assert main(["freeze", str(path)]) == 0
    (tmp_path / "a.run").write_text("".join(f"q1 Q0 {d} {i + 1} {10 - i} a\n" for i, d in enumerate(docs)))
    assert main(["import-run", str(path), str(tmp_path / "a.run"), "--name", "a"]) == 0
    return path


def _alpha(*raters: dict[str, int]) -> float:
    grades = [list(r.values()) for r in raters]
    return float(krippendorff.alpha(grades, level_of_measurement="ordinal", value_domain=[0, 1, 2, 3]))


def test_the_frozen_record_and_every_front_lead_with_the_peoples_alpha(frozen, tmp_path, capsys):
    people, everyone = _alpha(ANA, BEN), _alpha(ANA, BEN, MODEL_GRADES)
    assert people > 0.8 and everyone < 0.5  # the model would drag the headline down
    capsys.readouterr()
    assert main(["score", "--project", str(frozen), "--run-name", "a", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["manifest"]["judgments"]
    assert record["agreement"]["annotators"] == ["ana", "ben"]
    assert record["agreement"]["alpha_ordinal"] == pytest.approx(people, abs=1e-12)
    assert MODEL in record["models"]  # the model's agreement with people: its own entry
    assert main(["score", "--project", str(frozen), "--run-name", "a"]) == 0
    judges = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("judges"))
    assert judges.endswith(f"the people's Krippendorff's alpha (ordinal) {people:.4f} on 6 items rated by two or more")
    assert main(["agreement", str(frozen), "--export", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[2] == f"alpha      {people:.4f}   (Krippendorff, ordinal) (people only: ana, ben)"
    assert text[4] == (
        f"model      {MODEL}: alpha with the people {everyone:.4f} on 6 items rated by two or more (its own line: a "
        "model is an annotator, not the truth)"
    )
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["alpha_ordinal"] == pytest.approx(people, abs=1e-12) and manifest["people"] == ["ana", "ben"]
    assert manifest["models"][MODEL]["alpha_ordinal_with_people"] == pytest.approx(everyone, abs=1e-12)
    # item 11: the caveats the text prints are the manifest's, word for word, the model's among them
    printed = [line.removeprefix("caveat: ") for line in text if line.startswith("caveat: ")]
    assert printed == manifest["caveats"] and len(printed) >= 2
    assert any(caveat.startswith(f"{MODEL}'s alpha with the people rests on 6 items") for caveat in printed)
    assert main(["agreement", str(frozen), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["manifest"]["caveats"] == printed
