"""Ticks per second of a headless skirmish (anatomy model) at 2, 200 and 10,000 combatants, and peak memory.

Two armies face each other in ranks 10 m apart: humans with broadswords, gambeson and mail, half aiming at the
head. Targets (issue 3): 200 combatants >= 300 ticks/s; 10,000 combatants >= 20 ticks/s; peak memory of the
10,000-combatant world under 1 GB. It reports numbers; it never fails on a slow machine.

Run: ``python benchmarks/skirmish.py [--ticks N] [--sizes 2,200,10000]``.
"""

from __future__ import annotations

import argparse
import math
import resource
import time

from sandbox.world import Sandbox

TARGETS = {200: 300.0, 10_000: 20.0}


def army(world: Sandbox, n: int) -> None:
    """Spawn ``n`` combatants in two armies of ranks, 1.5 m apart, 10 m between the fronts."""
    per_side = n // 2
    columns = max(1, int(math.sqrt(per_side * 2)))
    for side, (team, x0, direction) in enumerate((("Red", 0.0, -1.0), ("Blue", 10.0, 1.0))):
        for i in range(per_side):
            rank, file = divmod(i, columns)
            world.spawn("human", name=f"{team} {i}", team=team,
                        position=(x0 + direction * rank * 1.5, file * 1.5),
                        weapons=["broadsword"], armor=["gambeson", "mail_hauberk"],
                        aim="Head" if (i + side) % 2 else "unaimed")


def measure(n: int, ticks: int, seed: int = 1) -> tuple[float, int, float]:
    """(ticks per second, ticks run, seconds to build) for ``n`` combatants."""
    start = time.perf_counter()
    world = Sandbox(seed=seed)
    army(world, n)
    built = time.perf_counter() - start
    start = time.perf_counter()
    ran = 0
    while ran < ticks and len(world.able_teams()) > 1:
        world._tick()
        ran += 1
    elapsed = time.perf_counter() - start
    world.close()
    return ran / elapsed if elapsed else math.inf, ran, built


def main() -> None:
    """Run the benchmark and print ticks per second per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=60, help="ticks per size (fewer if a side wins first)")
    parser.add_argument("--sizes", default="2,200,10000", help="comma-separated combatant counts")
    args = parser.parse_args()
    for n in (int(s) for s in args.sizes.split(",")):
        rate, ran, built = measure(n, args.ticks)
        target = TARGETS.get(n)
        verdict = f"  (target {target:,.0f}: {'meets' if rate >= target else 'BELOW'})" if target else ""
        print(f"{n:>6} combatants: {rate:>9,.1f} ticks/s over {ran} ticks (built in {built:.2f} s){verdict}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (whole process): {peak_mb:,.0f} MB (target for 10,000 combatants: under 1,024 MB)")


if __name__ == "__main__":
    main()
