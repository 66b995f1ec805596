"""What a comparison is asked for, checked before anything is read: each run's name (its TREC tag, its file name,
or ``--run-names``; the cut-offs are ``domain.Cutoffs``). No pandas: the scoring path imports this."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.errors import Advice
from ndcg_desktop.formats.cells import check_name, plain
from ndcg_desktop.tasks.files import Ranking


def file_run_name(path: str | Path) -> str:
    """A run file's name without ``.gz`` and its extension: ``bm25.run.gz`` -> ``bm25``, ``input.x1.gz`` ->
    ``input`` (a TREC run is named after its run tag instead: :func:`run_names_of`).

    >>> file_run_name("runs/bm25.run.gz"), file_run_name("my.model.v2.trec"), file_run_name("plain")
    ('bm25', 'my.model.v2', 'plain')
    """
    name = Path(path).name
    if name.lower().endswith(".gz") and len(name) > 3:
        name = name[:-3]
    return Path(name).stem or name


def run_names_of(paths: Sequence[str | Path], tags: Sequence[str | None] | None = None) -> list[str]:
    """The runs' names: a TREC run's tag when every line gives the same one (TREC's own ``input.<tag>.gz``
    files), else :func:`file_run_name`; the whole file name where two clash, refused if they still do.

    Under the name rule (``formats.cells.check_name``): a control character in a file name is escaped
    as ``plain`` shows it (``bm\\n25``), never carried into tables, sheets and exports.
    """
    tags = list(tags) if tags is not None else [None] * len(paths)
    short = [tag or plain(file_run_name(p)) for tag, p in zip(tags, paths, strict=True)]
    names = [s if short.count(s) == 1 else plain(Path(p).name) for s, p in zip(short, paths, strict=True)]
    names = [check_name(name, "run name (from its file name)") for name in names]
    if len(set(names)) != len(names):
        clash = next(n for n in names if names.count(n) > 1)
        raise InputError(
            f"two runs are named {clash}",
            hint=Advice("give each its own name with --run-names", "give each its own name: a dict of name -> run"),
        )
    return names


def given_run_names(names: Sequence[str], paths: Sequence[Ranking]) -> list[str]:
    """``--run-names``: one name per run file, in order, each its own (checked as a stored run's name is)."""
    if len(names) != len(paths):
        raise InputError(
            f"--run-names gives {count(len(names), 'name')} for {count(len(paths), 'run file')}; give one per file"
        )
    checked = [check_name(str(name), "run name") for name in names]
    if len(set(checked)) != len(checked):
        clash = next(n for n in checked if checked.count(n) > 1)
        raise InputError(f"--run-names names {clash} twice; give each run its own name")
    return checked
