"""The packed-key memo (``sandbox.systems.arrays.memo``): a column of keys answered as the function would answer each,
the function asked once per key ever."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sandbox.systems.arrays.memo import FIELD_LIMIT, PackedMemo, pack, unpack

FIELD = st.integers(0, FIELD_LIMIT - 1)


@given(st.lists(st.tuples(FIELD, FIELD, FIELD), min_size=1, max_size=20))
def test_a_packed_key_unpacks_to_its_fields(keys: list[tuple[int, int, int]]) -> None:
    columns = [np.asarray([k[f] for k in keys], dtype=np.int64) for f in range(3)]
    assert [unpack(k) for k in pack(*columns).tolist()] == keys


@given(st.lists(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5), st.integers(0, 63)), max_size=30),
                max_size=6))
def test_columns_are_answered_as_each_key_would_be_and_each_key_is_worked_out_once(
        columns: list[list[tuple[int, int, int]]]) -> None:
    asked: list[int] = []

    def work_out(keys: Sequence[int]) -> list[int]:
        asked.extend(keys)
        return [a * 1000 + b * 100 - c for a, b, c in map(unpack, keys)]

    memo = PackedMemo(work_out)
    for column in columns:
        fields = [np.asarray([k[f] for k in column], dtype=np.int64) for f in range(3)]
        assert memo(pack(*fields)).tolist() == [a * 1000 + b * 100 - c for a, b, c in column]
    assert len(asked) == len(set(asked))  # never the same key twice
    assert set(asked) == {int(k) for column in columns for k in pack(*(
        np.asarray([t[f] for t in column], dtype=np.int64) for f in range(3))).tolist()}
