"""Judging as a team in the window: Pool ▸ Assign work…, Pool ▸ Merge returned work…, the Adjudicate view."""

from ndcg_desktop.gui.team.actions import TeamActions
from ndcg_desktop.gui.team.adjudicate import AdjudicateView
from ndcg_desktop.gui.team.assign import AssignDialog

__all__ = ["AdjudicateView", "AssignDialog", "TeamActions"]
