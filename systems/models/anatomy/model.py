"""The anatomy model (document 000): hit location, injury, bleeding, shock, impairment and health.

Its rules live in the rule modules of ``systems`` (``hit_location``, ``injury``, ``shock``, ``mishaps``, ``impairment``,
``health``, ``blow``, ``damage``, ``aftercare``, ``recovery``); this module plugs them into the damage-model interface.
Its state is two components only a creature under this model carries: ``Injury`` (its wounds) and ``Shock``, bound
together in an ``AnatomyState`` (``sandbox.systems.models.anatomy.state``). The attack and its record are in
``sandbox.systems.models.anatomy.record``, the out-of-combat ``advance`` in ``sandbox.systems.models.anatomy.care``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import esper

from sandbox.components.body import ASPECTS, Aspect, BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.codec import JSON, dump_fields
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.impairment import Impairment
from sandbox.components.log import LogEntry
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import AftermathRow, PartReading, Readout, WoundReading
from sandbox.components.rules import LEVEL_CODES, LEVEL_WORDS, AnatomyRules, InjuryLevel, ShockState
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import DAY, DamageModel, ModelError, check_living, register
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.systems.hit_location import aimed_part, target_zone_number
from sandbox.systems.models.anatomy.aftercare import BleedingProcessor
from sandbox.systems.models.anatomy.blow import resolve_blow, roll_impact
from sandbox.systems.models.anatomy.care import advance as advance_out_of_combat
from sandbox.systems.models.anatomy.damage import DamageProcessor, apply_blow, inflict, refresh_status
from sandbox.systems.models.anatomy.health import HEALTH_MAX, band, health, health_ceiling
from sandbox.systems.models.anatomy.impairment import body_impairments
from sandbox.systems.models.anatomy.mastery import effective_ml
from sandbox.systems.models.anatomy.preview import preview_blow
from sandbox.systems.models.anatomy.record import AttackRecord, attack_ml, opposed, stunned
from sandbox.systems.models.anatomy.recovery import RecoveryProcessor
from sandbox.systems.models.anatomy.state import AnatomyState, anatomy_state
from sandbox.systems.models.anatomy.targets import CompiledTargets, target_profile
from sandbox.systems.models.anatomy.time_fields import shift_times as shift_state_times
from sandbox.systems.phases import Phase
from sandbox.systems.saved import (
    LARGEST,
    index,
    need,
    number,
    past_time,
    past_time_or_never,
    time_or_never,
    typed_fields,
)
from sandbox.systems.strike import is_off_hand
from sandbox.systems.time_shift import TimeShift

__all__ = ["DEFAULT_MODEL", "AnatomyModel", "state_label"]

DEFAULT_MODEL = "anatomy"
"""The model a world runs when none is named."""


def state_label(dead: bool, health_band: str, shock: ShockState) -> str:
    """The readout's label.

    The model's own words, lower case: the health band, and the shock state when there is one ("fair, stunned"), or
    "dead".
    """
    if dead:
        return "dead"
    if shock is not ShockState.NONE:
        return f"{health_band.lower()}, {shock.label}"
    return health_band.lower()


@register
class AnatomyModel(DamageModel):
    """Document 000: wounds at named locations, shock, bleeding, impairment, a health ceiling.

    Args:
        tables: The anatomy rule tables (``configs/models/anatomy.toml``; ``Catalog.rules``).
    """

    readout_counts_down = False  # only a logged event changes its readouts (tests/test_readout_cache.py)

    name = "anatomy"

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, AnatomyRules):
            raise ModelError("the anatomy model needs its tables (sandbox.models.build_model('anatomy', catalog))")
        super().__init__(tables)
        self.rules: AnatomyRules = tables
        self.compiled: CompiledTargets = {}

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """``Injury`` and ``Shock``."""
        return (Injury, Shock)

    def bind(self, components: Sequence[object]) -> object:
        """An ``AnatomyState``."""
        injury, shock = components
        return AnatomyState(cast(Injury, injury), cast(Shock, shock))

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """An unhurt creature (its body's permanent impairments already on its parts, and in its health)."""
        injury = Injury()
        injury.impairments = body_impairments(body, injury, self.rules)
        injury.health = health(health_ceiling(body, injury.impairments, self.rules), True, self.rules)
        injury.dirty = False
        return injury, Shock()

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """The state with every game time moved by ``shift`` (``sandbox.systems.models.anatomy.time_fields``)."""
        return shift_state_times(components, shift)

    def dump_state(self, creature: Creature) -> dict[str, JSON]:
        """``Injury`` (its wounds as tables; no caches) and ``Shock``."""
        injury, shock = anatomy_state(creature)
        data = dump_fields(injury, skip=("wounds", "levels", "impairments", "dirty", "dirty_parts", "profile",
                                         "penalties"))
        data["wounds"] = [dump_fields(w) for w in injury.wounds]
        return {"Injury": data, "Shock": {"state": int(shock.state), "since": shock.since,
                                          "retest_at": shock.retest_at}}

    def load_state(self, data: Mapping[str, JSON], kind: CreatureDef, body: BodyStructure,
                   armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The inverse of ``dump_state``.

        Impairments are recomputed from the wounds, and the saved health must be what they leave (or 0, dead).

        Raises:
            ModelError: Not the anatomy model's two components.
            StateError: A field missing, unknown or of the wrong type, or a value out of reach: a wound at no
                location of the body or at no injury level, a part or location index out of range, a health the
                wounds do not give (the message names the key).
        """
        if set(data) != {"Injury", "Shock"}:
            raise ModelError(f"anatomy state holds Injury and Shock, not {', '.join(sorted(data)) or 'nothing'}")
        raw = data["Injury"]
        need(isinstance(raw, dict) and isinstance(raw.get("wounds"), list), "Injury", "a table with its wounds",
             raw)
        assert isinstance(raw, dict)
        wounds = [Wound(**_checked_wound(w, f"Injury.wounds#{i + 1}", body)) for i, w in enumerate(raw["wounds"])]
        injury = Injury(wounds=wounds, **_checked_injury({k: v for k, v in raw.items() if k != "wounds"}, body))
        injury.reindex()
        injury.impairments = body_impairments(body, injury, self.rules)
        injury.dirty = False
        whole = health(health_ceiling(body, injury.impairments, self.rules), True, self.rules)
        need(injury.health in (0, whole), "Injury.health", f"{whole} (what its wounds leave) or 0 (dead)",
             injury.health)
        s = data["Shock"]
        shock = Shock(**typed_fields(Shock, s if isinstance(s, dict) else {}, "Shock"))
        number("Shock.since", shock.since, -LARGEST, LARGEST, whole=True)  # before 0: carried in
        time_or_never("Shock.retest_at", shock.retest_at)
        return injury, shock

    # ------------------------------------------------------------------ the loop's questions

    def part_states(self, creature: Creature) -> tuple[Impairment, ...]:
        """Each part's impairment from its wounds."""
        state: AnatomyState = creature.state  # type: ignore[assignment]  # hot path: every creature, every tick
        injury = state.injury
        if not injury.impairments:
            injury.impairments = body_impairments(creature.anatomy.body, injury, self.rules)
        return injury.impairments

    def speed_factor(self, creature: Creature, ctx: TickContext) -> float:
        """A stunned creature moves at the stunned factor (movement is Difficult)."""
        return ctx.combat.stunned_speed_factor if stunned(anatomy_state(creature).shock.state) else 1.0

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Health percent."""
        return cast(AnatomyState, creature.state).injury.health

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """Damage settling, bleeding and course tests, shock re-tests."""
        return [(Phase.DAMAGE, DamageProcessor(ctx, self.rules)), (Phase.EFFECTS, BleedingProcessor(ctx, self.rules)),
                (Phase.RECOVERY, RecoveryProcessor(ctx, self.rules))]

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> LogEntry | None:
        """The opposed d100 test and, when it lands, the blow resolved and applied at once."""
        comb = attacker.combatant
        return self._attack(attacker, target, mode, parts, comb.aim if comb.aim_zone else "unaimed", comb.aim_zone,
                            ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...], aim: str,
                aim_zone: int, ctx: TickContext) -> AttackRecord:
        rules = self.rules
        combat = ctx.combat
        me: AnatomyState = attacker.state  # type: ignore[assignment]  # hot path: no cast() call
        foe: AnatomyState = target.state  # type: ignore[assignment]
        f_cond = target.condition
        a_ml = attack_ml(attacker.anatomy, me.injury.impairments, mode, parts, me.injury.fatigue)
        defends = (not f_cond.dead and not f_cond.out) or combat.helpless_defence
        defence_ml = effective_ml(target.anatomy, foe.injury, combat.defence_skill, ctx.skills, 0,
                                  f_cond.immobilized) if defends else None
        attack_drop = combat.stunned_level_drop if me.shock.state is ShockState.STUNNED else 0
        defence_drop = combat.stunned_level_drop if foe.shock.state is ShockState.STUNNED else 0
        result, defence, landed = opposed(a_ml, defence_ml, defends, ctx.streams["attack"], rules.tests, attack_drop,
                                          defence_drop)
        blow = None
        if landed:
            gripping = [p for p, item in attacker.equipment.holding.items() if item == mode.weapon]
            off = is_off_hand(attacker.anatomy.body, gripping, attacker.anatomy.kind.dominance)
            rng = ctx.streams["injury"]
            impact = roll_impact(mode, attacker.anatomy.attributes.get("strength"), rules, rng, off_hand=off)
            profile = target_profile(target.anatomy, foe.injury, target.armor, rules, ctx.skills, self.compiled)
            blow = resolve_blow(profile, impact, mode.aspect, rng, aim=aim_zone or None, spread=mode.spread)
        clock = ctx.clock
        record = AttackRecord(clock.tick, clock.time, attacker.entity, target.entity, mode, aim, aim_zone, a_ml,
                              result, defence_ml, defence, landed, blow, target.anatomy.body, target.armor.pieces,
                              rules)
        ctx.log.append(record)
        if blow is not None and not blow.missed:
            apply_blow(target.entity, target.anatomy, foe.injury, foe.shock, f_cond, target.equipment, blow, rules, ctx)
        return record

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack, or (no attacker) a blow that lands.

        The mode's impact dice (no Strength modifier), hit location by the aim, protection, level and every consequence.
        """
        body = target.anatomy.body
        zone = _aim_zone(body, aim)
        if attacker is not None:
            from sandbox.systems.combat import ready_parts

            parts = ready_parts(attacker.anatomy, self.part_states(attacker), attacker.condition, attacker.equipment,
                                mode) or ()
            self._attack(attacker, target, mode, parts, aim, zone, ctx)
        else:
            rules = self.rules
            foe = cast(AnatomyState, target.state)
            rng = ctx.streams["injury"]
            impact = roll_impact(mode, None, rules, rng)
            profile = target_profile(target.anatomy, foe.injury, target.armor, rules, ctx.skills, self.compiled)
            blow = resolve_blow(profile, impact, mode.aspect, rng, aim=zone or None, spread=mode.spread)
            clock = ctx.clock
            ctx.log.append(AttackRecord(clock.tick, clock.time, -1, target.entity, mode, aim, zone, None, None, None,
                                        None, True, blow, body, target.armor.pieces, rules))
            if not blow.missed:
                apply_blow(target.entity, target.anatomy, foe.injury, foe.shock, target.condition, target.equipment,
                           blow, rules, ctx)
        self.settle(target, ctx)

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike`` (``sandbox.systems.models.anatomy.preview``): the opposed test, then the blow.

        Raises:
            ModelError: An aim the target's body does not have, or a dead attacker or target.
        """
        zone = _aim_zone(target.anatomy.body, aim)
        check_living(target, attacker)
        parts: tuple[int, ...] = ()
        if attacker is not None:
            from sandbox.systems.combat import ready_parts

            parts = ready_parts(attacker.anatomy, self.part_states(attacker), attacker.condition, attacker.equipment,
                                mode) or ()
        return preview_blow(self.rules, self.compiled, target, mode, aim, zone, ctx, attacker, parts)

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """``location=`` (a name), ``level=`` (1..5 or a code: ``S3``) and ``aspect=`` (a name; default blunt).

        A wound recorded directly, with no shock or bleeding roll.

        Raises:
            ModelError: A missing or unknown location, level, aspect or option.
        """
        unknown = set(options) - {"location", "level", "aspect"}
        if unknown:
            raise ModelError(f"the anatomy model inflicts location=, level= and aspect=; not "
                             f"{', '.join(sorted(unknown))}")
        location, level = options.get("location"), options.get("level")
        if location is None or level is None:
            raise ModelError("the anatomy model inflicts location=, level= and aspect=")
        body = creature.anatomy.body
        try:
            loc = body.location_index(str(location))
        except KeyError:
            raise ModelError(f"{body.name} has no location {location!r}; its locations: "
                             f"{', '.join(x.name for x in body.locations)}") from None
        if not isinstance(level, int | str):
            raise ModelError(f"level must be 1..5 or one of {', '.join(LEVEL_CODES[1:])}, not {level!r}")
        try:
            lv = InjuryLevel.parse(level)
            aspect = Aspect.parse(str(options.get("aspect", "blunt")))
        except ValueError as exc:
            raise ModelError(str(exc)) from None
        state = cast(AnatomyState, creature.state)
        inflict(creature.entity, creature.anatomy, state.injury, creature.condition, creature.equipment, loc,
                int(lv), int(aspect), self.rules, ctx)

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Recompute impairment and health from the wounds, and whether the creature is out of the fight.

        Whether it is out comes from its shock state. For use after either was edited by hand.
        """
        injury, shock = cast(AnatomyState, creature.state)
        if not creature.condition.dead:
            creature.condition.out = shock.state >= ShockState.INCAPACITATED
        injury.touch()
        refresh_status(creature.entity, creature.anatomy, injury, creature.condition, creature.equipment, self.rules,
                       ctx)

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """Health percent and band, shock state, the conditions the wounds and gear leave, every open wound.

        Its health fraction is the health percent over 100; any open wound reads at least hurt.
        """
        injury, shock = cast(AnatomyState, creature.state)
        cond, equip, body = creature.condition, creature.equipment, creature.anatomy.body
        health_band = band(injury.health, self.rules)
        conditions: list[str] = []
        if cond.prone and not cond.dead:
            conditions.append("prone")
        if equip.weapons and not equip.holding and not cond.dead:
            conditions.append("disarmed")
        conditions += [f"immobilized: {body.parts[p].name}" for p in sorted(cond.immobilized)]
        conditions += [f"severed: {body.locations[loc].name}" for loc in sorted(injury.severed)]
        if not cond.dead:
            conditions += [f"bleeding: {body.locations[w.location].name}" for w in injury.wounds
                           if w.bleeder and w.level > 0]
            if injury.extended_shock_hr is not None:
                conditions.append(f"extended shock (HR {injury.extended_shock_hr})")
            if injury.coma_hr is not None:
                conditions.append(f"coma (HR {injury.coma_hr})")
        label = state_label(cond.dead, health_band, shock.state)
        details = [("health", f"{injury.health}%"), ("band", health_band), ("shock", shock.state.label)]
        if injury.blood_loss:
            details.append(("blood loss", f"{injury.blood_loss} points"))
        if injury.fatigue:
            details.append(("fatigue", f"-{injury.fatigue} on every test"))
        alive, able_now = not cond.dead, not cond.dead and not cond.out
        wounds = _wound_readings(body, injury)
        fraction = health_fraction(injury.health, HEALTH_MAX, alive=alive)
        return Readout(alive, able_now, label, injury.health, health_band, shock.state.label, tuple(conditions),
                       wounds, self.part_readings(creature), tuple(details), "%",
                       tuple(body.locations[li].name for li in sorted(injury.severed)), HEALTH_MAX, fraction,
                       grade(fraction, self.rules.health_tiers, alive=alive, can_act=able_now, wounded=bool(wounds)))

    def standing(self, creature: Creature, ctx: TickContext) -> tuple[bool, bool, str]:
        """(alive, can act, label) as ``readout`` gives them, with no wound or part readings built."""
        injury, shock = cast(AnatomyState, creature.state)
        dead = creature.condition.dead
        return not dead, not dead and not creature.condition.out, state_label(dead, band(injury.health, self.rules),
                                                                              shock.state)

    def part_readings(self, creature: Creature) -> tuple[PartReading, ...]:
        """Each part's impairment, and whether it has been cut off."""
        injury = cast(AnatomyState, creature.state).injury
        body = creature.anatomy.body
        severed = {body.locations[li].part for li in injury.severed} | injury.unusable_parts
        return tuple(PartReading(p.name, imp.penalty, imp.unusable, i in severed)
                     for i, (p, imp) in enumerate(zip(body.parts, self.part_states(creature), strict=True)))

    def aftermath_row(self, creature: Creature, ctx: TickContext, start: float,
                      died_at: float | None) -> AftermathRow:
        """Died (of what, which day) or survived; days until every wound healed; permanent impairment."""
        injury = cast(AnatomyState, creature.state).injury
        cond, body = creature.condition, creature.anatomy.body
        open_wounds = sum(1 for w in injury.wounds if w.level > 0)
        healed = [w.healed_at for w in injury.wounds if w.healed_at != -1]  # before 0: carried in
        healed_day: float | None = None
        if not open_wounds and not cond.dead:
            healed_day = math.ceil(max(0.0, (max(healed) - start) / DAY) * 10) / 10 if healed else 0.0
        permanent = {body.parts[p].name: v for p, v in sorted(injury.permanent_impairment.items()) if v < 0}
        died_day = None if died_at is None else max(0.0, (died_at - start) / DAY)
        return AftermathRow(creature.name, not cond.dead, cond.cause, died_day, healed_day, open_wounds, permanent,
                            injury.health, "%", self.readout(creature, ctx).label)

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """Health 1..100 alive and 0 dead.

        No part better than its permanent floor; parts gone for good are unusable; unusable parts hold nothing; out
        exactly from Incapacitated on.
        """
        injury, shock = cast(AnatomyState, creature.state)
        cond, equip, body = creature.condition, creature.equipment, creature.anatomy.body
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if cond.dead and injury.health != 0:
            breaches.append(f"{who} is dead with health {injury.health}")
        if not cond.dead and not 1 <= injury.health <= 100:
            breaches.append(f"{who} is alive with health {injury.health}")
        if not cond.dead and cond.out != (shock.state >= ShockState.INCAPACITATED):
            breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while {shock.state.label}")
        imps = injury.impairments
        if len(imps) != len(body.parts):
            breaches.append(f"{who} has {len(imps)} part impairments for {len(body.parts)} parts")
            return breaches
        severed_parts = {body.locations[li].part for li in injury.severed}
        for pi, (part, imp) in enumerate(zip(body.parts, imps, strict=True)):
            floor = min(part.permanent_impairment, injury.permanent_impairment.get(pi, 0), 0)
            if imp.penalty > floor:
                breaches.append(f"{who}: {part.name} at {imp.penalty}, better than its permanent floor {floor}")
            if (part.permanently_unusable or pi in injury.unusable_parts or pi in severed_parts) and not imp.unusable:
                breaches.append(f"{who}: {part.name} is gone for good but not unusable")
            if imp.unusable and pi in equip.holding:
                breaches.append(f"{who}: unusable {part.name} still holds {equip.holding[pi]!r}")
        return breaches

    # ------------------------------------------------------------------ out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Run the rules of passing time, each as it falls due (``sandbox.systems.models.anatomy.care``).

        They are bleeding rounds and stoppage, shock re-tests, Extended Shock and Coma courses, first aid and treatment,
        healing periods and infection.
        """
        advance_out_of_combat(self.rules, ctx, seconds, care)


_NOT_SAVED = ("wounds", "levels", "impairments", "dirty", "dirty_parts", "profile", "penalties")
"""The fields of ``Injury`` a save does not hold (the wounds are saved as tables; the rest are caches)."""


def _checked_wound(data: JSON, key: str, body: BodyStructure) -> dict[str, Any]:
    """A saved wound's fields, each within what the rules can give (``level`` 0 or less: healed)."""
    need(isinstance(data, dict), key, "a wound's table", data)
    w = typed_fields(Wound, data, key)
    index(f"{key}.location", w["location"], len(body.locations), "a location of the body")
    number(f"{key}.level", w["level"], -_TOP_LEVEL, _TOP_LEVEL, whole=True)
    number(f"{key}.initial_level", w["initial_level"], 0, _TOP_LEVEL, whole=True)
    index(f"{key}.aspect", w["aspect"], len(ASPECTS), "an aspect")
    for name in ("healing_rate", "infection_hr"):
        if w[name] is not None:
            number(f"{key}.{name}", w[name], -_HEALING_RATE_BOUND, _HEALING_RATE_BOUND, whole=True)
    number(f"{key}.compounded", w["compounded"], 0, LARGEST, whole=True)
    number(f"{key}.stoppage_bonus", w["stoppage_bonus"], -LARGEST, LARGEST, whole=True)
    past_time(f"{key}.received", w["received"])
    for name in ("next_bleed", "next_heal"):
        time_or_never(f"{key}.{name}", w[name])
    past_time_or_never(f"{key}.healed_at", w["healed_at"])
    return w


def _checked_injury(data: Mapping[str, JSON], body: BodyStructure) -> dict[str, Any]:
    """A saved ``Injury``'s fields but its wounds, each within what the rules can give."""
    f = typed_fields(Injury, data, "Injury", skip=_NOT_SAVED)
    for loc in sorted(f["severed"]):
        index("Injury.severed", loc, len(body.locations), "a location of the body")
    for part in sorted(f["unusable_parts"]):
        index("Injury.unusable_parts", part, len(body.parts), "a part of the body")
    for part, penalty in f["permanent_impairment"].items():
        index("Injury.permanent_impairment", part, len(body.parts), "a part of the body")
        number(f"Injury.permanent_impairment.{part}", penalty, -LARGEST, 0, whole=True)
    number("Injury.health", f["health"], 0, 100, whole=True)
    for name in ("blood_loss", "weariness", "fatigue"):
        number(f"Injury.{name}", f[name], 0, LARGEST, whole=True)
    cause = f["shock_cause"]
    if cause is not None:
        assert isinstance(cause, tuple)
        index("Injury.shock_cause#1", cause[0], len(body.locations), "a location of the body")
        number("Injury.shock_cause#2", cause[1], 0, _TOP_LEVEL, whole=True)
    for name in ("extended_shock_hr", "coma_hr"):
        if f[name] is not None:
            number(f"Injury.{name}", f[name], -_HEALING_RATE_BOUND, _HEALING_RATE_BOUND, whole=True)
    past_time_or_never("Injury.coma_since", f["coma_since"])
    for name in ("next_course", "next_coma", "care_at", "tending_until"):
        time_or_never(f"Injury.{name}", f[name])
    return f


_TOP_LEVEL = len(LEVEL_CODES) - 1
"""The highest injury level (G5)."""
_HEALING_RATE_BOUND = 1000
"""The largest Healing Rate a saved wound or course may have, either way (the rules' are 0 to 7, moved by
course tests)."""


def _aim_zone(body: BodyStructure, aim: str) -> int:
    """The zone number an aim names on ``body``.

    0 for ``unaimed``, else the first zone number of the named part's zone (document 000 aims by zone number: a location
    aims at its part's zone).

    Raises:
        ModelError: The body has no such part or location, or its zone owns no zone numbers.
    """
    try:
        part = aimed_part(body, aim)
        return 0 if part is None else target_zone_number(body, part)
    except ValueError as exc:  # no such part or location, or a zone with no zone numbers
        raise ModelError(str(exc)) from None


def _wound_readings(body: BodyStructure, injury: Injury) -> tuple[WoundReading, ...]:
    """Every open wound in names, in the order received."""
    out = []
    for w in injury.wounds:
        if w.level <= 0:
            continue
        loc = body.locations[w.location]
        aspect = ASPECTS[w.aspect]
        words = [f"{LEVEL_CODES[w.level]} {aspect} ({LEVEL_WORDS[w.level]})"]
        if w.bleeder:
            words.append("bleeding")
        words.append("untreated" if w.healing_rate is None else f"HR {w.healing_rate}")
        if w.infection_hr is not None:
            words.append(f"infected (HR {w.infection_hr})")
        out.append(WoundReading(loc.name, body.parts[loc.part].name, LEVEL_CODES[w.level], aspect, w.bleeder,
                                w.healing_rate, w.infection_hr, w.healing_rate is not None, ", ".join(words)))
    return tuple(out)
