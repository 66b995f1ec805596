"""`ndcg diff-pools` for a campaign (issue 35 item 5), on TREC DL 2019's qrels split into two rounds: round 1 judges
30 of the 43 queries, round 2 adds the other topics and more judgments. Expected numbers come from the files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain.natural import natural_key
from tests.tasks.test_releases import _ndcg as run_ndcg
from tests.tasks.test_releases import read_file, write

COMMON = ["--unjudged", "zero", "--unknown-queries", "ignore"]


def _ndcg(*args: str) -> subprocess.CompletedProcess[str]:
    done = run_ndcg(*args)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def campaign(data_dir: Path, tmp_path: Path) -> dict[str, Path]:
    dl = read_file(data_dir / "trec_dl" / "qrels.dl19-passage.txt.gz")
    queries = sorted(set(dl["query_id"]), key=natural_key)
    early = set(queries[:30])
    first_half = dl.groupby("query_id").cumcount() < dl.groupby("query_id")["doc_id"].transform("size") // 2
    r1 = dl[dl["query_id"].isin(early) & first_half].assign(iteration="1")
    r2 = pd.concat([r1, dl.drop(r1.index).assign(iteration="2")])
    run = dl.sort_values(["query_id", "doc_id"], ascending=[True, False]).groupby("query_id").head(20)
    run_file = tmp_path / "r.run"
    run_file.write_text(
        "".join(
            f"{q} Q0 {d} {i % 20 + 1} {100 - i % 20} r\n"
            for i, (q, d) in enumerate(zip(run["query_id"], run["doc_id"], strict=True))
        )
    )
    files = {"r1": write(r1, tmp_path / "round1.qrels"), "r2": write(r2, tmp_path / "round2.qrels"), "run": run_file}
    project = tmp_path / "c.ndcgproj"
    files["project"] = project
    _ndcg("init", str(project))
    _ndcg("import-qrels", str(project), str(files["r1"]))
    _ndcg("freeze", str(project))
    _ndcg("new-draft", str(project))
    _ndcg("import-qrels", str(project), str(files["r2"]))
    _ndcg("freeze", str(project))
    _ndcg("import-run", str(project), str(run_file), "--name", "r")
    return files


def _mean(qrels: Path, run: Path) -> float:
    out = _ndcg("score", "--qrels", str(qrels), "--run", str(run), *COMMON, "--json").stdout
    return float(json.loads(out)["summary"]["mean_ndcg"])


def test_summary_shared_queries_manifest_natural_order_and_credit(campaign, tmp_path):
    project = str(campaign["project"])
    r1, r2 = read_file(campaign["r1"]), read_file(campaign["r2"])
    out = _ndcg("diff-pools", project, "1", "2", *COMMON, "--summary", "--shared-queries").stdout
    added = r2.merge(r1, on=["query_id", "doc_id"], how="left", indicator=True)
    added = added[added["_merge"] == "left_only"]
    per_query = added.groupby("query_id").size()
    expected_order = sorted(per_query.index, key=natural_key)  # q2 before q10: 19335 before 1037798
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in set(per_query.index)]
    assert [row[0] for row in rows] == expected_order
    assert [int(row[1]) for row in rows] == [int(per_query[q]) for q in expected_order]
    assert not any(doc in out for doc in added["doc_id"].head(50))  # no line per item
    shared = set(r1["query_id"]) & set(r2["query_id"])
    assert f"means over the {len(shared)} queries both versions judge (v1: 30, v2: 43)" in out
    both = write(r2[r2["query_id"].isin(shared)], tmp_path / "shared.qrels")
    run_row = next(line.split() for line in out.splitlines() if line.startswith("r "))
    assert float(run_row[1]) == pytest.approx(_mean(campaign["r1"], campaign["run"]), abs=5e-5)
    assert float(run_row[2]) == pytest.approx(_mean(both, campaign["run"]), abs=5e-5)

    document = json.loads(_ndcg("diff-pools", project, "1", "2", *COMMON, "--json", "--shared-queries").stdout)
    manifest = document["manifest"]
    assert manifest["tool"] == "ndcg-desktop" and manifest["means_over"] == "queries both versions judge"
    hashes = [v["hash"] for v in manifest["pool_versions"]]
    assert hashes == document["summary"]["hashes"] and len(hashes[0]) == 64
    assert manifest["runs"][0]["name"] == "r" and len(manifest["runs"][0]["sha256"]) == 64
    assert document["runs"][0]["mean_b"] == pytest.approx(_mean(both, campaign["run"]), abs=1e-12)
    whole = json.loads(_ndcg("diff-pools", project, "1", "2", *COMMON, "--json").stdout)
    assert whole["runs"][0]["mean_b"] == pytest.approx(_mean(campaign["r2"], campaign["run"]), abs=1e-12)
    assert [c["query_id"] for c in document["per_query"]] == expected_order
    assert {c["who"] for c in document["changes"]} == {"import:round2.qrels"}  # the import, not who ran it
    assert {c["iteration_b"] for c in document["changes"]} == {"2"}


def test_a_release_is_named_as_the_source_of_what_it_changed(campaign, tmp_path):
    project = str(campaign["project"])
    r2 = read_file(campaign["r2"])
    final = r2[r2.index % 11 != 4].copy()
    final.loc[final.index % 7 == 2, "grade"] = (final.loc[final.index % 7 == 2, "grade"] + 1) % 4
    write(final, tmp_path / "final.qrels")
    _ndcg("new-draft", project)
    _ndcg("import-qrels", project, str(tmp_path / "final.qrels"), "--release", "--yes")
    _ndcg("freeze", project)
    document = json.loads(_ndcg("diff-pools", project, "2", "3", *COMMON, "--json").stdout)
    assert document["summary"]["releases"] == ["import:final.qrels"]
    merged = r2.merge(final, on=["query_id", "doc_id"], how="left", suffixes=("", "_f"))
    assert document["summary"]["removed"] == int(merged["grade_f"].isna().sum())
    assert document["summary"]["regraded"] == int(
        (merged["grade_f"].notna() & (merged["grade"] != merged["grade_f"])).sum()
    )
    assert {c["who"] for c in document["changes"]} == {"import:final.qrels"}
