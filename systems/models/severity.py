"""The severity model (document 001): wound Severity from d3s, the d6 effect table, Threshold, first aid and rest.

A landed attack deals its damage less the target's Armor Value (Halve / Negate Armor as the weapon says; no
armour against a helpless target unless the damage is indirect). One d3 per point of damage left; each 3 is one
Severity. Severity 0 is no wound; otherwise a d6 picks the effect (Weaken, Stagger, Daze, Slow, Stun, Bloody)
with X = Severity, and the effects stack. A wound whose Severity (plus overflow past an attribute's floor) is
above Threshold incapacitates; above twice Threshold it kills; at Threshold 0 any wound kills, and a creature
whose Threshold falls to 0 faints.

The pure rule functions come first (what an embedding game calls), then the turn processor (stun) and the
``SeverityModel`` that plugs them into the damage-model interface. The attack roll is document 002's
(``systems.models.d20``), as decisions.md says. The rules as implemented: ``docs/models/severity.md``.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import esper

from components.creature import CreatureDef
from components.events import DamageDealt, Missed, ModelStateChanged
from components.gear import ArmorPiece, StrikeMode
from components.readout import Readout
from components.severity import ATTRIBUTE_OF, EFFECTS, SeverityRules, SeverityState
from components.state import Anatomy, Combatant, Condition
from components.wounds import Wounds
from systems.context import TickContext
from systems.creatures import Parts, can_act, query_creatures
from systems.damage import kill
from systems.dice import Rng, roll_dice, roll_die
from systems.models.base import DamageModel, register
from systems.models.d20 import d20_attack, unaimed_attack_events
from systems.phases import Phase

# ----------------------------------------------------------------------------------------------- reading state


def damage_of(state: SeverityState, attribute: str) -> int:
    """Damage an attribute has taken (``brawn``, ``poise``, ``wit``; ``speed``: Speed lost); 0 for anything else."""
    if attribute == "brawn":
        return state.weaken
    if attribute == "poise":
        return state.stagger
    if attribute == "wit":
        return state.daze
    if attribute == "speed":
        return state.slow
    return 0


def attribute(state: SeverityState, name: str) -> int:
    """The current value of ``brawn``, ``poise``, ``wit`` or ``speed`` (permanent value less its damage)."""
    base: int = getattr(state, name)
    return base - damage_of(state, name)


def full_threshold(state: SeverityState) -> int:
    """Threshold unhurt: racial base + permanent Brawn (never below 0)."""
    return max(0, state.threshold_base + state.brawn)


def threshold(state: SeverityState) -> int:
    """Threshold now: racial base + current Brawn - Bloody, never below 0."""
    return max(0, state.threshold_base + attribute(state, "brawn") - state.bloody)


def cognition_pool(wit: int, rules: SeverityRules) -> int:
    """Cognition Points for a Wit score: ``base ** (Wit + offset)`` (document 001: Wit 3 -> 32, Wit 2 -> 16)."""
    power = wit + rules.cognition_offset
    return rules.cognition_base ** power if power >= 0 else 0


def attack_bonus(state: SeverityState, kind: str, rules: SeverityRules) -> int:
    """The d20 attack bonus for a strike of ``kind`` (melee, thrown, missile): the block's bonus less the damage of
    the attribute that kind of attack relies on."""
    return state.attack_bonus - damage_of(state, rules.attack_attribute.get(kind, ""))


def defense(state: SeverityState, rules: SeverityRules) -> int:
    """Defense now: the block's Defense less the damage of the defence attribute (Poise)."""
    return state.defense - damage_of(state, rules.defense_attribute)


def armor_left(armor_value: int, anti_armor: str) -> int:
    """Armor Value after Anti-Armour: ``halve`` halves it (rounding down, in the attacker's favour), ``negate``
    ignores it."""
    if anti_armor == "negate":
        return 0
    if anti_armor == "halve":
        return armor_value // 2
    return armor_value


def damage_after_armor(damage: int, armor_value: int, anti_armor: str = "none", *, helpless: bool = False,
                       indirect: bool = False) -> tuple[int, int]:
    """Damage left after armour, and the Armor Value that applied.

    Armour cannot reduce damage below 0. A directed attack against a target that cannot defend ignores armour;
    indirect damage (an explosion) meets it even then.
    """
    applied = 0 if helpless and not indirect else armor_left(armor_value, anti_armor)
    return max(0, damage - applied), applied


