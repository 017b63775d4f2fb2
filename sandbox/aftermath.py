"""Out of combat: ``advance`` jumps game time from due check to due check, and the aftermath report.

Every wound-over-time rule has a due time kept in the components (a bleeder's next advance test, a wound's next
healing period, a re-test, a course test, first aid). ``advance`` puts them in a heap, pops the earliest, runs
its rule and pushes the due times that rule set, so a hundred days for a hundred creatures cost tens of
thousands of checks, not 864,000 ticks. Ties run in a fixed order (kind, entity, wound), so a run split by a
save and a load gives the same events as one uninterrupted run.

Who tends the wounded is the scenario's care policy: the team's healers (default: the creature with the best
Physician ML able to act) treat every untreated wound at first aid and make one Blood Stoppage Test per bleeding
round; with none at hand, a creature able to act tends itself.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from components.rules import ShockState
from sandbox.scenario_def import CarePolicy
from systems.aftercare import (
    DAY,
    bleed,
    coma_course,
    extended_shock_course,
    heal,
    retest,
    rules_of,
    start_healing_clock,
    treat,
)
from systems.creatures import Parts, can_act, effective_ml
from systems.damage import refresh_status

if TYPE_CHECKING:
    from sandbox.world import Sandbox

KIND_ORDER = {"retest": 0, "care": 1, "bleed": 2, "course": 3, "coma": 4, "heal": 5}


def current_due(parts: Parts, kind: str, index: int) -> float:
    """The due time a creature's components hold now for ``kind`` (and wound ``index``); -1 when none."""
    _, _, wounds, _, shock, cond, _, _, _ = parts
    if cond.dead:
        return -1.0
    if kind == "retest":
        locked = wounds.extended_shock_hr is not None or wounds.coma_hr is not None
        down = shock.state in (ShockState.STUNNED, ShockState.INCAPACITATED, ShockState.UNCONSCIOUS)
        return shock.retest_at if down and not locked else -1.0
    if kind == "care":
        return wounds.care_at
    if kind == "course":
        return wounds.next_course
    if kind == "coma":
        return wounds.next_coma
    if index >= len(wounds.injuries):
        return -1.0
    injury = wounds.injuries[index]
    if kind == "bleed":
        return injury.next_bleed if injury.bleeder and injury.level > 0 else -1.0
    if kind == "heal":
        return injury.next_heal if injury.level > 0 else -1.0
    return -1.0


def items(entity: int, parts: Parts) -> Iterator[tuple[float, int, int, int, str]]:
    """Every due item of a creature as a heap entry ``(due, kind order, entity, wound, kind)``."""
    count = len(parts[2].injuries)
    for kind in ("retest", "care", "course", "coma"):
        due = current_due(parts, kind, 0)
        if due >= 0:
            yield due, KIND_ORDER[kind], entity, 0, kind
    for index in range(count):
        for kind in ("bleed", "heal"):
            due = current_due(parts, kind, index)
            if due >= 0:
                yield due, KIND_ORDER[kind], entity, index, kind


@dataclass(slots=True)
class Tender:
    """Who tends a patient: the entity, its Physician ML (fatigue included), and whether it is the patient."""

    entity: int
    ml: int | None
    self_care: bool


def tender_for(world: Sandbox, creatures: dict[int, Parts], patient: int, policy: CarePolicy,
               skill: str | None = None) -> Tender | None:
    """The patient's team-mate able to act with the best effective ML in ``skill`` (default: the treatment skill;
    impairment of the roles it names and fatigue included; ``policy.healers`` only, when given); else the patient
    itself when it can act and self-care is allowed; else nobody."""
    ctx = world.ctx
    skill = skill or rules_of(ctx).treatment_skill
    team = creatures[patient][6].team
    best: Tender | None = None
    for entity, parts in creatures.items():
        ident, anat, wounds, _, shock, cond, comb, _, _ = parts
        if entity == patient or comb.team != team or not can_act(cond, shock):
            continue
        if policy.healers is not None and ident.name not in policy.healers:
            continue
        if anat.mls.get(skill) is None:
            continue
        ml = effective_ml(anat, wounds, skill, ctx, 0, cond.immobilized)
        if best is None or (best.ml if best.ml is not None else -1) < (ml if ml is not None else -1):
            best = Tender(entity, ml, False)
    if best is not None:
        return best
    _, anat, wounds, _, shock, cond, _, _, _ = creatures[patient]
    if policy.self_care and can_act(cond, shock):
        return Tender(patient, effective_ml(anat, wounds, skill, ctx, 0, cond.immobilized), True)
    return None


def prepare(world: Sandbox, creatures: dict[int, Parts], policy: CarePolicy) -> None:
    """Give every open wound its healing clock and every bleeder its next round; schedule first aid."""
    ctx = world.ctx
    rules = rules_of(ctx)
    delay = policy.first_aid_delay if policy.first_aid_delay is not None else rules.first_aid_delay
    now = ctx.clock.time
    for _, parts in creatures.items():
        wounds, cond = parts[2], parts[5]
        if cond.dead:
            continue
        for index, injury in enumerate(wounds.injuries):
            start_healing_clock(wounds, index, ctx)
            if injury.bleeder and injury.level > 0 and injury.next_bleed < 0:
                injury.next_bleed = max(injury.received + rules.bleed_interval, now)
        untreated = any(i.level > 0 and i.healing_rate is None for i in wounds.injuries)
        if untreated and wounds.care_at < 0:
            wounds.care_at = now + delay


