"""The strength-health model (document 003): health equal to STR, critical damage, dying, the Injuries table.

Rules (document 003 and ``shared/rules/decisions.md`` "Document 003"):

- Maximum health is STR. Damage lowers health by the same amount, never below 0.
- Losing at once half or more of the health remaining before the blow (``2 x damage >= remaining``) is critical
  damage: the creature is incapacitated until the end of the stretch (configurable: by default the end of the
  skirmish; a finite stretch in seconds ends on its own).
- Losing all the remaining health is critical damage and the creature is dying: it dies at the end of the next
  round unless healed by at least 1, when it is stabilised and rolls on the d6 Injuries table.
- One blow of damage matching or exceeding STR kills on the spot.
- Damage dice explode: on the maximum, roll again and add the new roll minus 1, as long as the maximum comes up.
  Impaired damage rolls twice and keeps the lower, enhanced damage the higher; they cancel one for one; impaired
  twice (net) is no damage; enhanced more than once is enhanced once.
- The Armour value (worn armour and the creature's natural armour) reduces damage, even to 0; direct damage
  ignores it.
- An ability reduced to 0 or below kills. Abilities never exceed 19 (15 for humans). STR loss lowers health by
  the same amount (never below 1) and is never critical damage.

Whether an attack lands is document 002's d20 roll (``systems.models.d20``), as decisions.md rules.

Pure functions come first (what an embedding game calls), then the state component, the tables, the attack
record and the model class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeGuard

import esper

from components.creature import CreatureDef
from components.events import DamageDealt, Event, FellProne, ModelStateChanged
from components.gear import ArmorPiece, StrikeMode
from components.readout import Readout
from components.state import Condition
from systems.context import TickContext
from systems.creatures import Parts, can_act
from systems.damage import kill
from systems.dice import Rng, roll_die
from systems.models.base import DamageModel, register
from systems.models.d20 import d20_attack, unaimed_attack_events
from systems.phases import Phase

MODEL = "strength"
ABILITIES: tuple[str, ...] = ("STR", "WIT", "AGI")
"""The three abilities of document 003."""
CONDITIONS: tuple[str, ...] = ("hobbled", "arm_injury_secondary", "arm_injury_primary", "eye_injury", "blind")
"""The conditions the Injuries table can leave (each lasts until a full rest)."""
CONDITION_WORDS: dict[str, str] = {
    "hobbled": "hobbled",
    "arm_injury_secondary": "arm injury (secondary arm)",
    "arm_injury_primary": "arm injury (primary arm)",
    "eye_injury": "eye injury",
    "blind": "blind",
}
INJURY_NAMES: tuple[str, ...] = ("", "scarred", "painful wound", "concussion", "injured leg", "injured arm",
                                 "blinded eye")
"""The d6 Injuries table's entries by roll (index 0 unused)."""
_EPS = 1e-9
_TOLERANCE = 1e-6
"""Seconds within which due times out of combat count as the same moment."""


# ------------------------------------------------------------------------------------------------ damage dice


def roll_exploding(sides: int, rng: Rng, explode: bool = True) -> int:
    """Roll one damage die; on its maximum roll it again and add the new roll minus 1, as long as the maximum
    comes up (document 003: a d6 rolling 6 then 3 gives 5 + 3 = 8).

    Args:
        sides: The die (4, 6, 8, 10, 12).
        rng: Generator.
        explode: Whether the die explodes (the document's rule; off only for comparison).
    """
    total = roll_die(sides, rng)
    if not explode or sides < 2:
        return total
    last = total
    while last == sides:
        last = roll_die(sides, rng)
        total += last - 1
    return total


def net_modifier(enhanced: int, impaired: int) -> int:
    """How a roll reads once enhancement and impairment cancel one for one.

    Returns:
        1: enhanced (roll twice, keep the higher; more than one net enhancement is still one);
        0: a normal roll;
        -1: impaired (roll twice, keep the lower);
        -2: impaired more than once: the damage is ignored.

    Raises:
        ValueError: A negative count.
    """
    if enhanced < 0 or impaired < 0:
        raise ValueError("enhanced and impaired are counts (0 or more)")
    net = enhanced - impaired
    return max(min(net, 1), -2)


MODIFIER_WORDS: dict[int, str] = {1: "enhanced", 0: "normal", -1: "impaired", -2: "ignored"}


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """One damage roll.

    Attributes:
        die: The die's size.
        how: ``normal``, ``enhanced``, ``impaired`` or ``ignored`` (impaired twice net: no roll, no damage).
        rolls: Every roll made (exploded totals), in order.
        kept: The roll kept (0 when ignored).
        bonus: The flat bonus added.
        total: Kept roll + bonus, at least 0 (0 when ignored).
    """

    die: int
    how: str
    rolls: tuple[int, ...]
    kept: int
    bonus: int
    total: int


