"""The severity model (document 001): wound Severity from d3s, the d6 effect table, Threshold, first aid and rest.

A landed attack deals its damage less the target's Armor Value (Halve / Negate Armor as the weapon says; no
armour against a helpless target unless the damage is indirect). One d3 per point of damage left; each 3 is one
Severity. Severity 0 is no wound; otherwise a d6 picks the effect (Weaken, Stagger, Daze, Slow, Stun, Bloody)
with X = Severity, and the effects stack. A wound whose Severity (plus overflow past an attribute's floor) is
above Threshold incapacitates; above twice Threshold it kills; at Threshold 0 any wound kills, and a creature
whose Threshold falls to 0 faints.

First aid ("If in combat, the only conventional (non-magic) option for healing is First Aid"): in a fight a creature
with a first-aid bonus and no enemy within its reach spends its turn on a bleeding or fainted team-mate beside it,
or itself (``turn_action``, ``act``); out of combat the care policy's tender gives it after the fight. The healer's
best first-aid item (medicine, equipment) lowers the difficulty. Rest is interrupted by combat and by every check of
difficulty 7 or more the creature makes.

The pure rule functions come first (what an embedding game calls), then the attack record, the turn processor (stun),
the out-of-combat ``advance`` and the ``SeverityModel`` that plugs them into the damage-model interface. The model's
tables and its state component are in ``sandbox.components.models.severity``. The attack roll is document 002's
(``sandbox.systems.d20``), as decisions.md says. The rules as implemented: ``docs/models/severity.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import AttackDeclared, DamageDealt, Event, Missed, ModelStateChanged
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.log import Names
from sandbox.components.models.severity import (
    ANTI_ARMOR,
    ATTRIBUTE_OF,
    EFFECTS,
    SeverityRules,
    SeverityState,
    SeverityWeapon,
)
from sandbox.components.readout import Readout, WoundReading
from sandbox.components.state import Condition, Equipment
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature, able
from sandbox.systems.d20 import D20Roll, d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, register
from sandbox.systems.dice import Rng, roll_dice, roll_die
from sandbox.systems.models.severity.state import check_saved_state
from sandbox.systems.phases import Phase
from sandbox.systems.schedule import Due, DueQueue

MODEL = "severity"

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


def interrupts_rest(difficulty: int, rules: SeverityRules) -> bool:
    """Whether a check of ``difficulty`` interrupts the roller's rest (document 001: "if it requires a Clash Roll or
    a Skill Check of 7 or more, it interrupts rest")."""
    return difficulty >= rules.rest_interrupting_check


def best_aid_item(equip: Equipment, rules: SeverityRules) -> tuple[str, int]:
    """The first-aid item a healer carries that lowers the difficulty most, and by how much (``("", 0)``: none)."""
    best, by = "", 0
    for item in equip.items:
        entry = rules.items.get(item)
        if entry is not None and entry.difficulty < by:
            best, by = item, entry.difficulty
    return best, by


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


_EFFECT_WORDS: Mapping[str, str] = {
    "weaken": "{x} point{s} of Brawn damage", "stagger": "{x} point{s} of Poise damage",
    "daze": "{x} point{s} of Wit damage", "slow": "Speed reduced by {x}", "stun": "{x} turn{s} of stun",
    "bloody": "Threshold reduced by {x}"}


def effect_words(effect: str, x: int) -> str:
    """What an effect of ``x`` does, in document 001's words (``weaken``, 2: ``2 points of Brawn damage``)."""
    return _EFFECT_WORDS[effect].format(x=x, s="" if x == 1 else "s")


