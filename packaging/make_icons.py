"""Render the application icon set from resources/icons/ndcg-desktop.svg with Qt's own SVG renderer.

Writes, relative to the repository root:

- ``resources/icons/hicolor/<N>x<N>/apps/ndcg-desktop.png`` for the freedesktop sizes,
- ``resources/icons/ndcg-desktop.ico`` (Windows: 16 to 256 px, PNG-compressed entries),
- ``resources/icons/ndcg-desktop.icns`` (macOS: 16 to 1024 px, PNG entries),
- ``ndcg_desktop/gui/assets/ndcg-desktop.svg`` and ``ndcg-desktop.png`` (256 px), the window icon.

Run from anywhere, after editing the SVG::

    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py

The ICO and ICNS containers are written here with ``struct`` rather than through Qt's image
plugins, because Qt's ICO writer stores one image per file and its ICNS writer is an optional plugin.
The output is byte-for-byte reproducible for a given Qt version.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "ndcg-desktop.svg"
ICONS = ROOT / "resources" / "icons"
ASSETS = ROOT / "ndcg_desktop" / "gui" / "assets"
NAME = "ndcg-desktop"

# freedesktop Icon Theme Specification: the hicolor sizes desktops look up
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# Apple's icns element types that hold PNG data; the @2x types reuse the larger renders
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),  # 16@2x
    (b"icp6", 64),
    (b"ic12", 64),  # 32@2x
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),  # 128@2x
    (b"ic09", 512),
    (b"ic14", 512),  # 256@2x
    (b"ic10", 1024),  # 512@2x
)


def render_png(renderer: object, size: int) -> bytes:
    """Render the SVG at ``size`` x ``size`` pixels on a transparent background and return PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
    from PySide6.QtGui import QImage, QPainter

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))  # type: ignore[attr-defined]
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError(f"Qt could not encode the {size} px render as PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO container with one PNG-compressed entry per size (Windows Vista and later read these)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(pngs)
    entries, blobs = [], []
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256 in the directory entry
        entries.append(struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset))
        blobs.append(png)
        offset += len(png)
    return header + b"".join(entries) + b"".join(blobs)


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICNS container of PNG elements (big-endian type + length, as iconutil writes them)."""
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (QPainter needs one)
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"error: {SVG}: Qt could not parse the SVG", file=sys.stderr)
        return 2

    sizes = sorted(set(HICOLOR_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: render_png(renderer, size) for size in sizes}

    for size in HICOLOR_SIZES:
        target = ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pngs[size])
    (ICONS / f"{NAME}.ico").write_bytes(ico_bytes({size: pngs[size] for size in ICO_SIZES}))
    (ICONS / f"{NAME}.icns").write_bytes(icns_bytes(pngs))

    ASSETS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, ASSETS / f"{NAME}.svg")
    (ASSETS / f"{NAME}.png").write_bytes(pngs[256])

    print(f"wrote {len(HICOLOR_SIZES)} hicolor PNGs, {NAME}.ico, {NAME}.icns and the window icon in {ASSETS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
