"""The whole loop on real items people graded (issue 25): Cranfield's judgments of queries 1..3 are one person's
ratings; the model judges some items nobody rated, filling from it is refused before it is calibrated, it is
calibrated on items people rated, the agreement shows it beside the person, filling is then allowed, and the
frozen version's manifest and every score's summary name the model, its template and its agreement.

To keep the model's calls few, the calibration is 12 items and filling asks for 8 (``--min-shared 8``, the
option the refusal states; four answers may fail to parse); the default of 50 is checked by
tests/store/test_assessor_record.py."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from tests.store.conftest import dump

from .servers import MODEL, ndcg
from .test_judge import ANNOTATOR, attempts, rows

DATA = "tests/data/cranfield"


def test_calibrate_measure_then_fill_on_real_cranfield_items(cranfield, llama, capsys):
    url = llama.url
    assert ndcg("import-run", cranfield, f"{DATA}/bm25.run.gz", "--name", "bm25") == 0
    assert ndcg("pool", cranfield, "--depth", "1", "--runs", "bm25") == 0
    capsys.readouterr()
    # items nobody rated (BM25's first document for queries 4 and 5, which the person did not grade): the
    # model's ratings, which leave them ungraded
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", MODEL, "--queries", "4,5") == 0
    unrated = rows(
        cranfield,
        "SELECT count(*) FROM judgments j WHERE j.query_id IN ('4', '5') AND NOT EXISTS (SELECT 1 FROM ratings r "
        "WHERE r.query_id = j.query_id AND r.doc_id = j.doc_id AND r.annotator = 'nist')",
    )[0][0]
    assert unrated == 2 and len(attempts(cranfield)) == unrated
    assert rows(cranfield, "SELECT count(*) FROM judgments WHERE grade IS NOT NULL AND annotator = ?", ANNOTATOR) == [
        (0,)
    ]
    # filling before calibration: refused, naming how many items were compared and how many it needs
    before = dump(cranfield)
    capsys.readouterr()
    fill = ("freeze", cranfield, "--fill-ungraded-from", ANNOTATOR, "--remove-ungraded", "--min-shared", "8")
    assert ndcg(*fill) == 2
    err = capsys.readouterr().err
    assert (
        f"{ANNOTATOR} was compared with people on 0 items of draft version 1; filling ungraded items from it "
        "needs at least 8 (--min-shared)" in err
    )
    assert dump(cranfield) == before
    # calibration: 12 items people rated
    assert ndcg("judge", cranfield, "--endpoint", url, "--model", MODEL, "--items", "rated", "--sample", "12") == 0
    calibration = rows(
        cranfield,
        "SELECT m.grade, p.grade FROM ratings m JOIN ratings p ON (p.query_id, p.doc_id) = (m.query_id, m.doc_id) "
        "AND p.annotator = 'nist' WHERE m.annotator = ? ORDER BY m.query_id, m.doc_id",
        ANNOTATOR,
    )
    assert len(calibration) >= 8, "fewer than 8 of the 12 calibration answers parsed"
    model, people = (np.array(column) for column in zip(*calibration, strict=True))
    capsys.readouterr()
    assert ndcg("agreement", cranfield, "--json") == 0
    figures = json.loads(capsys.readouterr().out)
    overall = [p for p in figures["pairs"] if p["query_id"] == ""]
    (pair,) = [p for p in overall if {p["annotator_a"], p["annotator_b"]} == {ANNOTATOR, "nist"}]
    assert pair["items"] == len(calibration)
    kappa = cohen_kappa_score(model, people, labels=list(range(5)), weights="linear")
    assert pair["kappa_linear"] == pytest.approx(kappa, rel=1e-12)
    # filling after calibration: allowed, recorded
    assert ndcg(*fill) == 0
    out = capsys.readouterr().out
    filled = rows(cranfield, "SELECT count(*) FROM judgments WHERE version = 1 AND adjudication = ?", ANNOTATOR)[0][0]
    graded_unrated = rows(
        cranfield,
        "SELECT count(DISTINCT query_id || char(9) || doc_id) FROM assessor_attempts WHERE grade IS NOT NULL AND "
        "NOT EXISTS (SELECT 1 FROM ratings r WHERE r.query_id = assessor_attempts.query_id AND r.doc_id = "
        "assessor_attempts.doc_id AND r.annotator = 'nist')",
    )[0][0]
    assert filled == graded_unrated > 0
    template = hashlib.sha256(
        resources.files("ndcg_desktop.tasks.assessing").joinpath("template.txt").read_bytes()
    ).hexdigest()
    model_line = (
        f"model      {filled} grades from {ANNOTATOR} (host 127.0.0.1:{llama.port}, template sha256 {template[:12]}…); "
        f"agreement with people on {len(calibration)} items: exact {np.mean(model == people):.3f}, Cohen's kappa "
        f"linear {kappa:.3f}, quadratic "
        f"{cohen_kappa_score(model, people, labels=list(range(5)), weights='quadratic'):.3f}"
    )
    assert model_line in out.splitlines()
    assert f"adjudicated {filled} by {ANNOTATOR}" in out
    # every score's summary names the model, and the manifest carries its record
    assert (
        ndcg("score", "--project", cranfield, "--run-name", "bm25", "--unjudged", "zero", "--unknown-queries", "ignore")
        == 0
    )
    assert model_line in capsys.readouterr().out.splitlines()
    assert (
        ndcg(
            "score",
            "--project",
            cranfield,
            "--run-name",
            "bm25",
            "--unjudged",
            "zero",
            "--unknown-queries",
            "ignore",
            "--json",
        )
        == 0
    )
    manifest = json.loads(capsys.readouterr().out)["manifest"]["judgments"]
    record = manifest["models"][ANNOTATOR]
    assert record["grades"] == filled and record["agreement"]["items"] == len(calibration)
    assert {run["template_sha256"] for run in record["runs"]} == {template}
    assert manifest["adjudication"] == {ANNOTATOR: filled}
    # the systems' ordering under the model's grades beside the consensus (Kendall's tau), on the frozen version
    assert ndcg("import-run", cranfield, f"{DATA}/tfidf.run.gz", "--name", "tfidf") == 0
    capsys.readouterr()
    assert ndcg("agreement", cranfield, "--version", "1", "--unjudged", "zero", "--unknown-queries", "ignore") == 0
    text = capsys.readouterr().out
    assert f"kendall tau consensus / {ANNOTATOR}: " in text and f"{ANNOTATOR} - nist " in text
