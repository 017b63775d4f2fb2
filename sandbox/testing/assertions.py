"""Assertions for a game's tests: an event of a type with given fields happened; a creature has a given wound.

Each fails with an ``AssertionError`` that shows what there was instead (every event of the type, every wound of
the creature), so a failing test says what the world did; a question that cannot be asked (a field the event type
does not have, a type that is not an event) is a ``HelperError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from sandbox.components.events import Event
from sandbox.components.readout import Readout, WoundReading
from sandbox.testing.errors import HelperError

__all__ = ["assert_event", "assert_wound"]

E = TypeVar("E", bound=Event)

_SHOWN = 20
"""Events of the type a failure lists at most (the last ones: a long fight's first blows are rarely the point)."""


def _matches(expected: object, actual: object) -> bool:
    if callable(expected) and not isinstance(expected, type):
        return bool(expected(actual))
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.casefold() == actual.casefold()
    return bool(expected == actual)


def _events_and_names(source: Any) -> tuple[list[Event], Mapping[int, str] | None]:
    events = getattr(source, "events", None)
    if events is not None and not callable(events) and hasattr(source, "names"):
        return list(events), source.names  # a world: its whole event log, and its creatures' names
    if isinstance(source, Iterable) and not isinstance(source, str | bytes):
        items = list(source)
        expanded = [e for item in items for e in (item.events() if hasattr(item, "events") else (item,))]
        return [e for e in expanded if isinstance(e, Event)], None
    raise HelperError(f"assert_event reads a world or a list of events (what step() or strike() returns), not a "
                      f"{type(source).__name__}")


def assert_event(events_or_world: Any, event_type: type[E], **expected: object) -> E:
    """Assert that an event of ``event_type`` with the ``expected`` fields happened; returns the first such event.

    ``assert_event(world, Severed, entity="Bertram", location="Left Forearm")``. A field given a string matches
    case-insensitively; a field given a callable matches when it returns true (``impact=lambda n: n >= 15``); a
    creature's field (``entity``, ``target``, ``attacker``) may be given by name when a world is passed.

    Args:
        events_or_world: A world (its whole event log) or the events of a call (``world.step()``, ``strike``), or
            log entries (their events).
        event_type: The event class (``sandbox.components.events``).
        **expected: Field values the event must have.

    Returns:
        The first matching event, in log order.

    Raises:
        AssertionError: No event matches (the message lists those of the type that were seen, or the types seen).
        HelperError: ``event_type`` is not an event type, a field it does not have, a creature named without a
            world to name it in, or something that holds no events.
    """
    if not isinstance(event_type, type) or not issubclass(event_type, Event):
        raise HelperError(f"assert_event takes an event type (sandbox.components.events), not {event_type!r}")
    known = [f.name for f in fields(event_type)]
    unknown = sorted(set(expected) - set(known))
    if unknown:
        raise HelperError(f"{event_type.__name__} has no field {', '.join(unknown)}; its fields: {', '.join(known)}")
    events, names = _events_and_names(events_or_world)
    wanted: dict[str, object] = dict(expected)
    for key in event_type.entity_fields:
        value = wanted.get(key)
        if isinstance(value, str):
            if names is None:
                raise HelperError(f"{key}={value!r} names a creature: pass the world, not a list of events, to "
                                  f"compare creatures by name")
            wanted[key] = _by_name(names, key, value)
    seen = [e for e in events if isinstance(e, event_type)]
    for event in seen:
        if all(_matches(value, getattr(event, key)) for key, value in wanted.items()):
            return event
    asked = ", ".join(f"{key}={value!r}" for key, value in expected.items())
    raise AssertionError(f"no {event_type.__name__}({asked}) among {len(events)} events; "
                         + _seen(event_type, seen, events, names))


def _by_name(names: Mapping[int, str], key: str, name: str) -> Callable[[object], bool]:
    entities = {entity for entity, n in names.items() if n.casefold() == name.casefold()}
    if not entities:
        raise HelperError(f"{key}={name!r}: no creature of that name; the world's: {', '.join(names.values())}")
    return lambda entity: entity in entities


def _seen(event_type: type[Event], seen: Sequence[Event], events: Sequence[Event],
          names: Mapping[int, str] | None) -> str:
    if not seen:
        types = sorted({type(e).__name__ for e in events})
        return f"none of that type (types seen: {', '.join(types) or 'none'})"
    shown = seen[-_SHOWN:]
    lines = [f"  {_fields(e, names)}" for e in shown]
    more = f" (the last {_SHOWN})" if len(seen) > _SHOWN else ""
    return f"the {len(seen)} {event_type.__name__} events seen{more}:\n" + "\n".join(lines)


def _fields(event: Event, names: Mapping[int, str] | None) -> str:
    parts = []
    for f in fields(event):
        value = getattr(event, f.name)
        shown = repr(value)
        if names is not None and f.name in event.entity_fields and value in names:
            shown = f"{value} ({names[value]})"
        parts.append(f"{f.name}={shown}")
    return f"{type(event).__name__}({', '.join(parts)})"


def _wound_words(w: WoundReading) -> str:
    where = f"{w.location} ({w.part})" if w.location else "(no location)"
    return f"{where}: level {w.level!r}" + (f" ({w.text})" if w.text else "")


def assert_wound(world: Any, creature: int | str, location: str | None = None, level: str | None = None, *,
                 part: str | None = None, aspect: str | None = None, bleeding: bool | None = None,
                 severed: bool | None = None) -> WoundReading:
    """Assert that the creature has a wound with the given fields, in its model's readout; returns that wound.

    ``assert_wound(world, "Bertram", location="Left Forearm", level="G5", severed=True)``. Names and levels are
    compared case-insensitively with ``world.readout(creature).wounds`` (``sandbox.components.readout``), so the
    level is in the model's own terms: a code (``G5``) under anatomy, a depth under wound depth, the effect or
    rung under the others. A model that places no wound at a location reads ``""`` there, and a ``location`` then
    never matches (the message says so).

    Args:
        world: The world (anything with ``readout(creature)``).
        creature: Its name or entity.
        location: The wound's location ("Left Forearm").
        level: Its level as the readout spells it.
        part: The part its location belongs to.
        aspect: Its aspect or damage type.
        bleeding: It bleeds (or does not).
        severed: The location was cut off (``True``) or was not (``False``): the readout's ``severed``.

    Returns:
        The first matching wound.

    Raises:
        AssertionError: No wound matches (the message lists the creature's wounds and what was cut off).
        SandboxError: No such creature.
    """
    readout: Readout = world.readout(creature)
    wanted = {"location": location, "level": level, "part": part, "aspect": aspect, "bleeding": bleeding}
    asked: dict[str, object] = {key: value for key, value in wanted.items() if value is not None}
    cut = {name.casefold() for name in readout.severed}
    for wound in readout.wounds:
        if all(_matches(value, getattr(wound, key)) for key, value in asked.items()) \
                and (severed is None or (wound.location.casefold() in cut) == severed):
            return wound
    if severed is not None:
        asked["severed"] = severed
    who = creature if isinstance(creature, str) else getattr(world, "name_of", lambda e: str(e))(creature)
    model = getattr(world, "model", "its")
    wounds = "\n".join(f"  {_wound_words(w)}" for w in readout.wounds) or "  none"
    note = ""
    if location is not None and readout.wounds and not any(w.location for w in readout.wounds):
        note = f"\n(the {model} model places no wound at a location: every wound's location is empty)"
    cut_off = ", ".join(readout.severed) or "nothing"
    raise AssertionError(f"{who} has no wound with {', '.join(f'{k}={v!r}' for k, v in asked.items()) or 'any fields'}"
                         f" under the {model} model; its wounds:\n{wounds}\ncut off: {cut_off}{note}")
