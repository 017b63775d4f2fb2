"""``ArrayWorld``: a scenario on the array engine (``systems.arrays``) behind the ``Sandbox`` methods a run needs:
``step``, ``run``, ``readout``, ``events``, ``log``, ``names``, ``creatures``; and ``run_fights``: many runs of a
scenario as one array world of independent fights (the lab's batch), each run's fight its own.

``Sandbox.from_scenario(path, engine="array")`` builds one. What the engine cannot run is refused before any
work, as a ``SandboxError`` naming it: a damage model with no array implementation (and the engines that run it),
a scenario feature it does not run (parts held fast), a fight longer than it runs, an unknown creature to trace.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from components.events import Event
from components.log import LogEntry
from components.readout import Readout, Standing
from components.rules import LEVEL_CODES
from sandbox.config import Catalog
from sandbox.config.scenarios import resolve_scenario
from sandbox.eventlog import expand_log
from sandbox.scenario_def import ScenarioDef
from sandbox.world import Outcome, SandboxError, verdict
from systems.arrays import ENGINES, ArrayEngine, EngineError
from systems.creatures import Creature
from systems.models import DEFAULT_MODEL
from systems.models.base import DamageModel

TRACE_ALL = "all"
"""``trace=TRACE_ALL`` traces every creature."""


def check_engine(engine: str) -> None:
    """Raise ``SandboxError`` for an engine name that is not one of ``ENGINES``."""
    if engine not in ENGINES:
        raise SandboxError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")


def check_array_model(model: str) -> None:
    """Raise ``SandboxError`` for a damage model the array engine does not run (the message names the models it
    runs and the engines that run ``model``)."""
    from systems.arrays.models import get_array_model

    try:
        get_array_model(model)
    except EngineError as exc:
        raise SandboxError(str(exc)) from None


class ArrayWorld:
    """A scenario's fight on the array engine.

    Args:
        spec: The scenario.
        catalog: The content.
        seed: Root seed; the same seed gives the same fight (the engine's own streams: not the esper fight).
        model: Damage model (default: the scenario's).
        run: Run index under the seed.
        trace: Names of the creatures whose landed blows are logged in full (``TRACE_ALL``: every one).

    Raises:
        SandboxError: A model, feature or name the array engine cannot run (the message says which).
    """

    engine_name = "array"

    def __init__(self, spec: ScenarioDef, catalog: Catalog, seed: int = 0, model: str | None = None, *,
                 run: int = 0, trace: Sequence[str] | str = ()) -> None:
        from sandbox.models import available_models, build_model

        self.model = model or spec.model or DEFAULT_MODEL
        if self.model not in available_models():
            raise SandboxError(f"unknown damage model {self.model!r}; known: {', '.join(available_models())}")
        self.scenario = spec
        self.catalog = catalog
        self.seed = seed
        self.run_index = run
        self.max_ticks = spec.max_ticks
        names = [c.name for c in spec.combatants] if trace == TRACE_ALL else list(trace)
        check_array_model(self.model)  # before building the model's tables: refuse first
        try:
            self.engine = ArrayEngine(catalog, spec.combatants, build_model(self.model, catalog), seed=seed, run=run,
                                      trace=names)
        except EngineError as exc:
            raise SandboxError(str(exc)) from None
        self.limit_ticks(spec.max_ticks)
        self._names = {name: i + 1 for i, name in enumerate(self.engine.creatures.names)}
        self._expanded: list[Event] = []
        self._expanded_upto = 0

    @classmethod
    def from_scenario(cls, scenario: str | Path, seed: int = 0, model: str | None = None, *, run: int = 0,
                      catalog: Catalog | None = None, trace: Sequence[str] | str = ()) -> ArrayWorld:
        """The array world of a scenario: a shipped id or a path to a scenario TOML file.

        Raises:
            ConfigError: The scenario file is invalid or unknown.
            SandboxError: What the array engine cannot run.
        """
        catalog, spec = resolve_scenario(scenario, catalog)
        return cls(spec, catalog, seed, model, run=run, trace=trace)

    def limit_ticks(self, ticks: int) -> None:
        """Refuse (``SandboxError``) a tick limit past the longest fight the engine runs."""
        if ticks > self.engine.max_ticks():
            raise SandboxError(f"the array engine runs at most {self.engine.max_ticks()} ticks (less than the first "
                               f"Extended Shock course test, {self.catalog.rules.aftercare.extended_shock_interval:g} "  # type: ignore[union-attr]
                               f"s of game time); {ticks} asked: run it with --engine esper")

    # ------------------------------------------------------------------ finding creatures

    @property
    def names(self) -> dict[int, str]:
        """Entity -> name, for every creature."""
        return {e: n for n, e in self._names.items()}

    def entity(self, name: str) -> int:
        """The entity of the creature called ``name``; raises ``SandboxError`` naming the known ones."""
        try:
            return self._names[name]
        except KeyError:
            raise SandboxError(f"no creature called {name!r}; known: {', '.join(self._names)}") from None

    def _index(self, ref: int | str) -> int:
        entity = self.entity(ref) if isinstance(ref, str) else ref
        if not 1 <= entity <= len(self._names):
            raise SandboxError(f"no creature with entity {ref!r} in this world")
        return entity - 1

    def creatures(self) -> dict[int, Creature]:
        """Every creature as a per-event record, by entity (fresh copies: reading them changes nothing)."""
        return {i + 1: self.engine.model.record(i) for i in range(len(self._names))}

    def readout(self, creature: int | str) -> Readout:
        """What the creature's state reads as under the world's damage model."""
        return self.engine.model.readout(self._index(creature))

    def standing(self, creature: int | str) -> Standing:
        """The creature in brief (``Sandbox.standing``), read from the arrays."""
        return self.engine.standing(self._index(creature))

    # ------------------------------------------------------------------ running

    @property
    def tick(self) -> int:
        """Ticks run so far."""
        return self.engine.tick

    @property
    def time(self) -> float:
        """Game time in seconds (``tick_seconds`` a tick)."""
        return self.engine.clock_time

    def step(self) -> list[Event]:
        """Run one tick; returns that tick's events (of the traced creatures).

        Raises:
            SandboxError: The fight would run past the longest the engine runs.
        """
        start = len(self.engine.tracer.log)
        try:
            self.engine.step()
        except EngineError as exc:
            raise SandboxError(str(exc)) from None
        return list(expand_log(self.engine.tracer.log[start:]))

    def able_teams(self) -> list[str]:
        """Teams with a creature still able to fight."""
        return self.engine.fighting_teams()

    def run(self, max_ticks: int | None = None) -> Outcome:
        """Run until one team (or none) is left able to fight, or ``max_ticks`` more ticks have run (default: the
        scenario's limit)."""
        limit = max_ticks if max_ticks is not None else self.max_ticks
        self.limit_ticks(self.tick + limit)
        teams = self.able_teams()
        ran = 0
        while len(teams) > 1 and ran < limit:
            self.step()
            ran += 1
            teams = self.able_teams()
        winner, reason = verdict(teams)
        cr = self.engine.creatures
        survivors = tuple(n for n, dead in zip(cr.names, cr.dead.tolist(), strict=True) if not dead)
        return Outcome(winner, self.tick, survivors, reason)

    @property
    def log(self) -> list[LogEntry]:
        """The raw log: the traced creatures' attack records and events (each explains itself)."""
        return self.engine.tracer.log

    @property
    def events(self) -> list[Event]:
        """The traced creatures' events, typed, in order."""
        log = self.engine.tracer.log
        if self._expanded_upto < len(log):
            self._expanded.extend(expand_log(log[self._expanded_upto:]))
            self._expanded_upto = len(log)
        return self._expanded

    def copy(self, log: Sequence[LogEntry] | None = None) -> ArrayWorld:
        """An independent copy of the world as it is now: its arrays, its streams (counter-based: a copy draws what
        the original would), its tick and clock, so ticking the copy gives exactly the events ticking this world
        gives. It shares only what no tick changes (the content and the per-event damage model's tables), and its
        log is ``log`` (the entries themselves shared; default: this world's log).

        The viewer's snapshots are copies: the array engine has no save format, and a copy costs milliseconds.
        """
        engine = self.engine
        shared: dict[int, object] = {id(engine.content): engine.content,
                                     id(engine.per_event_model): engine.per_event_model,
                                     id(engine.tracer.log): list(engine.tracer.log if log is None else log)}
        twin = copy.copy(self)
        twin.engine = copy.deepcopy(engine, shared)  # the memo hands back the shared objects as they are
        twin._names = dict(self._names)
        twin._expanded, twin._expanded_upto = [], 0
        return twin

    def close(self) -> None:
        """Nothing to release (the arrays go with the object); for symmetry with ``Sandbox``."""

    def __enter__(self) -> ArrayWorld:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class FightResult:
    """How one run of a batch ended, read when its fight ended.

    Attributes:
        run: Its run index.
        outcome: Winner, ticks, survivors, reason (as ``Sandbox.run`` gives them).
        standings: Its creatures in spawn order, each in brief (read from the arrays).
        blows: ``(creature position in the fight, location name, injury level code)`` -> landed blows.
        creatures: Its creatures in spawn order, each as a per-event record and its readout (``()`` unless
            ``run_fights`` was asked for ``records``).
    """

    run: int
    outcome: Outcome
    standings: tuple[Standing, ...]
    blows: Counter[tuple[int, str, str]]
    creatures: tuple[tuple[Creature, Readout], ...] = ()


def run_fights(spec: ScenarioDef, catalog: Catalog, seed: int, runs: Sequence[int], model: str | None = None, *,
               records: bool = True) -> list[FightResult]:
    """Runs ``runs`` of a scenario as one array world, each run its own fight (its creatures, its streams: run
    ``i`` is the same fight alone or in any batch), each to its end as ``ArrayWorld.run`` ends it, its state read
    the tick its fight ended.

    The fights of a batch end at different ticks, and a world's tick costs what all its creatures cost: once
    fewer than ``1 / SHRINK`` of a world's fights are still going, the world drops the ended ones
    (``ArrayEngine.keep_fights``) and goes on with the rest, so a few long fights do not drag the whole batch.

    ``records=False`` reads each creature in brief only (``FightResult.standings``): the lab's case, where building
    every creature's records and readout would cost more than its fight.

    Raises:
        SandboxError: What the array engine cannot run (the message says which).
    """
    from sandbox.models import build_model

    name = model or spec.model or DEFAULT_MODEL
    check_array_model(name)
    done = {r.run: r for r in _batch(spec, catalog, seed, list(runs), build_model(name, catalog), records=records)}
    return [done[r] for r in runs]


SHRINK = 2
"""A world drops its ended fights once fewer than half are still going."""
SHRINK_FROM = 64
"""Worlds of fewer fights run to the end (a tick of a small world costs about its fixed overhead)."""


def _batch(spec: ScenarioDef, catalog: Catalog, seed: int, runs: list[int], per_event: DamageModel, *,
           records: bool) -> list[FightResult]:
    """One world of ``runs``, run until every fight ended: each fight's result, read the tick it ended."""
    try:
        engine = ArrayEngine(catalog, [(f, c) for f in range(len(runs)) for c in spec.combatants], per_event,
                             seed=seed, runs=runs)
    except EngineError as exc:
        raise SandboxError(str(exc)) from None
    limit = spec.max_ticks
    if limit > engine.max_ticks():
        raise SandboxError(f"the array engine runs at most {engine.max_ticks()} ticks; the scenario's max_ticks is "
                           f"{limit}: run it with --engine esper")
    engine.tracer.tally = True
    size = len(spec.combatants)
    results: list[FightResult] = []
    ended: list[_Ending | None] = [None] * len(runs)
    marks = np.zeros(len(runs), dtype=np.int64)  # per fight, the landed-blow batches logged when it ended
    pending = np.ones(len(runs), dtype=np.bool_)
    while True:
        left = engine.teams_left()
        over = pending & ((left <= 1) | (engine.tick >= limit))
        ending = np.flatnonzero(over).tolist()
        teams = engine.fighting_teams_of(ending)
        for f in ending:
            ended[f] = _ending(engine, f, size, records, teams[f])
            marks[f] = len(engine.tracer.landed)
        pending &= ~over
        going = int(pending.sum())
        if not going:
            break
        if len(pending) >= SHRINK_FROM and SHRINK * going < len(pending):
            results += _results(engine, ended, marks, size)
            engine.keep_fights(np.flatnonzero(pending))
            ended, marks, pending = [None] * going, np.zeros(going, dtype=np.int64), np.ones(going, dtype=np.bool_)
        try:
            engine.step()
        except EngineError as exc:
            raise SandboxError(str(exc)) from None
    return results + _results(engine, ended, marks, size)


def _results(engine: ArrayEngine, ended: list[_Ending | None], marks: np.ndarray, size: int) -> list[FightResult]:
    """The results of the world's fights that ended (``ended[f]`` read as fight ``f`` ended)."""
    blows = _landed(engine, marks, size)
    return [FightResult(engine.runs[f], end[0], end[1], blows[f], end[2]) for f, end in enumerate(ended)
            if end is not None]


_Ending = tuple[Outcome, tuple[Standing, ...], tuple[tuple[Creature, Readout], ...]]
"""A fight read when it ended: its outcome, its creatures in brief, and in full (or ``()``)."""


def _ending(engine: ArrayEngine, fight: int, size: int, records: bool, teams: list[str]) -> _Ending:
    """Fight ``fight`` (creatures ``fight * size`` on, ``teams`` still able to fight) as it stands now: its outcome,
    its creatures in brief and (``records``) in full."""
    model = engine.model
    mine = range(fight * size, fight * size + size)
    standings = tuple(engine.standing(i) for i in mine)
    creatures: tuple[tuple[Creature, Readout], ...] = ()
    if records:
        creatures = tuple((r, model.readout(i, r)) for i, r in ((i, model.record(i)) for i in mine))
    winner, reason = verdict(teams)
    survivors = tuple(s.name for s in standings if s.alive)
    return Outcome(winner, engine.tick, survivors, reason), standings, creatures


def _landed(engine: ArrayEngine, marks: np.ndarray, size: int) -> list[Counter[tuple[int, str, str]]]:
    """Per fight, its landed blows before it ended: (creature position in the fight, location, level code)."""
    out: list[Counter[tuple[int, str, str]]] = [Counter() for _ in range(len(marks))]
    landed = engine.tracer.landed
    if not landed:
        return out
    batch = np.concatenate([np.full(t.shape[0], k, dtype=np.int64) for k, (t, _, _) in enumerate(landed)])
    target = np.concatenate([t for t, _, _ in landed])
    location = np.concatenate([loc for _, loc, _ in landed])
    level = np.concatenate([lev for _, _, lev in landed])
    fight = target // size
    keep = batch < marks[fight]
    cr = engine.creatures
    # One integer per (target, location, level), counted by a sort (np.unique over rows is far slower).
    locations, levels = int(location.max(initial=0)) + 1, len(LEVEL_CODES)
    keys, counts = np.unique((target[keep] * locations + location[keep]) * levels + level[keep], return_counts=True)
    for key, n in zip(keys.tolist(), counts.tolist(), strict=True):
        t, loc, lev = key // (locations * levels), key // levels % locations, key % levels
        out[t // size][t % size, cr.anatomy[t].body.locations[loc].name, LEVEL_CODES[lev]] += n
    return out
