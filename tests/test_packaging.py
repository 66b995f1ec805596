"""The desktop integration files in packaging/ and the icon set agree with the package and each other.

Fast checks only: nothing here runs PyInstaller or imports Qt. The freedesktop validators
(desktop-file-utils, appstream: README's test command installs them on Linux) must be installed;
a missing one fails its test.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ndcg_desktop
from ndcg_desktop.store import Project
from ndcg_desktop.store.schema import APPLICATION_ID

REPO = Path(__file__).resolve().parents[1]
PACKAGING = REPO / "packaging"
ICONS = REPO / "resources" / "icons"
ASSETS = REPO / "ndcg_desktop" / "gui" / "assets"
DESKTOP = PACKAGING / "ndcg-desktop.desktop"
METAINFO = PACKAGING / "io.github.ndcg_desktop.NdcgDesktop.metainfo.xml"
MIME = PACKAGING / "ndcg-project-mime.xml"
SPEC = PACKAGING / "ndcg-desktop.spec"
MIME_TYPE = "application/x-ndcg-project"
MIME_NS = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, which the format requires to come first."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    length, kind, width, height = struct.unpack(">I4sII", data[8:24])
    assert kind == b"IHDR" and length == 13
    return width, height


# -- .desktop -------------------------------------------------------------------------------------


def test_desktop_entry_launches_the_gui_script_with_the_icon_and_project_type():
    entry = _desktop_entry()
    gui_scripts = _pyproject()["project"]["gui-scripts"]
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "ndcg-desktop %f"
    assert entry["Exec"].split()[0] in gui_scripts
    assert entry["Icon"] == "ndcg-desktop"
    assert entry["MimeType"].rstrip(";").split(";") == [MIME_TYPE]
    assert entry["Categories"] == "Science;Education;Development;"


# -- AppStream metainfo ---------------------------------------------------------------------------


def test_metainfo_release_is_the_package_version():
    root = ET.parse(METAINFO).getroot()
    releases = root.findall("releases/release")
    assert releases, "the metainfo lists no release"
    # AppStream: the newest release comes first. Bump it together with ndcg_desktop.__version__.
    assert releases[0].get("version") == ndcg_desktop.__version__


def test_metainfo_matches_its_file_name_the_desktop_entry_and_the_scripts():
    root = ET.parse(METAINFO).getroot()
    project = _pyproject()["project"]
    assert root.get("type") == "desktop-application"
    assert METAINFO.name == f"{root.findtext('id')}.metainfo.xml"
    assert root.findtext("launchable[@type='desktop-id']") == DESKTOP.name
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == project["license"]
    assert root.findtext("summary") and root.find("description") is not None
    assert root.find("content_rating") is not None
    assert [m.text for m in root.findall("provides/mediatype")] == [MIME_TYPE]
    binaries = {b.text for b in root.findall("provides/binary")}
    assert binaries == set(project["scripts"]) | set(project["gui-scripts"])


# -- shared-mime-info -----------------------------------------------------------------------------


def test_mime_type_globs_project_files_and_its_magic_is_the_application_id():
    mime_type = ET.parse(MIME).getroot().find("m:mime-type", MIME_NS)
    assert mime_type is not None and mime_type.get("type") == MIME_TYPE
    assert [g.get("pattern") for g in mime_type.findall("m:glob", MIME_NS)] == ["*.ndcgproj"]
    header = mime_type.find("m:magic/m:match", MIME_NS)
    assert header is not None
    assert (header.get("type"), header.get("offset"), header.get("value")) == ("string", "0", "SQLite format 3")
    app_id = header.find("m:match", MIME_NS)
    assert app_id is not None
    assert (app_id.get("type"), app_id.get("offset")) == ("big32", "68")
    assert int(app_id.get("value", ""), 0) == APPLICATION_ID


def test_mime_magic_matches_a_real_project_file(tmp_path):
    path = tmp_path / "eval.ndcgproj"
    with Project.create(path, annotator="test"):
        pass
    header = path.read_bytes()[:100]  # the SQLite database header
    assert header.startswith(b"SQLite format 3\x00")
    assert struct.unpack(">I", header[68:72])[0] == APPLICATION_ID


# -- icons ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", HICOLOR_SIZES)
def test_hicolor_icon_has_its_pixel_size(size):
    path = ICONS / "hicolor" / f"{size}x{size}" / "apps" / "ndcg-desktop.png"
    assert _png_size(path.read_bytes()) == (size, size)


def test_window_icon_assets_are_the_source_svg_and_the_256_px_render():
    svg = ICONS / "ndcg-desktop.svg"
    ET.parse(svg)  # well-formed
    assert (ASSETS / "ndcg-desktop.svg").read_bytes() == svg.read_bytes()
    png = (ASSETS / "ndcg-desktop.png").read_bytes()
    assert png == (ICONS / "hicolor" / "256x256" / "apps" / "ndcg-desktop.png").read_bytes()
    assert _png_size(png) == (256, 256)


def test_windows_ico_holds_png_entries_up_to_256_px():
    data = (ICONS / "ndcg-desktop.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    sizes = []
    for i in range(count):
        width, _height, _colours, _, _planes, _bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * i : 22 + 16 * i]
        )
        side = width or 256  # 0 stands for 256 in an ICO directory entry
        assert _png_size(data[offset : offset + length]) == (side, side)
        sizes.append(side)
    assert {16, 32, 48, 256} <= set(sizes)


def test_macos_icns_is_a_well_formed_container():
    data = (ICONS / "ndcg-desktop.icns").read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    offset, kinds = 8, {}
    while offset < len(data):
        kind, length = struct.unpack(">4sI", data[offset : offset + 8])
        kinds[kind] = _png_size(data[offset + 8 : offset + length])
        offset += length
    assert offset == len(data)
    assert kinds[b"ic07"] == (128, 128) and kinds[b"ic08"] == (256, 256) and kinds[b"ic10"] == (1024, 1024)


# -- PyInstaller spec -----------------------------------------------------------------------------


def test_pyinstaller_spec_compiles_and_bundles_the_package_data():
    source = SPEC.read_text(encoding="utf-8")
    compile(source, str(SPEC), "exec")
    for pattern in _pyproject()["tool"]["setuptools"]["package-data"]["ndcg_desktop.demo"]:
        assert f'"ndcg_desktop/demo/{pattern}"' in source
    assert '"ndcg_desktop/gui/assets/*"' in source
    assert '"ndcg_desktop/gui/translations/*.qm"' in source
    assert "from ndcg_desktop import __version__" in source
    assert 'name="ndcg-desktop"' in source and 'name="ndcg"' in source


# -- the freedesktop validators, where installed --------------------------------------------------


VALIDATOR_PACKAGES = {"desktop-file-validate": "desktop-file-utils", "appstreamcli": "appstream"}


def _run_validator(*command: str) -> subprocess.CompletedProcess[str]:
    package = VALIDATOR_PACKAGES[command[0]]
    assert shutil.which(command[0]), f"{command[0]} is not installed: apt-get install {package} (README's test command)"
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the freedesktop validators are Linux tools")


@linux_only
def test_desktop_file_validate_accepts_the_desktop_entry():
    result = _run_validator("desktop-file-validate", str(DESKTOP))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout + result.stderr


@linux_only
def test_appstreamcli_validates_the_metainfo():
    # --no-net: no URL checks, so the test works offline and in CI sandboxes
    result = _run_validator("appstreamcli", "validate", "--no-net", str(METAINFO))
    assert result.returncode == 0, result.stdout + result.stderr


# -- a built bundle ----------------------------------------------------------------------------
# packaging/check_bundle.py checks a built one-folder bundle; here it is tested on a synthetic one,
# and run on real bundles where they exist (packaging/build_and_check.sh builds one; NDCG_BUNDLE
# names another).


def _check_bundle_module():
    spec = importlib.util.spec_from_file_location("check_bundle", PACKAGING / "check_bundle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_bundle(folder: Path) -> Path:
    bundle = folder / "ndcg-desktop"
    (bundle / "_internal" / "PySide6" / "Qt" / "lib").mkdir(parents=True)
    for program in ("ndcg-desktop", "ndcg"):
        (bundle / program).write_bytes(b"\x7fELF")
        (bundle / program).chmod(0o755)
    core = bundle / "_internal" / "PySide6" / "Qt" / "lib" / "libQt6Core.so.6"
    core.write_bytes(b"\x7fELF")
    (bundle / "_internal" / "libQt6Core.so.6").symlink_to("PySide6/Qt/lib/libQt6Core.so.6")
    return bundle


def test_check_bundle_accepts_a_clean_bundle(tmp_path):
    assert _check_bundle_module().problems(_fake_bundle(tmp_path)) == []


def test_check_bundle_names_dangling_links_left_out_libraries_and_missing_programs(tmp_path):
    bundle = _fake_bundle(tmp_path)
    (bundle / "_internal" / "libQt6Quick.so.6").symlink_to("PySide6/Qt/lib/libQt6Quick.so.6")
    (bundle / "_internal" / "PySide6" / "Qt" / "lib" / "libgtk-3.so.0").write_bytes(b"\x7fELF")
    (bundle / "ndcg").unlink()
    assert _check_bundle_module().problems(bundle) == [
        f"{bundle / 'ndcg'}: the program is missing or not executable",
        "_internal/libQt6Quick.so.6: dangling symlink to PySide6/Qt/lib/libQt6Quick.so.6",
        "_internal/libQt6Quick.so.6: should have been left out (Qt6Quick)",
        "_internal/PySide6/Qt/lib/libgtk-3.so.0: should have been left out (libgtk-3)",
    ]


def test_spec_leaves_out_what_check_bundle_expects_absent():
    source = SPEC.read_text(encoding="utf-8")
    unused = source[
        source.index("UNUSED_LIBRARIES = (") : source.index(")  # fmt: skip", source.index("UNUSED_LIBRARIES"))
    ]
    for piece in _check_bundle_module().ABSENT:
        assert any(name in piece for name in re.findall(r'"([^"]+)"', unused)), piece
    assert "drop_dangling_links(a.binaries, a.datas)" in source


def test_built_bundles_that_exist_pass_the_check():
    # Runs on the bundles present (none on a fresh clone; build_and_check.sh makes one).
    candidates = [Path(os.environ.get("NDCG_BUNDLE", "/tmp/pkgbuild/dist/ndcg-desktop"))]
    for bundle in [c for c in candidates if c.exists()]:
        assert _check_bundle_module().problems(bundle) == []
