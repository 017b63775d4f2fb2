"""This checkout against another (the code before a change) on the same workloads, in the same run: the ratio of
their rates is what a change is judged by on a shared, noisy machine.

Each workload is a snippet that runs in a fresh interpreter with the checkout on ``sys.path`` and prints one rate
(higher is better, CPU time). The two checkouts take turns (A B A B ...), and the ratio is taken from the medians.

Run: ``python benchmarks/versus.py --baseline ../before [--rounds 5] [--only blows,skirmish200]``.
The baseline is a checkout (``git worktree add ../before <commit>``) whose own dependencies match this one's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKLOADS: dict[str, tuple[str, str]] = {
    "blows": ("blows/s, per-event pipeline, broadsword cut vs mail and helm", """
import time
from sandbox.blows import BlowSetup
from sandbox.config import default_catalog
try:
    from sandbox.systems.streams import make_stream
except ImportError:
    from sandbox.streams import make_stream
catalog = default_catalog()
setup = BlowSetup.build(catalog, body=catalog.bodies["human"], mode="broadsword.cut", armor=["mail_hauberk", "helm"])
rng = make_stream(1234, 0, "injury")
n = 300_000
start = time.process_time()
for _ in setup.blows(n, rng):
    pass
print(n / (time.process_time() - start))
"""),
    "skirmish200": ("ticks/s, 200 combatants in two armies", """
import math, time
from sandbox.world import Sandbox
world = Sandbox(seed=1)
per_side, columns = 100, int(math.sqrt(200))
for side, (team, x0, direction) in enumerate((("Red", 0.0, -1.0), ("Blue", 10.0, 1.0))):
    for i in range(per_side):
        rank, file = divmod(i, columns)
        world.spawn("human", name=f"{team} {i}", team=team, position=(x0 + direction * rank * 1.5, file * 1.5),
                    weapons=["broadsword"], armor=["gambeson", "mail_hauberk"],
                    aim="Head" if (i + side) % 2 else "unaimed")
ran = 0
start = time.process_time()
while ran < 150 and len(world.able_teams()) > 1:
    world._tick()
    ran += 1
print(ran / (time.process_time() - start))
"""),
    "aftermath3000": ("creature-days/s, 100-day aftermath of 3,000 wounded humans", """
import random, time
from sandbox.world import Sandbox
rng = random.Random(1)
world = Sandbox(seed=1)
body = world.catalog.bodies["human"]
wounded = []
for i in range(3000):
    e = world.spawn("human", name=f"H{i}", team=f"T{i // 10}", position=(i, 0), skills={"physician": 30 + (i % 10) * 5})
    for _ in range(rng.randint(3, 5)):
        world.inflict(e, location=body.locations[rng.randrange(len(body.locations))].name,
                      level=rng.choice([1, 1, 2, 2, 3, 4]), aspect=rng.choice(["blunt", "edged", "piercing"]))
    wounded.append(e)
with world.active():
    import esper
    for e in wounded:
        for c in esper.components_for_entity(e):
            wounds = getattr(c, "injuries", None) if type(c).__name__ == "Wounds" else getattr(c, "wounds", None)
            if isinstance(wounds, list) and wounds and rng.random() < 0.3:
                wounds[0].bleeder = True
start = time.process_time()
world.advance(days=100)
print(3000 * 100 / (time.process_time() - start))
"""),
}


def rate(checkout: Path, snippet: str) -> float:
    """One run of ``snippet`` against ``checkout``: the rate it prints."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", snippet], cwd=checkout, env=env, check=True, capture_output=True,
                         text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    """Run the workloads and print, per workload, both medians and their ratio (this / baseline)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each checkout per workload")
    parser.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    args = parser.parse_args()
    for name in args.only.split(","):
        label, snippet = WORKLOADS[name]
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(rate(ROOT, snippet))
            theirs.append(rate(args.baseline.resolve(), snippet))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{name:>14}: {a:>12,.0f} vs {b:>12,.0f} {label}: ratio {a / b:.2f} "
              f"(ours {min(ours):,.0f}..{max(ours):,.0f}, baseline {min(theirs):,.0f}..{max(theirs):,.0f})")


if __name__ == "__main__":
    main()
