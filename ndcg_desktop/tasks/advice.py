"""What to do next, in commands that work in the project's current state (issue 27).

A refusal that suggests a command suggests one that works now: a fresh project has no frozen version for
``ndcg new-draft`` to copy, a project without runs has nothing for ``ndcg pool`` to pool, a draft with ungraded
items does not freeze as it is. Placeholders are upper case (PROJECT, FILE, NAME, K); every ``ndcg`` command
named here is run in each of those states by ``tests/cli/test_refusal_advice.py``. The store gives the facts
(which versions there are, how many items are graded); the words are the command line's, so they are here.
"""

from __future__ import annotations

from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.errors import NoFrozenVersion

IMPORT_QRELS = "ndcg import-qrels PROJECT FILE"


def start_a_draft(project: Project) -> str:
    """How a project without a draft gets one: copy its latest frozen version (``start one from pool version 2
    (ndcg new-draft PROJECT)``), or else import judgments, or pool runs if it has some."""
    frozen = project.pools.latest_frozen()
    if frozen is not None:
        return f"start one from pool version {frozen.version} (ndcg new-draft PROJECT)"
    ways = f"import judgments to start one ({IMPORT_QRELS}; add --annotator NAME for one assessor's grades)"
    if project.runs.all():
        ways += ", or pool the top documents of runs (ndcg pool PROJECT --depth K --runs NAME)"
    return ways


def get_a_frozen_version(project: Project) -> str:
    """How a project without a frozen version gets one, from the state of its draft (if any)."""
    draft = project.pools.draft()
    if draft is None:
        return f"import graded judgments ({IMPORT_QRELS}) and freeze them"
    return what_blocks_freezing(project, draft.version) or "freeze the draft first (ndcg freeze PROJECT)"


def what_blocks_freezing(project: Project, draft: int) -> str:
    """Why draft ``draft`` cannot be frozen as it is, and what to do; "" when nothing does."""
    items, graded = project.judgments.graded_count(draft)
    unsettled = project.ratings.unsettled(draft)
    if unsettled:
        return (
            f"draft version {draft} has {_items(unsettled)} that annotators rated differently: adjudicate them "
            "(ndcg adjudicate PROJECT --rule median settles them all, ndcg adjudicate PROJECT lists them)"
        )
    if not items:
        return f"draft version {draft} is empty: import judgments into it ({IMPORT_QRELS})"
    if not graded:
        return (
            f"draft version {draft} has no graded item: grade its {_items(items)} in the window, or hand them out "
            "(ndcg assign PROJECT --annotators NAMES -o DIR)"
        )
    if graded < items:
        return (
            f"draft version {draft} has {_items(items - graded)} ungraded: grade them, or freeze without them "
            "(ndcg freeze PROJECT --remove-ungraded)"
        )
    return ""


def frozen_version(project: Project, number: int | None, *, check: bool = True) -> PoolVersion:
    """The store's frozen version ``number`` (the latest when None; verified unless ``check=False``), refused
    without one with what to do to get one."""
    try:
        return project.pools.frozen_version(number, check=check)
    except NoFrozenVersion as exc:
        raise InputError(f"{exc.message}; {get_a_frozen_version(project)}", path=exc.path) from None


def _items(n: int) -> str:
    return count(n, "item")
