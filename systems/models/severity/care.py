"""The severity model's care over time: stun wearing off, first aid, rest, coming round, death of exposure.

First aid ("If in combat, the only conventional (non-magic) option for healing is First Aid"): in a fight a creature
with a first-aid bonus and no enemy within its reach spends its turn on a bleeding or fainted team-mate beside it,
or itself (the model's ``turn_action`` and ``act`` call ``needs_aid`` and ``give_first_aid``); out of combat the
care policy's tender gives it after the fight. The healer's best first-aid item (medicine, equipment) lowers the
difficulty. Rest is interrupted by combat and by every check of difficulty 7 or more the creature makes.

In a fight the ``SeverityTurnProcessor`` (INTENT phase) spends stun turns, interrupts rest and brings round the
recovered. Out of combat ``advance_severity`` runs the due rules (``KINDS``) on the shared due queue
(``sandbox.systems.schedule``); ``_aid_circle`` says who tends whom by the care policy (``sandbox.systems.care``).
The checks themselves are pure rules (``sandbox.systems.models.severity.rules``).
"""

from __future__ import annotations

from collections.abc import Mapping

import esper

from sandbox.components.care import CarePolicy
from sandbox.components.models.severity import SeverityRules, SeverityState
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.models.severity.readout import effects_text, label
from sandbox.systems.models.severity.record import _changed
from sandbox.systems.models.severity.rules import (
    AidResult,
    attribute,
    best_aid_item,
    cognition_pool,
    first_aid,
    interrupts_rest,
    reduce_effect,
    severity_state,
    threshold,
)
from sandbox.systems.schedule import Due, DueQueue, run_due

__all__ = ["KINDS", "SeverityTurnProcessor", "advance_severity", "give_first_aid", "needs_aid"]

# ---------------------------------------------------------------------------- coming round, first aid, the turn


def _come_round(creature: Creature, ctx: TickContext) -> None:
    """A downed creature gets up (its Threshold is above 0 again and its incapacitation has passed)."""
    state = severity_state(creature)
    cond = creature.condition
    was = label(state, cond)
    state.down = ""
    state.down_since = -1.0
    state.exposed_at = -1.0
    cond.out = False
    _changed(ctx, creature.entity, "state", was, label(state, cond))


def _raise_from_faint(state: SeverityState) -> None:
    """A fainted creature whose Threshold is back above 0 is still incapacitated until it recovers."""
    if state.down == "fainted" and threshold(state) > 0:
        state.down = "incapacitated"


def needs_aid(creature: Creature) -> bool:
    """Whether first aid in combat is for the creature.

    It is when the creature is alive, bleeding (Bloody) or fainted, and has an effect to reduce.
    """
    state = severity_state(creature)
    return not creature.condition.dead and state.effect_points > 0 and (state.bloody > 0 or state.down == "fainted")


def give_first_aid(healer: Creature, patient: Creature, rules: SeverityRules, ctx: TickContext,
                   in_combat: bool = False) -> AidResult:
    """One first-aid check of ``healer`` on ``patient`` (itself: with disadvantage), logged.

    The difficulty is lowered by the healer's best first-aid item (a consumable one is used up by the check); one
    effect is reduced on success, and a fainted patient whose Threshold is back above 0 is now only incapacitated;
    the healer's rest starts again when the check's difficulty interrupts rest.

    Raises:
        ValueError: The healer has no first-aid bonus.
    """
    skill = severity_state(healer).first_aid
    if skill is None:
        raise ValueError(f"{healer.name} cannot give first aid (no first-aid bonus)")
    state, cond = severity_state(patient), patient.condition
    on_self = healer.entity == patient.entity
    item, lower = best_aid_item(healer.equipment, rules)
    difficulty = rules.aid_difficulty + lower
    was, before = label(state, cond), effects_text(state)
    result = first_aid(state, skill, on_self, rules, ctx.streams["healing"], difficulty)
    used = ""
    if item:
        used = f" with the {item}"
        if rules.items[item].consumable:
            healer.equipment.items.remove(item)
            used += ", used up"
    who = "self" if on_self else healer.name
    where = " in combat" if in_combat else ""
    dc = f" vs DC {difficulty}{used}" if item or difficulty != rules.aid_difficulty else ""
    _changed(ctx, patient.entity, f"first aid{where} by {who}: d20 {'/'.join(map(str, result.rolls))} -> "
             f"{result.total}{dc}", before, effects_text(state))
    if interrupts_rest(difficulty, rules):
        severity_state(healer).rest_at = -1.0
    if state.down == "fainted" and threshold(state) > 0:
        _raise_from_faint(state)
        _changed(ctx, patient.entity, "state", was, label(state, cond))
    return result