def effect_readings(state: SeverityState) -> tuple[WoundReading, ...]:
    """Every untreated wound effect as a wound in words, in the order of the effect table (the model keeps the
    effects, not the wounds that caused them: two Bloody wounds of 1 read as one ``bloody 2``)."""
    out = []
    for name in EFFECTS:
        x: int = getattr(state, name)
        if x <= 0:
            continue
        if name in ATTRIBUTE_OF:
            attr = ATTRIBUTE_OF[name]
            now = f"{attr.capitalize()} {attribute(state, attr)} of {getattr(state, attr)}"
        elif name == "slow":
            now = f"Speed {attribute(state, 'speed')} of {state.speed}"
        elif name == "stun":
            now = f"{x} turn{'s' if x != 1 else ''} left"
        else:
            now = f"Threshold {threshold(state)} of {full_threshold(state)}, bleeding"
        out.append(WoundReading("", "", f"{name} {x}", bleeding=name == "bloody",
                                text=f"{name} {x}: {effect_words(name, x)} ({now}), untreated"))
    return tuple(out)


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
        """The damage in a few words, as ``DamageDealt.detail`` holds it: ``9 - armour 4 = 5; d3s 3,1,2,3,1 ->
        Severity 2; bloody``."""
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
    """The damage of a blow through armour, its Severity (one d3 per point left) and its effect (the d6), unless
    ``severity`` and ``effect`` are given. Draws from ``rng`` in that order; changes nothing."""
    dealt, applied = damage_after_armor(rolled, armor_value, anti_armor, helpless=helpless, indirect=indirect)
    dice: tuple[int, ...] = ()
    if severity is None:
        severity, dice = roll_severity(dealt, rules, rng)
    if severity > 0 and effect is None:
        effect = roll_effect(rules, rng)
    return SeverityDamage(rolled, armor_value, anti_armor, helpless, indirect, applied, dealt, severity, dice,
                          effect or "", rules.severity_die, rules.severity_face)


_VALUE_WORDS: Mapping[str, str] = {"brawn": "Brawn", "poise": "Poise", "wit": "Wit", "speed": "Speed",
                                   "stun": "turns of stun", "threshold": "Threshold"}


def wound_words(result: WoundResult) -> list[str]:
    """What a wound did, in words: the effect on the creature, then the Severity against Threshold."""
    if result.outcome == "none":
        return []
    effect = result.effect
    name, _, was = result.before.partition(" ")
    now = result.after.removeprefix(f"{name} ").split(",")[0]
    line = f"{effect.capitalize()} {result.severity}: {_VALUE_WORDS.get(name, name)} {was} -> {now}"
    if result.overflow:
        line += (f"; the attribute stops at its floor, and the {result.overflow} past it "
                 f"{'is' if result.overflow == 1 else 'are'} overflow, added to this wound's Severity against "
                 "Threshold")
    elif result.applied < result.severity:
        line += f"; only {result.applied} can take effect (the natural limit)"
    severity = (f"Severity {result.severity} + overflow {result.overflow} = {result.effective}" if result.overflow
                else f"Severity {result.severity}")
    against = f"{severity} against Threshold {result.threshold} (as it was before the wound)"
    if result.outcome == "dead":
        verdict = f"{against}: dead ({result.cause})" if result.threshold else \
            "Threshold was already 0: any wound is lethal, dead"
    elif result.outcome == "fainted":
        verdict = f"{against}; Threshold falls to 0: faints (out of the fight, and the next wound kills)"
    elif result.outcome == "incapacitated":
        verdict = f"{against}: above it, incapacitated (out of the fight, prone); Threshold now " \
                  f"{result.threshold_after}"
    else:
        verdict = f"{against}: not above it, wounded; Threshold now {result.threshold_after}"
    return [line, verdict]


