"""Readouts kept until the creature changes: what lets a HUD read every creature every frame for next to nothing.

A readout is a pure function of a creature's components and the clock, and it costs tens of microseconds; a HUD
asks for the same ones many times between two ticks, and after a tick most creatures are as they were. The cache
keys its readouts by a cheap version of the world (``WorldVersion``): the log's length, the clock, and a count of the
changes that write neither (``changed``). When only the log grew and the clock moved (a tick, a strike), it forgets
the readouts of the creatures the new log entries name (every change to a creature in play is logged), and, when
the clock moved under a model whose readouts count down (a stun's turns, a death clock: ``DamageModel
.readout_counts_down``), those of the living hurt; an unhurt or a dead creature's readout does not age. Any other
change (a hand edit, a load, time jumped by ``advance``) forgets every one. Readouts are frozen, so handing out the
same one twice is safe; tests/test_readout_cache.py compares every kept readout with a fresh one after every tick of
fights under all five models.
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.log import LogEntry
from sandbox.components.readout import Readout

__all__ = ["ReadoutCache", "WorldVersion", "entities_named"]

NAMING_FIELDS = ("attacker", "target", "entity", "patient")
"""The fields of a compact attack record (or a model's own entry) that name a creature it changed."""

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

    def get(self, entity: int, version: WorldVersion, log: Sequence[LogEntry] = (),
            counts_down: bool = True) -> Readout | None:
        """The readout of ``entity`` kept at ``version``, or ``None`` (then read it and ``put`` it).

        Args:
            entity: The creature.
            version: The world's version now.
            log: The world's log (the entries past the last version asked for name the creatures that changed).
            counts_down: The model's readouts of living hurt creatures change as the clock moves.
        """
        if version != self._version:
            self._forget_since(version, log, counts_down)
            self._version = version
        return self._readouts.get(entity)

    def _forget_since(self, version: WorldVersion, log: Sequence[LogEntry], counts_down: bool) -> None:
        """Forget what may have changed between the last version asked for and ``version``."""
        old = self._version
        if not self._readouts:
            return
        if old is None or version[3] != old[3] or not old[0] <= version[0] <= len(log) or version[1] < old[1]:
            self._readouts.clear()
            return
        if version[1] == old[1] and version[2] != old[2]:
            self._readouts.clear()  # time moved with no tick (``advance``): every rule of the span may have run
            return
        named: set[int] = set()
        for entry in log[old[0]:version[0]]:
            named.update(entities_named(entry))
        aged = counts_down and version[1:3] != old[1:3]
        for entity in [e for e, r in self._readouts.items()
                       if e in named or (aged and r.alive and r.tier != "unhurt")]:
            del self._readouts[entity]

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


def entities_named(entry: LogEntry) -> set[int]:
    """The creatures a log entry may have changed.

    A compact attack record says which (``changed_creatures``: the target of a blow that landed, say); an event names
    them in its entity fields; any other entry, every creature field it has.
    """
    changed = getattr(entry, "changed_creatures", None)
    if changed is not None:
        return set(changed())
    named = {getattr(entry, name) for name in getattr(entry, "entity_fields", ())}
    for name in NAMING_FIELDS:
        value = getattr(entry, name, None)
        if isinstance(value, int):
            named.add(value)
    return named
