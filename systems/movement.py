"""Movement and turn-costing actions (the MOVE phase): standing up, picking up or drawing a weapon, closing in.

Walking speed falls with the worst impairment of the parts that affect mobility (Vital, Core, Locomotor); with
no usable Locomotor part a creature cannot walk; a stunned creature moves at the stunned factor; prone, down
and dead creatures do not move.
"""

from __future__ import annotations

import math

import esper

from components.events import ItemPickedUp, StoodUp
from components.state import Anatomy, Condition, Equipment
from components.wounds import Wounds
from systems.ai import can_walk, grip_parts_for
from systems.context import TickContext
from systems.creatures import Parts, can_act, query_creatures


def speed(anat: Anatomy, wounds: Wounds, cond: Condition, stunned: bool, ctx: TickContext) -> float:
    """Metres the creature can walk this tick."""
    if cond.prone or not can_walk(anat, wounds, cond):
        return 0.0
    combat = ctx.combat
    factor = 1.0
    for part, imp in zip(anat.body.parts, wounds.impairments, strict=True):
        if part.affects_mobility:
            if imp.unusable:
                factor = min(factor, combat.min_speed_factor)
            elif imp.penalty < 0:
                factor = min(factor, max(combat.min_speed_factor, 1 + imp.penalty * combat.impairment_speed_per_point))
    if stunned:
        factor *= combat.stunned_speed_factor
    return anat.speed * factor


def take_up(entity: int, anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, source: list[str],
            ctx: TickContext) -> bool:
    """Grip the first weapon from ``source`` (dropped or carried) that free, usable hands can hold."""
    for item in list(source):
        parts = grip_parts_for(anat, wounds, cond, equip, item, ctx)
        if parts is None:
            continue
        if source is equip.dropped:
            equip.dropped.remove(item)
        for p in parts:
            equip.holding[p] = item
        ctx.emit(ItemPickedUp(ctx.clock.tick, ctx.clock.time, entity, item, anat.body.parts[parts[0]].name))
        return True
    return False


class MoveProcessor(esper.Processor):
    """MOVE phase: turn-costing actions, then every approaching creature closes in on its target."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Act on this tick's movement intents."""
        ctx = self.ctx
        creatures: dict[int, Parts] = ctx.scratch.get("creatures") or query_creatures()
        clock = ctx.clock
        for entity, (_, anat, wounds, _, shock, cond, comb, pos, equip) in creatures.items():
            action = comb.action
            if action == "attack" or not can_act(cond, shock):
                continue
            if action == "stand up":
                cond.prone = False
                ctx.emit(StoodUp(clock.tick, clock.time, entity))
            elif action == "pick up":
                take_up(entity, anat, wounds, cond, equip, equip.dropped, ctx)
            elif action == "draw":
                carried = [w for w in equip.weapons if w not in equip.dropped and w not in equip.lost
                           and w not in equip.holding.values()]
                take_up(entity, anat, wounds, cond, equip, carried, ctx)
            elif action == "approach":
                foe = creatures.get(comb.target)
                mode = ctx.modes.get(comb.mode)
                if foe is None or mode is None:
                    continue
                fpos = foe[7]
                dx, dy = fpos.x - pos.x, fpos.y - pos.y
                dist = math.hypot(dx, dy)
                stop = mode.reach if mode.kind == "melee" else mode.range
                gap = dist - stop * 0.9  # stop a little inside reach
                step = min(speed(anat, wounds, cond, shock.state == 1, ctx), gap)
                if step > 0 and dist > 0:
                    pos.x += dx / dist * step
                    pos.y += dy / dist * step
                    comb.action = "attack"  # it may strike at the end of its move if the target is now in reach