def advance(world: Sandbox, seconds: float, policy: CarePolicy) -> None:
    """Move game time on by ``seconds``, running every due rule in time order (see the module docstring)."""
    if seconds < 0:
        raise ValueError("time only moves forward")
    ctx = world.ctx
    clock = ctx.clock
    end = clock.seconds + seconds
    creatures = world.creatures()
    prepare(world, creatures, policy)
    heap = [entry for entity, parts in creatures.items() for entry in items(entity, parts)]
    heapq.heapify(heap)

    def push(kind: str, entity: int, index: int, due: float) -> None:
        heapq.heappush(heap, (due, KIND_ORDER[kind], entity, index, kind))

    ctx.scratch["scheduler"] = push
    rules = rules_of(ctx)
    try:
        with world.active():
            while heap and heap[0][0] <= end:
                due, _, entity, index, kind = heapq.heappop(heap)
                parts = creatures[entity]
                if current_due(parts, kind, index) != due:
                    continue  # stale: the rule already ran or was rescheduled
                clock.seconds = max(clock.seconds, due)
                _, anat, wounds, _, shock, cond, _, _, equip = parts
                if kind == "retest":
                    retest(entity, anat, wounds, shock, cond, ctx)
                elif kind == "bleed":
                    tender = tender_for(world, creatures, entity, policy, rules.stoppage_skill)
                    ml = None
                    if tender is not None:
                        helper = creatures[tender.entity][2]
                        if helper.tending_until <= clock.seconds:
                            helper.tending_until = clock.seconds + rules.bleed_interval
                            ml = tender.ml if tender.ml is None else tender.ml + (
                                rules.self_treatment_modifier if tender.self_care else 0)
                    bleed(entity, anat, wounds, shock, cond, index, ml, ctx)
                elif kind == "course":
                    extended_shock_course(entity, anat, wounds, shock, cond, ctx)
                elif kind == "coma":
                    coma_course(entity, anat, wounds, shock, cond, ctx)
                elif kind == "heal":
                    heal(entity, anat, wounds, cond, index, ctx)
                elif kind == "care":
                    wounds.care_at = -1.0
                    tender = tender_for(world, creatures, entity, policy, rules.treatment_skill)
                    if tender is None:
                        wounds.care_at = clock.seconds + rules.bleed_interval  # look again next round
                        push("care", entity, 0, wounds.care_at)
                    else:
                        for i, injury in enumerate(wounds.injuries):
                            if injury.level > 0 and injury.healing_rate is None:
                                treat(entity, anat, wounds, i, tender.ml, tender.self_care, ctx)
                if wounds.dirty or (cond.dead and wounds.health):
                    refresh_status(entity, anat, wounds, cond, equip, ctx)
                    cond.reeling = False
                if cond.dead:
                    continue
            clock.seconds = end
            for parts in creatures.values():
                parts[5].reeling = False
    finally:
        ctx.scratch.pop("scheduler", None)


@dataclass(frozen=True, slots=True)
class AftermathRow:
    """How one creature came through the aftermath.

    Attributes:
        name: The creature.
        alive: Still alive.
        cause: What killed it ("" when alive).
        died_day: Day of death counted from the start of the aftermath (``None`` when alive).
        healed_day: Days from the start of the aftermath until its last wound closed (0 when it had none;
            ``None`` when a wound is still open).
        open_wounds: Wounds still open.
        permanent: Permanent impairment by part name.
        health: Health now.
    """

    name: str
    alive: bool
    cause: str
    died_day: float | None
    healed_day: float | None
    open_wounds: int
    permanent: dict[str, int]
    health: int


def report(world: Sandbox, start: float) -> list[AftermathRow]:
    """Per creature: bled out (or otherwise died) or survived, days until every wound healed, permanent damage."""
    from components.events import Died

    deaths = {e.entity: e.time for e in world.events if isinstance(e, Died)}
    rows = []
    for entity, (ident, anat, wounds, _, _, cond, _, _, _) in world.creatures().items():
        open_wounds = sum(1 for i in wounds.injuries if i.level > 0)
        healed = [i.healed_at for i in wounds.injuries if i.healed_at >= 0]
        healed_day: float | None = None
        if not open_wounds and not cond.dead:
            healed_day = max(0.0, (max(healed) - start) / DAY) if healed else 0.0
        died = deaths.get(entity)
        permanent = {anat.body.parts[p].name: v for p, v in sorted(wounds.permanent_impairment.items()) if v < 0}
        rows.append(AftermathRow(
            ident.name, not cond.dead, cond.cause, None if died is None else max(0.0, (died - start) / DAY),
            None if healed_day is None else math.ceil(healed_day * 10) / 10, open_wounds, permanent, wounds.health))
    return rows
