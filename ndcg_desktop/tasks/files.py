"""Score a run given as a file or as data already read, with no project: the use case behind the Python API.

Judgments and runs are paths (read by :mod:`ndcg_desktop.formats`, as ``ndcg score`` reads them) or
:class:`~ndcg_desktop.domain.data.Qrels` and :class:`~ndcg_desktop.domain.data.Run` already read and checked
(a DataFrame's, through :mod:`ndcg_desktop.formats.frames`). :func:`~ndcg_desktop.tasks.comparing.compare_files`
takes the same inputs.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ndcg_desktop.domain import EvalSettings, GradeScale, OrderKind, Qrels, Run
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import Evaluation, evaluate

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
    settings: EvalSettings,
    *,
    qrels_format: str | None = None,
    run_format: str | None = None,
    order: OrderKind | None = None,
) -> Evaluation:
    """Score ``run`` against ``qrels`` under ``settings``; a refusal is :class:`~ndcg_desktop.domain.InputError`.

    The run is read on a thread while the judgments are (pyarrow and numpy release the GIL); a problem with the
    judgments is still raised first.
    """
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
        judgments = read_judgments(qrels, settings.scale, qrels_format)
    finally:
        reading.join()  # the run's reading ends first, even on errors
    if failed:
        raise failed[0]
    return evaluate(judgments, read[0], settings)
