"""Rule files of content trees laid over the shipped ones, key by key, remembering which file gave which key.

A content tree's ``skills.toml``, ``sandbox.toml``, ``models/anatomy.toml`` and ``models/<model>.toml`` override
individual keys: tables merge recursively, any other value (a number, a string, an array, an array of tables)
replaces the one below it whole. The merged tables are then validated as one file; each problem names the file that
gave the offending key (``Origin``), so an override of a key that does not exist is reported against the tree's file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Origin", "merge_tables"]


class Origin:
    """Which file gave each key of merged tables.

    Args:
        base: The label of the file everything comes from unless an override set it.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self._set: dict[tuple[str | int, ...], tuple[str, int]] = {}

    def note(self, path: Sequence[str | int], label: str, layer: int) -> str | None:
        """Record that ``label``'s file set the key at ``path`` and everything under it.

        The file is of content tree number ``layer``.

        Returns:
            The file of another tree that already set that key (or a table holding it), if any: two trees
            overriding one key is a conflict, since neither is meant to win.
        """
        key = tuple(path)
        clash = None
        for end in range(len(key), 0, -1):
            found = self._set.get(key[:end])
            if found is not None and found[1] != layer:
                clash = found[0]
                break
        self._set[key] = (label, layer)
        return clash

    def label(self, path: Sequence[str | int]) -> str:
        """The file that gave the key at ``path``.

        The override of its longest prefix; else, for a table some override changed a key of, that override (what made
        the table what it is); else the base file.
        """
        key = tuple(path)
        for end in range(len(key), 0, -1):
            found = self._set.get(key[:end])
            if found is not None:
                return found[0]
        for other, (label, _) in self._set.items():
            if other[:len(key)] == key:
                return label
        return self.base


def merge_tables(base: dict[str, Any], override: Mapping[str, Any], label: str, layer: int, origin: Origin,
                 prefix: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """Lay ``override`` over ``base`` in place: tables merge key by key, anything else replaces whole.

    Args:
        base: The tables merged so far (changed in place).
        override: A content tree's tables.
        label: The override's file, for ``origin``.
        layer: The number of the content tree it belongs to (1 for the first).
        origin: Where every key came from (updated).
        prefix: The key path of ``base`` within the whole file.

    Returns:
        ``(key path, other file)`` of each key another content tree had already set (a conflict).
    """
    clashes: list[tuple[tuple[str | int, ...], str]] = []
    for key, value in override.items():
        below = base.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            clashes += merge_tables(below, value, label, layer, origin, (*prefix, key))
        else:
            base[key] = copy.deepcopy(value)
            other = origin.note((*prefix, key), label, layer)
            if other is not None:
                clashes.append(((*prefix, key), other))
    return clashes
