"""The severity model (document 001): its rule tables and the per-creature state component.

Nothing here decides anything: the package ``sandbox.systems.models.severity`` reads these. Every number comes
from ``configs/models/severity.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sandbox.components.codec import SAVED_SINCE
from sandbox.components.gear import Dice
from sandbox.components.health_tiers import TierTable

__all__ = ["ANTI_ARMOR", "ATTRIBUTES", "ATTRIBUTE_OF", "EFFECTS", "SeverityCreature", "SeverityItem", "SeverityRules",
           "SeverityState", "SeverityWeapon"]

EFFECTS: tuple[str, ...] = ("weaken", "stagger", "daze", "slow", "stun", "bloody")
"""The wound effects of document 001, in the order of its d6 table (1 Weaken ... 6 Bloody)."""

ATTRIBUTE_OF: Mapping[str, str] = {"weaken": "brawn", "stagger": "poise", "daze": "wit"}
"""The attribute each attribute-damage effect lowers (these three can overflow)."""

ATTRIBUTES: tuple[str, ...] = ("brawn", "poise", "wit")
"""The attributes wounds damage (floored at the attribute floor, with overflow past it)."""

ANTI_ARMOR: tuple[str, ...] = ("none", "halve", "negate")
"""Anti-Armour: ``halve`` (Halve Armor) or ``negate`` (Negate Armor)."""


@dataclass(frozen=True, slots=True)
class SeverityCreature:
    """A creature kind's block under the severity model (its permanent values).

    Attributes:
        threshold: The racial base Threshold (Human 3); Threshold = this + Brawn.
        brawn: Brawn (Threshold, melee attack).
        poise: Poise (Defense, missile attack).
        wit: Wit (Cognition Points).
        speed: Speed on the document's scale; walking speed scales with Speed left / Speed.
        attack_bonus: Added to the d20 attack roll at full attributes.
        defense: What an attack roll must beat, at full Poise.
        armor_value: Natural Armor Value (hide, scales); worn armour adds to it.
        first_aid: First-aid skill bonus (d20 + this vs the difficulty), or ``None``: cannot give first aid.
    """

    threshold: int
    brawn: int
    poise: int
    wit: int
    speed: int
    attack_bonus: int
    defense: int
    armor_value: int = 0
    first_aid: int | None = None


@dataclass(frozen=True, slots=True)
class SeverityWeapon:
    """A strike mode's numbers under the severity model.

    Attributes:
        damage: Damage dice (a flat value has no dice).
        anti_armor: ``none``, ``halve`` (Halve Armor) or ``negate`` (Negate Armor).
        indirect: Indirect damage (an explosion, a breath): armour applies even to a helpless target.
    """

    damage: Dice
    anti_armor: str = "none"
    indirect: bool = False


@dataclass(frozen=True, slots=True)
class SeverityItem:
    """First-aid equipment or medicine.

    Document 001: "Proper equipment and medicine can reduce the difficulty of the check".

    Attributes:
        difficulty: Added to the first-aid difficulty when the healer carries it (0 or less).
        consumable: Used up by a first-aid check made with it (from its ``configs/items/`` file).
    """

    difficulty: int
    consumable: bool = True


@dataclass(frozen=True, slots=True)
class SeverityRules:
    """Every table of the severity model.

    Attributes:
        severity_die: Faces of the die rolled per point of damage (3: a d3).
        severity_face: The face that counts one Severity (3).
        effect_die: Faces of the effect die (6).
        effects: The effect of each face of the effect die, face 1 first.
        attribute_floor: Attributes never fall below this (-1); damage past it is overflow.
        speed_floor: Speed never falls below this (0).
        lethal_multiple: A wound's Severity above this many times Threshold kills (2).
        attack_attribute: Strike-mode kind -> the attribute whose damage lowers the attack bonus (melee: brawn).
        defense_attribute: The attribute whose damage lowers Defense (poise), or "" for none.
        helpless_hits: An attack against a creature that cannot defend always lands (the helpless rule).
        cognition_base: Cognition Points = base ** (Wit + offset).
        cognition_offset: See ``cognition_base``.
        aid_die: Faces of the first-aid die (20).
        aid_difficulty: What first aid must reach (10).
        aid_self_disadvantage: Tending oneself rolls twice and keeps the lower.
        aid_delay: Seconds after a fight before first aid (out of combat).
        aid_attempts: First-aid attempts per patient after each fight.
        rest_period: Seconds of rest per effect point healed (8 hours).
        doctor_multiplier: Healing rate multiplier with a doctor at hand (3).
        heal_order: The order in which first aid and rest reduce effects.
        rest_refills_cognition: A rest period refills usable Cognition Points to the pool.
        recovery: Seconds an incapacitated creature (Threshold above 0) stays out before it comes round.
        exposed_death: Seconds a fainted creature with nobody to tend it lives (0: it never dies of it).
        creatures: Creature id -> its block.
        weapons: Strike-mode id (``broadsword.cut``) -> its numbers.
        armor: Armour piece id -> its Armor Value.
        aid_reach: In combat, metres within which a creature can give a team-mate first aid.
        rest_interrupting_check: A skill check of this difficulty or more interrupts the roller's rest (7).
        items: Item id -> what it does for first aid.
        health_tiers: Where its health fraction crosses the readout's tiers (``[health_tiers]``).
    """

    severity_die: int
    severity_face: int
    effect_die: int
    effects: tuple[str, ...]
    attribute_floor: int
    speed_floor: int
    lethal_multiple: int
    attack_attribute: Mapping[str, str]
    defense_attribute: str
    helpless_hits: bool
    cognition_base: int
    cognition_offset: int
    aid_die: int
    aid_difficulty: int
    aid_self_disadvantage: bool
    aid_delay: float
    aid_attempts: int
    rest_period: float
    doctor_multiplier: int
    heal_order: tuple[str, ...]
    rest_refills_cognition: bool
    recovery: float
    exposed_death: float
    creatures: Mapping[str, SeverityCreature]
    weapons: Mapping[str, SeverityWeapon]
    armor: Mapping[str, int]
    aid_reach: float = 1.5
    rest_interrupting_check: int = 7
    items: Mapping[str, SeverityItem] = field(default_factory=dict)
    health_tiers: TierTable = field(default_factory=TierTable)


@dataclass(slots=True)
class SeverityState:
    """A creature's state under the severity model (an ECS component, saved with the world).

    The permanent values are what the creature has unhurt; the effect counters are the untreated wound effects
    (only what took effect: damage past an attribute's floor is overflow and is not kept).

    Attributes:
        threshold_base: Racial base Threshold.
        brawn: Permanent Brawn.
        poise: Permanent Poise.
        wit: Permanent Wit.
        speed: Permanent Speed.
        attack_bonus: Attack bonus at full attributes.
        defense: Defense at full Poise.
        armor_value: Natural plus worn Armor Value.
        first_aid: First-aid skill bonus, or ``None``.
        weaken: Brawn damage.
        stagger: Poise damage.
        daze: Wit damage.
        slow: Speed lost.
        stun: Turns of stun left.
        bloody: Threshold lost to bleeding wounds.
        cognition: Usable Cognition Points.
        down: ``""``, ``"incapacitated"`` (a wound past Threshold) or ``"fainted"`` (Threshold 0).
        down_since: Game time it went down (-1: up).
        wounds: Wounds taken (Severity 1 or more).
        worst: The highest Severity (overflow included) of any wound taken.
        hurt_at: Game time of the last wound (-1: none).
        stun_at: When the stun wears off out of combat (-1: not scheduled).
        aid_at: When first aid is next due out of combat (-1: none scheduled).
        aid_left: First-aid attempts left since the last fight.
        rest_at: When the next effect point heals by rest (-1: not resting).
        exposed_at: When a fainted creature left untended dies (-1: none).
        placed: Where its wounds were struck, oldest first: (effect, location index, effect points it added); what
            each still counts is shared out of the effect counters (``sandbox.systems.models.severity.placed``).
    """

    threshold_base: int
    brawn: int
    poise: int
    wit: int
    speed: int
    attack_bonus: int
    defense: int
    armor_value: int
    first_aid: int | None
    weaken: int = 0
    stagger: int = 0
    daze: int = 0
    slow: int = 0
    stun: int = 0
    bloody: int = 0
    cognition: int = 0
    down: str = ""
    down_since: float = -1.0
    wounds: int = 0
    worst: int = 0
    hurt_at: float = -1.0
    stun_at: float = -1.0
    aid_at: float = -1.0
    aid_left: int = 0
    rest_at: float = -1.0
    exposed_at: float = -1.0
    placed: list[tuple[str, int, int]] = field(default_factory=list, metadata={SAVED_SINCE: "issue 32"})

    @property
    def effect_points(self) -> int:
        """Untreated effect points in all (what first aid and rest reduce)."""
        return self.weaken + self.stagger + self.daze + self.slow + self.stun + self.bloody
