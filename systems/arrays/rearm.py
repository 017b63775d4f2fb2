"""Taking up a weapon with empty hands: whether a creature picks one up or draws one (``systems.ai.rearm_action``)
and which it grips, with which hands (``systems.ai.grip_parts_for``), by the esper engine's own rules.

Both answers depend only on the body and its favoured side, which parts are usable, what the hands hold, and
what lies dropped, is carried and is lost. The thousands of disarmed creatures of a battle share a handful of
such situations, so each is worked out once and remembered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.state import Condition, Equipment
from systems.ai import grip_parts_for, rearm_action
from systems.arrays.loadout import part_states

if TYPE_CHECKING:
    from systems.arrays.engine import ArrayEngine

Situation = tuple[int, str, int, tuple[tuple[int, str], ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""(body, favoured side, unusable-part mask, what each hand holds, dropped, carried, lost)."""

Gear = tuple[tuple[tuple[int, str], ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""What a creature holds, dropped, carries and lost (a situation's last four)."""

Grip = tuple[str, tuple[int, ...]]
"""A weapon taken up, and the parts that grip it."""


class Rearming:
    """What creatures with empty hands do about it, remembered per situation.

    Args:
        engine: The engine whose creatures these are.
    """

    def __init__(self, engine: ArrayEngine) -> None:
        self.engine = engine
        self._actions: dict[Situation, str] = {}
        self._grips: dict[tuple[Situation, bool], Grip | None] = {}
        self._no_condition = Condition()  # nothing held fast: the array engine runs no such scenario
        self._gear: dict[int, tuple[Equipment, int, Gear]] = {}

    def situation(self, i: int, unusable: int) -> Situation:
        """Creature ``i``'s situation, with ``unusable`` its unusable parts as a mask."""
        engine = self.engine
        cr = engine.creatures
        anat, equip = cr.anatomy[i], cr.equipment[i]
        # What it holds, dropped, carries and lost changes only with its hands (``hands_version``): read once per
        # change, though intent and movement both ask.
        version = int(engine.hands_version[i])
        seen = self._gear.get(id(equip))
        if seen is None or seen[0] is not equip or seen[1] != version:
            seen = self._gear[id(equip)] = (equip, version, (tuple(equip.holding.items()), tuple(equip.dropped),
                                                             tuple(equip.weapons), tuple(equip.lost)))
        holding, dropped, weapons, lost = seen[2]
        return id(anat.body), anat.kind.dominance, unusable, holding, dropped, weapons, lost

    def action(self, i: int, unusable: int) -> str:
        """``pick up``, ``draw`` or ``""`` (``systems.ai.rearm_action``)."""
        key = self.situation(i, unusable)
        found = self._actions.get(key)
        if found is None:
            cr = self.engine.creatures
            found = self._actions[key] = rearm_action(cr.anatomy[i], self._states(i, unusable), self._no_condition,
                                                      cr.equipment[i], self.engine.reading)
        return found

    def grip(self, i: int, unusable: int, pick_up: bool) -> Grip | None:
        """The first dropped (``pick_up``) or carried weapon that free, usable hands can hold, and those hands."""
        key = (self.situation(i, unusable), pick_up)
        if key in self._grips:
            return self._grips[key]
        cr, weapons = self.engine.creatures, self.engine.weapons
        anat, equip = cr.anatomy[i], cr.equipment[i]
        if pick_up:
            source = list(equip.dropped)
        else:
            source = [w for w in equip.weapons if w not in equip.dropped and w not in equip.lost
                      and w not in equip.holding.values()]
        states = self._states(i, unusable)
        found: Grip | None = None
        for item in source:
            parts = grip_parts_for(anat, states, self._no_condition, equip, item, weapons)
            if parts is not None:
                found = (item, parts)
                break
        self._grips[key] = found
        return found

    def _states(self, i: int, unusable: int) -> tuple:  # type: ignore[type-arg]
        return part_states(len(self.engine.creatures.anatomy[i].body.parts), unusable)
