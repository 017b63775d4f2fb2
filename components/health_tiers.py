"""The readout's model-agnostic health tiers: their names and a model's thresholds for them.

Every damage model measures harm in its own unit (anatomy health percent, strength health points, the severity
Threshold, wound-depth penalty headroom, status-ladder rungs); a readout also gives that number as a fraction of its
maximum (``Readout.health_fraction``) and a tier, one of five words that mean the same under every model. Where the
tiers fall on each model's fraction is the model's own table (``[health_tiers]`` in ``configs/models/<model>.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BADLY_HURT", "DEAD", "DOWN", "HEALTH_TIERS", "HURT", "UNHURT", "TierTable"]

UNHURT = "unhurt"
"""No open wound and the health fraction at or above the model's ``unhurt_at_least``."""
HURT = "hurt"
"""Able to act, with an open wound or a health fraction below ``unhurt_at_least``."""
BADLY_HURT = "badly hurt"
"""Able to act, with a health fraction at or below the model's ``badly_hurt_at_most``."""
DOWN = "down"
"""Alive, but unable to act (incapacitated, unconscious, fainted, dying, passed out)."""
DEAD = "dead"
"""Dead."""

HEALTH_TIERS: tuple[str, ...] = (UNHURT, HURT, BADLY_HURT, DOWN, DEAD)
"""The tiers, best first (a HUD can index a colour by position)."""


@dataclass(frozen=True, slots=True)
class TierTable:
    """Where a model's health fraction crosses from one tier to the next (``[health_tiers]`` of its TOML file).

    Dead and down are not thresholds: they are the readout's ``alive`` and ``can_act``. A creature able to act is
    badly hurt at or below ``badly_hurt_at_most``, hurt below ``unhurt_at_least`` or with any open wound, and
    unhurt otherwise.

    Attributes:
        unhurt_at_least: The lowest health fraction that can read unhurt (1.0: any lost health is hurt).
        badly_hurt_at_most: The highest health fraction that reads badly hurt (below ``unhurt_at_least``).
    """

    unhurt_at_least: float = 1.0
    badly_hurt_at_most: float = 0.5
