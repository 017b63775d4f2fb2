"""Soak: many skirmishes over generated worlds, across every damage model, in parallel, invariants checked every tick.

Run ``i`` under root seed ``S`` is a generated world (``tests/configgen.py``: a random valid body, weapon,
armour piece, creature, scenario and each point model's entries for them, drawn from ``(S, i)``) fought under
model ``models[i % M]`` with the world's own streams from ``(S, i)``: the same run on any machine and any number of
workers. Every ``--aftermath-every``-th run also moves time on ``--aftermath`` days after the fight (first aid,
healing, deaths), still checked. ``--worlds shipped`` soaks the shipped scenarios instead (run ``i`` is
``scenarios[i % C]`` under ``models[(i // C) % M]``, run index ``i // (C * M)``); ``both`` does each.

Chunks go to the lab's executor (``sandbox.lab.make_executor``). It reports runs, exceptions and invariant
breaches (both must be 0: exit 1 otherwise), runs per second and the slowest run with its key. ``--index I``
replays run ``I`` alone with the whole traceback, and ``--keep DIR`` writes its generated config tree to ``DIR``.

Run: ``python benchmarks/soak.py [--runs N] [--jobs J] [--worlds generated|shipped|both] [--models all]
[--seed S] [--index I [--keep DIR]]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # run as a script from anywhere; also makes tests.configgen importable

from sandbox.lab import make_executor, parse_models  # noqa: E402
from sandbox.systems.invariants import InvariantError  # noqa: E402
from sandbox.world import Sandbox  # noqa: E402
from tests.configgen import SCENARIO, gen_set_for_run  # noqa: E402

SHIPPED = ("duel", "skirmish", "wolf_pack", "bestiary", "battle")
GENERATED = "generated"
WORLDS = ("generated", "shipped", "both")

Task = tuple[str, str, int, int, float]
"""(world: ``generated`` or a shipped scenario id, model, seed, run index, aftermath days)."""


def build_world(world: str, model: str, seed: int, run: int, folder: Path) -> Sandbox:
    """The world of one task, invariants on; a generated one writes and loads its config tree under ``folder``.

    Raises:
        ConfigError: A generated set does not load (a bug of the generator or of the checks).
    """
    if world != GENERATED:
        return Sandbox.from_scenario(world, seed, model, run=run, check_invariants=True)
    catalog, _ = gen_set_for_run(seed, run).load(folder)
    return Sandbox.from_spec(catalog.scenarios[SCENARIO], seed, model, run=run, catalog=catalog,
                             check_invariants=True)


def soak_one(world_id: str, model: str, seed: int, run: int, aftermath: float, *,
             full_traceback: bool = False) -> dict[str, Any]:
    """One skirmish with the invariants on: ``{"key", "seconds", "ticks", "reason", "error", "breaches"}``."""
    key = f"{world_id}/{model}/seed {seed}/run {run}"
    out: dict[str, Any] = {"key": key, "seconds": 0.0, "ticks": 0, "reason": "", "error": "", "breaches": []}
    start = time.perf_counter()
    world = None
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        try:
            world = build_world(world_id, model, seed, run, Path(tmp))
            outcome = world.run()
            out["ticks"], out["reason"] = outcome.ticks, outcome.reason
            if aftermath:
                world.advance(days=aftermath)
        except InvariantError as exc:
            out["breaches"] = [f"tick {exc.tick}: {b}" for b in exc.breaches]
        except Exception as exc:  # every exception is counted and reported, not raised
            out["error"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=None if full_traceback else -4)}"
        finally:
            if world is not None:
                world.close()
    out["seconds"] = time.perf_counter() - start
    return out


def soak_chunk(tasks: Sequence[Task]) -> list[dict[str, Any]]:
    """Run a chunk of tasks (what a worker is sent)."""
    return [soak_one(*task) for task in tasks]


def generated_tasks(runs: int, models: Sequence[str], seed: int, aftermath: float, aftermath_every: int
                    ) -> Iterator[Task]:
    """The N generated runs: run ``i`` under model ``models[i % M]``."""
    for i in range(runs):
        days = aftermath if aftermath_every and i % aftermath_every == 0 else 0.0
        yield GENERATED, models[i % len(models)], seed, i, days


def shipped_tasks(runs: int, scenarios: Sequence[str], models: Sequence[str], seed: int, aftermath: float,
                  aftermath_every: int) -> Iterator[Task]:
    """The N shipped-scenario runs, spread over scenarios and models."""
    s, m = len(scenarios), len(models)
    for i in range(runs):
        days = aftermath if aftermath_every and i % aftermath_every == 0 else 0.0
        yield scenarios[i % s], models[(i // s) % m], seed, i // (s * m), days


def task_for(index: int, models: Sequence[str], seed: int, aftermath: float, aftermath_every: int) -> Task:
    """The task of generated run ``index`` (what ``--index`` replays)."""
    days = aftermath if aftermath_every and index % aftermath_every == 0 else 0.0
    return GENERATED, models[index % len(models)], seed, index, days


@dataclass(slots=True)
class SoakResult:
    """What a soak found."""

    runs: int = 0
    exceptions: list[str] = field(default_factory=list)
    breaches: list[str] = field(default_factory=list)
    """One line per breaching run (its first breaches)."""
    breach_count: int = 0
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")
    by_reason: dict[str, int] = field(default_factory=dict)
    by_model: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Runs per second (wall clock, pool start-up included)."""
        return self.runs / self.seconds if self.seconds else 0.0

    def add(self, out: dict[str, Any]) -> None:
        """Count one run's record."""
        self.runs += 1
        reason = out["reason"] or "failed"
        self.by_reason[reason] = self.by_reason.get(reason, 0) + 1
        model = out["key"].split("/")[1]
        self.by_model[model] = self.by_model.get(model, 0) + 1
        if out["error"]:
            self.exceptions.append(f"{out['key']}: {out['error']}")
        if out["breaches"]:
            self.breach_count += len(out["breaches"])
            self.breaches.append(f"{out['key']}: " + "; ".join(out["breaches"][:3]))
        if out["seconds"] > self.slowest[0]:
            self.slowest = (out["seconds"], out["key"])


