"""The engines that run a fight, and the one place that tells them apart: the factory of ``World``.

``open_world`` builds a scenario's world on an engine (a ``sandbox.world_protocol.World``: a ``Sandbox`` on the esper
engine, an ``ArrayWorld`` on the array engine); ``engine_named`` describes an engine: the damage models it runs, what
it refuses before any work, whether its log holds only the creatures it traces, whether one of its worlds runs a
batch of a lab's fights. The command line, the lab and the viewer ask these descriptions what an engine can do and
hold the worlds they get as ``World``: none of them branches on an engine's name or a world's class.

The array engine (numpy, numba) is imported only when it is used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from sandbox.config.content import ScenarioRef
from sandbox.world import SandboxError
from sandbox.world_protocol import TRACE_ALL, World

if TYPE_CHECKING:
    from sandbox.config import Catalog
    from sandbox.scenario_def import ScenarioDef

__all__ = ["DEFAULT_ENGINE", "ENGINES", "TRACE_ALL", "Engine", "World", "engine_named", "open_world"]

DEFAULT_ENGINE = "esper"
"""The engine a world is built on when none is named (every model, every feature)."""


class Engine(ABC):
    """An engine that runs fights: what it runs, and how a world is built on it."""

    name: ClassVar[str]
    """What ``--engine`` and ``engine=`` call it."""
    every_model: ClassVar[bool]
    """It runs every damage model and every scenario feature: there is nothing it refuses before any work."""
    traces: ClassVar[bool]
    """Its log holds the landed blows of the creatures it traces only (``trace=`` names them)."""
    batches: ClassVar[bool]
    """One of its worlds runs many independent fights: a lab's chunk of runs is one world."""

    @abstractmethod
    def load(self) -> None:
        """Import what it runs on now (a command does, before SIGTERM becomes an interrupt)."""

    @abstractmethod
    def models(self) -> tuple[str, ...]:
        """The damage models it runs, in the order the viewer's M goes through them."""

    @abstractmethod
    def refuse(self, models: Iterable[str | None], options: Iterable[tuple[bool, str]] = ()) -> None:
        """Refuse, before any work, a damage model or an option this engine does not run.

        A model of ``None`` is a scenario's own, checked when its world is built. The options are
        ``(given, what it is)`` pairs: one given that only the default engine runs is refused.

        Raises:
            SandboxError: The first option given, else the first model (the message says which engines run it).
        """

    @abstractmethod
    def check(self, spec: ScenarioDef, catalog: Catalog, model: str) -> None:
        """Refuse, before any work, a fight of ``spec`` under ``model`` it cannot run.

        A lab checks each of its variants and models so.

        Raises:
            SandboxError: What it cannot run (the message says which).
        """

    @abstractmethod
    def world(self, spec: ScenarioDef, catalog: Catalog, seed: int = 0, model: str | None = None, *, run: int = 0,
              trace: Sequence[str] | str = ()) -> World:
        """The world of a loaded scenario over ``catalog``.

        ``seed``, run index ``run``, ``model`` (default: the scenario's); on an engine that ``traces``, the landed blows
        of the creatures ``trace`` names are logged in full (``TRACE_ALL``: every creature), the others log every
        creature whatever ``trace`` says.

        Raises:
            SandboxError: An unknown model, a combatant the world cannot spawn, what the engine cannot run.
        """


class _Esper(Engine):
    """The esper engine (``sandbox.world.Sandbox``): every model and feature, one esper world per fight."""

    name = "esper"
    every_model = True
    traces = False
    batches = False

    def load(self) -> None:
        """The esper world and its systems are imported with this module."""

    def models(self) -> tuple[str, ...]:
        from sandbox.models import available_models

        return tuple(available_models())

    def refuse(self, models: Iterable[str | None], options: Iterable[tuple[bool, str]] = ()) -> None:
        """Nothing: it runs every model and every option (an unknown model is refused where the world is built)."""

    def check(self, spec: ScenarioDef, catalog: Catalog, model: str) -> None:
        """Nothing: it runs every model and every feature."""

    def world(self, spec: ScenarioDef, catalog: Catalog, seed: int = 0, model: str | None = None, *, run: int = 0,
              trace: Sequence[str] | str = ()) -> World:
        from sandbox.world import Sandbox

        return Sandbox.from_spec(spec, seed, model, run=run, catalog=catalog)


class _Arrays(Engine):
    """The array engine (``sandbox.array_world.ArrayWorld``, numpy).

    The anatomy model, battles of 100,000, a lab's chunk as one world of independent fights.
    """

    name = "array"
    every_model = False
    traces = True
    batches = True

    def load(self) -> None:
        import sandbox.array_world  # noqa: F401 (the array engine, numpy and numba)

    def models(self) -> tuple[str, ...]:
        from sandbox.systems.arrays.models import array_model_names

        return tuple(array_model_names())

    def refuse(self, models: Iterable[str | None], options: Iterable[tuple[bool, str]] = ()) -> None:
        for given, what in options:
            if given:
                raise SandboxError(f"{what} runs on the {DEFAULT_ENGINE} engine only, not with --engine {self.name}")
        from sandbox.array_world import check_array_model

        for model in models:
            if model is not None:
                check_array_model(model)

    def check(self, spec: ScenarioDef, catalog: Catalog, model: str) -> None:
        from sandbox.array_world import ArrayWorld

        ArrayWorld(spec, catalog, model=model)

    def world(self, spec: ScenarioDef, catalog: Catalog, seed: int = 0, model: str | None = None, *, run: int = 0,
              trace: Sequence[str] | str = ()) -> World:
        from sandbox.array_world import ArrayWorld

        return ArrayWorld(spec, catalog, seed, model, run=run, trace=trace)


ENGINES: Mapping[str, Engine] = {engine.name: engine for engine in (_Esper(), _Arrays())}
"""Every engine, by name, the default first."""


def engine_named(name: str) -> Engine:
    """The engine called ``name``.

    Raises:
        SandboxError: No engine is called so (the message names the engines).
    """
    found = ENGINES.get(name)
    if found is None:
        raise SandboxError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    return found


def open_world(scenario: str | Path | ScenarioRef, engine: str = DEFAULT_ENGINE, *, seed: int = 0,
               model: str | None = None, run: int = 0, catalog: Catalog | None = None,
               content: Sequence[str | Path] = (), trace: Sequence[str] | str = ()) -> World:
    """The world of a scenario on ``engine``.

    An id (of the shipped content or of ``content``'s trees), a scenario file (one inside a content tree brings its
    tree) or a ``ScenarioRef`` resolved already.

    Args:
        scenario: The scenario.
        engine: ``esper`` (the default: every model and feature) or ``array``.
        seed: Root seed; the same seed gives the same fight (each engine its own: not the same fight on both).
        model: Damage model (default: the scenario's).
        run: Run index under the seed.
        catalog: The content to load the scenario over (default: the shipped content extended by its trees).
        content: Content trees extending the shipped content (not with a ``ScenarioRef``: it carries its own).
        trace: On an engine that ``traces``, the creatures whose landed blows are logged in full (``TRACE_ALL``:
            every creature).

    Raises:
        ConfigError: The scenario is unknown or invalid (every problem listed), or its content is.
        SandboxError: An unknown engine or model, or what the engine cannot run.
    """
    from sandbox.config.scenarios import resolve_scenario

    chosen = engine_named(engine)
    catalog, spec = resolve_scenario(scenario, catalog, content)
    return chosen.world(spec, catalog, seed, model, run=run, trace=trace)
