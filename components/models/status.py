"""The status-ladder model (document 004): the ladder, its rule tables and the per-creature state component.

Nothing here decides anything: the package ``sandbox.systems.models.status`` reads these. Every number comes from
``configs/models/status.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sandbox.components.codec import SAVED_SINCE
from sandbox.components.gear import Dice
from sandbox.components.health_tiers import TierTable

__all__ = ["LEVELS", "StatusCreature", "StatusState", "StatusTables", "StatusWeapon"]

LEVELS: tuple[str, ...] = ("healthy", "slightly wounded", "wounded", "seriously wounded", "critically wounded",
                           "mortally wounded", "dead")
"""The status ladder, best first: the readout's words."""

HEALTHY, SLIGHTLY, WOUNDED, SERIOUSLY, CRITICALLY, MORTALLY, DEAD = range(len(LEVELS))
"""The rungs by number (0 healthy .. 6 dead)."""


@dataclass(frozen=True, slots=True)
class StatusWeapon:
    """A strike mode under this model.

    Attributes:
        damage: Damage dice in HP.
        attack_bonus: Added to the attack roll with this mode.
    """

    damage: Dice
    attack_bonus: int = 0


@dataclass(frozen=True, slots=True)
class StatusCreature:
    """A creature kind's numbers under this model.

    Attributes:
        constitution: Tested on d20 to stay conscious (d20 > Constitution passes out).
        endurance: HP per damage level.
        attack_bonus: Added to its d20 attack roll.
        defense: What an attack roll must beat.
        armor: Natural armour value (hide, scales), subtracted from damage like worn armour.
        penalty_reduction: How much its strength of will or fitness reduces its damage penalties (never below half
            the table value); ``None``: from its Constitution (``StatusTables.reduction_above`` and ``per``).
    """

    constitution: int
    endurance: int
    attack_bonus: int
    defense: int
    armor: int = 0
    penalty_reduction: int | None = None


@dataclass(frozen=True, slots=True)
class StatusTables:
    """Every number of the model (``configs/models/status.toml``).

    Attributes:
        penalties: Roll penalty of each living rung, healthy .. mortally wounded (0, -2, -4, -6, -8, -10).
        penalty_to_damage: Whether the attacker's penalty also lowers its damage roll.
        reduction_above: The Constitution that feels its wounds fully (no penalty reduction).
        reduction_per: Points of Constitution above ``reduction_above`` per point of penalty removed.
        passing_out_die: The die of the passing-out test (passes out when the roll exceeds Constitution).
        come_round_die: The die of the coming-round test (comes round when the roll is at most Constitution).
        come_round_seconds: Game seconds between coming-round tests.
        speed_loss_per_point: Fraction of walking speed lost per point of (reduced) penalty.
        min_speed_factor: Walking speed never falls below this fraction of the creature's own.
        minor_heal_seconds: Rest that clears the minor-injury tally.
        heal_seconds: Rest that heals one rung, from slightly .. mortally wounded (five values).
        mortal_untended_seconds: A mortally wounded creature nobody tends dies this long after the wound.
        weapons: By qualified strike-mode id.
        armor: Armour value by armour piece id.
        creatures: By creature id.
        health_tiers: Where its health fraction crosses the readout's tiers (``[health_tiers]``).
    """

    penalties: tuple[int, ...]
    penalty_to_damage: bool
    reduction_above: int
    reduction_per: int
    passing_out_die: int
    come_round_die: int
    come_round_seconds: float
    speed_loss_per_point: float
    min_speed_factor: float
    minor_heal_seconds: float
    heal_seconds: tuple[float, ...]
    mortal_untended_seconds: float
    weapons: Mapping[str, StatusWeapon]
    armor: Mapping[str, int]
    creatures: Mapping[str, StatusCreature]
    health_tiers: TierTable = field(default_factory=TierTable)


@dataclass(slots=True)
class StatusState:
    """A creature's place on the ladder and what it needs to play by it (an ECS component, saved with the world).

    Attributes:
        constitution: Its Constitution (from its creature block).
        endurance: HP per damage level.
        attack_bonus: Added to its attack roll.
        defense: What an attack roll must beat.
        armor: Armour value: the worn pieces' values plus its natural armour.
        penalty_reduction: How much its damage penalties are reduced (never below half).
        level: Its rung (0 healthy .. 6 dead).
        minor: Minor injuries noted (HP short of the next rung).
        come_round_at: Game time of its next coming-round test while passed out (-1: none).
        dies_at: Game time a mortally wounded creature dies unless tended (-1: none).
        heal_at: Game time its next rung heals while resting (-1: not resting).
        minor_heal_at: Game time its minor injuries fade while resting (-1: not resting).
        placed: Where its wounds were struck, oldest first: (location index, HP it dealt); what each still counts is
            shared out of its rungs and minor injuries (``sandbox.systems.models.status.placed``).
    """

    constitution: int = 10
    endurance: int = 8
    attack_bonus: int = 0
    defense: int = 10
    armor: int = 0
    penalty_reduction: int = 0
    level: int = HEALTHY
    minor: int = 0
    come_round_at: float = -1.0
    dies_at: float = -1.0
    heal_at: float = -1.0
    minor_heal_at: float = -1.0
    placed: list[tuple[int, int]] = field(default_factory=list, metadata={SAVED_SINCE: "issue 32"})
