"""The strength-health model's rules (document 003): pure functions an embedding game calls.

Numbers in, numbers and small records out, with an explicit random generator: the exploding damage dice and their
enhancement and impairment (``roll_damage``), the Armour value (``after_armor``, ``armor_value``), what a blow does
to health (``blow_outcome``), ability changes and caps, the d6 Injuries table (``injury_effect``), the conditions'
summed effect and a new creature's abilities. Also the model's name (``MODEL``, what its events carry) and
``strength_state``, the typed view of the state a creature carries, which every other room reads.

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
- The Armour value (worn armour, the creature's natural armour and the shields it holds ready) reduces damage,
  even to 0; direct damage ignores it. A shield counts while a usable, free hand of a creature able to act holds
  it; an arm injury makes that arm let it go.
- An ability reduced to 0 or below kills. Abilities never exceed 19 (15 for humans). STR loss lowers health by
  the same amount (never below 1) and is never critical damage.

Whether an attack lands is document 002's d20 roll (``sandbox.systems.d20``), as decisions.md rules. The tables and
the state component are in ``sandbox.components.models.strength``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeGuard, cast

from sandbox.components.gear import ArmorPiece
from sandbox.components.models.strength import (
    ABILITIES,
    CONDITION_WORDS,
    INJURY_NAMES,
    ConditionEffect,
    CreatureBlock,
    StrengthHealth,
)
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng, roll_die

__all__ = ["MODEL", "MODIFIER_WORDS", "AbilityChange", "BlowOutcome", "DamageRoll", "InjuryEffect", "ability_cap",
           "after_armor", "armor_value", "blow_outcome", "change_ability", "condition_totals", "exploding_pmf",
           "injury_effect", "net_modifier", "roll_damage", "roll_exploding", "spawn_abilities", "strength_state"]

MODEL = "strength"
"""The model's name: what its events and records carry."""


def strength_state(creature: Creature) -> StrengthHealth:
    """The strength-health state a creature of a strength-model world carries."""
    return cast(StrengthHealth, creature.state)


# ------------------------------------------------------------------------------------------------ damage dice


def roll_exploding(sides: int, rng: Rng, explode: bool = True) -> int:
    """Roll one damage die, exploding.

    On its maximum roll it again and add the new roll minus 1, as long as the maximum comes up (document 003: a d6
    rolling 6 then 3 gives 5 + 3 = 8).

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
"""Each ``net_modifier`` in words (``DamageRoll.how``)."""


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


def after_armor(damage: int, armor: int, direct: bool = False) -> int:
    """Damage after the Armour value (which may take it to 0); direct damage ignores armour."""
    return max(damage - (0 if direct else armor), 0)


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
    """Raise or lower an ability by ``delta`` (capped at ``cap``).

    Lowering STR lowers health by as much, never below 1 (no critical damage); an ability at 0 or below kills.
    """
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


# ------------------------------------------------------------------------------------------------ table rules


def armor_value(state: StrengthHealth, pieces: Sequence[ArmorPiece], armor: Mapping[str, int]) -> int:
    """The creature's Armour value: its natural armour plus every worn piece's."""
    return state.armor + sum(armor.get(p.id, 0) for p in pieces)


def condition_totals(conditions: Sequence[str], effects: Mapping[str, ConditionEffect]) -> ConditionEffect:
    """The summed effect of a creature's conditions."""
    found = [effects[c] for c in conditions if c in effects]
    return ConditionEffect(sum(e.attack for e in found), sum(e.defense for e in found),
                           sum(e.impaired for e in found))


def spawn_abilities(block: CreatureBlock, kind_attributes: Mapping[str, int], attributes: Mapping[str, int],
                    shift_with: Mapping[str, str], cap: int) -> dict[str, int]:
    """A new creature's abilities, from its block and the scenario's overrides.

    The block, shifted by the scenario's overrides of the attributes named in ``shift_with`` (strength 15 where the
    creature has 10: STR + 5), replaced by overrides named ``STR``, ``WIT`` or ``AGI`` themselves, then clamped to
    1..``cap``.
    """
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


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
