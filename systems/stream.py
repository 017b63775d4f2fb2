"""Events as a stream: handlers subscribed by event type, called as a world's events happen, in log order.

``TickContext.stream`` is one world's ``EventStream``; ``Sandbox.on`` subscribes through it, and so does a game on the
own-world route (``ctx.stream.on(Died, handler)`` after ``sandbox.systems.install``). The loop itself delivers, so
both routes get the same calls.

When handlers run. The log grows through a tick (and an attack's record is still being filled in while its
consequences are logged), so events are delivered at *moments* when every entry so far is whole: at the end of
every tick (``CleanupProcessor``) and at its start (``ClockProcessor``: what a game's own calls logged between
ticks), and, through ``Sandbox``, when a call that changed the world returns (``strike``, ``inflict``, ``advance``,
``spawn`` ...). So a handler runs inside ``step``/``run``/``strike``/``advance``, tick by tick, never after ``run``
returns, and sees the world as that tick (or call) left it. A game that calls a model directly between ticks
(``ctx.model.strike``) can deliver at once with ``ctx.stream.flush()``.

Order. Exactly the order of ``Sandbox.events``: entry by entry, a compact attack record as its typed step events.
A record is expanded for delivery only when some subscription would receive one of its event types (a record class
names them in ``event_types``; one that does not is expanded whenever anyone listens), so a subscriber to ``Died``
costs the attack pipeline nothing. Subscribing to a base class receives its subclasses (``Event``: everything;
``Lifecycle``: ``WentDown``, ``GotUp`` and ``Died``). A subscription hears what happens after it was made. With no
subscription the loop pays one flag test per moment.

``WentDown`` and ``GotUp`` (model-agnostic: ``Condition.out``, which every model keeps current, turned on or off for a
living creature) are never logged, so the saved logs and golden files are unchanged; they are found by watching, and
only while someone subscribes to them (or to ``Lifecycle`` or ``Event``). The watch looks at the creatures the new log
entries name after each attack or own turn in the attack phase, after each due rule out of combat (``run_due``) and at
every moment, and at all the creatures at the end of each tick; each event takes its place in the order right after the
log entries of the step that caused it, with that step's tick and time. The cause is the creature's readout label then
(the model's own words), and ``shock`` its readout's shock word (the scale every model shares). A creature killed
outright has ``Died`` only (it is logged under every model, by ``sandbox.systems.conditions.kill``). A change that comes
and goes within one tick's periodic processors (bleeding, recovery) without an attack or due rule between is not seen; a
creature is watched from the first moment after it joined the world (``Sandbox.spawn`` is one; on the own-world route,
``flush()`` or the next tick). Watching costs a look at the creatures an entry names per attack, and one at every
creature per tick; a read of the world (``Sandbox.readout``) while watching, a check that no creature joined.

A handler that raises. The other handlers still receive every event of that moment, in order, so the stream never
skips or repeats one; then the first exception propagates unchanged from the call that reached the moment (``step``,
``run``, ``strike``, ``advance``, or ``ctx.process`` on the own-world route), with the tick, the world and its log
complete (``Sandbox``'s invariant check of that tick is skipped). Later exceptions of the same moment are attached to
it as notes. A handler may read the world and may change it (strike, spawn): what that logs is delivered after the
events already due, in log order. Subscriptions belong to one world: a copy or a loaded save starts with none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sandbox.components.events import EVENT_TYPES, Event, GotUp, Lifecycle, WentDown
from sandbox.components.log import LogEntry
from sandbox.systems.errors import SandboxError

if TYPE_CHECKING:
    from sandbox.systems.context import TickContext
    from sandbox.systems.creatures import Creature

__all__ = ["EventStream", "Subscription", "SubscriptionError"]

E = TypeVar("E", bound=Event)

_ABLE, _OUT, _DEAD = 0, 1, 2
"""What the watch remembers of a creature: able to act, out of the fight, dead."""


class SubscriptionError(SandboxError):
    """A subscription the stream cannot make: a type that is not an event type, or a handler that is not callable."""


class Subscription(Generic[E]):
    """One handler subscribed to one event type (and its subclasses); ``cancel`` it to stop.

    Also a context manager: ``with world.on(Died, handler): world.run()`` cancels it on leaving the block.

    Attributes:
        kind: The event type subscribed to.
        handler: What is called with each event of that type.
    """

    __slots__ = ("_start", "_stream", "handler", "kind")

    def __init__(self, stream: EventStream, kind: type[E], handler: Callable[[E], object],
                 start: tuple[int, int]) -> None:
        self.kind = kind
        self.handler = handler
        self._stream: EventStream | None = stream
        self._start = start  # (log length, lifecycle events noted) when it was made: it hears what comes after

    @property
    def active(self) -> bool:
        """Still subscribed."""
        return self._stream is not None

    def cancel(self) -> None:
        """Stop receiving events (at once, even in the middle of a moment); cancelling twice does nothing."""
        stream, self._stream = self._stream, None
        if stream is not None:
            stream._drop(self)

    def __enter__(self) -> Subscription[E]:
        return self

    def __exit__(self, *_: object) -> None:
        self.cancel()

    def __repr__(self) -> str:
        return f"Subscription({self.kind.__name__}, {'active' if self.active else 'cancelled'})"


def _state(creature: Creature) -> int:
    cond = creature.condition
    return _DEAD if cond.dead else _OUT if cond.out else _ABLE


class EventStream:
    """One world's subscriptions, and the delivery of its events to them (see the module docstring).

    Args:
        ctx: The world's context (its log, clock, roster and model).

    Attributes:
        subscribed: Some subscription is active (the loop tests this flag and nothing else while nobody listens).
        watching: Some subscription hears ``WentDown`` or ``GotUp``, so the watch runs.
    """

    def __init__(self, ctx: TickContext) -> None:
        self._ctx = ctx
        self.subscribed = False
        self.watching = False
        self._subs: list[Subscription[Any]] = []
        self._cursor = 0  # log entries delivered
        self._seen = 0  # log entries whose creatures the watch has looked at
        self._noted = 0  # lifecycle events noted so far (a subscription's start counts them)
        self._pending: list[tuple[int, int, Lifecycle]] = []  # (log position, serial, event) not yet delivered
        self._states: dict[int, int] = {}
        self._roster: object = None  # the roster's records when the watch last looked for new creatures
        self._by_type: dict[type, tuple[Subscription[Any], ...]] = {}
        self._expands: dict[type, bool] = {}
        self._delivering = False
        self._current: tuple[LogEntry, list[Event]] | None = None

    # ------------------------------------------------------------------ subscribing

    def on(self, kind: type[E], handler: Callable[[E], object]) -> Subscription[E]:
        """Call ``handler`` with every event of type ``kind`` (or a subclass) from now on, in log order.

        The watch reads the creatures of the context's world (the one ``install`` bound it to; a context built by
        hand reads the current world).

        Raises:
            SubscriptionError: ``kind`` is not an event type (a subclass of ``sandbox.components.events.Event``), or
                ``handler`` is not callable. Nothing is subscribed.
        """
        if not isinstance(kind, type) or not issubclass(kind, Event):
            known = ", ".join(sorted({*EVENT_TYPES, Event.__name__, Lifecycle.__name__}))
            raise SubscriptionError(f"on() takes an event type (a subclass of sandbox.components.events.Event), "
                                    f"not {kind!r}; the event types: {known}")
        if not callable(handler):
            raise SubscriptionError(f"on({kind.__name__}, ...) needs a callable handler, not {handler!r}")
        log = self._ctx.log
        if not self._subs:
            self._cursor = self._seen = len(log)
        if not self.watching and (issubclass(WentDown, kind) or issubclass(GotUp, kind)):
            creatures = self._roster = self._ctx.creatures()
            self._states = {e: _state(c) for e, c in creatures.items()}
            self._seen = len(log)
            self.watching = True
        sub = Subscription(self, kind, handler, (len(log), self._noted))
        self._subs.append(sub)
        self.subscribed = True
        self._by_type.clear()
        self._expands.clear()
        return sub

    def _drop(self, sub: Subscription[Any]) -> None:
        self._subs.remove(sub)
        self._by_type.clear()
        self._expands.clear()
        self.subscribed = bool(self._subs)
        if self.watching and not any(issubclass(WentDown, s.kind) or issubclass(GotUp, s.kind) for s in self._subs):
            self.watching = False
            self._states.clear()
            self._pending.clear()  # nobody left to hear them

    # ------------------------------------------------------------------ the watch

    def moment(self) -> None:
        """Look at the creatures the log entries since the last look name (call it only while ``watching``).

        The attack phase calls it after each attack or own turn, ``run_due`` after each due rule: a creature that
        went down or got up then is noted right after the entries of that step.
        """
        ctx = self._ctx
        log = ctx.log
        if self._seen >= len(log):
            return
        touched: dict[int, None] = {}
        for entry in log[self._seen:]:
            if isinstance(entry, Event):
                for name in entry.entity_fields:
                    touched[getattr(entry, name)] = None
            else:
                for name in ("attacker", "target"):
                    who = getattr(entry, name, -1)
                    if isinstance(who, int):
                        touched[who] = None
        self._seen = len(log)
        creatures = ctx.creatures()
        for entity in touched:
            creature = creatures.get(entity)
            if creature is not None:
                self._check(entity, creature)

    def _look_at_all(self) -> None:
        creatures = self._roster = self._ctx.creatures()
        for entity, creature in creatures.items():
            self._check(entity, creature)
        self._seen = len(self._ctx.log)

    def _look_at_new(self) -> None:
        """Remember how each creature added since the last look stands (so a new creature felled later is seen)."""
        creatures = self._ctx.creatures()
        if creatures is self._roster:  # the roster's records are rebuilt only when the world's entities change
            return
        self._roster = creatures
        states = self._states
        for entity, creature in creatures.items():
            if entity not in states:
                states[entity] = _state(creature)

    def _check(self, entity: int, creature: Creature) -> None:
        new = _state(creature)
        old = self._states.get(entity)
        self._states[entity] = new
        if old is None or old == new or _DEAD in (old, new):
            return  # first seen (a new creature), no change, or a death (logged as Died)
        ctx = self._ctx
        reading = ctx.model.readout(creature, ctx)
        clock = ctx.clock
        kind = WentDown if new == _OUT else GotUp
        self._pending.append((len(ctx.log), self._noted, kind(clock.tick, clock.time, entity, reading.label,
                                                                reading.shock)))
        self._noted += 1

    # ------------------------------------------------------------------ delivering

    def flush(self, *, whole: bool = False) -> None:
        """Deliver every event not yet delivered, in log order (a moment; see the module docstring).

        The watch looks at the creatures the new entries name, and at every creature when ``whole`` (the end of a
        tick: a cost linear in the creatures, once a tick, only while watching). Does nothing while nobody listens, or
        when called from inside a handler (the delivery under way goes on to what the handler caused).

        Raises:
            Exception: The first exception a handler raised, after every handler received every event.
        """
        if not self.subscribed or self._delivering:
            return
        if self.watching:
            if whole:
                self._look_at_all()
            else:
                self.moment()
                self._look_at_new()
        if self._cursor >= len(self._ctx.log) and not self._pending:
            return  # nothing happened (a read of the world)
        self._delivering = True
        errors: list[Exception] = []
        try:
            while self.subscribed and (self._cursor < len(self._ctx.log) or self._pending):
                self._deliver(errors)
                if self.watching:  # what the handlers did
                    self.moment()
                    self._look_at_new()
        finally:
            self._delivering = False
            self._current = None
        if errors:
            first = errors[0]
            for later in errors[1:]:
                first.add_note(f"a later handler of the same moment raised too: {later!r}")
            raise first

    def _deliver(self, errors: list[Exception]) -> None:
        log = self._ctx.log
        pending, self._pending = self._pending, []  # what handlers cause is noted afresh, for the next round
        end = len(log)
        p = 0
        while self._cursor < end:
            index = self._cursor
            while p < len(pending) and pending[p][0] <= index:
                self._send(pending[p][2], pending[p][1], True, errors)
                p += 1
            entry = log[index]
            self._cursor = index + 1
            if isinstance(entry, Event):
                self._current = None
                self._send(entry, index, False, errors)
            elif self._expand(entry):
                events = list(entry.events())
                self._current = (entry, events)
                for event in events:
                    self._send(event, index, False, errors)
        self._current = None
        for _, serial, event in pending[p:]:
            self._send(event, serial, True, errors)

    def _expand(self, entry: LogEntry) -> bool:
        cls = type(entry)
        known = self._expands.get(cls)
        if known is None:
            types: tuple[type, ...] | None = getattr(cls, "event_types", None)
            known = self._expands[cls] = bool(self._subs) if types is None else any(
                issubclass(t, s.kind) for t in types for s in self._subs)
        return known

    def _send(self, event: Event, at: int, lifecycle: bool, errors: list[Exception]) -> None:
        cls = type(event)
        subs = self._by_type.get(cls)
        if subs is None:
            subs = self._by_type[cls] = tuple(s for s in self._subs if issubclass(cls, s.kind))
        for sub in subs:
            if sub._stream is None or sub._start[1 if lifecycle else 0] > at:
                continue  # cancelled meanwhile, or made after the event happened
            try:
                sub.handler(event)
            except Exception as exc:  # every handler still gets the moment's events; the first error is raised after
                errors.append(exc)

    def source_of(self, event: Event) -> LogEntry | None:
        """The log entry being delivered whose expansion gave ``event`` (the very object), else ``None``."""
        current = self._current
        if current is not None and any(e is event for e in current[1]):
            return current[0]
        return None
