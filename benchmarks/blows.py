"""Blows per second through the full per-event pipeline, on one core.

Each blow: impact roll (dice + Strength modifier), hit location (zone number, part, location), protection,
level, glancing check, compounding, bleeding grid, amputation check, Shock test and state, mishap dispositions and
keep-control tests. Target (issue 2): >= 200,000 blows per second on one core of the project's machine.

Run: ``python benchmarks/blows.py [--n 1000000] [--repeat 3]``. It reports numbers; it never fails on a slow
machine.
"""

from __future__ import annotations

import argparse
import time

from sandbox.blows import BlowSetup
from sandbox.config import default_catalog
from sandbox.systems.streams import make_stream

TARGET = 200_000

SCENARIOS: list[tuple[str, dict[str, object]]] = [
    ("broadsword.cut vs mail+helm, unaimed", {"mode": "broadsword.cut", "armor": ["mail_hauberk", "helm"]}),
    ("battleaxe.cut vs unarmoured, aimed at the head", {"mode": "battleaxe.cut", "aim": "Head"}),
    ("spear.impale vs full harness+helm, unaimed", {"mode": "spear.impale", "armor": ["full_harness", "helm"]}),
]


def measure(n: int, repeat: int) -> list[tuple[str, float]]:
    """Best-of-``repeat`` blows per second for each scenario."""
    catalog = default_catalog()
    body = catalog.bodies["human"]
    results = []
    for label, options in SCENARIOS:
        setup = BlowSetup.build(catalog, body=body, **options)  # type: ignore[arg-type]
        best = 0.0
        for r in range(repeat):
            rng = make_stream(1234, r, "injury")
            start = time.perf_counter()
            for _ in setup.blows(n, rng):
                pass
            best = max(best, n / (time.perf_counter() - start))
        results.append((label, best))
    return results


def main() -> None:
    """Run the benchmark and print blows per second per scenario."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500_000, help="blows per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per scenario (best is reported)")
    args = parser.parse_args()
    print(f"full blow pipeline, {args.n:,} blows per run, best of {args.repeat}, one core")
    for label, rate in measure(args.n, args.repeat):
        verdict = "meets" if rate >= TARGET else "BELOW"
        print(f"  {label:<48} {rate:>12,.0f} blows/s  ({verdict} the {TARGET:,}/s target)")


if __name__ == "__main__":
    main()
