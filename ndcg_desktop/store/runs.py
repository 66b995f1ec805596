"""Imported runs, stored exactly as read (Arrow IPC in file order) with the settings that order them.

Each stored run carries ``data_hash`` (schema.run_hash of what is stored), recomputed at every load.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.chunks import ChunkMap, IdMap
from ndcg_desktop.domain.data import OrderKind, Run, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.reading import RunReading
from ndcg_desktop.domain.settings import TiePolicy
from ndcg_desktop.formats.cells import check_name, show
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring.ranking import map_ids, top_documents
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.errors import stored_value
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import run_hash


class RunChanged(InputError):
    """A stored run no longer hashes to the hash recorded when it was imported."""


@dataclass(frozen=True)
class RunInfo:
    name: str
    source_name: str
    sha256: str
    format: str
    reading: RunReading  # order, ties, ID map: fixed at import
    rows: int
    queries: int
    imported_at: str


@dataclass(frozen=True)
class SavedEvaluation:
    """One recorded evaluation: the run, the frozen version, the settings text, its manifest."""

    id: int
    run_name: str
    pool_version: int
    settings: str  # EvalSettings.to_text()
    manifest: dict[str, Any]
    created_at: str


class RunRepository(Repository):
    """The runs of one project file, and the evaluations recorded of them."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file
        self._listed: tuple[tuple[Any, ...], list[RunInfo]] | None = None  # (key, runs): see all()

    @writes
    def import_run(
        self,
        path: str | Path,
        *,
        name: str,
        annotator: str,
        ties: TiePolicy = TiePolicy.DOCID_DESC,
        id_map: IdMap | None = None,
        fmt: str | None = None,
        order: OrderKind | None = None,
    ) -> RunInfo:
        """Store a run as read (rows in file order) with the reading settings that order it."""
        name = check_name(name, "run name")
        if self.file.query("SELECT 1 FROM runs WHERE name = ?", (name,)):
            raise InputError(f"already has a run named {name!r}; choose another name", path=self.file.path)
        run = read_run(path, fmt=fmt, order=order)
        if id_map is not None:
            map_ids(run, id_map)  # validates the ID map before anything is written (no need to rank the run)
        if isinstance(id_map, ChunkMap):  # stored with the run: only the chunks it returned (same name and hash)
            id_map = id_map.restricted_to(set(run.docs.to_pylist()))
        table = pa.table(
            {
                "query_id": pa.DictionaryArray.from_arrays(pa.array(run.q), run.queries),
                # Numbered document IDs (Run.doc_numbers) are stored as their numbers: no dictionary to build
                # at import, and the run loads on the numeric fast path that reading its file takes.
                "doc_id": _stored_doc_ids(run),
                "score": pa.array(run.score) if run.score is not None else pa.nulls(len(run), pa.float64()),
                "rank": pa.array(run.rank) if run.rank is not None else pa.nulls(len(run), pa.float64()),
                "line": pa.array(
                    run.line_numbers if run.line_numbers is not None else np.arange(len(run)) + run.first_line
                ),
            }
        )
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as writer:
            writer.write_table(table)
        reading = RunReading(
            order=run.order, ties=ties, id_map=id_map, notes=tuple(run.notes), empty_queries=run.empty_queries
        )
        stored = (
            name,
            Path(path).name,
            run.source.sha256,
            run.source.format,
            json.dumps(reading.as_dict()),
            len(run),
            len(run.answered_queries()),
            sink.getvalue(),
        )
        with self.file.transaction() as conn:
            conn.execute(
                "INSERT INTO runs (name, source_name, sha256, format, reading, rows, queries, data, imported_at, "
                "imported_by, data_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*stored, now(), annotator, run_hash(*stored)),  # who imported it
            )
        return self.run_info(name)

    def all(self) -> list[RunInfo]:
        """Every stored run, in import order."""
        # imported_at is stored after the run's data: reading it walks every overflow page of the blob (tens of
        # ms per run of a million lines, on the GUI thread at each refresh). Run rows are never updated or
        # deleted (triggers refuse it), so the list changes only with the number of rows and the last run_id.
        key = tuple(self.file.query("SELECT count(*), max(run_id) FROM runs")[0])
        if self._listed is None or self._listed[0] != key:
            rows = self.file.query(
                "SELECT name, source_name, sha256, format, reading, rows, queries, imported_at "
                "FROM runs ORDER BY run_id"
            )
            infos = []
            for r in rows:
                with stored_value(self.file.path, f"the reading settings and counts of run {show(str(r[0]))}"):
                    reading, count, queries = RunReading.from_dict(json.loads(r[4])), int(r[5]), int(r[6])
                infos.append(RunInfo(r[0], r[1], r[2], r[3], reading, count, queries, r[7]))
            self._listed = (key, infos)
        return list(self._listed[1])

    def chunk_parents(self) -> dict[str, str]:
        """Chunk ID -> document ID from every stored run's chunk map (the chunks those runs returned)."""
        parents: dict[str, str] = {}
        for info in self.all():
            if isinstance(info.reading.id_map, ChunkMap):
                parents.update(info.reading.id_map.pairs)
        return parents

    def run_info(self, name: str) -> RunInfo:
        for info in self.all():
            if info.name == name:
                return info
        known = ", ".join(i.name for i in self.all()) or "none"
        raise InputError(f"has no run named {name!r} (runs: {known})", path=self.file.path)

    def load_run(self, name: str) -> tuple[Run, RunInfo]:
        """Rebuild a stored run exactly as it was read from its file."""
        info = self.run_info(name)
        blob = self._verified_blob(name)
        table = pa.ipc.open_stream(blob).read_all().combine_chunks()
        qcol, dcol = table.column("query_id").chunk(0), table.column("doc_id").chunk(0)
        order = info.reading.order
        coded = pa.types.is_dictionary(dcol.type)  # as runs were stored before the IDs of each row
        numbered = pa.types.is_integer(dcol.type)
        run = Run(
            queries=qcol.dictionary,
            docs=dcol.dictionary if coded else None,
            q=qcol.indices.to_numpy().astype(np.int32),
            d=dcol.indices.to_numpy().astype(np.int32) if coded else None,
            doc_numbers=dcol.to_numpy().astype(np.int32) if numbered else None,
            doc_column=None if coded or numbered else dcol,
            score=None if table.column("score").null_count == len(table) else table.column("score").to_numpy(),
            rank=table.column("rank").to_numpy() if order is OrderKind.RANK else None,
            order=order,
            source=Source(path=info.source_name, sha256=info.sha256, format=info.format),
            line_numbers=table.column("line").to_numpy(),
            notes=list(info.reading.notes),
            empty_queries=info.reading.empty_queries,
        )
        return run, info

    def _verified_blob(self, name: str) -> bytes:
        """The run's Arrow blob, after checking that what is stored still hashes to the hash recorded at import.

        Raises :class:`RunChanged`. A file from before format 2 opened read-only has no recorded hash yet (it gets
        one, from what it holds, when first opened for writing), so there is nothing to compare.
        """
        if self.file.schema_version < 2:
            return bytes(self.file.query("SELECT data FROM runs WHERE name = ?", (name,))[0][0])
        row = self.file.query(
            "SELECT name, source_name, sha256, format, reading, rows, queries, run_id, data_hash FROM runs "
            "WHERE name = ?",
            (name,),
        )[0]
        data = self._blob(row[7])
        name_, source, sha256, fmt, reading, rows, queries = row[:7]
        recorded, now_hash = row[8], run_hash(name_, source, sha256, fmt, reading, rows, queries, data)
        if now_hash != recorded:
            raise RunChanged(
                f"run {name!r} has changed since it was imported: its recorded sha256 is {recorded}, what is stored "
                f"now hashes to {now_hash}; the file was altered outside ndcg-desktop, so this run cannot be used: "
                f"import the run again from its file ({row[1]}) under another name, or restore the project from a "
                "backup",
                path=self.file.path,
            )
        return data

    def _blob(self, run_id: int) -> bytes:
        """A run's Arrow blob, read through SQLite's incremental blob I/O.

        A ``SELECT data`` copies the blob (250 MB for 7M lines) out of its overflow pages while holding the GIL,
        which froze the window for ~0.1 s at every check, score or preview; ``Blob.read`` releases it meanwhile.
        """
        with self.file.conn.blobopen("runs", "data", run_id, readonly=True) as blob:
            return blob.read()

    def top_pairs(self, names: list[str], depth: int | None) -> pd.DataFrame:
        """The (query_id, doc_id) pairs in the top ``depth`` (None: all) of each named run, IDs mapped, run by run.

        Each run's pairs are distinct; a pair two runs share comes twice, and the staging that reads these keeps
        the first (``judgments._staged``). pandas' ``drop_duplicates`` did that here by hashing every pair's
        strings while holding the GIL (the build-pool preview's worker, ~0.1 s at 700,000 pairs).
        """
        frames = []
        for name in names:
            run, info = self.load_run(name)
            cut = depth or max(len(run), 1)
            frames.append(top_documents(run, cut, ties=info.reading.ties, id_map=info.reading.id_map))
        if not frames:
            return pd.DataFrame(columns=["query_id", "doc_id"])
        return (frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True))[["query_id", "doc_id"]]

    @writes
    def save_evaluation(self, run_name: str, version: int, settings_text: str, manifest: dict[str, Any]) -> int:
        """Record that ``run_name`` was scored against ``version``, how, with what manifest; returns its id."""
        with self.file.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO evaluations (run_name, pool_version, settings, manifest, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (run_name, version, settings_text, json.dumps(manifest), now()),
            )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def evaluations(self) -> list[SavedEvaluation]:
        """Every recorded evaluation, newest first."""
        rows = self.file.query(
            "SELECT id, run_name, pool_version, settings, manifest, created_at FROM evaluations ORDER BY id DESC"
        )
        saved = []
        for r in rows:
            with stored_value(self.file.path, f"the manifest of recorded evaluation {r[0]}"):
                manifest = json.loads(r[4])
            saved.append(SavedEvaluation(r[0], r[1], r[2], r[3], manifest, r[5]))
        return saved


def _stored_doc_ids(run: Run) -> pa.Array:
    """A run's document IDs as stored: numbers (Run.doc_numbers: the numeric fast path on loading), else each
    row's ID as read (Run.doc_column), as the file path holds them; a dictionary only for a run that has one.

    Building a dictionary of 7M nearly distinct IDs at import took 3 s and most of 1.5 GB, for nothing the
    scorer needs: it hashes each row's ID (scoring/idkeys.py).
    """
    if run.doc_numbers is not None:
        return pa.array(run.doc_numbers)
    if run.doc_column is not None:
        return run.doc_column
    return pa.DictionaryArray.from_arrays(pa.array(run.d), run.docs)
