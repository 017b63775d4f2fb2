"""Taking up a weapon with empty hands.

Whether a creature picks one up or draws one (``sandbox.systems.ai.rearm_action``) and which it grips, with which hands
(``sandbox.systems.ai.grip_parts_for``), by the esper engine's own rules.

Both answers depend only on the creature's anatomy (its body and favoured side), which parts are usable and its gear
state (``sandbox.systems.arrays.gear``: what the hands hold, what lies dropped, is carried and is lost). The thousands
of disarmed creatures of a battle share a handful of such situations, so each is worked out once and remembered, and the
creatures asking are answered a column at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.state import Anatomy, Condition
from sandbox.systems.ai import grip_parts_for, rearm_action
from sandbox.systems.arrays.loadout import part_states
from sandbox.systems.arrays.memo import FIELD_BITS, PackedMemo, pack, unpack
from sandbox.systems.arrays.state import DRAW, PICK_UP
from sandbox.systems.arrays.tables import BoolArray, IntArray

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["NOTHING", "Grip", "Rearming"]

_Situation = tuple[int, int, int]
"""(anatomy code, gear state, unusable-part mask)."""

Grip = tuple[str, tuple[int, ...]]
"""A weapon taken up, and the parts that grip it."""

NOTHING = -1
"""The action code of a creature with nothing it can take up."""


class Rearming:
    """What creatures with empty hands do about it, remembered per situation.

    Args:
        engine: The engine whose creatures these are.
    """

    def __init__(self, engine: ArrayEngine) -> None:
        self.engine = engine
        self._actions: dict[_Situation, int] = {}
        self._grips: dict[tuple[_Situation, bool], Grip | None] = {}
        self._no_condition = Condition()  # nothing held fast: the array engine runs no such scenario
        cr = engine.creatures
        codes, first = np.unique(cr.anatomy_code, return_index=True)
        self._anatomies: dict[int, Anatomy] = {  # by code (a packed situation names the code)
            code: cr.anatomy[i] for code, i in zip(codes.tolist(), first.tolist(), strict=True)}
        # A situation packs into one integer when its part mask fits a field (every shipped body's does): then a
        # column of creatures is answered by one search among the known situations, not a lookup each.
        packable = engine.bodies.parts <= FIELD_BITS
        self._packed = PackedMemo(self._packed_actions) if packable else None
        self._packed_take_up = PackedMemo(self._taken_up_of) if packable else None

    def _situations(self, idx: IntArray, unusable: IntArray) -> list[_Situation]:
        cr = self.engine.creatures
        return list(zip(cr.anatomy_code[idx].tolist(), cr.gear[idx].tolist(), unusable.tolist(), strict=True))

    def actions(self, idx: IntArray, unusable: IntArray) -> IntArray:
        """Per creature of ``idx``, ``PICK_UP``, ``DRAW`` or ``NOTHING`` (``sandbox.systems.ai.rearm_action``).

        ``unusable`` holds each one's unusable parts as a mask.
        """
        cr = self.engine.creatures
        if self._packed is not None:
            return self._packed(pack(cr.anatomy_code[idx], cr.gear[idx], unusable))
        memo = self._actions
        out = [memo.get(key) for key in self._situations(idx, unusable)]
        for k, found in enumerate(out):
            if found is None:
                out[k] = self._action(int(idx[k]), int(unusable[k]))
        return np.asarray(out, dtype=np.int64)

    def _packed_actions(self, keys: Sequence[int]) -> list[int]:
        """The actions of packed situations not met before."""
        out = []
        for key in keys:
            code, gear, unusable = unpack(key)
            out.append(self._situation_action(self._anatomies[code], code, gear, unusable))
        return out

    def _action(self, i: int, unusable: int) -> int:
        cr = self.engine.creatures
        return self._situation_action(cr.anatomy[i], int(cr.anatomy_code[i]), int(cr.gear[i]), unusable)

    def _situation_action(self, anatomy: Anatomy, code: int, gear: int, unusable: int) -> int:
        """The action of situation (``code``, ``gear``, ``unusable``), ``anatomy`` being that of ``code``."""
        engine = self.engine
        found = rearm_action(anatomy, self._states(anatomy, unusable), self._no_condition,
                             engine.gear.reading(gear), engine.reading)
        action = self._actions[code, gear, unusable] = (
            PICK_UP if found == "pick up" else DRAW if found == "draw" else NOTHING)
        return action

    def grips(self, idx: IntArray, unusable: IntArray, pick_up: BoolArray) -> list[Grip | None]:
        """Per creature of ``idx``, the first dropped or carried weapon that free, usable hands can hold.

        A dropped one where ``pick_up`` is set, else a carried one; with those hands (``None``: none).
        """
        out: list[Grip | None] = []
        anatomy = self.engine.creatures.anatomy
        for k, (key, up) in enumerate(zip(self._situations(idx, unusable), pick_up.tolist(), strict=True)):
            out.append(self._grip(anatomy[int(idx[k])], key, up))
        return out

    def taken_up(self, idx: IntArray, unusable: IntArray, pick_up: BoolArray) -> IntArray:
        """Per creature of ``idx``, the gear state it moves to by taking up its grip (``grips``; -1: it has none)."""
        cr, gear = self.engine.creatures, self.engine.gear
        if self._packed_take_up is not None:
            return self._packed_take_up(pack(cr.anatomy_code[idx], 2 * cr.gear[idx] + pick_up, unusable))
        states = cr.gear[idx].tolist()
        return np.asarray([-1 if grip is None else gear.take_up(s, *grip, up) for s, up, grip in
                           zip(states, pick_up.tolist(), self.grips(idx, unusable, pick_up), strict=True)],
                          dtype=np.int64)

    def _taken_up_of(self, keys: Sequence[int]) -> list[int]:
        """The gear states reached from packed (anatomy, 2 gear + picking up, unusable) keys not met before."""
        out = []
        for key in keys:
            code, state_up, unusable = unpack(key)
            state, up = state_up >> 1, bool(state_up & 1)
            grip = self._grip(self._anatomies[code], (code, state, unusable), up)
            out.append(-1 if grip is None else self.engine.gear.take_up(state, *grip, up))
        return out

    def _grip(self, anat: Anatomy, key: _Situation, pick_up: bool) -> Grip | None:
        if (key, pick_up) in self._grips:
            return self._grips[key, pick_up]
        weapons, equip = self.engine.weapons, self.engine.gear.reading(key[1])
        if pick_up:
            source = list(equip.dropped)
        else:
            source = [w for w in equip.weapons if w not in equip.dropped and w not in equip.lost
                      and w not in equip.holding.values()]
        states = self._states(anat, key[2])
        found: Grip | None = None
        for item in source:
            parts = grip_parts_for(anat, states, self._no_condition, equip, item, weapons)
            if parts is not None:
                found = (item, parts)
                break
        self._grips[key, pick_up] = found
        return found

    @staticmethod
    def _states(anatomy: Anatomy, unusable: int) -> tuple:  # type: ignore[type-arg]
        return part_states(len(anatomy.body.parts), unusable)
