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
- The Armour value (worn armour, the creature's natural armour and the shields it holds ready) reduces damage,
  even to 0; direct damage ignores it. A shield counts while a usable, free hand of a creature able to act holds
  it; an arm injury makes that arm let it go.
- Healing items (document 003: "Lost health can be recovered by resting (see Rest) or using healing items"):
  in a fight a creature with no enemy within its reach uses one on a dying team-mate near it, or on itself when
  low (``turn_action``, ``act``); out of combat the care policy's tender uses one on every dying creature at once.
  A dying creature healed by at least 1 is stabilised and rolls on the Injuries table.
- An ability reduced to 0 or below kills. Abilities never exceed 19 (15 for humans). STR loss lowers health by
  the same amount (never below 1) and is never critical damage.

Whether an attack lands is document 002's d20 roll (``sandbox.systems.d20``), as decisions.md rules. Out of
combat (``advance``) the dying are given healing items, the stretch ends, the dying left die at the end of their round
and rest adds up to full rests, each as it falls due in the shared due queue (``sandbox.systems.schedule``).

Pure functions come first (what an embedding game calls), then the attack record and the model class. The tables
and the state component are in ``sandbox.components.models.strength``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, TypeGuard, cast

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import AttackDeclared, DamageDealt, Event, FellProne, ModelStateChanged
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.log import Names
from sandbox.components.models.strength import (
    ABILITIES,
    CONDITION_WORDS,
    INJURY_NAMES,
    ConditionEffect,
    CreatureBlock,
    HealingItem,
    StrengthHealth,
    StrengthTables,
    WeaponDamage,
    default_tables,
)
from sandbox.components.readout import Readout, WoundReading
from sandbox.components.state import Condition
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import drop_held, kill, shields_held
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.d20 import D20Roll, d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, register
from sandbox.systems.dice import Rng, roll_dice, roll_die
from sandbox.systems.models.strength.state import check_saved_state
from sandbox.systems.phases import Phase
from sandbox.systems.schedule import Due, DueQueue

MODEL = "strength"
_EPS = 1e-9
_TOLERANCE = 1e-6
"""Seconds within which due times out of combat count as the same moment."""
KINDS: Mapping[str, int] = {"die": 0, "recover": 0, "rest": 0}
"""The due rules out of combat; one rank, so what falls due at the same moment runs by entity (each creature
dies, or recovers and then rests, in turn)."""


def strength_state(creature: Creature) -> StrengthHealth:
    """The strength-health state a creature of a strength-model world carries."""
    return cast(StrengthHealth, creature.state)


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


# ------------------------------------------------------------------------------------------------ table rules


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


def wound_readings(state: StrengthHealth) -> tuple[WoundReading, ...]:
    """What the Injuries table left, in words: each condition and each temporary ability loss until a full rest
    (open), and each scar (lasting; nothing to treat). The model places no wound on the body."""
    out = [WoundReading("", "", CONDITION_WORDS[c], text=f"{CONDITION_WORDS[c]}, until a full rest")
           for c in state.conditions]
    for ability in ABILITIES:
        change = state.abilities[ability] - state.base[ability]
        if change < 0:
            out.append(WoundReading("", "", f"{ability} {change:+d}",
                                    text=f"{ability} {state.abilities[ability]} ({change:+d}), until a full rest"))
    out += [WoundReading("", "", "scarred", treated=True, text="scarred: a permanent mark, nothing else")
            for name in state.injuries if name == "scarred"]
    return tuple(out)


# ------------------------------------------------------------------------------------------------ attack record


@dataclass(slots=True)
class StrengthAttack:
    """One attack under the strength model, compactly (``events()`` gives the typed events, ``explain`` the words).

    Attributes:
        tick: Tick of the attack.
        time: Game time.
        attacker: Attacking entity (-1: a blow struck directly, with no attack roll).
        target: Defending entity.
        mode: Strike mode id.
        roll: The d20 attack roll (``None``: struck directly, no roll).
        mode_name: The strike mode's name.
        bonuses: What the roll added, in words and numbers (("its own", 2), ("the weapon", 0) ...).
        defenses: What the Defense was made of (("its own", 11), ("its conditions", -2)), or
            (("defenceless", 0),) when the target could not act.
        damage: The damage roll when it landed.
        armour: The Armour value that applied (0 for direct damage), shields included.
        shield: The part of ``armour`` the target's shields gave.
        direct: The weapon's damage is direct (armour does not apply).
        dealt: Damage after armour.
        enhanced_by_20: Enhancements a natural 20 added to the damage.
        outcome: What the damage did, in words (filled in as it is applied).
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    roll: D20Roll | None
    mode_name: str = ""
    bonuses: tuple[tuple[str, int], ...] = ()
    defenses: tuple[tuple[str, int], ...] = ()
    damage: DamageRoll | None = None
    armour: int = 0
    shield: int = 0
    direct: bool = False
    dealt: int = 0
    enhanced_by_20: int = 0
    outcome: str = ""

    headline: ClassVar[bool] = True

    @property
    def hit(self) -> bool:
        """The attack landed (a blow struck directly always does)."""
        return self.roll is None or self.roll.hit

    @property
    def natural(self) -> int:
        """The d20 (0 without a roll)."""
        return self.roll.natural if self.roll is not None else 0

    @property
    def total(self) -> int:
        """d20 + attack bonus (0 without a roll)."""
        return self.roll.total if self.roll is not None else 0

    @property
    def defense(self) -> int:
        """The target's Defense (0 without a roll)."""
        return self.roll.defense if self.roll is not None else 0

    @property
    def margin(self) -> int:
        """Total - Defense (0 without a roll)."""
        return self.roll.margin if self.roll is not None else 0

    @property
    def struck(self) -> bool:
        """The attack landed (its damage may still be 0 after armour)."""
        return self.damage is not None

    def events(self) -> list[Event]:
        """The attack roll (declared unaimed: the model places no blow) and, when it landed, the damage."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.roll is not None:
            out = self.roll.events(t, time, a, d, MODEL, self.mode)
        else:
            out = [AttackDeclared(t, time, a, d, self.mode, "unaimed")]
        if self.damage is not None:
            out.append(DamageDealt(t, time, a, d, MODEL, self.damage.total, self.dealt,
                                   damage_detail(self.damage, self.armour, self.dealt)))
        return out

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Bertram: Broadsword cut: 5 damage (8 rolled: d8: 8, 1 -> 8; armour 3 -> 5)``; ``None`` for a
        miss."""
        if self.damage is None:
            return None
        return (f"{_who(names, self.attacker)} -> {_who(names, self.target)}: {self.mode_name}: {self.dealt} damage "
                f"({self.damage.total} rolled: {damage_detail(self.damage, self.armour, self.dealt)})")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll, the damage dice, armour, what the damage did."""
        attacker, target = _who(names, self.attacker), _who(names, self.target)
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode_name}"]
        roll = self.roll
        if roll is None:
            lines.append("Struck directly: no attack roll, the blow lands")
        else:
            lines.append("Attack bonus: " + ", ".join(f"{what} {n:+d}" for what, n in self.bonuses)
                         + f" = {roll.bonus:+d}")
            if self.defenses and self.defenses[0][0] == "defenceless":
                lines.append(f"{target} cannot act and is defenceless: Defense {roll.defense}")
            else:
                lines.append("Defense: " + ", ".join(f"{what} {n:+d}" if i else f"{what} {n}"
                                                     for i, (what, n) in enumerate(self.defenses))
                             + f" = {roll.defense}")
            lines.append(f"Roll: {roll.describe()}")
        damage = self.damage
        if damage is None:
            return lines
        if self.enhanced_by_20:
            lines.append("The natural 20 enhances the damage" + (f" {self.enhanced_by_20} times"
                                                                 if self.enhanced_by_20 > 1 else ""))
        lines.append(f"Damage: {damage_words(damage)}")
        if self.direct:
            lines.append(f"Direct damage: armour does not apply; {self.dealt} damage")
        elif self.armour:
            shield = f" (its shield {self.shield})" if self.shield else ""
            lines.append(f"Armour value {self.armour}{shield} takes it to {self.dealt}")
        else:
            lines.append(f"No armour: {self.dealt} damage")
        if self.outcome:
            lines.append(f"{target}: {self.outcome}")
        return lines


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


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


def damage_words(roll: DamageRoll) -> str:
    """A damage roll in a sentence: ``d6 enhanced (rolled twice, the higher kept): 4 and 8 (exploded), keeps 8``
    (a die that comes up on its maximum is rolled again and adds the new roll minus 1, so any total of the die's
    size or more exploded)."""
    if roll.how == "ignored":
        return f"d{roll.die} impaired twice (net): the damage is ignored, nothing is rolled"
    how = {"normal": "", "enhanced": " enhanced (rolled twice, the higher kept)",
           "impaired": " impaired (rolled twice, the lower kept)"}[roll.how]
    rolls = [f"{r} (exploded)" if r >= roll.die else str(r) for r in roll.rolls]
    text = f"d{roll.die}{how}: " + " and ".join(rolls)
    if len(roll.rolls) > 1:
        text += f", keeps {roll.kept}"
    if roll.bonus:
        text += f", {roll.bonus:+d} = {roll.total}"
    return text


# ------------------------------------------------------------------------------------------------ the model


class StrengthRecoveryProcessor(esper.Processor):
    """RECOVERY phase: the dying die at the end of their next round; a finite stretch ends; fighting is no rest."""

    def __init__(self, ctx: TickContext, model: StrengthModel) -> None:
        self.ctx = ctx
        self.model = model

    def process(self) -> None:
        """Settle every creature's dying and incapacitation by the clock, in entity order."""
        ctx = self.ctx
        for c in ctx.current().creatures.values():
            if c.condition.dead:
                continue
            strength_state(c).rested = 0.0
            self.model.settle(c, ctx)


@register
class StrengthModel(DamageModel):
    """Document 003: health equal to STR, critical damage, dying and the Injuries table.

    Args:
        tables: The model's tables (``configs/models/strength.toml``; default: the document's numbers with no
            weapons, armour or creatures).
    """

    name = MODEL
    own_turns = True


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
                               block.armour),)

    # -------------------------------------------------------------- the loop's questions

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Health remaining (0 when dead)."""
        return 0 if creature.condition.dead else strength_state(creature).health

    def items(self) -> Collection[str]:
        """The healing items the tables give an effect (``[items]``)."""
        return tuple(self.t.items)

    def armour_of(self, creature: Creature, ctx: TickContext) -> tuple[int, int]:
        """The creature's Armour value now and the part of it its shields give: natural armour, every worn piece,
        and each shield held ready (by a usable, free hand of a creature able to act: ``shields_held``)."""
        t = self.t
        held = shields_held(creature.equipment, self.part_states(creature), creature.condition, ctx.weapons)
        shield = sum(t.shields.get(s, 0) for s in held)
        return armour_value(strength_state(creature), creature.armor.pieces, t.armor) + shield, shield

    # -------------------------------------------------------------- healing items

    def usable_items(self, creature: Creature) -> list[str]:
        """The healing items the creature carries that the tables give an effect, the most healing first."""
        t = self.t
        mine = [i for i in creature.equipment.items if i in t.items]
        return sorted(dict.fromkeys(mine), key=lambda i: -_mean(t.items[i]))

    def turn_action(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                    ctx: TickContext, *, threatened: bool = False) -> TurnAction | None:
        """A healing item on a dying team-mate within reach (the soonest to die first) when no enemy is within the
        creature's reach, else on itself when its health is at most ``item_use.self_at`` of its STR (with an enemy in
        reach too, when ``item_use.self_in_melee``); ``None`` when it carries none or nobody needs one."""
        mine = self.usable_items(creature)
        if not mine:
            return None
        use = self.t.item_use
        if threatened and not use.self_in_melee:
            return None
        dying = [] if threatened else [c for c in near(use.reach)
                                       if c.entity != creature.entity and self._needs_item(c, False)]
        if dying:
            patient = min(dying, key=lambda c: (strength_state(c).dying_at, c.entity))
            return TurnAction("healing item", patient.entity, mine[0])
        if self._needs_item(creature, True):
            return TurnAction("healing item", creature.entity, mine[0])
        return None

    def _needs_item(self, c: Creature, on_self: bool) -> bool:
        state = strength_state(c)
        if c.condition.dead:
            return False
        if not on_self:
            return state.dying
        return state.health < state.max_health and state.health <= self.t.item_use.self_at * state.max_health

    def act(self, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
        """Use the healing item chosen on the patient (within reach when the turn began), if it still needs it and the
        item is still carried (a team-mate saved earlier this tick is not given another)."""
        patient = ctx.creatures().get(action.patient)
        if patient is None or action.item not in creature.equipment.items:
            return
        if self._needs_item(patient, patient.entity == creature.entity):
            self.use_item(creature, patient, action.item, ctx)

    def use_item(self, user: Creature, patient: Creature, item: str, ctx: TickContext,
                 owner: Creature | None = None) -> int:
        """``user`` uses the healing item ``item`` (carried by ``owner``, default the user) on ``patient``: the
        health it restores (at least 1), the item used up if it is consumable, then ``heal`` (a dying patient is
        stabilised and rolls on the Injuries table). Returns the health restored.

        Raises:
            ModelError: An item the tables give no effect, one the owner does not carry, or a dead patient.
        """
        healing = self.t.items.get(item)
        owner = owner or user
        if healing is None or item not in owner.equipment.items:
            raise ModelError(f"{owner.name} carries no healing item {item!r} this model knows")
        if patient.condition.dead:
            raise ModelError("the dead cannot be healed")
        points = max(1, roll_dice(healing.heals, ctx.streams["healing"]))
        if healing.consumable:
            owner.equipment.items.remove(item)
        clock = ctx.clock
        by = "itself" if user.entity == patient.entity else user.name
        ctx.emit(ModelStateChanged(clock.tick, clock.time, patient.entity, MODEL, f"healing item: {item} by {by}",
                                   "", f"+{points} health ({healing.heals})"))
        self.heal(patient, ctx, points)
        return points

    def _tend_the_dying(self, ctx: TickContext, care: CarePolicy, creatures: Mapping[int, Creature]) -> None:
        """Out of combat, at once: every dying creature is given a healing item by its tender (the care policy's:
        the team-mate able to act carrying the most, only the named healers when it names them), the tender's own
        or, failing that, the patient's; in entity order."""
        now = ctx.clock.seconds
        circle = CareCircle(creatures, care, lambda c, on_self: len(self.usable_items(c)))
        for e, c in creatures.items():
            state = strength_state(c)
            if c.condition.dead or not state.dying or state.dying_at <= now + _EPS:
                continue
            tender = circle.tender_for(e)
            if tender is None:
                continue
            helper = creatures[tender.entity]
            owner = helper if self.usable_items(helper) else c if self.usable_items(c) else None
            if owner is None:
                continue
            self.use_item(helper, c, self.usable_items(owner)[0], ctx, owner)
            circle.update(helper.entity)
            circle.update(e)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """Dying, the stretch's end and rest, by the clock."""
        return [(Phase.RECOVERY, StrengthRecoveryProcessor(ctx, self))]

    # -------------------------------------------------------------- attack

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> StrengthAttack:
        """Document 002's d20 roll (d20 + attack bonus vs Defense, margin >= 1), then the damage roll, armour and
        its effect, applied at once."""
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
        if roll.hit:
            boost = t.natural_20_enhanced if roll.natural == 20 else 0
            self._roll_damage(record, weapon, target, boost, mine.impaired, ctx)
        ctx.log.append(record)
        if roll.hit:
            record.outcome = self.apply_damage(target, record.dealt, ctx, mode.name)
        return record

    def _roll_damage(self, record: StrengthAttack, weapon: WeaponDamage, target: Creature, boost: int,
                     impaired: int, ctx: TickContext) -> None:
        t = self.t
        record.enhanced_by_20 = boost
        record.damage = roll_damage(weapon.die, ctx.streams["injury"], weapon.enhanced + boost,
                                    weapon.impaired + impaired, weapon.bonus, t.explode)
        record.direct = weapon.direct
        record.armour, record.shield = (0, 0) if weapon.direct else self.armour_of(target, ctx)
        record.dealt = after_armour(record.damage.total, record.armour)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack, or (no attacker) a blow that lands: the mode's damage die (exploding,
        enhanced and impaired as its entry says), less armour unless its damage is direct. The model places no
        blow on the body, so an aim changes nothing.

        Raises:
            ModelError: An aim the target's body does not have.
        """
        body = target.anatomy.body
        if aim != "unaimed":
            try:
                body.part_index(aim)
            except KeyError:
                try:
                    body.location_index(aim)
                except KeyError:
                    raise ModelError(f"{body.name} has no part or location {aim!r}; its parts: "
                                     f"{', '.join(p.name for p in body.parts)}") from None
        if attacker is not None:
            self.attack(attacker, target, mode, (), ctx)
            return
        weapon = self.t.weapons.get(mode.id) or WeaponDamage(4)
        clock = ctx.clock
        record = StrengthAttack(clock.tick, clock.time, -1, target.entity, mode.id, None, mode.name)
        self._roll_damage(record, weapon, target, 0, 0, ctx)
        ctx.log.append(record)
        record.outcome = self.apply_damage(target, record.dealt, ctx, mode.name)

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
        armour = 0 if options.get("direct", False) else self.armour_of(creature, ctx)[0]
        dealt = after_armour(roll.total, armour)
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, roll.total, dealt,
                             damage_detail(roll, armour, dealt)))
        self.apply_damage(creature, dealt, ctx, "inflicted")

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Apply what the clock decides now: death at the end of the dying round, the end of a finite stretch."""
        state = strength_state(creature)
        now = ctx.clock.time
        if state.dying and now >= state.dying_at - _EPS:
            before = label_of(state, creature.condition)
            self._die(creature, ctx, "dying: not healed in time")
            self._changed(creature, ctx, before, state.health)
        elif state.incapacitated and state.until is not None and now >= state.until - _EPS:
            self.recover(creature, ctx)

    # -------------------------------------------------------------- reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """Label (healthy, hurt, incapacitated, dying, dead), health remaining, band, conditions, what the
        Injuries table left (``wounds``) and the model's numbers (``details``)."""
        state = strength_state(creature)
        cond, equip = creature.condition, creature.equipment
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
        return Readout(not cond.dead, can_act(cond), label, health, band_of(state, cond), shock, tuple(conditions),
                       wound_readings(state), self.part_readings(creature), self._details(creature, ctx))

    def _details(self, creature: Creature, ctx: TickContext) -> tuple[tuple[str, str], ...]:
        t = self.t
        state = strength_state(creature)
        worn = sum(t.armor.get(p.id, 0) for p in creature.armor.pieces)
        total, shield = self.armour_of(creature, ctx)
        abilities = ", ".join(f"{a} {state.abilities[a]}" + (f" (base {state.base[a]})"
                                                            if state.abilities[a] != state.base[a] else "")
                              for a in ABILITIES)
        details = [("health", f"{0 if creature.condition.dead else state.health} of {state.max_health} (STR)"),
                   ("abilities", f"{abilities}; at most {state.cap}"),
                   ("attack bonus", f"{state.attack:+d}"),
                   ("Defense", str(state.defense)),
                   ("Armour value", f"{state.armour} natural + {worn} worn" + (f" + {shield} shield" if shield else "")
                    + f" = {total}")]
        carried = [i for i in creature.equipment.items if i in t.items]
        if carried:
            details.append(("healing items", ", ".join(f"{i} x{carried.count(i)}" for i in dict.fromkeys(carried))))
        if not creature.condition.dead:
            if state.dying:
                details.append(("dying", f"dies at {state.dying_at:g} s unless healed"))
            if state.incapacitated:
                details.append(("incapacitated", "until the end of the skirmish" if state.until is None
                                else f"until {state.until:g} s"))
            details.append(("rest", f"{state.rested / 3600:.1f} of {t.full_rest_hours:g} hours towards a full "
                                    "rest"))
        return tuple(details)

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """Alive: health 0..current STR, abilities 1..the cap, out exactly while incapacitated or dying."""
        state = strength_state(creature)
        cond = creature.condition
        if cond.dead:
            return []
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if not 0 <= state.health <= state.max_health:
            breaches.append(f"{who} has health {state.health} of {state.max_health}")
        for ability in ABILITIES:
            if not 1 <= state.abilities[ability] <= state.cap:
                breaches.append(f"{who} is alive with {ability} {state.abilities[ability]} (cap {state.cap})")
        if cond.out != (state.incapacitated or state.dying):
            breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while "
                            f"{label_of(state, cond)}")
        return breaches

    # -------------------------------------------------------------- out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Time out of combat: at once, the care policy's tender gives every dying creature a healing item (its own,
        else the patient's: ``_tend_the_dying``; stabilised, it rolls on the Injuries table); the skirmish's stretch
        is over (the incapacitated recover); the dying left die at the end of their round; a finite stretch ends;
        and every ``full_rest_hours`` of rest is a full rest.

        Each due time (a death, the end of a stretch, a full rest) is kept in the shared due queue. The earliest
        sets the moment (never before now, never past the end); everything due within ``_TOLERANCE`` of it runs
        then, creature by creature in entity order (a death; or the stretch's end, then a full rest).

        Raises:
            ModelError: A negative span.
        """
        if seconds < 0:
            raise ModelError(f"time only moves forward, not by {seconds:g} s")
        clock = ctx.clock
        end = clock.seconds + seconds
        rest = self.t.full_rest_hours * 3600.0
        creatures = ctx.creatures()
        self._tend_the_dying(ctx, care, creatures)
        for c in creatures.values():
            state = strength_state(c)
            if not c.condition.dead and state.incapacitated and not state.dying and state.until is None:
                self.recover(c, ctx)
        queue = DueQueue(KINDS)
        rest_due: dict[int, float] = {}  # entity -> when its rest makes a full rest (the living, not dying)
        since: dict[int, float] = {}  # entity -> the game time its ``rested`` is counted up to
        now = clock.seconds
        for e, c in creatures.items():
            state = strength_state(c)
            if c.condition.dead:
                continue
            if state.dying:
                queue.push("die", e, state.dying_at)
                continue
            rest_due[e] = now + max(rest - state.rested, 0.0)
            since[e] = now
            queue.push("rest", e, rest_due[e])
            if state.incapacitated and state.until is not None:
                queue.push("recover", e, state.until)

        def is_due(due: Due) -> bool:
            c = creatures[due.entity]
            state = strength_state(c)
            if c.condition.dead:
                return False
            if due.kind == "die":
                return state.dying and state.dying_at == due.time
            if state.dying:
                return False
            if due.kind == "recover":
                return state.incapacitated and state.until == due.time
            return rest_due.get(due.entity) == due.time

        ctx.due = queue
        try:
            while True:
                first = next(queue.pop_due(end + _TOLERANCE, is_due), None)
                if first is None:
                    break
                now = clock.seconds
                step_to = min(max(first.time, now), end)
                clock.seconds = max(step_to, now)
                group = sorted({first.entity, *(d.entity for d in queue.pop_due(step_to + _TOLERANCE, is_due))})
                for e in group:
                    c = creatures[e]
                    state = strength_state(c)
                    cond = c.condition
                    if cond.dead:
                        continue
                    if state.dying:
                        if state.dying_at <= step_to + _TOLERANCE:
                            before = label_of(state, cond)
                            self._die(c, ctx, "dying: not healed in time")
                            self._changed(c, ctx, before, state.health)
                        continue
                    state.rested += max(step_to - since[e], 0.0)
                    since[e] = step_to
                    if state.incapacitated and state.until is not None and state.until <= step_to + _TOLERANCE:
                        self.recover(c, ctx)
                    if state.rested >= rest - _TOLERANCE:
                        self.full_rest(c, ctx)
                        rest_due[e] = step_to + rest
                        queue.push("rest", e, rest_due[e])
            for e, start in since.items():
                c = creatures[e]
                if not c.condition.dead and not strength_state(c).dying:
                    strength_state(c).rested += max(end - start, 0.0)
        finally:
            ctx.due = None
        clock.seconds = end

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
        """Apply ``damage`` points (after armour) to a creature: health, critical damage, dying, death. Returns
        what it did, in words."""
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
                self._die(creature, ctx, f"{cause}: {damage} damage while dying")
                words = f"{damage} damage while dying: dead"
            else:
                words = f"{damage} damage while dying: no further effect"
            self._changed(creature, ctx, before_label, before_health)
            return words
        outcome = blow_outcome(damage, state.health, strength, t.critical_ratio)
        state.health = outcome.health
        if outcome.killed:
            self._die(creature, ctx, f"{cause}: {damage} damage >= STR {strength}")
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
        self._changed(creature, ctx, before_label, before_health)
        return words

    def incapacitate(self, creature: Creature, ctx: TickContext) -> None:
        """Critical damage: unable to act and defenceless until the end of the stretch (a new critical while
        incapacitated starts a new stretch)."""
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
        state, cond = strength_state(creature), creature.condition
        if not state.incapacitated or cond.dead:
            return
        before = label_of(state, cond)
        state.incapacitated = False
        state.until = None
        if not state.dying:
            cond.out = False
        self._changed(creature, ctx, before, state.health)

    def heal(self, creature: Creature, ctx: TickContext, points: int) -> None:
        """Restore ``points`` of health (up to current STR). A dying creature healed by at least 1 is stabilised
        and rolls on the Injuries table (it stays incapacitated until the end of the stretch).

        Raises:
            ModelError: A dead creature, or fewer than 1 point.
        """
        state, cond = strength_state(creature), creature.condition
        if cond.dead:
            raise ModelError("the dead cannot be healed")
        if not _is_int(points) or points < 1:
            raise ModelError(f"healing is a whole number of points, 1 or more, not {points!r}")
        before_label, before_health = label_of(state, cond), state.health
        state.health = min(state.health + points, state.max_health)
        stabilised = state.dying
        state.dying = False
        self._changed(creature, ctx, before_label, before_health)
        if stabilised:
            self.roll_injury(creature, ctx)

    def roll_injury(self, creature: Creature, ctx: TickContext, roll: int | None = None) -> InjuryEffect:
        """Roll (or read ``roll`` on) the d6 Injuries table and apply the entry."""
        state = strength_state(creature)
        rng = ctx.streams["injury"]
        number = roll if roll is not None else roll_die(6, rng)
        effect = injury_effect(number, state.conditions, rng, self.t.loss_die)
        clock = ctx.clock
        ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "injury", "",
                                   f"{effect.roll}: {effect.name} ({effect.detail})"))
        state.injuries.append(effect.name)
        state.conditions = [c for c in state.conditions if c not in effect.remove]
        state.conditions += [c for c in effect.add if c not in state.conditions]
        for condition in effect.add:
            if self.t.conditions.get(condition, ConditionEffect()).drops_shield:
                self._arm_lets_go(creature, condition, ctx)
        if effect.ability:
            self.change_ability(creature, ctx, effect.ability, -effect.loss, temporary=True)
        return effect

    def change_ability(self, creature: Creature, ctx: TickContext, ability: str, delta: int,
                       temporary: bool = True) -> None:
        """Raise or lower an ability (temporarily: a full rest restores it; or permanently). Lowering STR lowers
        health as much (never below 1, never critical); an ability at 0 or below kills; abilities never exceed the
        cap.

        Raises:
            ModelError: An unknown ability.
        """
        if ability not in ABILITIES:
            raise ModelError(f"abilities are {', '.join(ABILITIES)}, not {ability!r}")
        state, cond = strength_state(creature), creature.condition
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
            ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, ability, str(old),
                                       str(change.value)))
        if change.died:
            self._die(creature, ctx, f"{ability} reduced to {change.value}")
        else:
            state.health = min(change.health, state.max_health)
        self._changed(creature, ctx, before_label, before_health)

    def full_rest(self, creature: Creature, ctx: TickContext) -> None:
        """A full rest: temporary ability changes and the Injuries table's conditions end, health returns
        (``full_rest_heals``), incapacitation ends."""
        state, cond = strength_state(creature), creature.condition
        entity = creature.entity
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
        self._changed(creature, ctx, before_label, before_health)

    def _arm_lets_go(self, creature: Creature, condition: str, ctx: TickContext) -> None:
        """An arm injury: the injured arm (the primary arm is the dominant side's, the secondary the other's) lets
        go of any shield it holds."""
        primary = "left" if creature.anatomy.kind.dominance == "left" else "right"
        side = primary if condition == "arm_injury_primary" else ("left" if primary == "right" else "right")
        body, equip = creature.anatomy.body, creature.equipment
        for part, item in sorted(equip.holding.items()):
            weapon = ctx.weapons.get(item)
            if weapon is not None and weapon.shield and body.parts[part].side == side and part in equip.holding:
                drop_held(creature.entity, equip, part, body.parts[part].name, False, ctx)

    # -------------------------------------------------------------- helpers

    def _die(self, creature: Creature, ctx: TickContext, cause: str) -> None:
        state = strength_state(creature)
        state.health = 0
        state.dying = False
        kill(creature.entity, creature.condition, cause, ctx)

    def _changed(self, creature: Creature, ctx: TickContext, before_label: str, before_health: int) -> None:
        state = strength_state(creature)
        clock = ctx.clock
        if state.health != before_health:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "health", str(before_health),
                                       str(state.health)))
        after = label_of(state, creature.condition)
        if after != before_label:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, creature.entity, MODEL, "state", before_label, after))


def _mean(item: HealingItem) -> float:
    dice = item.heals
    return dice.count * (dice.sides + 1) / 2 + dice.modifier


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
