"""The ATTACK phase's attacks, gathered for the damage model.

Every creature that means to attack, can still reach its target and is not already felled, in initiative order.

The model resolves them (``ArrayModel.attack``) so that the result is the esper engine's turn order: a creature
felled, shocked or disarmed earlier in the tick does not act later in it
(``sandbox.systems.models.anatomy.arrays.attack_phase``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.state import ATTACK
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray
from sandbox.systems.combat import REACH_SLACK

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["Attacks", "gather"]


@dataclass(frozen=True, slots=True)
class Attacks:
    """This tick's attacks, one entry each, in initiative order.

    Attributes:
        attacker: Attacking creature.
        target: Its target.
        mode: Strike mode index.
        parts: Mask of the parts wielding it.
        off_hand: Only off-side limbs grip it.
        natural: The mode is a natural weapon's (no hand can drop it).
        aim_zone: Target zone number (0: unaimed).
        rank: The attacker's place in initiative order.
    """

    attacker: IntArray
    target: IntArray
    mode: IntArray
    parts: IntArray
    off_hand: BoolArray
    natural: BoolArray
    aim_zone: IntArray
    rank: IntArray

    def __len__(self) -> int:
        return int(self.attacker.shape[0])

    def take(self, sel: IntArray | BoolArray) -> Attacks:
        """The attacks at ``sel``."""
        return Attacks(self.attacker[sel], self.target[sel], self.mode[sel], self.parts[sel], self.off_hand[sel],
                       self.natural[sel], self.aim_zone[sel], self.rank[sel])


def gather(engine: ArrayEngine) -> Attacks:
    """Every attack this tick.

    An attack passes ``sandbox.systems.combat.AttackProcessor``'s checks as the phase begins: able, a target that is not
    dead and within reach or range.
    """
    cr, modes, loadout = engine.creatures, engine.modes, engine.loadout
    att = np.zeros(len(cr), dtype=np.int64)
    att = att[:_attackers(cr.order, cr.action, cr.dead, cr.out, cr.target, cr.mode, cr.x, cr.y, modes.limit, att)]
    tgt = cr.target[att]
    column = engine.option[att]
    mode = cr.mode[att]
    natural = engine.natural_mode[mode]
    return Attacks(att, tgt, mode, loadout.parts[att, column], loadout.off_hand[att, column], natural,
                   cr.aim_zone[att], cr.rank[att])


@compiled
def _attackers(order: IntArray, action: IntArray, dead: BoolArray, out: BoolArray, target: IntArray, mode: IntArray,
               x: FloatArray, y: FloatArray, limit: FloatArray, found: IntArray) -> int:
    """The creatures, in initiative order, that mean to attack and still can.

    Able, with a target that is not dead and within its mode's reach or range (``ModeTables.in_range``); written to
    ``found``, returns how many.
    """
    count = 0
    for i in order:
        t = target[i]
        if action[i] != ATTACK or dead[i] or out[i] or t < 0 or dead[t]:
            continue
        if np.hypot(x[t] - x[i], y[t] - y[i]) <= limit[mode[i]] + REACH_SLACK:
            found[count] = i
            count += 1
    return count
