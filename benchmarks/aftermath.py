"""Wall time of a 100-day aftermath for 100 and for 3,000 wounded creatures (targets: issue 4, 100 in under 1 s;
issue 13, 3,000 in under 0.5 s: ``advance`` is linear in the number of creatures).

A hundred humans in ten teams, each with three to five wounds (random location, level M1 to G4 and aspect, some
bleeding), are left to first aid, treatment and healing for 100 days: ``Sandbox.advance`` jumps from due check to
due check instead of ticking 864,000 turns. It reports numbers; it never fails on a slow machine.

Run: ``python benchmarks/aftermath.py [--creatures 100,3000] [--days 100]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from sandbox.components.models.anatomy import Injury
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
        injury = world.get(entity, Injury)
        if rng.random() < 0.3 and injury.wounds:
            injury.wounds[0].bleeder = True
    return world


TARGETS = {100: 1.0, 3000: 0.5}
"""Seconds, by the number of creatures."""


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creatures", default="100,3000", help="comma-separated creature counts")
    parser.add_argument("--days", type=float, default=100.0)
    args = parser.parse_args()
    for n in (int(x) for x in args.creatures.split(",")):
        world = wounded_world(n)
        start_time = world.ctx.clock.time
        start = time.process_time()
        events = world.advance(days=args.days)
        elapsed = time.process_time() - start
        rows = world.aftermath_report(start_time)
        fates = Counter("died: " + r.cause if not r.alive else ("healed" if r.healed_day is not None
                                                                 else "open wounds") for r in rows)
        target = TARGETS.get(n)
        verdict = f" ({'meets' if elapsed < target else 'MISSES'} the {target:g} s target)" if target else ""
        print(f"{args.days:g}-day aftermath for {n} wounded creatures: {elapsed:.3f} s CPU{verdict}, "
              f"{len(events):,} events")
        print("  fates:", ", ".join(f"{k} {v}" for k, v in sorted(fates.items())))
        world.close()


if __name__ == "__main__":
    main()
