"""The scaling curve: the shipped battle scaled to 1,000, 10,000 and 100,000 combatants (``battle_scenario``), on
the array engine and on the esper engine, in ticks per second (CPU time), microseconds per fighter per tick and
peak memory.

Each (engine, size) runs in a fresh interpreter, so its peak RSS is its own: the world is built (timed apart),
``--warm`` ticks run untimed (the fronts close in), then ``--ticks`` ticks are timed. Targets (issue 18): 10,000
combatants at least 100 ticks/s on the array engine (goal 250), 100,000 at least 10 ticks/s, peak memory at
100,000 under 2 GB, the cost per fighter per tick roughly flat; with the esper engine at 10,000 it also prints
each target as a same-run ratio to it (the issue's 100 ticks/s at 10,000 against the esper engine's 5.8 then: 17
times; its 10 at 100,000: 1.7 times), the machine being shared and its speed moving from day to day. The esper
engine runs only the sizes given to ``--esper-sizes`` (about 17 us per fighter per tick: 10,000 is a few seconds a
tick). It reports; it never fails.

``--lab`` measures the lab instead: duels per second on one core, each engine's records as ``sandbox lab`` makes
them (``sandbox.lab.records.run_chunk``: the esper engine one world per run, the array engine one world of
``--chunk`` independent fights, by default the lab's own chunk: 20,000 duels), in the same run; the issue asks
20,000 a second on the array engine (goal 50,000), against about 500 on the esper engine: 40 times the esper engine
(goal 100), the verdict it prints, beside the fights/s on this machine (which moves from minute to minute on a
shared one). ``--repeats N`` measures N pairs.

Run: ``python benchmarks/array_engine.py [--sizes 1000,10000,100000] [--esper-sizes 1000,10000] [--ticks 20]
[--repeats 3]``;
``python benchmarks/array_engine.py --lab [--runs 20000] [--chunk 20000] [--repeats 1]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TARGETS = {10_000: 100.0, 100_000: 10.0}
"""Array-engine ticks/s the issue asks for, by size."""
ESPER_THEN = {10_000: 5.8}
"""The esper engine's ticks/s when the issue was written, at the one size it gives: every size's target as a same-run
ratio to the esper engine there (100 ticks/s at 10,000 against 5.8: 17 times; 10 at 100,000: 1.7 times)."""
LAB_TARGET, LAB_GOAL, LAB_ESPER_THEN = 20_000, 50_000, 500
"""The lab's fights/s the issue asks for on the array engine (and its goal), against the esper engine's about 500
when it was written: as same-run ratios, 40 times the esper engine (goal 100), the machine being shared and its
speed moving from minute to minute."""


def measure(engine: str, size: int, ticks: int, warm: int, repeats: int = 3, seed: int = 0) -> dict[str, float]:
    """One (engine, size) in this process: build time, timed ticks, rates and peak RSS.

    The ``ticks`` after the warm-up are timed ``repeats`` times and the best window reported (the machine is shared:
    a window's CPU time is inflated by what else runs, never deflated): on the array engine each window from a copy
    of the world as it stood after the warm-up (the same ticks each time), on the esper engine consecutive windows.
    """
    from battle_scenario import scaled_battle  # this script's folder is on sys.path

    from sandbox.config import default_catalog

    spec = scaled_battle(size)
    catalog = default_catalog()
    start = time.process_time()
    if engine == "array":
        from sandbox.array_world import ArrayWorld

        world = ArrayWorld(spec, catalog, seed)
        warm_tick = world.engine.step
    else:
        from sandbox.world import Sandbox

        sandbox = Sandbox.from_spec(spec, seed, catalog=catalog)
        warm_tick = sandbox._tick
    built = time.process_time() - start
    for _ in range(warm):
        warm_tick()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # one world's (before any copy of it)
    windows = []
    for _ in range(repeats):
        tick = world.copy().engine.step if engine == "array" else warm_tick
        start = time.process_time()
        for _ in range(ticks):
            tick()
        windows.append(time.process_time() - start)
    cpu = min(windows)
    return {"build_s": built, "ticks": ticks, "cpu_s": cpu, "ticks_per_s": ticks / cpu,
            "median_ticks_per_s": ticks / sorted(windows)[len(windows) // 2],
            "us_per_fighter_tick": cpu / ticks / size * 1e6, "peak_rss_mb": rss}


def lab_rate(engine: str, runs: int, chunk: int, scenario: str = "duel") -> float:
    """Fights per CPU second of ``runs`` lab runs of ``scenario`` on ``engine``, records included."""
    from sandbox.lab.records import run_chunk
    from sandbox.lab.variants import Variant

    baseline = Variant("baseline")
    run_chunk(scenario, 0, "anatomy", range(2), baseline, engine)  # content loaded and parsed, outside the timing
    start = time.process_time()
    for first in range(0, runs, chunk):
        records = run_chunk(scenario, 0, "anatomy", range(first, min(first + chunk, runs)), baseline, engine)
        assert len(records) == min(chunk, runs - first)
    return runs / (time.process_time() - start)


def in_child(engine: str, size: int, ticks: int, warm: int, repeats: int) -> dict[str, float]:
    """``measure`` in a fresh interpreter (its peak RSS is this size's alone)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, __file__, "--one", engine, str(size), str(ticks), str(warm), str(repeats)],
                         cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    """Print the curve: one row per engine and size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="array-engine sizes")
    parser.add_argument("--esper-sizes", default="1000,10000", help="esper-engine sizes ('' for none)")
    parser.add_argument("--ticks", type=int, default=20, help="timed ticks (array engine)")
    parser.add_argument("--esper-ticks", type=int, default=3, help="timed ticks (esper engine)")
    parser.add_argument("--warm", type=int, default=5, help="untimed ticks first (the armies close in)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed windows, the best reported (default 3); --lab: pairs of measures (default 1)")
    parser.add_argument("--lab", action="store_true", help="the lab's duels per second instead")
    parser.add_argument("--runs", type=int, default=20_000, help="--lab: array-engine runs (esper: a tenth)")
    parser.add_argument("--chunk", type=int, default=None,
                        help="--lab: fights per array world (default: the lab's, 20,000 duels)")
    parser.add_argument("--one", nargs=5, metavar=("ENGINE", "SIZE", "TICKS", "WARM", "REPEATS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        engine, size, ticks, warm, repeats = args.one
        print(json.dumps(measure(engine, int(size), int(ticks), int(warm), int(repeats))))
        return
    if args.lab:
        from sandbox.lab.plan import default_chunk

        chunk = args.chunk or default_chunk("array", 2)
        ratio_target, ratio_goal = LAB_TARGET / LAB_ESPER_THEN, LAB_GOAL / LAB_ESPER_THEN
        for _ in range(args.repeats or 1):
            esper = lab_rate("esper", max(args.runs // 10, 50), 25)
            array = lab_rate("array", args.runs, chunk)
            ratio = array / esper
            verdict = "met" if ratio >= ratio_target else "NOT met"
            print(f"lab, duel, one core: esper {esper:,.0f} fights/s, array {array:,.0f} fights/s "
                  f"(chunks of {chunk}): ratio {ratio:.1f}; target {ratio_target:.0f} times the esper engine "
                  f"(the issue's {LAB_TARGET:,} against its {LAB_ESPER_THEN}): {verdict}, goal {ratio_goal:.0f}: "
                  f"{'met' if ratio >= ratio_goal else 'not met'}; {LAB_TARGET:,}/s on this machine: "
                  f"{'met' if array >= LAB_TARGET else 'not met'}", flush=True)
        return
    runs = [("array", int(s), args.ticks) for s in args.sizes.split(",") if s]
    runs += [("esper", int(s), args.esper_ticks) for s in args.esper_sizes.split(",") if s]
    print(f"{'engine':<7} {'combatants':>10} {'build s':>8} {'ticks/s':>9} {'median':>7} {'us/fighter/tick':>16} "
          f"{'peak RSS':>9}  target")
    rates: dict[tuple[str, int], float] = {}
    for engine, size, ticks in runs:
        r = in_child(engine, size, ticks, args.warm, args.repeats or 3)
        rates[engine, size] = r["ticks_per_s"]
        target = TARGETS.get(size) if engine == "array" else None
        met = target is not None and r["ticks_per_s"] >= target
        verdict = "" if target is None else f"  >= {target:g} ticks/s: {'met' if met else 'NOT met'}"
        print(f"{engine:<7} {size:>10,} {r['build_s']:>8.1f} {r['ticks_per_s']:>9.1f} {r['median_ticks_per_s']:>7.1f} "
              f"{r['us_per_fighter_tick']:>16.2f} {r['peak_rss_mb']:>6,.0f} MB{verdict}", flush=True)
    # The issue gives the esper engine's speed at 10,000 only, so every size's target is judged against that one
    # figure measured in this run: the machine's speed of the day, whatever the size.
    base, then = next(iter(ESPER_THEN.items()))
    for size, target in TARGETS.items():
        if ("array", size) in rates and ("esper", base) in rates:
            ratio, wanted = rates["array", size] / rates["esper", base], target / then
            print(f"at {size:,}: the array engine's ticks/s {ratio:.1f} times the esper engine's at {base:,} in this "
                  f"run; target {wanted:.1f} times (the issue's {target:g} ticks/s against its {then} at {base:,}): "
                  f"{'met' if ratio >= wanted else 'NOT met'}")


if __name__ == "__main__":
    main()
