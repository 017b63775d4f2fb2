"""Where a scripted hit location puts its draws: the floats that make a blow land on a named location.

A blow is placed by one or two draws of the world's stream (``sandbox.systems.hit_location``): a zone number (an
unaimed blow's uniform draw, or an aimed blow's Spread die), then a location within the zone by part share x
location share (no draw when the zone holds one location); the wound-depth model's blow at a called part draws the
location by weight within the part. ``Placement`` turns a location's name into the value each of those draws has
to take, for the hit table the rules are drawing against, and says plainly when the blow cannot reach it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sandbox.components.body import BodyStructure
from sandbox.systems.hit_location import MISS, HitTable, build_hit_table
from sandbox.testing.errors import HelperError

__all__ = ["Placement", "known_location"]


def known_location(name: str, bodies: Iterable[BodyStructure]) -> None:
    """Check that some body of the content has a location called ``name`` (case-insensitive).

    Raises:
        HelperError: No body has one (the message names the locations of the bodies given).
    """
    everything: list[str] = []
    for body in bodies:
        try:
            body.location_index(name)
            return
        except KeyError:
            everything.extend(loc.name for loc in body.locations)
    raise HelperError(f"no body of the world's content has a location {name!r}; its locations: "
                      f"{', '.join(dict.fromkeys(everything)) or 'none'}")


def _midpoint(low: float, high: float) -> float:
    """A draw strictly inside ``[low, high)``: the middle, safe from the rounding of either edge."""
    return (low + high) / 2


class Placement:
    """Scripted locations turned into the draws that place blows on them, one blow at a time.

    Args:
        bodies: Every body a creature of the world may have (the world's content): a hit table is matched to its
            body by value, since the rules hand the draw a table, not a body.
    """

    def __init__(self, bodies: Sequence[BodyStructure]) -> None:
        self._bodies = bodies
        self._tables: list[tuple[HitTable, BodyStructure]] | None = None
        self.pending: tuple[int, str] | None = None
        """The location (index and name) a blow's zone-number draw was aimed at, for its in-zone draw to come."""

    def _body(self, table: HitTable, name: str) -> tuple[BodyStructure, int]:
        """The body whose hit table is ``table`` and which has the location ``name``, and that location's index."""
        if self._tables is None:
            self._tables = [(build_hit_table(body), body) for body in self._bodies]
        matches = [body for hit, body in self._tables if hit == table]
        for body in matches:
            try:
                return body, body.location_index(name)
            except KeyError:
                continue
        if matches:
            raise HelperError(f"the blow is placed on a {matches[0].name}, which has no location {name!r}; its "
                              f"locations: {', '.join(loc.name for loc in matches[0].locations)}")
        raise HelperError(f"the blow is placed on a body that is not in the world's content; cannot place {name!r}")

    @staticmethod
    def _zone(table: HitTable, body: BodyStructure, loc: int) -> int:
        for zone, locations in enumerate(table.zone_locations):
            if loc in locations:
                return zone
        raise HelperError(f"the {body.locations[loc].name} of a {body.name} cannot be struck (no weight, or its part "
                          f"cannot be hit)")

    def _hold(self, table: HitTable, zone: int, loc: int, name: str) -> None:
        """Keep the location for the in-zone draw, which only a zone of several locations makes."""
        self.pending = (loc, name) if len(table.zone_locations[zone]) > 1 else None

    def unaimed_zone(self, table: HitTable, numbers: Sequence[int], name: str) -> float:
        """The draw of an unaimed blow's zone number (uniform over ``numbers``) that reaches the location's zone."""
        body, loc = self._body(table, name)
        zone = self._zone(table, body, loc)
        for i, number in enumerate(numbers):
            if table.zone_by_number[number] == zone:
                self._hold(table, zone, loc, name)
                return (i + 0.5) / len(numbers)
        raise HelperError(f"an unaimed blow never lands on the {body.locations[loc].name} of a {body.name}: its zone "
                          f"owns no zone numbers")

    def spread_roll(self, table: HitTable, target: int, spread: int, name: str) -> float:
        """The draw of an aimed blow's Spread die (``zone number = target - 1 + roll``) that reaches the location."""
        body, loc = self._body(table, name)
        zone = self._zone(table, body, loc)
        for roll in range(1, spread + 1):
            number = target - 1 + roll
            if 1 <= number <= table.max_zone_number and table.zone_by_number[number] == zone:
                self._hold(table, zone, loc, name)
                return (roll - 0.5) / spread
        raise HelperError(f"this blow cannot land on the {body.locations[loc].name} of a {body.name}: aimed at zone "
                          f"number {target} with Spread {spread} it reaches zone numbers {target} to "
                          f"{target + spread - 1}, and the location's zone is {body.zones[zone].name}")

    def in_zone(self, table: HitTable, zone: int, name: str | None) -> float:
        """The draw of the location within ``zone``: the pending location's, else the location ``name``'s."""
        if self.pending is not None:
            loc, name = self.pending
            self.pending = None
            body = None
        else:
            assert name is not None  # the caller pops a name when no location is pending
            body, loc = self._body(table, name)
        locs = table.zone_locations[zone]
        if loc not in locs:
            if body is None:
                body, loc = self._body(table, name)
            here = ", ".join(body.locations[li].name for li in locs)
            raise HelperError(f"this blow lands in the {body.zones[zone].name} zone of a {body.name}, which holds "
                              f"{here}, not the {body.locations[loc].name}")
        i = locs.index(loc)
        cumulative = table.zone_cumulative[zone]
        return _midpoint(cumulative[i - 1] if i else 0.0, cumulative[i])

    @staticmethod
    def in_part(body: BodyStructure, locs: Sequence[int], total: float, name: str) -> float:
        """The draw of a location within a called part (by location weight over ``total``)."""
        try:
            loc = body.location_index(name)
        except KeyError:
            loc = MISS
        running = 0.0
        for li in locs:
            weight = body.locations[li].weight
            if li == loc:
                return _midpoint(running, running + weight) / total
            running += weight
        here = ", ".join(body.locations[li].name for li in locs)
        raise HelperError(f"this blow lands in a called part of a {body.name} holding {here}, not {name!r}")
