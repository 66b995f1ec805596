"""Reading a project without changing it: its versions, a frozen version's judgments, its runs, as tables.

The use cases behind the Python API's ``open_project``: the project is opened read-only (another program may
hold it for writing meanwhile), every frozen version and stored run proves itself as it is read (rules 15, 19),
and nothing is recorded, not even an evaluation.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.agreement import AgreementResult, load_agreement
from ndcg_desktop.tasks.scoring import ScoredRun, score_run

_VERSION_COLUMNS = ["version", "state", "parent", "scale", "labels", "created_at", "created_by", "frozen_at"]
_VERSION_COLUMNS += ["frozen_by", "hash", "guidelines_sha256"]
_RUN_COLUMNS = ["name", "source", "sha256", "format", "reading", "rows", "queries", "imported_at"]


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
        for version in self._project.versions():
            row = {key: value for key, value in asdict(version).items() if key in _VERSION_COLUMNS}
            rows.append(row | {"scale": str(version.scale)})
        frame = pd.DataFrame(rows, columns=_VERSION_COLUMNS)
        return frame.astype({"parent": "Int64"})

    def judgments(self, version: int | None = None) -> pd.DataFrame:
        """A frozen version's judgments (the latest when ``version`` is None): query_id, doc_id, grade; proven."""
        number = self._project.frozen_version(version).version
        return self._project.qrels(number).frame_as_read()[["query_id", "doc_id", "grade"]].reset_index(drop=True)

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
            for info in self._project.runs()
        ]
        return pd.DataFrame(rows, columns=_RUN_COLUMNS)

    def run(self, name: str) -> pd.DataFrame:
        """A stored run's rows as its file gave them (query_id, doc_id, and score and/or rank); proven."""
        run, _info = self._project.load_run(name)
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

    def score(self, run_name: str, version: int | None, settings: EvalSettings) -> ScoredRun:
        """Score a stored run against a frozen version (the latest when None), as ``ndcg score --project`` does,
        recording nothing."""
        return score_run(self._project, run_name, version, settings, record=False)

    def agreement(self, version: int | None, settings: EvalSettings) -> AgreementResult:
        """The agreement of a version's annotators (the draft, else the latest frozen when None), as
        ``ndcg agreement`` computes it; ``settings`` score the runs under each annotator's grades."""
        return load_agreement(self._project, version, settings)
