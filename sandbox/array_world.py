"""``ArrayWorld``.

A scenario on the array engine (``sandbox.systems.arrays``), a ``sandbox.world_protocol.World`` as a ``Sandbox`` is one
(``step``, ``run``, ``readout``, ``standing``, ``events``, ``log``, ``names``, ``creatures``, ``copy``, ``freeze``); and
``run_fights``: many runs of a scenario as one array world of independent fights (the lab's batch), each run's fight its
own.

``sandbox.engines.open_world(path, "array")`` (or ``ArrayWorld.from_scenario``) builds one. What the engine cannot
run is refused before any work, as a ``SandboxError`` naming it: a damage model with no array implementation (and
the engines that run it), a scenario feature it does not run (parts held fast), a fight longer than it runs, an
unknown creature to trace.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sandbox.components.events import Event
from sandbox.components.log import LogEntry
from sandbox.components.readout import Readout, Standing
from sandbox.components.rules import LEVEL_CODES
from sandbox.config import Catalog
from sandbox.config.content import ScenarioRef
from sandbox.config.scenarios import resolve_scenario
from sandbox.eventlog import expand_log
from sandbox.scenario_def import ScenarioDef
from sandbox.systems.arrays import ArrayEngine, EngineError
from sandbox.systems.arrays.state import picked
from sandbox.systems.arrays.tables import BoolArray, IntArray
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import DamageModel
from sandbox.systems.models import DEFAULT_MODEL
from sandbox.world import Outcome, SandboxError, verdict
from sandbox.world_protocol import TRACE_ALL as TRACE_ALL  # its old home: `from sandbox.array_world import ...`

__all__ = [
    "SHRINK",
    "SHRINK_FROM",
    "TRACE_ALL",
    "ArrayWorld",
    "FightEndings",
    "FightResult",
    "check_array_model",
    "end_fights",
    "run_fights",
]


def check_array_model(model: str) -> None:
    """Raise ``SandboxError`` for a damage model the array engine does not run.

    The message names the models it runs and the engines that run ``model``.
    """
    from sandbox.systems.arrays.models import get_array_model

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
    log_note = "the array engine: the log lists the blows that landed"
    """Its log holds the traced creatures' landed blows only (its misses cost nothing to keep quiet)."""

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
    def from_scenario(cls, scenario: str | Path | ScenarioRef, seed: int = 0, model: str | None = None, *,
                      run: int = 0, catalog: Catalog | None = None, trace: Sequence[str] | str = (),
                      content: Sequence[str | Path] = ()) -> ArrayWorld:
        """The array world of a scenario.

        An id (of the shipped content or of ``content``'s trees), a path to a scenario TOML file (one inside a content
        tree brings its tree) or a ``ScenarioRef`` resolved already.

        Raises:
            ConfigError: The scenario file is invalid or unknown.
            SandboxError: What the array engine cannot run.
        """
        catalog, spec = resolve_scenario(scenario, catalog, content)
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
        """Run until one team (or none) is left able to fight, or ``max_ticks`` more ticks have run.

        ``max_ticks`` defaults to the scenario's limit.
        """
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
        """An independent copy of the world as it is now.

        Its arrays, its streams (counter-based: a copy draws what the original would), its tick and clock, so ticking
        the copy gives exactly the events ticking this world gives. It shares only what no tick changes (the content and
        the per-event damage model's tables), and its log is ``log`` (the entries themselves shared; default: this
        world's log).

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

    def freeze(self) -> ArrayWorld:
        """The world as it is now, to make copies from (``copy``).

        A copy of it with an empty log, that nothing ticks (the array engine has no save format; the viewer's snapshots
        are these).
        """
        return self.copy(log=())

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


@dataclass(frozen=True, slots=True)
class FightEndings:
    """How every run of a batch ended, as columns.

    What ``run_fights`` reads each run's result from, and what the lab turns into its records without building a result
    per run.

    Every run of a batch fights the same scenario, so a creature's name, kind, team and body depend only on its
    position in the fight (``size`` creatures a run, in spawn order); what the fight did to it is a column of
    ``size`` entries a run.

    Attributes:
        runs: The run indices, in the order asked.
        ticks: Per run, the ticks its fight ran.
        winners: Per run, the winning team (``None``: no winner).
        reasons: Per run, why it stopped (``verdict``).
        names: Per position in a fight, the creature's name.
        kinds: Per position, its creature id.
        teams: Per position, its team.
        bodies: Per position, its body id.
        alive: Per run and position, its readout's ``alive``.
        can_act: Per run and position, its readout's ``can_act``.
        labels: Per run and position, its readout's ``label``.
        dead: Per run and position, dead.
        causes: Per run and position, what killed it ("died" when nothing is named; "" when not dead).
        blow_run: Per kind of landed blow of a run, the run's place in ``runs``; the blows are sorted by run,
            target, location and injury level code.
        blow_target: Per kind of blow, the target's position in its fight.
        blow_location: Per kind of blow, the location's name.
        blow_level: Per kind of blow, the injury level code.
        blow_count: Per kind of blow, how many landed.
        creatures: Per run, its creatures as per-event records and readouts (``()`` each unless asked for).
    """

    runs: list[int]
    ticks: list[int]
    winners: list[str | None]
    reasons: list[str]
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    teams: tuple[str, ...]
    bodies: tuple[str, ...]
    alive: BoolArray
    can_act: BoolArray
    labels: list[str]
    dead: BoolArray
    causes: list[str]
    blow_run: IntArray
    blow_target: IntArray
    blow_location: list[str]
    blow_level: list[str]
    blow_count: IntArray
    creatures: list[tuple[tuple[Creature, Readout], ...]]

    @property
    def size(self) -> int:
        """Creatures a fight."""
        return len(self.names)

    def results(self) -> list[FightResult]:
        """Each run's result, in the order of ``runs``."""
        size = self.size
        blows: list[Counter[tuple[int, str, str]]] = [Counter() for _ in self.runs]
        for run, target, location, level, count in zip(self.blow_run.tolist(), self.blow_target.tolist(),
                                                       self.blow_location, self.blow_level,
                                                       self.blow_count.tolist(), strict=True):
            blows[run][target, location, level] = count
        alive, can_act, dead = self.alive.tolist(), self.can_act.tolist(), self.dead.tolist()
        out = []
        for k, run in enumerate(self.runs):
            mine = range(k * size, k * size + size)
            standings = tuple(Standing(self.names[p], self.kinds[p], self.teams[p], self.bodies[p], alive[i],
                                       can_act[i], self.labels[i], dead[i], self.causes[i])
                              for p, i in enumerate(mine))
            survivors = tuple(s.name for s in standings if s.alive)
            outcome = Outcome(self.winners[k], self.ticks[k], survivors, self.reasons[k])
            out.append(FightResult(run, outcome, standings, blows[k], self.creatures[k]))
        return out


