"""The anatomy model out of combat: ``advance`` jumps game time from due check to due check.

Every wound-over-time rule has a due time kept in the creature's ``Injury`` and ``Shock`` (a bleeder's next
advance test, a wound's next healing period, a re-test, a course test, first aid). ``advance`` puts them in the
shared due queue (``sandbox.systems.schedule``), pops the earliest, runs its rule, and the rule pushes the due times it
set, so a hundred days for a hundred creatures cost tens of thousands of checks, not 864,000 ticks.

Who tends the wounded is the care policy (``sandbox.systems.care``): the team's healers (default: the creature with the
best Physician ML able to act) treat every untreated wound at first aid and make one Blood Stoppage Test per
bleeding round; with none at hand, a creature able to act tends itself.
"""

from __future__ import annotations

from sandbox.components.care import CarePolicy
from sandbox.components.rules import AnatomyRules, ShockState
from sandbox.systems.care import CareCircle
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.models.anatomy.aftercare import (
    bleed,
    coma_course,
    extended_shock_course,
    heal,
    retest,
    rules_of,
    start_healing_clock,
    treat,
)
from sandbox.systems.models.anatomy.damage import refresh_status
from sandbox.systems.models.anatomy.mastery import effective_ml
from sandbox.systems.models.anatomy.state import AnatomyState, anatomy_state
from sandbox.systems.schedule import Due, DueQueue, run_due

__all__ = ["advance", "tenders"]

_KINDS = ("retest", "care", "bleed", "course", "coma", "heal")
"""The due rules, in the order they run when due at the same time."""


def _current_due(state: AnatomyState, dead: bool, kind: str, index: int) -> float:
    """The due time a creature's state holds now for ``kind`` (and wound ``index``); -1 when none."""
    injury, shock = state
    if dead:
        return -1.0
    if kind == "retest":
        locked = injury.extended_shock_hr is not None or injury.coma_hr is not None
        down = shock.state in (ShockState.STUNNED, ShockState.INCAPACITATED, ShockState.UNCONSCIOUS)
        return shock.retest_at if down and not locked else -1.0
    if kind == "care":
        return injury.care_at
    if kind == "course":
        return injury.next_course
    if kind == "coma":
        return injury.next_coma
    if index >= len(injury.wounds):
        return -1.0
    wound = injury.wounds[index]
    if kind == "bleed":
        return wound.next_bleed if wound.bleeder and wound.level > 0 else -1.0
    if kind == "heal":
        return wound.next_heal if wound.level > 0 else -1.0
    return -1.0


def _queue_creature(queue: DueQueue, creature: Creature) -> None:
    """Queue every due time a creature's state holds."""
    state = anatomy_state(creature)
    dead = creature.condition.dead
    for kind in ("retest", "care", "course", "coma"):
        queue.push(kind, creature.entity, _current_due(state, dead, kind, 0))
    for index in range(len(state.injury.wounds)):
        for kind in ("bleed", "heal"):
            queue.push(kind, creature.entity, _current_due(state, dead, kind, index), index)


def _prepare(creatures: dict[int, Creature], policy: CarePolicy, rules: AnatomyRules, ctx: TickContext) -> None:
    """Give every open wound its healing clock and every bleeder its next round; schedule first aid."""
    aftercare = rules_of(rules)
    delay = policy.first_aid_delay if policy.first_aid_delay is not None else aftercare.first_aid_delay
    now = ctx.clock.time
    for c in creatures.values():
        if c.condition.dead:
            continue
        injury = anatomy_state(c).injury
        for index, wound in enumerate(injury.wounds):
            start_healing_clock(injury, index, aftercare)
            if wound.bleeder and wound.level > 0 and wound.next_bleed < 0:
                wound.next_bleed = max(wound.received + aftercare.bleed_interval, now)
        untreated = any(w.level > 0 and w.healing_rate is None for w in injury.wounds)
        if untreated and injury.care_at < 0:
            injury.care_at = now + delay


