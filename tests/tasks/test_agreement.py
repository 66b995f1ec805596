"""Does the disagreement matter for the systems? Runs scored under each annotator and the consensus (issue 15)."""

from __future__ import annotations

import hashlib
import json
import math

import pandas as pd
import pytest

from ndcg_desktop.domain import DataTerms, EvalSettings, InputError, UnjudgedPolicy
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.agreement import (
    AGREEMENT_FILES,
    CONSENSUS,
    FEW_SHARED_ITEMS,
    annotator_qrels,
    caveats,
    compute_agreement,
    export_agreement,
    kendall_tau,
)
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run

L3 = math.log2(3)

# Consensus (the frozen version): q1 is the contract's teaching universe A=3, B=2, C=1; q2 is rated by ana alone.
QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq2 0 X 1\nq2 0 Y 0\n"
RUNS = {
    "sysA": "q1 Q0 A 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 Y 1 3 t\n",
    "sysB": "q1 Q0 B 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 X 1 3 t\n",
    "sysC": "q1 Q0 C 1 3 t\nq1 Q0 A 2 2 t\nq2 Q0 X 1 3 t\n",
}
# ana finds only A relevant in q1, ben only B: under ana sysA wins, under ben sysB does.
RATINGS = pd.DataFrame(
    [
        ("q1", "A", "ana", 3), ("q1", "B", "ana", 0), ("q1", "C", "ana", 0),
        ("q1", "A", "ben", 0), ("q1", "B", "ben", 3), ("q1", "C", "ben", 0),
        ("q2", "X", "ana", 0), ("q2", "Y", "ana", 1),  # one rater: q2 is not compared
    ],
    columns=["query_id", "doc_id", "annotator", "grade"],
)  # fmt: skip
K2 = EvalSettings()  # scored at K = 2


@pytest.fixture
def project(tmp_path, write):
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as opened:
        opened.judgments.import_qrels(write("q.txt", QRELS), annotator="lead")
        freeze_draft(opened, annotator="lead")
        for name, text in RUNS.items():
            opened.runs.import_run(write(f"{name}.run", text), name=name, annotator="lead")
        yield opened


def test_the_ordering_flips_between_annotators(project):
    result = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2)
    systems = result.systems
    assert systems.judges == (CONSENSUS, "ana", "ben")
    assert systems.queries == ("q1",)  # q2 has no item rated by two people
    means = systems.means.set_index("run")
    # consensus, q1 only: IDCG@2 = 3 + 2/log2(3)
    idcg = 3 + 2 / L3
    assert means.loc["sysA", CONSENSUS] == pytest.approx((3 + 1 / L3) / idcg)
    assert means.loc["sysB", CONSENSUS] == pytest.approx((2 + 1 / L3) / idcg)
    assert means.loc["sysC", CONSENSUS] == pytest.approx((1 + 3 / L3) / idcg)
    # ana: A=3, B=C=0, IDCG@2 = 3
    assert [means.loc[run, "ana"] for run in RUNS] == [pytest.approx(1.0), 0.0, pytest.approx((3 / L3) / 3)]
    # ben: B=3, A=C=0
    assert [means.loc[run, "ben"] for run in RUNS] == [0.0, pytest.approx(1.0), 0.0]
    taus = {(a, b): tau for a, b, tau in systems.taus}
    assert taus[(CONSENSUS, "ana")].value == pytest.approx(1.0)  # A > C > B under both
    # consensus A > C > B against ben B > A = C: pairs (A,B) and (B,C) discordant, (A,C) tied in ben only.
    # tau-b = (P - Q) / sqrt((n0 - n1)(n0 - n2)), n0 = 3 pairs, n1 = 0 ties in consensus, n2 = 1 tie in ben
    assert taus[(CONSENSUS, "ben")].value == pytest.approx((0 - 2) / math.sqrt((3 - 0) * (3 - 1)))
    assert taus[("ana", "ben")].value == pytest.approx((0 - 2) / math.sqrt((3 - 0) * (3 - 1)))
    assert systems.refused == {} and systems.why == ""


def test_consensus_means_are_the_scoring_use_cases_numbers(project):
    """The consensus column is what ``ndcg score`` gives for the same queries: one scoring path."""
    systems = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2).systems
    means = systems.means.set_index("run")
    for run in RUNS:
        per_query = score_run(project, run, 1, K2, 2, record=False).evaluation.per_query.set_index("query_id")
        assert means.loc[run, CONSENSUS] == per_query.loc["q1", "ndcg"]


