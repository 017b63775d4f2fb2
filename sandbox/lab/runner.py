"""Running a lab.

Chunks of (variant, model, run indices) shipped to any ``concurrent.futures.Executor``, their records consumed in
submission order, tallied and handed to a sink (the lab's folder) as they finish.

Determinism: a run depends only on (scenario, seed, run index, model, variant), chunks have a size that does not
depend on the number of workers, and results are consumed in submission order (a finished chunk waits for the ones
before it). So the records, the tallies and the point where ``target_error`` stops the lab are the same whatever
ran the chunks, and a resumed lab (whose finished runs are consumed from the folder in the same order) makes the
same decisions as one never interrupted. Only a few chunks are in flight at once, so memory stays flat.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sandbox.config.content import ScenarioRef, scenario_ref
from sandbox.interrupts import interrupts_deferred
from sandbox.world import Sandbox, SandboxError

from .errors import LabError, LabStopped
from .plan import LabPlan
from .records import KEYS, RunRecord, run_chunk
from .stats import ModelTally, RunOutcome
from .variants import Variant

__all__ = ["Cast", "Engine", "LabRun", "NoSink", "RunKey", "Sink", "cast_of", "parse_models", "precise_enough",
           "run_plan"]

RunKey = tuple[str, str, int]
"""(variant, model, run index): a run's identity in every file."""


@dataclass(frozen=True, slots=True)
class Cast:
    """Who fights in the scenario, in spawn order.

    Attributes:
        names: Creature names.
        teams: Creature name -> team.
        team_order: Teams in order of first appearance.
        first_body: Body id of the first creature.
    """

    names: tuple[str, ...]
    teams: dict[str, str]
    team_order: tuple[str, ...]
    first_body: str


def parse_models(text: str) -> tuple[str, ...]:
    """``all`` or a comma-separated list -> sorted model names.

    Raises:
        LabError: An unknown model, or none.
    """
    from sandbox.models import available_models

    known = available_models()
    if text.strip() == "all":
        return tuple(sorted(known))
    wanted = sorted({m.strip() for m in text.split(",") if m.strip()})
    unknown = [m for m in wanted if m not in known]
    if unknown or not wanted:
        shown = ", ".join(repr(m[:40]) for m in unknown) or repr(text[:40])
        raise LabError(f"unknown damage model {shown}; known: {', '.join(known)} (or all)")
    return tuple(wanted)


def cast_of(scenario: str | Path | ScenarioRef, variant: Variant | None = None) -> Cast:
    """Check the scenario (its file and a world built from it, under a variant's patches) and read who fights.

    Raises:
        ConfigError: The scenario (or the variant's content) is invalid or unknown.
        LabError: It names a creature, weapon or armour the world cannot spawn, or has no combatants.
    """
    from .variants import variant_content

    ref = scenario_ref(scenario)
    content = variant_content(variant or Variant("baseline"), ref)
    try:
        world = Sandbox.from_spec(content.scenario, catalog=content.catalog)
    except SandboxError as exc:
        where = f" (variant {variant.name!r})" if variant is not None and variant.patches else ""
        raise LabError(f"scenario {ref.name!r}{where}: {exc}") from None
    try:
        names = tuple(world.names[e] for e in sorted(world.names))
        teams, bodies = {}, {}
        for c in world.creatures().values():
            teams[c.name] = c.team
            bodies[c.name] = c.anatomy.body.id
    finally:
        world.close()
    if not names:
        raise LabError(f"scenario {ref.name!r} has no combatants")
    order = tuple(dict.fromkeys(teams[n] for n in names))
    return Cast(names, teams, order, bodies[names[0]])


class Sink(Protocol):
    """Where finished runs go (the lab's folder, or nowhere)."""

    def write(self, records: Sequence[RunRecord]) -> None:
        """Keep the records of a consumed chunk (whole)."""


class NoSink:
    """A sink that keeps nothing (the solver's probes before the folder exists keep their records in memory)."""

    def write(self, records: Sequence[RunRecord]) -> None:
        """Keep nothing."""


