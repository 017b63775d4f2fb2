"""Embedding the combat rules in your own game loop: your esper world, your main loop, no ``sandbox.Sandbox``.

A game developer's prototype owns its world and its loop. It borrows the data (``sandbox.config`` loads the TOML
definitions, ``sandbox.models`` a damage model with its tables), installs the sandbox's processors into its own esper
world with one call (``sandbox.systems.install``: the shared skirmish loop and the model's own processors, bleeding and
shock recovery included, in their named phases, with the sandbox's seeded streams), builds creatures with the function
``Sandbox.spawn`` uses (``sandbox.systems.spawning.creature_components``), and ticks.

Run it: ``python examples/embed.py [MODEL]`` (anatomy, severity, depth, strength or status).
"""

from __future__ import annotations

import sys

import esper

from sandbox.components.events import Event
from sandbox.config import default_catalog
from sandbox.models import build_model
from sandbox.systems import install
from sandbox.systems.ending import fighting_teams
from sandbox.systems.spawning import creature_components

FIGHTERS = (("Gawain", "Round Table", (0.0, 0.0), "mace"), ("Green Knight", "Green Chapel", (4.0, 0.0), "battleaxe"))
"""Who fights: name, team, position, weapon (each a shipped human in gambeson and helm)."""


def fight(seed: int = 7, model: str = "anatomy", max_ticks: int = 60, quiet: bool = False
          ) -> tuple[str | None, list[Event]]:
    """Run a duel in a world of our own under ``model``: the winning team (or None) and every event."""
    catalog = default_catalog()
    esper.switch_world("my-game")
    try:
        ctx = install(build_model(model, catalog), catalog, seed=seed)
        for name, team, position, weapon in FIGHTERS:
            esper.create_entity(*creature_components(catalog, ctx.model, "human", name, team=team,
                                                     position=position, weapons=[weapon],
                                                     armor=["gambeson", "helm"]))
        names = {entity: c.name for entity, c in ctx.creatures().items()}
        shown = 0
        teams = fighting_teams(ctx.creatures().values())
        while len(teams) > 1 and ctx.clock.tick < max_ticks:
            esper.process()  # one tick, every phase in order
            for entry in ctx.log[shown:]:
                line = entry.summary(names) if entry.headline else None
                if line and not quiet:
                    print(f"tick {entry.tick}: {line}")
            shown = len(ctx.log)
            teams = fighting_teams(ctx.creatures().values())
        winner = teams[0] if len(teams) == 1 else None
        if not quiet:
            print(f"after {ctx.clock.tick} ticks under the {model} model: {winner or 'no winner'}")
        return winner, [event for entry in ctx.log for event in entry.events()]
    finally:
        esper.switch_world("default")
        esper.delete_world("my-game")


def main(seed: int = 7, model: str = "anatomy", max_ticks: int = 60, quiet: bool = False) -> str | None:
    """Run the duel and print it; returns the winning team (or None)."""
    return fight(seed, model, max_ticks, quiet)[0]


if __name__ == "__main__":
    main(model=sys.argv[1] if len(sys.argv) > 1 else "anatomy")
