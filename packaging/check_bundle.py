"""Check a built one-folder bundle: both programs present, no dangling symlink, no pruned library.

    python packaging/check_bundle.py /tmp/pkgbuild/dist/ndcg-desktop

Prints one line per problem and exits 1 when there is any (0 and "OK ..." otherwise).
tests/test_packaging.py runs the same checks on a synthetic bundle, and on real ones when present;
packaging/build_and_check.sh runs it on a fresh build and on a copy made with `cp -L`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PROGRAMS = ("ndcg-desktop", "ndcg")
# Pieces the spec leaves out (packaging/ndcg-desktop.spec): Qt Quick/QML and the virtual keyboard,
# pyarrow's Flight and S3, and Qt's GTK3 theme plugin with the GTK libraries only it loads.
ABSENT = (
    "Qt6Quick",
    "Qt6Qml",
    "qtvirtualkeyboardplugin",
    "VirtualKeyboard",
    "arrow_flight",
    "arrow_s3",
    "libqgtk3",
    "libgtk-3",
    "libgdk-3",
)


def problems(bundle: Path) -> list[str]:
    """Everything wrong with the bundle folder, one readable line each (empty when it is fine)."""
    found = []
    if not bundle.is_dir():
        return [f"{bundle}: not a folder"]
    for program in PROGRAMS:
        path = bundle / program
        if not (path.is_file() and os.access(path, os.X_OK)):
            found.append(f"{path}: the program is missing or not executable")
    for root, dirs, files in os.walk(bundle):
        for name in sorted(dirs + files):
            path = Path(root) / name
            relative = path.relative_to(bundle)
            if path.is_symlink() and not path.exists():
                found.append(f"{relative}: dangling symlink to {os.readlink(path)}")
            for piece in ABSENT:
                if piece in name:
                    found.append(f"{relative}: should have been left out ({piece})")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: check_bundle.py BUNDLE_FOLDER", file=sys.stderr)
        return 2
    bundle = Path(argv[0])
    found = problems(bundle)
    for line in found:
        print(line)
    if found:
        return 1
    count = sum(len(files) for _, _, files in os.walk(bundle))
    print(f"OK {bundle}: {count} files, no dangling symlink, nothing that should have been left out")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