def test_per_query_table_holds_every_run_judge_and_query(project):
    systems = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2).systems
    table = systems.per_query
    assert len(table) == 3 * 3 * 2  # runs x judges x pool queries
    sys_b_ana_q2 = table[(table["run"] == "sysB") & (table["judge"] == "ana") & (table["query_id"] == "q2")]
    assert sys_b_ana_q2["ndcg"].tolist() == [0.0]  # ana's X=0 in q2: her grade is used there too


def test_annotator_qrels_put_the_annotators_grades_in_place_of_the_consensus(project):
    consensus = project.pools.qrels(1)
    extra = pd.DataFrame([("q9", "Z", "ben", 2)], columns=RATINGS.columns)  # outside the version: ignored
    ben = annotator_qrels(consensus, pd.concat([RATINGS, extra]), "ben")
    grades = dict(zip(zip(ben.frame["query_id"], ben.frame["doc_id"], strict=True), ben.frame["grade"], strict=True))
    assert grades == {("q1", "A"): 0, ("q1", "B"): 3, ("q1", "C"): 0, ("q2", "X"): 1, ("q2", "Y"): 0}
    assert ben.source.path.endswith("pool v1 graded by ben")
    assert (
        len(ben.source.sha256) == 64 and ben.source.sha256 != annotator_qrels(consensus, RATINGS, "ana").source.sha256
    )


def test_a_run_refused_by_a_policy_is_listed_and_the_others_compared(project, write):
    project.runs.import_run(write("sysD.run", "q1 Q0 Z 1 3 t\n"), name="sysD", annotator="lead")  # Z is unjudged
    systems = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2).systems
    assert list(systems.refused) == ["sysD"]
    assert "unjudged" in str(systems.refused["sysD"])
    assert systems.refused["sysD"].choices == ("unjudged",)  # structured: each front names its own control
    assert list(systems.means["run"]) == ["sysA", "sysB", "sysC"]
    zero = compute_agreement(
        project, project.pools.version(1), RATINGS, K2.with_(unjudged=UnjudgedPolicy.ZERO), 2
    ).systems
    assert zero.refused == {}
    assert zero.means.set_index("run").loc["sysD", "ana"] == 0.0


def test_nothing_to_compare_is_said_in_words(project, tmp_path, write):
    lone = RATINGS[RATINGS["annotator"] == "ana"]
    systems = compute_agreement(project, project.pools.version(1), lone, K2, 2).systems
    assert systems.why == "no query has an item rated by two or more annotators"
    assert systems.taus == [] and len(systems.means) == 0
    draft = project.pools.new_draft_from(1, annotator="lead")
    systems = compute_agreement(project, draft, RATINGS, K2, 2).systems
    assert systems.why == "pool version 2 is a draft: systems are compared on a frozen version"
    with Project.create(tmp_path / "empty.ndcgproj", annotator="lead") as empty:
        empty.judgments.import_qrels(write("q.txt", QRELS), annotator="lead")
        version = freeze_draft(empty, annotator="lead")
        assert compute_agreement(empty, version, RATINGS, K2, 2).systems.why == "no run is imported"


def test_kendall_tau_degenerate_cases():
    assert kendall_tau([0.5], [0.4]).why == "needs two or more scored runs"
    assert kendall_tau([0.5, 0.5], [0.1, 0.2]).why == "every run has the same mean under one of the two"
    assert kendall_tau([0.1, 0.2, 0.3], [0.3, 0.2, 0.1]).value == pytest.approx(-1.0)


def test_the_manifest_names_the_version_annotators_and_settings(project):
    result = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2)
    manifest = result.manifest()
    assert manifest["pool_version"] == 1 and manifest["pool_hash"] == project.pools.version(1).hash
    assert manifest["annotators"] == ["ana", "ben"]
    assert manifest["shared_items"] == 3
    assert manifest["systems"]["settings"]["text"] == K2.under(DataTerms(project.scale)).to_text(2)
    assert manifest["systems"]["judges"] == [CONSENSUS, "ana", "ben"]


def test_export_writes_every_table_and_a_manifest_with_their_hashes(project, tmp_path):
    result = compute_agreement(project, project.pools.version(1), RATINGS, K2, 2)
    folder = tmp_path / "agreement"
    written = export_agreement(result, folder)
    assert sorted(p.name for p in written) == sorted(AGREEMENT_FILES)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    means = pd.read_csv(folder / "systems_means.csv").set_index("run")
    shown = result.systems.means.set_index("run").loc["sysC", "ana"]
    assert means.loc["sysC", "ana"] == shown == pytest.approx((3 / L3) / 3)  # full precision survives the file
    pairs = pd.read_csv(folder / "pairs.csv", keep_default_na=False)
    overall = pairs[pairs["query_id"] == ""]
    assert overall[["annotator_a", "annotator_b", "items"]].values.tolist() == [["ana", "ben", 3]]
    confusion = pd.read_csv(folder / "confusion.csv", keep_default_na=False)
    assert len(confusion[confusion["query_id"] == ""]) == 4 * 4  # every cell of the 0..3 scale for the one pair
    export_agreement(result, folder)  # an earlier agreement export is replaced whole
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="the folder holds other files"):
        export_agreement(result, folder)