# ------------------------------------------------------------------------------------------------------ rolls


def roll_severity(points: int, rules: SeverityRules, rng: Rng) -> tuple[int, tuple[int, ...]]:
    """Roll one d3 per point of damage; each 3 is one Severity. Returns the Severity and the dice."""
    dice = tuple(roll_die(rules.severity_die, rng) for _ in range(max(0, points)))
    return sum(1 for d in dice if d == rules.severity_face), dice


def severity_distribution(points: int, rules: SeverityRules) -> list[float]:
    """The exact probability of each Severity 0..points for ``points`` of damage: Binomial(points, 1/3)."""
    from math import comb

    p = 1 / rules.severity_die
    return [comb(points, k) * p ** k * (1 - p) ** (points - k) for k in range(points + 1)]


def roll_effect(rules: SeverityRules, rng: Rng) -> str:
    """Roll the effect die and read the effect table."""
    return rules.effects[roll_die(rules.effect_die, rng) - 1]


# ----------------------------------------------------------------------------------------------------- wounds


@dataclass(frozen=True, slots=True)
class WoundResult:
    """What one wound did.

    Attributes:
        severity: The wound's Severity (0: no wound).
        effect: The effect (``weaken`` ...), or "" for no wound.
        applied: How much of X took effect (the rest stopped at a natural limit).
        overflow: Attribute damage past the floor (added to the Severity for the Threshold comparison only).
        effective: Severity + overflow.
        threshold: Threshold before the wound (what it is compared with).
        threshold_after: Threshold after it.
        outcome: ``none`` (no wound), ``wounded``, ``incapacitated``, ``fainted`` or ``dead``.
        cause: Why it died, when it did.
        before: The affected value before (``brawn 0``), for the log.
        after: The affected value after (``brawn -1, overflow 2``).
    """

    severity: int
    effect: str
    applied: int
    overflow: int
    effective: int
    threshold: int
    threshold_after: int
    outcome: str
    cause: str = ""
    before: str = ""
    after: str = ""


def _value_text(state: SeverityState, effect: str, rules: SeverityRules) -> str:
    if effect in ATTRIBUTE_OF:
        name = ATTRIBUTE_OF[effect]
        return f"{name} {attribute(state, name)}"
    if effect == "slow":
        return f"speed {attribute(state, 'speed')}"
    if effect == "stun":
        return f"stun {state.stun}"
    return f"threshold {threshold(state)}"


def apply_wound(state: SeverityState, severity: int, effect: str, rules: SeverityRules) -> WoundResult:
    """Apply a wound of ``severity`` with ``effect`` to ``state`` and judge it against Threshold.

    The effect stacks on what is there, within the natural limits: an attribute stops at the floor (-1) and the
    rest is overflow, which adds to this wound's Severity for the Threshold comparison only; Speed stops at 0;
    Threshold stops at 0 (and the creature faints). The wound is compared with the Threshold the creature had
    before it (document 001's example: Brawn 0, a Severity 3 Weaken, overflow 2: 5 > 3, incapacitated, not 5 > 2 x 2).
    A creature already at Threshold 0 dies of any wound. This changes only ``state``; the caller marks the
    creature down or dead.

    Raises:
        ValueError: An unknown effect.
    """
    before_threshold = threshold(state)
    if severity <= 0:
        return WoundResult(0, "", 0, 0, 0, before_threshold, before_threshold, "none")
    if effect not in EFFECTS:
        raise ValueError(f"unknown wound effect {effect!r}; known: {', '.join(EFFECTS)}")
    before = _value_text(state, effect, rules)
    overflow = 0
    if effect in ATTRIBUTE_OF:
        room = max(0, attribute(state, ATTRIBUTE_OF[effect]) - rules.attribute_floor)
        applied = min(severity, room)
        overflow = severity - applied
        setattr(state, effect, getattr(state, effect) + applied)
        if effect == "daze":
            state.cognition = min(state.cognition, cognition_pool(attribute(state, "wit"), rules))
    elif effect == "slow":
        applied = min(severity, max(0, attribute(state, "speed") - rules.speed_floor))
        state.slow += applied
    elif effect == "stun":
        applied = severity
        state.stun += severity
    else:  # bloody
        applied = min(severity, before_threshold)
        state.bloody += applied
    after = _value_text(state, effect, rules) + (f", overflow {overflow}" if overflow else "")
    effective = severity + overflow
    state.wounds += 1
    state.worst = max(state.worst, effective)
    after_threshold = threshold(state)
    if before_threshold == 0:
        outcome, cause = "dead", "a wound at Threshold 0"
    elif effective > rules.lethal_multiple * before_threshold:
        outcome = "dead"
        cause = f"a Severity {effective} wound past {rules.lethal_multiple} x Threshold {before_threshold}"
    elif after_threshold == 0:
        outcome, cause = "fainted", ""
    elif effective > before_threshold:
        outcome, cause = "incapacitated", ""
    else:
        outcome, cause = "wounded", ""
    return WoundResult(severity, effect, applied, overflow, effective, before_threshold, after_threshold, outcome,
                       cause, before, after)


