"""One creature's options against the tick they are for: ``Sandbox.options`` against a 20-creature tick, under every
model, in one run.

Ten humans against ten (two lines two metres apart, mixed weapons and armour, fixed seeds: the fight
``benchmarks/hud.py`` measures) fight under each damage model. After every tick, the options of every creature still
able to act are asked for ``--repeat`` times each. Both are CPU time (``time.process_time``) in the same process, so
their ratio travels between machines. A tick is the world's processors alone (``Sandbox._tick``, no event
expansion), the least flattering yardstick.

- first: the average cost of a creature's first options after a tick (what a game asking once a turn pays; it
  builds the strike rows of a foe that came within reach, which later calls reuse);
- again: the average of the calls after it, the world unchanged;
- worst: the most one first call cost (a creature with several enemies newly within reach, every aim at each).

Target (issue 32): one creature's options (the first call after a tick) at most 10% of a 20-creature tick under
every model.

    python benchmarks/options.py [--seeds 5] [--ticks 30] [--repeat 5]

It reports numbers; it never fails on a slow machine.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from twenty import MODELS, fight  # benchmarks/twenty.py: the fight both benchmarks measure

TARGET = 0.10


@dataclass
class Costs:
    """CPU seconds summed over the measured ticks and options calls of one model."""

    ticks: int = 0
    tick: float = 0.0
    firsts: int = 0
    first: float = 0.0
    agains: int = 0
    again: float = 0.0
    worst: float = 0.0
    listed: int = 0


def measure(model: str, seeds: int, ticks: int, repeat: int) -> Costs:
    """Tick each seed's fight while two teams can fight (at most ``ticks``), asking every able creature's options."""
    costs = Costs()
    clock = time.process_time
    for seed in range(seeds):
        with fight(model, seed) as world:
            entities = list(world.names)
            for _ in range(ticks):
                if len(world.able_teams()) < 2:
                    break
                start = clock()
                world._tick()
                costs.tick += clock() - start
                costs.ticks += 1
                for entity in entities:
                    if not world.standing(entity).can_act:
                        continue
                    start = clock()
                    listed = world.options(entity)
                    spent = clock() - start
                    costs.first += spent
                    costs.firsts += 1
                    costs.worst = max(costs.worst, spent)
                    costs.listed += len(listed)
                    start = clock()
                    for _ in range(repeat - 1):
                        world.options(entity)
                    costs.again += clock() - start
                    costs.agains += repeat - 1
    return costs


def main() -> None:
    """Run the benchmark and print, per model, a tick, one creature's options (first, again, worst) and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="fights per model")
    parser.add_argument("--ticks", type=int, default=30, help="at most this many ticks a fight")
    parser.add_argument("--repeat", type=int, default=5, help="options calls per creature after each tick")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated models")
    args = parser.parse_args()
    print(f"one creature's options against a 20-creature tick, CPU time; {args.seeds} fights of at most "
          f"{args.ticks} ticks, {args.repeat} calls per creature a tick")
    print(f"  {'model':<9} {'ticks':>5} {'tick ms':>8} {'first ms':>8} {'first/tick':>10} {'again ms':>8} "
          f"{'again/tick':>10} {'worst ms':>8} {'listed':>6}")
    for model in args.models.split(","):
        c = measure(model, args.seeds, args.ticks, max(args.repeat, 2))
        tick = c.tick / max(c.ticks, 1)
        first, again = c.first / max(c.firsts, 1), c.again / max(c.agains, 1)
        verdict = "meets" if first <= TARGET * tick else "ABOVE"
        print(f"  {model:<9} {c.ticks:>5} {tick * 1e3:>8.3f} {first * 1e3:>8.3f} {first / tick:>10.1%} "
              f"{again * 1e3:>8.3f} {again / tick:>10.1%} {c.worst * 1e3:>8.3f} {c.listed / max(c.firsts, 1):>6.0f}"
              f"  ({verdict} the {TARGET:.0%} target)")


if __name__ == "__main__":
    main()
