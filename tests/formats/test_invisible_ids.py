"""The ID rule covers the whole class of invisible characters, derived here from unicodedata."""

from __future__ import annotations

import unicodedata

import pyarrow as pa
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.cells import check_id, clean_ids
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run

# Default-ignorable code points that are not Cc/Cf/Z* (DerivedCoreProperties.txt), plus the Hangul fillers.
DEFAULT_IGNORABLE = [
    0x034F,
    0x115F,
    0x1160,
    0x17B4,
    0x17B5,
    0x3164,
    0xFFA0,
    *range(0x180B, 0x1810),
    *range(0x2060, 0x2070),
    *range(0xFE00, 0xFE10),
    *range(0xE0000, 0xE0080),
    *range(0xE0100, 0xE01F0),
    *range(0xFFF0, 0xFFF9),
    *range(0x1BCA0, 0x1BCA4),
    *range(0x1D173, 0x1D17B),
]
REFUSED = sorted(
    {c for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zs", "Zl", "Zp")}
    | set(DEFAULT_IGNORABLE)
)


def test_the_derived_set_is_the_whole_class():
    assert len(REFUSED) > 550  # about 170 Cf, 65 Cc, 19 separators, 400 default-ignorables
    assert {0xFE0F, 0xE0020, 0x3164, 0x200B, 0xFEFF, 0x00A0}.issubset(REFUSED)


def test_every_invisible_code_point_is_refused_by_the_one_value_check():
    accepted = []
    for code in REFUSED:
        try:
            check_id(f"D7{chr(code)}x", "document ID", "f", 1)
        except InputError:
            continue
        accepted.append(f"U+{code:04X}")
    assert accepted == []


def test_every_invisible_code_point_is_refused_by_the_vectorised_check():
    accepted = []
    for code in REFUSED:
        column = pa.array(["D1", f"D7{chr(code)}x"])
        try:
            clean_ids(column, "document ID", "f", lambda row: row + 1)
        except InputError as exc:
            assert str(exc).startswith("f:2: document ID ")
            continue
        accepted.append(f"U+{code:04X}")
    assert accepted == []


@pytest.mark.parametrize("invisible", ["\U000e0020", "\ufe0f", "\u3164", "\u115f", "\U000e0101", "\u034f"])
def test_lookalike_ids_are_refused_in_trec_files(write, invisible):
    body = f"q1 0 D7 2\nq1 0 D7{invisible} 0\nq1 0 D8 1\n"
    qrels = write("qrels.txt", body)
    with pytest.raises(InputError) as info:
        read_qrels(qrels)
    assert str(info.value).startswith(f"{qrels}:2: document ID 'D7\\")
    run = write(
        "run.txt", "".join(f"q1 Q0 {d} {r} {9 - r} s\n" for r, d in enumerate(["D7", f"D7{invisible}", "D8"], 1))
    )
    with pytest.raises(InputError) as info:
        read_run(run)
    assert str(info.value).startswith(f"{run}:2: document ID 'D7\\")


def test_ordinary_letters_are_accepted():
    for text in ("Dé7", "文書7", "документ", "D\u0301"):  # a combining accent is visible
        assert check_id(text, "document ID", "f", 1) == text
