"""The strength-health model's binding (document 003): ``StrengthModel``, the ``DamageModel`` the loop asks.

The class answers the interface (``sandbox.systems.damage_model``) and does what only it does: the attack (document
002's d20 roll, as decisions.md rules, then the damage roll and the Armour value), a blow struck from outside the
loop, damage applied directly, what the damage does (``apply_damage``: health, critical damage and incapacitation,
dying, death) and reading a save. The rest it hands to the package's other rooms: the rules (``rules``), the attack
record (``record``), dying, healing, rest and the out-of-combat due loop (``care``), healing items in a fight
(``items``) and what a creature reads as (``readout``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.codec import JSON
from sandbox.components.creature import CreatureDef
from sandbox.components.events import DamageDealt, FellProne
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.models.strength import StrengthHealth, StrengthTables, WeaponDamage, default_tables
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import Readout
from sandbox.systems.conditions import shields_held
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.d20 import d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, check_aim, check_living, register
from sandbox.systems.models.strength import care, items
from sandbox.systems.models.strength.care import StrengthRecoveryProcessor, _changed, _die
from sandbox.systems.models.strength.care import advance as advance_out_of_combat
from sandbox.systems.models.strength.preview import preview_blow
from sandbox.systems.models.strength.readout import invariant_breaches, label_of, readout_of
from sandbox.systems.models.strength.record import StrengthAttack, damage_detail
from sandbox.systems.models.strength.rules import (
    MODEL,
    InjuryEffect,
    _is_int,
    ability_cap,
    after_armor,
    armor_value,
    blow_outcome,
    condition_totals,
    roll_damage,
    spawn_abilities,
    strength_state,
)
from sandbox.systems.models.strength.state import check_saved_state
from sandbox.systems.models.strength.time_fields import shift_times as shift_state_times
from sandbox.systems.phases import Phase
from sandbox.systems.time_shift import TimeShift

__all__ = ["StrengthModel"]


@register
class StrengthModel(DamageModel):
    """Document 003: health equal to STR, critical damage, dying and the Injuries table.

    Args:
        tables: The model's tables (``configs/models/strength.toml``; default: the document's numbers with no
            weapons, armour or creatures).
    """

    readout_counts_down = False  # only a logged event changes its readouts (tests/test_readout_cache.py)

    name = MODEL
    own_turns = True

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """The state with every game time moved by ``shift`` (``sandbox.systems.models.strength.time_fields``)."""
        return shift_state_times(components, shift)

    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``StrengthHealth`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, StrengthHealth):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if tables is None:
            tables = default_tables()
        if not isinstance(tables, StrengthTables):
            raise ModelError("the strength model's tables are a sandbox.components.models.strength.StrengthTables")
        super().__init__(tables)
        self.tables: StrengthTables = tables

    @property
    def t(self) -> StrengthTables:
        """The model's tables, typed."""
        return self.tables

    # -------------------------------------------------------------- state

    def state_types(self) -> tuple[type, ...]:
        """One ``StrengthHealth`` per creature."""
        return (StrengthHealth,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """A creature at full health from its block (and the scenario's attribute overrides).

        Raises:
            ModelError: The tables have no block for the creature.
        """
        t = self.t
        block = t.creatures.get(kind.id)
        if block is None:
            raise ModelError(f"the strength model has no block for creature {kind.id!r}; its blocks: "
                             f"{', '.join(sorted(t.creatures)) or 'none'}")
        cap = ability_cap(block.human, t.ability_max, t.ability_max_human)
        abilities = spawn_abilities(block, kind.attributes, attributes, t.shift_with, cap)
        return (StrengthHealth(dict(abilities), dict(abilities), cap, abilities["STR"], block.attack, block.defense,
                               block.armor),)

    def load_state(self, data: Mapping[str, JSON], kind: CreatureDef, body: BodyStructure,
                   armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The creature's ``StrengthHealth`` from a save (``DamageModel.load_state``).

        A save written before the natural Armour value's field was spelt ``armor`` holds it as ``armour``, read as
        ``armor``.

        Raises:
            ModelError: State of a type the model does not use, or a component missing.
            StateError: A field missing, unknown or of the wrong type, or a value the model could not have reached.
        """
        return super().load_state(_old_armor_key(data), kind, body, armor)

    # -------------------------------------------------------------- the loop's questions

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Health remaining (0 when dead)."""
        return 0 if creature.condition.dead else strength_state(creature).health

    def items(self) -> Collection[str]:
        """The healing items the tables give an effect (``[items]``)."""
        return tuple(self.t.items)

    def armor_of(self, creature: Creature, ctx: TickContext) -> tuple[int, int]:
        """The creature's Armour value now and the part of it its shields give.

        Natural armour, every worn piece, and each shield held ready (by a usable, free hand of a creature able to
        act: ``shields_held``).
        """
        t = self.t
        held = shields_held(creature.equipment, self.part_states(creature), creature.condition, ctx.weapons)
        shield = sum(t.shields.get(s, 0) for s in held)
        return armor_value(strength_state(creature), creature.armor.pieces, t.armor) + shield, shield

    # -------------------------------------------------------------- healing items

    def usable_items(self, creature: Creature) -> list[str]:
        """The healing items the creature carries that the tables give an effect, the most healing first."""
        return care.usable_items(self.t, creature)

    def turn_action(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                    ctx: TickContext, *, threatened: bool = False) -> TurnAction | None:
        """A healing item on a dying team-mate within reach, else on itself when low (``items.turn_action``).

        ``None`` when it carries none or nobody needs one.
        """
        return items.turn_action(self.t, creature, near, threatened=threatened)

    def turn_options(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                     ctx: TickContext, *, threatened: bool = False) -> list[TurnAction]:
        """Each healing item it carries on each patient ``turn_action``'s rules allow (``items.turn_options``)."""
        return items.turn_options(self.t, creature, near, threatened=threatened)

    def act(self, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
        """Use the healing item chosen on the patient, if it still needs it and it is still carried (``items.act``)."""
        items.act(self.t, creature, action, ctx)

    def use_item(self, user: Creature, patient: Creature, item: str, ctx: TickContext,
                 owner: Creature | None = None) -> int:
        """``user`` uses the healing item ``item`` (carried by ``owner``, default the user) on ``patient``.

        See ``care.use_item``.

        Returns:
            The health restored.

        Raises:
            ModelError: An item the tables give no effect, one the owner does not carry, or a dead patient.
        """
        return care.use_item(self.t, user, patient, item, ctx, owner)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """Dying, the stretch's end and rest, by the clock."""
        return [(Phase.RECOVERY, StrengthRecoveryProcessor(ctx, self))]

    # -------------------------------------------------------------- attack

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> StrengthAttack:
        """Document 002's d20 roll (d20 + attack bonus vs Defense, margin >= 1), then the damage, applied at once.

        A landed attack rolls its damage, meets the target's Armour value and does what ``apply_damage`` says; one
        at a creature no blow can reach (``can_be_struck``: a spirit) passes through it, a miss off the body.
        """
        t = self.t
        state = strength_state(attacker)
        f_state = strength_state(target)
        weapon = t.weapons.get(mode.id) or WeaponDamage(4)
        mine = condition_totals(state.conditions, t.conditions)
        bonuses = (("its own", state.attack), ("the weapon", weapon.attack), ("its conditions", mine.attack),
                   ("weapon skill", self.skill_shift(attacker, mode)))
        bonus = sum(n for _, n in bonuses)
        if can_act(target.condition):
            theirs = condition_totals(f_state.conditions, t.conditions).defense
            defenses: tuple[tuple[str, int], ...] = (("its own", f_state.defense),)
            if theirs:
                defenses += (("its conditions", theirs),)
            defense = f_state.defense + theirs
        else:
            defenses = (("defenceless", t.defenceless_defense),)
            defense = t.defenceless_defense
        roll = d20_attack(bonus, defense, ctx.streams["attack"])
        clock = ctx.clock
        record = StrengthAttack(clock.tick, clock.time, attacker.entity, target.entity, mode.id, roll, mode.name,
                                tuple((w, n) for w, n in bonuses if n or w == "its own"), defenses)
        struck = roll.hit and self.can_be_struck(target)
        record.off_body = roll.hit and not struck
        if struck:
            boost = t.natural_20_enhanced if roll.natural == 20 else 0
            self._roll_damage(record, weapon, target, boost, mine.impaired, ctx)
        ctx.log.append(record)
        if struck:
            record.outcome = self.apply_damage(target, record.dealt, ctx, mode.name)
        return record

    def _roll_damage(self, record: StrengthAttack, weapon: WeaponDamage, target: Creature, boost: int,
                     impaired: int, ctx: TickContext) -> None:
        t = self.t
        record.enhanced_by_20 = boost
        record.damage = roll_damage(weapon.die, ctx.streams["injury"], weapon.enhanced + boost,
                                    weapon.impaired + impaired, weapon.bonus, t.explode)
        record.direct = weapon.direct
        record.armor, record.shield = (0, 0) if weapon.direct else self.armor_of(target, ctx)
        record.dealt = after_armor(record.damage.total, record.armor)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack, or (no attacker) a blow that lands.

        A blow that lands (on a creature with a body to strike: else it misses off the body) rolls the mode's damage
        die (exploding, enhanced and impaired as its entry says), less
        armour unless its damage is direct. The model places no blow on the body, so an aim changes nothing.

        Raises:
            ModelError: An aim the target's body does not have.
        """
        check_aim(target.anatomy.body, aim)
        if attacker is not None:
            self.attack(attacker, target, mode, (), ctx)
            return
        weapon = self.t.weapons.get(mode.id) or WeaponDamage(4)
        clock = ctx.clock
        record = StrengthAttack(clock.tick, clock.time, -1, target.entity, mode.id, None, mode.name)
        if not self.can_be_struck(target):  # no body to strike (a spirit): the blow passes through it
            record.off_body = True
            ctx.log.append(record)
            return
        self._roll_damage(record, weapon, target, 0, 0, ctx)
        ctx.log.append(record)
        record.outcome = self.apply_damage(target, record.dealt, ctx, mode.name)

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike`` (``sandbox.systems.models.strength.preview``): the d20, then the damage die.

        Raises:
            ModelError: An aim the target's body does not have, or a dead attacker or target.
        """
        check_aim(target.anatomy.body, aim)
        check_living(target, attacker)
        armor = self.armor_of(target, ctx)[0]
        if attacker is None:
            return preview_blow(self.t, target, mode, aim, armor, strikable=self.can_be_struck(target))
        t = self.t
        state = strength_state(attacker)
        weapon = t.weapons.get(mode.id) or WeaponDamage(4)
        mine = condition_totals(state.conditions, t.conditions)
        bonus = state.attack + weapon.attack + mine.attack + self.skill_shift(attacker, mode)
        f_state = strength_state(target)
        defense = (f_state.defense + condition_totals(f_state.conditions, t.conditions).defense
                   if can_act(target.condition) else t.defenceless_defense)
        return preview_blow(t, target, mode, aim, armor, attacker, bonus=bonus, defense=defense,
                            impaired=mine.impaired, strikable=self.can_be_struck(target))

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """Damage applied directly, as a landed blow applies it.

        ``damage=N``: N points after armour. ``die=6`` (with ``enhanced=``, ``impaired=`` counts, ``bonus=`` and
        ``direct=``): roll that die (exploding, enhanced and impaired as the rules say, on the injury stream),
        then take off the creature's Armour value unless ``direct=True``. ``enhanced`` and ``impaired`` are
        accepted only with ``die``.

        Raises:
            ModelError: Neither or both of ``damage`` and ``die``, a negative amount, modifiers without a die,
                an unknown option.
        """
        unknown = set(options) - {"damage", "die", "enhanced", "impaired", "bonus", "direct"}
        if unknown:
            raise ModelError(f"the strength model inflicts damage= or die= (with enhanced=, impaired=, bonus=, "
                             f"direct=), not {', '.join(sorted(unknown))}")
        damage, die = options.get("damage"), options.get("die")
        if (damage is None) == (die is None):
            raise ModelError("the strength model inflicts damage=N (points after armour) or die=N (a die to roll)")
        entity = creature.entity
        clock = ctx.clock
        if damage is not None:
            if {"enhanced", "impaired", "bonus"} & set(options):
                raise ModelError("enhanced=, impaired= and bonus= go with die= (a die to roll), not damage=")
            if not _is_int(damage) or damage < 0:
                raise ModelError(f"damage must be a whole number of points, 0 or more, not {damage!r}")
            ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, damage, damage, f"{damage} points"))
            self.apply_damage(creature, damage, ctx, "inflicted")
            return
        enhanced, impaired, bonus = options.get("enhanced", 0), options.get("impaired", 0), options.get("bonus", 0)
        if not _is_int(die) or die < 2:
            raise ModelError(f"die must be a die size (4, 6, 8, 10, 12), not {die!r}")
        if not _is_int(enhanced) or enhanced < 0:
            raise ModelError(f"enhanced must be a count, 0 or more, not {enhanced!r}")
        if not _is_int(impaired) or impaired < 0:
            raise ModelError(f"impaired must be a count, 0 or more, not {impaired!r}")
        if not _is_int(bonus):
            raise ModelError(f"bonus must be a whole number, not {bonus!r}")
        roll = roll_damage(die, ctx.streams["injury"], enhanced, impaired, bonus, self.t.explode)
        armor = 0 if options.get("direct", False) else self.armor_of(creature, ctx)[0]
        dealt = after_armor(roll.total, armor)
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, roll.total, dealt,
                             damage_detail(roll, armor, dealt)))
        self.apply_damage(creature, dealt, ctx, "inflicted")

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Apply what the clock decides now: death at the end of the dying round, the end of a finite stretch."""
        care.settle(creature, ctx)

    # -------------------------------------------------------------- reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """What the creature reads as (``readout.readout_of``).

        Label (healthy, hurt, incapacitated, dying, dead), health remaining, band, conditions, what the Injuries
        table left (``wounds``) and the model's numbers (``details``).
        """
        return readout_of(creature, self.t, self.part_readings(creature), self.armor_of(creature, ctx))

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """Alive: health 0..current STR, abilities 1..the cap, out exactly while incapacitated or dying."""
        return invariant_breaches(creature)

    # -------------------------------------------------------------- out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Move time on by ``seconds`` out of combat (``care.advance``).

        The care policy's tender gives every dying creature a healing item, the skirmish's stretch is over, the
        dying left die at the end of their round, a finite stretch ends, and every ``full_rest_hours`` of rest is a
        full rest, each as it falls due in the shared due queue.

        Raises:
            ModelError: A negative span.
        """
        advance_out_of_combat(self.t, ctx, seconds, care)

    # -------------------------------------------------------------- the model's own operations

    def skill_shift(self, creature: Creature, mode: StrikeMode) -> int:
        """Attack bonus from a scenario's override of the creature's weapon skill (``skill_step`` ML a point)."""
        step = self.t.skill_step
        anat = creature.anatomy
        ml, base = anat.mls.get(mode.skill), anat.kind.skills.get(mode.skill)
        if not step or ml is None or base is None:
            return 0
        return int((ml - base) / step)

    def apply_damage(self, creature: Creature, damage: int, ctx: TickContext, cause: str) -> str:
        """Apply ``damage`` points (after armour) to a creature: health, critical damage, dying, death.

        Returns:
            What it did, in words.
        """
        cond = creature.condition
        if cond.dead:
            return "already dead"
        if damage <= 0:
            return "no damage gets through"
        t = self.t
        state = strength_state(creature)
        before_label, before_health = label_of(state, cond), state.health
        state.rested = 0.0
        strength = state.abilities["STR"]
        if state.dying and damage < strength:
            if t.damage_while_dying_kills:
                _die(creature, ctx, f"{cause}: {damage} damage while dying")
                words = f"{damage} damage while dying: dead"
            else:
                words = f"{damage} damage while dying: no further effect"
            _changed(creature, ctx, before_label, before_health)
            return words
        outcome = blow_outcome(damage, state.health, strength, t.critical_ratio)
        state.health = outcome.health
        if outcome.killed:
            _die(creature, ctx, f"{cause}: {damage} damage >= STR {strength}")
            words = f"{damage} damage matches or exceeds STR {strength}: killed on the spot"
        else:
            words = f"health {before_health} -> {outcome.health} of {state.max_health}"
            if outcome.critical:
                self.incapacitate(creature, ctx)
                words += (f"; critical damage (at least half of the {before_health} left, at once): incapacitated "
                          + ("until the end of the skirmish" if state.until is None else f"until {state.until:g} s"))
            if outcome.dying:
                state.dying = True
                state.dying_at = ctx.clock.time + t.dying_rounds * ctx.clock.seconds_per_tick
                words += "; all its health lost: dying, dead at the end of the next round unless healed"
        _changed(creature, ctx, before_label, before_health)
        return words

    def incapacitate(self, creature: Creature, ctx: TickContext) -> None:
        """Critical damage: unable to act and defenceless until the end of the stretch.

        A new critical while incapacitated starts a new stretch.
        """
        state, cond = strength_state(creature), creature.condition
        stretch = self.t.stretch
        if stretch is None:
            state.until = None
        elif not state.incapacitated or state.until is not None:
            state.until = max(state.until or 0.0, ctx.clock.time + stretch)
        state.incapacitated = True
        cond.out = True
        cond.reeling = True
        if not cond.prone:
            cond.prone = True
            ctx.emit(FellProne(ctx.clock.tick, ctx.clock.time, creature.entity, "incapacitated"))

    def recover(self, creature: Creature, ctx: TickContext) -> None:
        """The stretch is over: the creature can act again (a dying one stays out)."""
        care.recover(creature, ctx)

    def heal(self, creature: Creature, ctx: TickContext, points: int) -> None:
        """Restore ``points`` of health (up to current STR; ``care.heal``).

        A dying creature healed by at least 1 is stabilised and rolls on the Injuries table.

        Raises:
            ModelError: A dead creature, or fewer than 1 point.
        """
        care.heal(self.t, creature, ctx, points)

    def roll_injury(self, creature: Creature, ctx: TickContext, roll: int | None = None) -> InjuryEffect:
        """Roll (or read ``roll`` on) the d6 Injuries table and apply the entry."""
        return care.roll_injury(self.t, creature, ctx, roll)

    def change_ability(self, creature: Creature, ctx: TickContext, ability: str, delta: int,
                       temporary: bool = True) -> None:
        """Raise or lower an ability (temporarily: a full rest restores it; or permanently).

        Lowering STR lowers health as much (never below 1, never critical); an ability at 0 or below kills;
        abilities never exceed the cap (``care.change_creature_ability``).

        Raises:
            ModelError: An unknown ability.
        """
        care.change_creature_ability(creature, ctx, ability, delta, temporary)

    def full_rest(self, creature: Creature, ctx: TickContext) -> None:
        """A full rest: temporary ability changes and the Injuries table's conditions end (``care.full_rest``).

        Health returns (``full_rest_heals``) and incapacitation ends.
        """
        care.full_rest(self.t, creature, ctx)


def _old_armor_key(data: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """``data`` with a ``StrengthHealth``'s old key ``armour`` renamed ``armor``.

    A save of before the rename spells the natural Armour value ``armour``. Anything else is returned as it is
    (``load_state`` reports what is wrong with it).
    """
    values = data.get(StrengthHealth.__name__)
    if not isinstance(values, dict) or "armour" not in values or "armor" in values:
        return data
    renamed = {("armor" if key == "armour" else key): value for key, value in values.items()}
    return {**data, StrengthHealth.__name__: renamed}
