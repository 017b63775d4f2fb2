"""What every entry of a world's event log is.

A typed event, or a model's compact attack record, and each explains itself through one protocol.

``sandbox run``'s account, the ``--log`` writer and the viewer read the log only through ``LogEntry``: its
typed events, a one-line summary, and a step-by-step explanation in words. A damage model's attack record
implements it; so does every ``sandbox.components.events.Event``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from sandbox.components.events import Event

__all__ = ["AttackEntry", "LogEntry", "Names", "PlacedBlowEntry"]

Names = Mapping[int, str]
"""Entity -> creature name (what summaries and explanations print)."""

DIRECT = -1
"""The attacker of a blow struck directly (``Sandbox.strike`` with no attacker): no creature, no attack roll."""


def name_of(names: Names, entity: int) -> str:
    """The creature's name as a log entry prints it: ``(direct)`` for ``DIRECT``, ``?`` for one not in ``names``."""
    return names.get(entity, "?") if entity >= 0 else "(direct)"


@runtime_checkable
class LogEntry(Protocol):
    """One entry of the event log.

    Attributes:
        tick: The tick it happened in.
        time: Game time in seconds.
        headline: An attack (its summary opens a line of the account); else a step or a consequence (its
            summary, if any, is added to the line of the attack before it).
    """

    tick: int
    time: float

    @property
    def headline(self) -> bool:
        """Whether the entry is an attack (see the class docstring)."""
        ...

    def events(self) -> Sequence[Event]:
        """The typed step events of the entry, in the order the rules decided them."""
        ...

    def summary(self, names: Names) -> str | None:
        """One line for the account, or ``None`` when the entry is not worth one (a miss, a step event)."""
        ...

    def explain(self, names: Names) -> list[str]:
        """The entry step by step, in words, a line per step."""
        ...


@runtime_checkable
class AttackEntry(LogEntry, Protocol):
    """A log entry that is an attack (``headline`` is true): who struck whom, and whether it reached the body.

    Attributes:
        attacker: The attacking entity (-1: a blow struck directly, with no attacker).
        target: The entity attacked.
    """

    attacker: int
    target: int

    @property
    def struck(self) -> bool:
        """The blow reached the target's body (it may still have done nothing to it)."""
        ...


@runtime_checkable
class PlacedBlowEntry(Protocol):
    """A log entry that can say, without expanding into events, where its blow landed on the target's anatomy.

    The lab counts landed blows per location from these; an entry that is not one is read through its events
    (its ``DamageDealt``, which has no location).
    """

    target: int

    def placed_blow(self) -> tuple[str, str] | None:
        """(location name, wound code) of the blow on the target's anatomy, or ``None`` when none landed."""
        ...