def run_fights(spec: ScenarioDef, catalog: Catalog, seed: int, runs: Sequence[int], model: str | None = None, *,
               records: bool = True) -> list[FightResult]:
    """Runs ``runs`` of a scenario as one array world, each run its own fight.

    Each run has its own creatures and its own streams: run ``i`` is the same fight alone or in any batch. Each goes to
    its end as ``ArrayWorld.run`` ends it, its state read the tick its fight ended (``end_fights``, each run's result
    read from its columns).

    ``records=False`` reads each creature in brief only (``FightResult.standings``): the lab's case, where building
    every creature's records and readout would cost more than its fight.

    Raises:
        SandboxError: What the array engine cannot run (the message says which).
    """
    return end_fights(spec, catalog, seed, runs, model, records=records).results()


def end_fights(spec: ScenarioDef, catalog: Catalog, seed: int, runs: Sequence[int], model: str | None = None, *,
               records: bool = False) -> FightEndings:
    """Runs ``runs`` of a scenario as one array world of independent fights, and how each ended, as columns.

    The fights are run as ``run_fights`` runs them.

    The fights of a batch end at different ticks, and a world's tick costs what all its creatures cost: once
    fewer than ``1 / SHRINK`` of a world's fights are still going, the world drops the ended ones
    (``ArrayEngine.keep_fights``) and goes on with the rest, so a few long fights do not drag the whole batch.

    Args:
        spec: The scenario.
        catalog: The content.
        seed: Root seed.
        runs: The run indices (distinct).
        model: Damage model (default: the scenario's).
        records: Also read each creature as per-event records and its readout (``FightEndings.creatures``).

    Raises:
        SandboxError: What the array engine cannot run (the message says which).
    """
    from sandbox.models import build_model

    name = model or spec.model or DEFAULT_MODEL
    check_array_model(name)
    return _batch(spec, catalog, seed, list(runs), build_model(name, catalog), records=records)


