"""The stepped byte scans give what the bytes methods give, across step boundaries."""

from __future__ import annotations

import random

import pytest

from ndcg_desktop.formats import common


@pytest.mark.parametrize("seed", range(4))
def test_stepped_scans_agree_with_the_bytes_methods(monkeypatch, seed):
    monkeypatch.setattr(common, "_CHUNK", 7)  # tiny steps: many matches cross a step's end
    rnd = random.Random(seed)
    for _ in range(500):
        data = bytes(rnd.choice(b"ab \t\r\n") for _ in range(rnd.randrange(0, 40)))
        start = rnd.randrange(0, len(data) + 1)
        end = rnd.randrange(start, len(data) + 2)
        for needle in (b"\n", b"\t", b"  ", b"\n ", b" \n", b" \r\n"):
            assert common.find_in(data, needle, start, end) == data.find(needle, start, end)
            assert common.contains(data, needle) == (needle in data)
        for needle in (b"\n", b"\r", b"\r\n", b"\n "):  # needles that cannot overlap themselves
            assert common.count_in(data, needle, start, end) == data.count(needle, start, end)
        assert common.is_ascii(data) and not common.is_ascii(data + "é".encode())
