"""Issue 24 item 8: a note in a returned work file past :data:`MAX_NOTE_CHARS` is refused at merge, naming the file.

30 MB notes were once merged without a limit. One character more than the limit is refused before
anything is merged; exactly the limit is merged as written.
"""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.common import MAX_NOTE_CHARS
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.teams import merge_work
from tests.helpers import raw_sql as raw
from tests.store.conftest import dump
from tests.tasks.test_teams import FIRST, assigned, team  # noqa: F401 - team is a fixture


@pytest.mark.parametrize("size", [MAX_NOTE_CHARS + 1, 30 << 20])
def test_a_note_over_the_limit_is_refused_at_merge_naming_the_file(team, tmp_path, size):  # noqa: F811
    files = assigned(team, tmp_path)
    raw(files["ben"], f"UPDATE judgments SET note = replace(hex(zeroblob({size})), '00', 'n') {FIRST}")
    before = dump(team)
    with Project.open(team) as project:
        with pytest.raises(InputError) as refused:
            merge_work(project, [files["ben"]], annotator="coord")
    # the bound is checked when the work file opens, in SQL (store/fields.py, issue 33 item 9)
    assert str(refused.value).startswith(f"{files['ben']}: cannot be read as ndcg-desktop wrote it: judgments.note")
    assert f"holds {size:,} characters, more than the {MAX_NOTE_CHARS:,} it may hold" in str(refused.value)
    assert "nothing was read" in str(refused.value)
    assert dump(team) == before


def test_a_note_at_the_limit_is_merged_as_written(team, tmp_path):  # noqa: F811
    files = assigned(team, tmp_path)
    raw(files["ben"], f"UPDATE judgments SET note = replace(hex(zeroblob({MAX_NOTE_CHARS})), '00', 'n') {FIRST}")
    with Project.open(team) as project:
        merge_work(project, [files["ben"]], annotator="coord")
        notes = project.ratings.verified(1)["note"].tolist()
    assert "n" * MAX_NOTE_CHARS in notes
