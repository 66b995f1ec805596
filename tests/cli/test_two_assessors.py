"""Two assessors' qrels files into a fresh project (issue 27), on a real file: TREC DL 2019's passage qrels as
ana's, and a second assessor derived from them with a fixed seed (some items left out, some grades moved by
one, a few new items). The figures of ``ndcg agreement`` are the ``krippendorff`` package's and scikit-learn's
for the two files, computed here from the files alone; a duplicate import is warned of, with the figure
without it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project

DATA = Path(__file__).resolve().parents[1] / "data"
GRADES = [0, 1, 2, 3]
COLUMNS = ["query_id", "iteration", "doc_id", "grade"]


def read(path) -> pd.DataFrame:
    return pd.read_csv(path, sep=r"\s+", names=COLUMNS, dtype={"query_id": str, "doc_id": str})


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """ana.qrels (DL19 as published) and ben.qrels (seeded: 10% left out, 20% of the rest moved by one grade within
    0..3, five new items)."""
    root = tmp_path_factory.mktemp("assessors")
    text = gzip.decompress((DATA / "trec_dl" / "qrels.dl19-passage.txt.gz").read_bytes()).decode()
    ana = root / "ana.qrels"
    ana.write_text(text)
    frame = read(ana)
    rng = np.random.default_rng(27)
    ben = frame[rng.random(len(frame)) >= 0.1].copy()
    moved = rng.random(len(ben)) < 0.2
    ben.loc[moved, "grade"] = np.clip(ben.loc[moved, "grade"] + rng.choice([-1, 1], int(moved.sum())), 0, 3)
    new = pd.DataFrame({"query_id": ben["query_id"].iloc[:5].to_numpy(), "iteration": 0, "grade": 2})
    new.insert(2, "doc_id", [f"new{i}" for i in range(5)])
    ben = pd.concat([ben, new[COLUMNS]], ignore_index=True)
    ben.to_csv(root / "ben.qrels", sep=" ", header=False, index=False)
    return {"ana": ana, "ben": root / "ben.qrels"}


def oracle(files: dict[str, object]) -> dict[str, float]:
    """Alpha (krippendorff, ordinal over 0..3) and Cohen's weighted kappas (scikit-learn) of the two files."""
    both = read(files["ana"]).merge(read(files["ben"]), on=["query_id", "doc_id"], suffixes=("_a", "_b"))
    a, b = both["grade_a"].to_numpy(), both["grade_b"].to_numpy()
    return {
        "items": len(both),
        "alpha": krippendorff.alpha(
            np.vstack([a, b]).astype(float), level_of_measurement="ordinal", value_domain=GRADES
        ),
        "linear": cohen_kappa_score(a, b, labels=GRADES, weights="linear"),
        "quadratic": cohen_kappa_score(a, b, labels=GRADES, weights="quadratic"),
        "differ": int((a != b).sum()),
    }


def ok(argv: list[str], capsys) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    return out


def test_the_commands_of_the_issue_give_krippendorffs_and_sklearns_figures(files, tmp_path, capsys):
    expected = oracle(files)
    ana, ben = read(files["ana"]), read(files["ben"])
    project = str(tmp_path / "t.ndcgproj")
    ok(["init", project], capsys)
    out = ok(["import-qrels", project, str(files["ana"]), "--annotator", "ana"], capsys)
    assert out.startswith(f"draft version 1 (started: an empty draft): {len(ana)} items joined the pool\n")
    out = ok(["import-qrels", project, str(files["ben"]), "--annotator", "ben"], capsys)
    assert out.splitlines() == [
        "draft version 1: 5 items joined the pool",
        f"ben: {len(ben)} new ratings, 0 changed, 0 unchanged from ben.qrels; {expected['differ']} items rated "
        "differently wait for adjudication",
    ]
    report = json.loads(ok(["agreement", project, "--json"], capsys))
    assert report["manifest"]["annotators"] == ["ana", "ben"]
    assert report["manifest"]["shared_items"] == expected["items"]
    assert report["manifest"]["alpha_ordinal"] == pytest.approx(expected["alpha"], abs=1e-12)
    (pair,) = [p for p in report["pairs"] if p["query_id"] == ""]  # all queries
    assert (pair["annotator_a"], pair["annotator_b"], pair["items"]) == ("ana", "ben", expected["items"])
    assert pair["kappa_linear"] == pytest.approx(expected["linear"], abs=1e-12)
    assert pair["kappa_quadratic"] == pytest.approx(expected["quadratic"], abs=1e-12)
    assert report["duplicates"] == {"pairs": [], "without_duplicates": None}
    # then adjudicate and freeze work as after a merge
    out = ok(["adjudicate", project, "--rule", "median"], capsys)
    assert out == f"{expected['differ']} items settled by the rule 'median', 0 left to pick\n"
    assert "froze pool version 1" in ok(["freeze", project], capsys)
    with Project.open(project, read_only=True) as opened:
        frozen = opened.pools.pool_items(1)
        assert len(frozen) == len(ana) + 5 and frozen["grade"].notna().all()


def test_the_path_that_worked_before_plus_a_duplicate_is_warned_of(files, tmp_path, capsys):
    """The issue's detour (the file without --annotator, then both with it) gives three annotators, two of them
    identical: the warning names them, and the figure without the duplicate is the two files' own."""
    expected = oracle(files)
    project = str(tmp_path / "t.ndcgproj")
    ok(["init", project], capsys)
    ok(["import-qrels", project, str(files["ana"])], capsys)  # credited to import:ana.qrels
    ok(["import-qrels", project, str(files["ben"]), "--annotator", "ben"], capsys)
    out = ok(["import-qrels", project, str(files["ana"]), "--annotator", "ana"], capsys)
    items = len(read(files["ana"]))
    assert out.splitlines()[-1] == (
        f"warning: ana's ratings equal import:ana.qrels's on every one of the {items} items both rated (the same "
        "file twice, or one person under two names?); ndcg agreement shows the figures with and without the duplicate"
    )
    text = ok(["agreement", project], capsys).splitlines()
    assert text[0] == "pool version 1 (draft): 3 annotators (ana, ben, import:ana.qrels)"
    warnings = [line for line in text if line.startswith("WARNING")]
    assert warnings == [
        f"WARNING    ana and import:ana.qrels gave the same grade on every one of the {items} items both rated "
        "(at least 10: one file imported twice, or one person under two names?); the figures above count those "
        "ratings twice",
        f"WARNING    without import:ana.qrels: alpha {expected['alpha']:.4f}, unanimous "
        f"{1 - expected['differ'] / expected['items']:.4f} (ana, ben: 2 annotators sharing {expected['items']} items)",
    ]
    report = json.loads(ok(["agreement", project, "--json"], capsys))
    dedup = report["duplicates"]["without_duplicates"]
    assert report["duplicates"]["pairs"] == [{"a": "ana", "b": "import:ana.qrels", "items": items}]
    assert (dedup["left_out"], dedup["annotators"]) == (["import:ana.qrels"], ["ana", "ben"])
    assert dedup["alpha_ordinal"] == pytest.approx(expected["alpha"], abs=1e-12)
    # the inflated figure: three raters, two of them the same person
    assert report["manifest"]["alpha_ordinal"] > dedup["alpha_ordinal"]
