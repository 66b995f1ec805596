"""People's names (issue 24 item 11): stored in NFC, compared by a folded key, never one of the program's credits."""

from __future__ import annotations

import unicodedata

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.names import name_key, normal_name, reserved_credit, same_person
from ndcg_desktop.formats.cells import check_person

JOSE_NFC, JOSE_NFD = "Jos\u00e9", "Jose\u0301"


def test_a_name_is_stored_in_nfc_so_two_spellings_of_one_name_are_one():
    assert JOSE_NFC != JOSE_NFD and unicodedata.normalize("NFC", JOSE_NFD) == JOSE_NFC
    assert check_person(JOSE_NFD, "annotator name") == JOSE_NFC == normal_name(JOSE_NFD)


@pytest.mark.parametrize(
    "other",
    [JOSE_NFD, "jose", "JOSE", "Jose", "\uff2a\uff4f\uff53\uff45", "\uff2aOSÉ"],  # accent, case, fullwidth
)
def test_look_alike_spellings_share_one_key(other):
    assert name_key(other) == name_key(JOSE_NFC)
    assert same_person(other, [JOSE_NFC]) == JOSE_NFC


def test_different_names_have_different_keys():
    assert same_person("ana", ["ben", "anna", "an"]) is None


# Every credit form the program writes, under the variants that passed the old guard.
CREDIT_FORMS = [
    "import:g.qrels",
    "IMPORT:g.qrels",
    "\uff49\uff4d\uff50\uff4f\uff52\uff54:g.qrels",  # fullwidth
    "\u0130MPORT:g.qrels",  # dotted capital I
    "import\ufe13g.qrels",  # presentation form for vertical colon
    "import\ufe55g.qrels",  # small colon
    "model:gpt",
    "Model\uff1agpt",  # fullwidth colon
    "\uff4d\uff4f\uff44\uff45\uff4c:gpt",
    "ana+ben",
    "ana\uff0bben",  # fullwidth plus
    "ana\ufe62ben",  # small plus
    "unrecorded",
    "UNRECORDED",
]


@pytest.mark.parametrize("name", CREDIT_FORMS)
def test_every_credit_form_the_program_writes_is_reserved_in_every_variant(name):
    assert reserved_credit(name) is not None
    with pytest.raises(InputError, match=r"annotator name .* is reserved: "):
        check_person(name, "annotator name")


@pytest.mark.parametrize("name", ["ana", "Ann Smith", JOSE_NFC, "李明", "Σωκράτης", "Дмитрий", "importer", "modeler"])
def test_ordinary_names_pass(name):
    assert check_person(name, "annotator name") == name


@pytest.mark.parametrize("name", ["\u0430na", "b\u0435n", "\u03bfscar"])  # Cyrillic a, Cyrillic e, Greek omicron
def test_a_name_mixing_look_alike_scripts_is_refused(name):
    with pytest.raises(InputError, match="mixes .* letters, which look alike"):
        check_person(name, "annotator name")


@pytest.mark.parametrize("name", [CREDIT_FORMS[2], CREDIT_FORMS[3], CREDIT_FORMS[10]])  # fullwidth, dotted, plus
def test_every_entry_point_of_a_name_refuses_a_reserved_credit(tmp_path, monkeypatch, name):
    """The user of a project (NDCG_USER or the window's), an annotator of assign or import-qrels: one check."""
    import pandas as pd

    from ndcg_desktop.store import Project
    from ndcg_desktop.tasks.identity import open_to_grade
    from ndcg_desktop.tasks.importing import import_ratings
    from ndcg_desktop.tasks.teams import assign_work

    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="coord") as project:
        project.judgments.add_items(pd.DataFrame([("q1", "d1")], columns=["query_id", "doc_id"]), annotator="coord")
        with pytest.raises(InputError, match="is reserved"):
            assign_work(project, [name], tmp_path / "work", overlap=0.0)
        with pytest.raises(InputError, match="is reserved"):
            import_ratings(project, tmp_path / "none.qrels", name, imported_by="coord")
    monkeypatch.setenv("NDCG_USER", name)
    with pytest.raises(InputError, match="is reserved"):
        open_to_grade(path)  # the user's name, decided and checked once the project is open
