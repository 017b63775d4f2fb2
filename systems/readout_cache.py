"""Readouts kept until the world changes: what lets a HUD read every creature every frame for next to nothing.

A readout is a pure function of a creature's components and the clock, and it costs tens of microseconds; a HUD
asks for the same ones many times between two ticks. The cache keys its readouts by a cheap version of the world
(``WorldVersion``): the log's length, the clock, and a count of the changes that write neither (``changed``), so a
readout is rebuilt after a tick, a strike, an inflicted wound, time passing or a hand edit, and served from memory
otherwise. Readouts are frozen, so handing out the same one twice is safe.
"""

from __future__ import annotations

from sandbox.components.readout import Readout

__all__ = ["ReadoutCache", "WorldVersion"]

WorldVersion = tuple[int, int, float, int]
"""(log length, ticks run, game seconds, changes counted by ``ReadoutCache.changed``)."""


class ReadoutCache:
    """Each creature's readout, by entity, while the world's version stays what it was when they were read.

    Attributes:
        changes: Changes counted so far that neither log nor move the clock (a hand edit, a part held fast).
    """

    __slots__ = ("_readouts", "_version", "changes")

    def __init__(self) -> None:
        self._readouts: dict[int, Readout] = {}
        self._version: WorldVersion | None = None
        self.changes = 0

    def get(self, entity: int, version: WorldVersion) -> Readout | None:
        """The readout of ``entity`` kept at ``version``, or ``None`` (then read it and ``put`` it).

        A version other than the last one asked for forgets every kept readout.
        """
        if version != self._version:
            self._readouts.clear()
            self._version = version
            return None
        return self._readouts.get(entity)

    def put(self, entity: int, reading: Readout) -> None:
        """Keep ``reading`` as the readout of ``entity`` at the version last asked for (``get``)."""
        self._readouts[entity] = reading

    def changed(self, entity: int | None = None) -> None:
        """Something a readout reads changed without a log entry or a clock move: forget ``entity``'s, or every one.

        Forgetting one creature keeps the others' readouts (a component handed out for editing); forgetting all
        counts a change, so the next read at any older version rebuilds.
        """
        if entity is None:
            self.changes += 1
            self._readouts.clear()
        else:
            self._readouts.pop(entity, None)
