"""Static gear: weapons with their strike modes, and armour pieces."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMB_SELECTORS", "MODE_KINDS", "ArmorPiece", "Dice", "Item", "StrikeMode", "Weapon"]

LIMB_SELECTORS: tuple[str, ...] = ("grip", "vital", "core", "manipulator", "locomotor")
"""What a strike mode is wielded with: ``grip`` (parts that can hold, gripping the weapon) or a body role."""

MODE_KINDS: tuple[str, ...] = ("melee", "thrown", "missile")


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice expression ``NdX+M`` (``count`` dice of ``sides`` faces plus ``modifier``).

    A flat value (a bow's impact) has ``count == 0``.
    """

    count: int
    sides: int
    modifier: int

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        """The lowest total the expression can roll."""
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        """The highest total the expression can roll."""
        return self.count * self.sides + self.modifier


@dataclass(frozen=True, slots=True)
class StrikeMode:
    """One way of attacking with a weapon.

    Attributes:
        id: Qualified id, ``weapon.mode`` in snake_case (``"broadsword.cut"``).
        name: Display name ("Broadsword Cut").
        weapon: The weapon's id.
        kind: ``melee``, ``thrown`` or ``missile``.
        skill: The skill id the attack tests.
        impact: Impact dice.
        aspect: Damage aspect index (see ``sandbox.components.body.Aspect``).
        spread: The zone die size; 1 is perfectly precise.
        attack_modifier: Added to the attacker's skill ML.
        limbs: How many parts must wield the mode (a two-handed sword needs 2).
        limb: What wields it: ``grip`` or a role (see ``LIMB_SELECTORS``).
        strength_modifier: Whether the attacker's Strength Impact Modifier applies.
        reach: Melee reach in metres.
        range: Missile or thrown range in metres (0 for melee).
    """

    id: str
    name: str
    weapon: str
    kind: str
    skill: str
    impact: Dice
    aspect: int
    spread: int
    attack_modifier: int
    limbs: int
    limb: str
    strength_modifier: bool
    reach: float
    range: float


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: a name and its strike modes.

    Attributes:
        id: Config id (``"broadsword"``).
        name: Display name.
        natural: A natural weapon (fists, fangs) is part of the body and cannot be dropped.
        modes: The strike modes, in definition order.
        shield: A shield: gripped by a hand like a weapon (besides the weapon, not instead of it), it raises the
            Armour value while held by a usable hand under the models that count shields.
    """

    id: str
    name: str
    natural: bool
    modes: tuple[StrikeMode, ...]
    shield: bool = False


@dataclass(frozen=True, slots=True)
class Item:
    """A carried item that is neither a weapon nor armour: a healing item or medicine (``configs/items/``).

    What it does is each damage model's (its tables' ``[items.<id>]``); a model with no entry for it has no use
    for it, and a creature cannot carry it under that model.

    Attributes:
        id: Config id (``"healing_draught"``).
        name: Display name.
        description: What it is, in words.
        consumable: Used up when used (a draught); else it serves again and again (a physician's kit).
    """

    id: str
    name: str
    description: str = ""
    consumable: bool = True


@dataclass(frozen=True, slots=True)
class ArmorPiece:
    """A worn armour piece.

    Attributes:
        id: Config id (``"mail_hauberk"``).
        name: Display name.
        body: Id of the body structure whose locations ``covers`` names.
        covers: Names of the covered locations.
        protection: Protection per aspect (blunt, edged, piercing, fire).
        rigid: Rigid armour makes light edged and piercing blows glance off.
    """

    id: str
    name: str
    body: str
    covers: frozenset[str]
    protection: tuple[int, int, int, int]
    rigid: bool
