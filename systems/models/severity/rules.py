"""The severity model's rules (document 001): pure functions of a creature's numbers, with an explicit rng.

A landed attack deals its damage less the target's Armor Value (Halve / Negate Armor as the weapon says; no
armour against a helpless target unless the damage is indirect). One d3 per point of damage left; each 3 is one
Severity. Severity 0 is no wound; otherwise a d6 picks the effect (Weaken, Stagger, Daze, Slow, Stun, Bloody)
with X = Severity, and the effects stack. A wound whose Severity (plus overflow past an attribute's floor) is
above Threshold incapacitates; above twice Threshold it kills; at Threshold 0 any wound kills, and a creature
whose Threshold falls to 0 faints.

The module holds, in that order: reading a state (attributes, Threshold, Cognition Points, attack bonus, Defense,
armour), the rolls (the Severity dice, the effect die), a wound and its healing (``apply_wound``,
``reduce_effect``), the first-aid check and rest (``first_aid``, ``interrupts_rest``, ``best_aid_item``) and a
blow's damage through armour (``resolve_damage``). They change only the state they are given; ``severity_state``
reads a creature's. The rules as implemented: ``docs/models/severity.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sandbox.components.models.severity import ATTRIBUTE_OF, EFFECTS, SeverityRules, SeverityState
from sandbox.components.state import Equipment
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng, roll_die

__all__ = [
    "AidResult",
    "SeverityDamage",
    "WoundResult",
    "apply_wound",
    "armor_left",
    "attack_bonus",
    "attribute",
    "best_aid_item",
    "cognition_pool",
    "damage_after_armor",
    "damage_of",
    "defense",
    "first_aid",
    "full_threshold",
    "interrupts_rest",
    "reduce_effect",
    "resolve_damage",
    "roll_effect",
    "roll_severity",
    "severity_distribution",
    "severity_state",
    "threshold",
]

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
    """The d20 attack bonus for a strike of ``kind`` (melee, thrown, missile).

    The block's bonus less the damage of the attribute that kind of attack relies on.
    """
    return state.attack_bonus - damage_of(state, rules.attack_attribute.get(kind, ""))


def defense(state: SeverityState, rules: SeverityRules) -> int:
    """Defense now: the block's Defense less the damage of the defence attribute (Poise)."""
    return state.defense - damage_of(state, rules.defense_attribute)


def armor_left(armor_value: int, anti_armor: str) -> int:
    """Armor Value after Anti-Armour.

    ``halve`` halves it (rounding down, in the attacker's favour), ``negate`` ignores it.
    """
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


def severity_state(creature: Creature) -> SeverityState:
    """The severity state a creature of a severity-model world carries."""
    return cast(SeverityState, creature.state)


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
    """Reduce one accumulated wound effect by 1 (``effect``, or the first in the healing order that is there).

    Returns the effect reduced, or ``None`` when there was nothing to reduce.

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
    """First aid: d20 + ``skill`` against the difficulty (10); on oneself with disadvantage.

    On oneself, roll twice and keep the lower. Success reduces one accumulated wound effect by 1 (the first in the
    healing order).

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


def interrupts_rest(difficulty: int, rules: SeverityRules) -> bool:
    """Whether a check of ``difficulty`` interrupts the roller's rest.

    Document 001: "if it requires a Clash Roll or a Skill Check of 7 or more, it interrupts rest".
    """
    return difficulty >= rules.rest_interrupting_check


def best_aid_item(equip: Equipment, rules: SeverityRules) -> tuple[str, int]:
    """The first-aid item a healer carries that lowers the difficulty most, and by how much (``("", 0)``: none)."""
    best, by = "", 0
    for item in equip.items:
        entry = rules.items.get(item)
        if entry is not None and entry.difficulty < by:
            best, by = item, entry.difficulty
    return best, by


# ------------------------------------------------------------------------------------------------- a blow


