"""Reading a project without changing it: its versions, a frozen version's judgments, its runs, as tables.

The use cases behind the Python API's ``open_project``: the project is opened read-only (another program may
hold it for writing meanwhile), every frozen version and stored run proves itself as it is read (rules 15, 19),
and nothing is recorded, not even an evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain import Cutoffs, DataTerms, EvalSettings, GradeScale, InputError, Qrels, Run
from ndcg_desktop.domain.reading import NOTHING_ASKED, ReadingAsked
from ndcg_desktop.formats.frames import qrels_from_frame
from ndcg_desktop.scoring import Evaluation
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.advice import frozen_version
from ndcg_desktop.tasks.agreement import AgreementResult, load_agreement
from ndcg_desktop.tasks.comparing import RunsComparison, compare_stored
from ndcg_desktop.tasks.scoring import (
    ScoredRun,
    check_readings,
    score_given_run,
    score_run,
    score_run_at,
    version_record,
)

_VERSION_COLUMNS = ["version", "state", "parent", "scale", "labels", "created_at", "created_by", "frozen_at"]
_VERSION_COLUMNS += ["frozen_by", "hash", "guidelines_sha256"]
_RUN_COLUMNS = ["name", "source", "sha256", "format", "reading", "rows", "queries", "imported_at"]
FROZEN = "ndcg_desktop.frozen_version"  # the key in DataFrame.attrs of a frozen version's judgments (judgments())


@dataclass(frozen=True)
class FrozenJudgments:
    """A frozen version's judgments given back as read by :meth:`ProjectReader.judgments`: still the version's
    lines, so a score against them names the version (``record``: :func:`.scoring.version_record`)."""

    qrels: Qrels
    version: int
    scale: GradeScale
    record: dict[str, object]


def frozen_judgments(frame: pd.DataFrame, scale: GradeScale | None) -> FrozenJudgments | None:
    """``frame``'s pool version, when it is a frozen version's judgments as :meth:`ProjectReader.judgments` gave
    them and its cells are still those (their SHA-256); None for any other frame, one changed since included
    (pandas carries ``attrs`` through a filter or an edit: the hash tells). Another ``scale`` is refused."""
    given = frame.attrs.get(FROZEN)
    if not isinstance(given, dict):
        return None
    version_scale = GradeScale.parse(str(given["scale"]))
    try:
        qrels = qrels_from_frame(frame, scale=version_scale)
    except InputError:  # changed since (a grade off the version's scale, say): read as any other frame is
        return None
    if qrels.source.sha256 != given["sha256"]:
        return None
    if scale is not None and scale != version_scale:
        raise InputError(f"pool version {given['version']} uses the scale {version_scale}, not {scale}")
    return FrozenJudgments(qrels, int(given["version"]), version_scale, dict(given["record"]))


class ProjectReader:
    """One project opened read-only; close it (or use ``with``) when done."""

    def __init__(self, path: str | Path) -> None:
        self._project = Project.open(path, read_only=True)
        self.path = str(path)

    def close(self) -> None:
        self._project.close()

    def __enter__(self) -> ProjectReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def versions(self) -> pd.DataFrame:
        """Every pool version, oldest first: its state, parent, scale, labels, who made and froze it, its hash."""
        rows = []
        for version in self._project.pools.versions():
            row = {key: value for key, value in asdict(version).items() if key in _VERSION_COLUMNS}
            rows.append(row | {"scale": str(version.scale)})
        frame = pd.DataFrame(rows, columns=_VERSION_COLUMNS)
        return frame.astype({"parent": "Int64"})

    def judgments(self, version: int | None = None) -> pd.DataFrame:
        """A frozen version's judgments (the latest when ``version`` is None): query_id, doc_id, grade; proven."""
        frozen = frozen_version(self._project, version)
        frame = (
            self._project.pools.qrels(frozen.version)
            .frame_as_read()[["query_id", "doc_id", "grade"]]
            .reset_index(drop=True)
        )
        frame.attrs[FROZEN] = {  # so that a score given these judgments names the version (frozen_judgments)
            "version": frozen.version,
            "scale": str(frozen.scale),
            "sha256": qrels_from_frame(frame, scale=frozen.scale).source.sha256,
            "record": version_record(self._project, frozen),
        }
        return frame

    def runs(self) -> pd.DataFrame:
        """The stored runs: name, source file, SHA-256, format, how they are read, rows, queries, when imported."""
        rows = [
            {
                "name": info.name,
                "source": info.source_name,
                "sha256": info.sha256,
                "format": info.format,
                "reading": info.reading.describe(),
                "rows": info.rows,
                "queries": info.queries,
                "imported_at": info.imported_at,
            }
            for info in self._project.runs.all()
        ]
        return pd.DataFrame(rows, columns=_RUN_COLUMNS)

    def run(self, name: str) -> pd.DataFrame:
        """A stored run's rows as its file gave them (query_id, doc_id, and score and/or rank); proven."""
        run, _info = self._project.runs.load_run(name)
        rows = np.arange(len(run))
        frame = pd.DataFrame(
            {
                "query_id": run.queries.take(pa.array(run.q)).to_pandas(),
                "doc_id": run.doc_ids(rows).to_pandas(),
            }
        )
        for column, values in (("score", run.score), ("rank", run.rank)):
            if values is not None:
                frame[column] = values
        return frame

    def score(
        self,
        run_name: str,
        version: int | None,
        settings: EvalSettings,
        k: int,
        *,
        residual_from: int | None = None,
        asked: ReadingAsked = NOTHING_ASKED,
    ) -> ScoredRun:
        """Score a stored run at ``k`` against a frozen version (the latest when None), as ``ndcg score --project``
        does (``residual_from``: ``--residual-from``; another reading than the run's own is refused:
        :func:`.scoring.check_readings`), recording nothing."""
        check_readings(self._project, [run_name], asked)
        return score_run(self._project, run_name, version, settings, k, record=False, residual_from=residual_from)

    def score_at(
        self,
        run_name: str,
        version: int | None,
        settings: EvalSettings,
        ks: Cutoffs,
        *,
        residual_from: int | None = None,
        asked: ReadingAsked = NOTHING_ASKED,
    ) -> list[Evaluation]:
        """:meth:`score` at every K of ``ks``, the run ordered once (as ``ndcg compare --project`` scores it)."""
        check_readings(self._project, [run_name], asked)
        scored = score_run_at(self._project, run_name, version, settings, ks, residual_from=residual_from)
        return [scored[k].evaluation for k in ks]

    def score_given(
        self, run: Run, version: int | None, settings: EvalSettings, terms: DataTerms, ks: Cutoffs
    ) -> list[Evaluation]:
        """A run not stored in the project (already read and checked, ``terms`` its tie policy and ID map) against a
        frozen version at every K of ``ks``, the version named in the manifest as a stored run's is; nothing
        recorded."""
        scored = score_given_run(self._project, run, version, settings, terms, ks)
        return [scored[k] for k in ks]

    def compare(
        self,
        run_names: Sequence[str],
        version: int | None,
        ks: Cutoffs,
        settings: EvalSettings,
        stats: StatsSettings,
        *,
        baseline: str | None = None,
        scale: str | None = None,
        residual_from: int | None = None,
        asked: ReadingAsked = NOTHING_ASKED,
    ) -> RunsComparison:
        """Stored runs compared against a frozen version, as ``ndcg compare --project`` compares them
        (``residual_from``: ``--residual-from``; ``order``, ``ties``, ``id_map``: each run's own, else refused)."""
        return compare_stored(
            self._project,
            run_names,
            version,
            ks,
            settings,
            stats,
            baseline=baseline,
            scale=scale,
            residual_from=residual_from,
            asked=asked,
        )

    def agreement(self, version: int | None, settings: EvalSettings, k: int) -> AgreementResult:
        """The agreement of a version's annotators (the draft, else the latest frozen when None), as
        ``ndcg agreement`` computes it; ``settings`` score the runs at ``k`` under each annotator's grades."""
        return load_agreement(self._project, version, settings, k)
