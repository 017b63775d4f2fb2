"""A watched fight: a live world (ticked, with snapshots to go back in time) and what it shows.

A feed publishes what it shows as one frozen ``Shown`` (a scene, the attacks so far, the timeline's marks):
the drawing reads only that, so the feed can tick in another thread while frames are drawn. A replayed log is a
feed too (``sandbox.viewer.replay``).
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from sandbox.components.log import LogEntry
from sandbox.config.content import ScenarioRef
from sandbox.engines import DEFAULT_ENGINE, TRACE_ALL, open_world
from sandbox.systems.models.anatomy.targets import CompiledTargets
from sandbox.viewer.entries import Attack, LogReader
from sandbox.viewer.odds import LocationOdds, OddsUnavailable, PreviewOdds, location_odds
from sandbox.viewer.scene import Scene, TickMarks, marks_of, world_scene
from sandbox.viewer.snapshots import Snapshots
from sandbox.world_protocol import World

__all__ = ["Feed", "LiveFeed", "Shown", "WorldFactory", "scenario_factory"]

WorldFactory = Callable[[int, str | None], World]
"""Builds the world to watch from a seed and a damage model (``None``: its own default), on any engine."""


def scenario_factory(scenario: ScenarioRef, engine: str = DEFAULT_ENGINE) -> WorldFactory:
    """A function of ``(seed, model)`` that builds the world of ``scenario`` on ``engine`` (``open_world``).

    On an engine whose log holds the traced creatures only, every creature is traced, so the log panel explains each of
    its landed blows as the esper engine's log would (the anatomy model's own ``AttackRecord``).

    The function raises what ``open_world`` raises: ``ConfigError`` (the scenario cannot be loaded) and
    ``SandboxError`` (an unknown model, or what the engine cannot run).
    """

    def build(seed: int, model: str | None) -> World:
        return open_world(scenario, engine, seed=seed, model=model, trace=TRACE_ALL)

    return build


@dataclass(frozen=True, slots=True)
class Shown:
    """What a feed shows now.

    Attributes:
        scene: The tick on screen.
        attacks: Every attack up to that tick, in order.
        marks: Tick -> the timeline's marks, for every tick played (also past the tick on screen).
        start: The first tick of the fight as watched.
        played: The furthest tick played.
    """

    scene: Scene
    attacks: tuple[Attack, ...]
    marks: MappingProxyType[int, TickMarks]
    start: int
    played: int


class Feed(Protocol):
    """What the viewer asks of a watched fight.

    Attributes:
        title: What the fight is called.
        model: Its damage model.
        seed: Its root seed (``None`` when it has none, a replay).
        names: Entity -> name.
        bounds: The field's width and height in metres (its scenario's), or ``None``.
        note: What the field should say of itself (a live world's ``log_note``: "" when it logs every attack).
        shown: What it shows now (replaced, never changed, when it moves).
        odds: (attacker, defender, location, tick) -> odds, or why there are none.
    """

    title: str
    model: str
    seed: int | None
    names: dict[int, str]
    bounds: tuple[float, float] | None
    note: str
    shown: Shown
    odds: dict[tuple[int, int, int, int], LocationOdds | PreviewOdds | str]

    @property
    def live(self) -> bool:
        """It runs a world (it can play on past the ticks already played)."""
        ...

    def step(self) -> None:
        """Go one tick on (playing a new tick when at the end)."""
        ...

    def seek(self, tick: int) -> None:
        """Show ``tick`` (clamped to the ticks already played)."""
        ...

    def compute_odds(self, attacker: int, defender: int, location: int) -> None:
        """Work out the odds of one location card into ``odds``."""
        ...

    def close(self) -> None:
        """Release what the feed holds."""
        ...


@dataclass(slots=True)
class _Fight:
    """The state of one fight of a live feed (a new one on restart)."""

    reader: LogReader = field(default_factory=LogReader)  # every attack up to the furthest tick played
    history: list[LogEntry] = field(default_factory=list)  # the log up to the furthest tick played
    snapshots: Snapshots = field(default_factory=Snapshots)
    marks: dict[int, TickMarks] = field(default_factory=dict)
    start: int = 0
    played: int = 0


class LiveFeed:
    """A world being watched: ticked on demand, with snapshots to show any tick already played.

    Args:
        world: The world, on any engine. It is ticked in place until the viewer goes back in time; from then on
            ``world`` is a world restored from a snapshot.
        factory: How to build it again (restart with a new seed, another model); ``None`` for a world handed in.
        title: What to call it (default: its scenario's name).
        owned: The feed built ``world`` and closes it when done with it.
        snapshot_every: Ticks between snapshots (default: as often as the ticks cost, ``Snapshots``).
        quiet: Called before a snapshot's one long uninterruptible step (see ``Snapshots.keep``).
    """

    live = True
    note = ""

    def __init__(self, world: World, factory: WorldFactory | None = None, title: str | None = None,
                 owned: bool = False, snapshot_every: int | None = None,
                 quiet: Callable[[], None] = lambda: None) -> None:
        self.factory = factory
        self.quiet = quiet
        self.snapshot_every = snapshot_every
        self.odds: dict[tuple[int, int, int, int], LocationOdds | PreviewOdds | str] = {}
        self._compiled: CompiledTargets = {}
        self._title = title
        self._adopt(world, owned)

    # ------------------------------------------------------------------ building

    def _adopt(self, world: World, owned: bool) -> None:
        self.world = world
        self.owned = owned
        self.model = world.model
        self.seed: int | None = world.seed
        spec = world.scenario
        self.title = self._title or (spec.name if spec is not None else f"a world of {len(world.names)}")
        self.names = world.names
        self.bounds = spec.field if spec is not None else None
        self.note = world.log_note  # what the world's log leaves out (the array engine's: its misses)
        self.fight = _Fight(history=list(world.log), snapshots=Snapshots(self.snapshot_every), start=world.tick,
                            played=world.tick)
        self.fight.reader.read(world.log)
        self.fight.reader.finish()
        self.odds = {}
        scene = self._scene(self._attacks_of(world.tick))
        self.fight.snapshots.keep(world, self.quiet)
        self._publish(scene)

    def rebuild(self, seed: int, model: str | None) -> None:
        """Start again from the factory with ``seed`` and ``model``.

        Raises:
            ValueError: The world was handed in, with no factory to build it again.
        """
        if self.factory is None:
            raise ValueError("a world handed in has no factory to build it again")
        world = self.factory(seed, model)
        self._release()
        self._adopt(world, owned=True)

    @property
    def can_rebuild(self) -> bool:
        """There is a factory to build the world again."""
        return self.factory is not None

    # ------------------------------------------------------------------ moving in time

    def step(self) -> None:
        """One tick on: played when at the end of what was played, else replayed from the world as it is."""
        shown = self.shown
        if shown.scene.finished:
            return
        self.quiet()  # the tick and the scene each start when no frame is being drawn (see Worker.quiet)
        cpu = time.thread_time()
        attacks = self._tick()
        cost = time.thread_time() - cpu
        self.quiet()
        scene = self._scene(attacks)
        fight = self.fight
        if scene.tick > fight.played:
            fight.marks[scene.tick] = marks_of(shown.scene, scene)
            fight.played = scene.tick
        if fight.snapshots.due(scene.tick, cost):
            fight.snapshots.keep(self.world, self.quiet)
        self._publish(scene)

    def seek(self, tick: int) -> None:
        """Show ``tick`` of the ticks already played: back to the latest snapshot at or before it, then ticked on."""
        fight = self.fight
        tick = min(max(tick, fight.start), fight.played)
        now = self.world.tick
        if tick == now:
            return
        snapshot = fight.snapshots.latest(tick)
        if snapshot is not None and (tick < now or snapshot.tick > now):
            restored = fight.snapshots.restore(snapshot, fight.history)
            self._release()
            self.world, self.owned = restored, True
        while self.world.tick < tick:
            self._tick()
        self._publish(self._scene(self._attacks_of(tick)))

    def refresh(self) -> None:
        """The world was changed by hand (``inflict``, ``strike``, a component edited): show it as it is now.

        The ticks played after this one are forgotten (the world no longer leads to them), the ones before it stay.
        """
        fight, world = self.fight, self.world
        tick = world.tick
        fight.played = tick
        fight.marks = {t: m for t, m in fight.marks.items() if t <= tick}
        fight.history = list(world.log)
        fight.reader = LogReader()
        fight.reader.read(world.log)
        fight.reader.finish()
        fight.snapshots.forget_from(tick)
        fight.snapshots.keep(world, self.quiet)
        self.odds = {}
        self._publish(self._scene(self._attacks_of(tick)))

    def _tick(self) -> tuple[Attack, ...]:
        """Tick the world once.

        Returns that tick's attacks (read from the log when the tick is new, else the ones read when it was first
        played: the replayed tick gives the same entries).
        """
        world = self.world
        start = len(world.log)
        world.step()
        fight = self.fight
        if world.tick > fight.played:
            entries = world.log[start:]
            fight.history.extend(entries)
            new = fight.reader.read(entries)
            fight.reader.finish()
            return tuple(new)
        return self._attacks_of(world.tick)

    def _attacks_of(self, tick: int) -> tuple[Attack, ...]:
        attacks = self.fight.reader.attacks
        return tuple(attacks[self._count_upto(tick - 1):self._count_upto(tick)])

    def _count_upto(self, tick: int) -> int:
        """How many attacks the fight had up to the end of ``tick``."""
        attacks = self.fight.reader.attacks
        return bisect_right(attacks, tick, key=lambda a: a.tick)

    # ------------------------------------------------------------------ publishing

    def _scene(self, attacks: tuple[Attack, ...]) -> Scene:
        return world_scene(self.world, attacks, self._count_upto(self.world.tick))

    def _publish(self, scene: Scene) -> None:
        fight = self.fight
        self.shown = Shown(scene, tuple(fight.reader.attacks[:scene.logged]), MappingProxyType(dict(fight.marks)),
                           fight.start, fight.played)

    # ------------------------------------------------------------------ the location card

    def compute_odds(self, attacker: int, defender: int, location: int) -> None:
        """Work out the exact odds of ``attacker`` at ``location`` of ``defender`` at the tick shown."""
        key = (attacker, defender, location, self.world.tick)
        if key in self.odds:
            return
        try:
            self.odds[key] = location_odds(self.world, attacker, defender, location, self._compiled)
        except OddsUnavailable as exc:
            self.odds[key] = str(exc)

    # ------------------------------------------------------------------ lifetime

    def _release(self) -> None:
        if self.owned:
            self.world.close()

    def close(self) -> None:
        """Close the world if the feed built it."""
        self._release()