def test_export_neutralises_names_a_spreadsheet_would_run(project, tmp_path):
    evil = RATINGS.replace({"annotator": {"ben": "=cmd()"}})
    result = compute_agreement(project, project.pools.version(1), evil, K2, 2)
    export_agreement(result, tmp_path / "out")
    text = (tmp_path / "out" / "systems_means.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0] == '"run","consensus","\'=cmd()","ana"'
    assert '"\'=cmd()"' in (tmp_path / "out" / "pairs.csv").read_text(encoding="utf-8")


# -- two annotators identical on every item both rated (issue 27) ---------------------------------------------


def _ratings(rows: list[tuple[str, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "annotator", "grade"])


def _report(rows: list[tuple[str, str, str, int]]):
    from ndcg_desktop.domain import GradeScale
    from ndcg_desktop.scoring.agreement import agreement

    return agreement(_ratings(rows), GradeScale(0, 3))


def test_identical_pairs_are_found_and_one_of_each_group_is_kept():
    from ndcg_desktop.tasks.agreement import Duplicate, find_duplicates, left_out

    rows = [
        # ana, import:ana.qrels and anna agree everywhere they meet; anna rated one item more; ben differs on B
        ("q1", "A", "ana", 3), ("q1", "A", "import:ana.qrels", 3), ("q1", "A", "anna", 3), ("q1", "A", "ben", 3),
        ("q1", "B", "ana", 1), ("q1", "B", "import:ana.qrels", 1), ("q1", "B", "anna", 1), ("q1", "B", "ben", 2),
        ("q1", "C", "anna", 0),
        ("q2", "X", "cy", 2), ("q2", "Y", "dee", 2),  # cy and dee share no item: never "identical"
    ]  # fmt: skip
    rows += [("q3", f"M{i}", name, i % 4) for i in range(8) for name in ("ana", "import:ana.qrels", "anna")]
    report = _report(rows)
    duplicates = find_duplicates(report)
    assert duplicates == (  # 2 + 8 items alike: DUPLICATE_MIN_ITEMS
        Duplicate("ana", "anna", 10),
        Duplicate("ana", "import:ana.qrels", 10),
        Duplicate("anna", "import:ana.qrels", 10),
    )
    assert left_out(report, duplicates) == ("ana", "import:ana.qrels")  # anna has the most ratings
    tie = _report([r for r in rows if r[2] != "anna"])
    assert left_out(tie, find_duplicates(tie)) == ("import:ana.qrels",)  # a tie: the person stays, not the file
    assert find_duplicates(_report([r for r in rows if r[0] != "q3" or r[1] != "M7"])) == ()  # nine: chance


def test_one_agreeing_item_is_no_duplicate_and_the_line_without_one_names_who_remains(project):
    """Issue 36 item 10: "ben and model:smollm2 gave the same grade on every one of the 1 item both rated" warned of
    a duplicate; and the figures without a duplicate read "(0 annotators, 0 shared items)" while ana remained."""
    from ndcg_desktop.tasks.agreement import DUPLICATE_MIN_ITEMS

    one = [("q1", "A", "ana", 3), ("q1", "A", "ben", 2), ("q1", "B", "ben", 1), ("q1", "B", "model:smollm2", 1)]
    result = compute_agreement(project, project.pools.version(1), _ratings(one), K2, 2)
    assert (result.duplicates, result.deduplicated, result.warnings()) == ((), None, [])
    # ben and model:m alike on ten items no one else rated; ana rated other items: without ben, nobody shares one
    alike = [("q3", f"M{i}", name, i % 4) for i in range(DUPLICATE_MIN_ITEMS) for name in ("ben", "model:m")]
    ana = [("q4", f"N{i}", "ana", 1) for i in range(3)]
    result = compute_agreement(project, project.pools.version(1), _ratings(alike + ana), K2, 2)
    assert result.warnings() == [
        f"ben and model:m gave the same grade on every one of the {DUPLICATE_MIN_ITEMS} items both rated (at least "
        f"{DUPLICATE_MIN_ITEMS}: one file imported twice, or one person under two names?); the figures above count "
        "those ratings twice",
        "without model:m: ana, ben remain, with no item rated by two or more",
    ]
    assert result.manifest()["duplicates"]["without_duplicates"]["annotators"] == ["ana", "ben"]


def test_the_result_carries_the_figures_without_the_duplicate_as_krippendorff_gives_them(project):
    import krippendorff

    ana, ben = [3, 0, 1, 2, 2, 1, 0, 3, 1, 2], [2, 0, 1, 2, 1, 1, 0, 3, 1, 2]  # ten items, two differ
    rows = [("q1", f"D{i}", who, g) for who, grades in (("ana", ana), ("ben", ben)) for i, g in enumerate(grades)]
    twice = _ratings(rows + [(q, d, "ana2", g) for q, d, a, g in rows if a == "ana"])
    result = compute_agreement(project, project.pools.version(1), twice, EvalSettings(unjudged=UnjudgedPolicy.ZERO))
    domain = [0, 1, 2, 3]
    with_both = krippendorff.alpha([ana, ana, ben], level_of_measurement="ordinal", value_domain=domain)
    without = krippendorff.alpha([ana, ben], level_of_measurement="ordinal", value_domain=domain)
    assert result.report.overall.alpha.value == pytest.approx(with_both, abs=1e-12)
    assert result.deduplicated is not None and result.deduplicated.left_out == ("ana2",)
    assert result.deduplicated.overall.alpha.value == pytest.approx(without, abs=1e-12)
    assert result.manifest()["duplicates"] == {
        "pairs": [{"a": "ana", "b": "ana2", "items": 10}],
        "without_duplicates": {
            "left_out": ["ana2"],
            "annotators": ["ana", "ben"],
            "annotators_sharing": ["ana", "ben"],
            "shared_items": 10,
            "alpha_ordinal": result.deduplicated.overall.alpha.value,
            "unanimous": 8 / 10,
        },
    }
    plain = compute_agreement(
        project, project.pools.version(1), _ratings(rows), EvalSettings(unjudged=UnjudgedPolicy.ZERO)
    )
    assert (plain.duplicates, plain.deduplicated, plain.warnings()) == ((), None, [])


# -- caveats (issue 24 item 14): a figure over too little is printed with what it rests on --------------------------


def test_one_shared_item_gives_a_caveat_on_alpha_and_the_kappas(project):
    """ana and ben share one item and differ: the kappas and alpha are 0, which says nothing about two people."""
    one = RATINGS[(RATINGS["query_id"] == "q2") | ((RATINGS["doc_id"] == "A") & (RATINGS["query_id"] == "q1"))]
    result = compute_agreement(project, project.pools.version(1), one, K2, 2)
    assert result.report.overall.items == 1
    assert result.report.overall.pairs[0].kappa_linear.value == 0.0  # what was printed without a word
    assert caveats(result.report, result.systems)[0] == (
        f"alpha and the kappas rest on 1 item rated by two or more annotators (fewer than {FEW_SHARED_ITEMS}): over so "
        "few items they say little about agreement (over one, they can only be 0, 1 or undefined)"
    )
    assert result.manifest()["caveats"] == caveats(result.report, result.systems)


@pytest.mark.parametrize("runs", [2, 3])
def test_kendalls_tau_over_few_runs_gives_a_caveat(project, tmp_path, write, runs):
    with Project.create(tmp_path / "few.ndcgproj", annotator="lead") as few:
        few.judgments.import_qrels(write("q.txt", QRELS), annotator="lead")
        freeze_draft(few, annotator="lead")
        for name in list(RUNS)[:runs]:
            few.runs.import_run(write(f"{name}.run", RUNS[name]), name=name, annotator="lead")
        result = compute_agreement(few, few.pools.version(1), RATINGS, K2, 2)
    assert len(result.systems.means) == runs
    values = {2: "1 or -1", 3: "1, 1/3, -1/3 or -1"}[runs]
    assert caveats(result.report, result.systems)[-1] == (
        f"Kendall's tau orders only {runs} runs, so it takes one of {runs * (runs - 1) // 2 + 1} values ({values}): "
        "it says whether their order changes, little more"
    )


def test_enough_shared_items_and_runs_give_no_caveat(project, write):
    many = pd.DataFrame(
        [(f"q{i}", "M", name, (i + len(name)) % 4) for i in range(FEW_SHARED_ITEMS) for name in ("ana", "ben")],
        columns=RATINGS.columns,
    )
    project.runs.import_run(
        write("sysD.run", "q1 Q0 B 1 3 t\nq1 Q0 A 2 2 t\nq2 Q0 Y 1 3 t\n"), name="sysD", annotator="lead"
    )
    result = compute_agreement(project, project.pools.version(1), pd.concat([RATINGS, many]), K2, 2)
    assert len(result.systems.means) == 4 and result.report.overall.items >= FEW_SHARED_ITEMS
    assert caveats(result.report, result.systems) == []
