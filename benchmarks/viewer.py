"""Frames per second of the viewer on the 200-combatant battle, headless (the dummy video driver).

Each frame is what a window frame costs: the simulation's fixed-timestep update plus drawing the field, the
body panel and the trace. Target (issue 6): 60 frames per second at 200 combatants. It reports numbers; it
never fails on a slow machine.

Run: ``python benchmarks/viewer.py [--frames 600] [--speed 2]``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # the drivers must be chosen first (above)

from sandbox.viewer import Viewer


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--speed", type=float, default=2.0, help="ticks of game time per wall second")
    parser.add_argument("--scenario", default="battle")
    args = parser.parse_args()
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    viewer = Viewer(args.scenario, seed=1)
    viewer.speed_index = min(range(7), key=lambda i: abs((0.5, 1, 2, 4, 8, 16, 32)[i] - args.speed))
    count = len(viewer.world.creatures())
    worst = 0.0
    start = time.perf_counter()
    for _ in range(args.frames):
        t = time.perf_counter()
        viewer.update(1 / 60)
        viewer.draw()
        worst = max(worst, time.perf_counter() - t)
    elapsed = time.perf_counter() - start
    fps = args.frames / elapsed
    print(f"{count} combatants, {args.frames} frames at {args.speed:g} ticks/s: {fps:,.0f} frames/s "
          f"({'meets' if fps >= 60 else 'BELOW'} the 60 target), slowest frame {worst * 1000:.1f} ms, "
          f"tick {viewer.world.tick}")


if __name__ == "__main__":
    main()