@dataclass(slots=True)
class SeverityAttack:
    """One attack under the severity model: the d20 roll and, when it hit, the damage and the wound.

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: The attacking entity (-1: a blow struck directly, with no attack roll).
        target: The entity attacked.
        mode: The strike mode.
        aim: ``unaimed`` or the part aimed at (the model places no wound at a location).
        roll: The d20 attack roll (``None``: struck directly).
        hit: The attack hit (the roll's margin, or the helpless rule).
        helpless: The target could not defend.
        weapon: The mode's numbers under this model (``None`` until the blow reached a body).
        off_body: The target has no body to strike: the blow passed through.
        damage: What the damage came to, when the blow reached the body.
        wound: What the wound did once applied (``None`` before, and when nothing reached the body).
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: StrikeMode
    aim: str
    roll: D20Roll | None
    hit: bool
    helpless: bool
    weapon: SeverityWeapon | None = None
    off_body: bool = False
    damage: SeverityDamage | None = None
    wound: WoundResult | None = None

    headline: ClassVar[bool] = True

    @property
    def struck(self) -> bool:
        """The attack hit and reached the body (it may still have left no wound)."""
        return self.hit and not self.off_body

    def events(self) -> list[Event]:
        """Declared and rolled, then the miss off the body or the damage (the wound's own events follow the
        record in the log)."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.roll is not None:
            out = self.roll.events(t, time, a, d, MODEL, self.mode.id, self.aim, self.hit)
        else:
            out = [AttackDeclared(t, time, a, d, self.mode.id, self.aim)]
        if not self.hit:
            return out
        if self.off_body:
            out.append(Missed(t, time, a, d, "off the body"))
        elif self.damage is not None:
            damage = self.damage
            out.append(DamageDealt(t, time, a, d, MODEL, damage.rolled, damage.dealt, damage.detail()))
        return out

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Grey: 7 damage (9 rolled): d3s 3,1,3,2,1,2,1 -> Severity 2; weaken``; ``None`` for a miss."""
        damage = self.damage
        if not self.struck or damage is None:
            return None
        return (f"{_who(names, self.attacker)} -> {_who(names, self.target)}: {damage.dealt} damage "
                f"({damage.rolled} rolled): {damage.how()}; {damage.effect or 'no wound'}")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll, armour, the Severity dice, the effect, and what the wound
        did against Threshold."""
        attacker, target = _who(names, self.attacker), _who(names, self.target)
        aim = "unaimed" if self.aim == "unaimed" else \
            f"aimed at the {self.aim} (the severity model places no wound at a location: the aim changes nothing)"
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode.name}, {aim}"]
        roll = self.roll
        if roll is None:
            lines.append("Struck directly: no attack roll, the blow lands")
        else:
            line = f"Attack roll: {roll.describe(self.hit)}"
            if self.hit and not roll.hit:
                line += f"; but {target} cannot defend, and the helpless rule makes it a hit whatever the roll"
            lines.append(line)
        if not self.hit:
            return lines
        if self.off_body:
            lines.append(f"{target} has no body to strike: the blow passes through it, a miss")
            return lines
        damage = self.damage
        if damage is None:
            return lines
        dice = f" {self.weapon.damage}" if self.weapon is not None else ""
        lines.append(f"Damage{dice} rolled {damage.rolled}; {damage.armour_words(target)}")
        lines.append(damage.severity_words())
        if damage.severity > 0:
            lines.append(f"Effect die: {damage.effect.capitalize()}, {effect_words(damage.effect, damage.severity)}")
        if self.wound is not None:
            lines += wound_words(self.wound)
        return lines


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


# ---------------------------------------------------------------------------------------- applying to a world


def severity_state(creature: Creature) -> SeverityState:
    """The severity state a creature of a severity-model world carries."""
    return cast(SeverityState, creature.state)


def _changed(ctx: TickContext, entity: int, what: str, before: str, after: str) -> None:
    ctx.emit(ModelStateChanged(ctx.clock.tick, ctx.clock.time, entity, MODEL, what, before, after))


def wound(creature: Creature, severity: int, effect: str, rules: SeverityRules, ctx: TickContext) -> WoundResult:
    """Apply a wound to a creature of the world: the effect, then down (incapacitated, fainted) or dead, logged.

    A wound restarts the care after a fight: first aid is due again, and rest starts over.
    """
    state = severity_state(creature)
    cond = creature.condition
    entity = creature.entity
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
    now = label(state, cond)
    if now != was:
        _changed(ctx, entity, "state", was, now)
    return result


def come_round(creature: Creature, ctx: TickContext) -> None:
    """A downed creature gets up (its Threshold is above 0 again and its incapacitation has passed)."""
    state = severity_state(creature)
    cond = creature.condition
    was = label(state, cond)
    state.down = ""
    state.down_since = -1.0
    state.exposed_at = -1.0
    cond.out = False
    _changed(ctx, creature.entity, "state", was, label(state, cond))


def _raise_from_faint(state: SeverityState) -> None:
    """A fainted creature whose Threshold is back above 0 is still incapacitated until it recovers."""
    if state.down == "fainted" and threshold(state) > 0:
        state.down = "incapacitated"


