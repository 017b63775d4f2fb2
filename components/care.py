"""The care policy: who tends the wounded out of combat, and when (a scenario's ``[care]`` table)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CarePolicy"]


@dataclass(frozen=True, slots=True)
class CarePolicy:
    """Who tends the wounded out of combat, and when.

    Attributes:
        first_aid_delay: Seconds after the fight before wounds are treated (``None``: the model's default).
        healers: Names of the creatures who tend their team (``None``: whoever is best at it).
        self_care: A creature with no healer at hand tends itself (at the model's self-treatment modifier).
    """

    first_aid_delay: float | None = None
    healers: tuple[str, ...] | None = None
    self_care: bool = True
