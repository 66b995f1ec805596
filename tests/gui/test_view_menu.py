"""View ▸ Language and View ▸ Theme say, where they are chosen, that they apply at the next start (issue 26)."""

from __future__ import annotations

from ndcg_desktop.gui.preferences import Preferences


def _submenu(window, title: str):
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    return next(a.menu() for a in view.actions() if a.text() == title)


def test_language_and_theme_say_in_their_menus_that_they_apply_at_the_next_start(window):
    for title, key, value in (("&Language", "language", "zh_CN"), ("&Theme", "theme", "dark")):
        menu = _submenu(window, title)
        first = menu.actions()[0]
        assert (first.text(), first.isEnabled()) == ("Applies the next time ndcg-desktop starts", False)
        choice = next(
            a for a in menu.actions() if a.isCheckable() and a.text() in ("简体中文 (Simplified Chinese)", "Dark")
        )
        choice.trigger()
        assert getattr(Preferences.load(), key) == value
        assert window.statusBar().currentMessage() == "Saved; it takes effect the next time ndcg-desktop starts."
