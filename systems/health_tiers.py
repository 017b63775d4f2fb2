"""A readout's health fraction and tier, the same two readings under every damage model.

Each model gives its own number (``Readout.health``) and its maximum (``Readout.health_max``); ``health_fraction``
turns them into 0..1 and ``grade`` reads the tier off the model's ``TierTable``. A model passes in whether it counts
an open wound, since a model's number need not move for every wound (a severity Stun leaves the Threshold whole).
"""

from __future__ import annotations

from sandbox.components.health_tiers import BADLY_HURT, DEAD, DOWN, HURT, UNHURT, TierTable

__all__ = ["grade", "health_fraction"]


def health_fraction(health: int, health_max: int, *, alive: bool = True) -> float:
    """``health / health_max`` within 0..1; 0.0 when dead or when the model gives no maximum.

    Args:
        health: The model's number now (``Readout.health``).
        health_max: Its maximum, unhurt (``Readout.health_max``).
        alive: Not dead (a dead creature reads 0 whatever its number).
    """
    if not alive or health_max <= 0:
        return 0.0
    return min(1.0, max(0.0, health / health_max))


def grade(fraction: float, table: TierTable, *, alive: bool, can_act: bool, wounded: bool) -> str:
    """The tier of a creature: dead, down, badly hurt, hurt or unhurt (``sandbox.components.health_tiers``).

    Args:
        fraction: Its health fraction (``health_fraction``).
        table: The model's thresholds.
        alive: Not dead.
        can_act: Alive and not taken out of the fight.
        wounded: The model counts an open wound (one that still hinders or needs healing; not a scar).
    """
    if not alive:
        return DEAD
    if not can_act:
        return DOWN
    if fraction <= table.badly_hurt_at_most:
        return BADLY_HURT
    if wounded or fraction < table.unhurt_at_least:
        return HURT
    return UNHURT
