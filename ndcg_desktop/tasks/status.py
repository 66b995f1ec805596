"""What ``ndcg status`` reports about a project: its versions (each proven now), pool sizes, grading progress,
guidelines and runs, built from the store's reads."""

from __future__ import annotations

from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.store import FrozenVersionChanged, PoolVersion, Project
from ndcg_desktop.store.texts import Guidelines


def project_counts(project: Project) -> dict[str, int]:
    """How many queries, documents, runs and pool versions the project holds."""
    queries, documents = project.texts.counts()
    return {
        "queries": queries,
        "documents": documents,
        "runs": len(project.runs.all()),
        "versions": len(project.pools.versions()),
    }


def project_status(project: Project) -> JsonObject:
    """A summary for ``ndcg status``: versions, pool sizes, grading progress, runs.

    >>> # ndcg status p.ndcgproj --json prints, in code: project_status(project) (with the judging pace)
    """
    versions: list[JsonObject] = []
    for v in project.pools.versions():
        items, graded, queries = project.judgments.item_counts(v.version)
        versions.append(
            {
                "version": v.version,
                "state": v.state,
                "parent": v.parent,
                "hash": v.hash,
                # rules 15 and 16: judgments and ratings proven now, as every use proves them (None: a draft)
                **(
                    {
                        "intact": (proof := _proof(v, project))[0] is None,
                        "changed": proof[0] if proof[1] else None,  # its own judgments or ratings
                        "unproven": None if proof[1] else proof[0],  # the record that proves it
                    }
                    if v.frozen
                    # a draft under a number the record of frozen versions holds: flipped back (item 5)
                    else {
                        "intact": None if (flipped := project.pools.chain_problem(v)) is None else False,
                        "changed": flipped,
                    }
                ),
                "items": items,
                "graded": graded,
                "ungraded": items - graded,
                "queries": queries,
                "created_at": v.created_at,
                "frozen_at": v.frozen_at,
                "frozen_by": v.frozen_by,
                "guidelines_sha256": v.guidelines_sha256,
                "pooling": [b.record() for b in project.builds.of_version(v.version)],  # rule 20: how it was built
            }
        )
    return {
        "project": str(project.path),
        "protection": project.protection_problems(),
        "scale": str(project.scale),
        "labels": project.labels,
        "counts": project_counts(project),
        "guidelines": _guidelines_status(project.texts.guidelines()),
        "pool_versions": versions,
        "runs": [
            {
                "name": r.name,
                "source": r.source_name,
                "sha256": r.sha256,
                "format": r.format,
                "rows": r.rows,
                "queries": r.queries,
                "ties": r.reading.ties.value,
                "id_map": r.reading.id_map.reference() if isinstance(r.reading.id_map, ChunkMap) else r.reading.id_map,
            }
            for r in project.runs.all()
        ],
    }


def _proof(v: PoolVersion, project: Project) -> tuple[str | None, bool]:
    """What changed in frozen version ``v`` since it was frozen (judgments or ratings, or the record that proves
    it), or None; and whether it is about ``v`` itself (False: ``v`` is as recorded, but the record of frozen
    versions is not intact elsewhere, so it cannot be proven: issue 33 item 10)."""
    try:
        project.pools.verified(v)
    except FrozenVersionChanged as exc:
        return exc.what, exc.own
    return None, True


def _guidelines_status(current: Guidelines | None) -> JsonObject | None:
    if current is None or not current.text:
        return None
    return {"sha256": current.sha256, "set_at": current.at, "set_by": current.who, "source": current.source}