class SeverityTurnProcessor(esper.Processor):
    """INTENT phase, after the shared intent: stun spent, rest interrupted, the recovered brought round.

    A stunned creature loses its turn (one turn of stun is spent), a creature fighting is not resting, and an
    incapacitated creature comes round when its time is up.
    """

    def __init__(self, ctx: TickContext, rules: SeverityRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Spend stun turns; interrupt rest; bring round the recovered (in entity order)."""
        ctx = self.ctx
        now = ctx.clock.time
        rules = self.rules
        for c in ctx.current().creatures.values():
            if c.condition.dead:
                continue
            state = severity_state(c)
            state.rest_at = -1.0  # combat interrupts rest
            if state.stun > 0:
                state.stun_at = -1.0
                if not state.down:
                    c.combatant.action = "stunned"  # no movement or attack matches it: the turn is lost
                state.stun -= 1
                if state.stun == 0:
                    _changed(ctx, c.entity, "stun", "stun 1", "stun 0")
            if state.down == "incapacitated" and now >= state.down_since + rules.recovery and threshold(state) > 0:
                _come_round(c, ctx)


# ------------------------------------------------------------------------------------------------ out of combat


KINDS = ("stun", "aid", "rest", "recover", "exposed")
"""The due rules out of combat, in the order they run when due at the same time."""


def _aid_circle(creatures: Mapping[int, Creature], care: CarePolicy) -> CareCircle:
    """Who gives whom first aid, by the care policy.

    The team-mate able to act with the best first-aid bonus (ties: the lower entity; only the policy's healers,
    when it names them); else the patient itself when it can act, has the skill and self-care is allowed. A
    creature with no first-aid bonus (an animal) tends no one.
    """

    def bonus(c: Creature, on_self: bool) -> int | None:
        return severity_state(c).first_aid

    def has_skill(c: Creature, on_self: bool) -> bool:
        return severity_state(c).first_aid is not None

    return CareCircle(creatures, care, bonus, has_skill)


def advance_severity(ctx: TickContext, seconds: float, care: CarePolicy, rules: SeverityRules) -> None:
    """Move game time on by ``seconds`` out of combat.

    Stun wears off, first aid is given after the fight, rest heals (one effect point every 8 hours, three times as
    fast with a doctor at hand: a team-mate the care policy picks as tender), the incapacitated come round, and a
    fainted creature nobody can tend dies of exposure.

    The due times live in the state and run from the shared due queue (``sandbox.systems.schedule``), so two advances in
    a row give the same events as one of their total length.
    """
    clock = ctx.clock
    end = clock.seconds + seconds
    aid_delay = rules.aid_delay if care.first_aid_delay is None else float(care.first_aid_delay)
    creatures = ctx.creatures()
    queue = DueQueue(KINDS)
    circle = _aid_circle(creatures, care)

    def schedule(c: Creature) -> None:
        """Set the due times the creature's state calls for now, and queue them."""
        state = severity_state(c)
        if c.condition.dead:
            return
        e = c.entity
        now = clock.seconds
        helper = circle.tender_for(e)
        if state.stun > 0 and state.stun_at < 0:
            state.stun_at = now + state.stun * clock.seconds_per_tick
        if state.aid_left > 0 and state.effect_points > 0 and state.aid_at < 0 and helper is not None:
            state.aid_at = max(now, state.hurt_at + aid_delay)
        resting = state.down != "fainted" or helper is not None
        if state.effect_points > 0 and resting and state.rest_at < 0:
            doctor = helper is not None and not helper.on_self
            state.rest_at = now + rules.rest_period / (rules.doctor_multiplier if doctor else 1)
        elif not resting:
            state.rest_at = -1.0
        if state.down == "fainted" and helper is None and rules.exposed_death > 0:
            if state.exposed_at < 0:
                state.exposed_at = max(now, state.down_since + rules.exposed_death)
        else:
            state.exposed_at = -1.0
        queue.push("stun", e, state.stun_at)
        queue.push("aid", e, state.aid_at)
        queue.push("rest", e, state.rest_at)
        queue.push("exposed", e, state.exposed_at)
        if state.down == "incapacitated" and threshold(state) > 0:
            queue.push("recover", e, max(now, state.down_since + rules.recovery))

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        if c.condition.dead:
            return False
        state = severity_state(c)
        if due.kind == "recover":  # due once the recovery time has passed: any entry at or after it will do
            return state.down == "incapacitated" and threshold(state) > 0 and \
                max(clock.seconds, state.down_since + rules.recovery) <= due.time
        held = {"stun": state.stun_at, "aid": state.aid_at, "rest": state.rest_at, "exposed": state.exposed_at}
        return held[due.kind] == due.time  # else stale: already run or rescheduled

    for c in creatures.values():
        schedule(c)

    def run(due: Due) -> None:
        e, kind = due.entity, due.kind
        c = creatures[e]
        state, cond = severity_state(c), c.condition
        structural = False  # someone went down, died or got up: who can tend whom may have changed
        if kind == "stun":
            _changed(ctx, e, "stun", f"stun {state.stun}", "stun 0")
            state.stun, state.stun_at = 0, -1.0
        elif kind == "aid":
            state.aid_at = -1.0
            helper = circle.tender_for(e)
            while helper is not None and state.aid_left > 0 and state.effect_points > 0:
                state.aid_left -= 1
                # The circle offers only creatures with a first-aid bonus.
                give_first_aid(creatures[helper.entity], c, rules, ctx)
                if helper.entity != e:  # its check may have interrupted its own rest: set it again
                    schedule(creatures[helper.entity])
            state.aid_left = 0 if helper is not None else state.aid_left
        elif kind == "rest":
            state.rest_at = -1.0
            before = effects_text(state)
            reduced = reduce_effect(state, rules)
            if rules.rest_refills_cognition:
                state.cognition = cognition_pool(attribute(state, "wit"), rules)
            if reduced is not None:
                _changed(ctx, e, "rest", before, effects_text(state))
        elif kind == "recover":
            _come_round(c, ctx)
            structural = True
        elif kind == "exposed":
            state.exposed_at = -1.0
            kill(e, cond, "fainted and left untended", ctx)
            cond.reeling = False
            structural = True
        if state.down == "fainted" and threshold(state) > 0:
            was = label(state, cond)
            _raise_from_faint(state)
            _changed(ctx, e, "state", was, label(state, cond))
            structural = True
        circle.update(e)
        for other in creatures.values() if structural else (c,):
            schedule(other)

    run_due(ctx, queue, end, is_due, run)
