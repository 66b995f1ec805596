"""What the window needs from the operating system, checked before Qt is loaded.

PySide6's wheels bundle Qt itself but not the system libraries Qt links: on a bare Debian or Ubuntu,
importing Qt's GUI module or loading its xcb platform plugin fails, and Qt's own message is several
lines that name neither the library nor the package. This module names both, in one line.

Nothing here imports Qt, so the checks run (and are tested) even where Qt cannot load.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping, MutableMapping

# Shared libraries Qt's GUI modules link (QtGui, QtWidgets, QtCharts, QtSvg and their plugins), with
# the Debian/Ubuntu package of each. Found with `readelf -d` (NEEDED) on PySide6's Qt libraries and
# plugins, minus what PySide6 bundles (ICU, Qt) and what every Debian has (libc, zlib, zstd).
GUI_LIBRARIES: dict[str, str] = {
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libX11.so.6": "libx11-6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libdbus-1.so.3": "libdbus-1-3",
}
# What the xcb platform plugin (X11, and XWayland) adds, including its GLX integration.
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-glx.so.0": "libxcb-glx0",
}
# The packages README.md's launch command installs on Linux (a test keeps them equal). Checked by
# starting the window under Xvfb in a minimal Debian 12 (debootstrap --variant=minbase) with these,
# xvfb and Python's own libraries. Fonts come with libfontconfig1 (fonts-dejavu-core); the Chinese
# interface also needs a CJK font such as fonts-wqy-microhei.
LINUX_PACKAGES: tuple[str, ...] = tuple(dict.fromkeys([*GUI_LIBRARIES.values(), *XCB_LIBRARIES.values()]))
# `$(command -v sudo)`: through sudo where it is installed, directly where it is not (root in most containers).
APT_LINE = "$(command -v sudo) apt-get install -y " + " ".join(LINUX_PACKAGES)


def _loadable(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_libraries(libraries: Mapping[str, str], loadable: Callable[[str], bool] = _loadable) -> dict[str, str]:
    """The libraries (soname: package) among ``libraries`` that the dynamic linker cannot load."""
    return {soname: package for soname, package in libraries.items() if not loadable(soname)}


def uses_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt will pick its xcb (X11) platform plugin for this environment."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(";")[0].split(":")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def missing_message(missing: Mapping[str, str]) -> str:
    """One line: the missing libraries (soname: package) and the command that installs all the window needs."""
    packages = list(dict.fromkeys(missing.values()))
    return (
        f"ndcg-desktop: cannot open a window: Qt needs {', '.join(missing)} (packages {', '.join(packages)}); "
        f"on Debian or Ubuntu install what the window needs with: {APT_LINE}"
    )


def check_libraries(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    loadable: Callable[[str], bool] = _loadable,
) -> str | None:
    """The one-line problem when Linux lacks a library Qt's window needs, else None."""
    environ = os.environ if environ is None else environ
    if (platform or sys.platform) != "linux":
        return None  # Windows and macOS: PySide6's wheels carry everything
    libraries = GUI_LIBRARIES | XCB_LIBRARIES if uses_xcb(environ) else GUI_LIBRARIES
    missing = missing_libraries(libraries, loadable)
    return missing_message(missing) if missing else None


def utf8_locale(environ: MutableMapping[str, str]) -> None:
    """Make the character type UTF-8 when the environment's is not (no LANG, or LANG=C).

    Qt switches to C.UTF-8 itself in that case, but prints a four-line warning each start; doing
    the same first keeps the start quiet. Only the character type changes (LC_CTYPE, or LC_ALL when
    that overrides everything); messages, numbers and dates keep the user's settings.
    """
    key = "LC_ALL" if environ.get("LC_ALL") else None
    value = environ.get("LC_ALL") or environ.get("LC_CTYPE") or environ.get("LANG") or ""
    if "utf-8" in value.lower() or "utf8" in value.lower():
        return
    environ[key or "LC_CTYPE"] = "C.UTF-8"
