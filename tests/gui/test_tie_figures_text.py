"""The window's rule-10 warning shows the two means as the command line does: at the decimals that tell them apart."""

from __future__ import annotations

from ndcg_desktop.gui.runs.text import ties_text
from ndcg_desktop.tasks.comparison_notes import TiesAtK


def test_the_window_shows_the_decimals_the_command_line_shows():
    tie = TiesAtK(k=10, run="bm25", ties=3, queries=40, mean=0.464914, tie_averaged=0.464934, policy="docid-asc")
    assert "mean 0.46491 under the tie policy (docid-asc), 0.46493 tie-averaged" in ties_text(tie)
    assert "mean 0.46491 under the tie policy (docid-asc), 0.46493 tie-averaged" in tie.text()
