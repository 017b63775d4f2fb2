"""The strength-health model over time: dying, the end of the stretch, healing, healing items, rest, the due loop.

Document 003: "Lost health can be recovered by resting (see Rest) or using healing items". A dying creature healed
by at least 1 is stabilised and rolls on the d6 Injuries table (``heal``, ``roll_injury``, which lowers an ability
through ``change_creature_ability``); a dying creature nobody heals dies at the end of its round (``settle``); a
finite stretch of incapacitation ends on its own (``recover``); every ``full_rest_hours`` of rest out of combat is a
full rest (``full_rest``). A healing item is used by ``use_item``: in a fight when the ``items`` module's
``turn_action`` chooses it, and out of combat, where the care policy's tender gives one to every dying creature.

In a fight ``StrengthRecoveryProcessor`` (the RECOVERY phase) settles every creature by the clock each tick. Out
of combat ``advance`` keeps each due time (a death, the end of a stretch, a full rest) in the shared due queue
(``sandbox.systems.schedule``) and runs what falls due, moment by moment.
"""

from __future__ import annotations

from collections.abc import Mapping

import esper

from sandbox.components.care import CarePolicy
from sandbox.components.events import ModelStateChanged
from sandbox.components.models.strength import ABILITIES, ConditionEffect, HealingItem, StrengthTables
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import drop_held, kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import DamageModel, ModelError
from sandbox.systems.dice import roll_dice, roll_die
from sandbox.systems.models.strength.readout import label_of
from sandbox.systems.models.strength.rules import (
    MODEL,
    InjuryEffect,
    _is_int,
    change_ability,
    injury_effect,
    strength_state,
)
from sandbox.systems.schedule import Due, DueQueue, running

__all__ = ["KINDS", "StrengthRecoveryProcessor", "advance", "change_creature_ability", "full_rest", "heal",
           "recover", "roll_injury", "settle", "usable_items", "use_item"]

_EPS = 1e-9
_TOLERANCE = 1e-6
"""Seconds within which due times out of combat count as the same moment."""
KINDS: Mapping[str, int] = {"die": 0, "recover": 0, "rest": 0}
"""The due rules out of combat; one rank, so what falls due at the same moment runs by entity (each creature
dies, or recovers and then rests, in turn)."""


# ------------------------------------------------------------------------------------------------ in a fight


class StrengthRecoveryProcessor(esper.Processor):
    """RECOVERY phase: the dying die at the end of their next round; a finite stretch ends; fighting is no rest.

    Args:
        ctx: The world.
        model: The model whose ``settle`` applies what the clock decides.
    """

    def __init__(self, ctx: TickContext, model: DamageModel) -> None:
        self.ctx = ctx
        self.model = model

    def process(self) -> None:
        """Settle every creature's dying and incapacitation by the clock, in entity order."""
        ctx = self.ctx
        for c in ctx.current().creatures.values():
            if c.condition.dead:
                continue
            strength_state(c).rested = 0.0
            self.model.settle(c, ctx)


def settle(creature: Creature, ctx: TickContext) -> None:
    """Apply what the clock decides now: death at the end of the dying round, the end of a finite stretch."""
    state = strength_state(creature)
    now = ctx.clock.time
    if state.dying and now >= state.dying_at - _EPS:
        before = label_of(state, creature.condition)
        _die(creature, ctx, "dying: not healed in time")
        _changed(creature, ctx, before, state.health)
    elif state.incapacitated and state.until is not None and now >= state.until - _EPS:
        recover(creature, ctx)


# ------------------------------------------------------------------------------------------------ recovery


def recover(creature: Creature, ctx: TickContext) -> None:
    """The stretch is over: the creature can act again (a dying one stays out)."""
    state, cond = strength_state(creature), creature.condition
    if not state.incapacitated or cond.dead:
        return
    before = label_of(state, cond)
    state.incapacitated = False
    state.until = None
    if not state.dying:
        cond.out = False
    _changed(creature, ctx, before, state.health)


