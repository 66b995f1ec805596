"""The window's view sessions: each view's state as a Qt-free object that follows the project's events.

A session holds what a view shows and what invalidates it, calls the use cases in :mod:`ndcg_desktop.tasks` and
hands long work out as a :class:`~ndcg_desktop.sessions.kit.Job` the window runs off its thread; the widgets in
:mod:`ndcg_desktop.gui` only render a session and forward input to it. :mod:`.kit` is what every session is made
of, :mod:`.events` the project's events they follow. Nothing here imports Qt, and no use case imports a session.
"""
