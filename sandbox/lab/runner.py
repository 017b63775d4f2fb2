"""Running the lab: one skirmish per (seed, run index, model) -> one flat record, shipped in chunks of run indices
to any ``concurrent.futures.Executor``, streamed to ``runs.csv`` in a fixed order.

Determinism: a run depends only on (seed, run index, model), chunks have a size that does not depend on the
number of workers, and results are consumed in submission order (a finished chunk waits for the ones before
it). So ``runs.csv``, the tallies and the point where ``target_error`` stops the lab are the same whatever ran
the chunks. Only a few chunks are in flight at once, so memory stays flat however many runs.
"""

from __future__ import annotations

import csv
import io
import signal
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from components.events import BlowLanded, DamageDealt, Injured
from sandbox.config import default_catalog
from sandbox.files import atomic_text
from sandbox.interrupts import interrupts_deferred
from sandbox.scenario_def import ScenarioDef
from sandbox.world import Sandbox, SandboxError, load_scenario

from .stats import ModelTally

RUNS_FILE = "runs.csv"
SUMMARY_FILE = "summary.json"
RUN_COLUMNS = ("model", "run", "seed", "scenario", "winner", "reason", "ticks")
"""The columns every record starts with; then per creature ``CREATURE_COLUMNS`` prefixed by ``name.``."""
CREATURE_COLUMNS = ("alive", "can_act", "label", "blows_taken", "died")
DAMAGE_BANDS = ((1, 2, "1-2"), (3, 4, "3-4"), (5, 8, "5-8"), (9, 10**9, "9+"))
"""How a point model's ``DamageDealt`` is banded for the injury mix (its own units)."""


class LabError(ValueError):
    """A lab request that cannot run: an unknown model, a bad scenario, an unwritable folder, bad numbers."""


@dataclass(frozen=True, slots=True)
class Cast:
    """Who fights in the scenario, in spawn order.

    Attributes:
        names: Creature names.
        teams: Creature name -> team.
        team_order: Teams in order of first appearance.
        first_body: Body id of the first creature (the hit-location map is drawn on it).
    """

    names: tuple[str, ...]
    teams: dict[str, str]
    team_order: tuple[str, ...]
    first_body: str


@dataclass(frozen=True, slots=True)
class LabPlan:
    """What to run.

    Attributes:
        scenario: Shipped scenario id or scenario TOML path.
        models: Damage models, sorted (records sort by (model, run)).
        runs: Runs per model.
        seed: Root seed.
        chunk: Run indices per chunk of work (never depends on the worker count: it sets where
            ``target_error`` can stop).
        target_error: Stop after a chunk once every win rate's 95% half-width is below this.
    """

    scenario: str
    models: tuple[str, ...]
    runs: int
    seed: int = 0
    chunk: int = 25
    target_error: float | None = None

    def chunks(self) -> Iterator[tuple[str, range]]:
        """(model, run indices) in submission order: chunk by chunk, every model in turn, so a ``target_error``
        stop leaves every model with the same number of runs."""
        for start in range(0, self.runs, self.chunk):
            for model in self.models:
                yield model, range(start, min(start + self.chunk, self.runs))


@dataclass(slots=True)
class LabResult:
    """How a lab ended.

    Attributes:
        tallies: Model -> its tally.
        runs_done: Records written.
        stopped_early: ``target_error`` was met before every run.
        interrupted: Ctrl-C stopped it (``runs.csv`` keeps the runs already finished).
        elapsed: Wall seconds.
    """

    tallies: dict[str, ModelTally]
    runs_done: int = 0
    stopped_early: bool = False
    interrupted: bool = False
    elapsed: float = 0.0
    files: list[str] = field(default_factory=list)


RunOutput = tuple[dict[str, Any], dict[str, int], dict[str, int]]
"""(flat record, hit parts on the first creature's body, injury mix) of one run."""


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
        raise LabError(f"unknown damage model {', '.join(map(repr, unknown)) or repr(text)}; "
                       f"known: {', '.join(known)} (or all)")
    return tuple(wanted)