def heal(tables: StrengthTables, creature: Creature, ctx: TickContext, points: int) -> None:
    """Restore ``points`` of health (up to current STR).

    A dying creature healed by at least 1 is stabilised and rolls on the Injuries table (it stays incapacitated
    until the end of the stretch).

    Raises:
        ModelError: A dead creature, or fewer than 1 point.
    """
    state, cond = strength_state(creature), creature.condition
    if cond.dead:
        raise ModelError("the dead cannot be healed")
    if not _is_int(points) or points < 1:
        raise ModelError(f"healing is a whole number of points, 1 or more, not {points!r}")
    before_label, before_health = label_of(state, cond), state.health
    state.health = min(state.health + points, state.max_health)
    stabilised = state.dying
    state.dying = False
    _changed(creature, ctx, before_label, before_health)
    if stabilised:
        roll_injury(tables, creature, ctx)


def roll_injury(tables: StrengthTables, creature: Creature, ctx: TickContext, roll: int | None = None
                ) -> InjuryEffect:
    """Roll (or read ``roll`` on) the d6 Injuries table and apply the entry."""
    state = strength_state(creature)
    rng = ctx.streams["injury"]
    number = roll if roll is not None else roll_die(6, rng)
    effect = injury_effect(number, state.conditions, rng, tables.loss_die)
    clock = ctx.clock
    ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "injury", "",
                               f"{effect.roll}: {effect.name} ({effect.detail})"))
    state.injuries.append(effect.name)
    state.conditions = [c for c in state.conditions if c not in effect.remove]
    state.conditions += [c for c in effect.add if c not in state.conditions]
    for condition in effect.add:
        if tables.conditions.get(condition, ConditionEffect()).drops_shield:
            _arm_lets_go(creature, condition, ctx)
    if effect.ability:
        change_creature_ability(creature, ctx, effect.ability, -effect.loss, temporary=True)
    return effect


def change_creature_ability(creature: Creature, ctx: TickContext, ability: str, delta: int,
                            temporary: bool = True) -> None:
    """Raise or lower a creature's ability (temporarily: a full rest restores it; or permanently).

    Lowering STR lowers health as much (never below 1, never critical); an ability at 0 or below kills; abilities
    never exceed the cap.

    Raises:
        ModelError: An unknown ability.
    """
    if ability not in ABILITIES:
        raise ModelError(f"abilities are {', '.join(ABILITIES)}, not {ability!r}")
    state, cond = strength_state(creature), creature.condition
    if cond.dead or not delta:
        return
    before_label, before_health = label_of(state, cond), state.health
    old = state.abilities[ability]
    change = change_ability(ability, old, state.health, delta, state.cap)
    state.abilities[ability] = change.value
    if not temporary:
        state.base[ability] = min(state.base[ability] + delta, state.cap)
    clock = ctx.clock
    if change.value != old:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, ability, str(old),
                                   str(change.value)))
    if change.died:
        _die(creature, ctx, f"{ability} reduced to {change.value}")
    else:
        state.health = min(change.health, state.max_health)
    _changed(creature, ctx, before_label, before_health)


def full_rest(tables: StrengthTables, creature: Creature, ctx: TickContext) -> None:
    """A full rest: temporary ability changes and the Injuries table's conditions end.

    Health returns (``full_rest_heals``) and incapacitation ends.
    """
    state, cond = strength_state(creature), creature.condition
    entity = creature.entity
    before_label, before_health = label_of(state, cond), state.health
    clock = ctx.clock
    for ability in ABILITIES:
        if state.abilities[ability] != state.base[ability]:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, ability,
                                       str(state.abilities[ability]), str(state.base[ability])))
            state.abilities[ability] = state.base[ability]
    if state.conditions:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "conditions",
                                   ", ".join(state.conditions), ""))
        state.conditions = []
    heals = tables.full_rest_heals
    state.health = state.max_health if heals is None else min(state.health + heals, state.max_health)
    state.rested = 0.0
    if state.incapacitated:
        state.incapacitated = False
        state.until = None
        cond.out = False
    _changed(creature, ctx, before_label, before_health)


