"""Runs per second of ``sandbox lab`` on the duel, every damage model, with 1 and 2 workers, and peak memory.

Each run is a whole duel to its end (build the world, fight, flatten the record); chunks of runs go to the
executor as in ``sandbox lab``; rows stream to a ``runs.csv`` in a temporary folder. It reports numbers; it never
fails on a slow machine. ``--jobs 1`` runs in this process; ``--jobs 2`` in a pool of two processes.

Run: ``python benchmarks/lab.py [--runs N] [--jobs 1,2] [--chunk 25]``.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from sandbox.lab import LabPlan, cast_of, make_executor, parse_models, run_lab


def measure(runs: int, jobs: int, chunk: int, seed: int = 0) -> tuple[float, int, float]:
    """(runs per second, runs done, seconds) of a duel lab over every model with ``jobs`` workers, pool start-up
    included."""
    plan = LabPlan("duel", parse_models("all"), runs, seed, chunk)
    cast = cast_of("duel")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        with make_executor(jobs) as pool:
            result = run_lab(plan, cast, pool, Path(tmp), window=2 * jobs)
        elapsed = time.perf_counter() - start
    return result.runs_done / elapsed, result.runs_done, elapsed


def main() -> None:
    """Run the benchmark and print runs per second per worker count, the speed-up and peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per model")
    parser.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--chunk", type=int, default=25, help="runs per chunk")
    args = parser.parse_args()
    cast_of("duel")  # load the configs once, outside the timings
    base: float | None = None
    for jobs in (int(j) for j in args.jobs.split(",")):
        rate, done, elapsed = measure(args.runs, jobs, args.chunk)
        base = base or rate
        print(f"--jobs {jobs}: {rate:>8,.0f} runs/s ({done} runs in {elapsed:.2f} s), speed-up x{rate / base:.2f}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: {own:,.0f} MB (this process), {workers:,.0f} MB (largest worker)")


if __name__ == "__main__":
    main()
