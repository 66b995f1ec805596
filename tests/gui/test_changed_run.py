"""The window refuses a stored run that no longer matches its import hash (contract rule 15, stored runs)."""

from __future__ import annotations

from ndcg_desktop.store.schema import run_hash
from tests.helpers import sql_rows, tamper

from .test_scores_behaviour import make_project


def test_a_changed_run_is_refused_by_the_scores_view_with_both_hashes(window, tmp_path, qtbot, messages):
    path = make_project(tmp_path / "a", runs=(("sys", "q1 Q0 B 1 2.0 s\nq1 Q0 C 2 1.0 s\nq2 Q0 E 1 1.0 s\n"),))
    ((recorded,),) = sql_rows(path, "SELECT data_hash FROM runs WHERE name = 'sys'")
    tamper(
        path,
        "UPDATE runs SET reading = replace(reading, 'docid-desc', 'docid-asc') WHERE name = 'sys'",
        triggers=("stored_run_not_updated",),
    )
    changed = run_hash(
        *sql_rows(
            path, "SELECT name, source_name, sha256, format, reading, rows, queries, data FROM runs WHERE name = 'sys'"
        )[0]
    )
    assert changed != recorded
    window.open_project(path)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    view.check()
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert len(messages) == 1
    kind, text = messages[-1]
    assert kind == "warning"
    assert text.startswith(f"{path}: run 'sys' has changed since it was imported")
    assert recorded in text and changed in text and "import the run again from its file (run0.run)" in text
    assert not view.session.checked() and view.session.result is None and not view.score_button.isEnabled()
