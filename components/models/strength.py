"""The strength-health model (document 003): its rule tables and the per-creature state component.

Nothing here decides anything: the package ``sandbox.systems.models.strength`` reads these. Every number comes from
``configs/models/strength.toml`` (``default_tables`` holds the document's own, for embedding games and tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sandbox.components.gear import Dice
from sandbox.components.health_tiers import TierTable

__all__ = ["ABILITIES", "CONDITIONS", "CONDITION_WORDS", "INJURY_NAMES", "ConditionEffect", "CreatureBlock",
           "HealingItem", "ItemUse", "StrengthHealth", "StrengthTables", "WeaponDamage", "default_tables"]

ABILITIES: tuple[str, ...] = ("STR", "WIT", "AGI")
"""The three abilities of document 003."""
CONDITIONS: tuple[str, ...] = ("hobbled", "arm_injury_secondary", "arm_injury_primary", "eye_injury", "blind")
"""The conditions the Injuries table can leave (each lasts until a full rest)."""
CONDITION_WORDS: Mapping[str, str] = {
    "hobbled": "hobbled",
    "arm_injury_secondary": "arm injury (secondary arm)",
    "arm_injury_primary": "arm injury (primary arm)",
    "eye_injury": "eye injury",
    "blind": "blind",
}
"""Each condition in words."""
INJURY_NAMES: tuple[str, ...] = ("", "scarred", "painful wound", "concussion", "injured leg", "injured arm",
                                 "blinded eye")
"""The d6 Injuries table's entries by roll (index 0 unused)."""


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
        armor: Natural Armour value (hide, scales), added to what it wears.
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
    armor: int = 0
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
        armor: Natural Armour value.
        human: Abilities cap at the human maximum.
    """

    abilities: Mapping[str, int]
    attack: int
    defense: int
    armor: int = 0
    human: bool = False


@dataclass(frozen=True, slots=True)
class ConditionEffect:
    """What a condition does in a fight.

    Added to the attack roll and Defense, impairments of its damage, and whether the injured arm lets go of a shield it
    holds (``drops_shield``).
    """

    attack: int = 0
    defense: int = 0
    impaired: int = 0
    drops_shield: bool = False


@dataclass(frozen=True, slots=True)
class HealingItem:
    """A healing item under this model.

    Document 003: "Lost health can be recovered by resting (see Rest) or using healing items".

    Attributes:
        heals: Health it restores (at least 1: "If they recover at least 1 health before then, they are
            stabilised").
        consumable: Used up when used (from its ``configs/items/`` file).
    """

    heals: Dice
    consumable: bool = True


@dataclass(frozen=True, slots=True)
class ItemUse:
    """When the AI has a creature use a healing item in a fight.

    Attributes:
        reach: Metres within which it can use one on a team-mate (a dying one).
        self_at: It uses one on itself when its health is at most this share of its STR (and not full).
        self_in_melee: It does so even with an enemy within its reach (a team-mate is tended only with none).
    """

    reach: float = 1.5
    self_at: float = 0.5
    self_in_melee: bool = True


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
        items: Healing items by item id (``configs/items/``).
        shields: Armour value per shield (weapon id), while held by a usable, free hand.
        item_use: When the AI uses a healing item in a fight.
        health_tiers: Where its health fraction crosses the readout's tiers (``[health_tiers]``).
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
    items: Mapping[str, HealingItem] = field(default_factory=dict)
    shields: Mapping[str, int] = field(default_factory=dict)
    item_use: ItemUse = field(default_factory=ItemUse)
    health_tiers: TierTable = field(default_factory=TierTable)


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