def reduce_effect(state: SeverityState, rules: SeverityRules, effect: str | None = None) -> str | None:
    """Reduce one accumulated wound effect by 1 (``effect``, or the first in the healing order that is there);
    returns the effect reduced, or ``None`` when there was nothing to reduce.

    Restoring Wit does not restore spent Cognition Points (only rest refills them); the pool grows back.
    """
    order = (effect,) if effect is not None else rules.heal_order
    for name in order:
        if getattr(state, name) > 0:
            setattr(state, name, getattr(state, name) - 1)
            return name
    return None


@dataclass(frozen=True, slots=True)
class AidResult:
    """One first-aid check.

    Attributes:
        rolls: The d20s (two when tending oneself: the lower counts).
        total: The die kept + skill.
        success: The total reached the difficulty.
        reduced: The effect reduced by 1 (None: failed, or nothing to reduce).
    """

    rolls: tuple[int, ...]
    total: int
    success: bool
    reduced: str | None


def first_aid(patient: SeverityState, skill: int, on_self: bool, rules: SeverityRules, rng: Rng,
              difficulty: int | None = None) -> AidResult:
    """First aid: d20 + ``skill`` against the difficulty (10); on oneself with disadvantage (roll twice, keep the
    lower). Success reduces one accumulated wound effect by 1 (the first in the healing order).

    Args:
        patient: The patient's state (changed on success).
        skill: The tender's first-aid bonus.
        on_self: The tender is the patient.
        rules: The model's tables.
        rng: The healing stream.
        difficulty: Overrides the rules' difficulty (proper equipment and medicine lower it).
    """
    count = 2 if on_self and rules.aid_self_disadvantage else 1
    rolls = tuple(roll_die(rules.aid_die, rng) for _ in range(count))
    total = min(rolls) + skill
    success = total >= (rules.aid_difficulty if difficulty is None else difficulty)
    reduced = reduce_effect(patient, rules) if success else None
    return AidResult(rolls, total, success, reduced)


def label(state: SeverityState, cond: Condition) -> str:
    """The model's word for the state: dead, fainted, incapacitated, stunned, wounded or unhurt."""
    if cond.dead:
        return "dead"
    if state.down:
        return state.down
    if state.stun > 0:
        return "stunned"
    if state.effect_points > 0:
        return "wounded"
    return "unhurt"


def effects_text(state: SeverityState) -> str:
    """The untreated effects, shortly (``weaken 1, bloody 2``), or ``none``."""
    parts = [f"{name} {getattr(state, name)}" for name in EFFECTS if getattr(state, name) > 0]
    return ", ".join(parts) if parts else "none"


# ---------------------------------------------------------------------------------------- applying to a world


def state_of(entity: int) -> SeverityState:
    """The severity state of ``entity`` in the current esper world."""
    return esper.component_for_entity(entity, SeverityState)


def sync(state: SeverityState, anat: Anatomy, wounds: Wounds, cond: Condition) -> None:
    """Recalculate what other components derive from the state: walking speed follows Speed left / Speed (the
    ``weakest`` target policy reads the model's readout, so the anatomy's ``Wounds`` are left alone)."""
    if state.move < 0:
        state.move = anat.speed
    anat.speed = state.move * (attribute(state, "speed") / state.speed if state.speed > 0 else 1.0)