def needs_aid(creature: Creature) -> bool:
    """Whether first aid in combat is for the creature: alive, and bleeding (Bloody) or fainted, with an effect to
    reduce."""
    state = severity_state(creature)
    return not creature.condition.dead and state.effect_points > 0 and (state.bloody > 0 or state.down == "fainted")


def give_first_aid(healer: Creature, patient: Creature, rules: SeverityRules, ctx: TickContext,
                   in_combat: bool = False) -> AidResult:
    """One first-aid check of ``healer`` on ``patient`` (itself: with disadvantage), logged: the difficulty lowered
    by the healer's best first-aid item (a consumable one is used up by the check), one effect reduced on success,
    a fainted patient whose Threshold is back above 0 now only incapacitated; the healer's rest starts again when
    the check's difficulty interrupts rest.

    Raises:
        ValueError: The healer has no first-aid bonus.
    """
    skill = severity_state(healer).first_aid
    if skill is None:
        raise ValueError(f"{healer.name} cannot give first aid (no first-aid bonus)")
    state, cond = severity_state(patient), patient.condition
    on_self = healer.entity == patient.entity
    item, lower = best_aid_item(healer.equipment, rules)
    difficulty = rules.aid_difficulty + lower
    was, before = label(state, cond), effects_text(state)
    result = first_aid(state, skill, on_self, rules, ctx.streams["healing"], difficulty)
    used = ""
    if item:
        used = f" with the {item}"
        if rules.items[item].consumable:
            healer.equipment.items.remove(item)
            used += ", used up"
    who = "self" if on_self else healer.name
    where = " in combat" if in_combat else ""
    dc = f" vs DC {difficulty}{used}" if item or difficulty != rules.aid_difficulty else ""
    _changed(ctx, patient.entity, f"first aid{where} by {who}: d20 {'/'.join(map(str, result.rolls))} -> "
             f"{result.total}{dc}", before, effects_text(state))
    if interrupts_rest(difficulty, rules):
        severity_state(healer).rest_at = -1.0
    if state.down == "fainted" and threshold(state) > 0:
        _raise_from_faint(state)
        _changed(ctx, patient.entity, "state", was, label(state, cond))
    return result


