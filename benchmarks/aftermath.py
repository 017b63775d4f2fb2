"""Wall time of a 100-day aftermath for 100 wounded creatures (target, issue 4: under 1 second).

A hundred humans in ten teams, each with three to five wounds (random location, level M1 to G4 and aspect, some
bleeding), are left to first aid, treatment and healing for 100 days: ``Sandbox.advance`` jumps from due check to
due check instead of ticking 864,000 turns. It reports numbers; it never fails on a slow machine.

Run: ``python benchmarks/aftermath.py [--creatures 100] [--days 100]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from sandbox.aftermath import report
from sandbox.world import Sandbox


def wounded_world(n: int, seed: int = 1) -> Sandbox:
    """``n`` wounded humans in teams of ten."""
    rng = random.Random(seed)
    world = Sandbox(seed=seed)
    body = world.catalog.bodies["human"]
    for i in range(n):
        entity = world.spawn("human", name=f"H{i}", team=f"T{i // 10}", position=(i, 0),
                             skills={"physician": 30 + (i % 10) * 5})
        for _ in range(rng.randint(3, 5)):
            location = body.locations[rng.randrange(len(body.locations))].name
            world.inflict(entity, location=location, level=rng.choice([1, 1, 2, 2, 3, 4]),
                          aspect=rng.choice(["blunt", "edged", "piercing"]))
        wounds = world.components(entity)["Wounds"]
        if rng.random() < 0.3 and wounds.injuries:
            wounds.injuries[0].bleeder = True
    return world


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creatures", type=int, default=100)
    parser.add_argument("--days", type=float, default=100.0)
    args = parser.parse_args()
    world = wounded_world(args.creatures)
    start_time = world.ctx.clock.time
    start = time.perf_counter()
    events = world.advance(days=args.days)
    elapsed = time.perf_counter() - start
    rows = report(world, start_time)
    fates = Counter("died: " + r.cause if not r.alive else ("healed" if r.healed_day is not None else "open wounds")
                    for r in rows)
    verdict = "meets" if elapsed < 1.0 else "MISSES"
    print(f"{args.days:g}-day aftermath for {args.creatures} wounded creatures: {elapsed:.3f} s wall time "
          f"({verdict} the 1 s target), {len(events):,} events")
    print("fates:", ", ".join(f"{k} {v}" for k, v in sorted(fates.items())))


if __name__ == "__main__":
    main()
