"""Score a run given as a file or as data already read, with no project: the use case behind the Python API.

Judgments and runs are paths (read by :mod:`ndcg_desktop.formats`, as ``ndcg score`` reads them) or
:class:`~ndcg_desktop.domain.data.Qrels` and :class:`~ndcg_desktop.domain.data.Run` already read and checked
(a DataFrame's, through :mod:`ndcg_desktop.formats.frames`). :func:`~ndcg_desktop.tasks.comparing.compare_files`
takes the same inputs.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ndcg_desktop.domain import Cutoffs, GradeScale, Measure, OrderKind, Qrels, Run
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import Evaluation, evaluate
from ndcg_desktop.scoring.ndcg import evaluate_cutoffs

Judgments = str | Path | Qrels
Ranking = str | Path | Run


def read_judgments(qrels: Judgments, scale: GradeScale, fmt: str | None = None) -> Qrels:
    """``qrels`` read from its file, or as given when already read."""
    return qrels if isinstance(qrels, Qrels) else read_qrels(qrels, scale=scale, fmt=fmt)


def read_ranking(run: Ranking, fmt: str | None = None, order: OrderKind | None = None) -> Run:
    """``run`` read from its file, or as given when already read."""
    return run if isinstance(run, Run) else read_run(run, fmt=fmt, order=order)


def score_files(
    qrels: Judgments,
    run: Ranking,
    settings: Measure,
    k: int = DEFAULT_K,
    *,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: OrderKind | None = None,
) -> Evaluation:
    """Score ``run`` against ``qrels`` at ``k`` under ``settings`` (the policies on the terms the files are read
    with: their scale, tie policy and ID map, the caller's); a refusal is
    :class:`~ndcg_desktop.domain.InputError`.

    The run is read on a thread while the judgments are (pyarrow and numpy release the GIL); a problem with the
    judgments is still raised first.
    """
    judgments, ranking = _read_both(qrels, run, settings.terms.scale, qrels_format, run_format, order)
    return evaluate(judgments, ranking, settings, k)


def score_files_at(
    qrels: Judgments,
    run: Ranking,
    settings: Measure,
    ks: Cutoffs,
    *,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: OrderKind | None = None,
) -> dict[int, Evaluation]:
    """:func:`score_files` at every K of ``ks``, each the same as its own call: the run is
    read and ordered once (:func:`~ndcg_desktop.scoring.ndcg.evaluate_cutoffs`, as ``ndcg compare`` scores it)."""
    judgments, ranking = _read_both(qrels, run, settings.terms.scale, qrels_format, run_format, order)
    return evaluate_cutoffs(judgments, ranking, settings, ks)


def _read_both(
    qrels: Judgments,
    run: Ranking,
    scale: GradeScale,
    qrels_format: str | None,
    run_format: str | None,
    order: OrderKind | None,
) -> tuple[Qrels, Run]:
    # A plain thread, not concurrent.futures: that package imports logging (issue 37: a small file's start-up).
    read: list[Run] = []
    failed: list[BaseException] = []

    def read_the_run() -> None:
        try:
            read.append(read_ranking(run, run_format, order))
        except BaseException as exc:  # handed to the caller's thread, raised there
            failed.append(exc)

    reading = threading.Thread(target=read_the_run, name="read-run", daemon=True)
    reading.start()
    try:
        judgments = read_judgments(qrels, scale, qrels_format)
    finally:
        reading.join()  # the run's reading ends first, even on errors
    if failed:
        raise failed[0]
    return judgments, read[0]
