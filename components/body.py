"""Static anatomy: the body structure a creature is made of.

A body is three tiers (zones, parts, locations) plus the roles its parts carry. These definitions are frozen and
shared between every creature of a kind; what changes in play (wounds, held items, conditions) lives in the
per-creature components and refers to locations and parts by index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

__all__ = ["ASPECTS", "ROLES", "TIERS", "Aspect", "BodyStructure", "Location", "Part", "Zone"]

ASPECTS: tuple[str, ...] = ("blunt", "edged", "piercing", "fire")
"""The four damage aspects, in the order every per-aspect tuple uses."""

ROLES: tuple[str, ...] = ("vital", "core", "manipulator", "locomotor")
"""The four body roles."""

TIERS: tuple[str, ...] = ("none", "low", "medium", "high")
"""Bleeding susceptibility and amputability tiers, mildest first."""


class Aspect(IntEnum):
    """A damage aspect; the value indexes per-aspect tuples."""

    BLUNT = 0
    EDGED = 1
    PIERCING = 2
    FIRE = 3

    @property
    def label(self) -> str:
        """The aspect's config name (``"edged"``)."""
        return ASPECTS[self]

    @classmethod
    def parse(cls, name: str) -> Aspect:
        """Return the aspect called ``name`` (``"edged"``); raises ``ValueError`` for an unknown one."""
        try:
            return cls(ASPECTS.index(name))
        except ValueError:
            raise ValueError(f"unknown aspect {name!r}; expected one of {', '.join(ASPECTS)}") from None


@dataclass(frozen=True, slots=True)
class Location:
    """A body location: where a blow actually lands and where an injury is recorded.

    Attributes:
        name: Display name, unique within the body ("Right Forearm").
        part: Index of the owning part in ``BodyStructure.parts``.
        weight: Relative chance of being struck once the part is struck.
        shock_value: How stunning a blow here is, before severity.
        bleeding: Bleeding susceptibility tier (none/low/medium/high).
        amputability: Amputability tier (none/low/medium/high).
        fumble: A serious wound here can make the creature lose its grip.
        stumble: A serious wound here can make the creature lose its footing.
        protection: Natural protection per aspect (blunt, edged, piercing, fire).
        layout: Optional drawing hint: (row, column) of the location inside its part's box.
    """

    name: str
    part: int
    weight: float
    shock_value: int
    bleeding: str
    amputability: str
    fumble: bool
    stumble: bool
    protection: tuple[int, int, int, int]
    layout: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Part:
    """A body part: the unit at which injury is felt.

    Attributes:
        name: Display name, unique within the body ("Left Arm").
        zone: Index of the owning zone in ``BodyStructure.zones``.
        weight: The part's share of its zone.
        roles: The roles the part fulfils (subset of ``ROLES``).
        can_hold: Whether the part can grip an item (anatomy, not current state).
        side: ``"left"``, ``"right"`` or ``"center"``; derived from a paired counterpart.
        locations: Indices of the part's locations in ``BodyStructure.locations``.
        permanent_impairment: A penalty (<= 0) the part can never be better than.
        permanently_unusable: The part is gone or dead for good.
        layout: Optional viewer hint: (row, column) of the part in a body drawing.
    """

    name: str
    zone: int
    weight: float
    roles: frozenset[str]
    can_hold: bool
    side: str
    locations: tuple[int, ...]
    permanent_impairment: int = 0
    permanently_unusable: bool = False
    layout: tuple[float, float] | None = None

    @property
    def critical(self) -> bool:
        """True when the part holds the Vital or Core role (the harsher health column)."""
        return "vital" in self.roles or "core" in self.roles

    @property
    def affects_mobility(self) -> bool:
        """True when the part holds the Vital, Core or Locomotor role."""
        return bool(self.roles & {"vital", "core", "locomotor"})

    @property
    def vital(self) -> bool:
        """True when the part holds the Vital role (severing it kills)."""
        return "vital" in self.roles


@dataclass(frozen=True, slots=True)
class Zone:
    """A body zone: the broadest division, owning a contiguous run of zone numbers.

    Attributes:
        name: Display name ("Torso").
        weight: How many zone numbers the zone owns (0: it can never be struck).
        first: First zone number owned (0 when the weight is 0).
        last: Last zone number owned (``first - 1`` when the weight is 0).
        parts: Indices of the zone's parts.
    """

    name: str
    weight: int
    first: int
    last: int
    parts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BodyStructure:
    """A creature's whole anatomy. An empty body (no zones) is incorporeal and cannot be struck.

    Attributes:
        id: The config id ("human").
        name: Display name ("Human").
        scale: Body scale; injury thresholds are multiplied by it.
        zones: Zones in definition order (zone numbers follow this order).
        parts: Every part.
        locations: Every location.
        thresholds: Unscaled injury thresholds for M1, S2, S3, G4, G5, or ``None`` to use the rules' own.
    """

    id: str
    name: str
    scale: float
    zones: tuple[Zone, ...]
    parts: tuple[Part, ...]
    locations: tuple[Location, ...]
    thresholds: tuple[float, ...] | None = None
    _part_index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    _location_index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._part_index.update({p.name.casefold(): i for i, p in enumerate(self.parts)})
        self._location_index.update({loc.name.casefold(): i for i, loc in enumerate(self.locations)})

    @property
    def max_zone_number(self) -> int:
        """The highest zone number: the edge of the creature (0 for an empty body)."""
        return sum(z.weight for z in self.zones)

    @property
    def incorporeal(self) -> bool:
        """True when the body has nothing that can be struck."""
        return not any(self.zone_hittable(i) for i in range(len(self.zones)))

    def part_index(self, name: str) -> int:
        """Index of the part called ``name`` (case-insensitive); raises ``KeyError``."""
        try:
            return self._part_index[name.casefold()]
        except KeyError:
            raise KeyError(f"{self.name} has no part {name!r}") from None

    def location_index(self, name: str) -> int:
        """Index of the location called ``name`` (case-insensitive); raises ``KeyError``."""
        try:
            return self._location_index[name.casefold()]
        except KeyError:
            raise KeyError(f"{self.name} has no location {name!r}") from None

    def zone_of_number(self, zone_number: int) -> int | None:
        """Index of the zone owning ``zone_number``, or ``None`` when it is off the body."""
        for i, zone in enumerate(self.zones):
            if zone.first <= zone_number <= zone.last:
                return i
        return None

    def part_hittable(self, part: int) -> bool:
        """A part can be struck when it has weight and at least one weighted location."""
        p = self.parts[part]
        return p.weight > 0 and any(self.locations[i].weight > 0 for i in p.locations)

    def zone_hittable(self, zone: int) -> bool:
        """A zone can be struck when it owns zone numbers and holds a hittable part."""
        z = self.zones[zone]
        return z.weight > 0 and any(self.part_hittable(p) for p in z.parts)
