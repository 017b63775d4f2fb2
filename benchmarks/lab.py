"""The lab's speed on the duel: its per-run overhead against the same fights in a plain loop, its runs per second
with 1 and 2 workers, and (with ``--question``) the issue's balance question: 3 variants and scale factors for 2
parameters at ``--jobs 2``.

The overhead is measured in CPU time of this process, in the same run as the plain loop (``--jobs 1`` runs the
lab in this process), so a loaded machine moves both alike: the lab's runs n .. 2n-1 (a lab of 2n runs less a lab
of n, so its fixed costs cancel) against the same fights in a plain loop that builds each run's world as the lab
does (``world_of``: the same seed, streams and content) and runs it to its end, with no records. Wall times are given
for the worker counts (a second process cannot be timed by this one's CPU clock). It reports numbers; it never
fails on a slow machine.

Run: ``python benchmarks/lab.py [--runs 2000] [--jobs 1,2] [--question RUNS]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sandbox.lab import run, world_of

SCENARIO = "duel"
MODEL = "anatomy"


def plain_loop(first: int, runs: int) -> float:
    """CPU seconds of duels ``first`` .. ``first + runs - 1`` built and fought in a loop, nothing recorded."""
    start = time.process_time()
    for i in range(first, first + runs):
        with world_of(SCENARIO, 0, MODEL, i) as world:
            world.run()
    return time.process_time() - start


def lab_cpu(runs: int) -> float:
    """CPU seconds of a whole lab of ``runs`` duels in this process (records, summary, plots and report)."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        run(SCENARIO, runs=runs, models=MODEL, jobs=1, out=Path(tmp) / "lab")
        return time.process_time() - start


def lab_wall(runs: int, jobs: int, **options: object) -> float:
    """Wall seconds of a lab with ``jobs`` workers, pool start-up included."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run(SCENARIO, runs=runs, models=MODEL, jobs=jobs, out=Path(tmp) / "lab", **options)  # type: ignore[arg-type]
        return time.perf_counter() - start


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--question", type=int, default=0,
                        help="runs per variant of the 3-variant, 2-scale-factor lab at --jobs 2 (0: skip)")
    args = parser.parse_args()

    # The lab's runs n .. 2n-1 cost lab(2n) - lab(n): its fixed costs (plots, report, imports) cancel out.
    n = args.runs
    lab_once, lab_twice = lab_cpu(n), lab_cpu(2 * n)
    plain = plain_loop(n, n)
    marginal = lab_twice - lab_once
    print(f"duels {n} to {2 * n - 1}, CPU: plain loop {plain:.2f} s ({1000 * plain / n:.2f} ms a fight), the lab's "
          f"{marginal:.2f} s: overhead {100 * (marginal / plain - 1):+.1f}% a run; the lab's fixed cost (plots, "
          f"report) {lab_once - marginal:.2f} s")
    walls = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        walls[jobs] = lab_wall(args.runs, jobs)
        print(f"--jobs {jobs}: {args.runs / walls[jobs]:,.0f} runs/s ({walls[jobs]:.1f} s wall)")
    if 1 in walls and 2 in walls:
        print(f"--jobs 2 / --jobs 1: x{walls[1] / walls[2]:.2f} runs/s")
    if args.question:
        seconds = lab_wall(args.question, 2, variants={
            "mace": {"scenario.combatants.Aldric.weapons": ["mace"]},
            "keen": {"scenario.combatants.Aldric.skills.sword": 65}},
            scale=["armor.mail_hauberk.protection.edged", "creatures.human.skills.sword"])
        print(f"3 variants x {args.question:,} runs + scale factors for 2 parameters at --jobs 2: {seconds:.1f} s wall")


if __name__ == "__main__":
    main()
