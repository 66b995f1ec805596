"""The Runs view (issue 16), bound to the Qt-free ``tasks.runs_session.RunsSession``.

- ``inputs``: pool version, cut-offs, gain, statistics, and each run's choices before scoring
- ``results``: the settings line and the runs table (means, intervals, bounds)
- ``view``: the parts put together, the background work, the export
"""

from ndcg_desktop.gui.runs.view import RunsView

__all__ = ["RunsView"]
