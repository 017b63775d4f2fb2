"""The viewer's speed, headless (the dummy video driver): frame times at 200 and 1,000 combatants, and scrubbing.

1. **Frames at 200 combatants** (the shipped ``battle``) and **at 1,000** (the battle scaled up: each of its
   combatants in five ranks, built in this script as a ``Sandbox`` a developer would build, and watched through
   ``Viewer(world)``). The loop is the window's: the worlds tick in the viewer's worker thread at the viewer's speed
   while frames are drawn at 60 a second (each frame is the input-free ``update`` and ``draw``; the loop then
   sleeps to the next frame's time, as ``pygame.time.Clock.tick`` does). Reported per frame: wall time and the
   drawing thread's CPU time (``time.thread_time``: what the frame itself costs, whatever else the shared machine
   runs), mean and worst. Targets (issue 16): a mean frame under 16.7 ms at 1,000 combatants (60 frames/s), no
   frame over 16.7 ms at 200.
2. **Scrubbing** a 200-tick skirmish (six against six with daggers, in mail: a fight that lasts, generated here):
   played to tick 200, then sent to 60 ticks in a seeded order (every distance from a snapshot included), each
   timed from the request to the scene of that tick being ready. Target: under 0.2 s each. Then the same for the
   200-combatant battle played to its end, the heavier case.

It reports numbers; it never fails on a slow machine.

Run: ``python benchmarks/viewer.py [--frames 900] [--speed 2] [--seeks 60]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # the drivers must be chosen first (above)

from sandbox.config import default_catalog
from sandbox.config.scenarios import load_scenario
from sandbox.viewer import Viewer
from sandbox.world import Sandbox

BUDGET_MS = 1000 / 60
"""One frame at 60 frames/s."""


def scaled_battle(ranks: int = 5, seed: int = 1) -> Sandbox:
    """The shipped battle with each combatant in ``ranks`` ranks (1,000 combatants for five)."""
    spec = load_scenario("battle", default_catalog())
    world = Sandbox(seed=seed, model=spec.model)
    world.max_ticks = spec.max_ticks
    middle = spec.field[0] / 2
    for c in spec.combatants:
        behind = -1.0 if c.position[0] < middle else 1.0  # each rank stands further from the enemy
        for rank in range(ranks):
            world.spawn(c.creature, name=f"{c.name} r{rank + 1}", team=c.team,
                        position=(c.position[0] + behind * 1.2 * rank, c.position[1]), armor=c.armor,
                        weapons=c.weapons, policy=c.policy, aim=c.aim)
    return world


def long_skirmish(seed: int = 2) -> Sandbox:
    """Six against six with daggers, in gambeson, mail and helm: a skirmish that lasts past 200 ticks."""
    world = Sandbox(seed=seed)
    world.max_ticks = 1000
    for i in range(6):
        for team, x in (("Red", 0.0), ("Blue", 6.0)):
            world.spawn("human", name=f"{team} {i + 1}", team=team, position=(x, 2.0 * i), weapons=["dagger"],
                        armor=["gambeson", "mail_hauberk", "helm"])
    return world


def frames(viewer: Viewer, count: int) -> tuple[list[float], list[float]]:
    """Run ``count`` frames at 60 a second; returns each frame's wall and drawing-thread CPU time (seconds)."""
    walls, cpus = [], []
    period = 1 / 60
    viewer.draw()
    last = time.perf_counter()
    deadline = last
    for _ in range(count):
        start, cpu = time.perf_counter(), time.thread_time()
        viewer.worker.frame_started()
        viewer.update(start - last)
        viewer.draw()
        viewer.worker.frame_done()
        end = time.perf_counter()
        walls.append(end - start)
        cpus.append(time.thread_time() - cpu)
        last = start
        deadline += period
        time.sleep(max(0.0, deadline - time.perf_counter()))
    viewer.worker.drain()
    return walls, cpus


def report(label: str, walls: list[float], cpus: list[float], target: str) -> None:
    """Print one line of frame times."""
    def ms(x: float) -> str:
        return f"{1000 * x:.2f} ms"

    over = sum(1 for w in walls if 1000 * w > BUDGET_MS)
    print(f"{label}: {len(walls)} frames; wall mean {ms(statistics.fmean(walls))}, worst {ms(max(walls))} "
          f"({over} over {BUDGET_MS:.1f} ms); drawing-thread CPU mean {ms(statistics.fmean(cpus))}, worst "
          f"{ms(max(cpus))}; mean = {1 / statistics.fmean(walls):.0f} frames/s possible "
          f"({1000 * statistics.fmean(walls) / BUDGET_MS:.0%} of a 60 frames/s frame); target: {target}")


def scrubbing(label: str, world: Sandbox, ticks: int, seeks: int) -> None:
    """Play ``world`` for ``ticks`` ticks in a viewer, then time ``seeks`` scrubs to seeded random ticks."""
    viewer = Viewer(world, size=(1280, 800))
    try:
        for _ in range(ticks):
            if viewer.panes[0].shown.scene.finished:
                break
            viewer.tick_once()
        played = viewer.panes[0].shown.played
        order = list(range(viewer.panes[0].shown.start, played + 1))
        random.Random(16).shuffle(order)
        walls, cpus = [], []
        for tick in order[:seeks]:
            start, cpu = time.perf_counter(), time.process_time()
            viewer.seek(tick)
            viewer.worker.drain()
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            assert viewer.tick == tick
        print(f"{label}: {len(world.names)} combatants, {played} ticks played, {len(walls)} scrubs: wall mean "
              f"{1000 * statistics.fmean(walls):.0f} ms, worst {1000 * max(walls):.0f} ms; CPU mean "
              f"{1000 * statistics.fmean(cpus):.0f} ms, worst {1000 * max(cpus):.0f} ms; worst = "
              f"{max(walls) / 0.2:.0%} of the 0.2 s target")
    finally:
        viewer.close()


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=900, help="frames per run (60 a second)")
    parser.add_argument("--speed", type=float, default=2.0, help="ticks of game time per wall second (the viewer's "
                                                                 "default)")
    parser.add_argument("--seeks", type=int, default=60, help="scrubs to time")
    args = parser.parse_args()
    pygame.display.init()
    pygame.display.set_mode((1, 1))

    battle = Viewer("battle", seed=1, threaded=True, speed=args.speed)
    try:
        walls, cpus = frames(battle, args.frames)
        report(f"200 combatants (battle), {args.speed:g} ticks/s, reached tick {battle.tick}", walls, cpus,
               f"no frame over {BUDGET_MS:.1f} ms")
    finally:
        battle.close()

    big = Viewer(scaled_battle(), threaded=True, speed=args.speed)
    try:
        walls, cpus = frames(big, args.frames)
        report(f"1,000 combatants (battle in five ranks), {args.speed:g} ticks/s, reached tick {big.tick}", walls,
               cpus, f"a mean under {BUDGET_MS:.1f} ms (60 frames/s)")
    finally:
        big.close()
        if big.world is not None:
            big.world.close()

    skirmish = long_skirmish()
    try:
        scrubbing("Scrubbing a 200-tick skirmish", skirmish, 200, args.seeks)
    finally:
        skirmish.close()
    world = Sandbox.from_scenario("battle", seed=1)
    try:
        scrubbing("Scrubbing the battle", world, 300, args.seeks)
    finally:
        world.close()


if __name__ == "__main__":
    main()
