"""Applying wounds to a creature: the injury record, compounding, severing, shock, mishaps, death, and the status
(impairment, health, what unusable parts let go of) that follows.

``apply_blow`` runs the moment a blow lands, inside the attack phase, because turn order matters within a tick:
a creature felled, shocked or disarmed by an earlier attacker must not act later in the same tick. The
``DamageProcessor`` then settles every creature wounded this tick: part impairment, health, and dropping what an
unusable part held; that is when later tests start to feel the new wounds.
"""

from __future__ import annotations

import esper

from components.anatomy import ASPECTS
from components.events import (
    BleederOpened,
    Died,
    FellProne,
    HealthChanged,
    ImpairmentChanged,
    Injured,
    ItemDropped,
    Severed,
    ShockChanged,
)
from components.rules import LEVEL_CODES, ShockState
from components.state import Anatomy, Condition, Equipment, Shock
from components.wounds import Injury, Wounds
from systems.blow import BlowResult
from systems.context import TickContext
from systems.creatures import query_creatures
from systems.health import band, health, health_ceiling
from systems.impairment import body_impairments


def offered_state(current: ShockState, offered: ShockState) -> ShockState:
    """The state a new shock result leaves: it only ever worsens; a second Stunned result while Stunned becomes
    Incapacitated, and a fresh Incapacitated result while Incapacitated becomes Unconscious."""
    if offered is ShockState.NONE:
        return current
    if offered == current and offered in (ShockState.STUNNED, ShockState.INCAPACITATED):
        return ShockState(int(offered) + 1)
    return offered if offered > current else current


def set_shock(entity: int, shock: Shock, cond: Condition, new: ShockState, ctx: TickContext,
              cause: str = "shock") -> None:
    """Move a creature to shock state ``new`` (emitting the change); down states leave it prone; dead kills
    (``cause`` names what killed it)."""
    if new == shock.state:
        return
    clock = ctx.clock
    ctx.emit(ShockChanged(clock.tick, clock.time, entity, shock.state.label, new.label))
    shock.state = new
    shock.since = clock.tick
    if new in (ShockState.STUNNED, ShockState.INCAPACITATED):
        shock.retest_at = clock.time + clock.seconds_per_tick  # the end of its next turn
    elif new is ShockState.UNCONSCIOUS and ctx.rules.aftercare is not None:
        shock.retest_at = clock.time + ctx.rules.aftercare.unconscious_retest_after
    else:
        shock.retest_at = -1.0
    cond.reeling = True
    if new is ShockState.DEAD:
        kill(entity, cond, cause, ctx)
    elif new >= ShockState.INCAPACITATED and not cond.prone:
        cond.prone = True
        ctx.emit(FellProne(clock.tick, clock.time, entity, "shock"))


def kill(entity: int, cond: Condition, cause: str, ctx: TickContext) -> None:
    """Mark a creature dead (entities are never deleted mid-run: systems check the flag)."""
    if cond.dead:
        return
    cond.dead = True
    cond.cause = cause
    cond.reeling = True
    cond.prone = True
    ctx.emit(Died(ctx.clock.tick, ctx.clock.time, entity, cause))


def drop_held(entity: int, equip: Equipment, part: int, part_name: str, flung: bool, ctx: TickContext) -> None:
    """The part lets go of what it holds; a two-handed grip loses the weapon from every hand."""
    item = equip.holding.get(part)
    if item is None:
        return
    for p in [p for p, held in equip.holding.items() if held == item]:
        del equip.holding[p]
    (equip.lost if flung else equip.dropped).append(item)
    ctx.emit(ItemDropped(ctx.clock.tick, ctx.clock.time, entity, item, part_name, flung))


def record_injury(wounds: Wounds, location: int, level: int, aspect: int, compound: bool, bleeder: bool,
                  time: float) -> None:
    """Record a wound at a location; when it compounds, the worst wound already there worsens by one level."""
    if compound:
        worst = max((i for i in wounds.injuries if i.location == location and i.level > 0),
                    key=lambda i: i.level, default=None)
        if worst is not None and worst.level < len(LEVEL_CODES) - 1:
            worst.level += 1
            worst.compounded += 1
    if level > 0:
        wounds.injuries.append(Injury(location, level, aspect, None, bleeder, 0, time))
    elif bleeder and wounds.injuries:
        wounds.injuries[-1].bleeder = True
    wounds.reindex()
    wounds.dirty = True


