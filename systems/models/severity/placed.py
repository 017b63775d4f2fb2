"""The severity model's wounds by location: where each effect was struck, and how much of it is still untreated.

Document 001 keeps wound effects as stacking counters, not as wounds at places. A landed blow's wound is placed on
the location it struck (``sandbox.systems.placement``) and kept in ``SeverityState.placed`` as (effect, location,
points it added); the counters stay what the rules read. First aid, rest and a stun wearing off lower only the
counters: what is left of an effect is shared among its placed wounds newest first, so its oldest wounds heal first.
"""

from __future__ import annotations

from sandbox.components.models.severity import EFFECTS, SeverityState
from sandbox.systems.hit_location import MISS
from sandbox.systems.placement import by_location, still_counted

__all__ = ["place_wound", "placed_effects"]


def placed_effects(state: SeverityState) -> dict[str, tuple[list[tuple[int, int]], int]]:
    """Each untreated effect: its ``(location, points)`` still counted by location, and the points placed nowhere.

    Only effects with points left appear, in the order of the effect table.
    """
    out: dict[str, tuple[list[tuple[int, int]], int]] = {}
    for name in EFFECTS:
        left: int = getattr(state, name)
        if left <= 0:
            continue
        mine = [(location, points) for effect, location, points in state.placed if effect == name]
        shares, rest = still_counted([points for _, points in mine], left)
        out[name] = (by_location(shares, [location for location, _ in mine]), rest)
    return out


def place_wound(state: SeverityState, effect: str, location: int, points: int) -> None:
    """Record that ``points`` of ``effect`` (what took effect, after the natural limits) were struck at ``location``.

    What has healed is dropped first, so the list holds only wounds still counted. A wound with no place (``MISS``)
    or no points is not recorded: the counters alone hold it.
    """
    def before(name: str) -> int:  # the counter as it was before this wound
        return int(getattr(state, name)) - (points if name == effect else 0)

    held: dict[str, int] = {}
    for name, _, placed_points in state.placed:
        held[name] = held.get(name, 0) + placed_points
    if any(total > before(name) for name, total in held.items()):
        # Some has healed since the last wound: keep what still counts. The trim groups the list by effect; each
        # effect's wounds keep their order, which is all the shares read.
        kept: list[tuple[str, int, int]] = []
        for name in EFFECTS:
            mine = [(where, p) for effect_, where, p in state.placed if effect_ == name]
            if mine:
                shares, _ = still_counted([p for _, p in mine], before(name))
                kept += [(name, where, share) for (where, _), share in zip(mine, shares, strict=True) if share > 0]
        state.placed = kept
    if location != MISS and points > 0:
        state.placed.append((effect, location, points))
