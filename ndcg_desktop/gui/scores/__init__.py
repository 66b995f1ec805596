"""The Scores view, one small view per module, all bound to the Qt-free ``sessions.scores.ScoresSession``.

- ``pickers``: run, pool version, comparison run, K, gain, zero-IDCG rule
- ``resolve``: what each run's check found, one choice per flag group
- ``results``: whose result it is, the settings, the means, the per-query table
- ``breakdown``: the selected query beside the ideal ranking
- ``comparison``: two runs query by query
- ``history``: saved evaluations, reopened on request
- ``send``: send for judging's preview, confirmation and undo command
- ``tables``: the table model they all share
"""

from ndcg_desktop.gui.scores.view import ScoresView

__all__ = ["ScoresView"]
