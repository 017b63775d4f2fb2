"""The MOVE phase over arrays.

Standing up, picking up or drawing a weapon (each costs the turn), and closing in (``sandbox.systems.movement``'s
rules).

The esper engine moves creatures one at a time in entity order, each toward where its target stands by then. So
does this, in a compiled loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.state import APPROACH, ATTACK, DRAW, PICK_UP, STAND_UP
from sandbox.systems.arrays.tables import MELEE, FloatArray, IntArray

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["move"]


def _mobility_factor(engine: ArrayEngine, idx: IntArray) -> FloatArray:
    """``sandbox.systems.movement.mobility_factor`` per creature.

    The worst mobility part's penalty slows the walk (an unusable one to the floor).
    """
    combat = engine.combat
    penalty, unusable = engine.model.part_penalty()[idx], engine.model.part_unusable()[idx]
    mobile = engine.bodies.part_mobility[engine.creatures.body[idx]]
    factor = np.where(unusable, combat.min_speed_factor,
                      np.where(penalty < 0, np.maximum(combat.min_speed_factor,
                                                       1 + penalty * combat.impairment_speed_per_point), 1.0))
    out: FloatArray = np.where(mobile, factor, 1.0).min(axis=1, initial=1.0)
    return out


def _speeds(engine: ArrayEngine, idx: IntArray) -> FloatArray:
    """Metres each creature can walk this tick (``sandbox.systems.movement.speed``)."""
    cr = engine.creatures
    walking = ~cr.prone[idx] & cr.walks[idx]
    return np.where(walking, cr.speed[idx] * _mobility_factor(engine, idx) * engine.model.speed_factor(idx), 0.0)


def move(engine: ArrayEngine) -> None:
    """Act on this tick's movement intents."""
    cr = engine.creatures
    able = cr.able
    standing = np.flatnonzero(able & (cr.action == STAND_UP))
    cr.prone[standing] = False
    engine.tracer.stood_up(standing)
    taking = np.flatnonzero(able & ((cr.action == PICK_UP) | (cr.action == DRAW)))
    if taking.size:
        _take_up(engine, taking)
    movers = np.flatnonzero(able & (cr.action == APPROACH) & (cr.target >= 0) & (cr.mode >= 0))
    if not movers.size:
        return
    step_of = _speeds(engine, movers)
    modes = engine.modes
    mode = cr.mode[movers]
    stop = np.where(modes.kind[mode] == MELEE, modes.reach[mode], modes.range[mode])
    _close_in(movers, cr.target[movers], step_of, stop, cr.x, cr.y, cr.action)


@compiled
def _close_in(movers: IntArray, target: IntArray, step_of: FloatArray, stop: FloatArray, x: FloatArray,
              y: FloatArray, action: IntArray) -> None:
    """Each mover in entity order a step toward where its target stands by then.

    ``movers`` is ascending; each stops a little inside its reach. One that moved strikes if the target is in reach by
    then (the attack phase checks).
    """
    for k in range(movers.shape[0]):
        who, foe = movers[k], target[k]
        dx, dy = x[foe] - x[who], y[foe] - y[who]
        dist = np.hypot(dx, dy)
        step = min(step_of[k], dist - stop[k] * 0.9)
        go = step > 0 and dist > 0
        scale = step / dist if go else 0.0
        x[who] += dx * scale
        y[who] += dy * scale
        if go:
            action[who] = ATTACK


def _take_up(engine: ArrayEngine, idx: IntArray) -> None:
    """Each of ``idx`` grips the first dropped or carried weapon that free, usable hands can hold.

    A dropped one for ``PICK_UP``, a carried one for ``DRAW``, if there is one (``Rearming.grips``): its gear state
    moves on, and the arrays mirror it.
    """
    cr, tracer = engine.creatures, engine.tracer
    pick_up = cr.action[idx] == PICK_UP
    unusable = engine.model.unusable_mask()[idx]
    moved = engine.rearming.taken_up(idx, unusable, pick_up)
    took = moved >= 0
    told = np.flatnonzero(took & tracer.traced[idx])  # the part's name only for a traced creature's event
    for i, grip in zip(idx[told].tolist(), engine.rearming.grips(idx[told], unusable[told], pick_up[told]),
                       strict=True):
        assert grip is not None
        item, parts = grip
        tracer.picked_up(i, item, cr.anatomy[i].body.parts[parts[0]].name)
    takers = idx[took]
    cr.gear[takers] = moved[took]
    engine.sync_hands(takers)
