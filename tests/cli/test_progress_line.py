"""The command line's one progress line (cli/progress.py): on a terminal, one line rewritten in place and ended
however the work ends; nothing at all when stderr is a file or a pipe."""

from __future__ import annotations

import io

import pytest

from ndcg_desktop.cli import progress as module


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_line_is_rewritten_in_place_and_ended(monkeypatch):
    monkeypatch.setattr(module.sys, "stderr", err := Terminal())
    with module.terminal_progress(lambda done, total, _: f"checked {done} of {total}") as progress:
        progress(1, 2)
        progress(2, 2)
    assert err.getvalue() == "\rchecked 1 of 2   \rchecked 2 of 2   \n"


def test_the_line_is_ended_when_the_work_fails_so_the_message_starts_on_its_own_line(monkeypatch):
    monkeypatch.setattr(module.sys, "stderr", err := Terminal())
    with pytest.raises(ValueError), module.terminal_progress(lambda done, total, _: f"{done}/{total}") as progress:
        progress(1, 3)
        raise ValueError("bad line")
    assert err.getvalue().endswith("1/3   \n")


def test_redirected_stderr_gets_nothing(monkeypatch):
    monkeypatch.setattr(module.sys, "stderr", err := io.StringIO())
    with module.terminal_progress(lambda done, total, elapsed: f"{done} {total} {elapsed}") as progress:
        progress(1, 1)
    assert err.getvalue() == ""
