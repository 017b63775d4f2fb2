"""Tracing: the named creatures' landed blows as full records and the events of what followed.

A record is the anatomy model's own ``AttackRecord``, which explains itself from aim to shock state; the events come in
the order the rules decide them.

The array engine keeps no per-blow Python objects for creatures nobody traces, which is what lets it run ten
thousand fighters a tick; a traced creature's blows (struck or taken) cost what they cost in the esper engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.events import ItemPickedUp, ModeChanged, StoodUp
from sandbox.components.log import LogEntry
from sandbox.systems.arrays.attack import Attacks
from sandbox.systems.arrays.tables import BoolArray, IntArray
from sandbox.systems.models.anatomy.vector_blows import BlowArrays

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["Tracer"]


class Tracer:
    """The log of an array world: traced creatures' records and events.

    Args:
        engine: The world.
        traced: Indices of the creatures to trace.
    """

    def __init__(self, engine: ArrayEngine, traced: Iterable[int] = ()) -> None:
        self.engine = engine
        self.traced: BoolArray = np.zeros(len(engine.creatures), dtype=np.bool_)
        self.traced[list(traced)] = True
        self.any = bool(self.traced.any())
        self.log: list[LogEntry] = []
        self.tally = False
        self.landed: list[tuple[IntArray, IntArray, IntArray]] = []

    def keep(self, rows: IntArray, moved_to: IntArray) -> None:
        """Keep creatures ``rows`` only (see ``Creatures.keep``).

        Their tracing, and the tally of the blows they took (as one batch).
        """
        self.traced = self.traced[rows]
        if self.landed:
            target, location, level = (np.concatenate(column) for column in zip(*self.landed, strict=True))
            kept = moved_to[target] >= 0
            self.landed = [(moved_to[target[kept]], location[kept], level[kept])]

    def count(self, hits: Attacks, blows: BlowArrays) -> None:
        """With ``tally`` on, keep every landed blow's (target, location, level), for a lab's records."""
        if self.tally:
            struck = ~blows.missed
            self.landed.append((hits.target[struck], blows.location[struck], blows.level[struck]))

    def emit(self, event: LogEntry) -> None:
        """Append an entry."""
        self.log.append(event)

    def extend(self, events: Iterable[LogEntry]) -> None:
        """Append entries."""
        self.log.extend(events)

    def involved(self, hits: Attacks) -> BoolArray:
        """Per attack, whether its attacker or target is traced."""
        return self.traced[hits.attacker] | self.traced[hits.target]

    def modes_changed(self, idx: IntArray, before: IntArray, after: IntArray) -> None:
        """``ModeChanged`` for the traced among ``idx``."""
        if not self.any:
            return
        names = self.engine.modes.modes
        for j in np.flatnonzero(self.traced[idx]).tolist():
            b, a = int(before[j]), int(after[j])
            self.log.append(ModeChanged(self.engine.tick, self.engine.clock_time, int(idx[j]) + 1,
                                        names[b].id if b >= 0 else "", names[a].id if a >= 0 else ""))

    def stood_up(self, idx: IntArray) -> None:
        """``StoodUp`` for the traced among ``idx``."""
        for i in idx[self.traced[idx]].tolist():
            self.log.append(StoodUp(self.engine.tick, self.engine.clock_time, i + 1))

    def picked_up(self, i: int, item: str, part: str) -> None:
        """``ItemPickedUp`` when ``i`` is traced."""
        if self.traced[i]:
            self.log.append(ItemPickedUp(self.engine.tick, self.engine.clock_time, i + 1, item, part))
