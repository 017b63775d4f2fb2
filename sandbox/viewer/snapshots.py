"""Snapshots of a world every few ticks, in memory, so the timeline can go back to any tick already played.

A snapshot of a ``Sandbox`` (the esper engine) is what a save holds (``sandbox.persistence.world_document``) without
the log, as JSON text: the log only grows, so the snapshot keeps its length and the restored world gets back the
entries it had then. Snapshots are kept as
often as the ticks cost: about every ``REPLAY_BUDGET`` of CPU time spent ticking. A world
restored from a snapshot and ticked on gives exactly the events the first run gave (saves are bit-exact), so
going to tick ``t`` is restoring the latest snapshot at or before ``t`` and ticking the difference.

The array engine has no save format: a snapshot of an ``ArrayWorld`` is a copy of it (``ArrayWorld.copy``: its
arrays and its counter-based streams, a few milliseconds), without its log, that nothing ever ticks; a restore is a
copy of that copy, so it too goes on exactly as the first run went.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sandbox.components.log import LogEntry
from sandbox.persistence import world_document, world_from_document
from sandbox.viewer.watched import WatchedWorld
from sandbox.world import Sandbox

if TYPE_CHECKING:
    from sandbox.array_world import ArrayWorld

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
        state: Of a ``Sandbox``: the save document as JSON text, with no log (what a save file holds, so a restore
            reads exactly what a load reads; text, not live objects the restored world could change). Of an
            ``ArrayWorld``: a copy of it with an empty log, never ticked (a restore copies it again).
        log_length: How many log entries the world had.
    """

    tick: int
    state: str | ArrayWorld
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
        """Whether to keep a snapshot at ``tick``, the tick just played (it took ``cost`` CPU seconds): the first
        one, then every ``every`` ticks, or once the ticks since the last one cost ``REPLAY_BUDGET``."""
        if not self._ticks:
            return True
        if tick <= self._ticks[-1]:
            return False
        self._spent += cost
        gap = tick - self._ticks[-1]
        if self.every is not None:
            return gap >= self.every
        return gap >= MOST_TICKS or self._spent >= REPLAY_BUDGET

    def keep(self, world: WatchedWorld, quiet: Callable[[], None] = lambda: None) -> None:
        """Keep a snapshot of ``world`` as it is now (``quiet`` is called just before the one step that holds the
        interpreter for a while, so a drawing thread can finish its frame first)."""
        state: str | ArrayWorld
        if isinstance(world, Sandbox):
            doc = world_document(world, events=False)
            quiet()
            state = json.dumps(doc, separators=(",", ":"))
        else:
            quiet()
            state = _array_world(world).copy(log=())
        snapshot = Snapshot(world.tick, state, len(world.log))
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

    def restore(self, snapshot: Snapshot, like: WatchedWorld, log: Sequence[LogEntry]) -> WatchedWorld:
        """A new world from ``snapshot``, with the first ``snapshot.log_length`` entries of ``log`` (the log of the
        fight it was taken from); of a ``Sandbox``, with ``like``'s catalog, class, scenario and invariant checks."""
        if not isinstance(snapshot.state, str):
            return snapshot.state.copy(log=log[:snapshot.log_length])
        assert isinstance(like, Sandbox)  # a save document is only ever kept of a Sandbox
        world = world_from_document(json.loads(snapshot.state), like.catalog, type(like))
        world.scenario = like.scenario
        world.check_invariants = like.check_invariants
        world.ctx.log.extend(log[:snapshot.log_length])
        return world


def _array_world(world: WatchedWorld) -> ArrayWorld:
    """``world`` as the ``ArrayWorld`` it is (a world the viewer watches is a ``Sandbox`` or an ``ArrayWorld``).

    Raises:
        TypeError: Neither (a world of a kind the snapshots cannot copy).
    """
    from sandbox.array_world import ArrayWorld  # loaded already: an array world exists

    if not isinstance(world, ArrayWorld):
        raise TypeError(f"cannot snapshot a {type(world).__name__}: the viewer watches a Sandbox or an ArrayWorld")
    return world
