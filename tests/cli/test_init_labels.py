"""`ndcg init` names each grade by its gain: a grade above 0 earns a gain and is never "Not relevant"."""

from __future__ import annotations

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project


@pytest.mark.parametrize(
    ("scale", "labels"),
    [
        ("0..3", ["Not relevant", "Related", "Highly relevant", "Perfect"]),
        ("1..3", ["Related", "Highly relevant", "Perfect"]),
        ("1..2", ["Relevant", "Highly relevant"]),
        ("2..4", ["Related", "Highly relevant", "Perfect"]),
        ("1..5", ["Grade 1", "Grade 2", "Grade 3", "Grade 4", "Perfect"]),
    ],
)
def test_init_without_labels_names_each_grade_by_its_gain(tmp_path, capsys, scale, labels):
    path = tmp_path / "p.ndcgproj"
    assert main(["init", str(path), "--scale", scale]) == 0
    assert capsys.readouterr().out == f"created {path} (grades {scale}: {', '.join(labels)})\n"
    with Project.open(path) as project:
        assert project.labels == labels


def test_init_help_says_what_the_default_labels_are(capsys):
    with pytest.raises(SystemExit):
        main(["init", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert 'only grade 0 is "Not relevant"; 1..3 gets "Related,Highly relevant,Perfect"' in help_text
