"""Soak: many skirmishes across every damage model, in parallel, with the invariants checked after every tick.

Run i is the shipped scenario ``scenarios[i % S]`` under model ``models[(i // S) % M]``, run index ``i // (S * M)``
under the root seed (so N runs spread evenly over scenarios and models); every ``--aftermath-every``-th run also
moves time on ``--aftermath`` days after the fight (first aid, healing, deaths), still checked. Chunks go to the
lab's executor (``sandbox.lab.make_executor``). It reports runs, exceptions and invariant breaches (both must be
0: exit 1 otherwise), runs per second and the slowest run.

Run: ``python benchmarks/soak.py [--runs N] [--jobs J] [--scenarios duel,skirmish,...] [--models all] [--seed S]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # run as a script from anywhere

from sandbox.lab import make_executor, parse_models  # noqa: E402
from sandbox.world import Sandbox  # noqa: E402
from systems.invariants import InvariantError  # noqa: E402

SHIPPED = ("duel", "skirmish", "wolf_pack", "bestiary", "battle")

Task = tuple[str, str, int, int, float]
"""(scenario, model, seed, run index, aftermath days)."""


def soak_one(scenario: str, model: str, seed: int, run: int, aftermath: float) -> dict[str, Any]:
    """One skirmish with the invariants on: ``{"key", "seconds", "ticks", "reason", "error", "breaches"}``."""
    key = f"{scenario}/{model}/seed {seed}/run {run}"
    out: dict[str, Any] = {"key": key, "seconds": 0.0, "ticks": 0, "reason": "", "error": "", "breaches": []}
    start = time.perf_counter()
    world = None
    try:
        world = Sandbox.from_scenario(scenario, seed, model, run=run, check_invariants=True)
        outcome = world.run()
        out["ticks"], out["reason"] = outcome.ticks, outcome.reason
        if aftermath:
            world.advance(days=aftermath)
    except InvariantError as exc:
        out["breaches"] = [f"tick {exc.tick}: {b}" for b in exc.breaches]
    except Exception as exc:  # every exception is counted and reported, not raised
        out["error"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=-3)}"
    finally:
        if world is not None:
            world.close()
    out["seconds"] = time.perf_counter() - start
    return out


def soak_chunk(tasks: Sequence[Task]) -> list[dict[str, Any]]:
    """Run a chunk of tasks (what a worker is sent)."""
    return [soak_one(*task) for task in tasks]


def tasks(runs: int, scenarios: Sequence[str], models: Sequence[str], seed: int, aftermath: float,
          aftermath_every: int) -> Iterator[Task]:
    """The N tasks, spread over scenarios and models."""
    s, m = len(scenarios), len(models)
    for i in range(runs):
        days = aftermath if aftermath_every and i % aftermath_every == 0 else 0.0
        yield scenarios[i % s], models[(i // s) % m], seed, i // (s * m), days


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

    @property
    def rate(self) -> float:
        """Runs per second (wall clock, pool start-up included)."""
        return self.runs / self.seconds if self.seconds else 0.0


def soak(runs: int, *, jobs: int = 2, scenarios: Sequence[str] = SHIPPED, models: Sequence[str] | None = None,
         seed: int = 0, chunk: int = 10, aftermath: float = 30.0, aftermath_every: int = 10) -> SoakResult:
    """Run the soak and gather the figures."""
    models = tuple(models or parse_models("all"))
    work = list(tasks(runs, scenarios, models, seed, aftermath, aftermath_every))
    result = SoakResult()
    start = time.perf_counter()
    with make_executor(jobs) as pool:
        futures = [pool.submit(soak_chunk, work[i:i + chunk]) for i in range(0, len(work), chunk)]
        for future in futures:
            for out in future.result():
                result.runs += 1
                result.by_reason[out["reason"] or "failed"] = result.by_reason.get(out["reason"] or "failed", 0) + 1
                if out["error"]:
                    result.exceptions.append(f"{out['key']}: {out['error']}")
                if out["breaches"]:
                    result.breach_count += len(out["breaches"])
                    result.breaches.append(f"{out['key']}: " + "; ".join(out["breaches"][:3]))
                if out["seconds"] > result.slowest[0]:
                    result.slowest = (out["seconds"], out["key"])
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak from the command line; exit 1 on any exception or breach."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="skirmishes in all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (1: this one)")
    parser.add_argument("--scenarios", default=",".join(SHIPPED), help="comma-separated shipped scenario ids")
    parser.add_argument("--models", default="all", help="all, or comma-separated damage models")
    parser.add_argument("--seed", type=int, default=0, help="root seed")
    parser.add_argument("--chunk", type=int, default=10, help="runs per chunk sent to a worker")
    parser.add_argument("--aftermath", type=float, default=30.0, help="days moved on after the fight")
    parser.add_argument("--aftermath-every", type=int, default=10, help="every K-th run moves on (0: none)")
    args = parser.parse_args(argv)
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    result = soak(args.runs, jobs=args.jobs, scenarios=scenarios, models=parse_models(args.models),
                  seed=args.seed, chunk=args.chunk, aftermath=args.aftermath, aftermath_every=args.aftermath_every)
    print(f"runs                {result.runs}")
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
    return 1 if result.exceptions or result.breaches else 0


if __name__ == "__main__":
    sys.exit(main())
