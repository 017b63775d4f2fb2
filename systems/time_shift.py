"""Moving a creature's game times from one world's clock to another's (a creature carried between worlds).

A model's state holds game times of its world: when a wound was received, when it next bleeds. Carried into a world
whose clock reads otherwise, each time moves by the difference of the clocks, so everything falls due the same span
after the carry as it would have in the old world. ``TimeShift`` is that difference and the rules every model's
``DamageModel.shift_times`` applies to its fields, by what the field means:

- a *due* time (when something next happens: ``next_bleed``, ``dies_at``) moves by the seconds; -1 (none) stays
  -1; and it never moves below 0, the new world's beginning: the models read a negative due time as none, and a
  time already past in the old world stays past (overdue) in the new one at 0 as well;
- a *past* time (when something happened: ``received``, ``down_since``) moves exactly, and may fall before the new
  world's beginning (negative): the rules read how long ago it was (the days a wound took to heal), which a carry
  must not change. One that would land exactly on the sentinel -1 moves the least step further into the past, so
  it is not read as none;
- a *tick* (``Shock.since``) moves by the ticks, exactly, as a past time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["NEVER", "TimeShift"]

NEVER = -1.0
"""The sentinel of a time field that holds none."""


@dataclass(frozen=True, slots=True)
class TimeShift:
    """How far a creature's times move: the new world's clock minus the old one's.

    Attributes:
        seconds: Game seconds to add to each time in seconds.
        ticks: Ticks to add to each time in ticks.
    """

    seconds: float = 0.0
    ticks: int = 0

    @classmethod
    def between(cls, old_seconds: float, old_tick: int, new_seconds: float, new_tick: int) -> TimeShift:
        """The shift that carries times of a world at (``old_seconds``, ``old_tick``) into one at the new clock."""
        return cls(new_seconds - old_seconds, new_tick - old_tick)

    def __neg__(self) -> TimeShift:
        """The shift back."""
        return TimeShift(-self.seconds, -self.ticks)

    def due(self, time: float) -> float:
        """A due time (-1: none) moved; never below 0."""
        if time == NEVER:
            return NEVER
        return max(time + self.seconds, 0.0)

    def past(self, time: float) -> float:
        """A time something happened moved exactly (it may fall before 0)."""
        return time + self.seconds

    def past_or_never(self, time: float) -> float:
        """A time something happened (-1: it has not) moved; off the sentinel should it land there."""
        if time == NEVER:
            return NEVER
        moved = time + self.seconds
        return math.nextafter(NEVER, -math.inf) if moved == NEVER else moved

    def tick(self, tick: int) -> int:
        """A tick something happened at, moved exactly."""
        return tick + self.ticks