def _changed(ctx: TickContext, entity: int, what: str, before: str, after: str) -> None:
    ctx.emit(ModelStateChanged(ctx.clock.tick, ctx.clock.time, entity, "severity", what, before, after))


def wound(entity: int, parts: Parts, severity: int, effect: str, rules: SeverityRules, ctx: TickContext
          ) -> WoundResult:
    """Apply a wound to a creature of the world: the effect, then down (incapacitated, fainted) or dead, logged."""
    state = state_of(entity)
    _, anat, wounds, _, _, cond, _, _, _ = parts
    was = label(state, cond)
    result = apply_wound(state, severity, effect, rules)
    if result.outcome == "none":
        return result
    _changed(ctx, entity, result.effect, result.before, result.after)
    state.hurt_at = ctx.clock.time
    state.aid_left = rules.aid_attempts
    state.aid_at = -1.0
    state.rest_at = -1.0
    if result.outcome == "dead":
        kill(entity, cond, result.cause, ctx)
    elif result.outcome in ("incapacitated", "fainted") and state.down != "fainted":
        if not state.down:
            state.down_since = ctx.clock.time
        state.down = result.outcome
        cond.out = True
        cond.reeling = True
        cond.prone = True
    sync(state, anat, wounds, cond)
    now = label(state, cond)
    if now != was:
        _changed(ctx, entity, "state", was, now)
    return result


def come_round(entity: int, parts: Parts, ctx: TickContext) -> None:
    """A downed creature gets up (its Threshold is above 0 again and its incapacitation has passed)."""
    state = state_of(entity)
    cond = parts[5]
    was = label(state, cond)
    state.down = ""
    state.down_since = -1.0
    state.exposed_at = -1.0
    cond.out = False
    _changed(ctx, entity, "state", was, label(state, cond))


def _raise_from_faint(state: SeverityState) -> None:
    """A fainted creature whose Threshold is back above 0 is still incapacitated until it recovers."""
    if state.down == "fainted" and threshold(state) > 0:
        state.down = "incapacitated"