def cast_of(scenario: str) -> Cast:
    """Check the scenario (its file and a world built from it) and read who fights.

    Raises:
        ConfigError: The scenario is invalid or unknown.
        LabError: It names a creature, weapon or armour the world cannot spawn.
    """
    try:
        world = Sandbox.from_scenario(scenario)
    except SandboxError as exc:
        raise LabError(f"scenario {scenario!r}: {exc}") from None
    try:
        names = tuple(world.names[e] for e in sorted(world.names))
        teams, bodies = {}, {}
        for c in world.creatures().values():
            teams[c.name] = c.team
            bodies[c.name] = c.anatomy.body.id
    finally:
        world.close()
    if not names:
        raise LabError(f"scenario {scenario!r} has no combatants")
    order = tuple(dict.fromkeys(teams[n] for n in names))
    return Cast(names, teams, order, bodies[names[0]])


def columns(cast: Cast) -> list[str]:
    """The ``runs.csv`` columns for this cast."""
    return [*RUN_COLUMNS, *(f"{name}.{col}" for name in cast.names for col in CREATURE_COLUMNS)]


@lru_cache(maxsize=8)
def _scenario(scenario: str) -> ScenarioDef:
    # A scenario file is parsed once per worker process, not once per run.
    return load_scenario(scenario, default_catalog())


def _world(scenario: str, seed: int, model: str, run: int) -> Sandbox:
    """``Sandbox.from_scenario`` with the scenario parsed once per process."""
    return Sandbox.from_spec(_scenario(scenario), seed, model, run=run, catalog=default_catalog())


def _band(dealt: int) -> str:
    for low, high, label in DAMAGE_BANDS:
        if low <= dealt <= high:
            return f"dealt {label}"
    return "dealt 0"


def run_one(scenario: str, seed: int, model: str, run: int, first_body: str) -> RunOutput:
    """Run one skirmish to its end and flatten it.

    Args:
        scenario: Scenario id or path.
        seed: Root seed.
        model: Damage model.
        run: Run index under the seed.
        first_body: Body id whose landed blows are counted by part.

    Returns:
        (record, hit parts, injury mix).
    """
    world = _world(scenario, seed, model, run)
    try:
        outcome = world.run()
        names = world.names
        blows = dict.fromkeys(names, 0)
        creatures = world.creatures()
        body_of = {e: c.anatomy.body.id for e, c in creatures.items()}
        hits: Counter[str] = Counter()
        injuries: Counter[str] = Counter()
        for event in world.events:
            if isinstance(event, BlowLanded):
                blows[event.target] = blows.get(event.target, 0) + 1
                if body_of.get(event.target) == first_body:
                    hits[event.part] += 1
            elif isinstance(event, DamageDealt) and event.dealt > 0:
                injuries[_band(event.dealt)] += 1
                if event.attacker >= 0:
                    blows[event.target] = blows.get(event.target, 0) + 1
            elif isinstance(event, Injured) and event.level > 0:
                injuries[event.level_code] += 1
        record: dict[str, Any] = {"model": model, "run": run, "seed": seed, "scenario": scenario,
                                  "winner": outcome.winner or "", "reason": outcome.reason, "ticks": outcome.ticks}
        for entity in sorted(names):
            name = names[entity]
            readout = world.readout(entity)
            cond = creatures[entity].condition
            record |= {f"{name}.alive": int(readout.alive), f"{name}.can_act": int(readout.can_act),
                       f"{name}.label": readout.label, f"{name}.blows_taken": blows[entity],
                       f"{name}.died": (cond.cause or "died") if cond.dead else ""}
        return record, dict(hits), dict(injuries)
    finally:
        world.close()


def run_chunk(scenario: str, seed: int, model: str, runs: range, first_body: str) -> list[RunOutput]:
    """Run a chunk of run indices under one model (what a worker is sent)."""
    return [run_one(scenario, seed, model, i, first_body) for i in runs]


def ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it cancels the rest and keeps what finished)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def prepare_out(out: Path) -> None:
    """Create the output folder and prove it is writable.

    Raises:
        LabError: It cannot be created or written.
    """
    try:
        out.mkdir(parents=True, exist_ok=True)
        # An anonymous temporary file: a lab killed at this very moment leaves nothing behind.
        with tempfile.TemporaryFile(dir=out) as probe:
            probe.write(b"probe")
    except OSError as exc:
        raise LabError(f"cannot write to {out}: {exc.strerror or exc}") from None


