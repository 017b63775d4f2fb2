"""The log as the viewer lists it: one ``Attack`` per attack, with what followed it, however the log holds it.

A world's log holds each model's compact attack records (``AttackEntry``) and typed events; a world loaded from a
save, and a replayed ``run --log`` file, hold typed events only. ``LogReader`` turns either into the same attacks:
a record is an attack; an ``AttackDeclared`` event opens one, the steps of the rules that follow it (the rolls,
where the blow landed, protection, the wound, amputation, shock, mishaps, damage) belong to it, and every other
event until the next attack is what followed. So an explanation never mixes two attacks. ``EventAttack``, ``STEPS``
and the explanation's lines live in ``sandbox.systems.explained`` (``Sandbox.explain`` gives the same lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sandbox.components.events import AttackDeclared, DamageDealt, Event, Injured
from sandbox.components.log import AttackEntry, LogEntry, Names
from sandbox.systems.explained import STEPS, EventAttack, attack_lines
from sandbox.viewer.theme import TEXT, Colour

__all__ = ["STEPS", "Attack", "EventAttack", "LogReader", "blow_label"]


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


@dataclass(slots=True)
class Attack:
    """One attack as the viewer lists it.

    Attributes:
        entry: The log entry (a model's record, or an ``EventAttack``).
        follows: The events that followed it before the next attack (a bleeder, a fall, a new state, death).
        label: The floating label of a blow that reached the body, with its colour (``None``: a miss).
    """

    entry: AttackEntry
    follows: list[Event] = field(default_factory=list)
    label: tuple[str, Colour] | None = None

    @property
    def tick(self) -> int:
        """The tick of the attack."""
        return self.entry.tick

    @property
    def attacker(self) -> int:
        """The attacking entity."""
        return self.entry.attacker

    @property
    def target(self) -> int:
        """The entity attacked."""
        return self.entry.target

    @property
    def struck(self) -> bool:
        """The blow reached the body."""
        return self.entry.struck

    def line(self, names: Names) -> str:
        """The attack in the log panel: who struck whom and what came of it."""
        who = f"{_who(names, self.attacker)} -> {_who(names, self.target)}"
        if not self.struck:
            return f"{who}: misses"
        text = f"{who}: {self.label[0] if self.label else 'no effect'}"
        after = self.after(names)
        return f"{text}; {', '.join(after)}" if after else text

    def after(self, names: Names) -> list[str]:
        """What followed, in a few words each (the account's words)."""
        return [text for text in (event.summary(names) for event in self.follows) if text]

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, then what followed (``sandbox.systems.explained.attack_lines``)."""
        return attack_lines(self.entry, self.follows, names)


def blow_label(entry: LogEntry) -> tuple[str, Colour] | None:
    """The floating label of an attack that reached the body (level and location, or damage), from its events."""
    for event in entry.events():
        if isinstance(event, Injured):
            if event.glancing:
                return "glances", TEXT
            if event.level <= 0:
                return "no wound", TEXT
            colour = (255, 90, 80) if event.level >= 4 else (255, 200, 90) if event.level >= 2 else TEXT
            return f"{event.level_code} {event.location}", colour
        if isinstance(event, DamageDealt):
            return (f"{event.dealt} damage", (255, 200, 90)) if event.dealt > 0 else ("no damage", TEXT)
    return None


def _attack(entry: AttackEntry) -> Attack:
    return Attack(entry, label=blow_label(entry) if entry.struck else None)


class LogReader:
    """Reads a log into attacks, a slice at a time (the log only grows between reads)."""

    def __init__(self) -> None:
        self.attacks: list[Attack] = []
        self._open: EventAttack | None = None  # an attack of typed events still taking its steps
        self._open_attack: Attack | None = None

    def read(self, entries: Sequence[LogEntry]) -> list[Attack]:
        """Take ``entries`` (the next slice of the log); returns the attacks they opened."""
        new: list[Attack] = []
        for entry in entries:
            if entry.headline and isinstance(entry, AttackEntry):
                self._close()
                attack = _attack(entry)
                new.append(attack)
                self.attacks.append(attack)
            elif isinstance(entry, AttackDeclared):
                self._close()
                self._open = EventAttack.opening(entry)
                attack = Attack(self._open)
                self._open_attack = attack
                new.append(attack)
                self.attacks.append(attack)
            elif self._open is not None and isinstance(entry, STEPS):
                self._open.steps.append(entry)
            elif isinstance(entry, Event):
                self._close()
                if self.attacks and self.attacks[-1].tick == entry.tick:  # a consequence of the tick's last attack
                    self.attacks[-1].follows.append(entry)
        return new

    def finish(self) -> None:
        """The log read so far is whole (a tick has ended): settle the attack still taking steps."""
        self._close()

    def _close(self) -> None:
        if self._open is not None and self._open_attack is not None and self._open.struck:
            self._open_attack.label = blow_label(self._open)
        self._open = None
        self._open_attack = None

    def truncate(self, tick: int) -> None:
        """Forget the attacks after ``tick`` (the world went back to it)."""
        self._close()
        while self.attacks and self.attacks[-1].tick > tick:
            self.attacks.pop()
        if self.attacks:  # what followed the last kept attack after that tick goes too
            last = self.attacks[-1]
            last.follows = [e for e in last.follows if e.tick <= tick]
