"""Grading guidelines: a Markdown file, read as UTF-8 text whose SHA-256 names it in manifests."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.common import check_utf8, names_file_on_memory_error, read_input

MAX_GUIDELINES_BYTES = 1 << 20  # 1 MiB: pages of guidelines, not a corpus pasted by mistake


def guidelines_sha256(text: str) -> str:
    """The SHA-256 of guidelines as stored (UTF-8, LF line ends); '' for no guidelines.

    For a UTF-8 file with LF line ends and no byte-order mark it is ``sha256sum FILE``.

    >>> guidelines_sha256("") == "" and guidelines_sha256("abc")[:12] == "ba7816bf8f01"
    True
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else ""


def normalise_guidelines(text: str) -> str:
    """Line ends as LF (CR LF and lone CR become LF): the same guidelines hash alike on every system."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_guidelines(text: str, path: str | Path | None = None) -> str:
    """Guidelines typed in the window, refused past the limit a guidelines file meets (:data:`MAX_GUIDELINES_BYTES`)."""
    size = len(text.encode("utf-8"))
    if size > MAX_GUIDELINES_BYTES:
        raise InputError(
            f"guidelines are limited to {MAX_GUIDELINES_BYTES >> 20} MiB of text; these are {size:,} bytes", path=path
        )
    return text


@names_file_on_memory_error
def read_guidelines(path: str | Path) -> str:
    """The text of a Markdown guidelines file (byte-order mark removed, line ends normalised).

    Refuses a missing or empty file, invalid UTF-8, NUL characters and files over 1 MiB, naming file and line.
    """
    data, _ = read_input(path)
    if len(data) > MAX_GUIDELINES_BYTES:
        raise InputError(
            f"is {len(data) >> 10} KiB; guidelines are limited to {MAX_GUIDELINES_BYTES >> 20} MiB of text", path=path
        )
    check_utf8(data, path)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError("contains a NUL character: not a text file", path=path, line=data.count(b"\n", 0, nul) + 1)
    return normalise_guidelines(data.decode("utf-8"))