SHRINK = 1.25
"""A world drops its ended fights once fewer than four in five are still going (of the duel's lab, 20% fewer
creature-ticks than dropping them at half, for three times the drops, each about a tick's cost)."""
SHRINK_FROM = 64
"""Worlds of fewer fights run to the end (a tick of a small world costs about its fixed overhead)."""


def _batch(spec: ScenarioDef, catalog: Catalog, seed: int, runs: list[int], per_event: DamageModel, *,
           records: bool) -> FightEndings:
    """One world of ``runs``, run until every fight ended, each fight read the tick it ended."""
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
    ends = _Ends(engine, len(spec.combatants), records)
    pending = np.ones(len(runs), dtype=np.bool_)
    while True:
        left, one = engine.teams_able()
        over = pending & ((left <= 1) | (engine.tick >= limit))
        if over.any():
            ended = np.flatnonzero(over)
            ends.read(ended, left, one)
            engine.retire_fights(ended)
        pending &= ~over
        going = int(pending.sum())
        if not going:
            break
        if len(pending) >= SHRINK_FROM and SHRINK * going < len(pending):
            ends.flush()
            engine.keep_fights(np.flatnonzero(pending))
            pending = np.ones(going, dtype=np.bool_)
        try:
            engine.step()
        except EngineError as exc:
            raise SandboxError(str(exc)) from None
    ends.flush()
    return ends.columns(runs)


