"""Health: a ceiling set by which parts are impaired, how badly, and how many share that state."""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.impairment import Impairment, ImpairmentTier
from sandbox.components.rules import AnatomyRules
from sandbox.systems.models.anatomy.impairment import tier

__all__ = ["HEALTH_MAX", "band", "health", "health_ceiling"]

HEALTH_MAX = 100
"""Health of a creature with nothing impaired, in percent (the readout's ``health_max``)."""


def health_ceiling(body: BodyStructure, impairments: Sequence[Impairment], rules: AnatomyRules) -> int:
    """The minimum ceiling over (critical?, tier) buckets; ``HEALTH_MAX`` (100) when nothing is impaired.

    A part with no roles (an animal's tail) counts as a limb.
    """
    buckets: dict[tuple[bool, ImpairmentTier], int] = {}
    for part, imp in zip(body.parts, impairments, strict=True):
        if imp.penalty >= 0 and not imp.unusable:
            continue  # unimpaired: the common case, no tier to read
        key = (part.critical, tier(imp, rules))
        buckets[key] = buckets.get(key, 0) + 1
    ceiling = HEALTH_MAX
    for (critical, bucket_tier), count in buckets.items():
        column = (rules.health_critical if critical else rules.health_limb)[bucket_tier]
        ceiling = min(ceiling, column[min(count, len(column)) - 1])
    return ceiling


def health(ceiling: int, alive: bool, rules: AnatomyRules) -> int:
    """Health in percent: the ceiling held at the floor (1) while alive; 0 only when dead."""
    if not alive:
        return 0
    return max(ceiling, rules.health_floor_alive)


def band(health_pct: int, rules: AnatomyRules) -> str:
    """The plain-language band for a health figure (Excellent ... Morbid, Dead at 0)."""
    for name, minimum in rules.health_bands:
        if health_pct >= minimum:
            return name
    return rules.health_bands[-1][0]
