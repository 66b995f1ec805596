"""docs/evaluation-contract.md stays complete and true, and the repository points there, not outside itself."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ndcg_desktop.cli.main import build_parser

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "evaluation-contract.md"


def test_every_rule_has_its_section_in_order():
    headings = re.findall(r"^## (\d+)\. ", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert [int(n) for n in headings] == list(range(1, 19))


def test_every_test_the_document_names_exists():
    named = set(re.findall(r"`(test_\w+)`", DOC.read_text(encoding="utf-8")))
    defined = {
        m
        for path in (REPO / "tests").rglob("test_*.py")
        for m in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M)
    }
    assert len(named) >= 30  # rules 1-13 name their tests one by one
    assert sorted(named - defined) == []
    files = set(re.findall(r"`(tests/[\w/]+\.py)`", DOC.read_text(encoding="utf-8")))
    assert sorted(f for f in files if not (REPO / f).is_file()) == []


def test_rules_without_a_test_say_so_with_their_issue():
    text = DOC.read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (\d+)\. .*?\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S))
    assert "Not yet tested" not in sections["15"]  # issue 11: the window's refusal names its tests
    assert "`test_scores_refuses_a_changed_frozen_version_naming_both_hashes`" in sections["15"]
    assert "Not yet tested" not in sections["16"]  # issue 15: ratings, manifests and agreement name their tests
    assert "`test_ordinal_alpha_of_krippendorffs_example`" in sections["16"]
    assert "Not yet tested" not in sections["17"]  # issue 16: the statistics and the bounds name their tests
    assert "`test_calibrate_measure_then_fill_on_real_cranfield_items`" in sections["18"]  # issue 25
    assert "`test_contract_example_with_d_unjudged`" in sections["17"]


def test_score_help_points_to_the_contract(capsys):
    parser = build_parser()
    score = parser._subparsers._group_actions[0].choices["score"]  # argparse keeps subparsers here
    assert "docs/evaluation-contract.md" in " ".join(score.format_help().split())


def test_nothing_in_the_repository_points_outside_it():
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    offenders = [
        name
        for name in tracked
        if name.endswith((".py", ".md", ".toml", ".spec", ".txt", ".cfg"))
        and not name.startswith("tests/data/")
        and name != "tests/test_contract_doc.py"
        and re.search(r"\.\./shared|shared/data|PRODUCT\.md", (REPO / name).read_text(encoding="utf-8"))
    ]
    assert offenders == []
