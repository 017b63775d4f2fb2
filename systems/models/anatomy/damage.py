"""Applying wounds to a creature under the anatomy rules.

The wound record, compounding, severing, shock, mishaps, death, and the status (impairment, health, what unusable parts
let go of) that follows.

``apply_blow`` runs the moment a blow lands, inside the attack phase, because turn order matters within a tick:
a creature felled, shocked or disarmed by an earlier attacker must not act later in the same tick. The
``DamageProcessor`` then settles every creature wounded this tick: part impairment (of the parts wounded only),
health, and dropping what an unusable part held; that is when later tests start to feel the new wounds.
"""

from __future__ import annotations

import esper

from sandbox.components.body import ASPECTS
from sandbox.components.events import (
    BleederOpened,
    FellProne,
    HealthChanged,
    ImpairmentChanged,
    Injured,
    Severed,
    ShockChanged,
)
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.rules import LEVEL_CODES, AnatomyRules, InjuryLevel, ShockState
from sandbox.components.state import Anatomy, Condition, Equipment
from sandbox.systems.conditions import drop_held, kill
from sandbox.systems.context import TickContext
from sandbox.systems.models.anatomy.blow import BlowResult
from sandbox.systems.models.anatomy.health import band, health, health_ceiling
from sandbox.systems.models.anatomy.impairment import body_impairments, part_impairment_of

__all__ = ["DamageProcessor", "apply_blow", "enter_state", "inflict", "offered_state", "refresh_status", "set_shock"]


def offered_state(current: ShockState, offered: ShockState) -> ShockState:
    """The state a new shock result leaves.

    It only ever worsens; a second Stunned result while Stunned becomes Incapacitated, and a fresh Incapacitated result
    while Incapacitated becomes Unconscious.
    """
    if offered is ShockState.NONE:
        return current
    if offered == current and offered in (ShockState.STUNNED, ShockState.INCAPACITATED):
        return ShockState(int(offered) + 1)
    return offered if offered > current else current


def enter_state(shock: Shock, cond: Condition, new: ShockState, tick: int) -> None:
    """Put a creature in shock state ``new`` (no event).

    From Incapacitated on it is out of the fight (``Condition.out``, how the shared loop learns it cannot act).
    """
    shock.state = new
    shock.since = tick
    cond.out = new >= ShockState.INCAPACITATED


def set_shock(entity: int, shock: Shock, cond: Condition, new: ShockState, rules: AnatomyRules, ctx: TickContext,
              cause: str = "shock") -> None:
    """Move a creature to shock state ``new`` (emitting the change).

    Down states leave it prone; dead kills (``cause`` names what killed it).
    """
    if new == shock.state:
        return
    clock = ctx.clock
    ctx.emit(ShockChanged(clock.tick, clock.time, entity, shock.state.label, new.label))
    enter_state(shock, cond, new, clock.tick)
    if new in (ShockState.STUNNED, ShockState.INCAPACITATED):
        shock.retest_at = clock.time + clock.seconds_per_tick  # the end of its next turn
    elif new is ShockState.UNCONSCIOUS and rules.aftercare is not None:
        shock.retest_at = clock.time + rules.aftercare.unconscious_retest_after
    else:
        shock.retest_at = -1.0
    cond.reeling = True
    if new is ShockState.DEAD:
        kill(entity, cond, cause, ctx)
    elif new >= ShockState.INCAPACITATED and not cond.prone:
        cond.prone = True
        ctx.emit(FellProne(clock.tick, clock.time, entity, "shock"))


def _record_injury(injury: Injury, part: int, location: int, level: int, aspect: int, compound: bool,
                  bleeder: bool, time: float) -> None:
    """Record a wound at a location of ``part``.

    When it compounds, the worst wound already there worsens by one level.
    """
    if compound:
        worst = max((w for w in injury.wounds if w.location == location and w.level > 0),
                    key=lambda w: w.level, default=None)
        if worst is not None and worst.level < InjuryLevel.G5:
            worst.level += 1
            worst.compounded += 1
    if level > 0:
        injury.wounds.append(Wound(location, level, aspect, None, bleeder, 0, time))
        injury.levels.setdefault(location, []).append(level)
    elif bleeder and injury.wounds:
        injury.wounds[-1].bleeder = True
    if compound:
        injury.reindex()
    injury.touch(part)


