"""The application entry point: --version, --help, the interface language."""

from __future__ import annotations

import pytest


def test_language_follows_the_system_unless_chosen():
    from ndcg_desktop.gui.i18n import resolve

    assert resolve(None, "zh_CN") == "zh_CN" and resolve("", "zh_TW") == "zh_CN"
    assert resolve(None, "de_DE") == "en" and resolve("en", "zh_CN") == "en"
    assert resolve("zh_CN", "en_US") == "zh_CN"


def test_version_and_help(capsys):
    import ndcg_desktop
    from ndcg_desktop.gui.app import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["--version"])
    assert capsys.readouterr().out.strip() == f"ndcg-desktop {ndcg_desktop.__version__}"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    assert "--demo" in capsys.readouterr().out