@dataclass(slots=True)
class LabRun:
    """How a lab went.

    Attributes:
        plan: What was asked.
        teams: Teams in order of first appearance.
        tallies: (variant, model) -> its tally.
        order: Variant name -> its place in the records (the baseline first, then as first run).
        variants: Variant name -> the variant.
        runs_done: Runs consumed (finished runs of a resumed lab included).
        stopped_early: ``target_error`` was met before every run.
        interrupted: Ctrl-C or SIGTERM stopped it.
        stopped: Why the lab stopped on its own (a cluster that went away), or ``None``.
        elapsed: Wall seconds.
        files: The files written beside the records.
        solve: The solver's result, as JSON-ready data.
        notes: Lines the summary adds (odds cards skipped ...).
    """

    plan: LabPlan
    teams: list[str]
    tallies: dict[tuple[str, str], ModelTally] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    variants: dict[str, Variant] = field(default_factory=dict)
    runs_done: int = 0
    stopped_early: bool = False
    interrupted: bool = False
    stopped: str | None = None
    elapsed: float = 0.0
    files: list[str] = field(default_factory=list)
    solve: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def tally(self, variant: str, model: str) -> ModelTally:
        """The tally of a variant under a model (empty before its first run)."""
        return self.tallies.setdefault((variant, model), ModelTally(outcomes=self._paired()))

    def _paired(self) -> dict[int, RunOutcome] | None:
        plan = self.plan
        return {} if len(plan.points) > 1 or plan.solve is not None else None

    @property
    def complete(self) -> bool:
        """Nothing stopped the lab before its end."""
        return not self.interrupted and self.stopped is None