class SeverityTurnProcessor(esper.Processor):
    """INTENT phase, after the shared intent: a stunned creature loses its turn (one turn of stun is spent), a
    creature fighting is not resting, and an incapacitated creature comes round when its time is up."""

    def __init__(self, ctx: TickContext, rules: SeverityRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Spend stun turns; interrupt rest; bring round the recovered."""
        ctx = self.ctx
        now = ctx.clock.time
        rules = self.rules
        for entity, (state, comb, cond) in esper.get_components(SeverityState, Combatant, Condition):
            if cond.dead:
                continue
            state.rest_at = -1.0  # combat interrupts rest
            if state.stun > 0:
                state.stun_at = -1.0
                if not state.down:
                    comb.action = "stunned"  # no movement or attack matches it: the turn is lost
                state.stun -= 1
                if state.stun == 0:
                    _changed(ctx, entity, "stun", "stun 1", "stun 0")
            if state.down == "incapacitated" and now >= state.down_since + rules.recovery and threshold(state) > 0:
                come_round(entity, query_creatures()[entity], ctx)


# ------------------------------------------------------------------------------------------------ out of combat


@dataclass(frozen=True, slots=True)
class Tender:
    """Who gives a patient first aid: the entity, its first-aid bonus, and whether it is the patient."""

    entity: int
    skill: int
    on_self: bool


def tender_for(creatures: Mapping[int, Parts], states: Mapping[int, SeverityState], patient: int,
               healers: Sequence[str] | None, self_care: bool) -> Tender | None:
    """The patient's team-mate able to act with the best first-aid bonus (only ``healers``, when given; ties: the
    lower entity); else the patient itself when it can act, has the skill and self-care is allowed; else nobody."""
    team = creatures[patient][6].team
    best: Tender | None = None
    for entity, parts in creatures.items():
        ident, _, _, _, shock, cond, comb, _, _ = parts
        if entity == patient or comb.team != team or not can_act(cond, shock):
            continue
        if healers is not None and ident.name not in healers:
            continue
        skill = states[entity].first_aid
        if skill is not None and (best is None or skill > best.skill):
            best = Tender(entity, skill, False)
    if best is not None:
        return best
    _, _, _, _, shock, cond, _, _, _ = creatures[patient]
    skill = states[patient].first_aid
    if self_care and skill is not None and can_act(cond, shock):
        return Tender(patient, skill, True)
    return None


_KINDS = {"stun": 0, "aid": 1, "rest": 2, "recover": 3, "exposed": 4}


def advance_severity(ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any,
                     rules: SeverityRules) -> None:
    """Move game time on by ``seconds`` out of combat: stun wears off, first aid after the fight, rest healing
    (one effect point every 8 hours, three times as fast with a doctor at hand: a team-mate the care policy picks
    as tender), the incapacitated come round, and a fainted creature nobody can tend dies of exposure.

    Due times live in the state, so two advances in a row give the same events as one of their total length.
    """
    clock = ctx.clock
    end = clock.seconds + seconds
    healers = getattr(care, "healers", None)
    self_care = bool(getattr(care, "self_care", True))
    delay = getattr(care, "first_aid_delay", None)
    aid_delay = rules.aid_delay if delay is None else float(delay)
    states = {e: state_of(e) for e in creatures}
    rng = ctx.streams["healing"]
    heap: list[tuple[float, int, int, str]] = []

    def tender(e: int) -> Tender | None:
        return tender_for(creatures, states, e, healers, self_care)

    def schedule(e: int) -> None:
        """Set the due times the creature's state calls for now, and queue them."""
        state, cond = states[e], creatures[e][5]
        if cond.dead:
            return
        now = clock.seconds
        helper = tender(e)
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
        for kind, due in (("stun", state.stun_at), ("aid", state.aid_at), ("rest", state.rest_at),
                          ("exposed", state.exposed_at)):
            if due >= 0:
                heapq.heappush(heap, (due, _KINDS[kind], e, kind))
        if state.down == "incapacitated" and threshold(state) > 0:
            heapq.heappush(heap, (max(now, state.down_since + rules.recovery), _KINDS["recover"], e, "recover"))

    def current(e: int, kind: str) -> float:
        state = states[e]
        if creatures[e][5].dead:
            return -1.0
        if kind == "recover":
            ok = state.down == "incapacitated" and threshold(state) > 0
            return max(clock.seconds, state.down_since + rules.recovery) if ok else -1.0
        return {"stun": state.stun_at, "aid": state.aid_at, "rest": state.rest_at,
                "exposed": state.exposed_at}[kind]

    for e in creatures:
        schedule(e)
    while heap and heap[0][0] <= end:
        due, _, e, kind = heapq.heappop(heap)
        if kind == "recover":
            if current(e, kind) < 0 or current(e, kind) > due:
                continue
        elif current(e, kind) != due:
            continue  # stale: already run or rescheduled
        clock.seconds = max(clock.seconds, due)
        state, parts = states[e], creatures[e]
        _, anat, wounds, _, _, cond, _, _, _ = parts
        structural = False  # someone went down, died or got up: who can tend whom may have changed
        if kind == "stun":
            _changed(ctx, e, "stun", f"stun {state.stun}", "stun 0")
            state.stun, state.stun_at = 0, -1.0
        elif kind == "aid":
            state.aid_at = -1.0
            helper = tender(e)
            while helper is not None and state.aid_left > 0 and state.effect_points > 0:
                state.aid_left -= 1
                before = effects_text(state)
                result = first_aid(state, helper.skill, helper.on_self, rules, rng)
                tended_by = "self" if helper.on_self else creatures[helper.entity][0].name
                what = f"first aid by {tended_by}: d20 {'/'.join(map(str, result.rolls))} -> {result.total}"
                _changed(ctx, e, what, before, effects_text(state))
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
            come_round(e, parts, ctx)
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
        sync(state, anat, wounds, cond)
        for other in creatures if structural else (e,):
            schedule(other)
    clock.seconds = end


# ------------------------------------------------------------------------------------------------- the model


