"""A memo keyed by small non-negative integers packed into one.

What the array engine works out once per situation (a location table per target kind, aim and Spread; a rearming action
per anatomy, gear state and unusable parts) and then looks up for a whole column of creatures at a time.

The known keys are a sorted array, so a column costs one binary search (``np.searchsorted``), not a Python
lookup per row; a key not met before is worked out once, by the caller's function, and merged in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sandbox.systems.arrays.tables import IntArray

__all__ = ["FIELD_BITS", "FIELD_LIMIT", "PackedMemo", "pack", "unpack"]

FIELD_BITS = 21
"""Bits of each packed field: three fields fill 63 bits of an int64."""
FIELD_LIMIT = 1 << FIELD_BITS


def pack(first: IntArray, second: IntArray, third: IntArray) -> IntArray:
    """Three columns of integers in ``[0, FIELD_LIMIT)`` as one key each (``unpack`` reverses it)."""
    keys: IntArray = (first << (2 * FIELD_BITS)) | (second << FIELD_BITS) | third
    return keys


def unpack(key: int) -> tuple[int, int, int]:
    """The three fields of a packed key."""
    low = FIELD_LIMIT - 1
    return key >> (2 * FIELD_BITS), key >> FIELD_BITS & low, key & low


class PackedMemo:
    """Integer answers per packed key (``pack``), each worked out once by ``work_out``.

    Args:
        work_out: The answers of keys not met before (distinct, ascending), in their order.
    """

    def __init__(self, work_out: Callable[[Sequence[int]], Sequence[int]]) -> None:
        self._work_out = work_out
        self._keys: IntArray = np.full(1, -1, dtype=np.int64)  # -1: no key (a sentinel every search can land on)
        self._values: IntArray = np.full(1, -1, dtype=np.int64)

    def __call__(self, keys: IntArray) -> IntArray:
        """Per key, its answer."""
        at = self._at(keys)
        new = self._keys[at] != keys
        if new.any():
            fresh = np.unique(keys[new])
            merged = np.concatenate([self._keys, fresh])
            order = np.argsort(merged, kind="stable")
            values = np.asarray(self._work_out(fresh.tolist()), dtype=np.int64)
            self._keys = merged[order]
            self._values = np.concatenate([self._values, values])[order]
            at = self._at(keys)
        found: IntArray = self._values[at]
        return found

    def _at(self, keys: IntArray) -> IntArray:
        """Where each key is (or would go, clipped to the last) among the known keys."""
        at: IntArray = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        return at
