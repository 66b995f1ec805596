"""`ndcg agreement`: the team's agreement and the systems check from the command line, on a real project."""

from __future__ import annotations

import json
import math

import pytest

from ndcg_desktop.cli.main import main

L3 = math.log2(3)
POOL = "q1 0 A -1\nq1 0 B -1\nq1 0 C -1\nq2 0 X -1\nq2 0 Y -1\n"  # the items, ungraded
ANA = "q1 0 A 3\nq1 0 B 0\nq1 0 C 0\nq2 0 X 1\nq2 0 Y 0\n"
BEN = "q1 0 A 0\nq1 0 B 3\nq1 0 C 0\n"
RUNS = {
    "sysA": "q1 Q0 A 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 Y 1 3 t\n",
    "sysB": "q1 Q0 B 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 X 1 3 t\n",
}


@pytest.fixture
def project(tmp_path, capsys):
    path = str(tmp_path / "team.ndcgproj")
    files = (("pool.qrels", POOL), ("ana.qrels", ANA), ("ben.qrels", BEN), *((f"{r}.run", t) for r, t in RUNS.items()))
    for name, text in files:
        (tmp_path / name).write_text(text)
    assert main(["init", path]) == 0
    assert main(["import-qrels", path, str(tmp_path / "pool.qrels"), "--negative-as-ungraded"]) == 0
    assert main(["import-qrels", path, str(tmp_path / "ana.qrels"), "--annotator", "ana"]) == 0
    assert main(["import-qrels", path, str(tmp_path / "ben.qrels"), "--annotator", "ben"]) == 0
    assert main(["adjudicate", path, "--rule", "highest"]) == 0  # A and B become 3
    assert main(["freeze", path]) == 0
    for run in RUNS:
        assert main(["import-run", path, str(tmp_path / f"{run}.run"), "--name", run]) == 0
    capsys.readouterr()
    return path


def test_json_holds_the_figures(project, capsys):
    assert main(["agreement", project, "--version", "1", "--json", "--unjudged", "zero"]) == 0
    data = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))  # no NaN
    overall_pair = next(p for p in data["pairs"] if p["query_id"] == "")
    # ana [3, 0, 0] and ben [0, 3, 0] on q1: both gave 0 twice and 3 once.
    # linear: observed |3-0| + |0-3| = 6; expected (|0-3| 2 1 + |3-0| 1 2) / 3 = 4
    assert overall_pair["kappa_linear"] == pytest.approx(1 - 6 / 4)
    assert overall_pair["raw_agreement"] == pytest.approx(1 / 3)
    assert data["manifest"]["annotators"] == ["ana", "ben"]
    assert data["manifest"]["shared_items"] == 3
    means = {row["run"]: row for row in data["systems"]["means"]}
    # q1 only (q2 is ana's alone). Consensus A=3, B=3, C=0: IDCG@10 = 3 + 3/log2(3)
    assert means["sysA"]["consensus"] == pytest.approx(3 / (3 + 3 / L3))
    assert means["sysA"]["ana"] == pytest.approx(1.0)
    assert means["sysA"]["ben"] == 0.0
    tau = {(t["judge_a"], t["judge_b"]): t["kendall_tau"] for t in data["systems"]["kendall_tau"]}
    assert tau[("ana", "ben")] == pytest.approx(-1.0)  # the ordering flips


def test_text_names_the_version_and_the_refused_runs(project, tmp_path, capsys):
    (tmp_path / "sysZ.run").write_text("q1 Q0 Z 1 3 t\n")  # Z is not in the pool: unjudged
    assert main(["import-run", project, str(tmp_path / "sysZ.run"), "--name", "sysZ"]) == 0
    capsys.readouterr()
    assert main(["agreement", project]) == 0  # the latest version; unjudged documents refused by default
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("pool version 1 (frozen, sha256 ")
    assert out[0].endswith("): 2 annotators (ana, ben)")
    assert "items      3 of 5 rated items were rated by two or more annotators" in out
    assert [line for line in out if line.startswith("not scored: ")] == [
        "not scored: sysZ: sysZ.run:1: document Z for query q1 is not in the judgment pool (unjudged; 1 unjudged "
        "document in all); choose --unjudged zero|condense"  # the command line's own option
    ]
    assert any(line.startswith("kendall tau ana / ben: -1.0000") for line in out)


def test_export_and_refusals_are_one_line(project, tmp_path, capsys):
    assert main(["agreement", project, "--unjudged", "zero", "--export", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "manifest.json").exists()
    capsys.readouterr()
    assert main(["agreement", project, "--version", "7"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "7" in err and "\n" not in err


def test_score_names_the_annotators_and_their_alpha(project, capsys):
    assert main(["score", "--project", project, "--run-name", "sysA", "--unjudged", "zero"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Ordinal alpha by Krippendorff's coincidences: units {3,0}, {0,3}, {0,0}; n_0 = 4, n_3 = 2, n = 6;
    # delta(0,3) = (n_0 + n_3 - (n_0 + n_3) / 2)^2 = 9; D_o = (2 + 2) 9; D_e = 2 n_0 n_3 9.
    alpha = 1 - (6 - 1) * (4 * 9) / (2 * 4 * 2 * 9)
    judges = next(line for line in lines if line.startswith("judges "))
    assert judges.startswith("judges     2 annotators (ana, ben)")
    assert judges.endswith(f"; the people's Krippendorff's alpha (ordinal) {alpha:.4f} on 3 items rated by two or more")


def test_figures_over_three_items_and_two_runs_are_printed_with_their_caveats(project, capsys):
    assert main(["agreement", project, "--unjudged", "zero"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("caveat: ")] == [
        "caveat: alpha and the kappas rest on 3 items rated by two or more annotators (fewer than 10): "
        "over so few items they say little about agreement (over one, they can only be 0, 1 or undefined)",
        "caveat: Kendall's tau orders only 2 runs, so it takes one of 2 values (1 or -1): it says whether their order "
        "changes, little more",
    ]
    assert main(["agreement", project, "--unjudged", "zero", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["manifest"]["caveats"]) == 2
