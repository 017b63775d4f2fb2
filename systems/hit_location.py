"""Hit location: from an aim and a Spread (or no aim) to a zone number, a part and a location.

``Hit ZN = (target ZN - 1) + Spread roll``; a result past the body's highest zone number, or in a zone with no
hittable part, misses. An unaimed blow draws its zone number uniformly among the numbers of zones that can be
struck, which weights each zone by how many numbers it owns. Part and location then follow by weighted draws;
the two draws are folded into one draw over the zone's locations (weight = part share x location share), which
has exactly the same distribution and costs one random number instead of two.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from sandbox.components.body import BodyStructure
from sandbox.systems.dice import Rng

__all__ = ["MISS", "HitTable", "build_hit_table", "hit_zone_number", "locate", "location_in_zone",
           "location_probabilities", "target_zone_number"]

MISS = -1
"""Location index of a blow that found nothing to strike."""


@dataclass(frozen=True, slots=True)
class HitTable:
    """Precomputed lookup tables for placing blows on one body.

    Attributes:
        max_zone_number: The edge of the creature.
        zone_by_number: Zone index for each zone number (index 0 unused); ``MISS`` for a number whose zone
            holds nothing hittable.
        zone_cumulative: Per zone, cumulative location weights (part share x location share).
        zone_locations: Per zone, the location indices the cumulative weights refer to.
        hittable_numbers: The zone numbers an unaimed blow can land on.
    """

    max_zone_number: int
    zone_by_number: tuple[int, ...]
    zone_cumulative: tuple[tuple[float, ...], ...]
    zone_locations: tuple[tuple[int, ...], ...]
    hittable_numbers: tuple[int, ...]


def build_hit_table(body: BodyStructure) -> HitTable:
    """Precompute the hit tables of ``body`` (once per body; every blow reuses them)."""
    zone_by_number = [MISS] * (body.max_zone_number + 1)
    cumulative: list[tuple[float, ...]] = []
    locations: list[tuple[int, ...]] = []
    hittable: list[int] = []
    for zi, zone in enumerate(body.zones):
        weights: list[tuple[int, float]] = []
        parts = [p for p in zone.parts if body.part_hittable(p)]
        part_total = sum(body.parts[p].weight for p in parts)
        for pi in parts:
            part = body.parts[pi]
            loc_total = sum(body.locations[li].weight for li in part.locations)
            for li in part.locations:
                w = body.locations[li].weight
                if w > 0:
                    weights.append((li, (part.weight / part_total) * (w / loc_total)))
        running = 0.0
        cum: list[float] = []
        for _, w in weights:
            running += w
            cum.append(running)
        if cum:
            cum[-1] = 1.0  # guard against float drift leaving a sliver past the last location
        cumulative.append(tuple(cum))
        locations.append(tuple(li for li, _ in weights))
        if weights and zone.weight > 0:
            for zn in range(zone.first, zone.last + 1):
                zone_by_number[zn] = zi
                hittable.append(zn)
    return HitTable(
        max_zone_number=body.max_zone_number,
        zone_by_number=tuple(zone_by_number),
        zone_cumulative=tuple(cumulative),
        zone_locations=tuple(locations),
        hittable_numbers=tuple(hittable),
    )


def called_target(body: BodyStructure, aim: str) -> tuple[int | None, int | None]:
    """The part, or the location, an aim names on ``body``: the one aim check every model makes.

    Returns:
        ``(None, None)`` for ``unaimed``; ``(part, None)`` when ``aim`` names a part; ``(None, location)`` when it
        names a location (names are case-insensitive).

    Raises:
        ValueError: The body has no such part or location (the message names its parts).
    """
    if aim == "unaimed":
        return None, None
    try:
        return body.part_index(aim), None
    except KeyError:
        pass
    try:
        return None, body.location_index(aim)
    except KeyError:
        raise ValueError(f"{body.name} has no part or location {aim!r}; its parts: "
                         f"{', '.join(p.name for p in body.parts)}") from None


def aimed_part(body: BodyStructure, aim: str) -> int | None:
    """The part an aim strikes at: the part it names, or the part of the location it names (``None``: unaimed).

    Raises:
        ValueError: The body has no such part or location.
    """
    part, location = called_target(body, aim)
    return body.locations[location].part if location is not None else part


def target_zone_number(body: BodyStructure, part: int) -> int:
    """The zone number an aim at ``part`` targets: the first number of the part's zone (arm -> 2 on a human).

    Raises:
        ValueError: The part's zone owns no zone numbers (weight 0), so it cannot be aimed at.
    """
    zone = body.zones[body.parts[part].zone]
    if zone.weight <= 0:
        raise ValueError(f"{body.parts[part].name} is in the {zone.name} zone, which owns no zone numbers")
    return zone.first


def hit_zone_number(target: int, spread: int, rng: Rng) -> int:
    """Roll the Spread die and walk the aim upward: ``(target - 1) + roll``; a Spread below 1 counts as 1."""
    return target - 1 + (int(rng.random() * spread) + 1 if spread > 1 else 1)


def location_in_zone(table: HitTable, zone: int, rng: Rng) -> int:
    """Draw a location in ``zone`` by part share x location share."""
    locs = table.zone_locations[zone]
    return locs[bisect_right(table.zone_cumulative[zone], rng.random())] if len(locs) > 1 else locs[0]


def locate(table: HitTable, aim: int | None, spread: int, rng: Rng) -> tuple[int, int]:
    """Place a blow.

    Args:
        table: The target body's hit table.
        aim: The target zone number, or ``None`` for an unaimed blow.
        spread: The strike mode's Spread (zone die size); ignored for unaimed blows.
        rng: The generator.

    Returns:
        ``(zone number, location index)``; the location is ``MISS`` when the blow lands off the body or in a
        zone with nothing to strike (the zone number then says where it went; 0 for an incorporeal target).
    """
    if aim is None:
        numbers = table.hittable_numbers
        if not numbers:
            return 0, MISS
        zn = numbers[int(rng.random() * len(numbers))]
    else:
        zn = hit_zone_number(aim, spread, rng)
        if zn > table.max_zone_number or zn < 1:
            return zn, MISS
    zone = table.zone_by_number[zn]
    if zone == MISS:
        return zn, MISS
    return zn, location_in_zone(table, zone, rng)


def location_probabilities(body: BodyStructure, table: HitTable, aim: int | None = None,
                           spread: int = 1) -> tuple[list[float], float]:
    """Exact probability of each location being struck, and of a miss.

    Args:
        body: The body.
        table: Its hit table.
        aim: Target zone number, or ``None`` for unaimed.
        spread: Spread for an aimed blow.

    Returns:
        ``(per-location probabilities, miss probability)``.
    """
    probs = [0.0] * len(body.locations)
    if aim is None:
        numbers = table.hittable_numbers
        outcomes = [(zn, 1 / len(numbers)) for zn in numbers]
    else:
        s = max(spread, 1)
        outcomes = [(aim - 1 + roll, 1 / s) for roll in range(1, s + 1)]
    miss = 0.0 if outcomes else 1.0
    for zn, p in outcomes:
        zone = table.zone_by_number[zn] if 1 <= zn <= table.max_zone_number else MISS
        if zone == MISS:
            miss += p
            continue
        prev = 0.0
        for li, cum in zip(table.zone_locations[zone], table.zone_cumulative[zone], strict=True):
            probs[li] += p * (cum - prev)
            prev = cum
    return probs, miss
