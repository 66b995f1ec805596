"""A judgments file as an import into the draft reads it: one reading for ``import-qrels`` and for a release."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ndcg_desktop.domain.data import Qrels
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import IMPORTED, check_name
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.store.errors import NegativeGradeOutside


def read_incoming(
    path: str | Path, scale: GradeScale, *, negative_as_ungraded: bool, fmt: str | None
) -> tuple[str, Qrels, np.ndarray]:
    """The name the file's grades are credited to (``import:NAME``), the file read (its ``as_read`` rows: negative
    grades too, trec_eval's "pooled, not judged"), and which of those rows are below ``scale`` (stored ungraded).

    Read on the widest scale, then checked here against the project's (a reader's hint would name ``--scale``, an
    option of ``ndcg score``, not of the import). Refused, naming the line, when a grade is outside ``scale``; a
    negative one is accepted only with ``negative_as_ungraded``, and refused as :class:`NegativeGradeOutside`,
    the facts a front words with its own way to take it.
    """
    try:  # whose grades these are: the file's, by a name that keeps the rule of every stored name
        source = IMPORTED + check_name(Path(path).name, "file name")
    except InputError as exc:
        raise InputError(f"{exc.message}; its grades are credited to it by name: rename the file", path=path) from None
    qrels = read_qrels(path, scale=GradeScale(-(2**63), 2**63 - 1), fmt=fmt)
    c = qrels.as_read  # negative grades too: imported as ungraded items, or refused, below
    low = c.grade < scale.low
    taken = low & (c.grade < 0) if negative_as_ungraded else np.zeros(len(low), dtype=bool)
    # A grade the choice does not take is the one named: with negative grades taken, a 0 below 1..3, not a -1.
    outside = np.flatnonzero((c.grade > scale.high) | (low & ~taken))
    if len(outside):
        row = int(outside[0])  # rows are in file order
        grade = int(c.grade[row])
        line = int(c.lines()[row])
        if grade < 0:  # a choice the fronts name in their own terms (tasks.importing words the command line's)
            raise NegativeGradeOutside(grade, scale, path=path, line=line)
        raise InputError(f"grade {grade} is outside the scale {scale}", path=path, line=line)
    return source, qrels, low