@register
class SeverityModel(DamageModel):
    """Document 001: Severity from d3s, stacking wound effects, Threshold, first aid and rest.

    ``tables`` is the model's ``SeverityRules`` (``configs/models/severity.toml``).
    """

    name = "severity"

    def __init__(self, tables: Any = None) -> None:
        if not isinstance(tables, SeverityRules):
            raise ValueError("the severity model needs its tables (sandbox.models.build_model('severity', ...))")
        super().__init__(tables)
        self.rules: SeverityRules = tables
        self._strikable: dict[str, bool] = {}

    def state_types(self) -> tuple[type, ...]:
        """One ``SeverityState`` per creature."""
        return (SeverityState,)

    def spawn_state(self, kind: CreatureDef, attributes: Mapping[str, int], armor: Sequence[ArmorPiece]
                    ) -> tuple[object, ...]:
        """The creature's block, with ``attributes`` overriding it (``brawn``, ``poise``, ``wit``, ``speed``,
        ``threshold`` (racial base), ``attack_bonus``, ``defense``, ``armor_value``, ``first_aid``); worn armour adds
        its Armor Value to the natural one.

        Raises:
            ValueError: The creature has no severity block.
        """
        block = self.rules.creatures.get(kind.id)
        if block is None:
            raise ValueError(f"creature {kind.id!r} has no block in configs/models/severity.toml")

        def pick(name: str, default: int) -> int:
            return int(attributes.get(name, default))

        first_aid_bonus = attributes.get("first_aid", block.first_aid)
        worn = sum(self.rules.armor.get(p.id, 0) for p in armor)
        state = SeverityState(
            threshold_base=pick("threshold", block.threshold), brawn=pick("brawn", block.brawn),
            poise=pick("poise", block.poise), wit=pick("wit", block.wit), speed=pick("speed", block.speed),
            attack_bonus=pick("attack_bonus", block.attack_bonus), defense=pick("defense", block.defense),
            armor_value=pick("armor_value", block.armor_value) + worn,
            first_aid=None if first_aid_bonus is None else int(first_aid_bonus), move=-1.0)
        state.cognition = cognition_pool(state.wit, self.rules)
        return (state,)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The turn processor (stun, rest interrupted, coming round)."""
        return [(Phase.INTENT, SeverityTurnProcessor(ctx, self.rules))]

    def _can_be_struck(self, anat: Anatomy) -> bool:
        body = anat.body
        known = self._strikable.get(body.id)
        if known is None:
            known = any(body.zone_hittable(z) for z in range(len(body.zones)))
            self._strikable[body.id] = known
        return known

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """The d20 roll against Defense; when it lands, the weapon's damage through armour becomes a wound.

        A target that cannot defend is hit whatever the roll (the helpless rule, when ``helpless_hits``) and its
        armour is ignored unless the damage is indirect. A creature with no body to strike (a spirit) is missed.
        Returns the wound (``WoundResult``) or ``None`` for a miss.
        """
        rules = self.rules
        clock = ctx.clock
        mine, theirs = state_of(entity), state_of(foe_entity)
        helpless = not can_act(foe[5], foe[4])
        roll = d20_attack(attack_bonus(mine, mode.kind, rules), defense(theirs, rules), ctx.streams["attack"])
        hit = roll.hit or (helpless and rules.helpless_hits)
        for event in unaimed_attack_events(clock.tick, clock.time, entity, foe_entity, "severity", mode.id,
                                           roll.natural, roll.total, roll.defense, roll.margin, hit):
            ctx.emit(event)
        if not hit:
            return None
        if not self._can_be_struck(foe[1]):
            ctx.emit(Missed(clock.tick, clock.time, entity, foe_entity, "off the body"))
            return None
        weapon = rules.weapons.get(mode.id)
        if weapon is None:
            raise ValueError(f"strike mode {mode.id!r} has no entry in configs/models/severity.toml")
        rng = ctx.streams["injury"]
        rolled = max(0, roll_dice(weapon.damage, rng))
        return self._damage(foe_entity, foe, rolled, theirs.armor_value, weapon.anti_armor, helpless,
                            weapon.indirect, ctx, rng, attacker=entity)

    def _damage(self, entity: int, parts: Parts, rolled: int, armor_value: int, anti_armor: str, helpless: bool,
                indirect: bool, ctx: TickContext, rng: Rng, attacker: int = -1, severity: int | None = None,
                effect: str | None = None) -> WoundResult:
        rules = self.rules
        dealt, applied = damage_after_armor(rolled, armor_value, anti_armor, helpless=helpless, indirect=indirect)
        if severity is None:
            severity, dice = roll_severity(dealt, rules, rng)
            how = f"d3s {','.join(map(str, dice))} -> Severity {severity}" if dice else "Severity 0"
        else:
            how = f"Severity {severity}"
        if severity > 0 and effect is None:
            effect = roll_effect(rules, rng)
        armour = f"armour {applied}" + (f" ({anti_armor} armor)" if anti_armor != "none" else "")
        if helpless and not indirect:
            armour = "armour ignored (helpless)"
        detail = f"{rolled} - {armour} = {dealt}; {how}" + (f"; {effect}" if severity > 0 else "; no wound")
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, attacker, entity, "severity", rolled, dealt, detail))
        return wound(entity, parts, severity, effect or "", rules, ctx)

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """Direct damage (set-up and tests), as a landed blow applies it.

        Keywords:
            damage: Points of damage, after armour (unless ``indirect``): one d3 each.
            severity: A wound of this Severity instead of rolling the d3s.
            effect: The effect (``weaken`` ... ``bloody``, or its die face 1..6) instead of rolling the d6.
            indirect: The damage is indirect (an explosion): the creature's Armor Value applies even if helpless.
            anti_armor: ``halve`` or ``negate`` (with ``indirect``).

        Raises:
            ValueError: Neither damage nor severity, a negative value, an unknown effect or keyword.
        """
        unknown = set(kwargs) - {"damage", "severity", "effect", "indirect", "anti_armor"}
        if unknown:
            raise ValueError(f"the severity model inflicts damage=, severity=, effect=, indirect=, anti_armor=; "
                             f"not {', '.join(sorted(unknown))}")
        damage, severity, effect = kwargs.get("damage"), kwargs.get("severity"), kwargs.get("effect")
        if (damage is None) == (severity is None):
            raise ValueError("the severity model inflicts damage=N (d3s rolled) or severity=S (and effect=)")
        value = damage if damage is not None else severity
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"damage and severity are whole numbers >= 0, not {value!r}")
        if isinstance(effect, int) and not isinstance(effect, bool):
            if not 1 <= effect <= len(self.rules.effects):
                raise ValueError(f"effect die faces are 1..{len(self.rules.effects)}, not {effect}")
            effect = self.rules.effects[effect - 1]
        if effect is not None and effect not in EFFECTS:
            raise ValueError(f"unknown wound effect {effect!r}; known: {', '.join(EFFECTS)}")
        anti_armor = str(kwargs.get("anti_armor", "none"))
        if anti_armor not in ("none", "halve", "negate"):
            raise ValueError(f"anti_armor is none, halve or negate, not {anti_armor!r}")
        indirect = bool(kwargs.get("indirect", False))
        if me[5].dead:
            return
        state = state_of(entity)
        armor_value = state.armor_value if indirect else 0
        self._damage(entity, me, value if damage is not None else 0, armor_value, anti_armor, False, indirect, ctx,
                     ctx.streams["injury"], severity=severity, effect=effect)

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """Label (unhurt, wounded, stunned, incapacitated, fainted, dead), Threshold as the number, the effects as
        the band, and the derived values as conditions."""
        state = state_of(entity)
        rules = self.rules
        cond, shock = me[5], me[4]
        word = label(state, cond)
        level = {"dead": "dead", "fainted": "incapacitated", "incapacitated": "incapacitated",
                 "stunned": "stunned"}.get(word, "none")
        conditions: list[str] = []
        if not cond.dead:
            for name in ("brawn", "poise", "wit"):
                if damage_of(state, name):
                    conditions.append(f"{name} {attribute(state, name)} (of {getattr(state, name)})")
            if state.slow:
                conditions.append(f"speed {attribute(state, 'speed')} (of {state.speed})")
            if state.stun:
                conditions.append(f"stunned: {state.stun} turn{'s' if state.stun != 1 else ''}")
            if state.bloody:
                conditions.append(f"bloody: threshold -{state.bloody}")
            pool = cognition_pool(attribute(state, "wit"), rules)
            if state.daze or state.cognition < pool:
                conditions.append(f"cognition {state.cognition}/{pool}")
            if threshold(state) == 0:
                conditions.append("threshold 0: the next wound is lethal")
        return Readout(not cond.dead, can_act(cond, shock), word, 0 if cond.dead else threshold(state),
                       effects_text(state), level, tuple(conditions))

    def advance(self, ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any) -> None:
        """Out of combat: stun wears off, first aid, rest healing (tripled with a doctor), coming round, exposure."""
        advance_severity(ctx, creatures, seconds, care, self.rules)

