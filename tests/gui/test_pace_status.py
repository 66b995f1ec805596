"""The status bar's judging pace follows the grades given in the window (times scripted)."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from ndcg_desktop.store import judgments as judgments_module

from .conftest import shot


def test_status_bar_shows_todays_pace_and_the_time_left(window, small_project, qtbot, monkeypatch):
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    times = [f"{today}T00:00:00+00:00", f"{today}T00:00:08+00:00"]
    clock = iter(t for t in times for _ in range(2))  # a grade reads the clock twice: its row and its audit row
    monkeypatch.setattr(judgments_module, "now", lambda: next(clock))
    window.open_project(small_project)
    label = window.pace_label
    qtbot.waitUntil(lambda: label.report is not None, timeout=10_000)
    assert label.text() == ""  # imported grades are not timed; nobody graded today yet
    ws = window.workspace
    ws.pool_view.setFocus()
    label.report = None
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)  # C
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)  # D, 8 s later
    assert label.timer.isActive()  # refreshed once grading pauses, not inside the key press
    qtbot.waitUntil(lambda: label.report is not None, timeout=10_000)
    ungraded = 5 - 4  # E is left
    assert label.text() == f"Today: 2 graded, {8:.1f} s each · v1: about {ungraded * 8} s left"
    tip = label.toolTip()
    assert f"tester, {today}: 2 graded, median 8.0 s (1 timed)" in tip
    assert "Draft v1: 1 ungraded × 8.0 s ≈ 8 s" in tip
    assert "gaps over 10 minutes are pauses and left out" in tip
    shot(window, "pace-status-bar")


def test_durations_follow_the_interface_language(qapp):
    from ndcg_desktop.gui import i18n
    from ndcg_desktop.gui.pace_status import duration_label

    assert [duration_label(s) for s in (45, 725, 12_000)] == ["45 s", "12 min", "3 h 20 min"]
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        assert [duration_label(s) for s in (45, 725, 12_000)] == ["45 秒", "12 分钟", "3 小时 20 分钟"]
    finally:
        i18n.uninstall(qapp)
