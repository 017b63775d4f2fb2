"""The lab's speed on the duel: its per-run overhead against the same fights in a plain loop, its runs per second
with 1 and 2 workers, and (with ``--question``) the issue's balance question: 3 variants and scale factors for 2
parameters at ``--jobs 2``.

The overhead is measured in CPU time of this process, in the same run as the plain loop (``--jobs 1`` runs the
lab in this process), so a loaded machine moves both alike: the lab's runs phase (building, fighting and recording
each run, writing the records as they come) against the same fights in a plain loop that builds each run's world as
the lab does (``world_of``: the same seed, streams and content) and runs it to its end, with no records;
in short pairs interleaved many times. The rest of the lab (start, plots, report, Parquet) is given beside it.
Wall times are given for the worker counts (a second process cannot be timed by this one's CPU clock). It reports
numbers; it never fails on a slow machine.

Run: ``python benchmarks/lab.py [--runs 10000] [--pair 200] [--repeat 30] [--jobs 1,2] [--question RUNS]
[--engine array]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from statistics import fmean, median, stdev
from typing import Any

from sandbox.lab import run, world_of
from sandbox.lab import session as session

SCENARIO = "duel"
MODEL = "anatomy"


def plain_loop(first: int, runs: int) -> float:
    """CPU seconds of duels ``first`` .. ``first + runs - 1`` built and fought in a loop, nothing recorded."""
    start = time.process_time()
    for i in range(first, first + runs):
        with world_of(SCENARIO, 0, MODEL, i) as world:
            world.run()
    return time.process_time() - start


def lab_cpu(runs: int) -> tuple[float, float]:
    """CPU seconds of a lab of ``runs`` duels in this process: its runs (building, fighting and recording each
    run, writing the records), and the rest (start, plots, report, Parquet)."""
    spent: list[float] = []
    names = vars(session)  # the session module's own name for the runs phase, timed around it
    original = names["run_plan"]

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.process_time() - start)

    names["run_plan"] = timed
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.process_time()
            run(SCENARIO, runs=runs, models=MODEL, jobs=1, out=Path(tmp) / "lab")
            whole = time.process_time() - start
    finally:
        names["run_plan"] = original
    return spent[0], whole - spent[0]


def lab_wall(runs: int, jobs: int, **options: object) -> tuple[float, float]:
    """Wall seconds of a lab with ``jobs`` workers: the whole call (pool start-up, plots and report included), and
    its runs alone (``summary.json``'s ``elapsed_seconds``)."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        result = run(SCENARIO, runs=runs, models=MODEL, jobs=jobs, out=Path(tmp) / "lab",
                     **options)  # type: ignore[arg-type]
        return time.perf_counter() - start, float(result.summary["elapsed_seconds"])


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000, help="runs of the labs timed with --jobs")
    parser.add_argument("--jobs", default="1,2", help="worker counts to time (empty: none)")
    parser.add_argument("--pair", type=int, default=200, help="runs in each pair of the overhead measure")
    parser.add_argument("--repeat", type=int, default=30, help="pairs of the overhead measure (0: skip it)")
    parser.add_argument("--engine", default="esper", help="the engine of the --question lab")
    parser.add_argument("--question", type=int, default=0,
                        help="runs per variant of the 3-variant, 2-scale-factor lab at --jobs 2 (0: skip)")
    args = parser.parse_args()

    # The lab's runs phase (in this process, timed in CPU) against the same runs in a plain loop, in short pairs
    # interleaved many times, which goes first alternating: a shared machine's speed drifts by tens of percent
    # between minutes, and a pair of seconds sees the same drift on both sides. The pairs' spread gives the interval.
    n = args.pair
    if args.repeat:
        ratios, plains, labs, rests = [], [], [], []
        lab_cpu(10)  # the first lab imports matplotlib, pandas and fonts: not a run's cost
        for rep in range(args.repeat):
            if rep % 2:
                runs_phase, rest = lab_cpu(n)
                plain = plain_loop(0, n)
            else:
                plain = plain_loop(0, n)
                runs_phase, rest = lab_cpu(n)
            ratios.append(runs_phase / plain - 1)
            plains.append(plain)
            labs.append(runs_phase)
            rests.append(rest)
        fight_ms = 1000 * sum(plains) / (n * len(plains))
        overall = 100 * (sum(labs) / sum(plains) - 1)
        mean, half = 100 * fmean(ratios), 100 * 1.96 * stdev(ratios) / len(ratios) ** 0.5
        print(f"{args.repeat} pairs of duels 0 to {n - 1}, CPU: plain loop {fight_ms:.2f} ms a fight; the lab's "
              f"overhead a run {overall:+.1f}% over all pairs, {mean:+.1f}% the mean pair (95% CI {mean - half:+.1f} "
              f"to {mean + half:+.1f}; target under 5%); the rest of a lab (start, plots, report, Parquet) "
              f"{median(rests):.2f} s")
    walls, runs_only = {}, {}
    for jobs in (int(j) for j in args.jobs.split(",") if j):
        walls[jobs], runs_only[jobs] = lab_wall(args.runs, jobs)
        print(f"--jobs {jobs}: {args.runs / walls[jobs]:,.0f} runs/s over the whole lab ({walls[jobs]:.1f} s wall), "
              f"{args.runs / runs_only[jobs]:,.0f} runs/s while running them ({runs_only[jobs]:.1f} s)")
    if 1 in walls and 2 in walls:
        print(f"--jobs 2 / --jobs 1: x{walls[1] / walls[2]:.2f} runs/s over the whole lab, "
              f"x{runs_only[1] / runs_only[2]:.2f} while running them (target at least 1.85)")
    if args.question:
        seconds, _ = lab_wall(args.question, 2, engine=args.engine, variants={
            "mace": {"scenario.combatants.Aldric.weapons": ["mace"]},
            "keen": {"scenario.combatants.Aldric.skills.sword": 65}},
            scale=["armor.mail_hauberk.protection.edged", "creatures.human.skills.sword"])
        print(f"3 variants x {args.question:,} runs + scale factors for 2 parameters at --jobs 2, --engine "
              f"{args.engine}: {seconds:.1f} s wall (target under 120 s)")


if __name__ == "__main__":
    main()