def _arm_lets_go(creature: Creature, condition: str, ctx: TickContext) -> None:
    """An arm injury.

    The injured arm (the primary arm is the dominant side's, the secondary the other's) lets go of any shield it holds.
    """
    primary = "left" if creature.anatomy.kind.dominance == "left" else "right"
    side = primary if condition == "arm_injury_primary" else ("left" if primary == "right" else "right")
    body, equip = creature.anatomy.body, creature.equipment
    for part, item in sorted(equip.holding.items()):
        weapon = ctx.weapons.get(item)
        if weapon is not None and weapon.shield and body.parts[part].side == side and part in equip.holding:
            drop_held(creature.entity, equip, part, body.parts[part].name, False, ctx)


def _die(creature: Creature, ctx: TickContext, cause: str) -> None:
    state = strength_state(creature)
    state.health = 0
    state.dying = False
    kill(creature.entity, creature.condition, cause, ctx)


def _changed(creature: Creature, ctx: TickContext, before_label: str, before_health: int) -> None:
    state = strength_state(creature)
    clock = ctx.clock
    if state.health != before_health:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "health", str(before_health),
                                   str(state.health)))
    after = label_of(state, creature.condition)
    if after != before_label:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "state", before_label, after))


# ------------------------------------------------------------------------------------------------ healing items


def usable_items(tables: StrengthTables, creature: Creature) -> list[str]:
    """The healing items the creature carries that the tables give an effect, the most healing first."""
    t = tables
    mine = [i for i in creature.equipment.items if i in t.items]
    return sorted(dict.fromkeys(mine), key=lambda i: -_mean(t.items[i]))


def use_item(tables: StrengthTables, user: Creature, patient: Creature, item: str, ctx: TickContext,
             owner: Creature | None = None) -> int:
    """``user`` uses the healing item ``item`` (carried by ``owner``, default the user) on ``patient``.

    The item restores its dice of health (at least 1), is used up if it is consumable, then ``heal`` applies it (a
    dying patient is stabilised and rolls on the Injuries table).

    Returns:
        The health restored.

    Raises:
        ModelError: An item the tables give no effect, one the owner does not carry, or a dead patient.
    """
    healing = tables.items.get(item)
    owner = owner or user
    if healing is None or item not in owner.equipment.items:
        raise ModelError(f"{owner.name} carries no healing item {item!r} this model knows")
    if patient.condition.dead:
        raise ModelError("the dead cannot be healed")
    points = max(1, roll_dice(healing.heals, ctx.streams["healing"]))
    if healing.consumable:
        owner.equipment.items.remove(item)
    clock = ctx.clock
    by = "itself" if user.entity == patient.entity else user.name
    ctx.emit(ModelStateChanged(clock.tick, clock.time, patient.entity, MODEL, f"healing item: {item} by {by}",
                               "", f"+{points} health ({healing.heals})"))
    heal(tables, patient, ctx, points)
    return points


def _mean(item: HealingItem) -> float:
    dice = item.heals
    return dice.count * (dice.sides + 1) / 2 + dice.modifier


def _tend_the_dying(tables: StrengthTables, ctx: TickContext, care: CarePolicy,
                    creatures: Mapping[int, Creature]) -> None:
    """Out of combat, at once.

    Every dying creature is given a healing item by its tender (the care policy's: the team-mate able to act carrying
    the most, only the named healers when it names them), the tender's own or, failing that, the patient's; in entity
    order.
    """
    now = ctx.clock.seconds
    circle = CareCircle(creatures, care, lambda c, on_self: len(usable_items(tables, c)))
    for e, c in creatures.items():
        state = strength_state(c)
        if c.condition.dead or not state.dying or state.dying_at <= now + _EPS:
            continue
        tender = circle.tender_for(e)
        if tender is None:
            continue
        helper = creatures[tender.entity]
        owner = helper if usable_items(tables, helper) else c if usable_items(tables, c) else None
        if owner is None:
            continue
        use_item(tables, helper, c, usable_items(tables, owner)[0], ctx, owner)
        circle.update(helper.entity)
        circle.update(e)