def soak(runs: int, *, jobs: int = 2, worlds: str = GENERATED, scenarios: Sequence[str] = SHIPPED,
         models: Sequence[str] | None = None, seed: int = 0, chunk: int = 10, aftermath: float = 30.0,
         aftermath_every: int = 10) -> SoakResult:
    """Run the soak and gather the figures.

    Args:
        runs: Skirmishes per kind of world (``both`` runs twice as many).
        jobs: Worker processes (1: this process).
        worlds: ``generated``, ``shipped`` or ``both``.
        scenarios: The shipped scenarios soaked with ``shipped`` or ``both``.
        models: The damage models (default: every one).
        seed: The root seed.
        chunk: Runs per chunk sent to a worker.
        aftermath: Days moved on after the fight of every ``aftermath_every``-th run.
        aftermath_every: See ``aftermath`` (0: never).
    """
    if worlds not in WORLDS:
        raise ValueError(f"worlds: one of {', '.join(WORLDS)}, not {worlds!r}")
    models = tuple(models or parse_models("all"))
    work: list[Task] = []
    if worlds in ("generated", "both"):
        work += generated_tasks(runs, models, seed, aftermath, aftermath_every)
    if worlds in ("shipped", "both"):
        work += shipped_tasks(runs, scenarios, models, seed, aftermath, aftermath_every)
    result = SoakResult()
    start = time.perf_counter()
    with make_executor(jobs) as pool:
        futures = [pool.submit(soak_chunk, work[i:i + chunk]) for i in range(0, len(work), chunk)]
        for future in futures:
            for out in future.result():
                result.add(out)
    result.seconds = time.perf_counter() - start
    return result


def replay(index: int, models: Sequence[str], seed: int, aftermath: float, aftermath_every: int,
           keep: Path | None) -> int:
    """Run generated run ``index`` alone, print its record with the whole traceback; keep its configs."""
    task = task_for(index, models, seed, aftermath, aftermath_every)
    days = task[4]
    if keep is not None:
        written = gen_set_for_run(seed, index).write(keep)
        print(f"configs of run {index} in {written.root} (scenario {written.scenario})")
    out = soak_one(*task, full_traceback=True)
    print(f"{out['key']}: {out['reason'] or 'failed'} after {out['ticks']} ticks"
          f"{f', then {days:g} days' if days else ''} ({out['seconds']:.2f} s)")
    if out["error"]:
        print(out["error"])
    for line in out["breaches"]:
        print("BREACH", line)
    return 1 if out["error"] or out["breaches"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak from the command line; exit 1 on any exception or breach."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="skirmishes in all (per kind with --worlds both)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (1: this one)")
    parser.add_argument("--worlds", choices=WORLDS, default=GENERATED, help="generated worlds, the shipped "
                                                                            "scenarios, or both")
    parser.add_argument("--scenarios", default=",".join(SHIPPED), help="shipped scenario ids for --worlds shipped")
    parser.add_argument("--models", default="all", help="all, or comma-separated damage models")
    parser.add_argument("--seed", type=int, default=0, help="root seed")
    parser.add_argument("--chunk", type=int, default=10, help="runs per chunk sent to a worker")
    parser.add_argument("--aftermath", type=float, default=30.0, help="days moved on after the fight")
    parser.add_argument("--aftermath-every", type=int, default=10, help="every K-th run moves on (0: none)")
    parser.add_argument("--index", type=int, default=None, help="replay generated run I alone, whole traceback")
    parser.add_argument("--keep", type=Path, default=None, help="with --index: write its config tree here")
    args = parser.parse_args(argv)
    models = parse_models(args.models)
    if args.index is not None:
        return replay(args.index, models, args.seed, args.aftermath, args.aftermath_every, args.keep)
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    result = soak(args.runs, jobs=args.jobs, worlds=args.worlds, scenarios=scenarios, models=models,
                  seed=args.seed, chunk=args.chunk, aftermath=args.aftermath, aftermath_every=args.aftermath_every)
    print(f"worlds              {args.worlds} (seed {args.seed})")
    print(f"runs                {result.runs}  (" + ", ".join(f"{k}: {v}" for k, v in sorted(result.by_model.items()))
          + ")")
    print(f"exceptions          {len(result.exceptions)}")
    print(f"invariant breaches  {result.breach_count} (in {len(result.breaches)} runs)")
    print(f"seconds             {result.seconds:.1f}  ({args.jobs} jobs)")
    print(f"runs per second     {result.rate:.1f}")
    print(f"slowest run         {result.slowest[1]} ({result.slowest[0]:.2f} s)")
    print("outcomes            " + ", ".join(f"{k}: {v}" for k, v in sorted(result.by_reason.items())))
    for line in result.exceptions[:10]:
        print("EXCEPTION", line)
    for line in result.breaches[:10]:
        print("BREACH", line)
    if result.exceptions or result.breaches:
        print("replay one: python benchmarks/soak.py --seed SEED --index RUN [--models ...] [--keep DIR]")
    return 1 if result.exceptions or result.breaches else 0


if __name__ == "__main__":
    sys.exit(main())
