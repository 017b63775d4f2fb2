"""The attack phase (ATTACK).

Every creature that means to attack does, in initiative order, through its damage model's attack procedure; one that
chose a turn of its damage model's own (first aid, a healing item) takes it, in the same order (``DamageModel.act``).

A creature killed, shocked or felled earlier in the tick (``Condition.reeling``) acts no more this tick; the
mode must still be wieldable (a weapon dropped earlier this tick is not) and the target still within reach or
range. What the attack does is the model's (``DamageModel.attack``): the anatomy model's opposed d100 test and
blow, a point model's d20 roll and damage.
"""

from __future__ import annotations

import math

import esper

from sandbox.components.gear import StrikeMode
from sandbox.components.impairment import Impairment
from sandbox.components.state import Anatomy, Condition, Equipment, Position
from sandbox.systems.context import TickContext
from sandbox.systems.strike import wielding_parts

__all__ = ["REACH_SLACK", "AttackProcessor", "in_range", "ready_parts"]

REACH_SLACK = 1e-9
"""How far past its reach or range a strike still reaches, in metres (a distance's rounding)."""


def in_range(mode: StrikeMode, distance: float) -> bool:
    """Whether a mode reaches a target at ``distance`` metres (melee: reach; missile and thrown: range)."""
    if mode.kind == "melee":
        return distance <= mode.reach + REACH_SLACK
    return distance <= mode.range + REACH_SLACK


def _distance(a: Position, b: Position) -> float:
    """Metres between two positions."""
    return math.hypot(a.x - b.x, a.y - b.y)


def ready_parts(anat: Anatomy, states: tuple[Impairment, ...], cond: Condition, equip: Equipment,
                mode: StrikeMode) -> tuple[int, ...] | None:
    """The parts that would wield ``mode`` now, or ``None`` when it cannot be used.

    It cannot be used with a held weapon no longer in hand, or an unusable or immobilised gripping limb. ``states`` is
    the damage model's ``part_states``.
    """
    weapon_held = mode.weapon in equip.holding.values()
    natural = mode.weapon in equip.natural
    if not weapon_held and not natural:
        return None
    return wielding_parts(anat.body, mode, states, dominance=anat.kind.dominance, immobilized=cond.immobilized,
                          holding=equip.holding)


class AttackProcessor(esper.Processor):
    """ATTACK phase: every creature that means to attack does, in initiative order (see the module docstring)."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Resolve this tick's attacks."""
        ctx = self.ctx
        tick = ctx.current()
        creatures = tick.creatures
        model = ctx.model
        actions = tick.actions
        stream = ctx.stream
        for entity in tick.order:
            me = creatures[entity]
            cond, comb = me.condition, me.combatant
            if comb.action != "attack":
                own = actions.get(entity) if actions else None
                if own is not None and own.name == comb.action and not (cond.reeling or cond.dead or cond.out):
                    model.act(me, own, ctx)  # still its turn (no stun, no shock took it earlier this tick)
                    if stream.watching:
                        stream.moment()  # who went down or got up in that turn
                continue
            if cond.reeling or cond.dead or cond.out or comb.target < 0:
                continue
            foe = creatures.get(comb.target)
            mode = ctx.modes.get(comb.mode)
            if foe is None or mode is None or foe.condition.dead:
                continue
            if not in_range(mode, _distance(me.position, foe.position)):
                continue
            # Part states settle in the damage phase, so within the attack phase only a weapon dropped earlier
            # this tick can spoil what intent found usable: reuse its limbs unless the hands changed.
            equip = me.equipment
            cached = ctx.strike_options.get(entity)
            if cached is not None and cached.key[1] == tuple(equip.holding.items()) and mode.id in cached.parts:
                parts = cached.parts[mode.id]
            else:
                parts = ready_parts(me.anatomy, model.part_states(me), cond, equip, mode)
            if parts is None:
                continue  # a dropped weapon or a limb lost earlier this tick
            model.attack(me, foe, mode, parts, ctx)
            if stream.watching:
                stream.moment()  # who went down or got up in that attack
