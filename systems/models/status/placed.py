"""The status ladder's wounds by location: where each blow's hit points were struck, and how many still count.

Document 004 keeps a creature's harm as a rung and a tally of minor injuries, not as wounds at places. A landed
blow is placed on the location it struck (``sandbox.systems.placement``) and kept in ``StatusState.placed`` as
(location, HP dealt); the rung and the tally stay what the rules read. The harm they still hold, in HP (rungs lost x
Endurance + minor injuries), is shared among the placed wounds newest first, so healing takes the oldest first.
"""

from __future__ import annotations

from sandbox.components.models.status import StatusState
from sandbox.systems.hit_location import MISS
from sandbox.systems.placement import by_location, still_counted

__all__ = ["harm", "place_wound", "placed_wounds"]


def harm(state: StatusState) -> int:
    """The HP of harm the ladder still holds: rungs lost x Endurance + minor injuries."""
    return state.level * state.endurance + state.minor


def placed_wounds(state: StatusState, dead: bool) -> tuple[list[tuple[int, int]], int]:
    """``(location, HP)`` still counted by location, in the order struck, and the HP placed nowhere.

    A dead creature's wounds are every placed one (its rung no longer counts them).
    """
    amounts = [hp for _, hp in state.placed]
    shares, rest = still_counted(amounts, sum(amounts) if dead else harm(state))
    return by_location(shares, [location for location, _ in state.placed]), rest


def place_wound(state: StatusState, location: int, hp: int) -> None:
    """Record a wound of ``hp`` (after armour) struck at ``location``, before the ladder takes it.

    What has healed is dropped first, so the list holds only wounds still counted. A wound with no place (``MISS``)
    or no HP is not recorded: the ladder alone holds it.
    """
    placed = state.placed
    held = harm(state)
    if sum(h for _, h in placed) > held:  # some has healed since the last wound: keep what still counts
        shares, _ = still_counted([h for _, h in placed], held)
        placed = state.placed = [(where, share) for (where, _), share in zip(placed, shares, strict=True) if share > 0]
    if location != MISS and hp > 0:
        placed.append((location, hp))
