"""Invariants of a world, checked after every tick when asked for.

Asked for by ``Sandbox(check_invariants=True)`` or the environment variable ``SANDBOX_INVARIANTS=1``.

``check`` reads the creatures' components and the part of the event log written since its last call, and returns
every breach it finds as a sentence (empty: all is well). It never changes the world. What it has to remember
between calls (the log position, the dead, the last game time) lives in a ``Tracker`` the world keeps; a world
loaded from a save starts a fresh tracker and reads its whole log once.

Every model:
    - game time never goes backwards (the clock, and the time and tick of each event in log order);
    - a dead creature never acts, bleeds or heals again: no attack by it, no ``BloodLost`` and no
      ``InjuryHealed`` after its ``Died`` event (and it dies once);
    - held items are never duplicated or conjured: each owned weapon is held, dropped, lost or still carried, at
      most as many times as it is owned; natural weapons are never dropped or lost;
    - the model's readout agrees with its state: ``alive == not Condition.dead``,
      ``can_act == sandbox.systems.creatures.can_act``, a dead readout has health 0;
    - a shock state only worsens from a blow: a ``ShockChanged`` that improves must follow a ``ShockRetested``
      or ``CourseTested`` of the same creature;
    - and each model's own (``DamageModel.invariants``: the anatomy model's health range, permanent floors,
      unusable parts holding nothing ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from sandbox.components.events import (
    AttackDeclared,
    BloodLost,
    CourseTested,
    D20AttackRolled,
    Died,
    Event,
    InjuryHealed,
    ShockChanged,
    ShockRetested,
)
from sandbox.components.log import LogEntry
from sandbox.components.rules import ShockState
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, can_act

__all__ = ["InvariantError", "Tracker", "check"]

_STATES = {s.label: s for s in ShockState}
_RECOVERIES = (ShockRetested, CourseTested)


class InvariantError(AssertionError):
    """A world broke one of its invariants.

    Attributes:
        breaches: Every breach found, one sentence each.
    """

    def __init__(self, breaches: Iterable[str], tick: int = -1) -> None:
        self.breaches = list(breaches)
        self.tick = tick
        head = f"{len(self.breaches)} invariant breach(es)" + (f" after tick {tick}" if tick >= 0 else "")
        super().__init__(head + ":\n  " + "\n  ".join(self.breaches))


@dataclass(slots=True)
class Tracker:
    """What the checks remember between calls."""

    log_pos: int = 0
    dead: dict[int, int] = field(default_factory=dict)
    """Entity -> tick of its ``Died`` event."""
    last_time: float = float("-inf")
    last_tick: int = -1
    clock_seconds: float = float("-inf")
    clock_tick: int = -1
    last_event: dict[int, type] = field(default_factory=dict)
    """Entity -> type of the last event about it (what an improving ``ShockChanged`` must follow)."""


def _events(entries: Iterable[LogEntry]) -> Iterator[Event]:
    for entry in entries:
        yield from entry.events()


def check(creatures: Mapping[int, Creature], ctx: TickContext, track: Tracker) -> list[str]:
    """Every invariant breach of the world now (see the module docstring); empty when all hold.

    Args:
        creatures: Every creature by entity.
        ctx: The world's tick context (clock, log, damage model).
        track: What earlier checks of this world remembered.
    """
    breaches: list[str] = []
    _check_clock(ctx, track, breaches)
    _check_log(ctx, track, breaches)
    model = ctx.model
    for entity, c in creatures.items():
        _check_equipment(entity, c.name, c, breaches)
        _check_readout(entity, c.name, c, ctx, breaches)
        breaches.extend(model.invariants(c, ctx))
    return breaches


def _check_clock(ctx: TickContext, track: Tracker, breaches: list[str]) -> None:
    clock = ctx.clock
    if clock.seconds < track.clock_seconds:
        breaches.append(f"game time went backwards: {track.clock_seconds} s -> {clock.seconds} s")
    if clock.tick < track.clock_tick:
        breaches.append(f"the tick count went backwards: {track.clock_tick} -> {clock.tick}")
    track.clock_seconds = max(track.clock_seconds, clock.seconds)
    track.clock_tick = max(track.clock_tick, clock.tick)


def _check_log(ctx: TickContext, track: Tracker, breaches: list[str]) -> None:
    log = ctx.log
    if len(log) < track.log_pos:
        breaches.append(f"the event log shrank from {track.log_pos} to {len(log)} entries")
        track.log_pos = 0
    new = log[track.log_pos:]
    track.log_pos = len(log)
    for event in _events(new):
        kind = type(event).__name__
        if event.time < track.last_time or event.tick < track.last_tick:
            breaches.append(f"{kind} at tick {event.tick}, {event.time} s comes after tick {track.last_tick}, "
                            f"{track.last_time} s: time went backwards")
        track.last_time = max(track.last_time, event.time)
        track.last_tick = max(track.last_tick, event.tick)
        if isinstance(event, AttackDeclared | D20AttackRolled):
            actor = event.attacker
            if actor in track.dead:
                breaches.append(f"entity {actor} attacked at tick {event.tick} after dying at tick "
                                f"{track.dead[actor]}")
        elif isinstance(event, BloodLost | InjuryHealed):
            if event.entity in track.dead:
                breaches.append(f"entity {event.entity} had {kind} at tick {event.tick}, {event.time} s after "
                                f"dying at tick {track.dead[event.entity]}")
        elif isinstance(event, Died):
            if event.entity in track.dead:
                breaches.append(f"entity {event.entity} died again at tick {event.tick} ({event.cause})")
            else:
                track.dead[event.entity] = event.tick
        elif isinstance(event, ShockChanged):
            before, after = _STATES.get(event.before), _STATES.get(event.after)
            if before is None or after is None:
                breaches.append(f"entity {event.entity}: unknown shock state in {event.before!r} -> {event.after!r}")
            elif after < before and track.last_event.get(event.entity) not in _RECOVERIES:
                breaches.append(f"entity {event.entity}: shock improved {event.before} -> {event.after} at tick "
                                f"{event.tick} without a re-test or course test")
        for key in event.entity_fields:
            track.last_event[getattr(event, key)] = type(event)


def _check_equipment(entity: int, name: str, c: Creature, breaches: list[str]) -> None:
    equip = c.equipment
    owned = Counter(equip.weapons)
    held = set(equip.holding.values())
    for item in held:
        if item not in owned and item not in equip.natural:
            breaches.append(f"{name} ({entity}) holds {item!r}, which it does not own")
    for item in sorted(set(owned) | set(equip.dropped) | set(equip.lost)):
        accounted = (item in held) + equip.dropped.count(item) + equip.lost.count(item)
        if accounted > owned[item]:
            breaches.append(f"{name} ({entity}) has {item!r} {accounted} times (held/dropped/lost) but owns "
                            f"{owned[item]}")
    for item in equip.natural:
        if item in equip.dropped or item in equip.lost:
            breaches.append(f"{name} ({entity}) dropped or lost its natural weapon {item!r}")


def _check_readout(entity: int, name: str, c: Creature, ctx: TickContext, breaches: list[str]) -> None:
    cond = c.condition
    try:
        readout = ctx.model.readout(c, ctx)
    except Exception as exc:  # a readout that raises is itself a breach
        breaches.append(f"{name} ({entity}): readout raised {type(exc).__name__}: {exc}")
        return
    if readout.alive != (not cond.dead):
        breaches.append(f"{name} ({entity}): readout alive={readout.alive} but Condition.dead={cond.dead}")
    if readout.can_act != can_act(cond):
        breaches.append(f"{name} ({entity}): readout can_act={readout.can_act} but can_act()={can_act(cond)}")
    if not readout.alive and readout.health != 0:
        breaches.append(f"{name} ({entity}): dead readout with health {readout.health}")