def tenders(creatures: dict[int, Creature], policy: CarePolicy, skill: str, ctx: TickContext) -> CareCircle:
    """Who tends whom by ``skill`` (Physician).

    A team-mate able to act who has the skill, at its effective ML (impairment of the roles the skill names and fatigue
    included); else the patient itself, whatever its ML.
    """

    def ml(c: Creature, on_self: bool) -> int | None:
        return effective_ml(c.anatomy, anatomy_state(c).injury, skill, ctx.skills, 0, c.condition.immobilized)

    def has_skill(c: Creature, on_self: bool) -> bool:
        return on_self or c.anatomy.mls.get(skill) is not None

    return CareCircle(creatures, policy, ml, has_skill)


def advance(rules: AnatomyRules, ctx: TickContext, seconds: float, policy: CarePolicy) -> None:
    """Move game time on by ``seconds``, running every due rule in time order (see the module docstring).

    Raises:
        ValueError: A negative span.
    """
    if seconds < 0:
        raise ValueError("time only moves forward")
    aftercare = rules_of(rules)
    clock = ctx.clock
    end = clock.seconds + seconds
    creatures = ctx.creatures()
    _prepare(creatures, policy, rules, ctx)
    queue = DueQueue(_KINDS)
    for c in creatures.values():
        _queue_creature(queue, c)

    circles = {skill: tenders(creatures, policy, skill, ctx)
               for skill in {aftercare.stoppage_skill, aftercare.treatment_skill}}

    # Each creature's state and condition once, not through its record at every pop (tens of thousands of them).
    states = {e: anatomy_state(c) for e, c in creatures.items()}
    conditions = {e: c.condition for e, c in creatures.items()}

    def is_due(due: Due) -> bool:
        e = due.entity
        return _current_due(states[e], conditions[e].dead, due.kind, due.item) == due.time

    def run(due: Due) -> None:
        entity, index, kind = due.entity, due.item, due.kind
        c = creatures[entity]
        injury, shock = states[entity]
        anat, cond = c.anatomy, c.condition
        if kind == "retest":
            retest(entity, anat, injury, shock, cond, rules, ctx)
        elif kind == "bleed":
            tender = circles[aftercare.stoppage_skill].tender_for(entity)
            ml = None
            if tender is not None:
                helper = states[tender.entity].injury
                if helper.tending_until <= clock.seconds:  # one stoppage test a bleeding round
                    helper.tending_until = clock.seconds + aftercare.bleed_interval
                    ml = tender.skill if tender.skill is None else tender.skill + (
                        aftercare.self_treatment_modifier if tender.on_self else 0)
            bleed(entity, anat, injury, shock, cond, index, ml, rules, ctx)
        elif kind == "course":
            extended_shock_course(entity, anat, injury, shock, cond, rules, ctx)
        elif kind == "coma":
            coma_course(entity, anat, injury, shock, cond, rules, ctx)
        elif kind == "heal":
            heal(entity, anat, injury, cond, index, rules, ctx)
        elif kind == "care":
            injury.care_at = -1.0
            tender = circles[aftercare.treatment_skill].tender_for(entity)
            if tender is None:
                injury.care_at = clock.seconds + aftercare.bleed_interval  # look again next round
                queue.push("care", entity, injury.care_at)
            else:
                for i, wound in enumerate(injury.wounds):
                    if wound.level > 0 and wound.healing_rate is None:
                        treat(entity, anat, injury, i, tender.skill, tender.on_self, rules, ctx)
        if injury.dirty or (cond.dead and injury.health):
            refresh_status(entity, anat, injury, cond, c.equipment, rules, ctx)
            cond.reeling = False
        for circle in circles.values():
            circle.update(entity)

    run_due(ctx, queue, end, is_due, run)
    for c in creatures.values():
        c.condition.reeling = False