def run_lab(plan: LabPlan, cast: Cast, executor: Executor, out: Path, *, window: int = 4,
            progress: Callable[[int], None] | None = None) -> LabResult:
    """Run the plan on ``executor``, streaming records to ``out/runs.csv``; returns the tallies.

    Each finished chunk's rows are written and flushed whole, so an interrupted lab (Ctrl-C) leaves a file of
    complete rows. At the end the file is rewritten sorted by (model, run), atomically.

    Args:
        plan: What to run.
        cast: The scenario's creatures (``cast_of``).
        executor: Where chunks run.
        out: Output folder (exists and is writable: ``prepare_out``).
        window: Chunks in flight at once (about twice the workers).
        progress: Called with the runs each consumed chunk added.
    """
    started = time.perf_counter()
    tallies = {m: ModelTally() for m in plan.models}
    result = LabResult(tallies)
    fields = columns(cast)
    tasks = plan.chunks()
    pending: deque[Future[list[RunOutput]]] = deque()

    def top_up() -> None:
        while len(pending) < max(1, window):
            task = next(tasks, None)
            if task is None:
                return
            model, runs = task
            pending.append(executor.submit(run_chunk, plan.scenario, plan.seed, model, runs, cast.first_body))

    path = out / RUNS_FILE
    try:
        with path.open("w", encoding="utf-8", newline="") as fh:
            with interrupts_deferred():
                csv.writer(fh).writerow(fields)
                fh.flush()
            top_up()
            while pending:
                outputs = pending.popleft().result()
                buffer = io.StringIO()
                writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\r\n")
                for record, _, _ in outputs:
                    writer.writerow(record)
                with interrupts_deferred():
                    fh.write(buffer.getvalue())
                    fh.flush()
                    for record, hits, injuries in outputs:
                        _count(tallies[record["model"]], record, hits, injuries, cast)
                    result.runs_done += len(outputs)
                if progress is not None:
                    progress(len(outputs))
                if plan.target_error is not None and _precise_enough(tallies, cast, plan.target_error):
                    result.stopped_early = result.runs_done < plan.runs * len(plan.models)
                    break
                top_up()
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        for future in pending:
            future.cancel()
    if not result.interrupted:
        try:
            with interrupts_deferred():
                _sort_runs(path, plan.models)
        except KeyboardInterrupt:
            result.interrupted = True  # sorted and whole: the interrupt came while it was being rewritten
    result.elapsed = time.perf_counter() - started
    return result


def _count(tally: ModelTally, record: dict[str, Any], hits: dict[str, int], injuries: dict[str, int],
           cast: Cast) -> None:
    tally.runs += 1
    if record["winner"]:
        tally.wins[record["winner"]] += 1
    tally.reasons[record["reason"]] += 1
    tally.ticks[int(record["ticks"])] += 1
    for name in cast.names:
        team = cast.teams[name]
        if not record[f"{name}.alive"]:
            tally.deaths[team] += 1
        elif not record[f"{name}.can_act"]:
            tally.out[team] += 1
    tally.hits.update(hits)
    tally.injuries.update(injuries)


def _precise_enough(tallies: dict[str, ModelTally], cast: Cast, target: float) -> bool:
    return all(t.widest_half_width(cast.team_order) < target for t in tallies.values())


def _sort_runs(path: Path, models: Sequence[str]) -> None:
    """Rewrite ``runs.csv`` sorted by (model, run), atomically. Each model's rows are already in run order (chunks
    are consumed in order), so one pass per model keeps memory flat."""
    with atomic_text(path, newline="") as dst:
        writer = csv.writer(dst, lineterminator="\r\n")
        for n, model in enumerate(sorted(models)):
            with path.open(encoding="utf-8", newline="") as src:
                reader = csv.reader(src)
                header = next(reader)
                if n == 0:
                    writer.writerow(header)
                writer.writerows(row for row in reader if row[0] == model)
