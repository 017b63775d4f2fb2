"""Snapshots of a world every few ticks, in memory, so the timeline can go back to any tick already played.

A snapshot is the world frozen (``World.freeze``): of a ``Sandbox`` (the esper engine), what a save holds
(``sandbox.persistence.world_document``) without the log, as JSON text (``FrozenSandbox``); of an ``ArrayWorld``
(which has no save format), a copy of it without its log that nothing ever ticks. The log only grows, so a snapshot
keeps its length and the restored world gets back the entries it had then. Snapshots are kept as often as the ticks
cost: about every ``REPLAY_BUDGET`` of CPU time spent ticking. A world restored from a snapshot (a copy of the
frozen world) and ticked on gives exactly the events the first run gave (saves are bit-exact, an array world's
copy draws what the original would), so going to tick ``t`` is restoring the latest snapshot at or before ``t`` and
ticking the difference.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sandbox.components.log import LogEntry
from sandbox.world_protocol import FrozenWorld, World

__all__ = ["MOST_TICKS", "REPLAY_BUDGET", "Snapshot", "Snapshots"]

REPLAY_BUDGET = 0.04
"""CPU seconds of ticks between two snapshots (by default): going to any tick replays at most about this much, so
a battle whose ticks are slow keeps a snapshot every few ticks and a small skirmish one every ``MOST_TICKS``."""
MOST_TICKS = 16
"""The most ticks between two snapshots (by default)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A world at one tick.

    Attributes:
        tick: The tick.
        state: The world frozen (``World.freeze``), with no log: never ticked (a restore copies it).
        log_length: How many log entries the world had.
    """

    tick: int
    state: FrozenWorld
    log_length: int


class Snapshots:
    """The snapshots of one fight, by tick.

    Args:
        every: Ticks between snapshots; ``None``: as the ticks cost (``REPLAY_BUDGET``, ``MOST_TICKS``).
    """

    def __init__(self, every: int | None = None) -> None:
        self.every = None if every is None else max(1, every)
        self._ticks: list[int] = []
        self._kept: list[Snapshot] = []
        self._spent = 0.0  # CPU seconds of the ticks since the last snapshot

    def __len__(self) -> int:
        return len(self._kept)

    def due(self, tick: int, cost: float = 0.0) -> bool:
        """Whether to keep a snapshot at ``tick``, the tick just played (it took ``cost`` CPU seconds).

        The first one, then every ``every`` ticks, or once the ticks since the last one cost ``REPLAY_BUDGET``.
        """
        if not self._ticks:
            return True
        if tick <= self._ticks[-1]:
            return False
        self._spent += cost
        gap = tick - self._ticks[-1]
        if self.every is not None:
            return gap >= self.every
        return gap >= MOST_TICKS or self._spent >= REPLAY_BUDGET

    def keep(self, world: World, quiet: Callable[[], None] = lambda: None) -> None:
        """Keep a snapshot of ``world`` as it is now.

        ``quiet`` is called just before freezing it, the step that holds the interpreter for a while, so a drawing
        thread can finish its frame first.
        """
        quiet()
        snapshot = Snapshot(world.tick, world.freeze(), len(world.log))
        at = bisect_right(self._ticks, world.tick)
        if at and self._ticks[at - 1] == world.tick:
            return
        self._ticks.insert(at, world.tick)
        self._kept.insert(at, snapshot)
        self._spent = 0.0

    def forget_from(self, tick: int) -> None:
        """Drop the snapshots at and after ``tick`` (the world changed there)."""
        at = bisect_right(self._ticks, tick - 1)
        del self._ticks[at:]
        del self._kept[at:]

    def latest(self, tick: int) -> Snapshot | None:
        """The latest snapshot at or before ``tick``."""
        at = bisect_right(self._ticks, tick)
        return self._kept[at - 1] if at else None

    def restore(self, snapshot: Snapshot, log: Sequence[LogEntry]) -> World:
        """A new world from ``snapshot``, with the first ``snapshot.log_length`` entries of ``log``.

        ``log`` is the log of the fight the snapshot was taken from.
        """
        return snapshot.state.copy(log[:snapshot.log_length])