class _Ends:
    """The columns of a batch's ended fights.

    They are gathered as the fights end (in the order they end) and put in the order of the runs at the end.
    """

    def __init__(self, engine: ArrayEngine, size: int, records: bool) -> None:
        self.engine, self.size, self.records = engine, size, records
        cr = engine.creatures
        first = range(size)  # every fight's creatures are the scenario's, so fight 0's say who is where
        self.names = tuple(cr.names[i] for i in first)
        self.kinds = tuple(cr.kinds[i] for i in first)
        self.teams = tuple(cr.team_names[int(cr.team[i])] for i in first)
        self.bodies = tuple(cr.anatomy[i].body.id for i in first)
        # Location names and level codes by rank, so that sorting the ranks sorts the names.
        bodies = engine.bodies.bodies
        self.location_names = sorted({loc.name for body in bodies for loc in body.locations})
        rank = {name: r for r, name in enumerate(self.location_names)}
        self.location_rank = np.zeros((len(bodies), max(engine.bodies.locations, 1)), dtype=np.int64)
        for b, body in enumerate(bodies):
            self.location_rank[b, :len(body.locations)] = [rank[loc.name] for loc in body.locations]
        self.level_codes = sorted(LEVEL_CODES)
        self.level_rank = np.asarray([self.level_codes.index(c) for c in LEVEL_CODES], dtype=np.int64)
        self.runs: list[int] = []
        self.ticks: list[int] = []
        self.winners: list[str | None] = []
        self.reasons: list[str] = []
        self.alive: list[BoolArray] = []
        self.can_act: list[BoolArray] = []
        self.dead: list[BoolArray] = []
        self.labels: list[str] = []
        self.causes: list[str] = []
        self.creatures: list[tuple[tuple[Creature, Readout], ...]] = []
        self.blows: list[tuple[IntArray, IntArray, IntArray, IntArray, IntArray]] = []
        self._place = np.full(len(engine.runs), -1, dtype=np.int64)  # world fight -> its place in the columns
        self._marks = np.zeros(len(engine.runs), dtype=np.int64)  # its landed-blow batches logged when it ended

    def read(self, fights: IntArray, left: IntArray, one: IntArray) -> None:
        """Read ``fights`` (of the world as it is now) as they stand.

        They ended this tick (``left``, ``one``: per fight, teams left and one of them).
        """
        engine, size = self.engine, self.size
        cr, team_names = engine.creatures, engine.creatures.team_names
        self._place[fights] = np.arange(len(self.runs), len(self.runs) + fights.size)
        self._marks[fights] = len(engine.tracer.landed)
        rows = (fights[:, None] * size + np.arange(size)).ravel()
        alive, can_act, labels = engine.model.standings(rows)
        dead = cr.dead[rows]
        self.alive.append(alive)
        self.can_act.append(can_act)
        self.dead.append(dead)
        self.labels += labels
        self.causes += [(cr.causes[i] or "died") if d else "" for i, d in zip(rows.tolist(), dead.tolist(),
                                                                              strict=True)]
        several = engine.fighting_teams_of(fights[left[fights] > 1].tolist())  # each one's names, sorted
        listed = fights.tolist()
        verdicts = [verdict([team_names[o]] if teams == 1 else several.get(f, [])) for f, teams, o in
                    zip(listed, left[fights].tolist(), one[fights].tolist(), strict=True)]
        self.runs += picked(engine.runs, listed)
        self.winners += [winner for winner, _ in verdicts]
        self.reasons += [reason for _, reason in verdicts]
        self.ticks += [engine.tick] * fights.size
        if self.records:
            model = engine.model
            self.creatures += [tuple((r, model.readout(i, r)) for i, r in ((i, model.record(i)) for i in
                                                                            range(f * size, f * size + size)))
                               for f in fights.tolist()]
        else:
            self.creatures += [()] * fights.size

    def flush(self) -> None:
        """Count the landed blows of the fights that ended (before the world drops them).

        Per fight, those logged before it ended.
        """
        engine, size = self.engine, self.size
        landed = engine.tracer.landed
        if landed:
            batch = np.concatenate([np.full(t.shape[0], k, dtype=np.int64) for k, (t, _, _) in enumerate(landed)])
            target = np.concatenate([t for t, _, _ in landed])
            location = np.concatenate([loc for _, loc, _ in landed])
            level = np.concatenate([lev for _, _, lev in landed])
            keep = batch < self._marks[target // size]  # a fight still going has mark 0
            target, location, level = target[keep], location[keep], level[keep]
            # One integer per (target, location, level), counted by a sort (np.unique over rows is far slower).
            locations, levels = int(location.max(initial=0)) + 1, len(LEVEL_CODES)
            keys, counts = np.unique((target * locations + location) * levels + level, return_counts=True)
            target, location, level = keys // (locations * levels), keys // levels % locations, keys % levels
            self.blows.append((self._place[target // size], target % size,
                               self.location_rank[engine.creatures.body[target], location], self.level_rank[level],
                               counts))
        self._place[:] = -1
        self._marks[:] = 0

    def columns(self, runs: list[int]) -> FightEndings:
        """The columns, in the order of ``runs``."""
        size = self.size
        place = {run: k for k, run in enumerate(self.runs)}
        order = np.asarray([place[r] for r in runs], dtype=np.int64)  # column place of each run, in runs order
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        rows = (order[:, None] * size + np.arange(size)).ravel()
        listed, ordered = rows.tolist(), order.tolist()
        none = np.zeros(0, dtype=np.int64)
        run, target, location, level, count = (np.concatenate([b[c] for b in self.blows]) if self.blows else none
                                               for c in range(5))
        run = rank[run]
        # Sorted by run, target, location rank and level rank: one packed key each (a lexsort of four is slower).
        by = np.argsort(((run * size + target) * len(self.location_names) + location) * len(self.level_codes)
                        + level, kind="stable")
        return FightEndings(
            runs=list(runs), ticks=picked(self.ticks, ordered), winners=picked(self.winners, ordered),
            reasons=picked(self.reasons, ordered),
            names=self.names, kinds=self.kinds, teams=self.teams, bodies=self.bodies,
            alive=_joined(self.alive)[rows], can_act=_joined(self.can_act)[rows], dead=_joined(self.dead)[rows],
            labels=picked(self.labels, listed), causes=picked(self.causes, listed),
            blow_run=run[by], blow_target=target[by],
            blow_location=np.asarray(self.location_names, dtype=object)[location[by]].tolist(),
            blow_level=np.asarray(self.level_codes, dtype=object)[level[by]].tolist(), blow_count=count[by],
            creatures=picked(self.creatures, ordered))


def _joined(parts: list[BoolArray]) -> BoolArray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.bool_)
