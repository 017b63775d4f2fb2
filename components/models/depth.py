"""The wound-depth model (document 002): its rule tables, a wound, and the per-creature state component.

Nothing here decides anything: the rooms of ``sandbox.systems.models.depth`` read these. Every number comes from
``configs/models/depth.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.components.health_tiers import TierTable

__all__ = ["ASPECT_FAMILY", "CELLS", "FAMILIES", "MISHAP_EFFECTS", "TIERS", "CareRules", "CreatureDepth",
           "DepthInjury", "DepthState", "DepthTables", "DepthWound", "Mishap", "WeaponDepth"]

FAMILIES: tuple[str, ...] = ("blunt", "cutting", "piercing", "fire")
"""The damage-type families, in the order per-family tuples use."""
TIERS: tuple[str, ...] = ("none", "skin", "flesh", "bone", "organ")
"""Depth tiers by index (0: no wound)."""
CELLS: tuple[str, ...] = ("skin", "flesh", "bone", "organ_core", "organ_limb")
"""The rows of the injury table: organ wounds split by whether the part is Vital or Core."""
ASPECT_FAMILY: Mapping[str, str] = {"blunt": "blunt", "edged": "cutting", "cutting": "cutting",
                                    "piercing": "piercing", "fire": "fire"}
"""Family of an anatomy aspect name (``edged`` is the cutting family)."""


# ----------------------------------------------------------------------------------------------- rule tables


@dataclass(frozen=True, slots=True)
class DepthInjury:
    """One cell of the injury table: what a wound of a depth and damage type does.

    Attributes:
        name: What it is ("a laceration").
        penalty: Added to the creature's rolls while the wound is untreated (<= 0): bleeding and pain.
        breaks: The part stops working until the wound is treated (set).
        lost: The part is lost for good (treatment saves the creature, not the part).
        down: The creature is down (out of the fight) until the wound is treated.
        dies_after: Rounds (ticks) until the creature dies unless the wound is treated (0: never).
        kills: The creature dies at once.
        treat_dc: The treatment check's DC (0: the wound needs no treatment).
    """

    name: str
    penalty: int = 0
    breaks: bool = False
    lost: bool = False
    down: bool = False
    dies_after: int = 0
    kills: bool = False
    treat_dc: int = 0

    @property
    def lasting(self) -> bool:
        """The wound has an effect that lasts until treated (or for good)."""
        return bool(self.penalty or self.breaks or self.lost or self.down or self.dies_after or self.kills)


@dataclass(frozen=True, slots=True)
class WeaponDepth:
    """A strike mode under this model: its damage-type family and depth bonus."""

    family: str
    depth_bonus: int


@dataclass(frozen=True, slots=True)
class CreatureDepth:
    """A creature kind's entry: fixed Defense, modifier overrides and its anatomy note.

    Attributes:
        defense: A fixed Defense replacing 10 + Dexterity modifier (armour worn still adds), or ``None``.
        strength_modifier: Replaces the modifier computed from Strength, or ``None``.
        dexterity_modifier: Replaces the modifier computed from Dexterity, or ``None``.
        reduction: Depth reduction per family (``FAMILIES`` order): what its hide, scales or bulk turn.
        note: The anatomy note, in words.
    """

    defense: int | None = None
    strength_modifier: int | None = None
    dexterity_modifier: int | None = None
    reduction: tuple[int, int, int, int] = (0, 0, 0, 0)
    note: str = ""


@dataclass(frozen=True, slots=True)
class CareRules:
    """Treatment out of combat.

    Attributes:
        skill: The skill a tender's bonus comes from (its ML on the d100 scale).
        skill_divisor: Bonus = ML // divisor.
        self_care_modifier: Added when a creature tends itself.
        first_aid_delay: Seconds after ``advance`` starts before a tender gets to the wounded (when the care policy
            names none).
        attempt_seconds: How long one treatment attempt takes (the next one follows after it).
    """

    skill: str = "physician"
    skill_divisor: int = 10
    self_care_modifier: int = -4
    first_aid_delay: float = 60.0
    attempt_seconds: float = 60.0


MISHAP_EFFECTS: tuple[str, ...] = ("drop", "notch", "next_roll", "open_guard")
"""What a natural 1's mishap can do: the weapon falls from the hand, or is notched (a penalty on every later attack
with it); a penalty on the fumbler's next roll; the next attack against the fumbler gets a bonus."""


@dataclass(frozen=True, slots=True)
class Mishap:
    """One of document 002's mishaps of a natural 1, as the mishap die picks it.

    Attributes:
        name: What happens, in words ("the weapon rings off stone").
        faces: The faces of the mishap die that pick it.
        effect: One of ``MISHAP_EFFECTS``.
        penalty: ``notch``: added to every later attack roll with the weapon; ``next_roll``: added to the fumbler's
            next roll (<= 0).
        bonus: ``open_guard``: added to the next attack roll against the fumbler (>= 0).
        natural_penalty: ``drop`` and ``notch`` with a natural weapon (a fist, fangs), which can be neither dropped
            nor notched: added to the fumbler's next roll instead (<= 0).
    """

    name: str
    faces: tuple[int, ...]
    effect: str
    penalty: int = 0
    bonus: int = 0
    natural_penalty: int = 0


