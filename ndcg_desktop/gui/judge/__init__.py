"""A language model as one more annotator in the window (issue 25): Pool ▸ Judge with a model…"""

from ndcg_desktop.gui.judge.actions import JudgeActions
from ndcg_desktop.gui.judge.dialog import JudgeDialog

__all__ = ["JudgeActions", "JudgeDialog"]
