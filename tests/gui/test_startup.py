"""Starting the window where the system lacks something: one line naming it, exit status 2, no traceback.

Each start runs in its own process (`python -m ndcg_desktop.gui.app`), as a user's would, with a
bare environment (`env -i`: no LANG, no DISPLAY) plus what the test sets.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from ndcg_desktop.gui import system

REPO = Path(__file__).resolve().parents[2]
LOCALE_WARNING = 'Detected locale "C" with character encoding'


def start(tmp_path: Path, *args: str, code: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    folders = {f"NDCG_DESKTOP_{n}_DIR": str(tmp_path / n.lower()) for n in ("CONFIG", "STATE", "DATA")}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "ndcg_desktop.gui.app"]
    return subprocess.run(
        [*command, *args],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **folders, **env},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_libraries_are_named_with_their_packages_in_one_line():
    present = {"libGL.so.1", "libEGL.so.1"}
    problem = system.check_libraries({}, "linux", loadable=lambda soname: soname in present)
    expected_missing = {s: p for s, p in (system.GUI_LIBRARIES | system.XCB_LIBRARIES).items() if s not in present}
    assert problem == system.missing_message(expected_missing)
    assert "\n" not in problem
    assert problem.startswith(f"ndcg-desktop: cannot open a window: Qt needs {', '.join(expected_missing)} (")
    assert problem.endswith(f"install what the window needs with: {system.APT_LINE}")
    assert "libxcb-icccm4" in problem.split("(packages ")[1].split(")")[0]


def test_which_libraries_are_checked_depends_on_the_platform():
    only_cursor_missing = lambda soname: soname != "libxcb-cursor.so.0"  # noqa: E731
    assert system.check_libraries({}, "linux", only_cursor_missing) == system.missing_message(
        {"libxcb-cursor.so.0": "libxcb-cursor0"}
    )
    wayland = {"WAYLAND_DISPLAY": "wayland-0"}
    assert system.check_libraries(wayland, "linux", only_cursor_missing) is None  # xcb is not used
    assert system.check_libraries({"QT_QPA_PLATFORM": "offscreen"}, "linux", only_cursor_missing) is None
    assert system.check_libraries({"QT_QPA_PLATFORM": "xcb"}, "linux", only_cursor_missing) is not None
    nothing = lambda soname: False  # noqa: E731
    assert system.check_libraries({}, "darwin", nothing) is None  # PySide6's wheels carry everything there
    assert system.check_libraries({}, "win32", nothing) is None


SUDO = "$(command -v sudo) "  # README's prefix: sudo where it is installed, nothing where it is not (root)


def test_readme_commands_install_exactly_the_packages():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = [line.strip() for line in readme.splitlines() if "apt-get install" in line and line.startswith("    ")]
    launch = f"{SUDO}apt-get install -y python3-venv {' '.join(system.LINUX_PACKAGES)}"
    assert lines == [launch, launch + " desktop-file-utils appstream g++"]  # the launch and the test command
    assert system.APT_LINE == f"{SUDO}apt-get install -y {' '.join(system.LINUX_PACKAGES)}"
    assert "sudo apt-get" not in readme.replace(SUDO, "")  # no line that fails for root without sudo


def test_the_install_prefix_runs_the_command_where_sudo_is_not_installed(tmp_path):
    """Root in a container usually has no sudo: the prefix then expands to nothing and the command runs."""
    bin_dir = tmp_path / "bin"  # a PATH with a shell and echo, and no sudo
    bin_dir.mkdir()
    for tool in ("sh", "echo"):
        (bin_dir / tool).symlink_to(Path("/bin") / tool)
    run = subprocess.run(
        [str(bin_dir / "sh"), "-c", f"{SUDO}echo installed"],
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, "installed\n", "")
    old = subprocess.run(
        [str(bin_dir / "sh"), "-c", "sudo echo installed"], env={"PATH": str(bin_dir)}, capture_output=True
    )
    assert old.returncode == 127  # the old line, for comparison: sudo is not found


def test_utf8_locale_changes_only_a_non_utf8_character_type():
    cases = [
        ({}, {"LC_CTYPE": "C.UTF-8"}),
        ({"LANG": "C"}, {"LANG": "C", "LC_CTYPE": "C.UTF-8"}),
        ({"LC_ALL": "POSIX"}, {"LC_ALL": "C.UTF-8"}),
        ({"LANG": "de_DE.UTF-8"}, {"LANG": "de_DE.UTF-8"}),
        ({"LC_CTYPE": "zh_CN.utf8"}, {"LC_CTYPE": "zh_CN.utf8"}),
    ]
    for before, after in cases:
        environ = dict(before)
        system.utf8_locale(environ)
        assert environ == after, before


def test_start_without_lang_prints_no_locale_warning(tmp_path):
    # PYTHONCOERCECLOCALE=0 makes Python leave the C locale alone, as the PyInstaller bundle's
    # embedded interpreter does; Qt then printed its four-line warning on every start.
    result = start(tmp_path, "--demo", "--smoke-test", QT_QPA_PLATFORM="offscreen", PYTHONCOERCECLOCALE="0")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"OK: window shown on offscreen \(\d+x\d+\): demo\.ndcgproj .*\n", result.stdout)
    offscreen_notice = "This plugin does not support propagateSizeHints()"
    assert set(result.stderr.splitlines()) <= {offscreen_notice}, result.stderr
    assert LOCALE_WARNING not in result.stderr


def test_a_missing_library_gives_one_line_and_status_2(tmp_path):
    # The check as the window runs it, with one library that no system has added to its list.
    code = (
        "import sys; from ndcg_desktop.gui import app, system; "
        "system.XCB_LIBRARIES['libnot-installed.so.7'] = 'not-installed7'; "
        "sys.exit(app.main(sys.argv[1:]))"
    )
    result = start(tmp_path, "--smoke-test", code=code, QT_QPA_PLATFORM="xcb", DISPLAY=":0")
    assert (result.returncode, result.stdout) == (2, "")
    # Whatever else this machine lacks is named first, in the check's own order.
    libraries = system.GUI_LIBRARIES | system.XCB_LIBRARIES | {"libnot-installed.so.7": "not-installed7"}
    assert result.stderr == system.missing_message(system.missing_libraries(libraries)) + "\n"


def test_qt_platform_plugin_failure_gives_one_line_and_status_2(tmp_path):
    result = start(tmp_path, "--smoke-test", QT_QPA_PLATFORM="no-such-platform")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "ndcg-desktop: cannot open a window: Qt's platform plugin did not load (Could not find the Qt platform "
        """plugin "no-such-platform" in ""); check QT_QPA_PLATFORM='no-such-platform'\n"""
    )


def test_no_x_display_gives_one_line_and_status_2(tmp_path):
    # Needs the xcb libraries (README's apt-get line; .ci/run installs them): Qt then fails on the display.
    result = start(tmp_path, "--smoke-test", QT_QPA_PLATFORM="xcb", DISPLAY=":93")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "ndcg-desktop: cannot open a window: no X display at DISPLAY=':93': start it from a desktop session "
        "(or under xvfb-run)\n"
    )
