"""The built-in demo project: a dozen everyday queries, documents written for it, and the teaching example.

The data files beside this module are shipped as package data and turned into a project by
:func:`build_demo`:

- ``topics.txt``: twelve topics (q1..q12) on cooking, travel, home repair, health, programming,
  history, gardening and money, plus ``t1``, the four-document teaching example of the contract's rule 1,
  in the TREC topic form (title, description, narrative);
- ``guidelines.md``: short grading guidelines (Markdown), set before version 1 is frozen, so its
  manifests name them;
- ``documents.jsonl``: six to eight documents per query (perfect answers, partial ones, and
  off-topic documents that share the query's words), and A, B, C, D for ``t1``;
- ``judgments_v1.qrels``: the first round of judgments, frozen as pool version 1
  (``t1``: A=3, B=2, C=1, D=0);
- ``judgments_v2.qrels``: the second round, imported into draft version 2; grade -1 marks
  documents that are in the pool but not graded yet;
- ``bm25.run`` and ``dense.run``: two runs over all thirteen queries. They return some documents
  outside the frozen pool, contain score ties, and ``bm25`` answers ``t1`` with exactly [B, C]
  (NDCG@2 = 0.617320 against the frozen pool).

:func:`ensure_demo` keeps the user's own copy in the data folder (:func:`demo_path`), where it can
be edited freely and rebuilt on request.
"""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path

import platformdirs

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store.project import Project, ProjectInUse

APP_NAME = "ndcg-desktop"
DATA_DIR_VARIABLE = "NDCG_DESKTOP_DATA_DIR"
DEMO_FILE = "demo.ndcgproj"
RUN_NAMES = ("bm25", "dense")
TEACHING_QUERY = "t1"

# Notes an annotator left in the second round (set on the draft, version 2).
NOTES = (
    (
        TEACHING_QUERY,
        "D",
        "Shares 'ideal' and 'pool' with the query but is about swimming pools: a lexical false friend, graded 0.",
    ),
    ("q2", "d207", "Right question, wrong city: Porto, not Lisbon. Not relevant despite the word overlap."),
    ("q1", "d107", "Explains one cause very well (a cold kitchen leads to underproofing). A 2 or a 3?"),
)


def build_demo(path: str | Path, *, user: str = "demo") -> Path:
    """Create the demo project at ``path`` (which must not exist yet) and return its path.

    Pool version 1 is frozen; version 2 is a draft started from it and partly graded; the runs
    ``bm25`` and ``dense`` are imported with the default tie policy.
    """
    target = Path(path)
    data = resources.files(__name__)
    with Project.create(target, scale=GradeScale(0, 3), annotator=user) as project:
        with resources.as_file(data / "topics.txt") as topics:
            project.texts.import_topics(topics, fmt="trec")
        project.texts.set_guidelines(
            (data / "guidelines.md").read_text(encoding="utf-8"), source="file:guidelines.md", annotator=user
        )
        with resources.as_file(data / "documents.jsonl") as documents:
            project.texts.import_documents(documents)
        with resources.as_file(data / "judgments_v1.qrels") as first:
            project.judgments.import_qrels(first, fmt="trec", annotator=user)
        # the first round grades every item it pools: frozen as it is, nothing to decide (tasks.freezing)
        frozen = project.judgments.record_freeze(project.pools.writable_draft(1), annotator=user)
        project.pools.new_draft_from(frozen.version, annotator=user)
        with resources.as_file(data / "judgments_v2.qrels") as second:
            project.judgments.import_qrels(second, negative_as_ungraded=True, fmt="trec", annotator=user)
        for name in RUN_NAMES:
            with resources.as_file(data / f"{name}.run") as run:
                project.runs.import_run(run, name=name, fmt="trec", annotator=user)
        for query_id, doc_id, note in NOTES:
            project.judgments.set_note(query_id, doc_id, note, annotator=user)
    return target


def demo_path() -> Path:
    """Where the user's copy of the demo lives: the data folder, or ``$NDCG_DESKTOP_DATA_DIR``."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    folder = Path(override).expanduser() if override else platformdirs.user_data_path(APP_NAME)
    return folder / DEMO_FILE


def ensure_demo(force: bool = False, *, user: str = "demo") -> Path:
    """The user's demo project, built if it is missing (or rebuilt from scratch if ``force``).

    The project is built beside its final place and moved in at once, so an interrupted build
    never leaves a half-made demo. Rebuilding refuses while another window has the demo open.
    """
    target = demo_path()
    if target.exists() and not force:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        _refuse_if_in_use(target)
        for suffix in ("-wal", "-shm", "-journal"):  # left by a crash: they belong to the old file
            target.with_name(target.name + suffix).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix=".demo-build-", dir=target.parent) as scratch:
        built = build_demo(Path(scratch) / DEMO_FILE, user=user)
        os.replace(built, target)
    return target


def _refuse_if_in_use(target: Path) -> None:
    try:
        Project.open(target).close()
    except ProjectInUse:
        raise
    except InputError:
        pass  # damaged or not a project: rebuilding replaces it