class Engine:
    """Runs chunks of a plan on an executor and tallies what they give.

    Args:
        lab: The lab's state (tallies, order), updated as chunks are consumed.
        executor: Where chunks run.
        sink: Where records go.
        window: Chunks in flight at once (about twice the workers).
        progress: Called with the runs each consumed chunk added.
        health: Called about once a second while the lab waits for a chunk; raises ``LabStopped`` when the
            executor can no longer finish it (a Dask cluster with no worker).
        finished: Records of an earlier, interrupted lab (``--resume``): consumed in their turn, not run again.
    """

    def __init__(self, lab: LabRun, executor: Executor, sink: Sink, *, window: int = 4,
                 progress: Callable[[int], None] | None = None, health: Callable[[], None] | None = None,
                 finished: Mapping[RunKey, RunRecord] | None = None) -> None:
        self.lab = lab
        self.executor = executor
        self.sink = sink
        self.window = max(1, window)
        self.progress = progress
        self.health = health
        self.finished = dict(finished or {})
        self.seen: set[RunKey] = set()

    def evaluate(self, chunks: Iterable[tuple[Variant, str, Sequence[int]]],
                 enough: Callable[[], bool] | None = None) -> bool:
        """Run the chunks (those of runs not consumed yet), consuming them in order.

        Args:
            chunks: (variant, model, run indices), in submission order.
            enough: Asked after each consumed chunk; ``True`` stops (``target_error``).

        Returns:
            ``True`` when ``enough`` stopped it.

        Raises:
            KeyboardInterrupt: Ctrl-C or SIGTERM (the consumed chunks are kept).
            LabStopped: The executor cannot go on (the consumed chunks are kept).
        """
        plan = self.lab.plan
        tasks = iter(chunks)
        pending: deque[tuple[Variant, str, list[int], Future[list[RunRecord]] | None]] = deque()

        def top_up() -> None:
            while len(pending) < self.window:
                task = next(tasks, None)
                if task is None:
                    return
                variant, model, runs = task
                self.lab.variants.setdefault(variant.name, variant)
                self.lab.order.setdefault(variant.name, len(self.lab.order))
                wanted = [r for r in runs if (variant.name, model, r) not in self.seen]
                missing = [r for r in wanted if (variant.name, model, r) not in self.finished]
                future = (self.executor.submit(run_chunk, plan.scenario, plan.seed, model, missing, variant,
                                               plan.engine)
                          if missing else None)
                pending.append((variant, model, wanted, future))

        try:
            top_up()
            while pending:
                variant, model, wanted, future = pending[0]
                fresh = self._result(future) if future is not None else []
                pending.popleft()
                by_run = {r.run[2]: r for r in fresh}
                records = [by_run.get(run) or self.finished[(variant.name, model, run)] for run in wanted]
                with interrupts_deferred():
                    if fresh:
                        self.sink.write(fresh)
                    for record in records:
                        self._count(record)
                if self.progress is not None and records:
                    self.progress(len(records))
                if enough is not None and enough():
                    return True
                top_up()
        finally:
            for *_, future in pending:
                if future is not None:
                    future.cancel()
        return False

    def _result(self, future: Future[list[RunRecord]]) -> list[RunRecord]:
        while True:
            done, _ = cf.wait([future], timeout=1.0)
            if done:
                break
            if self.health is not None:
                self.health()
        try:
            return future.result()
        except cf.CancelledError:
            raise LabStopped("the work was cancelled: the executor (a Dask scheduler?) went away") from None
        except (LabError, SandboxError) as exc:
            raise LabError(str(exc)) from None
        except OSError as exc:  # a Dask connection lost (CommClosedError is an OSError)
            raise LabStopped(f"the executor went away: {exc}") from None
        except Exception as exc:
            name = type(exc).__name__
            if name in ("CommClosedError", "FutureCancelledError", "KilledWorker", "TimeoutError",
                        "StreamClosedError"):
                raise LabStopped(f"the Dask cluster failed the work ({name}: {exc})") from None
            raise

    def _count(self, record: RunRecord) -> None:
        variant, model, run = record.run[0], record.run[1], int(record.run[2])
        key = (variant, model, run)
        if key in self.seen:
            return
        self.seen.add(key)
        lab = self.lab
        tally = lab.tally(variant, model)
        winner, reason, ticks = str(record.run[4]), str(record.run[5]), int(record.run[6])
        tally.runs += 1
        if winner:
            tally.wins[winner] += 1
            if winner not in lab.teams:
                lab.teams.append(winner)
        tally.reasons[reason] += 1
        tally.ticks[ticks] += 1
        deaths: dict[str, int] = {}
        for row in record.combatants:
            team = str(row[KEYS + 2])
            if team not in lab.teams:
                lab.teams.append(team)
            if not int(row[KEYS + 3]):
                tally.deaths[team] += 1
                deaths[team] = deaths.get(team, 0) + 1
            elif not int(row[KEYS + 4]):
                tally.out[team] += 1
        for row in record.blows:
            body, location, wound, count = str(row[KEYS + 1]), str(row[KEYS + 2]), str(row[KEYS + 3]), int(row[-1])
            if location:
                tally.hits[body, location] += count
            if wound not in ("NA", "none"):
                tally.injuries[wound] += count
        if tally.outcomes is not None:
            tally.outcomes[run] = RunOutcome(winner, ticks, deaths)
        lab.runs_done += 1


def precise_enough(lab: LabRun, target: float) -> bool:
    """Every variant's every team's win-rate interval under every model is narrower than ``target`` (half-width)."""
    plan = lab.plan
    return all((p.name, m) in lab.tallies and lab.tallies[(p.name, m)].widest_half_width(lab.teams) < target
               for p in plan.points for m in plan.models)


def run_plan(lab: LabRun, engine: Engine) -> None:
    """Run the variants and scale points of a plan (the solver runs its own probes: ``sandbox.lab.solver``).

    Stops early at ``target_error``; records an interruption or a stop in ``lab``.
    """
    plan = lab.plan
    started = time.perf_counter()
    enough = None
    if plan.target_error is not None:
        target = plan.target_error

        def enough() -> bool:
            if precise_enough(lab, target):
                lab.stopped_early = lab.runs_done < plan.runs * len(plan.points) * len(plan.models)
                return True
            return False

    try:
        for point in plan.points:
            lab.order.setdefault(point.name, len(lab.order))
            lab.variants.setdefault(point.name, point)
        engine.evaluate(((p, m, r) for p, m, r in plan.chunks()), enough)
    except KeyboardInterrupt:
        lab.interrupted = True
    except LabStopped as exc:
        lab.stopped = str(exc)
    lab.elapsed += time.perf_counter() - started
