"""The Runs view (issue 16), bound to the Qt-free ``sessions.runs.RunsSession``.

- ``inputs``: pool version, cut-offs, gain, statistics, and each run's choices before scoring
- ``results``: the settings line, the runs table (means, intervals, bounds) and the interval plot
- ``significance``: the significance matrix and the pairs table at the shown K
- ``pair``: one pair query by query, a query's breakdown for both runs side by side
- ``view``: the parts put together, the background work, the export
"""

from ndcg_desktop.gui.runs.view import RunsView

__all__ = ["RunsView"]
