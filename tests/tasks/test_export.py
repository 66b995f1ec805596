"""Writing a frozen version's qrels (tasks.export.write_qrels, the one writer of qrels files); moved from the store's
tests with the writer."""

from __future__ import annotations

from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.export import write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft

from ..store import test_project as plain

QRELS, RUN = plain.QRELS, plain.RUN
project = plain.project  # the store tests' fixture: an empty project of ann's


def test_exported_qrels_reimport_to_the_same_hash(project, write, tmp_path):
    project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
    v = freeze_draft(project, annotator="ann")
    write_qrels(project, tmp_path / "out.qrels", version=v.version)
    assert read_qrels(tmp_path / "out.qrels").n_judgments == 5
    with Project.create(tmp_path / "other.ndcgproj", annotator="tester") as other:
        other.judgments.import_qrels(tmp_path / "out.qrels", annotator="ann")
        assert freeze_draft(other, annotator="ann").hash == v.hash
    write_qrels(project, tmp_path / "out.csv", fmt="csv")
    assert (tmp_path / "out.csv").read_text().startswith("query_id,doc_id,grade\n")
