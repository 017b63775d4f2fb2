"""The due-time queue every damage model's ``advance`` runs on: an event list of the rules' due times.

Out of combat a world jumps from due time to due time (a bleeder's next round, a wound's next healing period, a
re-test, first aid) instead of ticking through the hours. The rules keep each due time in the creature's own
state; the queue holds a copy so the earliest is found at once. Rescheduling is a new push: when an entry comes
up, the state is asked whether it still holds that due time (``is_due``), and a stale entry (the rule already ran,
or moved the time) is dropped. Ties run in a fixed order (the kind's rank, then entity, then index), so a span cut
in two by a save and a load gives the same events as one uninterrupted span.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from sandbox.systems.context import TickContext

__all__ = ["Due", "DueQueue"]


class Due(NamedTuple):
    """A due rule: when, what, for whom.

    Attributes:
        time: Game time it is due (seconds).
        rank: The kind's place in the tie order.
        entity: The creature.
        item: Which of its items (a wound's index; 0 when the kind has one per creature).
        kind: What is due (``bleed``, ``heal``, ``aid`` ... the model's own names).
    """

    time: float
    rank: int
    entity: int
    item: int
    kind: str


class DueQueue:
    """The earliest due time first.

    Args:
        kinds: The kinds of due rule, in the order they run when due at the same time (or kind -> rank: kinds of
            equal rank run by entity, then item).
    """

    def __init__(self, kinds: Sequence[str] | Mapping[str, int]) -> None:
        self._rank = dict(kinds) if isinstance(kinds, Mapping) else {kind: i for i, kind in enumerate(kinds)}
        self._heap: list[Due] = []

    def push(self, kind: str, entity: int, time: float, index: int = 0) -> None:
        """Queue a due time (a negative time means none and is ignored).

        Raises:
            KeyError: A kind the queue was not made for.
        """
        if time >= 0:
            # tuple.__new__ directly: Due(...) adds a Python-level call, and the rules push tens of thousands.
            heapq.heappush(self._heap, tuple.__new__(Due, (time, self._rank[kind], entity, index, kind)))

    def pop_due(self, end: float, is_due: Callable[[Due], bool]) -> Iterator[Due]:
        """Pop, earliest first, every entry due by ``end`` that ``is_due`` confirms; stale ones are dropped.

        Entries pushed while iterating are seen in their turn.
        """
        heap = self._heap
        while heap and heap[0].time <= end:
            due = heapq.heappop(heap)
            if is_due(due):
                yield due

    def __len__(self) -> int:
        return len(self._heap)


@contextmanager
def running(ctx: TickContext, queue: DueQueue) -> Iterator[DueQueue]:
    """The world's due queue while a model's ``advance`` runs: ``ctx.due`` is ``queue`` inside, ``None`` after.

    A rule that sets a due time (a wound that starts to bleed, a treatment that sets a healing period) pushes it
    through ``ctx.due`` into the queue that is running; outside an advance there is none, even after a rule raised.
    """
    ctx.due = queue
    try:
        yield queue
    finally:
        ctx.due = None


def run_due(ctx: TickContext, queue: DueQueue, end: float, is_due: Callable[[Due], bool],
            run: Callable[[Due], None]) -> None:
    """Run every rule due by ``end``, earliest first: the loop each damage model's ``advance`` runs.

    Before each rule the clock moves on to its due time (never back); ``run`` applies it and may push more entries,
    which come up in their turn; afterwards the clock stands at ``end``. The queue is the world's while it runs
    (``running``).

    Args:
        ctx: The world (its clock and its ``due`` slot).
        queue: The entries, already pushed.
        end: Game time to run to (seconds).
        is_due: Whether the creature's state still holds an entry's due time (a stale entry is dropped).
        run: The rule of one entry.
    """
    clock = ctx.clock
    stream = ctx.stream
    if stream.watching:
        stream.moment()  # who went down or got up by what the model did before its due rules (at the start)
    with running(ctx, queue):
        for due in queue.pop_due(end, is_due):
            if due.time > clock.seconds:
                clock.seconds = due.time
            run(due)
            if stream.watching:
                stream.moment()  # who went down or got up by this rule, at its time
        clock.seconds = end

