"""Per-creature wound state: the injuries a body carries and what has happened to its parts.

Wounds are data inside one long-lived component rather than a component per wound, because adding or removing
an esper component clears every query cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Injury:
    """One wound, recorded at the location it struck.

    Attributes:
        location: Location index in the body.
        level: Injury level 1..5 (M1..G5); 0 or less means healed.
        aspect: Damage aspect index.
        healing_rate: Healing Rate 0..6 once treated; ``None`` while untreated.
        bleeder: The wound is bleeding.
        compound_of: Set when the wound worsened through compounding (how many times).
    """

    location: int
    level: int
    aspect: int
    healing_rate: int | None = None
    bleeder: bool = False
    compound_of: int = 0


@dataclass(slots=True)
class Wounds:
    """The wound state of one creature (an ECS component).

    Attributes:
        injuries: Every wound, in the order received.
        severed: Indices of severed locations.
        unusable_parts: Indices of parts made permanently unusable (a severed limb).
        permanent_impairment: Per part index, a lasting penalty (<= 0) added by healing.
    """

    injuries: list[Injury] = field(default_factory=list)
    severed: set[int] = field(default_factory=set)
    unusable_parts: set[int] = field(default_factory=set)
    permanent_impairment: dict[int, int] = field(default_factory=dict)

    def levels_at(self, location: int) -> list[int]:
        """Levels of the open wounds at ``location``."""
        return [i.level for i in self.injuries if i.location == location and i.level > 0]
