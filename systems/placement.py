"""Where a model that keeps no wounds by location places one anyway, so a readout can name it.

The severity and status-ladder models decide what a blow does without a hit location (documents 001 and 004 name
none); their wounds are effect points and hit points. So that a HUD can draw them on the body, a landed blow is
placed on the location it struck, by the shared hit-location tables (``hit_location``): the aimed location, a
location of the aimed part by weight, or the unaimed draw. The draw comes from the world's ``location`` stream,
which no model's rules draw from, so placing a wound changes no roll of the fight and no event of its log.

A placed wound is ``(location index, amount)``: the effect points or hit points it added. As the model's own
totals heal, ``still_counted`` shares what is left among the placed wounds, newest first (the oldest heal first).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.readout import UNPLACED
from sandbox.systems.dice import Rng
from sandbox.systems.hit_location import MISS, build_hit_table, called_target, location_probabilities

__all__ = ["Placer", "by_location", "location_names", "still_counted"]


class Placer:
    """Places blows on bodies, keeping each body's draw tables (one set per body; a model holds one ``Placer``).

    An unaimed blow lands on a location with the probability the shared hit-location tables give it
    (``hit_location.location_probabilities``: a zone number drawn uniformly among those that can be struck, then a
    location by part share x location share), drawn with one number from one table per body: a landed blow costs one
    draw and one search, which matters on a tick where most of the work is a dozen blows.
    """

    def __init__(self) -> None:
        self._unaimed: dict[str, tuple[BodyStructure, tuple[int, ...], tuple[float, ...]]] = {}

    def _table(self, body: BodyStructure) -> tuple[tuple[int, ...], tuple[float, ...]]:
        known = self._unaimed.get(body.id)
        if known is None or known[0] is not body:
            probabilities, _ = location_probabilities(body, build_hit_table(body))
            locations = tuple(li for li, p in enumerate(probabilities) if p > 0)
            total, running, cumulative = sum(probabilities), 0.0, []
            for li in locations:
                running += probabilities[li] / total
                cumulative.append(running)
            if cumulative:
                cumulative[-1] = 1.0  # float drift must leave no sliver past the last location
            known = self._unaimed[body.id] = (body, locations, tuple(cumulative))
        return known[1], known[2]

    def place(self, body: BodyStructure, aim: str, rng: Rng) -> int:
        """The location a landed blow aimed ``aim`` struck on ``body``; ``MISS`` when the body has none to strike.

        An aim at a location strikes it; an aim at a part, one of its locations by weight; ``unaimed`` (or a part
        with nothing to strike), the unaimed draw over the whole body.

        Raises:
            ValueError: The body has no part or location ``aim`` (the models check the aim first).
        """
        if aim != "unaimed":
            part, location = called_target(body, aim)
            if location is not None:
                return location
            if part is not None:
                located = _in_part(body, part, rng)
                if located != MISS:
                    return located
        locations, cumulative = self._table(body)
        if not locations:
            return MISS
        return locations[bisect_right(cumulative, rng.random())] if len(locations) > 1 else locations[0]


def _in_part(body: BodyStructure, part: int, rng: Rng) -> int:
    """A location of ``part`` drawn by location weight; ``MISS`` when none has weight."""
    locations = [li for li in body.parts[part].locations if body.locations[li].weight > 0]
    if not locations:
        return MISS
    draw = rng.random() * sum(body.locations[li].weight for li in locations)
    for li in locations:
        draw -= body.locations[li].weight
        if draw < 0:
            return li
    return locations[-1]  # float drift past the last weight


def still_counted(amounts: Sequence[int], total: int) -> tuple[list[int], int]:
    """Share ``total`` (what the model still counts) among placed wounds of ``amounts``, newest (last) first.

    Returns:
        What each wound still counts, in the order given, and what no placed wound accounts for (a wound given no
        place, or one taken before its model placed wounds).
    """
    left = max(0, total)
    shares = [0] * len(amounts)
    for i in range(len(amounts) - 1, -1, -1):
        take = min(amounts[i], left)
        shares[i] = take
        left -= take
    return shares, left


def location_names(body: BodyStructure, location: int) -> tuple[str, str]:
    """``(location, part)`` names of a location index of ``body``, or ``UNPLACED`` twice for none (``MISS``)."""
    if location == MISS or not 0 <= location < len(body.locations):
        return UNPLACED, UNPLACED
    loc = body.locations[location]
    return loc.name, body.parts[loc.part].name


def by_location(shares: Sequence[int], locations: Sequence[int]) -> list[tuple[int, int]]:
    """``(location, share)`` of the wounds still counted, summed by location, in the order each location first took one.

    Two wounds at one location read as one wound there (a readout names a location once per kind of wound).
    """
    totals: dict[int, int] = {}
    for share, location in zip(shares, locations, strict=True):
        if share > 0:
            totals[location] = totals.get(location, 0) + share
    return list(totals.items())
