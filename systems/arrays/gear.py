"""What each creature carries, holds, dropped and lost, as one of a few gear states.

A creature's ``Equipment`` changes only when a hand lets go or takes up a weapon, and the creatures spawned from one
recruit pass through the same handful of states (sword in hand; sword at its feet; sword flung; the dagger drawn
instead). So the world keeps each distinct state once, numbered, and a creature's gear is that number
(``Creatures.gear``): letting go and taking up are moves from state to state, each worked out once; the rules that
read an ``Equipment`` (rearming, strike options) read the state's own copy; and what the vector phases read (what
each part holds, whether the creature can still strike) are rows of per-state tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sandbox.components.state import Equipment
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, IntArray

__all__ = ["Gear", "GearState"]


@dataclass(frozen=True, slots=True)
class GearState:
    """One distinct ``Equipment``, frozen.

    Its lists keep their order; what each part holds is in the order the parts took hold, as the ``holding`` dict keeps
    it.

    Attributes:
        weapons: The weapons it owns.
        natural: Its natural weapons.
        holding: ``(part, weapon)`` pairs.
        dropped: Weapons at its feet.
        lost: Weapons flung out of reach.
    """

    weapons: tuple[str, ...]
    natural: tuple[str, ...]
    holding: tuple[tuple[int, str], ...]
    dropped: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()

    @classmethod
    def of(cls, equipment: Equipment) -> GearState:
        """The state of an ``Equipment``."""
        return cls(tuple(equipment.weapons), tuple(equipment.natural), tuple(equipment.holding.items()),
                   tuple(equipment.dropped), tuple(equipment.lost))

    def equipment(self) -> Equipment:
        """A fresh ``Equipment`` of this state."""
        return Equipment(list(self.weapons), list(self.natural), dict(self.holding), list(self.dropped),
                         list(self.lost))

    def let_go(self, part: int, flung: bool) -> tuple[GearState, str | None]:
        """``sandbox.systems.conditions.drop_held``.

        Part ``part`` lets go of what it holds (every hand holding it), to the ground or (``flung``) out of reach.
        Returns the new state and the weapon let go (``None``: the part held nothing, and the state is this one).
        """
        item = dict(self.holding).get(part)
        if item is None:
            return self, None
        holding = tuple((p, held) for p, held in self.holding if held != item)
        if flung:
            return GearState(self.weapons, self.natural, holding, self.dropped, (*self.lost, item)), item
        return GearState(self.weapons, self.natural, holding, (*self.dropped, item), self.lost), item

    def take_up(self, item: str, parts: tuple[int, ...], pick_up: bool) -> GearState:
        """Grip ``item`` with ``parts``: picked up from the ground (``pick_up``) or drawn."""
        dropped = list(self.dropped)
        if pick_up:
            dropped.remove(item)
        holding = dict(self.holding)
        for p in parts:
            holding[p] = item
        return GearState(self.weapons, self.natural, tuple(holding.items()), tuple(dropped), self.lost)


_UNKNOWN = -2
"""A move of the dense let-go tables not worked out yet."""


class Gear:
    """Every gear state met so far, numbered, with the tables the vector phases read per state.

    Args:
        weapon_index: Weapon id -> index.
        parts: ``P``: the most parts of any body.

    Attributes:
        held: ``[s]`` weapon index of what the state holds: the first hand's (-1: nothing).
        hold_mask: ``[s]`` mask of the parts holding something.
        holding: ``[s, p]`` weapon index of what part ``p`` holds (-1: nothing).
        armed: ``[s]`` some way to strike: a natural weapon, or a weapon not lost (``status.can_fight``).
        has_gear: ``[s]`` a weapon it carries or dropped, that it might take up.
    """

    def __init__(self, weapon_index: dict[str, int], parts: int) -> None:
        self._weapon_index = weapon_index
        self.weapon_names = sorted(weapon_index, key=weapon_index.__getitem__)
        """Weapon ids by index."""
        self._parts = parts
        self.states: list[GearState] = []
        self._number: dict[GearState, int] = {}
        self._readable: list[Equipment] = []
        self._taken_up: dict[tuple[int, str, tuple[int, ...], bool], int] = {}
        self.held: IntArray = np.zeros(0, dtype=np.int64)
        self.hold_mask: IntArray = np.zeros(0, dtype=np.int64)
        self.holding: IntArray = np.zeros((0, parts), dtype=np.int64)
        self.armed: BoolArray = np.zeros(0, dtype=np.bool_)
        self.has_gear: BoolArray = np.zeros(0, dtype=np.bool_)
        self._let_go_to: IntArray = np.zeros((0, parts, 2), dtype=np.int64)
        """``[s, part, flung]``: the state letting go leads to (``_UNKNOWN``: not worked out yet)."""
        self._let_go_item: IntArray = np.zeros((0, parts, 2), dtype=np.int64)
        """``[s, part, flung]``: the weapon index let go (-1: the part held nothing)."""

    def number(self, state: GearState) -> int:
        """The number of a state (a new one is numbered and its table rows added)."""
        found = self._number.get(state)
        if found is not None:
            return found
        s = self._number[state] = len(self.states)
        self.states.append(state)
        self._readable.append(state.equipment())
        index = self._weapon_index
        holding = np.full((1, self._parts), -1, dtype=np.int64)
        for p, item in state.holding:
            holding[0, p] = index[item]
        self.held = np.append(self.held, index[state.holding[0][1]] if state.holding else -1)
        self.hold_mask = np.append(self.hold_mask, sum(1 << p for p, _ in state.holding))
        self.holding = np.concatenate([self.holding, holding])
        self.armed = np.append(self.armed, bool(state.natural or any(w not in state.lost for w in state.weapons)))
        self.has_gear = np.append(self.has_gear, bool(state.dropped or state.weapons))
        unknown = np.full((1, self._parts, 2), _UNKNOWN, dtype=np.int64)
        self._let_go_to = np.concatenate([self._let_go_to, unknown])
        self._let_go_item = np.concatenate([self._let_go_item, unknown])
        return s

    def reading(self, s: int) -> Equipment:
        """State ``s`` as an ``Equipment`` for the rules to read (shared: never change it)."""
        return self._readable[s]

    def equipment(self, s: int) -> Equipment:
        """State ``s`` as a fresh ``Equipment`` (a creature's record)."""
        return self.states[s].equipment()

    def let_go(self, s: int, part: int, flung: bool) -> tuple[int, str | None]:
        """``GearState.let_go`` of state ``s``, by number.

        Worked out once per state, part and way, into the tables ``let_go_in_order`` walks.
        """
        way = int(flung)
        if self._let_go_to[s, part, way] == _UNKNOWN:
            state, item = self.states[s].let_go(part, flung)
            moved = self.number(state)  # before writing: a new state's rows grow the tables
            self._let_go_to[s, part, way] = moved
            self._let_go_item[s, part, way] = -1 if item is None else self._weapon_index[item]
        item_index = int(self._let_go_item[s, part, way])
        return int(self._let_go_to[s, part, way]), None if item_index < 0 else self.weapon_names[item_index]

    def let_go_in_order(self, gear: IntArray, who: IntArray, part: IntArray, flung: IntArray) -> IntArray:
        """``let_go`` for a column of hands in order (creature ``who[k]``'s part ``part[k]``, ``flung[k]``).

        Each creature's entry of ``gear`` moves on, a creature letting go twice the second time from where the first
        left it. Returns per hand the weapon index let go (-1: it held nothing). A move not met before is worked out
        here (``let_go``) and the walk goes on from it.
        """
        items = np.empty(who.shape[0], dtype=np.int64)
        start = 0
        while (start := _let_go_walk(gear, who, part, flung, self._let_go_to, self._let_go_item, items, start)
               ) < who.shape[0]:
            self.let_go(int(gear[who[start]]), int(part[start]), bool(flung[start]))
        return items

    def take_up(self, s: int, item: str, parts: tuple[int, ...], pick_up: bool) -> int:
        """``GearState.take_up`` of state ``s``, by number (worked out once per state and grip)."""
        key = (s, item, parts, pick_up)
        found = self._taken_up.get(key)
        if found is None:
            found = self._taken_up[key] = self.number(self.states[s].take_up(item, parts, pick_up))
        return found


@compiled
def _let_go_walk(gear: IntArray, who: IntArray, part: IntArray, flung: IntArray, to: IntArray, item: IntArray,
                 items: IntArray, start: int) -> int:
    """``Gear.let_go_in_order`` from hand ``start`` on, by the tables.

    Returns where it stopped: the first hand whose move is not worked out yet (``who.shape[0]``: none).
    """
    for k in range(start, who.shape[0]):
        i = who[k]
        moved = to[gear[i], part[k], flung[k]]
        if moved == _UNKNOWN:
            return int(k)
        items[k] = item[gear[i], part[k], flung[k]]
        gear[i] = moved
    n: int = who.shape[0]
    return n
