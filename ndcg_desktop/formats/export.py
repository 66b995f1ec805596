"""Writing results: spreadsheet-safe CSV and JSON, always atomically, and an evaluation's export folder.

The one writer behind every output path the user chooses: `ndcg score --export`, `ndcg export-qrels`,
and the window's *Export CSV…*. :func:`write_output` (a file) and :func:`export_evaluation` (a folder)
refuse the same targets with the same messages (:func:`check_output_file`).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_key

# What a spreadsheet runs as a formula at the start of a cell or of a line inside it (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TRIGGERS = frozenset("=+-@\t\r\n")


def neutralise_text(text: str) -> str:
    r"""The text a spreadsheet shows as text: a quote before every line that would start a formula.

    Used for every text cell written to CSV (and for any future spreadsheet format): the cell's
    start and each line start inside the cell (after CR, LF or CR LF) are checked, so that a
    reader which splits rows at a bare CR still finds no live formula.

    >>> neutralise_text("=HYPERLINK(1)"), neutralise_text("d7"), neutralise_text("a\r=cmd()")
    ("'=HYPERLINK(1)", 'd7', "a\r'=cmd()")
    """
    if _TRIGGERS.isdisjoint(text):  # the common case: nothing to do
        return text
    if text.startswith(_FORMULA_START):
        text = "'" + text
    return _LINE_BREAK.sub(lambda m: m.group() + ("'" if text[m.end() : m.end() + 1] in _TRIGGERS else ""), text)


def neutralise(value: object) -> object:
    """:func:`neutralise_text` for text cells; numbers and other values pass through.

    >>> neutralise("=HYPERLINK(1)"), neutralise("-d7"), neutralise(-1.5)
    ("'=HYPERLINK(1)", "'-d7", -1.5)
    """
    return neutralise_text(value) if isinstance(value, str) else value


def honour_umask(fd: int) -> None:
    """Give a file made by ``tempfile.mkstemp`` (always 0600) the mode ``open`` would give it: 0666 less the umask."""
    if os.name != "posix":
        return
    mask = os.umask(0o077)  # reading the umask means setting it; put it back at once
    os.umask(mask)
    os.fchmod(fd, 0o666 & ~mask)


def atomic_write(path: str | Path, text: str | bytes) -> None:
    """Write to a temporary file in the same folder, then move it into place (permissions as the umask says)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        honour_umask(fd)
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as raw:
                raw.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_SQLITE_HEADER = b"SQLite format 3\x00"
_PROJECT_ID = b"ndcg"  # PRAGMA application_id (store.schema.APPLICATION_ID), big-endian at byte 68 of the header


