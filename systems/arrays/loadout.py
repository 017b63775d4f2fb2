"""What each creature can strike with.

Its strike modes, hardest-hitting first, with the parts that wield each (``sandbox.systems.ai.mode_options`` and
``sandbox.systems.combat.ready_parts``, the esper engine's own rules).

The options change only when what a creature holds or which of its parts are usable changes, which is rare, so
they are recomputed per creature, in Python, for those creatures alone, and kept as arrays: ``mode[i, k]`` the
``k``-th option's mode index (-1: none), ``parts[i, k]`` its wielding parts as a mask, ``off_hand[i, k]`` whether
only off-side limbs grip it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from sandbox.components.impairment import SOUND, UNUSABLE, Impairment
from sandbox.components.state import Condition
from sandbox.systems.ai import mode_options
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.gear import Gear
from sandbox.systems.arrays.state import Creatures
from sandbox.systems.arrays.tables import MELEE, BoolArray, FloatArray, IntArray, ModeTables
from sandbox.systems.combat import REACH_SLACK, ready_parts
from sandbox.systems.context import TickContext
from sandbox.systems.strike import is_off_hand

__all__ = ["Loadout", "part_states"]

_Options = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]


@dataclass(slots=True)
class Loadout:
    """Every creature's strike options (see the module docstring), recomputed where their key changed.

    Attributes:
        mode: ``[i, k]`` mode index of option ``k`` (-1: none).
        parts: ``[i, k]`` mask of the parts wielding it.
        off_hand: ``[i, k]`` only off-side limbs grip it.
        key: ``[i]`` (held weapon, holding mask, unusable-part mask) the options were computed from.
    """

    mode: IntArray
    parts: IntArray
    off_hand: BoolArray
    key: IntArray
    _cache: dict[tuple[int, ...], int] = field(default_factory=dict)
    _set_mode: IntArray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.int64))
    _set_parts: IntArray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.int64))
    _set_off: BoolArray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.bool_))
    _set_count: int = 0

    @classmethod
    def empty(cls, n: int) -> Loadout:
        """No options yet (every key stale)."""
        return cls(np.full((n, 1), -1, dtype=np.int64), np.zeros((n, 1), dtype=np.int64),
                   np.zeros((n, 1), dtype=np.bool_), np.full((n, 3), -2, dtype=np.int64))

    def refresh(self, cr: Creatures, gear: Gear, unusable: IntArray, modes: ModeTables, ctx: TickContext) -> None:
        """Recompute the options of every creature whose held weapon, grip or usable parts changed.

        Args:
            cr: The creatures.
            gear: The world's gear states.
            unusable: Per creature, the mask of its unusable parts.
            modes: The compiled modes.
            ctx: A context carrying the weapons (``mode_options`` reads them).
        """
        stale = np.zeros(len(cr), dtype=np.int64)
        stale = stale[:_stale(cr.held, cr.hold_mask, unusable, cr.dead, self.key, stale)]
        if not stale.size:
            return
        key = np.column_stack([cr.held[stale], cr.hold_mask[stale], unusable[stale]])
        # The options of each distinct (anatomy, key) among the stale, computed once ever; then written in bulk,
        # as rows of a table of every option set met so far.
        keys = np.column_stack([cr.anatomy_code[stale], key])
        # The distinct keys in row order, the first of each and which each is (np.unique over rows, by a sort).
        order = np.lexsort(keys.T[::-1])
        ordered = keys[order]
        starts = np.concatenate(([True], (ordered[1:] != ordered[:-1]).any(axis=1)))
        distinct, first = ordered[starts], order[starts]
        inverse = np.empty(len(keys), dtype=np.int64)
        inverse[order] = np.cumsum(starts) - 1
        rows = np.empty(len(distinct), dtype=np.int64)
        for u, (ck, i) in enumerate(zip(distinct.tolist(), stale[first].tolist(), strict=True)):
            found = self._cache.get(tuple(ck))
            if found is None:
                found = self._cache[tuple(ck)] = self._add_set(_options(cr, gear, i, ck[3], modes, ctx))
            rows[u] = found
        sets = rows[inverse]
        if self._set_mode.shape[1] > self.mode.shape[1]:
            self._widen(self._set_mode.shape[1])
        width = self._set_mode.shape[1]
        self.mode[stale] = -1
        self.parts[stale] = 0
        self.off_hand[stale] = False
        self.mode[stale, :width] = self._set_mode[sets]
        self.parts[stale, :width] = self._set_parts[sets]
        self.off_hand[stale, :width] = self._set_off[sets]
        self.key[stale] = key

    def keep(self, rows: IntArray) -> None:
        """Keep creatures ``rows`` only (see ``Creatures.keep``)."""
        self.mode, self.parts, self.off_hand, self.key = (self.mode[rows], self.parts[rows], self.off_hand[rows],
                                                          self.key[rows])

    def _add_set(self, options: _Options) -> int:
        """Append an option set to the table of sets.

        Returns its row (the table's rows and width double as needed: sets are added a few a tick for a while, as new
        situations arise).
        """
        ids, masks, off = options
        row = self._set_count
        rows, width = self._set_mode.shape
        if row == rows or len(ids) > width:
            rows, width = max(2 * rows, 16) if row == rows else rows, max(width, len(ids))
            grown = (np.full((rows, width), -1, dtype=np.int64), np.zeros((rows, width), dtype=np.int64),
                     np.zeros((rows, width), dtype=np.bool_))
            for new, old in zip(grown, (self._set_mode, self._set_parts, self._set_off), strict=True):
                new[:old.shape[0], :old.shape[1]] = old
            self._set_mode, self._set_parts, self._set_off = grown
        self._set_mode[row, :len(ids)], self._set_parts[row, :len(ids)], self._set_off[row, :len(ids)] = ids, masks, off
        self._set_count += 1
        return row

    def _widen(self, k: int) -> None:
        n, old = self.mode.shape
        self.mode = np.concatenate([self.mode, np.full((n, k - old), -1, dtype=np.int64)], axis=1)
        self.parts = np.concatenate([self.parts, np.zeros((n, k - old), dtype=np.int64)], axis=1)
        self.off_hand = np.concatenate([self.off_hand, np.zeros((n, k - old), dtype=np.bool_)], axis=1)

    def choose(self, idx: IntArray, distance: np.ndarray, modes: ModeTables) -> tuple[IntArray, IntArray]:
        """``sandbox.systems.ai.choose_mode`` per creature.

        The first option that reaches ``distance``; else the first melee option, to close in with; else the
        longest-ranged. Returns ``(option column, mode index)`` (-1: none).
        """
        column = np.zeros(len(idx), dtype=np.int64)
        chosen = np.full(len(idx), -1, dtype=np.int64)
        _choose(self.mode, idx, distance, modes.kind, modes.limit, modes.range, column, chosen)
        return column, chosen


@compiled
def _stale(held: IntArray, hold_mask: IntArray, unusable: IntArray, dead: BoolArray, key: IntArray,
           out: IntArray) -> int:
    """The living creatures whose (held, holding mask, unusable mask) is not their options' ``key``, into ``out``.

    Returns how many.
    """
    count = 0
    for i in range(held.shape[0]):
        if not dead[i] and (held[i] != key[i, 0] or hold_mask[i] != key[i, 1] or unusable[i] != key[i, 2]):
            out[count] = i
            count += 1
    return count


@compiled
def _choose(options: IntArray, idx: IntArray, distance: FloatArray, kind: IntArray, limit: FloatArray,
            reach_of: FloatArray, column: IntArray, chosen: IntArray) -> None:
    """``Loadout.choose`` per creature ``idx[r]`` over its option row.

    It chooses the first reaching option, else the first melee one, else the first of the longest range; column 0 and no
    mode when it has none.
    """
    for r in range(idx.shape[0]):
        row = idx[r]
        reaches = melee = longest = -1
        best_range = -np.inf
        has = False
        for k in range(options.shape[1]):
            m = options[row, k]
            if m < 0:
                continue
            has = True
            if reaches < 0 and distance[r] <= limit[m] + REACH_SLACK:  # ModeTables.in_range
                reaches = k
            if melee < 0 and kind[m] == MELEE:
                melee = k
            if reach_of[m] > best_range:
                best_range = reach_of[m]
                longest = k
        if not has:
            continue
        c = reaches if reaches >= 0 else melee if melee >= 0 else max(longest, 0)
        column[r] = c
        chosen[r] = options[row, c]


def _options(cr: Creatures, gear: Gear, i: int, unusable: int, modes: ModeTables, ctx: TickContext) -> _Options:
    anat = cr.anatomy[i]
    equip = gear.reading(int(cr.gear[i]))
    states = part_states(len(anat.body.parts), unusable)
    cond = Condition()
    ids: list[int] = []
    masks: list[int] = []
    off: list[bool] = []
    for mode in mode_options(anat, states, cond, equip, ctx):
        parts = ready_parts(anat, states, cond, equip, mode) or ()
        ids.append(modes.index[mode.id])
        masks.append(sum(1 << p for p in parts))
        gripping = [p for p, item in equip.holding.items() if item == mode.weapon]
        off.append(is_off_hand(anat.body, gripping, anat.kind.dominance))
    return tuple(ids), tuple(masks), tuple(off)


@lru_cache(maxsize=4096)
def part_states(parts: int, unusable: int) -> tuple[Impairment, ...]:
    """Part states as wielding reads them (only whether each part is usable matters there)."""
    return tuple(UNUSABLE if unusable >> p & 1 else SOUND for p in range(parts))
