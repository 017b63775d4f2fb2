"""``World``: what the command line, the lab and the viewer read of a fight's world, whichever engine runs it.

``sandbox.world.Sandbox`` (the esper engine) and ``sandbox.array_world.ArrayWorld`` (the array engine) are both
worlds; ``sandbox.engines`` builds either (``open_world``) and describes what each engine runs. A caller holds the
``World`` it is given and asks it what it needs (its log, its creatures' readouts and standings, a tick, a copy):
nothing outside the engines' factory asks which class or engine it has.

Standard library only at run time (the types it names are imported for the type checker alone), so any module may
import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sandbox.components.events import Event
    from sandbox.components.log import LogEntry
    from sandbox.components.readout import Readout, Standing
    from sandbox.config import Catalog
    from sandbox.scenario_def import ScenarioDef
    from sandbox.systems.creatures import Creature
    from sandbox.world import Outcome

__all__ = ["TRACE_ALL", "FrozenWorld", "World"]

TRACE_ALL = "all"
"""``trace=TRACE_ALL`` traces every creature (on an engine whose log holds only the creatures it traces)."""


class FrozenWorld(Protocol):
    """A world as it was at one tick, kept to make worlds from and never ticked itself.

    What the viewer's snapshots hold: an esper world's save document as text, an array world's copy.
    """

    def copy(self, log: Sequence[LogEntry] = ()) -> World:
        """A new world as this one was when it was frozen, whose log is ``log``.

        Ticked, it gives exactly the events the world it was frozen from gave.
        """
        ...


class World(Protocol):
    """A fight's world on any engine: ticked, run to its end, read as creatures, readouts, standings and a log."""

    @property
    def engine_name(self) -> str:
        """The engine that runs it (``sandbox.engines.ENGINES``), to name it."""
        ...

    @property
    def log_note(self) -> str:
        """What its log leaves out, in a few words ("" when it logs every attack of every creature)."""
        ...

    @property
    def model(self) -> str:
        """Its damage model."""
        ...

    @property
    def seed(self) -> int:
        """Its root seed."""
        ...

    @property
    def scenario(self) -> ScenarioDef | None:
        """The scenario it was built from (``None``: built by hand)."""
        ...

    @property
    def catalog(self) -> Catalog:
        """Its content."""
        ...

    @property
    def max_ticks(self) -> int:
        """Its tick limit (a ``run`` with none given stops there)."""
        ...

    @property
    def names(self) -> dict[int, str]:
        """Entity -> name, for every creature."""
        ...

    @property
    def tick(self) -> int:
        """Ticks run so far."""
        ...

    @property
    def time(self) -> float:
        """Game time in seconds."""
        ...

    @property
    def log(self) -> list[LogEntry]:
        """The raw log: attack records and events, in order (each explains itself)."""
        ...

    @property
    def events(self) -> list[Event]:
        """The log's events, typed, in order."""
        ...

    def creatures(self) -> dict[int, Creature]:
        """Every creature's record, by entity in ascending order."""
        ...

    def readout(self, creature: int | str) -> Readout:
        """What ``creature``'s state reads as under the damage model (by entity or name)."""
        ...

    def standing(self, creature: int | str) -> Standing:
        """``creature`` in brief: who it is and its readout's alive, can act and label."""
        ...

    def able_teams(self) -> list[str]:
        """Teams with a creature still able to fight."""
        ...

    def step(self) -> list[Event]:
        """Run one tick; that tick's events."""
        ...

    def run(self, max_ticks: int | None = None) -> Outcome:
        """Run until one team (or none) is left able to fight, or ``max_ticks`` more ticks have run.

        ``max_ticks`` defaults to the world's ``max_ticks``.
        """
        ...

    def copy(self, log: Sequence[LogEntry] | None = None) -> World:
        """An independent copy of the world as it is now, whose log is ``log`` (default: this world's).

        Ticking the copy gives exactly the events ticking this world gives.
        """
        ...

    def freeze(self) -> FrozenWorld:
        """The world as it is now, kept to make copies from later (``FrozenWorld``)."""
        ...

    def close(self) -> None:
        """Release what it holds; the world cannot be used afterwards."""
        ...

    def __enter__(self) -> World:
        ...

    def __exit__(self, *exc: object) -> None:
        ...