class SeverityTurnProcessor(esper.Processor):
    """INTENT phase, after the shared intent: a stunned creature loses its turn (one turn of stun is spent), a
    creature fighting is not resting, and an incapacitated creature comes round when its time is up."""

    def __init__(self, ctx: TickContext, rules: SeverityRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Spend stun turns; interrupt rest; bring round the recovered (in entity order)."""
        ctx = self.ctx
        now = ctx.clock.time
        rules = self.rules
        for c in ctx.current().creatures.values():
            if c.condition.dead:
                continue
            state = severity_state(c)
            state.rest_at = -1.0  # combat interrupts rest
            if state.stun > 0:
                state.stun_at = -1.0
                if not state.down:
                    c.combatant.action = "stunned"  # no movement or attack matches it: the turn is lost
                state.stun -= 1
                if state.stun == 0:
                    _changed(ctx, c.entity, "stun", "stun 1", "stun 0")
            if state.down == "incapacitated" and now >= state.down_since + rules.recovery and threshold(state) > 0:
                come_round(c, ctx)


# ------------------------------------------------------------------------------------------------ out of combat


KINDS = ("stun", "aid", "rest", "recover", "exposed")
"""The due rules out of combat, in the order they run when due at the same time."""


def aid_circle(creatures: Mapping[int, Creature], care: CarePolicy) -> CareCircle:
    """Who gives whom first aid: the team-mate able to act with the best first-aid bonus (ties: the lower
    entity; only the policy's healers, when it names them); else the patient itself when it can act, has the
    skill and self-care is allowed. A creature with no first-aid bonus (an animal) tends no one."""

    def bonus(c: Creature, on_self: bool) -> int | None:
        return severity_state(c).first_aid

    def has_skill(c: Creature, on_self: bool) -> bool:
        return severity_state(c).first_aid is not None

    return CareCircle(creatures, care, bonus, has_skill)


def advance_severity(ctx: TickContext, seconds: float, care: CarePolicy, rules: SeverityRules) -> None:
    """Move game time on by ``seconds`` out of combat: stun wears off, first aid after the fight, rest healing
    (one effect point every 8 hours, three times as fast with a doctor at hand: a team-mate the care policy picks
    as tender), the incapacitated come round, and a fainted creature nobody can tend dies of exposure.

    The due times live in the state and run from the shared due queue (``sandbox.systems.schedule``), so two advances in
    a row give the same events as one of their total length.
    """
    clock = ctx.clock
    end = clock.seconds + seconds
    aid_delay = rules.aid_delay if care.first_aid_delay is None else float(care.first_aid_delay)
    creatures = ctx.creatures()
    queue = DueQueue(KINDS)
    circle = aid_circle(creatures, care)

    def schedule(c: Creature) -> None:
        """Set the due times the creature's state calls for now, and queue them."""
        state = severity_state(c)
        if c.condition.dead:
            return
        e = c.entity
        now = clock.seconds
        helper = circle.tender_for(e)
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
        queue.push("stun", e, state.stun_at)
        queue.push("aid", e, state.aid_at)
        queue.push("rest", e, state.rest_at)
        queue.push("exposed", e, state.exposed_at)
        if state.down == "incapacitated" and threshold(state) > 0:
            queue.push("recover", e, max(now, state.down_since + rules.recovery))

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        if c.condition.dead:
            return False
        state = severity_state(c)
        if due.kind == "recover":  # due once the recovery time has passed: any entry at or after it will do
            return state.down == "incapacitated" and threshold(state) > 0 and \
                max(clock.seconds, state.down_since + rules.recovery) <= due.time
        held = {"stun": state.stun_at, "aid": state.aid_at, "rest": state.rest_at, "exposed": state.exposed_at}
        return held[due.kind] == due.time  # else stale: already run or rescheduled

    ctx.due = queue
    try:
        for c in creatures.values():
            schedule(c)
        for due in queue.pop_due(end, is_due):
            e, kind = due.entity, due.kind
            clock.seconds = max(clock.seconds, due.time)
            c = creatures[e]
            state, cond = severity_state(c), c.condition
            structural = False  # someone went down, died or got up: who can tend whom may have changed
            if kind == "stun":
                _changed(ctx, e, "stun", f"stun {state.stun}", "stun 0")
                state.stun, state.stun_at = 0, -1.0
            elif kind == "aid":
                state.aid_at = -1.0
                helper = circle.tender_for(e)
                while helper is not None and state.aid_left > 0 and state.effect_points > 0:
                    state.aid_left -= 1
                    # The circle offers only creatures with a first-aid bonus.
                    give_first_aid(creatures[helper.entity], c, rules, ctx)
                    if helper.entity != e:  # its check may have interrupted its own rest: set it again
                        schedule(creatures[helper.entity])
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
                come_round(c, ctx)
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
            circle.update(e)
            for other in creatures.values() if structural else (c,):
                schedule(other)
        clock.seconds = end
    finally:
        ctx.due = None


# ------------------------------------------------------------------------------------------------- the model


def _check_aim(body: BodyStructure, aim: str) -> None:
    """Refuse an aim that names no part or location of ``body``."""
    if aim == "unaimed":
        return
    try:
        body.part_index(aim)
    except KeyError:
        try:
            body.location_index(aim)
        except KeyError:
            raise ModelError(f"{body.name} has no part or location {aim!r}; aim unaimed or at one of its parts: "
                             f"{', '.join(p.name for p in body.parts)}") from None


@register
class SeverityModel(DamageModel):
    """Document 001: Severity from d3s, stacking wound effects, Threshold, first aid and rest.

    Args:
        tables: The model's ``SeverityRules`` (``configs/models/severity.toml``).
    """

    name = MODEL
    own_turns = True


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
        self._strikable: dict[str, tuple[BodyStructure, bool]] = {}

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """One ``SeverityState`` per creature."""
        return (SeverityState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The creature's block, with ``attributes`` overriding it (``brawn``, ``poise``, ``wit``, ``speed``,
        ``threshold`` (racial base), ``attack_bonus``, ``defense``, ``armor_value``, ``first_aid``); worn armour adds
        its Armor Value to the natural one.

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
        """First aid in combat: a creature with a first-aid bonus gives it to a team-mate within ``first_aid.reach``
        metres, or itself, who is bleeding (Bloody) or fainted: a fainted one first, then the most Bloody, then
        another before itself, then the lowest entity. ``None`` when an enemy is within its reach, it cannot give
        first aid or nobody needs it."""
        if threatened or severity_state(creature).first_aid is None:
            return None
        patients = [c for c in near(self.rules.aid_reach) if needs_aid(c)]
        if not patients:
            return None
        patient = min(patients, key=lambda c: (severity_state(c).down != "fainted", -severity_state(c).bloody,
                                               c.entity == creature.entity, c.entity))
        return TurnAction("first aid", patient.entity)

    def act(self, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
        """Give the first aid chosen, if the patient still needs it (one tended earlier this tick may not). The
        patient was within reach when the turn began; one able to walk may have moved since, in the same turn."""
        patient = ctx.creatures().get(action.patient)
        if patient is None or not needs_aid(patient):
            return
        give_first_aid(creature, patient, self.rules, ctx, in_combat=True)

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The turn processor (stun, rest interrupted, coming round)."""
        return [(Phase.INTENT, SeverityTurnProcessor(ctx, self.rules))]

    def _can_be_struck(self, body: BodyStructure) -> bool:
        known = self._strikable.get(body.id)
        if known is None or known[0] is not body:
            known = self._strikable[body.id] = (body, not body.incorporeal)
        return known[1]

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
        if not self._can_be_struck(target.anatomy.body):
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
        record.wound = wound(target, damage.severity, damage.effect, rules, ctx)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack (its d20 roll may miss), or (no attacker) a blow that lands: the mode's
        damage dice through the target's armour (ignored when it cannot defend, unless the damage is indirect),
        the Severity dice, the effect and what the wound does. The aim is declared but changes nothing: the model
        places no wound at a location.

        Raises:
            ModelError: An aim the target's body does not have, a dead target or attacker, or a strike mode with
                no entry in the model's tables.
        """
        _check_aim(target.anatomy.body, aim)
        for who in (target, attacker):
            if who is not None and who.condition.dead:
                raise ModelError(f"{who.name} is dead: a blow needs a living attacker and target")
        if attacker is not None:
            self._attack(attacker, target, mode, aim, ctx)
            return
        clock = ctx.clock
        record = SeverityAttack(clock.tick, clock.time, -1, target.entity, mode, aim, None, True, not able(target))
        self._blow(record, target, mode, ctx)

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """Direct damage (set-up and tests), as a landed blow applies it; a dead creature takes none.

        Keywords:
            damage: Points of damage, after armour (unless ``indirect``): one d3 each.
            severity: A wound of this Severity instead of rolling the d3s.
            effect: The effect (``weaken`` ... ``bloody``, or its die face 1..6) instead of rolling the d6.
            indirect: The damage is indirect (an explosion): the creature's Armor Value applies even if helpless.
            anti_armor: ``halve`` or ``negate`` (with ``indirect``).

        Raises:
            ModelError: Neither damage nor severity, a negative value, an unknown effect or keyword.
        """
        unknown = set(options) - {"damage", "severity", "effect", "indirect", "anti_armor"}
        if unknown:
            raise ModelError(f"the severity model inflicts damage=, severity=, effect=, indirect=, anti_armor=; "
                             f"not {', '.join(sorted(unknown))}")
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
        wound(creature, result.severity, result.effect, rules, ctx)

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """Label (unhurt, wounded, stunned, incapacitated, fainted, dead), Threshold as the number, the effects as
        the band and as wounds, the derived values as conditions, and the creature's numbers as details."""
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
        return Readout(not cond.dead, able(creature), word, 0 if cond.dead else threshold(state),
                       effects_text(state), level, tuple(conditions), effect_readings(state),
                       self.part_readings(creature), self._details(state, pool))

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
        """No effect below 0; a living creature is out of the fight exactly while it is down (incapacitated or
        fainted); its usable Cognition Points are within its pool."""
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
        """Out of combat: stun wears off, first aid, rest healing (tripled with a doctor), coming round, exposure
        (``advance_severity``)."""
        advance_severity(ctx, seconds, care, self.rules)
