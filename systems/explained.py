"""An attack explained in words, found from any of its events: the lines the viewer's "attack explained" shows.

A world's log holds each model's compact attack records, and typed events; a world loaded from a save holds typed
events only, where an ``AttackDeclared`` opens an attack and the steps of the rules after it (``STEPS``) belong to
it. Either way an attack's explanation is its entry's ``explain`` (the record's, or ``EventAttack``'s: a line per
step) and then, on a line of its own, what followed it in the same tick before the next attack (a bleeder, a fall,
a new state, death: each event's ``summary``). ``explain_event`` finds the attack an event is a step of and gives
those lines; the viewer (``sandbox.viewer.entries``) draws the same ``attack_lines``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sandbox.components.events import (
    AmputationTested,
    AttackDeclared,
    AttackRolled,
    BlowLanded,
    D20AttackRolled,
    DamageDealt,
    Event,
    Injured,
    MishapTested,
    Missed,
    ProtectionApplied,
    ShockTested,
)
from sandbox.components.log import AttackEntry, LogEntry, Names, name_of

__all__ = ["STEPS", "EventAttack", "attack_lines", "explain_event", "find_attack"]

STEPS: tuple[type[Event], ...] = (AttackRolled, D20AttackRolled, Missed, BlowLanded, ProtectionApplied, Injured,
                                  AmputationTested, ShockTested, MishapTested, DamageDealt)
"""The events that are steps of an attack (after its ``AttackDeclared``), not consequences of it."""


@dataclass(slots=True)
class EventAttack:
    """An attack read back from typed events: its ``AttackDeclared`` and the steps after it (an ``AttackEntry``).

    Attributes:
        steps: The events, ``AttackDeclared`` first.
        tick: The tick of the attack.
        time: Game time of the attack.
        attacker: The attacking entity.
        target: The entity attacked.
    """

    steps: list[Event]
    tick: int
    time: float
    attacker: int
    target: int
    headline: ClassVar[bool] = True

    @classmethod
    def opening(cls, declared: AttackDeclared) -> EventAttack:
        """The attack its ``AttackDeclared`` opens (its steps follow)."""
        return cls([declared], declared.tick, declared.time, declared.attacker, declared.target)

    @property
    def declared(self) -> AttackDeclared:
        """The opening event."""
        first = self.steps[0]
        assert isinstance(first, AttackDeclared)
        return first

    @property
    def struck(self) -> bool:
        """The blow reached the body (a location was struck, or a point model dealt its damage)."""
        return any(isinstance(e, BlowLanded | DamageDealt) for e in self.steps)

    def events(self) -> list[Event]:
        """The steps, in order."""
        return list(self.steps)

    def summary(self, names: Names) -> str | None:
        """Who struck whom and what the blow did, or ``None`` when it did not reach the body."""
        who = f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}"
        for event in self.steps:
            if isinstance(event, Injured):
                if event.glancing:
                    return f"{who}: {self.declared.mode} glances off the {event.location}"
                wound = f"{event.level_code} {event.aspect}" if event.level > 0 else "no wound"
                return f"{who}: {self.declared.mode} hits the {event.location}: {wound}"
            if isinstance(event, DamageDealt):
                return f"{who}: {event.dealt} damage ({event.rolled} rolled): {event.detail}"
        return None

    def explain(self, names: Names) -> list[str]:
        """The attack step by step: a line per event."""
        lines = [f"Tick {self.tick}: {self.steps[0].describe(names)}"]
        lines += [event.describe(names) for event in self.steps[1:]]
        return lines


def attack_lines(entry: LogEntry, follows: Sequence[Event], names: Names) -> list[str]:
    """An attack step by step (``entry.explain``), then what followed it (``Then: bleeding, now stunned``)."""
    lines = list(entry.explain(names))
    after = [text for text in (event.summary(names) for event in follows) if text]
    if after:
        lines.append("Then: " + ", ".join(after))
    return lines


def _opens(entry: LogEntry) -> bool:
    """The entry begins an attack: a model's record, or the ``AttackDeclared`` of typed events."""
    return (entry.headline and isinstance(entry, AttackEntry)) or isinstance(entry, AttackDeclared)


def find_attack(log: Sequence[LogEntry], event: Event,
                source: LogEntry | None = None) -> tuple[LogEntry, list[Event]] | None:
    """The attack ``event`` is a step of, and what followed it; ``None`` when it is no step of an attack in ``log``.

    The attack is the log's entry (a record whose ``events`` give ``event``), or an ``EventAttack`` of typed events
    (its ``AttackDeclared`` and steps). Only the entries of the event's tick are read (records expanded). ``source``
    is the entry the event is known to come from (``EventStream.source_of``, while it is being delivered); else the
    very object is looked for (a typed event of the log), then an equal one: of two attacks in one tick with an
    equal step (two identical direct blows), the first.
    """
    start = bisect_left(log, event.tick, key=lambda entry: entry.tick)  # a log's ticks never go back
    stop = start
    while stop < len(log) and log[stop].tick == event.tick:
        stop += 1
    attacks: list[tuple[int, int, LogEntry, list[Event]]] = []  # (first index, index after its steps, entry, steps)
    i = start
    while i < stop:
        entry = log[i]
        if isinstance(entry, AttackDeclared):
            opened = EventAttack.opening(entry)
            i += 1
            while i < stop and isinstance(log[i], STEPS):
                step = log[i]
                assert isinstance(step, Event)
                opened.steps.append(step)
                i += 1
            attacks.append((i - len(opened.steps), i, opened, opened.steps))
            continue
        if entry.headline and isinstance(entry, AttackEntry):
            attacks.append((i, i + 1, entry, [] if source is not None else list(entry.events())))
        i += 1
    if source is not None:
        found = next((a for a in attacks if a[2] is source), None)
    else:
        found = next((a for a in attacks if any(step is event for step in a[3])), None) \
            or next((a for a in attacks if any(step == event for step in a[3])), None)
    if found is None:
        return None
    _, after, entry, _ = found
    follows: list[Event] = []
    for later in log[after:stop]:
        if _opens(later):
            break
        if isinstance(later, Event):
            follows.append(later)
    return entry, follows


def explain_event(log: Sequence[LogEntry], event: Event, names: Names,
                  source: LogEntry | None = None) -> list[str]:
    """The explanation of the attack ``event`` is a step of (``attack_lines``), else the event's own sentence.

    A landed blow's ``BlowLanded``, ``Injured`` or ``DamageDealt`` (or any other step of its attack: the roll, a miss)
    gives the viewer's lines for that attack; an event that is no step of an attack (a death, a bleeding round,
    ``WentDown``) gives its own ``explain``. ``source``: as ``find_attack`` takes it.
    """
    found = find_attack(log, event, source)
    if found is None:
        return event.explain(names)
    return attack_lines(found[0], found[1], names)