@dataclass(frozen=True, slots=True)
class DepthTables:
    """Every number of the model (from ``configs/models/depth.toml``).

    Attributes:
        melee_ability: The attribute whose modifier melee attacks add (``strength``).
        ranged_ability: The attribute whose modifier missile and thrown attacks add (``dexterity``).
        defense_ability: The attribute whose modifier Defense adds (``dexterity``).
        ability_base: Score with modifier 0.
        ability_step: Points of score per point of modifier: ``(score - base) // step``.
        defense_base: Defense before the Dexterity modifier and armour (10).
        called_shot_modifier: To hit on a called shot (-5).
        mishap_die: Faces of the die that picks a natural 1's mishap.
        mishaps: The mishaps, each with the faces that pick it (together they cover the die once).
        tiers: Lowest depth margin of skin, flesh, bone and organ (1, 4, 8, 12).
        collapse_at: The creature goes down when its untreated wound penalty reaches ``-collapse_at``.
        injuries: ``(cell, family) -> (ordinary, worst)``; cells from ``CELLS``.
        weapons: Per strike mode id.
        armor: Armour rating per armour piece id.
        creatures: Per creature id.
        care: Treatment rules.
        health_tiers: Where its health fraction crosses the readout's tiers (``[health_tiers]``).
    """

    melee_ability: str
    ranged_ability: str
    defense_ability: str
    ability_base: int
    ability_step: int
    defense_base: int
    called_shot_modifier: int
    mishap_die: int
    mishaps: tuple[Mishap, ...]
    tiers: tuple[int, int, int, int]
    collapse_at: int
    injuries: Mapping[tuple[str, str], tuple[DepthInjury, DepthInjury]]
    weapons: Mapping[str, WeaponDepth]
    armor: Mapping[str, int]
    creatures: Mapping[str, CreatureDepth]
    care: CareRules = field(default_factory=CareRules)
    health_tiers: TierTable = field(default_factory=TierTable)

    def mishap(self, face: int) -> Mishap:
        """The mishap a face of the mishap die picks.

        Raises:
            KeyError: No mishap has that face.
        """
        for m in self.mishaps:
            if face in m.faces:
                return m
        raise KeyError(f"no mishap on face {face} of the d{self.mishap_die}")


# --------------------------------------------------------------------------------------------- model state

# A wound as stored in the state component: a plain tuple (the state is saved generically).
# (location, part, tier, family, name, penalty, breaks, lost, down, dies_at, kills, treat_dc, time, worst, treated)


@dataclass(frozen=True, slots=True)
class DepthWound:
    """One wound on a creature (stored in ``DepthState.wounds`` as a plain tuple, see ``as_tuple``).

    Attributes:
        location: Location index on the creature's body.
        part: Part index.
        tier: Depth tier (1..4).
        family: Damage-type family.
        name: The injury's name.
        penalty: Roll penalty while untreated.
        breaks: The part stops working while untreated.
        lost: The part is lost for good.
        down: The creature is down while untreated.
        dies_at: Game time (seconds) the creature dies unless the wound is treated (-1: never).
        kills: The wound killed outright.
        treat_dc: DC of the treatment check (0: needs none).
        time: When it was dealt.
        worst: It was a natural 20's worst result.
        treated: It has been treated.
    """

    location: int
    part: int
    tier: int
    family: str
    name: str
    penalty: int
    breaks: bool
    lost: bool
    down: bool
    dies_at: float
    kills: bool
    treat_dc: int
    time: float
    worst: bool
    treated: bool = False

    def as_tuple(self) -> tuple[Any, ...]:
        """The wound as stored."""
        return (self.location, self.part, self.tier, self.family, self.name, self.penalty, self.breaks, self.lost,
                self.down, self.dies_at, self.kills, self.treat_dc, self.time, self.worst, self.treated)

    @classmethod
    def of(cls, row: tuple[Any, ...] | list[Any]) -> DepthWound:
        """A stored wound."""
        return cls(*row)

    @property
    def open(self) -> bool:
        """Untreated and still needing treatment."""
        return not self.treated and self.treat_dc > 0

    @property
    def lasting(self) -> bool:
        """The wound still has an effect (untreated with an effect, or a lost part)."""
        if self.lost:
            return True
        return not self.treated and bool(self.penalty or self.breaks or self.down or self.dies_at >= 0)


@dataclass(slots=True)
class DepthState:
    """A creature's state under the wound-depth model (saved with the world).

    Attributes:
        defense: Its Defense (fixed at spawn: base or its entry's, Dexterity, armour).
        strength_mod: Modifier its melee attacks add.
        dexterity_mod: Modifier its missile and thrown attacks add.
        wounds: Every wound taken, as ``DepthWound.as_tuple`` rows, in order.
        penalty: Sum of the untreated wounds' penalties (on its own rolls).
        broken: Parts that do not work (broken and not yet set, or lost).
        lost: Parts lost for good.
        down: Out of the fight: a down wound untreated, or collapsed (penalty at the collapse limit).
        dies_at: Game time it dies unless treated (-1: not dying).
        mishap: Penalty on its next roll (a natural 1's mishap), or 0.
        worst_tier: The deepest tier it has taken (0..4).
        care_at: Game time a tender next sees to it out of combat (-1: none due).
        open_guard: Bonus the next attack roll against it gets (a natural 1 left its guard open), or 0; it closes
            when that attack is made or when it next attacks itself.
        notches: Weapon id -> the penalty its notches put on every attack roll with it (a natural 1's mishap).
    """

    defense: int = 10
    strength_mod: int = 0
    dexterity_mod: int = 0
    wounds: list[tuple[Any, ...]] = field(default_factory=list)
    penalty: int = 0
    broken: set[int] = field(default_factory=set)
    lost: set[int] = field(default_factory=set)
    down: bool = False
    dies_at: float = -1.0
    mishap: int = 0
    worst_tier: int = 0
    care_at: float = -1.0
    open_guard: int = 0
    notches: dict[str, int] = field(default_factory=dict)