def _refusal(target: Path) -> str | None:
    """Why ``target`` may not be replaced by an output file, or None when it may (absent or a plain file)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None if target.parent.is_dir() else "cannot write here: its folder does not exist"
    except OSError as exc:
        return f"cannot write here ({exc.strerror or exc})"
    if stat.S_ISLNK(mode):
        return "is a symbolic link; choose a regular file, not a link"
    if stat.S_ISDIR(mode):
        return "is a folder; give a file name"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a device, pipe or socket); choose a regular file"
    try:
        with open(target, "rb") as handle:
            header = handle.read(72)
    except OSError:
        return None  # unreadable: replacing it is the folder's permission's call, and atomic_write reports that
    if header.startswith(_SQLITE_HEADER):
        what = "an ndcg-desktop project" if header[68:72] == _PROJECT_ID else "a SQLite database"
        return f"is {what}; refusing to overwrite it, choose another file name"
    return None


def check_output_file(path: str | Path) -> Path:
    """``path`` as a target a file may be written to, or :class:`InputError` naming it and why not.

    Refused: a folder, a symbolic link, anything not a regular file (a device, FIFO or socket), a
    SQLite file (a project: the one being exported or another), and a path whose folder is missing.
    """
    target = Path(path)
    why = _refusal(target)
    if why is not None:
        raise InputError(why, path=target)
    return target


def check_replaceable(target: Path, manifest: Path, tool: str) -> None:
    """Refuse, naming the file, to replace a file at ``target`` or ``manifest`` that is not an earlier single-file
    export of ours exactly as written: ``manifest`` must be our JSON naming ``target`` (``file.name``) with the
    SHA-256 the file at ``target`` has now (the rule :func:`_not_an_earlier_export` applies to a folder)."""
    if not target.exists() and not manifest.exists():
        return
    why = None
    listed: object = None
    try:
        record = json.loads(manifest.read_bytes()) if manifest.is_file() and not manifest.is_symlink() else None
        if isinstance(record, dict) and record.get("tool") == "ndcg-desktop" and isinstance(record.get("file"), dict):
            listed = record["file"]
    except (OSError, ValueError):
        listed = None
    if manifest.exists() and not (isinstance(listed, dict) and listed.get("name") == target.name):
        why, named = "is not a manifest ndcg-desktop wrote for this file", manifest
    elif target.exists():
        named = target
        try:
            digest = hashlib.sha256(target.read_bytes()).hexdigest() if target.is_file() else None
        except OSError:
            digest = None
        if not isinstance(listed, dict):
            why = "exists and is not an earlier export (no manifest of ours beside it)"
        elif digest is None or digest != listed.get("sha256"):
            why = "was changed since it was exported"
    if why is not None:
        raise InputError(
            f"{why}; nothing was written: choose another name, or replace it with {tool} --force", path=named
        )


def write_output(path: str | Path, text: str) -> Path:
    """Write ``text`` to a user-chosen file: checked (:func:`check_output_file`), then atomically.

    An error of the system (a read-only folder, a full disk) is an :class:`InputError` naming the path.
    """
    target = check_output_file(path)
    try:
        atomic_write(target, text)
    except OSError as exc:
        raise InputError(f"cannot write the file ({_reason(exc)})", path=target) from None
    return target


def _reason(exc: OSError) -> str:
    """``No space left on device`` as the middle of a sentence: ``no space left on device``."""
    return exc.strerror[:1].lower() + exc.strerror[1:] if exc.strerror else str(exc)


def write_csv(frame: pd.DataFrame, path: str | Path) -> None:
    """UTF-8 CSV with a header row, floats at full precision; every text cell and header neutralised.

    Text cells (and the header) are always quoted, numbers never: a cell holding a line break or a
    control character cannot end the row in a reader that is careless about line ends. Unchecked:
    for files inside an export's own folder; a path the user chose goes through :func:`write_output`.
    """
    atomic_write(path, _csv_text(frame))


def _csv_text(frame: pd.DataFrame) -> str:
    safe = frame.rename(columns=lambda name: neutralise_text(str(name)))
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(neutralise)
    return str(safe.to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC))


def in_natural_order(table: pd.DataFrame, column: str = "query_id") -> pd.DataFrame:
    """``table`` with its rows in the natural order of ``column`` (q2 before q10, as the window lists IDs),
    stably: rows of one ID keep their order (a ranking's positions). The key is made once per distinct ID.

    >>> in_natural_order(pd.DataFrame({"query_id": ["10", "2", "1", "2"], "rank": [1, 1, 1, 2]})).values.tolist()
    [['1', 1], ['2', 1], ['2', 2], ['10', 1]]
    """
    if column not in table.columns or len(table) < 2:
        return table
    codes, distinct = pd.factorize(table[column], sort=False)
    keys = [natural_key(str(value)) for value in distinct]
    place = np.empty(len(keys), dtype=np.int64)
    place[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
    return table.iloc[np.argsort(place[codes], kind="stable")].reset_index(drop=True)


def write_json(data: Any, path: str | Path) -> None:
    atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class ExportableEvaluation(Protocol):
    """What an export needs from an evaluation (``scoring.Evaluation`` has it; formats does not import scoring)."""

    @property
    def per_query(self) -> pd.DataFrame: ...
    @property
    def per_position(self) -> pd.DataFrame: ...

    manifest: dict[str, Any]


# What an export folder may hold: an earlier export in it is replaced whole, anything else is left alone.
EXPORT_FILES = ("per_query.csv", "per_position.csv", "comparison.csv", "manifest.json")


def export_evaluation(
    evaluation: ExportableEvaluation,
    folder: str | Path,
    *,
    comparison: tuple[pd.DataFrame, tuple[str, str]] | None = None,
) -> list[Path]:
    """Write per_query.csv, per_position.csv (and comparison.csv) and manifest.json as ``folder``, whole or not at all.

    The files are written into a fresh folder beside ``folder`` and moved into place when all are
    written, so a failure or a kill part-way leaves either no export or the previous one, never a
    mix of two evaluations. ``manifest.json`` is the evaluation's manifest plus ``files``: the
    SHA-256 of each file beside it. An existing ``folder`` may only hold an earlier export (it is
    replaced). Refused with :class:`InputError` naming the path: a folder with other files, and what
    :func:`check_output_file` refuses except a folder (a file, a link, a device, a missing parent folder).
    """
    tables = {
        "per_query.csv": in_natural_order(evaluation.per_query),
        "per_position.csv": in_natural_order(evaluation.per_position),
    }
    if comparison is not None:
        tables["comparison.csv"] = _comparison_frame(comparison[0], comparison[1])
    return export_folder(tables, evaluation.manifest, folder, EXPORT_FILES)


def export_folder(
    tables: dict[str, pd.DataFrame],
    manifest: dict[str, Any],
    folder: str | Path,
    allowed: tuple[str, ...],
    *,
    writers: dict[str, Callable[[Path], object]] | None = None,
) -> list[Path]:
    """Write each table as CSV (:func:`write_csv`) and ``manifest.json`` as ``folder``, whole or not at all.

    The writer behind every export folder (:func:`export_evaluation`, the agreement export, the
    comparison export): staged beside ``folder`` and moved into place once complete; ``writers``
    (file name -> a function writing that file at the path it is given) add other files, such as a
    workbook; ``manifest.json`` gets ``files``, the SHA-256 of each file. An existing ``folder`` may
    only hold files named in ``allowed`` (an earlier export of the same kind, replaced whole).
    """
    target = _check_export_folder(Path(folder), allowed)
    try:
        return _export_into(tables, manifest, target, writers or {}, allowed)
    except OSError as exc:
        raise InputError(f"cannot write the export ({_reason(exc)})", path=target) from None


def _check_export_folder(target: Path, allowed: tuple[str, ...]) -> Path:
    if target.is_dir() and not target.is_symlink():
        why = _not_an_earlier_export(target, allowed)
        if why is not None:
            raise InputError(f"the folder holds other files ({why}); choose a new or empty folder", path=target)
        return target
    why = _refusal(target)
    if why is None and target.exists():
        why = "is a file, not a folder; choose a new or empty folder"
    if why is not None:
        raise InputError(why, path=target)
    return target


def _not_an_earlier_export(folder: Path, allowed: tuple[str, ...]) -> str | None:
    """Why ``folder`` is not an earlier export exactly as written (None: empty, or it is one).

    Only what an export wrote may be replaced: regular files of ``allowed`` names, each listed with
    its SHA-256 in the ``manifest.json`` beside it. A folder, a link or an edited file under one of
    those names is the user's (``out/per_query.csv/thesis.tex`` was once removed with the export).
    """
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        return f"its list of files cannot be read: {_reason(exc)}"
    if not entries:
        return None
    listed: dict[str, object] = {}
    try:
        manifest = json.loads((folder / "manifest.json").read_bytes()) if (folder / "manifest.json").is_file() else {}
        if isinstance(manifest, dict) and isinstance(manifest.get("files"), dict):
            listed = manifest["files"]
    except (OSError, ValueError):
        listed = {}
    for entry in entries:
        name = entry.name
        if name not in allowed:
            return f"{name} is not a file an export writes"
        if not entry.is_file() or entry.is_symlink():
            return f"{name} is a folder or a link, not a file an export wrote"
        if name == "manifest.json":
            if not listed:
                return "manifest.json is not an export's manifest"
            continue
        if name not in listed:
            return f"{name} is not listed in manifest.json"
        try:
            digest = hashlib.sha256(entry.read_bytes()).hexdigest()
        except OSError as exc:
            return f"{name} cannot be read ({_reason(exc)})"
        if digest != listed[name]:
            return f"{name} was changed since it was exported"
    return None


def _export_into(
    tables: dict[str, pd.DataFrame],
    manifest: dict[str, Any],
    target: Path,
    writers: dict[str, Callable[[Path], object]],
    allowed: tuple[str, ...],
) -> list[Path]:
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".export", dir=target.parent))
    try:
        if os.name == "posix":  # mkdtemp makes 0700 whatever the umask
            mask = os.umask(0o077)
            os.umask(mask)
            os.chmod(staging, 0o777 & ~mask)
        for name, table in tables.items():
            write_csv(table, staging / name)
        for name, write in writers.items():
            write(staging / name)
        names = [*tables, *writers]
        files = {name: hashlib.sha256((staging / name).read_bytes()).hexdigest() for name in names}
        write_json({**manifest, "files": files}, staging / "manifest.json")
        _move_into_place(staging, target, allowed)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [target / name for name in [*names, "manifest.json"]]


def _move_into_place(staging: Path, target: Path, allowed: tuple[str, ...]) -> None:
    """Rename ``staging`` to ``target``; an earlier export there is set aside first and removed after.

    Removed file by file, only the regular files of the names an export writes (``allowed``, as
    checked by :func:`_not_an_earlier_export`): anything else that appeared since stays, set aside.
    """
    if not target.exists():
        os.rename(staging, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    os.rename(target, old / "export")
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(old / "export", target)  # put the earlier export back
        old.rmdir()
        raise
    with contextlib.suppress(OSError):
        for entry in (old / "export").iterdir():
            if entry.name in allowed and stat.S_ISREG(os.lstat(entry).st_mode):
                entry.unlink()
        (old / "export").rmdir()
        old.rmdir()


def export_comparison(
    table: pd.DataFrame, runs: tuple[str, str], folder: str | Path, name: str = "comparison.csv"
) -> Path:
    """Write a comparison (``explain.compare``) like the other tables, its columns named after the runs."""
    write_csv(_comparison_frame(table, runs), Path(folder) / name)
    return Path(folder) / name


def export_comparison_file(table: pd.DataFrame, runs: tuple[str, str], path: str | Path) -> Path:
    """The comparison alone, to a file the user named: checked and written by :func:`write_output`."""
    return write_output(path, _csv_text(_comparison_frame(table, runs)))


def _comparison_frame(table: pd.DataFrame, runs: tuple[str, str]) -> pd.DataFrame:
    a, b = runs
    names = {"ndcg_a": f"ndcg {a}", "ndcg_b": f"ndcg {b}", "difference": f"{b} - {a}"}
    return in_natural_order(table).rename(columns=names)
