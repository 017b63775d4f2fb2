"""Blows per second through the vectorised (numpy) full pipeline, against the per-event pipeline, on one core.

Each blow: impact roll (dice + Strength modifier), hit location (zone number and location in one draw),
protection, level, glancing, compounding, bleeding grid, amputation check, Shock test and state, mishap
dispositions, keep-control tests and outcomes, resolved ``--chunk`` blows per numpy call. Target (issue 7):
>= 4,000,000 blows per second and >= 15x the per-event path.

Run: ``python benchmarks/blows_vector.py [--n 2000000] [--chunk 65536] [--repeat 3]``. It reports numbers; it
never fails on a slow machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sandbox.blows import BlowSetup
from sandbox.config import default_catalog
from sandbox.systems.streams import make_stream
from sandbox.vector_odds import resolve_chunk

TARGET = 4_000_000
RATIO = 15.0

SCENARIOS: list[tuple[str, dict[str, object]]] = [  # the per-event benchmark's (benchmarks/blows.py)
    ("broadsword.cut vs mail+helm, unaimed", {"mode": "broadsword.cut", "armor": ["mail_hauberk", "helm"]}),
    ("battleaxe.cut vs unarmoured, aimed at the head", {"mode": "battleaxe.cut", "aim": "Head"}),
    ("spear.impale vs full harness+helm, unaimed", {"mode": "spear.impale", "armor": ["full_harness", "helm"]}),
]


def per_event_rate(setup: BlowSetup, n: int, repeat: int) -> float:
    """Best-of-``repeat`` blows per second on the per-event path."""
    best = 0.0
    for r in range(repeat):
        rng = make_stream(1234, r, "injury")
        start = time.perf_counter()
        for _ in setup.blows(n, rng):
            pass
        best = max(best, n / (time.perf_counter() - start))
    return best


def vector_rate(setup: BlowSetup, n: int, chunk: int, repeat: int) -> float:
    """Best-of-``repeat`` blows per second on the vectorised path, ``chunk`` blows per call."""
    resolve_chunk(setup, chunk, np.random.default_rng(0))  # build the array tables once, as a real run does
    best = 0.0
    for r in range(repeat):
        rng = np.random.default_rng(1234 + r)
        start = time.perf_counter()
        done = 0
        while done < n:
            size = min(chunk, n - done)
            resolve_chunk(setup, size, rng)
            done += size
        best = max(best, n / (time.perf_counter() - start))
    return best


def main() -> None:
    """Run the benchmark and print both rates and their ratio per scenario."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000, help="vectorised blows per run")
    parser.add_argument("--event-n", type=int, default=200_000, help="per-event blows per run")
    parser.add_argument("--chunk", type=int, default=65_536, help="blows per numpy call")
    parser.add_argument("--repeat", type=int, default=3, help="runs per scenario (best is reported)")
    args = parser.parse_args()
    catalog = default_catalog()
    body = catalog.bodies["human"]
    print(f"full blow pipeline, vectorised {args.n:,} blows per run in chunks of {args.chunk:,}, per-event "
          f"{args.event_n:,}, best of {args.repeat}, one core")
    for label, options in SCENARIOS:
        setup = BlowSetup.build(catalog, body=body, **options)  # type: ignore[arg-type]
        vector = vector_rate(setup, args.n, args.chunk, args.repeat)
        event = per_event_rate(setup, args.event_n, args.repeat)
        ratio = vector / event
        verdict = "meets" if vector >= TARGET and ratio >= RATIO else "BELOW"
        print(f"  {label:<48} vectorised {vector:>12,.0f}/s  per-event {event:>10,.0f}/s  x{ratio:5.1f}  "
              f"({verdict} the {TARGET:,}/s and x{RATIO:g} targets)")


if __name__ == "__main__":
    main()
