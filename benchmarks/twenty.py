"""The 20-creature fight the HUD and options benchmarks measure against (one tick of it is their yardstick)."""

from __future__ import annotations

from sandbox.world import Sandbox

__all__ = ["LOADOUTS", "MODELS", "PER_SIDE", "fight"]

MODELS = ("anatomy", "severity", "depth", "strength", "status")
PER_SIDE = 10
LOADOUTS = ((["broadsword"], ["gambeson", "mail_hauberk"]), (["battleaxe"], ["gambeson"]),
            (["spear"], ["leather"]), (["mace", "round_shield"], ["gambeson", "helm"]))


def fight(model: str, seed: int) -> Sandbox:
    """Twenty humans in two facing lines, each armed and armoured from ``LOADOUTS`` in turn."""
    world = Sandbox(seed=seed, model=model)
    for side, (team, x) in enumerate((("Red", 0.0), ("Blue", 2.0))):
        for i in range(PER_SIDE):
            weapons, armor = LOADOUTS[(i + side) % len(LOADOUTS)]
            world.spawn("human", name=f"{team} {i}", team=team, position=(x, 1.5 * i), weapons=weapons, armor=armor)
    return world