def roll_damage(sides: int, rng: Rng, enhanced: int = 0, impaired: int = 0, bonus: int = 0,
                explode: bool = True) -> DamageRoll:
    """Roll damage on one die with its enhancements and impairments (``net_modifier``) and a flat bonus.

    Sybilla's enhanced d6 rolling 4, then 6 and 3, keeps 8; Balthasar's impaired d8 rolling 3 and 7 keeps 3.
    """
    net = net_modifier(enhanced, impaired)
    how = MODIFIER_WORDS[net]
    if net == -2:
        return DamageRoll(sides, how, (), 0, bonus, 0)
    first = roll_exploding(sides, rng, explode)
    if net == 0:
        return DamageRoll(sides, how, (first,), first, bonus, max(first + bonus, 0))
    second = roll_exploding(sides, rng, explode)
    kept = max(first, second) if net == 1 else min(first, second)
    return DamageRoll(sides, how, (first, second), kept, bonus, max(kept + bonus, 0))


def exploding_pmf(sides: int, upto: int) -> dict[int, Fraction]:
    """The exact distribution of one exploding die, for totals 1..``upto``.

    A total ``t`` comes from ``k = (t - 1) // (sides - 1)`` maxima then a non-maximum ``j``, with ``t = k x (sides
    - 1) + j``, so each total has exactly one roll sequence: ``P(t) = sides ** -(k + 1)``.
    """
    if sides < 2:
        raise ValueError("an exploding die needs at least two faces")
    step = sides - 1
    return {t: Fraction(1, sides ** ((t - 1) // step + 1)) for t in range(1, upto + 1)}


def after_armour(damage: int, armour: int, direct: bool = False) -> int:
    """Damage after the Armour value (which may take it to 0); direct damage ignores armour."""
    return max(damage - (0 if direct else armour), 0)


# ------------------------------------------------------------------------------------------------ health


@dataclass(frozen=True, slots=True)
class BlowOutcome:
    """What a number of points of damage does to a creature.

    Attributes:
        health: Health remaining afterwards.
        critical: Critical damage (half or more of the remaining health lost at once).
        dying: All the remaining health lost (the creature is dying).
        killed: Killed on the spot (one blow matching or exceeding STR).
    """

    health: int
    critical: bool
    dying: bool
    killed: bool


def blow_outcome(damage: int, health: int, strength: int, critical_ratio: float = 0.5) -> BlowOutcome:
    """Apply ``damage`` points (after armour) to a creature with ``health`` remaining and STR ``strength``.

    Theobald (STR 9): 5 at full health is critical, 4 is not; at 4 health 2 is critical; 9 kills at any health.

    Args:
        damage: Points of damage (0 does nothing).
        health: Health remaining before the blow.
        strength: Current STR.
        critical_ratio: The share of the remaining health whose loss at once is critical (0.5: half).
    """
    if damage <= 0:
        return BlowOutcome(health, False, False, False)
    if damage >= strength:
        return BlowOutcome(0, True, health > 0, True)
    remaining = max(health - damage, 0)
    critical = damage >= critical_ratio * health
    return BlowOutcome(remaining, critical, remaining == 0, False)


@dataclass(frozen=True, slots=True)
class AbilityChange:
    """An ability's change.

    Attributes:
        value: The ability afterwards.
        health: Health afterwards (lowered with STR, never below 1; otherwise unchanged).
        died: The ability fell to 0 or below.
    """

    value: int
    health: int
    died: bool


def change_ability(ability: str, value: int, health: int, delta: int, cap: int) -> AbilityChange:
    """Raise or lower an ability by ``delta`` (capped at ``cap``); lowering STR lowers health by as much, never
    below 1 (no critical damage); an ability at 0 or below kills."""
    new = min(value + delta, cap)
    lost = value - new
    if ability == "STR" and lost > 0:
        health = max(health - lost, 1)
    return AbilityChange(new, health, new <= 0)


def ability_cap(human: bool, maximum: int = 19, maximum_human: int = 15) -> int:
    """The highest an ability can be: 19, or 15 for humans."""
    return maximum_human if human else maximum


# ------------------------------------------------------------------------------------------------ injuries


@dataclass(frozen=True, slots=True)
class InjuryEffect:
    """What one roll on the Injuries table does.

    Attributes:
        roll: The d6 (1..6).
        name: The entry ("scarred", "painful wound" ...).
        ability: The ability temporarily lowered ("STR", "WIT", "AGI") or "".
        loss: How much it is lowered (the d4).
        add: Conditions gained (until a full rest).
        remove: Conditions replaced (an eye injury becomes blindness).
        detail: The effect in words.
    """

    roll: int
    name: str
    ability: str
    loss: int
    add: tuple[str, ...]
    remove: tuple[str, ...]
    detail: str


def injury_effect(roll: int, conditions: Sequence[str], rng: Rng, loss_die: int = 4) -> InjuryEffect:
    """Read a d6 roll on the Injuries table for a creature with ``conditions`` (drawing the d4 or d2 it needs).

    A second arm injury hits the other arm; a third does nothing. A second eye injury blinds (until a full rest);
    a third does nothing. "A second time" counts the injuries not yet healed by a full rest.
    """
    name = INJURY_NAMES[roll]
    if roll == 1:
        return InjuryEffect(roll, name, "", 0, (), (), "scarred")
    if roll in (2, 3, 4):
        ability = ("STR", "WIT", "AGI")[roll - 2]
        loss = roll_die(loss_die, rng)
        add = ("hobbled",) if roll == 4 and "hobbled" not in conditions else ()
        detail = f"{ability} -{loss} until a full rest" + (", hobbled" if roll == 4 else "")
        return InjuryEffect(roll, name, ability, loss, add, (), detail)
    if roll == 5:
        arms = [c for c in ("arm_injury_secondary", "arm_injury_primary") if c in conditions]
        if len(arms) >= 2:
            return InjuryEffect(roll, name, "", 0, (), (), "a third arm injury: nothing happens")
        if arms:
            other = "arm_injury_primary" if arms[0] == "arm_injury_secondary" else "arm_injury_secondary"
        else:
            other = ("arm_injury_secondary", "arm_injury_primary")[roll_die(2, rng) - 1]
        return InjuryEffect(roll, name, "", 0, (other,), (), CONDITION_WORDS[other])
    if "blind" in conditions:
        return InjuryEffect(roll, name, "", 0, (), (), "a third eye injury: nothing happens")
    if "eye_injury" in conditions:
        return InjuryEffect(roll, name, "", 0, ("blind",), ("eye_injury",), "blind")
    return InjuryEffect(roll, name, "", 0, ("eye_injury",), (), "eye injury")


# ------------------------------------------------------------------------------------------------ state


@dataclass(slots=True)
class StrengthHealth:
    """A creature's state under the strength-health model.

    Attributes:
        abilities: Current STR, WIT and AGI (temporary changes included).
        base: The abilities without temporary changes (what a full rest restores).
        cap: The highest an ability can be (19; 15 for humans).
        health: Health remaining (maximum: current STR).
        attack: Attack bonus of its d20 roll.
        defense: Its Defense.
        armour: Natural Armour value (hide, scales), added to what it wears.
        incapacitated: Unable to act, defenceless.
        until: Game time the incapacitation ends (``None``: the end of the skirmish).
        dying: Dying: it dies at ``dying_at`` unless healed.
        dying_at: Game time of the end of the round it dies at.
        conditions: Conditions from the Injuries table (``CONDITIONS``), until a full rest.
        injuries: Every Injuries-table entry rolled, in order (the scars stay).
        rested: Seconds of rest out of combat since the last full rest, fight or blow.
    """

    abilities: dict[str, int]
    base: dict[str, int]
    cap: int
    health: int
    attack: int = 0
    defense: int = 10
    armour: int = 0
    incapacitated: bool = False
    until: float | None = None
    dying: bool = False
    dying_at: float = 0.0
    conditions: list[str] = field(default_factory=list)
    injuries: list[str] = field(default_factory=list)
    rested: float = 0.0

    @property
    def max_health(self) -> int:
        """Maximum health: current STR (at least 0)."""
        return max(self.abilities["STR"], 0)


# ------------------------------------------------------------------------------------------------ tables


@dataclass(frozen=True, slots=True)
class WeaponDamage:
    """How a strike mode hurts under this model.

    Attributes:
        die: The damage die (4, 6, 8, 10, 12).
        bonus: Flat points added to the kept roll (before armour).
        enhanced: Times its damage is enhanced.
        impaired: Times its damage is impaired.
        direct: Direct damage ignores armour.
        attack: Added to the attack roll.
    """

    die: int
    bonus: int = 0
    enhanced: int = 0
    impaired: int = 0
    direct: bool = False
    attack: int = 0


@dataclass(frozen=True, slots=True)
class CreatureBlock:
    """A kind of creature under this model.

    Attributes:
        abilities: STR, WIT and AGI.
        attack: Attack bonus.
        defense: Defense.
        armour: Natural Armour value.
        human: Abilities cap at the human maximum.
    """

    abilities: Mapping[str, int]
    attack: int
    defense: int
    armour: int = 0
    human: bool = False


@dataclass(frozen=True, slots=True)
class ConditionEffect:
    """What a condition does in a fight: added to the attack roll and Defense, and impairments of its damage."""

    attack: int = 0
    defense: int = 0
    impaired: int = 0


@dataclass(frozen=True, slots=True)
class StrengthTables:
    """Every number of the model (``configs/models/strength.toml``).

    Attributes:
        critical_ratio: Share of the remaining health whose loss at once is critical damage (0.5).
        stretch: Seconds critical damage incapacitates for (``None``: the end of the skirmish).
        dying_rounds: Rounds a dying creature has (1: it dies at the end of the next round).
        damage_while_dying_kills: Damage to a dying creature kills it.
        dice: The damage dice a weapon may use.
        explode: Damage dice explode.
        ability_max: The highest ability.
        ability_max_human: The highest ability of a human.
        loss_die: The die of the Injuries table's temporary ability losses (d4).
        shift_with: Ability -> the creature attribute whose scenario override shifts it by the same difference.
        defenceless_defense: Defense of a creature that cannot act (incapacitated, dying).
        skill_step: Every this many points a scenario adds to a creature's weapon skill ML add +1 to its attack
            bonus (0: skills do not count).
        natural_20_enhanced: Enhancements of the damage of an attack rolling a natural 20.
        full_rest_hours: Hours out of combat that make a full rest.
        full_rest_heals: Health a full rest restores (``None``: all).
        conditions: What each condition does in a fight.
        weapons: Damage per strike mode id.
        armor: Armour value per armour piece id.
        creatures: The creature blocks by creature id.
    """

    critical_ratio: float
    stretch: float | None
    dying_rounds: int
    damage_while_dying_kills: bool
    dice: tuple[int, ...]
    explode: bool
    ability_max: int
    ability_max_human: int
    loss_die: int
    shift_with: Mapping[str, str]
    defenceless_defense: int
    skill_step: int
    natural_20_enhanced: int
    full_rest_hours: float
    full_rest_heals: int | None
    conditions: Mapping[str, ConditionEffect]
    weapons: Mapping[str, WeaponDamage]
    armor: Mapping[str, int]
    creatures: Mapping[str, CreatureBlock]


def default_tables(creatures: Mapping[str, CreatureBlock] | None = None,
                   weapons: Mapping[str, WeaponDamage] | None = None,
                   armor: Mapping[str, int] | None = None) -> StrengthTables:
    """The document's numbers, with the given per-definition tables (for embedding games and tests)."""
    return StrengthTables(
        critical_ratio=0.5, stretch=None, dying_rounds=1, damage_while_dying_kills=True, dice=(4, 6, 8, 10, 12),
        explode=True, ability_max=19, ability_max_human=15, loss_die=4, shift_with={}, defenceless_defense=0,
        skill_step=0, natural_20_enhanced=0, full_rest_hours=8.0, full_rest_heals=None,
        conditions={c: ConditionEffect() for c in CONDITIONS}, weapons=dict(weapons or {}), armor=dict(armor or {}),
        creatures=dict(creatures or {}))


def armour_value(state: StrengthHealth, pieces: Sequence[ArmorPiece], armor: Mapping[str, int]) -> int:
    """The creature's Armour value: its natural armour plus every worn piece's."""
    return state.armour + sum(armor.get(p.id, 0) for p in pieces)


def condition_totals(conditions: Sequence[str], effects: Mapping[str, ConditionEffect]) -> ConditionEffect:
    """The summed effect of a creature's conditions."""
    found = [effects[c] for c in conditions if c in effects]
    return ConditionEffect(sum(e.attack for e in found), sum(e.defense for e in found),
                           sum(e.impaired for e in found))


def spawn_abilities(block: CreatureBlock, kind_attributes: Mapping[str, int], attributes: Mapping[str, int],
                    shift_with: Mapping[str, str], cap: int) -> dict[str, int]:
    """A new creature's abilities: its block, shifted by the scenario's overrides of the attributes named in
    ``shift_with`` (strength 15 where the creature has 10: STR + 5), replaced by overrides named ``STR``, ``WIT``
    or ``AGI`` themselves, then clamped to 1..``cap``."""
    out = {}
    for ability in ABILITIES:
        value = block.abilities[ability]
        source = shift_with.get(ability)
        if source is not None and source in attributes and source in kind_attributes:
            value += attributes[source] - kind_attributes[source]
        for key in (ability, ability.lower()):
            if key in attributes:
                value = attributes[key]
        out[ability] = min(max(value, 1), cap)
    return out


# ------------------------------------------------------------------------------------------------ attack record


@dataclass(slots=True)
class StrengthAttack:
    """One attack under the strength model, compactly (``events()`` gives the typed events).

    Attributes:
        tick: Tick of the attack.
        time: Game time.
        attacker: Attacking entity.
        target: Defending entity.
        mode: Strike mode id.
        natural: The d20.
        total: d20 + attack bonus.
        defense: The target's Defense.
        margin: Total - Defense.
        hit: The attack landed.
        damage: The damage roll when it landed.
        armour: The Armour value that applied (0 for direct damage).
        dealt: Damage after armour.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    natural: int
    total: int
    defense: int
    margin: int
    hit: bool
    damage: DamageRoll | None = None
    armour: int = 0
    dealt: int = 0

    def events(self) -> list[Event]:
        """The attack roll and, when it landed, the damage."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        out = unaimed_attack_events(t, time, a, d, MODEL, self.mode, self.natural, self.total, self.defense,
                                    self.margin, self.hit)
        if self.damage is not None:
            out.append(DamageDealt(t, time, a, d, MODEL, self.damage.total, self.dealt,
                                   damage_detail(self.damage, self.armour, self.dealt)))
        return out


def damage_detail(roll: DamageRoll, armour: int, dealt: int) -> str:
    """A damage roll in words: ``d6 enhanced: rolls 4, 8 -> 8; armour 3 -> 5``."""
    if roll.how == "ignored":
        return f"d{roll.die} impaired twice: ignored"
    rolls = ", ".join(str(r) for r in roll.rolls)
    text = f"d{roll.die}" + ("" if roll.how == "normal" else f" {roll.how}") + f": {rolls}"
    if len(roll.rolls) > 1:
        text += f" -> {roll.kept}"
    if roll.bonus:
        text += f" {roll.bonus:+d} = {roll.total}"
    return text + (f"; armour {armour} -> {dealt}" if armour else "")


# ------------------------------------------------------------------------------------------------ the model


def label_of(state: StrengthHealth, cond: Condition) -> str:
    """The readout word: healthy, hurt, incapacitated, dying or dead."""
    if cond.dead:
        return "dead"
    if state.dying:
        return "dying"
    if state.incapacitated:
        return "incapacitated"
    return "healthy" if state.health >= state.max_health else "hurt"


def band_of(state: StrengthHealth, cond: Condition) -> str:
    """The health band: full, hurt, empty (0 left) or dead."""
    if cond.dead:
        return "dead"
    if state.health <= 0:
        return "empty"
    return "full" if state.health >= state.max_health else "hurt"


class StrengthRecoveryProcessor(esper.Processor):
    """RECOVERY phase: the dying die at the end of their next round; a finite stretch ends; fighting is no rest."""

    def __init__(self, ctx: TickContext, model: StrengthModel) -> None:
        self.ctx = ctx
        self.model = model

    def process(self) -> None:
        """Settle every creature's dying and incapacitation by the clock."""
        rows = esper.get_components(Condition, StrengthHealth)
        for entity, (cond, state) in sorted(rows, key=lambda row: row[0]):
            if cond.dead:
                continue
            state.rested = 0.0
            self.model.settle(entity, cond, state, self.ctx)


@register
class StrengthModel(DamageModel):
    """Document 003: health equal to STR, critical damage, dying and the Injuries table."""

    name = MODEL

    def __init__(self, tables: Any = None) -> None:
        super().__init__(tables if tables is not None else default_tables())

    @property
    def t(self) -> StrengthTables:
        """The model's tables, typed."""
        tables: StrengthTables = self.tables
        return tables

    # -------------------------------------------------------------- interface

    def state_types(self) -> tuple[type, ...]:
        """One ``StrengthHealth`` per creature."""
        return (StrengthHealth,)

    def spawn_state(self, kind: CreatureDef, attributes: Mapping[str, int], armor: Sequence[ArmorPiece]
                    ) -> tuple[object, ...]:
        """A creature at full health from its block (and the scenario's attribute overrides)."""
        t = self.t
        block = t.creatures.get(kind.id)
        if block is None:
            raise ValueError(f"the strength model has no block for creature {kind.id!r}")
        cap = ability_cap(block.human, t.ability_max, t.ability_max_human)
        abilities = spawn_abilities(block, kind.attributes, attributes, t.shift_with, cap)
        return (StrengthHealth(dict(abilities), dict(abilities), cap, abilities["STR"], block.attack, block.defense,
                               block.armour),)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """Dying, the stretch's end and rest, by the clock."""
        return [(Phase.RECOVERY, StrengthRecoveryProcessor(ctx, self))]

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """Document 002's d20 roll (d20 + attack bonus vs Defense, margin >= 1), then the damage roll, armour and
        its effect, applied at once."""
        t = self.t
        state = esper.component_for_entity(entity, StrengthHealth)
        f_state = esper.component_for_entity(foe_entity, StrengthHealth)
        weapon = t.weapons.get(mode.id) or WeaponDamage(4)
        mine = condition_totals(state.conditions, t.conditions)
        bonus = state.attack + weapon.attack + mine.attack + self.skill_shift(me, mode)
        if can_act(foe[5], foe[4]):
            defense = f_state.defense + condition_totals(f_state.conditions, t.conditions).defense
        else:
            defense = t.defenceless_defense
        roll = d20_attack(bonus, defense, ctx.streams["attack"])
        clock = ctx.clock
        record = StrengthAttack(clock.tick, clock.time, entity, foe_entity, mode.id, roll.natural, roll.total,
                                roll.defense, roll.margin, roll.hit)
        if roll.hit:
            enhanced = weapon.enhanced + (t.natural_20_enhanced if roll.natural == 20 else 0)
            damage = roll_damage(weapon.die, ctx.streams["injury"], enhanced, weapon.impaired + mine.impaired,
                                 weapon.bonus, t.explode)
            record.damage = damage
            record.armour = 0 if weapon.direct else armour_value(f_state, foe[3].pieces, t.armor)
            record.dealt = after_armour(damage.total, record.armour)
        ctx.log.append(record)
        if roll.hit:
            self.apply_damage(foe_entity, foe[5], f_state, record.dealt, ctx, mode.name)
        return record

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """Damage applied directly, as a landed blow applies it.

        ``damage=N``: N points after armour. ``die=6`` (with ``enhanced=``, ``impaired=`` counts, ``bonus=`` and
        ``direct=``): roll that die (exploding, enhanced and impaired as the rules say, on the injury stream),
        then take off the creature's Armour value unless ``direct=True``. ``enhanced`` and ``impaired`` are
        accepted only with ``die``.

        Raises:
            ValueError: Neither or both of ``damage`` and ``die``, a negative amount, modifiers without a die,
                an unknown option.
        """
        unknown = set(kwargs) - {"damage", "die", "enhanced", "impaired", "bonus", "direct"}
        if unknown:
            raise ValueError(f"the strength model inflicts damage= or die= (with enhanced=, impaired=, bonus=, "
                             f"direct=), not {', '.join(sorted(unknown))}")
        damage, die = kwargs.get("damage"), kwargs.get("die")
        if (damage is None) == (die is None):
            raise ValueError("the strength model inflicts damage=N (points after armour) or die=N (a die to roll)")
        state = esper.component_for_entity(entity, StrengthHealth)
        cond = me[5]
        if damage is not None:
            if {"enhanced", "impaired", "bonus"} & set(kwargs):
                raise ValueError("enhanced=, impaired= and bonus= go with die= (a die to roll), not damage=")
            if not _is_int(damage) or damage < 0:
                raise ValueError(f"damage must be a whole number of points, 0 or more, not {damage!r}")
            clock = ctx.clock
            ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, damage, damage, f"{damage} points"))
            self.apply_damage(entity, cond, state, damage, ctx, "inflicted")
            return
        enhanced, impaired, bonus = kwargs.get("enhanced", 0), kwargs.get("impaired", 0), kwargs.get("bonus", 0)
        if not _is_int(die) or die < 2:
            raise ValueError(f"die must be a die size (4, 6, 8, 10, 12), not {die!r}")
        for label, value in (("enhanced", enhanced), ("impaired", impaired)):
            if not _is_int(value) or value < 0:
                raise ValueError(f"{label} must be a count, 0 or more, not {value!r}")
        if not _is_int(bonus):
            raise ValueError(f"bonus must be a whole number, not {bonus!r}")
        roll = roll_damage(int(die), ctx.streams["injury"], int(enhanced), int(impaired), int(bonus), self.t.explode)
        armour = 0 if kwargs.get("direct", False) else armour_value(state, me[3].pieces, self.t.armor)
        dealt = after_armour(roll.total, armour)
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, roll.total, dealt,
                             damage_detail(roll, armour, dealt)))
        self.apply_damage(entity, cond, state, dealt, ctx, "inflicted")

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """Label (healthy, hurt, incapacitated, dying, dead), health remaining, band and conditions."""
        state = esper.component_for_entity(entity, StrengthHealth)
        cond, equip = me[5], me[8]
        label = label_of(state, cond)
        shock = label if label in ("incapacitated", "dying", "dead") else "none"
        conditions: list[str] = []
        if not cond.dead:
            if cond.prone:
                conditions.append("prone")
            if equip.weapons and not equip.holding:
                conditions.append("disarmed")
            if state.incapacitated:
                conditions.append("incapacitated until " + ("the end of the skirmish" if state.until is None
                                                            else f"{state.until:g} s"))
            conditions += [CONDITION_WORDS[c] for c in state.conditions]
            for ability in ABILITIES:
                change = state.abilities[ability] - state.base[ability]
                if change:
                    conditions.append(f"{ability} {state.abilities[ability]} ({change:+d} until a full rest)")
        conditions += ["scarred" for i in state.injuries if i == "scarred"]
        health = 0 if cond.dead else state.health
        return Readout(not cond.dead, can_act(cond, me[4]), label, health, band_of(state, cond), shock,
                       tuple(conditions))

    def advance(self, ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any) -> None:
        """Time out of combat: the skirmish's stretch is over (the incapacitated recover), the dying die at the end
        of their round (the sandbox has no healing items), a finite stretch ends, and every
        ``full_rest_hours`` of rest is a full rest. ``care`` is not used: the document's healing items are not
        modelled."""
        clock = ctx.clock
        end = clock.seconds + seconds
        rest = self.t.full_rest_hours * 3600.0
        rows = [(e, parts[5], esper.component_for_entity(e, StrengthHealth)) for e, parts in sorted(creatures.items())]
        for entity, cond, state in rows:
            if not cond.dead and state.incapacitated and not state.dying and state.until is None:
                self.recover(entity, cond, state, ctx)
        while True:
            now = clock.seconds
            dues: list[tuple[float, int]] = []
            for i, (_, cond, state) in enumerate(rows):
                if cond.dead:
                    continue
                if state.dying:
                    dues.append((state.dying_at, i))
                    continue
                dues.append((now + max(rest - state.rested, 0.0), i))
                if state.incapacitated and state.until is not None:
                    dues.append((state.until, i))
            upcoming = [d for d in dues if d[0] <= end + _TOLERANCE]
            step_to = min(max(min(t for t, _ in upcoming), now), end) if upcoming else end
            passed = max(step_to - now, 0.0)
            for _, cond, state in rows:
                if not cond.dead and not state.dying:
                    state.rested += passed
            clock.seconds = max(step_to, now)
            if not upcoming:
                break
            for i in sorted({i for t, i in upcoming if t <= step_to + _TOLERANCE}):
                entity, cond, state = rows[i]
                if cond.dead:
                    continue
                if state.dying:
                    if state.dying_at <= step_to + _TOLERANCE:
                        before = label_of(state, cond)
                        self._die(entity, cond, state, ctx, "dying: not healed in time")
                        self._changed(entity, cond, state, ctx, before, state.health)
                    continue
                if state.incapacitated and state.until is not None and state.until <= step_to + _TOLERANCE:
                    self.recover(entity, cond, state, ctx)
                if state.rested >= rest - _TOLERANCE:
                    self.full_rest(entity, cond, state, ctx)

    # -------------------------------------------------------------- the model's own operations

    def skill_shift(self, me: Parts, mode: StrikeMode) -> int:
        """Attack bonus from a scenario's override of the creature's weapon skill (``skill_step`` ML a point)."""
        step = self.t.skill_step
        anat = me[1]
        ml, base = anat.mls.get(mode.skill), anat.kind.skills.get(mode.skill)
        if not step or ml is None or base is None:
            return 0
        return int((ml - base) / step)

    def apply_damage(self, entity: int, cond: Condition, state: StrengthHealth, damage: int, ctx: TickContext,
                     cause: str) -> None:
        """Apply ``damage`` points (after armour) to a creature: health, critical damage, dying, death."""
        if cond.dead or damage <= 0:
            return
        t = self.t
        before_label, before_health = label_of(state, cond), state.health
        state.rested = 0.0
        strength = state.abilities["STR"]
        if state.dying and damage < strength:
            if t.damage_while_dying_kills:
                self._die(entity, cond, state, ctx, f"{cause}: {damage} damage while dying")
            self._changed(entity, cond, state, ctx, before_label, before_health)
            return
        outcome = blow_outcome(damage, state.health, strength, t.critical_ratio)
        state.health = outcome.health
        if outcome.killed:
            self._die(entity, cond, state, ctx, f"{cause}: {damage} damage >= STR {strength}")
        else:
            if outcome.critical:
                self.incapacitate(entity, cond, state, ctx)
            if outcome.dying:
                state.dying = True
                state.dying_at = ctx.clock.time + t.dying_rounds * ctx.clock.seconds_per_tick
        self._changed(entity, cond, state, ctx, before_label, before_health)

    def incapacitate(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext) -> None:
        """Critical damage: unable to act and defenceless until the end of the stretch (a new critical while
        incapacitated starts a new stretch)."""
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
            ctx.emit(FellProne(ctx.clock.tick, ctx.clock.time, entity, "incapacitated"))

    def recover(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext) -> None:
        """The stretch is over: the creature can act again (a dying one stays out)."""
        if not state.incapacitated or cond.dead:
            return
        before = label_of(state, cond)
        state.incapacitated = False
        state.until = None
        if not state.dying:
            cond.out = False
        self._changed(entity, cond, state, ctx, before, state.health)

    def settle(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext) -> None:
        """Apply what the clock decides now: death at the end of the dying round, the end of a finite stretch."""
        now = ctx.clock.time
        if state.dying and now >= state.dying_at - _EPS:
            before = label_of(state, cond)
            self._die(entity, cond, state, ctx, "dying: not healed in time")
            self._changed(entity, cond, state, ctx, before, state.health)
        elif state.incapacitated and state.until is not None and now >= state.until - _EPS:
            self.recover(entity, cond, state, ctx)

    def heal(self, entity: int, me: Parts, ctx: TickContext, points: int) -> None:
        """Restore ``points`` of health (up to current STR). A dying creature healed by at least 1 is stabilised
        and rolls on the Injuries table (it stays incapacitated until the end of the stretch).

        Raises:
            ValueError: A dead creature, or fewer than 1 point.
        """
        cond = me[5]
        state = esper.component_for_entity(entity, StrengthHealth)
        if cond.dead:
            raise ValueError("the dead cannot be healed")
        if not _is_int(points) or points < 1:
            raise ValueError(f"healing is a whole number of points, 1 or more, not {points!r}")
        before_label, before_health = label_of(state, cond), state.health
        state.health = min(state.health + points, state.max_health)
        stabilised = state.dying
        state.dying = False
        self._changed(entity, cond, state, ctx, before_label, before_health)
        if stabilised:
            self.roll_injury(entity, cond, state, ctx)

    def roll_injury(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext,
                    roll: int | None = None) -> InjuryEffect:
        """Roll (or read ``roll`` on) the d6 Injuries table and apply the entry."""
        rng = ctx.streams["injury"]
        number = roll if roll is not None else roll_die(6, rng)
        effect = injury_effect(number, state.conditions, rng, self.t.loss_die)
        clock = ctx.clock
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "injury", "",
                                   f"{effect.roll}: {effect.name} ({effect.detail})"))
        state.injuries.append(effect.name)
        state.conditions = [c for c in state.conditions if c not in effect.remove]
        state.conditions += [c for c in effect.add if c not in state.conditions]
        if effect.ability:
            self.change_ability(entity, cond, state, ctx, effect.ability, -effect.loss, temporary=True)
        return effect

    def change_ability(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext, ability: str,
                       delta: int, temporary: bool = True) -> None:
        """Raise or lower an ability (temporarily: a full rest restores it; or permanently). Lowering STR lowers
        health as much (never below 1, never critical); an ability at 0 or below kills; abilities never exceed the
        cap.

        Raises:
            ValueError: An unknown ability.
        """
        if ability not in ABILITIES:
            raise ValueError(f"abilities are {', '.join(ABILITIES)}, not {ability!r}")
        if cond.dead or not delta:
            return
        before_label, before_health = label_of(state, cond), state.health
        old = state.abilities[ability]
        change = change_ability(ability, old, state.health, delta, state.cap)
        state.abilities[ability] = change.value
        if not temporary:
            state.base[ability] = min(state.base[ability] + delta, state.cap)
        clock = ctx.clock
        if change.value != old:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, ability, str(old), str(change.value)))
        if change.died:
            self._die(entity, cond, state, ctx, f"{ability} reduced to {change.value}")
        else:
            state.health = min(change.health, state.max_health)
        self._changed(entity, cond, state, ctx, before_label, before_health)

    def full_rest(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext) -> None:
        """A full rest: temporary ability changes and the Injuries table's conditions end, health returns
        (``full_rest_heals``), incapacitation ends."""
        before_label, before_health = label_of(state, cond), state.health
        clock = ctx.clock
        for ability in ABILITIES:
            if state.abilities[ability] != state.base[ability]:
                ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, ability,
                                           str(state.abilities[ability]), str(state.base[ability])))
                state.abilities[ability] = state.base[ability]
        if state.conditions:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "conditions",
                                       ", ".join(state.conditions), ""))
            state.conditions = []
        heals = self.t.full_rest_heals
        state.health = state.max_health if heals is None else min(state.health + heals, state.max_health)
        state.rested = 0.0
        if state.incapacitated:
            state.incapacitated = False
            state.until = None
            cond.out = False
        self._changed(entity, cond, state, ctx, before_label, before_health)

    # -------------------------------------------------------------- helpers

    def _die(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext, cause: str) -> None:
        state.health = 0
        state.dying = False
        kill(entity, cond, cause, ctx)

    def _changed(self, entity: int, cond: Condition, state: StrengthHealth, ctx: TickContext, before_label: str,
                 before_health: int) -> None:
        clock = ctx.clock
        if state.health != before_health:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "health", str(before_health),
                                       str(state.health)))
        after = label_of(state, cond)
        if after != before_label:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "state", before_label, after))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