@dataclass(frozen=True, slots=True)
class SeverityDamage:
    """What a blow's damage came to: armour, the Severity dice and the effect (before the wound is applied).

    Attributes:
        rolled: Damage rolled (or given).
        armor_value: The target's Armor Value (natural and worn) that could apply.
        anti_armor: ``none``, ``halve`` (Halve Armor) or ``negate`` (Negate Armor).
        helpless: The target could not defend (its armour is ignored unless the damage is indirect).
        indirect: Indirect damage (armour applies even to a helpless target).
        applied: The Armor Value that applied.
        dealt: Damage left after armour.
        severity: The wound's Severity (0: no wound).
        dice: The Severity dice, one per point dealt (none when the Severity was given).
        effect: The wound's effect, or "" for no wound.
        die: Faces of the Severity die (3).
        face: The face that counts one Severity (3).
    """

    rolled: int
    armor_value: int
    anti_armor: str
    helpless: bool
    indirect: bool
    applied: int
    dealt: int
    severity: int
    dice: tuple[int, ...]
    effect: str
    die: int = 3
    face: int = 3

    def how(self) -> str:
        """``d3s 3,1,3 -> Severity 2`` (``Severity 2`` when the Severity was given, ``Severity 0`` for no damage)."""
        if self.dice:
            return f"d{self.die}s {','.join(map(str, self.dice))} -> Severity {self.severity}"
        return f"Severity {self.severity}"

    def detail(self) -> str:
        """The damage in a few words, as ``DamageDealt.detail`` holds it.

        For example ``9 - armour 4 = 5; d3s 3,1,2,3,1 -> Severity 2; bloody``.
        """
        if self.helpless and not self.indirect:
            armour = "armour ignored (helpless)"
        else:
            armour = f"armour {self.applied}" + (f" ({self.anti_armor} armor)" if self.anti_armor != "none" else "")
        wound = f"; {self.effect}" if self.severity > 0 else "; no wound"
        return f"{self.rolled} - {armour} = {self.dealt}; {self.how()}{wound}"

    def armour_words(self, target: str) -> str:
        """How much got through the target's armour, in words."""
        if self.helpless and not self.indirect:
            return f"{target} cannot defend, so its armour is ignored: all {self.dealt} get through"
        if self.armor_value == 0:
            return f"no armour: all {self.dealt} get through"
        if self.anti_armor == "negate":
            armour = f"Armor Value {self.armor_value}, negated (Negate Armor)"
        elif self.anti_armor == "halve":
            armour = f"Armor Value {self.armor_value}, halved to {self.applied} (Halve Armor, rounding down)"
        else:
            armour = f"Armor Value {self.armor_value}"
        if self.helpless:
            armour += f" (indirect damage meets armour even though {target} cannot defend)"
        if self.dealt == 0 and self.rolled > 0:
            return f"{armour}: it stops them all"
        return f"{armour}: {self.rolled} - {self.applied} = {self.dealt} get through"

    def severity_words(self) -> str:
        """How the damage became a Severity, in words."""
        if not self.dice:
            return f"No damage got through: Severity {self.severity}, no wound" if self.severity == 0 \
                else f"Severity {self.severity}, given"
        words = f"One d{self.die} per point: {', '.join(map(str, self.dice))}; each {self.face} is one Severity: " \
                f"Severity {self.severity}"
        return words + ("" if self.severity else ", no wound")


def resolve_damage(rolled: int, armor_value: int, anti_armor: str, rules: SeverityRules, rng: Rng, *,
                   helpless: bool = False, indirect: bool = False, severity: int | None = None,
                   effect: str | None = None) -> SeverityDamage:
    """The damage of a blow through armour, its Severity (one d3 per point left) and its effect (the d6).

    The Severity and the effect are rolled unless ``severity`` and ``effect`` are given. Draws from ``rng`` in that
    order; changes nothing.
    """
    dealt, applied = damage_after_armor(rolled, armor_value, anti_armor, helpless=helpless, indirect=indirect)
    dice: tuple[int, ...] = ()
    if severity is None:
        severity, dice = roll_severity(dealt, rules, rng)
    if severity > 0 and effect is None:
        effect = roll_effect(rules, rng)
    return SeverityDamage(rolled, armor_value, anti_armor, helpless, indirect, applied, dealt, severity, dice,
                          effect or "", rules.severity_die, rules.severity_face)
