"""The status-ladder model's ``DamageModel`` binding: ``StatusModel`` and what only it needs.

The model (document 004) plugs its rooms into the damage-model interface: the rules (``rules``: the ladder, the
penalties, passing out), the attack record (``record``), care over time (``care``: coming round, the untended death,
rest and healing, ``advance``) and the TOML reader (``tables``). The ladder, the tables (``StatusTables``) and the
state component (``StatusState``) are pure data in ``sandbox.components.models.status``; a saved state is checked by
``state``.

This module holds the model class (spawning, the attack and the landed blow, ``inflict``, the readout, the
invariants), the bounds of a spawn's overrides and ``apply_wound``: what a resolved wound does to a creature at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import DamageDealt, FellProne, ModelStateChanged
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.models.status import DEAD, HEALTHY, LEVELS, MORTALLY, StatusState, StatusTables, StatusWeapon
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import Readout, WoundReading
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, able
from sandbox.systems.d20 import d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, check_aim, check_living, register
from sandbox.systems.dice import roll_dice
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.status.care import ComeRoundProcessor, set_level
from sandbox.systems.models.status.care import advance as advance_out_of_combat
from sandbox.systems.models.status.placed import harm, place_wound, placed_wounds
from sandbox.systems.models.status.preview import preview_blow
from sandbox.systems.models.status.record import StatusAttackRecord, describe
from sandbox.systems.models.status.rules import (
    MODEL,
    StatusTest,
    StatusWound,
    damage_after_armor,
    levels_left,
    penalty,
    reduction_of,
    resolve_wound,
    speed_factor,
    status_state,
)
from sandbox.systems.models.status.state import check_saved_state
from sandbox.systems.models.status.time_fields import shift_times as shift_state_times
from sandbox.systems.phases import Phase
from sandbox.systems.placement import Placer, location_names
from sandbox.systems.time_shift import TimeShift

__all__ = ["OVERRIDE_BOUNDS", "StatusModel", "apply_wound"]

OVERRIDE_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "constitution": (0, 100), "endurance": (1, None), "defense": (0, None), "armor": (0, None),
    "penalty_reduction": (0, None)}
"""The bounds of a creature's numbers in ``configs/models/status.toml``; a spawn's overrides are kept inside them."""


def apply_wound(creature: Creature, wound: StatusWound, test: StatusTest | None, tables: StatusTables,
                ctx: TickContext) -> None:
    """Apply a resolved wound at once: the new rung and tally, death, passing out."""
    entity, state, cond = creature.entity, status_state(creature), creature.condition
    clock = ctx.clock
    if wound.damage > 0:
        state.heal_at = -1.0  # a fresh wound: the healing rest starts again
        state.minor_heal_at = -1.0
    if wound.after != wound.before:
        set_level(entity, state, wound.after, tables, ctx)
    state.minor = wound.minor_after
    if wound.killed:
        kill(entity, cond, "killed outright" if wound.before < MORTALLY else "wounded while mortally wounded", ctx)
        return
    if test is not None and test.result and not cond.out:
        cond.out = True
        cond.reeling = True
        state.come_round_at = clock.time + tables.come_round_seconds
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "consciousness", "awake", "passed out"))
        if not cond.prone:
            cond.prone = True
            ctx.emit(FellProne(clock.tick, clock.time, entity, "passed out"))


@register
class StatusModel(DamageModel):
    """Document 004: the status ladder, minor injuries, passing out, penalties on rolls and speed.

    Args:
        tables: The model's ``StatusTables`` (``configs/models/status.toml``).
    """

    readout_counts_down = False  # only a logged event changes its readouts (tests/test_readout_cache.py)

    name = MODEL
    tables: StatusTables

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """The state with every game time moved by ``shift`` (``sandbox.systems.models.status.time_fields``)."""
        return shift_state_times(components, shift)

    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``StatusState`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, StatusState):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, StatusTables):
            raise ModelError("the status model needs its tables (sandbox.models.build_model('status', catalog))")
        super().__init__(tables)
        self._placer = Placer()

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """``StatusState``."""
        return (StatusState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """A healthy creature with its kind's numbers and the armour value of what it wears.

        Raises:
            ModelError: The kind or a worn piece has no entry in the tables.
        """
        block = self.tables.creatures.get(kind.id)
        if block is None:
            raise ModelError(f"the status model has no block for creature {kind.id!r}; its blocks: "
                             f"{', '.join(sorted(self.tables.creatures))}")
        worn = 0
        for piece in armor:
            value = self.tables.armor.get(piece.id)
            if value is None:
                raise ModelError(f"the status model has no armour value for {piece.id!r}")
            worn += value
        # A spawn may override the block's numbers by their names (constitution, endurance ...). ``attributes``
        # holds the creature's own attributes too (the anatomy model's Endurance shares a name), so only a value
        # the spawn changed counts as an override.
        changed = {k: v for k, v in attributes.items() if kind.attributes.get(k) != v}

        def get(name: str, default: int) -> int:
            # An override is kept within the bounds the tables file has for the number (as the strength model
            # clamps its abilities): a scenario's anatomy Endurance of 0 is valid there, but 0 HP per level has no
            # meaning here (``take_damage`` refuses it, and the first wound would end the fight in an exception).
            lo, hi = OVERRIDE_BOUNDS.get(name, (None, None))
            value = int(changed.get(name, default))
            if lo is not None:
                value = max(value, lo)
            return value if hi is None else min(value, hi)

        constitution = get("constitution", block.constitution)
        tables = self.tables
        reduction = block.penalty_reduction if block.penalty_reduction is not None else \
            reduction_of(constitution, tables.reduction_above, tables.reduction_per)
        return (StatusState(constitution, get("endurance", block.endurance),
                            get("attack_bonus", block.attack_bonus), get("defense", block.defense),
                            worn + get("armor", block.armor), get("penalty_reduction", reduction)),)

    # ------------------------------------------------------------------ the loop's questions

    def speed_factor(self, creature: Creature, ctx: TickContext) -> float:
        """The rung's (reduced) penalty slows the walk.

        The factor is 1 + penalty x the loss per point, never below the minimum.
        """
        state = status_state(creature)
        tables = self.tables
        pen = penalty(state.level, state.penalty_reduction, tables.penalties)
        return speed_factor(pen, tables.speed_loss_per_point, tables.min_speed_factor)

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Rungs left before death (healthy 6 .. mortally wounded 1, dead 0)."""
        return levels_left(DEAD if creature.condition.dead else status_state(creature).level)

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The coming-round tests."""
        return [(Phase.RECOVERY, ComeRoundProcessor(ctx, self.tables))]

    def _weapon(self, mode: StrikeMode) -> StatusWeapon:
        weapon = self.tables.weapons.get(mode.id)
        if weapon is None:
            raise ModelError(f"the status model has no damage for strike mode {mode.id!r}")
        return weapon

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> StatusAttackRecord:
        """d20 + attack bonus + status penalty against Defense (and the target's own penalty).

        A hit rolls the mode's damage, armour soaks it and the wound is applied at once (after the record is logged,
        so its events follow it).

        Raises:
            ModelError: The strike mode has no entry in the model's tables.
        """
        return self._attack(attacker, target, mode, "unaimed", ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, aim: str,
                ctx: TickContext) -> StatusAttackRecord:
        tables = self.tables
        state = status_state(attacker)
        weapon = self._weapon(mode)
        pen = penalty(state.level, state.penalty_reduction, tables.penalties)
        theirs = status_state(target)
        guard = penalty(theirs.level, theirs.penalty_reduction, tables.penalties)  # its defence takes its penalty
        roll = d20_attack(state.attack_bonus + weapon.attack_bonus, theirs.defense + guard, ctx.streams["attack"], pen)
        clock = ctx.clock
        record = StatusAttackRecord(clock.tick, clock.time, attacker.entity, target.entity, mode, aim, roll, weapon,
                                    pen, state.level, guard, theirs.level)
        if roll.hit:
            self._blow(record, target, pen if tables.penalty_to_damage else 0, ctx)
        else:
            ctx.log.append(record)
        return record

    def _blow(self, record: StatusAttackRecord, target: Creature, damage_penalty: int, ctx: TickContext) -> None:
        """A blow that hit: its damage through armour, the wound it makes (the record is logged first).

        A creature no blow can reach (``can_be_struck``: a spirit) is missed off the body: nothing is rolled.
        """
        if not self.can_be_struck(target):
            record.off_body = True
            ctx.log.append(record)
            return
        tables = self.tables
        f_state = status_state(target)
        rng = ctx.streams["injury"]
        record.damage_penalty = damage_penalty
        record.rolled = max(0, roll_dice(record.weapon.damage, rng) + damage_penalty)
        record.dealt = damage_after_armor(record.rolled, f_state.armor)
        record.armor = f_state.armor
        record.endurance = f_state.endurance
        wound, test = resolve_wound(f_state, target.condition, record.dealt, tables, rng)
        record.wound, record.test = wound, test
        ctx.log.append(record)
        if record.dealt > 0:
            place_wound(f_state, self._placer.place(target.anatomy.body, record.aim, ctx.streams["location"]),
                        record.dealt)
        apply_wound(target, wound, test, tables, ctx)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack, or (no attacker) a blow that lands.

        The attack's d20 roll, with its status penalty, may miss; a blow that lands deals the mode's damage dice
        less the target's armour, and its wound is applied to the ladder. The aim changes no roll (the ladder has
        no hit location); the wound is placed where the blow struck (the aimed location, a location of the aimed
        part, or the unaimed draw), which the readout names.

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
        record = StatusAttackRecord(clock.tick, clock.time, -1, target.entity, mode, aim, None, self._weapon(mode))
        self._blow(record, target, 0, ctx)

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike`` (``sandbox.systems.models.status.preview``): the d20, the damage, the ladder.

        Raises:
            ModelError: An aim the target's body does not have, a dead target or attacker, or a strike mode with
                no entry in the model's tables.
        """
        check_aim(target.anatomy.body, aim)
        check_living(target, attacker)
        return preview_blow(self.tables, target, mode, aim, self._weapon(mode), attacker,
                            strikable=self.can_be_struck(target))

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """``damage=N``: N HP after armour, applied as a landed blow applies its damage.

        The passing-out test is included. ``location=`` (a location, or a part: one of its locations by weight)
        places the wound for the readout; without one it has no place (its reading says ``UNPLACED``).

        Raises:
            ModelError: No ``damage``, a negative or non-integer one, an option this model does not take, an unknown
                location, or a dead creature.
        """
        unknown = sorted(set(options) - {"damage", "location"})
        if unknown:
            raise ModelError(f"the status model inflicts damage=N (HP after armour) and location=, not "
                             f"{', '.join(unknown)}")
        damage, where = options.get("damage"), options.get("location")
        if not isinstance(damage, int) or isinstance(damage, bool) or damage < 0:
            raise ModelError(f"damage must be a whole number of HP, 0 or more, not {damage!r}")
        if where is not None and not isinstance(where, str):
            raise ModelError(f"location is the name of a location or part, not {where!r}")
        body = creature.anatomy.body
        if where is not None:
            check_aim(body, where)
        if creature.condition.dead:
            raise ModelError(f"{creature.name} is dead: it takes no more damage")
        state = status_state(creature)
        wound, test = resolve_wound(state, creature.condition, damage, self.tables, ctx.streams["injury"])
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, creature.entity, MODEL, damage, damage,
                             describe(wound, state.endurance, test)))
        if damage > 0:
            place_wound(state, MISS if where is None else self._placer.place(body, where, ctx.streams["location"]),
                        damage)
        apply_wound(creature, wound, test, self.tables, ctx)

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """The rung's name as label and band, the rungs left before death as health (of 6: its health fraction).

        Its wounds are the blows whose hit points the rung and the minor injuries still hold, each at the location it
        struck (``placed``); the creature's numbers are its details. Minor injuries alone read hurt.
        """
        state = status_state(creature)
        cond = creature.condition
        tables = self.tables
        level = DEAD if cond.dead else state.level
        pen = penalty(level, state.penalty_reduction, tables.penalties)
        conditions: list[str] = []
        if not cond.dead:
            if cond.out:
                conditions.append("passed out")
            if cond.prone:
                conditions.append("prone")
            if state.minor:
                conditions.append(f"minor injuries: {state.minor}")
            if pen:
                conditions.append(f"penalty {pen}")
        wounds = _wound_readings(creature.anatomy.body, state, cond.dead)
        if cond.dead:
            shock = "dead"
        elif level == MORTALLY:
            shock = "dying"
        elif cond.out:
            shock = "incapacitated"
        else:
            shock = "none"
        details = [("status", LEVELS[level]), ("levels left", f"{levels_left(level)} of {levels_left(HEALTHY)}"),
                   ("minor injuries", f"{state.minor} HP of a level's {state.endurance}"),
                   ("penalty", f"{pen:+d} on every roll" + (f" (reduced by up to {state.penalty_reduction} for its "
                                                             "Constitution, never below half)"
                                                             if state.penalty_reduction else "")),
                   ("walking speed", f"{speed_factor(pen, tables.speed_loss_per_point, tables.min_speed_factor):.0%}"
                                     " of its own"),
                   ("endurance", f"{state.endurance} HP a level"), ("constitution", str(state.constitution)),
                   ("attack bonus", f"{state.attack_bonus:+d}"),
                   ("defense", str(state.defense) + (f" ({state.defense + pen} with its penalty)" if pen else "")),
                   ("armor", str(state.armor)),
                   ("consciousness", "dead" if cond.dead else "passed out" if cond.out else "awake")]
        if not cond.dead and state.level == MORTALLY and state.dies_at >= 0:
            details.append(("dies untended at", f"{state.dies_at:g} s"))
        alive, can_act = not cond.dead, able(creature)
        health, most = levels_left(level), levels_left(HEALTHY)
        fraction = health_fraction(health, most, alive=alive)
        return Readout(alive, can_act, LEVELS[level], health, LEVELS[level], shock, tuple(conditions), wounds,
                       self.part_readings(creature), tuple(details), health_max=most, health_fraction=fraction,
                       tier=grade(fraction, tables.health_tiers, alive=alive, can_act=can_act,
                                  wounded=harm(state) > 0))

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """A living creature is on a living rung with fewer minor injuries than a level.

        A passed-out one has its coming-round test due.
        """
        state = status_state(creature)
        cond = creature.condition
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if not 0 <= state.level <= DEAD:
            breaches.append(f"{who} is on rung {state.level}, off the ladder 0..{DEAD}")
        if cond.dead:
            return breaches
        if state.level >= DEAD:
            breaches.append(f"{who} is alive on the rung {LEVELS[DEAD]}")
        if not 0 <= state.minor < state.endurance:
            breaches.append(f"{who} has {state.minor} HP of minor injuries, not 0..{state.endurance - 1}")
        if cond.out and state.come_round_at < 0:
            breaches.append(f"{who} is passed out with no coming-round test due")
        return breaches

    # ------------------------------------------------------------------ out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Rest out of combat for ``seconds``: coming round, the untended death, minor injuries and rungs healing.

        Each rule runs when due, in time order, on the shared due queue (``care.advance`` has the rules).
        """
        advance_out_of_combat(self.tables, ctx, seconds, care)


def _wound_readings(body: BodyStructure, state: StatusState, dead: bool) -> tuple[WoundReading, ...]:
    """The blows the ladder still counts, by the location each struck, then the HP no blow placed."""
    where, rest = placed_wounds(state, dead)
    out = []
    for location, hp in [*where, (MISS, rest)]:
        if hp <= 0:
            continue
        loc, part = location_names(body, location)
        at = f" struck at the {loc}" if location != MISS else " with no place"
        out.append(WoundReading(loc, part, f"{hp} HP", text=f"{hp} HP{at} (a level is {state.endurance} HP)"))
    return tuple(out)