# ------------------------------------------------------------------------------------------------ out of combat


def advance(tables: StrengthTables, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
    """Move time on by ``seconds`` out of combat: dying, the end of the stretch and rest, by the clock.

    At once, the care policy's tender gives every dying creature a healing item (its own, else the patient's:
    ``_tend_the_dying``; stabilised, it rolls on the Injuries table) and the skirmish's stretch is over (the
    incapacitated recover); then the dying left die at the end of their round, a finite stretch ends, and every
    ``full_rest_hours`` of rest is a full rest.

    Each due time (a death, the end of a stretch, a full rest) is kept in the shared due queue. The earliest
    sets the moment (never before now, never past the end); everything due within ``_TOLERANCE`` of it runs
    then, creature by creature in entity order (a death; or the stretch's end, then a full rest).

    Raises:
        ModelError: A negative span.
    """
    if seconds < 0:
        raise ModelError(f"time only moves forward, not by {seconds:g} s")
    clock = ctx.clock
    end = clock.seconds + seconds
    rest = tables.full_rest_hours * 3600.0
    creatures = ctx.creatures()
    _tend_the_dying(tables, ctx, care, creatures)
    for c in creatures.values():
        state = strength_state(c)
        if not c.condition.dead and state.incapacitated and not state.dying and state.until is None:
            recover(c, ctx)
    queue = DueQueue(KINDS)
    rest_due: dict[int, float] = {}  # entity -> when its rest makes a full rest (the living, not dying)
    since: dict[int, float] = {}  # entity -> the game time its ``rested`` is counted up to
    now = clock.seconds
    for e, c in creatures.items():
        state = strength_state(c)
        if c.condition.dead:
            continue
        if state.dying:
            queue.push("die", e, state.dying_at)
            continue
        rest_due[e] = now + max(rest - state.rested, 0.0)
        since[e] = now
        queue.push("rest", e, rest_due[e])
        if state.incapacitated and state.until is not None:
            queue.push("recover", e, state.until)

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        state = strength_state(c)
        if c.condition.dead:
            return False
        if due.kind == "die":
            return state.dying and state.dying_at == due.time
        if state.dying:
            return False
        if due.kind == "recover":
            return state.incapacitated and state.until == due.time
        return rest_due.get(due.entity) == due.time

    stream = ctx.stream
    if stream.watching:
        stream.moment()  # who got up by recovering at the start (sandbox.systems.stream)
    # Grouped by due time within a tolerance (rest adds up in floats), not entry by entry: run_due's frame only.
    with running(ctx, queue):
        while True:
            first = next(queue.pop_due(end + _TOLERANCE, is_due), None)
            if first is None:
                break
            now = clock.seconds
            step_to = min(max(first.time, now), end)
            clock.seconds = max(step_to, now)
            group = sorted({first.entity, *(d.entity for d in queue.pop_due(step_to + _TOLERANCE, is_due))})
            for e in group:
                c = creatures[e]
                state = strength_state(c)
                cond = c.condition
                if cond.dead:
                    continue
                if state.dying:
                    if state.dying_at <= step_to + _TOLERANCE:
                        before = label_of(state, cond)
                        _die(c, ctx, "dying: not healed in time")
                        _changed(c, ctx, before, state.health)
                    continue
                state.rested += max(step_to - since[e], 0.0)
                since[e] = step_to
                if state.incapacitated and state.until is not None and state.until <= step_to + _TOLERANCE:
                    recover(c, ctx)
                if state.rested >= rest - _TOLERANCE:
                    full_rest(tables, c, ctx)
                    rest_due[e] = step_to + rest
                    queue.push("rest", e, rest_due[e])
            if stream.watching:
                stream.moment()
        for e, start in since.items():
            c = creatures[e]
            if not c.condition.dead and not strength_state(c).dying:
                strength_state(c).rested += max(end - start, 0.0)
    clock.seconds = end
