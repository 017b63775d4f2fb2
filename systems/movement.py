"""Movement and turn-costing actions (the MOVE phase): standing up, taking up a weapon, closing in, walking.

Walking to a point is a creature the game drives (``Move``); the AI walks only to close in.

Walking speed falls with the worst impairment of the parts that affect mobility (Vital, Core, Locomotor), as the
damage model reports them (``part_states``); with no usable Locomotor part a creature cannot walk; the model may
slow it further by its own state (``speed_factor``: a stunned creature, a Slow effect); prone, down and dead
creatures do not move.
"""

from __future__ import annotations

import math

import esper

from sandbox.components.events import ItemPickedUp, StoodUp
from sandbox.components.impairment import Impairment
from sandbox.components.rules import CombatRules
from sandbox.components.state import Anatomy, Condition, Equipment
from sandbox.systems.actions import Draw, Move, PickUp
from sandbox.systems.ai import can_walk, grip_parts_for
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature

__all__ = ["MoveProcessor", "mobility_factor", "speed", "take_up", "walk"]


def mobility_factor(anat: Anatomy, states: tuple[Impairment, ...], combat: CombatRules) -> float:
    """The share of its walking speed the creature keeps with its mobility parts as they are (1.0: all)."""
    factor = 1.0
    for part, imp in zip(anat.body.parts, states, strict=True):
        if part.affects_mobility:
            if imp.unusable:
                factor = min(factor, combat.min_speed_factor)
            elif imp.penalty < 0:
                factor = min(factor, max(combat.min_speed_factor, 1 + imp.penalty * combat.impairment_speed_per_point))
    return factor


def walk(creature: Creature, x: float, y: float, within: float, ctx: TickContext) -> None:
    """Walk toward (x, y) as far as the creature's speed allows this tick, stopping ``within`` metres short of it."""
    pos = creature.position
    dx, dy = x - pos.x, y - pos.y
    dist = math.hypot(dx, dy)
    gap = dist - within
    step = min(speed(creature, ctx), gap)
    if step <= 0 or dist <= 0:
        return
    if step >= dist:
        pos.x, pos.y = x, y  # exactly there, not a rounding short of it
    else:
        pos.x += dx / dist * step
        pos.y += dy / dist * step


def _chosen(ctx: TickContext, entity: int) -> str:
    """The weapon a creature the game drives chose to pick up or draw this tick ("" for the AI's: the first)."""
    order = ctx.current().orders.get(entity)
    return order.weapon if isinstance(order, PickUp | Draw) else ""


def speed(creature: Creature, ctx: TickContext) -> float:
    """Metres the creature can walk this tick."""
    cond, anat = creature.condition, creature.anatomy
    model = ctx.model
    states = model.part_states(creature)
    if cond.prone or not can_walk(anat.body, states, cond):
        return 0.0
    return anat.speed * mobility_factor(anat, states, ctx.combat) * model.speed_factor(creature, ctx)


def take_up(entity: int, anat: Anatomy, states: tuple[Impairment, ...], cond: Condition, equip: Equipment,
            source: list[str], ctx: TickContext, only: str = "") -> bool:
    """Grip the first weapon from ``source`` (dropped or carried) that free, usable hands can hold.

    A shield is not taken up: it is held besides a weapon, never instead of one. ``only``: that weapon and no other
    (the one a creature the game drives chose).
    """
    for item in list(source):
        if only and item != only:
            continue
        weapon = ctx.weapons.get(item)
        if weapon is not None and weapon.shield:
            continue
        parts = grip_parts_for(anat, states, cond, equip, item, ctx.weapons)
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
        creatures = ctx.current().creatures
        clock = ctx.clock
        model = ctx.model
        for entity, c in creatures.items():
            comb, cond = c.combatant, c.condition
            action = comb.action
            if action == "attack" or cond.dead or cond.out:
                continue
            equip = c.equipment
            if action == "stand up":
                cond.prone = False
                ctx.emit(StoodUp(clock.tick, clock.time, entity))
            elif action == "pick up":
                take_up(entity, c.anatomy, model.part_states(c), cond, equip, equip.dropped, ctx,
                        _chosen(ctx, entity))
            elif action == "draw":
                carried = [w for w in equip.weapons if w not in equip.dropped and w not in equip.lost
                           and w not in equip.holding.values()]
                take_up(entity, c.anatomy, model.part_states(c), cond, equip, carried, ctx, _chosen(ctx, entity))
            elif action == "move":  # only a creature the game drives walks with no target (sandbox.systems.external)
                order = ctx.current().orders.get(entity)
                if isinstance(order, Move):
                    if order.to is not None:
                        walk(c, float(order.to[0]), float(order.to[1]), order.within, ctx)
                    elif isinstance(order.toward, int) and order.toward in creatures:
                        there = creatures[order.toward].position
                        walk(c, there.x, there.y, order.within, ctx)
            elif action == "approach":
                foe = creatures.get(comb.target)
                mode = ctx.modes.get(comb.mode)
                if foe is None or mode is None:
                    continue
                pos, fpos = c.position, foe.position
                dx, dy = fpos.x - pos.x, fpos.y - pos.y
                dist = math.hypot(dx, dy)
                stop = mode.reach if mode.kind == "melee" else mode.range
                gap = dist - stop * 0.9  # stop a little inside reach
                step = min(speed(c, ctx), gap)
                if step > 0 and dist > 0:
                    pos.x += dx / dist * step
                    pos.y += dy / dist * step
                    # It strikes at the end of the move phase if the target is in reach by then (the target may
                    # close in too); the attack phase checks the reach.
                    comb.action = "attack"

