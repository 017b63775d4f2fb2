"""``OwnWorld``: the sandbox in an esper world the game owns, bound to it by name.

A game keeps its own esper world (its player, its loot chests, its own processors) and wants the sandbox's creatures
and rules in it. ``OwnWorld(world="dungeon", ...)`` registers the sandbox's systems there (once: a second install
into one world is refused) and is a ``Sandbox`` in every other way: spawn, step, readout, strike, save, load, fork,
each switching to its world around the call and back, so the game may have any world current when it calls. The
game's own entities are left alone, kept by id in a save, and restored by the game's ``SaveHook``.

    import esper
    from sandbox.own_world import OwnWorld

    esper.switch_world("dungeon")
    chest = esper.create_entity(Chest(gold=30))          # the game's own entity
    world = OwnWorld(seed=3, model="severity")             # into the current world, "dungeon"
    world.spawn("human", name="Aldric", team="Red")
    world.step()                                            # from any world current
    world.save("quick.json", hook=my_hook)                  # the chest keeps its id; my_hook.dump() under "game"
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import esper

from sandbox.config import Catalog, default_catalog
from sandbox.saves import SaveHook
from sandbox.systems.embedding import processors_for
from sandbox.systems.errors import SandboxError
from sandbox.systems.installs import refuse_second_install
from sandbox.systems.worlds import in_world
from sandbox.world import Sandbox

if TYPE_CHECKING:
    from sandbox.persistence import FrozenSandbox

__all__ = ["OccupiedWorldError", "OwnWorld"]


class OccupiedWorldError(SandboxError):
    """A save cannot be loaded into an esper world that holds entities already (their ids would clash)."""


class OwnWorld(Sandbox):
    """The sandbox's systems and creatures in an esper world the game owns (see the module docstring).

    Args:
        seed: Root seed; the same seed gives the same events.
        model: Damage model (default anatomy).
        world: The esper world's name (created when it does not exist); default: the current world.
        run: Run index under the seed.
        catalog: The configs to use (default: the shipped content extended by ``content``).
        check_invariants: Check the world's invariants after every tick (as ``Sandbox``).
        content: Content trees extending the shipped content, when no ``catalog`` is given.

    Raises:
        AlreadyInstalledError: The sandbox's systems run in that world already.
        SandboxError: Unknown model.
    """

    def __init__(self, seed: int = 0, model: str | None = None, *, world: str | None = None, run: int = 0,
                 catalog: Catalog | None = None, check_invariants: bool | None = None,
                 content: Sequence[str | Path] = ()) -> None:
        self._target = esper.current_world if world is None else world
        refuse_second_install(self._target)
        super().__init__(seed, model, run=run, catalog=catalog, check_invariants=check_invariants, content=content)

    def _esper_world(self) -> str:
        return self._target

    def _claim_world(self) -> None:
        """Nothing to clear: the world's entities are the game's. Remember which world it is (by its entity table).

        A game may delete its esper world and make a new one of the same name (a new level); closing this
        ``OwnWorld`` afterwards, or its collection, must then leave the new world alone. esper names a world's
        tables nowhere public, so its entity table (kept for the world's whole life) is the identity.
        """
        self._bound_tables = esper._entities

    def close(self) -> None:
        """Take the sandbox out of the world: its processors and its creatures; the game's entities stay."""
        if self._closed:
            return
        self._closed = True
        if self._world not in esper.list_worlds():
            return  # the game deleted its world: nothing of the sandbox's is left anywhere
        with in_world(self._world):
            if esper._entities is not self._bound_tables:
                return  # a new world under the same name (a new level): not this one's to touch
            for creature in self.ctx.creatures():
                esper.delete_entity(creature, immediate=True)
            for _, processor in processors_for(self.ctx):
                esper.remove_processor(type(processor))

    def freeze(self) -> FrozenSandbox:
        """The world as it is now; its copies and forks are private ``Sandbox`` worlds (the game's world is its own)."""
        return dataclasses.replace(super().freeze(), world_type=Sandbox)

    @classmethod
    def load(cls, path: str | Path, catalog: Catalog | None = None, content: Sequence[str | Path] = (),
             hook: SaveHook | None = None, *, world: str | None = None) -> OwnWorld:
        """Restore a save (of a ``Sandbox`` or an ``OwnWorld``) into esper world ``world`` (default: the current one).

        The world must hold no entity (the saved ids are recreated as they were, so its id counter starts afresh;
        the game's own processors may be there): the creatures come back at their ids, the game's entities as empty
        entities at theirs, and then ``hook.restore(data)`` runs with the world current to put the game's components
        back.

        Raises:
            OccupiedWorldError: The world holds entities already.
            AlreadyInstalledError: The sandbox's systems run in that world already.
            SaveError: A corrupt, truncated or wrong-version file; the world is left as it was.
        """
        from sandbox.persistence import load_world

        name = esper.current_world if world is None else world
        refuse_second_install(name)
        if name in esper.list_worlds():
            with in_world(name):
                if next(iter(esper.get_entities()), None) is not None:
                    raise OccupiedWorldError(f"cannot load into the esper world {name!r}: it holds entities "
                                             "already (load into an empty world; the save recreates every id)")
        catalog = catalog or default_catalog(content)
        # Checked in full in a private world first: a refused save then leaves the game's world untouched (esper
        # cannot give back the ids a half-done load would have taken there).
        Sandbox.load(path, catalog).close()
        with in_world(name):
            esper.clear_database()  # no entity in it: only its id counter starts afresh (its processors stay)
        loaded = load_world(Path(path), catalog, functools.partial(cls, world=name), hook)
        assert isinstance(loaded, OwnWorld)
        return loaded

