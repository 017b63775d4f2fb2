"""The wound-depth model's binding: ``DepthModel``, the ``DamageModel`` the shared loop and a game drive.

It registers the model, spawns and checks its state, answers the loop's questions (part states, health, its
processors), makes the attack (the d20 roll, where the blow lands, the wound, a mishap), strikes and inflicts blows
directly, and reads the creature out. The rules it applies are in ``rules``, its log entry in ``record``, care over
time in ``care``, the readout's words in ``readout``; the tables and the state component are in
``sandbox.components.models.depth``.

A broken or lost part is ``UNUSABLE`` in ``part_states``, so the shared loop wields no strike mode with it (the
intent AI strikes with the limbs that still work: the other hand, a kick); ``attack`` refuses a mode wielded by
such a part (records nothing) should one reach it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.impairment import SOUND, UNUSABLE, Impairment
from sandbox.components.models.depth import (
    ASPECT_FAMILY,
    FAMILIES,
    TIERS,
    CreatureDepth,
    DepthState,
    DepthTables,
    DepthWound,
    Mishap,
    WeaponDepth,
)
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import PartReading, Readout
from sandbox.systems.conditions import drop_held, kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.d20 import d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, check_aim, register
from sandbox.systems.dice import roll_die
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.systems.hit_location import MISS, HitTable, build_hit_table, locate
from sandbox.systems.models.depth.care import DyingProcessor, advance_care, refresh
from sandbox.systems.models.depth.preview import preview_blow
from sandbox.systems.models.depth.readout import (
    ability_words,
    conditions_of,
    details_of,
    health_max,
    health_of,
    label_of,
    wound_readings,
)
from sandbox.systems.models.depth.record import DepthAttackRecord
from sandbox.systems.models.depth.rules import (
    NAME,
    ability_modifier,
    defense_of,
    depth_state,
    injury_for,
    mishap_effect,
    settle,
    strike_location,
    wound_depth,
    wounds_of,
)
from sandbox.systems.models.depth.state import check_saved_state
from sandbox.systems.models.depth.time_fields import shift_times as shift_state_times
from sandbox.systems.phases import Phase
from sandbox.systems.time_shift import TimeShift

__all__ = ["DepthModel"]


@register
class DepthModel(DamageModel):
    """Document 002: one d20 roll decides whether a blow lands and how deep it goes.

    Depth x damage type picks the injury.

    Args:
        tables: The model's tables (``configs/models/depth.toml``; ``sandbox.systems.models.depth.tables.load``).
    """

    name = NAME

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """The state with every game time moved by ``shift`` (``sandbox.systems.models.depth.time_fields``)."""
        return shift_state_times(components, shift)

    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``DepthState`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, DepthState):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, DepthTables):
            raise ModelError("the depth model needs its tables (sandbox.models.build_model('depth', catalog))")
        super().__init__(tables)
        self.tables: DepthTables = tables
        self._hit_tables: dict[str, tuple[BodyStructure, HitTable]] = {}
        self._states: dict[tuple[str, frozenset[int]], tuple[BodyStructure, tuple[Impairment, ...]]] = {}

    # ---------------------------------------------------------------- state

    def state_types(self) -> tuple[type, ...]:
        """The model's one state component: ``DepthState``."""
        return (DepthState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """Defense and attack modifiers from the creature's entry, attributes and armour."""
        t = self.tables
        entry = t.creatures.get(kind.id, CreatureDepth())
        # A spawn may override scores by the document's short names too (str, dex); an override beats the
        # entry's fixed modifier.
        scores = dict(attributes)
        for short, long in (("str", "strength"), ("dex", "dexterity")):
            if short in scores:
                scores[long] = scores[short]
        overridden = {long for short, long in (("str", "strength"), ("dex", "dexterity")) if short in attributes}

        def mod(ability: str, override: int | None) -> int:
            if override is not None and ability not in overridden:
                return override
            return ability_modifier(scores.get(ability, t.ability_base), t.ability_base, t.ability_step)

        strength = mod(t.melee_ability, entry.strength_modifier)
        dexterity = mod(t.ranged_ability, entry.dexterity_modifier)
        defense_dex = dexterity if t.defense_ability == t.ranged_ability else mod(t.defense_ability, None)
        defense = defense_of(defense_dex, (t.armor.get(p.id, 0) for p in armor), t.defense_base, entry.defense)
        return (DepthState(defense, strength, dexterity),)

    # ---------------------------------------------------------------- the loop's questions

    def part_states(self, creature: Creature) -> tuple[Impairment, ...]:
        """Broken (not yet set) and lost parts are ``UNUSABLE``; every other part is sound."""
        broken = depth_state(creature).broken
        if not broken:
            return super().part_states(creature)
        body = creature.anatomy.body
        key = (body.id, frozenset(broken))
        entry = self._states.get(key)
        if entry is None or entry[0] is not body:
            entry = self._states[key] = (body, tuple(UNUSABLE if p in broken else SOUND
                                                     for p in range(len(body.parts))))
        return entry[1]

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """The penalty the creature can still take before it collapses (0 when down or dead)."""
        return health_of(depth_state(creature), creature.condition.dead, self.tables.collapse_at)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The death clock of the dying."""
        return [(Phase.EFFECTS, DyingProcessor(ctx))]

    def _hit_table(self, body: BodyStructure) -> HitTable:
        entry = self._hit_tables.get(body.id)
        if entry is None or entry[0] is not body:
            entry = self._hit_tables[body.id] = (body, build_hit_table(body))
        return entry[1]

    # ---------------------------------------------------------------- attack

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> DepthAttackRecord | None:
        """The d20 attack roll and, on a hit, the wound applied at once.

        A mode wielded by a broken or lost part is refused: nothing is rolled or recorded (returns ``None``). An
        aim naming a part is a called shot landing in that part; one naming a location, a called shot landing on
        that location.
        """
        comb = attacker.combatant
        called_part: int | None = None
        called_location: int | None = None
        if comb.aim_zone > 0:  # "random" named a zone, not a part: neither is set
            called_part, called_location = _called(target.anatomy.body, comb.aim)
        return self._attack(attacker, target, mode, parts, comb.aim, comb.aim_zone, called_part, called_location,
                            ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...], aim: str,
                aim_zone: int, called_part: int | None, called_location: int | None,
                ctx: TickContext) -> DepthAttackRecord | None:
        t = self.tables
        state = depth_state(attacker)
        if state.broken and any(p in state.broken for p in parts):
            return None
        foe_state = depth_state(target)
        body = target.anatomy.body
        weapon = t.weapons[mode.id]
        melee = mode.kind == "melee"
        ability = state.strength_mod if melee else state.dexterity_mod
        called = t.called_shot_modifier if aim_zone > 0 else 0
        notched = state.notches.get(mode.weapon, 0)
        guard = foe_state.open_guard
        pending = state.mishap
        modifier = state.penalty + pending + called + notched + guard
        rng = ctx.streams["attack"]
        roll = d20_attack(ability, foe_state.defense, rng, modifier)
        state.mishap = 0  # the pending mishap was this roll's
        state.open_guard = 0  # its own guard closes when it attacks again
        foe_state.open_guard = 0  # spent on this attack
        mishap = t.mishap(roll_die(t.mishap_die, rng)) if roll.natural == 1 else None
        clock = ctx.clock
        gear = ctx.weapons.get(mode.weapon)
        record = DepthAttackRecord(clock.tick, clock.time, attacker.entity, target.entity, mode.id,
                                   aim if aim_zone > 0 else "unaimed", roll, roll.hit, mishap, mode.name,
                                   ability_words(t.melee_ability if melee else t.ranged_ability), ability,
                                   state.penalty, pending, called, notched, guard, family=weapon.family,
                                   depth_bonus=weapon.depth_bonus, weapon_name=gear.name if gear else mode.weapon)
        ctx.log.append(record)  # its events are read later: the wound fills it in below
        if roll.hit:
            location = self._landing(body, called_part, called_location, aim_zone, record, ctx)
            if location != MISS:
                self._wound(target, location, roll.margin, weapon, roll.natural == 20, record, ctx)
        if mishap is not None:
            self._mishap(attacker, mode, parts, mishap, record, ctx)
        return record

    def _landing(self, body: BodyStructure, called_part: int | None, called_location: int | None, aim_zone: int,
                 record: DepthAttackRecord, ctx: TickContext) -> int:
        """Where a blow that hit lands.

        The called location itself when it can be struck (``record.on_location``), else a location drawn from the
        anatomy (in the called part, at the aimed zone, or anywhere).
        """
        if called_location is not None and body.locations[called_location].weight > 0 \
                and body.part_hittable(body.locations[called_location].part):
            record.on_location = True
            return called_location
        return strike_location(body, self._hit_table(body), called_part, aim_zone, ctx.streams["injury"])

    def _mishap(self, attacker: Creature, mode: StrikeMode, parts: tuple[int, ...], mishap: Mishap,
                record: DepthAttackRecord, ctx: TickContext) -> None:
        """Apply a natural 1's mishap to the fumbler (after the blow, which the margin decided)."""
        state = depth_state(attacker)
        gear = ctx.weapons.get(mode.weapon)
        equip = attacker.equipment
        natural = gear is None or gear.natural or mode.weapon not in equip.holding.values()
        effect, amount = mishap_effect(mishap, natural)
        record.mishap_effect, record.mishap_amount = effect, amount
        if effect == "drop":
            hand = next((p for p in parts if equip.holding.get(p) == mode.weapon),
                        next(p for p, held in equip.holding.items() if held == mode.weapon))
            drop_held(attacker.entity, equip, hand, attacker.anatomy.body.parts[hand].name, False, ctx)
        elif effect == "notch":
            state.notches[mode.weapon] = state.notches.get(mode.weapon, 0) + amount
        elif effect == "open_guard":
            state.open_guard = amount
        else:
            state.mishap = amount

    def _wound(self, creature: Creature, location: int, margin: int, weapon: WeaponDepth, natural_20: bool,
               record: DepthAttackRecord, ctx: TickContext) -> None:
        """Apply a landed blow (or a direct one) at ``location``: fill in ``record`` and change the state."""
        t = self.tables
        state = depth_state(creature)
        anat, cond = creature.anatomy, creature.condition
        body = anat.body
        loc = body.locations[location]
        part = body.parts[loc.part]
        entry = t.creatures.get(anat.kind.id, CreatureDepth())
        reduction = entry.reduction[FAMILIES.index(weapon.family)]
        depth = wound_depth(margin, weapon.depth_bonus, reduction, natural_20, t.tiers)
        injury = injury_for(t, depth.tier, weapon.family, part.critical, depth.worst)
        record.location, record.part, record.family = loc.name, part.name, weapon.family
        record.depth_bonus, record.reduction = weapon.depth_bonus, reduction
        record.raw, record.depth, record.tier, record.worst = depth.raw, depth.margin, depth.tier, depth.worst
        record.injury = injury.name if injury is not None else ""
        record.effect = injury
        if injury is None:
            return
        clock = ctx.clock
        before = label_of(state, cond.dead)
        before_broken = set(state.broken)
        dies_at = clock.time + injury.dies_after * clock.seconds_per_tick if injury.dies_after else -1.0
        wound = DepthWound(location, loc.part, depth.tier, weapon.family, injury.name, injury.penalty, injury.breaks,
                      injury.lost, injury.down, dies_at, injury.kills, injury.treat_dc, clock.time, depth.worst)
        state.wounds.append(wound.as_tuple())
        state.worst_tier = max(state.worst_tier, depth.tier)
        if injury.lasting:
            refresh(creature.entity, state, cond, before, before_broken, body, t.collapse_at, ctx)
        if injury.kills and not cond.dead:
            kill(creature.entity, cond, f"{injury.name} ({loc.name})", ctx)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack, or (no attacker) a blow that hits with no roll.

        With an attacker, a called shot when ``aim`` names a part or location: -5, and the blow lands in that part
        by weight, or on that location. Without one, a bare hit (margin 1) plus the mode's depth bonus, at the aim
        or drawn from the anatomy.

        Raises:
            ModelError: An aim the target's body does not have, a mode the model has no entry for, or (with an
                attacker) a mode only broken or lost limbs could wield.
        """
        from sandbox.systems.ai import choose_aim
        from sandbox.systems.combat import ready_parts

        body = target.anatomy.body
        called_part, called_location = check_aim(body, aim)
        weapon = self.tables.weapons.get(mode.id)
        if weapon is None:
            raise ModelError(f"the depth model has no entry for strike mode {mode.id!r}; its modes: "
                             f"{', '.join(sorted(self.tables.weapons))}")
        if attacker is not None:
            states = self.part_states(attacker)
            parts = ready_parts(attacker.anatomy, states, attacker.condition, attacker.equipment, mode)
            if parts is None:
                sound = DamageModel.part_states(self, attacker)
                if ready_parts(attacker.anatomy, sound, attacker.condition, attacker.equipment, mode) is not None:
                    broken = ", ".join(attacker.anatomy.body.parts[p].name
                                       for p in sorted(depth_state(attacker).broken))
                    raise ModelError(f"{attacker.name} cannot strike with {mode.name}: the limbs that wield it are "
                                     f"broken or lost ({broken})")
                parts = ()
            zone = choose_aim(aim, body, ctx.streams["ai"]) if aim != "unaimed" else 0
            if not zone:  # nothing there can be aimed at: an unaimed blow, as the loop would make it
                called_part = called_location = None
            self._attack(attacker, target, mode, parts, aim, zone, called_part, called_location, ctx)
            return
        clock = ctx.clock
        record = DepthAttackRecord(clock.tick, clock.time, -1, target.entity, mode.id, aim, None, True, None,
                                   mode.name, family=weapon.family, depth_bonus=weapon.depth_bonus)
        ctx.log.append(record)
        location = self._landing(body, called_part, called_location, 0, record, ctx)
        if location != MISS:
            self._wound(target, location, 1, weapon, False, record, ctx)

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike`` (``sandbox.systems.models.depth.preview``), with the same refusals.

        Raises:
            ModelError: An aim the target's body does not have, a mode the model has no entry for, or (with an
                attacker) a mode only broken or lost limbs could wield.
        """
        from sandbox.systems.ai import choose_aim
        from sandbox.systems.combat import ready_parts

        body = target.anatomy.body
        called_part, called_location = check_aim(body, aim)
        if mode.id not in self.tables.weapons:
            raise ModelError(f"the depth model has no entry for strike mode {mode.id!r}; its modes: "
                             f"{', '.join(sorted(self.tables.weapons))}")
        parts: tuple[int, ...] = ()
        zone = 0
        if attacker is not None:
            found = ready_parts(attacker.anatomy, self.part_states(attacker), attacker.condition, attacker.equipment,
                                mode)
            if found is None and ready_parts(attacker.anatomy, DamageModel.part_states(self, attacker),
                                             attacker.condition, attacker.equipment, mode) is not None:
                raise ModelError(f"{attacker.name} cannot strike with {mode.name}: the limbs that wield it are "
                                 "broken or lost")
            parts = found or ()
            # A named aim draws nothing from the stream (only "random" does, which no body's parts are called).
            zone = choose_aim(aim, body, ctx.streams["ai"]) if aim != "unaimed" else 0
            if not zone:
                called_part = called_location = None
        return preview_blow(self.tables, self._hit_table(body), target, mode, aim, called_part, called_location,
                            zone, attacker, parts)

    # ---------------------------------------------------------------- direct damage

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """A blow applied directly, as a landed one is.

        Keywords:
            damage: The blow's depth margin (margin + depth bonus; armour is already in the margin), before the
                target's own depth reduction. Or ``level``: a tier name (skin, flesh, bone, organ) or 1..4, which
                stands for that tier's lowest depth margin.
            location: Location name (default: drawn from the anatomy like an unaimed blow).
            aspect: Damage type: blunt, cutting (or edged), piercing, fire (default blunt).
            critical: A natural 20 (one tier deeper, worst result).

        Raises:
            ModelError: A missing or bad depth, an unknown location or damage type, or nothing to strike.
        """
        t = self.tables
        unknown = set(options) - {"damage", "level", "location", "aspect", "critical"}
        if unknown:
            raise ModelError(f"the depth model does not take {', '.join(sorted(unknown))}; it takes damage= (a depth "
                             "margin) or level= (skin/flesh/bone/organ), location=, aspect=, critical=")
        damage, level = options.get("damage"), options.get("level")
        if level is not None:
            if isinstance(level, str) and level in TIERS[1:]:
                tier = TIERS.index(level)
            elif isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= 4:
                tier = level
            else:
                raise ModelError(f"level must be skin, flesh, bone, organ or 1..4, not {level!r}")
            margin = t.tiers[tier - 1]
        elif isinstance(damage, int) and not isinstance(damage, bool) and damage >= 0:
            margin = damage
        else:
            raise ModelError(f"the depth model inflicts damage=N (a depth margin >= 0), not {damage!r}")
        family = ASPECT_FAMILY.get(str(options.get("aspect", "blunt")))
        if family is None:
            raise ModelError(f"unknown damage type {options.get('aspect')!r}; expected one of "
                             f"{', '.join(FAMILIES)} (or edged)")
        body = creature.anatomy.body
        location_name = options.get("location")
        if location_name is not None:
            try:
                location = body.location_index(str(location_name))
            except KeyError:
                raise ModelError(f"{body.name} has no location {location_name!r}; its locations: "
                                 f"{', '.join(x.name for x in body.locations)}") from None
        else:
            location = locate(self._hit_table(body), None, 1, ctx.streams["injury"])[1]
            if location == MISS:
                raise ModelError(f"{body.name} has nothing to strike")
        clock = ctx.clock
        record = DepthAttackRecord(clock.tick, clock.time, -1, creature.entity, "inflict", "unaimed", None, True,
                                   None, family=family, direct=True)
        ctx.log.append(record)
        # The depth margin stands for margin + depth bonus: a weapon of bonus 0 and margin N.
        self._wound(creature, location, margin, WeaponDepth(family, 0), bool(options.get("critical", False)),
                    record, ctx)

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Recompute the state from the wounds (after a hand edit) and report what changed.

        The penalty, the broken and lost parts, down and the death clock are derived from the wounds again.
        """
        state = depth_state(creature)
        cond = creature.condition
        before = label_of(state, cond.dead)
        refresh(creature.entity, state, cond, before, set(state.broken), creature.anatomy.body,
                self.tables.collapse_at, ctx)

    # ---------------------------------------------------------------- reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """The creature's readout: label, health, band, conditions, wounds, parts and the model's own numbers.

        Health is the penalty headroom before collapse (of the collapse limit: its health fraction); the band, the
        deepest tier taken. A living creature's conditions: bleeding, broken, lost, dying or bleeding out, collapsed,
        a pending mishap. The wounds: every open or lasting one (any reads at least hurt).
        """
        state = depth_state(creature)
        body, cond = creature.anatomy.body, creature.condition
        label = label_of(state, cond.dead)
        conditions = conditions_of(state, body, ctx.clock) if not cond.dead else []
        shock_word = {"dead": "dead", "dying": "dying", "down": "incapacitated"}.get(label, "none")
        health, most = health_of(state, cond.dead, self.tables.collapse_at), health_max(self.tables.collapse_at)
        alive, able_now = not cond.dead, can_act(cond)
        wounds = wound_readings(body, wounds_of(state))
        fraction = health_fraction(health, most, alive=alive)
        details = details_of(self.tables, state, creature.anatomy.kind.id, cond.dead)
        return Readout(alive, able_now, label, health, TIERS[state.worst_tier], shock_word, tuple(conditions), wounds,
                       self.part_readings(creature), details, health_max=most, health_fraction=fraction,
                       tier=grade(fraction, self.tables.health_tiers, alive=alive, can_act=able_now,
                                  wounded=bool(wounds)))

    def part_readings(self, creature: Creature) -> tuple[PartReading, ...]:
        """Each part: unusable while broken or lost; a lost part reads as cut off."""
        lost = depth_state(creature).lost
        body = creature.anatomy.body
        return tuple(PartReading(p.name, imp.penalty, imp.unusable, i in lost)
                     for i, (p, imp) in enumerate(zip(body.parts, self.part_states(creature), strict=True)))

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """The derived fields agree with the wounds; lost parts are broken; out exactly while down."""
        state = depth_state(creature)
        cond = creature.condition
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if not state.lost <= state.broken:
            breaches.append(f"{who}: lost parts {sorted(state.lost)} are not all broken {sorted(state.broken)}")
        if cond.dead:
            return breaches
        fresh = DepthState(wounds=list(state.wounds))
        settle(fresh, self.tables.collapse_at)
        for name in ("penalty", "broken", "lost", "down", "dies_at"):
            if getattr(fresh, name) != getattr(state, name):
                breaches.append(f"{who}: {name} {getattr(state, name)!r} but its wounds make {getattr(fresh, name)!r}")
        if cond.out != state.down:
            breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while "
                            f"{'down' if state.down else 'not down'}")
        return breaches

    # ---------------------------------------------------------------- out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Move game time on: tenders treat wounds (one attempt per wound at a time), the dying die on time.

        Due items run from the shared due queue in time order; at equal times a treatment comes before a death,
        then by entity.
        """
        advance_care(self.tables, ctx, seconds, care)


def _called(body: BodyStructure, aim: str) -> tuple[int | None, int | None]:
    """The called part, or the called location, an aim names on ``body``.

    Both ``None`` when it names neither: ``unaimed``, ``random``, or a name the body lacks.
    """
    try:
        return body.part_index(aim), None
    except KeyError:
        pass
    try:
        return None, body.location_index(aim)
    except KeyError:
        return None, None
