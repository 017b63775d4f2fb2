"""CPU time of one outcome preview (``Sandbox.preview``), per damage model.

Each call sums every roll of one attack exactly: the attack roll, the damage or impact dice, every location and
every test that follows. Target (issue 32): under 5 ms CPU per preview, under every model.

Run: ``python benchmarks/preview.py [--n 300] [--repeat 3]``. It reports process CPU time per call (best of
``repeat``); it never fails on a slow machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from sandbox import Sandbox

TARGET_MS = 5.0
MODELS = ("anatomy", "severity", "depth", "strength", "status")


def _wounded(world: Sandbox) -> None:
    """Wound the target as each model inflicts a wound with no roll."""
    model = world.model
    if model == "anatomy":
        world.inflict("Bertram", location="Thorax", level="S3", aspect="edged")
    elif model == "depth":
        world.inflict("Bertram", level="bone", location="Left Thigh", aspect="cutting")
    elif model == "severity":
        world.inflict("Bertram", severity=2, effect="bloody")
    else:
        world.inflict("Bertram", damage=4)


CASES: list[tuple[str, str, str, str, str, Callable[[Sandbox], None] | None]] = [
    # label, attacker creature, target creature, mode, aim, set-up
    ("broadsword.cut vs mail+helm, unaimed", "human", "human", "broadsword.cut", "unaimed", None),
    ("battleaxe.cut vs a wounded man, aimed at the head", "human", "human", "battleaxe.cut", "Head", _wounded),
    ("spear.impale vs a fire dragon, unaimed", "human", "fire_dragon", "spear.impale", "unaimed", None),
    ("a fire dragon's breath vs mail+helm, unaimed", "fire_dragon", "human", "dragon.breath", "unaimed", None),
]


def world_for(model: str, attacker: str, target: str, setup: Callable[[Sandbox], None] | None) -> Sandbox:
    """An attacker (a man with broadsword, battleaxe and spear, or a creature with its own) and a target."""
    world = Sandbox(seed=7, model=model)
    weapons = ["broadsword", "battleaxe", "spear"] if attacker == "human" else None
    world.spawn(attacker, name="Aldric", team="Red", weapons=weapons, armor=[] if attacker == "human" else None)
    armor = ["gambeson", "mail_hauberk", "helm"] if target == "human" else None
    world.spawn(target, name="Bertram", team="Blue", position=(1.0, 0.0), armor=armor)
    if setup is not None:
        setup(world)
    return world


def measure(n: int, repeat: int) -> list[tuple[str, str, float]]:
    """Best-of-``repeat`` CPU milliseconds per preview for each model and case."""
    results = []
    for model in MODELS:
        for label, attacker, target, mode, aim, setup in CASES:
            with world_for(model, attacker, target, setup) as world:
                world.preview("Aldric", "Bertram", mode, aim)  # the compiled tables, once per world
                best = float("inf")
                for _ in range(repeat):
                    start = time.process_time()
                    for _ in range(n):
                        world.preview("Aldric", "Bertram", mode, aim)
                    best = min(best, (time.process_time() - start) / n * 1e3)
            results.append((model, label, best))
    return results


def main() -> None:
    """Run the benchmark and print CPU milliseconds per preview."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="previews per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is reported)")
    args = parser.parse_args()
    print(f"outcome preview, {args.n} calls per run, best of {args.repeat}, CPU time per call")
    for model, label, ms in measure(args.n, args.repeat):
        verdict = "meets" if ms < TARGET_MS else "ABOVE"
        print(f"  {model:<9} {label:<50} {ms:>7.3f} ms  ({verdict} the {TARGET_MS:g} ms target)")


if __name__ == "__main__":
    main()
