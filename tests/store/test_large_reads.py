"""Large values leave the project file without a long hold of Python's GIL: a worker reading them (every check,
score and preview reads the run's blob and the frozen version's lines) must leave the window's thread its turns."""

from __future__ import annotations

import re

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft


def test_a_runs_blob_and_a_versions_lines_are_read_without_copying_or_decoding_them_under_the_gil(tmp_path, write):
    qrels = "".join(f"q{q} 0 doc-{d} {d % 4}\n" for q in range(40) for d in range(50))  # 2,000 lines, ~30 kB
    run = "".join(f"q{q} Q0 doc-{d} {d + 1} {100 - d} s\n" for q in range(40) for d in range(80))
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        project.judgments.import_qrels(write("q.txt", qrels), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.runs.import_run(write("r.txt", run), name="sys", annotator="ann")
    with Project.open(tmp_path / "p.ndcgproj") as project:
        conn = project.file.conn
        statements: list[str] = []
        decoded: list[int] = []
        conn.set_trace_callback(statements.append)
        conn.text_factory = lambda raw: (decoded.append(len(raw)), raw.decode())[1]
        loaded, _ = project.runs.load_run("sys")
        judged = project.pools.qrels(1)
    # A SELECT of the blob copies it (250 MB for 7M lines) while holding the GIL; incremental blob I/O does not.
    assert not [s for s in statements if re.search(r"SELECT\b[^;]*\bdata\b[^;]*\bFROM runs\b", s)]
    # The version's sorted lines (the hash's input) come as bytes: never decoded into one long str.
    assert max(decoded) < 1_000
    assert len(loaded.q) == 40 * 80 and judged.n_judgments == 2_000
    assert judged.source.sha256 == project_hash(tmp_path / "p.ndcgproj")


def project_hash(path) -> str:
    import sqlite3

    con = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return con.execute("SELECT hash FROM pool_versions WHERE version = 1").fetchone()[0]
    finally:
        con.close()
