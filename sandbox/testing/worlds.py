"""Seeded worlds for tests, built by one factory that closes every world it built when the test is done."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sandbox.config.content import ScenarioRef
from sandbox.world import Sandbox

__all__ = ["WorldFactory"]


class WorldFactory:
    """Builds worlds (``make_world("duel", seed=3, model="severity")``) and closes them all on ``close``.

    Args:
        content: Content trees every world it builds extends the shipped content with (a game's own folder:
            the ``sandbox_content`` ini option of the pytest plugin), before any a call adds.
    """

    def __init__(self, content: Sequence[str | Path] = ()) -> None:
        self.content: tuple[str | Path, ...] = tuple(content)
        self.worlds: list[Sandbox] = []
        """Every world built, in order."""

    def __call__(self, scenario: str | Path | ScenarioRef | None = None, seed: int = 0, model: str | None = None,
                 content: Sequence[str | Path] = (), *, run: int = 0) -> Sandbox:
        """A world: a scenario's (by id, path or ``ScenarioRef``), or an empty one to ``spawn`` into.

        Args:
            scenario: The scenario (an id of the shipped content or of ``content``, a TOML path, one inside a
                content tree bringing its tree), or ``None`` for a world with no creatures.
            seed: Root seed (the same seed, the same events).
            model: Damage model (default: the scenario's, or anatomy).
            content: Content trees added to the factory's own for this world.
            run: Run index under the seed.

        Raises:
            SandboxError: An unknown model, or a combatant the world cannot spawn.
            ConfigError: The scenario or the content is invalid or unknown.
        """
        trees = (*self.content, *content)
        if scenario is None:
            world = Sandbox(seed, model, run=run, content=trees)
        else:
            world = Sandbox.from_scenario(scenario, seed, model, run=run, content=trees)
        self.worlds.append(world)
        return world

    def close(self) -> None:
        """Close every world built (a closed one is passed over)."""
        for world in self.worlds:
            world.close()
        self.worlds.clear()