def apply_blow(entity: int, anat: Anatomy, wounds: Wounds, shock: Shock, cond: Condition, equip: Equipment,
               result: BlowResult, ctx: TickContext) -> None:
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
        record_injury(wounds, result.location, result.level, result.aspect, result.compound, result.bleeder,
                      clock.time)
        if result.bleeder:
            ctx.emit(BleederOpened(clock.tick, clock.time, entity, loc.name))
    if result.severed:
        wounds.severed.add(result.location)
        wounds.unusable_parts.add(loc.part)
        wounds.dirty = True
        ctx.emit(Severed(clock.tick, clock.time, entity, loc.name, body.parts[loc.part].name))
        drop_held(entity, equip, loc.part, body.parts[loc.part].name, False, ctx)
    if result.fumble_outcome in ("dropped", "flung"):
        drop_held(entity, equip, loc.part, body.parts[loc.part].name, result.fumble_outcome == "flung", ctx)
    if result.stumble_outcome == "prone" and not cond.prone:
        cond.prone = True
        cond.reeling = True
        ctx.emit(FellProne(clock.tick, clock.time, entity, "stumble"))
    before = shock.state
    set_shock(entity, shock, cond, offered_state(shock.state, result.shock_state), ctx)
    if shock.state != before:
        wounds.shock_cause = (result.location, max(result.level, 1))  # what a Coma's Healing Rate reads
    if result.dead and not cond.dead:
        kill(entity, cond, "severed " + loc.name if result.severed else "shock", ctx)


def inflict(entity: int, anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, location: int,
            level: int, aspect: int, ctx: TickContext) -> None:
    """Record an injury directly (scenario set-up and tests): no blow, no shock or bleeding roll.

    Compounding applies as it would for a blow; the creature's status is refreshed at once.
    """
    clock = ctx.clock
    existing = wounds.levels.get(location, [])
    compound = bool(existing) and level >= sum(existing)
    record_injury(wounds, location, level, aspect, compound, False, clock.time)
    loc = anat.body.locations[location]
    ctx.emit(Injured(clock.tick, clock.time, entity, loc.name, level, LEVEL_CODES[level], ASPECTS[aspect], False,
                     compound))
    refresh_status(entity, anat, wounds, cond, equip, ctx)


def refresh_status(entity: int, anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment,
                   ctx: TickContext) -> None:
    """Recompute part impairment and health from the wounds; unusable parts drop what they hold.

    Emits an event for every part whose impairment changed and for a change of health.
    """
    body = anat.body
    before = wounds.impairments or body_impairments(body, Wounds(), ctx.rules)
    after = body_impairments(body, wounds, ctx.rules)
    clock = ctx.clock
    for pi, (old, new) in enumerate(zip(before, after, strict=True)):
        if old != new:
            ctx.emit(ImpairmentChanged(clock.tick, clock.time, entity, body.parts[pi].name, new.penalty,
                                       new.unusable))
            if new.unusable and not old.unusable:
                drop_held(entity, equip, pi, body.parts[pi].name, False, ctx)
    wounds.impairments = after
    new_health = health(health_ceiling(body, after, ctx.rules), not cond.dead, ctx.rules)
    if new_health != wounds.health:
        ctx.emit(HealthChanged(clock.tick, clock.time, entity, wounds.health, new_health,
                               band(new_health, ctx.rules)))
        wounds.health = new_health
    wounds.profile = None  # test MLs changed: recompile the target on its next blow
    wounds.dirty = False


class DamageProcessor(esper.Processor):
    """DAMAGE phase: settle the status of every creature wounded this tick (impairment, health, unusable parts)."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Refresh every creature whose wounds changed."""
        ctx = self.ctx
        for entity, (_, anat, wounds, _, _, cond, _, _, equip) in (
                ctx.scratch.get("creatures") or query_creatures()).items():
            if wounds.dirty:
                refresh_status(entity, anat, wounds, cond, equip, ctx)
            elif cond.dead and wounds.health:
                # Death sets health to 0 even when no wound changed (the ceiling of the living is 1).
                ctx.emit(HealthChanged(ctx.clock.tick, ctx.clock.time, entity, wounds.health, 0,
                                       band(0, ctx.rules)))
                wounds.health = 0
