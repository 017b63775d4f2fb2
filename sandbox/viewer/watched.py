"""What the viewer reads of a world it watches: ``WatchedWorld``, which a ``Sandbox`` (the esper engine) and an
``ArrayWorld`` (the array engine) both are, and how to build either from a scenario.

The feed, the scene and the snapshots read a world only through this protocol, so one viewer watches both engines;
what only one engine has (a save format, a component to look up) is asked of that engine's class where it is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sandbox.components.events import Event
from sandbox.components.log import LogEntry
from sandbox.components.readout import Readout
from sandbox.config import Catalog
from sandbox.config.content import ScenarioRef
from sandbox.scenario_def import ScenarioDef
from sandbox.systems.creatures import Creature

if TYPE_CHECKING:
    from sandbox.array_world import ArrayWorld
    from sandbox.world import Sandbox


class WatchedWorld(Protocol):
    """A world the viewer watches: ticked one tick at a time, read as creatures, readouts and its log."""

    @property
    def engine_name(self) -> str:
        """The engine that runs it ("esper", "array")."""
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
        """Its tick limit."""
        ...

    @property
    def names(self) -> dict[int, str]:
        """Entity -> name."""
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
        """Its log: attack records and events, in order (the viewer's log panel reads it)."""
        ...

    def creatures(self) -> dict[int, Creature]:
        """Every creature, by entity."""
        ...

    def readout(self, creature: int) -> Readout:
        """What ``creature``'s state reads as under the damage model."""
        ...

    def able_teams(self) -> list[str]:
        """Teams with a creature still able to fight."""
        ...

    def step(self) -> list[Event]:
        """Run one tick."""
        ...

    def close(self) -> None:
        """Release what it holds."""
        ...


def scenario_world(scenario: str | Path | ScenarioRef, seed: int, model: str | None,
                   engine: str = "esper") -> Sandbox | ArrayWorld:
    """The world of ``scenario`` on ``engine``: an array world traces every creature, so the log panel explains each
    of its landed blows as the esper engine's log would (the anatomy model's own ``AttackRecord``).

    Raises:
        ConfigError: The scenario cannot be loaded.
        SandboxError: An unknown engine or model, or what the array engine cannot run.
    """
    from sandbox.world import Sandbox

    if engine == "esper":
        return Sandbox.from_scenario(scenario, seed=seed, model=model)
    from sandbox.array_world import TRACE_ALL

    return Sandbox.from_scenario(scenario, seed=seed, model=model, engine=engine, trace=TRACE_ALL)


def scenario_factory(scenario: str | Path | ScenarioRef,
                     engine: str = "esper") -> Callable[[int, str | None], WatchedWorld]:
    """A function of ``(seed, model)`` that builds the world of ``scenario`` on ``engine`` (``scenario_world``)."""

    def build(seed: int, model: str | None) -> WatchedWorld:
        return scenario_world(scenario, seed, model, engine)

    return build


def engine_models(engine: str) -> Sequence[str]:
    """The damage models ``engine`` runs, in the order M goes through them."""
    if engine == "esper":
        from sandbox.models import available_models

        return list(available_models())
    from sandbox.systems.arrays.models import array_model_names

    return list(array_model_names())
