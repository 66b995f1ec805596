"""Whether a draft may be frozen, and how: the policy of a freeze and the words of its refusals.

The store records a freeze as it is told (:meth:`~ndcg_desktop.store.judgments.JudgmentRepository.record_freeze`);
what blocks one (work still handed out, items rated differently, ungraded items) and when a model's ratings may
fill the items no person rated (contract rule 18: only once it was compared with people on ``min_shared`` items)
is decided here, each refusal naming the ``ndcg`` option that overrides it.
"""

from __future__ import annotations

import shlex
from typing import TypedDict

from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import MODEL_PREFIX
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.team import outstanding_text

MIN_SHARED = 50  # items a model must have been compared with people on before its ratings may fill a draft


class FreezeChoices(TypedDict, total=False):
    """The choices of a freeze (:func:`freeze_draft` says what each does), for a use case that passes them on."""

    version: int | None
    remove_ungraded: bool
    fill_from: str | None
    min_shared: int
    work_out: bool


def freeze_draft(
    project: Project,
    *,
    annotator: str,
    version: int | None = None,
    remove_ungraded: bool = False,
    fill_from: str | None = None,
    min_shared: int = MIN_SHARED,
    work_out: bool = False,
) -> PoolVersion:
    """Freeze a draft into an immutable, hashed version, by ``annotator``. Ungraded items block it unless removed.

    Work files still handed out block it unless ``work_out``: then the freeze goes ahead and an audit row of the
    version names them (``freeze with work out: ...``).

    ``fill_from`` (``model:<name>``, contract rule 18) first gives each item no person rated that model's rating as
    its grade (the way it was settled is recorded as that name), and is refused unless the model's ratings were
    compared with people's on at least ``min_shared`` items of this draft.
    """
    draft = project.pools.version(version) if version is not None else project.pools.draft()
    if draft is None:
        raise InputError("has no draft pool to freeze", path=project.path)
    v = project.pools.writable_draft(draft.version)
    out = project.ratings.outstanding_handouts(v.version)
    if out and not work_out:
        raise InputError(
            f"draft version {v.version} has work still handed out: {outstanding_text(out)}; merge the returned "
            "work files first, or freeze without it",
            path=project.path,
            hint="ndcg freeze PROJECT --with-work-out freezes anyway (recorded in the audit log)",
        )
    filling = 0 if fill_from is None else _fillable(project, v, fill_from, min_shared)
    items, graded = project.judgments.graded_count(v.version)
    ungraded = items - graded - filling
    # Only an ungraded item can be unsettled: with none (the usual case) the ratings are not read at all
    # (grouping 766k ratings took 0.6 s of every freeze).
    unsettled = project.ratings.unsettled(v.version, per_item=True) if ungraded + filling else 0
    if unsettled:  # never removed as "ungraded": annotators graded them, they only disagree
        raise InputError(
            f"draft version {v.version} has {count(unsettled, 'item')} that annotators rated "
            "differently and nobody has adjudicated yet; adjudicate them first",
            path=project.path,
            hint="ndcg adjudicate PROJECT --rule median settles them all, ndcg adjudicate PROJECT lists them",
        )
    if items == ungraded:  # before the next refusal, whose remedy would end here
        raise InputError(f"draft version {v.version} has no graded items to freeze", path=project.path)
    if ungraded and not remove_ungraded:
        models = project.judgments.models_of_ungraded(v.version)  # filling from one is the other way (rule 18)
        fill = (
            f"; or fill the items no person rated from {models[0]}'s grades once it was compared with people "
            f"(freeze {fill_option(models[0])})"
            if models
            else ""
        )
        raise InputError(
            f"draft version {v.version} has {count(ungraded, 'ungraded item')}; grade them, "
            "or remove them explicitly" + fill,
            path=project.path,
            hint="ndcg freeze PROJECT --remove-ungraded",
        )
    return project.judgments.record_freeze(
        v, fill_from=fill_from if filling else None, remove_ungraded=bool(ungraded), annotator=annotator, work_out=out
    )


def fill_option(model: str) -> str:
    """The option that fills from ``model``, as it is typed in a shell (a name may hold a space)."""
    return f"--fill-ungraded-from {shlex.quote(model)}"


def _fillable(project: Project, v: PoolVersion, model: str, min_shared: int) -> int:
    """How many items freezing would fill from ``model``'s ratings; refused unless it was compared with people on
    at least ``min_shared`` items of the draft."""
    if not model.startswith(MODEL_PREFIX) or len(model) == len(MODEL_PREFIX):
        raise InputError(f"{model!r} does not name a model's ratings (model:<name>)", path=project.path)
    if not project.judgments.rated_by(v.version, model):
        raise InputError(
            f"{model} has no ratings in draft version {v.version}: judge with that model first, items people "
            "rated to measure it (judge --items rated), then the items nobody rated",
            path=project.path,
        )
    shared = project.judgments.compared_with_people(v, model)
    if shared < min_shared:
        raise InputError(
            f"{model} was compared with people on {count(shared, 'item')} of draft version "
            f"{v.version}; filling ungraded items from it needs at least {min_shared} (--min-shared): judge "
            "more items people rated with it (judge --items rated) and look at its agreement",
            path=project.path,
            hint="ndcg agreement PROJECT shows it beside the people",
        )
    return project.judgments.fillable(v.version, model)