def apply_blow(entity: int, anat: Anatomy, injury: Injury, shock: Shock, cond: Condition, equip: Equipment,
               result: BlowResult, rules: AnatomyRules, ctx: TickContext) -> None:
    """Apply a landed blow's consequences to its target at once.

    The step events of the blow itself (location, protection, injury, shock test, mishap tests) come from the
    attack record; this emits what the blow did to the creature: bleeder, severing, shock change, dropped items,
    falls, death.
    """
    if result.missed:
        return
    clock = ctx.clock
    body = anat.body
    loc = body.locations[result.location]
    if result.level > 0 or result.compound:
        _record_injury(injury, loc.part, result.location, result.level, result.aspect, result.compound,
                      result.bleeder, clock.time)
        if result.bleeder:
            ctx.emit(BleederOpened(clock.tick, clock.time, entity, loc.name))
    if result.severed:
        injury.severed.add(result.location)
        injury.unusable_parts.add(loc.part)
        injury.touch(loc.part)
        ctx.emit(Severed(clock.tick, clock.time, entity, loc.name, body.parts[loc.part].name))
        drop_held(entity, equip, loc.part, body.parts[loc.part].name, False, ctx)
    if result.fumble_outcome in ("dropped", "flung"):
        drop_held(entity, equip, loc.part, body.parts[loc.part].name, result.fumble_outcome == "flung", ctx)
    if result.stumble_outcome == "prone" and not cond.prone:
        cond.prone = True
        cond.reeling = True
        ctx.emit(FellProne(clock.tick, clock.time, entity, "stumble"))
    before = shock.state
    set_shock(entity, shock, cond, offered_state(shock.state, result.shock_state), rules, ctx)
    if shock.state != before:
        injury.shock_cause = (result.location, max(result.level, 1))  # what a Coma's Healing Rate reads
    if result.dead and not cond.dead:
        kill(entity, cond, "severed " + loc.name if result.severed else "shock", ctx)


def inflict(entity: int, anat: Anatomy, injury: Injury, cond: Condition, equip: Equipment, location: int,
            level: int, aspect: int, rules: AnatomyRules, ctx: TickContext) -> None:
    """Record a wound directly (scenario set-up and tests): no blow, no shock or bleeding roll.

    Compounding applies as it would for a blow; the creature's status is refreshed at once.
    """
    clock = ctx.clock
    existing = injury.levels.get(location, [])
    compound = bool(existing) and level >= sum(existing)
    loc = anat.body.locations[location]
    _record_injury(injury, loc.part, location, level, aspect, compound, False, clock.time)
    ctx.emit(Injured(clock.tick, clock.time, entity, loc.name, level, LEVEL_CODES[level], ASPECTS[aspect], False,
                     compound))
    refresh_status(entity, anat, injury, cond, equip, rules, ctx)


def refresh_status(entity: int, anat: Anatomy, injury: Injury, cond: Condition, equip: Equipment,
                   rules: AnatomyRules, ctx: TickContext) -> None:
    """Recompute part impairment (of the parts whose wounds changed, or of all) and health from the wounds.

    Unusable parts drop what they hold.

    Emits an event for every part whose impairment changed and for a change of health.
    """
    body = anat.body
    before = injury.impairments or body_impairments(body, Injury(), rules)
    if injury.dirty_parts and len(before) == len(body.parts):
        parts = list(before)
        for part in injury.dirty_parts:
            parts[part] = part_impairment_of(body, injury, part, rules)
        after = tuple(parts)
    else:
        after = body_impairments(body, injury, rules)
    clock = ctx.clock
    changed = after != before
    if changed:
        for pi, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                ctx.emit(ImpairmentChanged(clock.tick, clock.time, entity, body.parts[pi].name, new.penalty,
                                           new.unusable))
                if new.unusable and not old.unusable:
                    drop_held(entity, equip, pi, body.parts[pi].name, False, ctx)
        injury.impairments = after
    # Health follows from the impairments and being alive alone: with neither changed it cannot have moved.
    unchanged = not changed and injury.health > 0 and not cond.dead
    new_health = injury.health if unchanged else health(health_ceiling(body, injury.impairments, rules),
                                                        not cond.dead, rules)
    if new_health != injury.health:
        ctx.emit(HealthChanged(clock.tick, clock.time, entity, injury.health, new_health, band(new_health, rules)))
        injury.health = new_health
    injury.profile = None  # test MLs changed: recompile the target on its next blow
    injury.dirty = False
    injury.dirty_parts.clear()


def _settle_dead(entity: int, injury: Injury, rules: AnatomyRules, ctx: TickContext) -> None:
    """Death sets health to 0 even when no wound changed (the ceiling of the living is 1)."""
    if injury.health:
        ctx.emit(HealthChanged(ctx.clock.tick, ctx.clock.time, entity, injury.health, 0, band(0, rules)))
        injury.health = 0


class DamageProcessor(esper.Processor):
    """DAMAGE phase: settle the status of every creature wounded this tick (impairment, health, unusable parts)."""

    def __init__(self, ctx: TickContext, rules: AnatomyRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Refresh every creature whose wounds changed."""
        ctx, rules = self.ctx, self.rules
        for entity, injury in esper.get_component(Injury):
            if injury.dirty:
                c = ctx.current().creatures[entity]
                refresh_status(entity, c.anatomy, injury, c.condition, c.equipment, rules, ctx)
            elif injury.health and esper.component_for_entity(entity, Condition).dead:
                _settle_dead(entity, injury, rules, ctx)
