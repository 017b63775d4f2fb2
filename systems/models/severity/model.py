"""The severity model's binding: ``SeverityModel`` plugs the severity rules into the damage-model interface.

The rules are in ``rules`` (pure functions), the attack record in ``record``, the readings in ``readout``, and the
care over time (first aid, rest, the turn processor and the out-of-combat advance) in ``care``. This module holds
the ``DamageModel`` subclass and ``wound``, which applies a wound to a creature of the world (down or dead,
logged). The model's tables and its state component are in ``sandbox.components.models.severity``, its saved-state
check in ``state`` and its TOML reader in ``tables``. The rules as implemented: ``docs/models/severity.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import cast

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import DamageDealt
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.models.severity import ANTI_ARMOR, EFFECTS, SeverityRules, SeverityState, SeverityWeapon
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import Readout
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature, able
from sandbox.systems.d20 import d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, check_aim, check_living, register
from sandbox.systems.dice import roll_dice
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.severity.care import SeverityTurnProcessor, advance_severity, give_first_aid, needs_aid
from sandbox.systems.models.severity.placed import place_wound
from sandbox.systems.models.severity.preview import preview_blow
from sandbox.systems.models.severity.readout import effect_readings, effects_text, label
from sandbox.systems.models.severity.record import MODEL, SeverityAttack, _changed
from sandbox.systems.models.severity.rules import (
    WoundResult,
    apply_wound,
    attack_bonus,
    attribute,
    cognition_pool,
    damage_of,
    defense,
    full_threshold,
    resolve_damage,
    severity_state,
    threshold,
)
from sandbox.systems.models.severity.state import check_saved_state
from sandbox.systems.models.severity.time_fields import shift_times as shift_state_times
from sandbox.systems.phases import Phase
from sandbox.systems.placement import Placer
from sandbox.systems.time_shift import TimeShift

__all__ = ["SeverityModel", "wound"]

# ---------------------------------------------------------------------------------------- applying to a world


def wound(creature: Creature, severity: int, effect: str, rules: SeverityRules, ctx: TickContext,
          location: int = MISS) -> WoundResult:
    """Apply a wound to a creature of the world: the effect, then down (incapacitated, fainted) or dead, logged.

    A wound restarts the care after a fight: first aid is due again, and rest starts over. ``location`` is where the
    blow struck (``MISS``: nowhere given), kept for the readout (``placed``); it changes nothing the rules decide.
    """
    state = severity_state(creature)
    cond = creature.condition
    entity = creature.entity
    was = label(state, cond)
    result = apply_wound(state, severity, effect, rules)
    if result.outcome == "none":
        return result
    place_wound(state, result.effect, location, result.applied)
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
    now = label(state, cond)
    if now != was:
        _changed(ctx, entity, "state", was, now)
    return result


# ------------------------------------------------------------------------------------------------- the model


@register
class SeverityModel(DamageModel):
    """Document 001: Severity from d3s, stacking wound effects, Threshold, first aid and rest.

    Args:
        tables: The model's ``SeverityRules`` (``configs/models/severity.toml``).
    """

    name = MODEL
    own_turns = True

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """The state with every game time moved by ``shift`` (``sandbox.systems.models.severity.time_fields``)."""
        return shift_state_times(components, shift)

    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``SeverityState`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, SeverityState):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, SeverityRules):
            raise ModelError("the severity model needs its tables (sandbox.models.build_model('severity', catalog))")
        super().__init__(tables)
        self.rules: SeverityRules = tables
        self._placer = Placer()

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """One ``SeverityState`` per creature."""
        return (SeverityState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The creature's block, with ``attributes`` overriding it; worn armour adds its Armor Value.

        The attributes it reads: ``brawn``, ``poise``, ``wit``, ``speed``, ``threshold`` (racial base),
        ``attack_bonus``, ``defense``, ``armor_value``, ``first_aid``. Worn armour adds its Armor Value to the
        natural one.

        Raises:
            ModelError: The creature has no severity block.
        """
        block = self.rules.creatures.get(kind.id)
        if block is None:
            raise ModelError(f"creature {kind.id!r} has no block in configs/models/severity.toml; its blocks: "
                             f"{', '.join(sorted(self.rules.creatures))}")

        def pick(name: str, default: int) -> int:
            return int(attributes.get(name, default))

        first_aid_bonus = attributes.get("first_aid", block.first_aid)
        worn = sum(self.rules.armor.get(p.id, 0) for p in armor)
        state = SeverityState(
            threshold_base=pick("threshold", block.threshold), brawn=pick("brawn", block.brawn),
            poise=pick("poise", block.poise), wit=pick("wit", block.wit), speed=pick("speed", block.speed),
            attack_bonus=pick("attack_bonus", block.attack_bonus), defense=pick("defense", block.defense),
            armor_value=pick("armor_value", block.armor_value) + worn,
            first_aid=None if first_aid_bonus is None else int(first_aid_bonus))
        state.cognition = cognition_pool(state.wit, self.rules)
        return (state,)

    # ------------------------------------------------------------------ the loop's questions

    def speed_factor(self, creature: Creature, ctx: TickContext) -> float:
        """Speed left / Speed (Slow lowers Speed; at Speed 0 the creature cannot walk)."""
        state = severity_state(creature)
        return attribute(state, "speed") / state.speed if state.speed > 0 else 1.0

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Threshold now (0 when dead)."""
        return 0 if creature.condition.dead else threshold(severity_state(creature))

    def items(self) -> Collection[str]:
        """The first-aid items (medicine, equipment) the tables give an effect (``[items]``)."""
        return tuple(self.rules.items)

    def turn_action(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                    ctx: TickContext, *, threatened: bool = False) -> TurnAction | None:
        """First aid in combat, for a bleeding (Bloody) or fainted team-mate within reach, or itself.

        A creature with a first-aid bonus gives it to a team-mate within ``first_aid.reach`` metres, or itself, who
        is bleeding (Bloody) or fainted: a fainted one first, then the most Bloody, then another before itself, then
        the lowest entity. ``None`` when an enemy is within its reach, it cannot give first aid or nobody needs it.
        """
        if threatened or severity_state(creature).first_aid is None:
            return None
        patients = [c for c in near(self.rules.aid_reach) if needs_aid(c)]
        if not patients:
            return None
        patient = min(patients, key=lambda c: (severity_state(c).down != "fainted", -severity_state(c).bloody,
                                               c.entity == creature.entity, c.entity))
        return TurnAction("first aid", patient.entity)

    def turn_options(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                     ctx: TickContext, *, threatened: bool = False) -> list[TurnAction]:
        """First aid for each team-mate within reach (or itself) who needs it, by entity, under ``turn_action``'s rules.

        None when an enemy is within its reach or it cannot give first aid.
        """
        if threatened or severity_state(creature).first_aid is None:
            return []
        return [TurnAction("first aid", c.entity) for c in near(self.rules.aid_reach) if needs_aid(c)]

    def turn_lost(self, creature: Creature) -> str:
        """A stunned creature loses its next turn (one turn of stun is spent on it), unless it is down already."""
        state = severity_state(creature)
        return "it is stunned" if state.stun > 0 and not state.down else ""

    def act(self, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
        """Give the first aid chosen, if the patient still needs it (one tended earlier this tick may not).

        The patient was within reach when the turn began; one able to walk may have moved since, in the same turn.
        """
        patient = ctx.creatures().get(action.patient)
        if patient is None or not needs_aid(patient):
            return
        give_first_aid(creature, patient, self.rules, ctx, in_combat=True)

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The turn processor (stun, rest interrupted, coming round)."""
        return [(Phase.INTENT, SeverityTurnProcessor(ctx, self.rules))]

    def _weapon(self, mode: StrikeMode) -> SeverityWeapon:
        weapon = self.rules.weapons.get(mode.id)
        if weapon is None:
            raise ModelError(f"strike mode {mode.id!r} has no entry in configs/models/severity.toml")
        return weapon

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> SeverityAttack:
        """The d20 roll against Defense; when it lands, the weapon's damage through armour becomes a wound.

        A target that cannot defend is hit whatever the roll (the helpless rule, when ``helpless_hits``) and its
        armour is ignored unless the damage is indirect. A creature with no body to strike (a spirit) is missed.
        The record is logged before the wound is applied, so the wound's events follow it.

        Raises:
            ModelError: The strike mode has no entry in the model's tables.
        """
        return self._attack(attacker, target, mode, "unaimed", ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, aim: str,
                ctx: TickContext) -> SeverityAttack:
        rules = self.rules
        clock = ctx.clock
        mine, theirs = severity_state(attacker), severity_state(target)
        helpless = not able(target)
        roll = d20_attack(attack_bonus(mine, mode.kind, rules), defense(theirs, rules), ctx.streams["attack"])
        hit = roll.hit or (helpless and rules.helpless_hits)
        record = SeverityAttack(clock.tick, clock.time, attacker.entity, target.entity, mode, aim, roll, hit,
                                helpless)
        if hit:
            self._blow(record, target, mode, ctx)
        else:
            ctx.log.append(record)
        return record

    def _blow(self, record: SeverityAttack, target: Creature, mode: StrikeMode, ctx: TickContext) -> None:
        """A blow that hit: the damage through armour becomes a wound (the record is logged first)."""
        if not self.can_be_struck(target):
            record.off_body = True
            ctx.log.append(record)
            return
        rules = self.rules
        weapon = record.weapon = self._weapon(mode)
        rng = ctx.streams["injury"]
        rolled = max(0, roll_dice(weapon.damage, rng))
        damage = record.damage = resolve_damage(rolled, severity_state(target).armor_value, weapon.anti_armor,
                                                rules, rng, helpless=record.helpless, indirect=weapon.indirect)
        ctx.log.append(record)
        location = self._placer.place(target.anatomy.body, record.aim, ctx.streams["location"]) \
            if damage.severity > 0 else MISS
        record.wound = wound(target, damage.severity, damage.effect, rules, ctx, location)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack (its d20 roll may miss), or (no attacker) a blow that lands.

        A blow that lands: the mode's damage dice through the target's armour (ignored when it cannot defend,
        unless the damage is indirect), the Severity dice, the effect and what the wound does. The aim changes no
        roll: the wound is placed where the blow struck (the aimed location, a location of the aimed part, or the
        unaimed draw), which the readout names.

        Raises:
            ModelError: An aim the target's body does not have, a dead target or attacker, or a strike mode with
                no entry in the model's tables.
        """
        check_aim(target.anatomy.body, aim)
        check_living(target, attacker)
        if attacker is not None:
            self._attack(attacker, target, mode, aim, ctx)
            return
        clock = ctx.clock
        record = SeverityAttack(clock.tick, clock.time, -1, target.entity, mode, aim, None, True, not able(target))
        self._blow(record, target, mode, ctx)

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike`` (``sandbox.systems.models.severity.preview``).

        Raises:
            ModelError: An aim the target's body does not have, a dead target or attacker, or a strike mode with
                no entry in the model's tables (against a target it could strike).
        """
        check_aim(target.anatomy.body, aim)
        check_living(target, attacker)
        weapon = self._weapon(mode) if self.can_be_struck(target) else None
        return preview_blow(self.rules, target, mode, aim, weapon, attacker)

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """Direct damage (set-up and tests), as a landed blow applies it; a dead creature takes none.

        Keywords:
            damage: Points of damage, after armour (unless ``indirect``): one d3 each.
            severity: A wound of this Severity instead of rolling the d3s.
            effect: The effect (``weaken`` ... ``bloody``, or its die face 1..6) instead of rolling the d6.
            indirect: The damage is indirect (an explosion): the creature's Armor Value applies even if helpless.
            anti_armor: ``halve`` or ``negate`` (with ``indirect``).
            location: Where the wound is (a location, or a part: one of its locations by weight), for the readout;
                without one the wound has no place (its readings say ``UNPLACED``).

        Raises:
            ModelError: Neither damage nor severity, a negative value, an unknown effect, keyword or location.
        """
        unknown = set(options) - {"damage", "severity", "effect", "indirect", "anti_armor", "location"}
        if unknown:
            raise ModelError(f"the severity model inflicts damage=, severity=, effect=, indirect=, anti_armor=, "
                             f"location=; not {', '.join(sorted(unknown))}")
        where = options.get("location")
        if where is not None and not isinstance(where, str):
            raise ModelError(f"location is the name of a location or part, not {where!r}")
        body = creature.anatomy.body
        if where is not None:
            check_aim(body, where)
        damage, severity, effect = options.get("damage"), options.get("severity"), options.get("effect")
        if (damage is None) == (severity is None):
            raise ModelError("the severity model inflicts damage=N (d3s rolled) or severity=S (and effect=)")
        value = damage if damage is not None else severity
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ModelError(f"damage and severity are whole numbers >= 0, not {value!r}")
        rules = self.rules
        if isinstance(effect, int) and not isinstance(effect, bool):
            if not 1 <= effect <= len(rules.effects):
                raise ModelError(f"effect die faces are 1..{len(rules.effects)}, not {effect}")
            effect = rules.effects[effect - 1]
        if effect is not None and effect not in EFFECTS:
            raise ModelError(f"unknown wound effect {effect!r}; known: {', '.join(EFFECTS)}")
        anti_armor = str(options.get("anti_armor", "none"))
        if anti_armor not in ANTI_ARMOR:
            raise ModelError(f"anti_armor is {', '.join(ANTI_ARMOR)}, not {anti_armor!r}")
        indirect = bool(options.get("indirect", False))
        if creature.condition.dead:
            return
        state = severity_state(creature)
        given = cast(int, severity) if damage is None else None
        result = resolve_damage(value if damage is not None else 0, state.armor_value if indirect else 0, anti_armor,
                                rules, ctx.streams["injury"], indirect=indirect, severity=given,
                                effect=effect)
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, creature.entity, MODEL, result.rolled, result.dealt,
                             result.detail()))
        location = MISS if where is None or result.severity <= 0 else \
            self._placer.place(body, where, ctx.streams["location"])
        wound(creature, result.severity, result.effect, rules, ctx, location)

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """The label, Threshold as the number, the effects, the derived values and the creature's numbers.

        The label is unhurt, wounded, stunned, incapacitated, fainted or dead; the effects are the band and the
        wounds (at the locations struck), the derived values the conditions, and the creature's numbers the details.
        The health fraction is Threshold now over Threshold unhurt; any untreated effect reads at least hurt.
        """
        state = severity_state(creature)
        rules = self.rules
        cond = creature.condition
        word = label(state, cond)
        level = {"dead": "dead", "fainted": "incapacitated", "incapacitated": "incapacitated",
                 "stunned": "stunned"}.get(word, "none")
        conditions: list[str] = []
        pool = cognition_pool(attribute(state, "wit"), rules)
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
            if state.daze or state.cognition < pool:
                conditions.append(f"cognition {state.cognition}/{pool}")
            if threshold(state) == 0:
                conditions.append("threshold 0: the next wound is lethal")
        alive, can_act = not cond.dead, able(creature)
        health, most = 0 if cond.dead else threshold(state), full_threshold(state)
        fraction = health_fraction(health, most, alive=alive)
        return Readout(alive, can_act, word, health, effects_text(state), level, tuple(conditions),
                       effect_readings(state, creature.anatomy.body), self.part_readings(creature),
                       self._details(state, pool), health_max=most, health_fraction=fraction,
                       tier=grade(fraction, rules.health_tiers, alive=alive, can_act=can_act,
                                  wounded=state.effect_points > 0))

    def _details(self, state: SeverityState, pool: int) -> tuple[tuple[str, str], ...]:
        rules = self.rules
        attack = ", ".join(f"{kind} {attack_bonus(state, kind, rules):+d}" for kind in rules.attack_attribute)
        details = [
            ("threshold", f"{threshold(state)} of {full_threshold(state)} (racial base {state.threshold_base} + "
                          f"Brawn {attribute(state, 'brawn')}" + (f" - Bloody {state.bloody}" if state.bloody else "")
             + ")"),
            *((name.lower(), f"{attribute(state, name)} of {getattr(state, name)}")
              for name in ("brawn", "poise", "wit", "speed")),
            ("cognition points", f"{state.cognition} of {pool}"),
            ("attack bonus", f"{state.attack_bonus:+d} unhurt; now {attack}" if attack else f"{state.attack_bonus:+d}"),
            ("defense", f"{defense(state, rules)} of {state.defense}"),
            ("armor value", str(state.armor_value)),
            ("first aid", "none" if state.first_aid is None else f"{state.first_aid:+d}"),
            ("wounds taken", f"{state.wounds}" + (f", the worst of Severity {state.worst}" if state.wounds else "")),
        ]
        if state.down:
            details.append(("down", f"{state.down} since {state.down_since:g} s"))
        return tuple(details)

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """No effect below 0, out of the fight exactly while down, Cognition Points within the pool.

        A living creature is out of the fight exactly while it is down (incapacitated or fainted); its usable
        Cognition Points are within its pool.
        """
        state = severity_state(creature)
        cond = creature.condition
        who = f"{creature.name} ({creature.entity})"
        breaches = [f"{who} has {name} {getattr(state, name)}" for name in EFFECTS if getattr(state, name) < 0]
        if state.down not in ("", "incapacitated", "fainted"):
            breaches.append(f"{who} is down as {state.down!r}, not incapacitated or fainted")
        if not cond.dead and cond.out != bool(state.down):
            breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while "
                            f"{state.down or 'not down'}")
        pool = cognition_pool(attribute(state, "wit"), self.rules)
        if not 0 <= state.cognition <= pool:
            breaches.append(f"{who} has {state.cognition} Cognition Points, outside its pool 0..{pool}")
        return breaches

    # ------------------------------------------------------------------ out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Out of combat: stun wears off, first aid, rest healing, coming round, exposure.

        Rest heals three times as fast with a doctor (``sandbox.systems.models.severity.care.advance_severity``).
        """
        advance_severity(ctx, seconds, care, self.rules)
