"""What a save keeps beside the sandbox's creatures: the game's own entities' ids and the game's own data.

A world the game shares with the sandbox holds entities the sandbox does not know (a loot chest, a door, a HUD
marker). Their components are the game's, but their ids are part of the world: a spawn after a load must never hand
out a chest's id, and a save the sandbox wrote must load whatever ids the game used. So a save records:

- ``reserved``: the ids of the entities that are no creature of the sandbox; a load recreates each, empty, at its id
  (the game's hook then puts its components back on them);
- ``next_entity``: the id esper hands out next (ids the game deleted stay unused after a load, as they were);
- ``game``: what the game's ``SaveHook.dump()`` returned (``None`` without a hook).

esper hands out ids only in order, so a load creates the entities in id order: the creatures from their rows, the
reserved ones empty, and each deleted id created and deleted again at once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import esper

from sandbox.systems.errors import SandboxError
from sandbox.systems.saved import is_int, need

if TYPE_CHECKING:
    from sandbox.world import Sandbox

__all__ = ["MAX_ENTITY_ID", "ClosedWorldError", "EntityPlacer", "GameDataError", "SaveHook", "entity_layout",
           "next_entity"]

MAX_ENTITY_ID = 10_000_000
"""The largest entity id a save may hold (a load creates every id below it in turn)."""


class SaveHook(Protocol):
    """A game's own part of a save: one call each way, kept under the save's ``game`` key (no sidecar file).

    ``dump`` is called with the world current, while it is saved; ``restore`` with the loaded world current, after
    the sandbox's part (creatures, reserved entities) is back, so ``esper.add_component(chest_id, Chest(...))`` puts
    a component back on its reserved entity.
    """

    def dump(self) -> Any:
        """The game's data: anything ``json.dumps`` can write (tables, lists, text, numbers, booleans, null)."""
        ...

    def restore(self, data: Any) -> None:
        """Put the game's data back (``data`` is what ``dump`` returned, read back from JSON; ``None``: none saved)."""
        ...


class ClosedWorldError(SandboxError):
    """The world is closed: it cannot be forked, read or changed."""


class GameDataError(SandboxError):
    """The game's ``SaveHook.dump()`` returned something a JSON save cannot hold."""


def next_entity() -> int:
    """The id esper hands out next in the current world, without taking it.

    esper keeps its id counter (an ``itertools.count``) private and offers no way to read it; ``repr`` of a count
    is ``count(N)`` in every Python this project supports. Creating an entity to learn it would change the world.
    """
    counter = getattr(esper, "_entity_count", None)
    found = re.fullmatch(r"count\((\d+)\)", repr(counter))
    if found is not None:
        return int(found.group(1))
    return max(esper.get_entities(), default=0) + 1  # a later esper: at least never below an id in use


def entity_layout(world: Sandbox) -> dict[str, Any]:
    """``reserved`` (the ids of entities that are no creature) and ``next_entity`` of ``world``, as saved."""
    with world.active():
        creatures = world.ctx.creatures()
        reserved = sorted(e for e in esper.get_entities() if e not in creatures)
        return {"reserved": reserved, "next_entity": next_entity()}


class EntityPlacer:
    """Recreates a saved world's entities in id order while its creatures are restored.

    Args:
        world: The world being loaded (empty).
        reserved: The save's ``reserved`` ids (checked here).
        upto: The save's ``next_entity`` (``None``: an older save without it; the largest id in use then).
    """

    def __init__(self, world: Sandbox, reserved: Any, upto: Any) -> None:
        need(isinstance(reserved, list) and all(is_int(e) and 1 <= e < MAX_ENTITY_ID for e in reserved)
             and reserved == sorted(set(reserved)), "reserved", f"entity ids in ascending order, from 1 to "
             f"{MAX_ENTITY_ID - 1:,}", reserved)
        if upto is not None:
            need(is_int(upto) and 1 <= upto <= MAX_ENTITY_ID and all(e < upto for e in reserved), "next_entity",
                 f"an entity id above every reserved one, at most {MAX_ENTITY_ID:,}", upto)
        self.world = world
        self.reserved = frozenset(reserved)
        self.last: int = max(reserved, default=0)
        self.upto: int | None = upto

    def before(self, row: Any, where: str) -> None:
        """Create the entities below the creature ``row`` restores next (a row with a bad id is left to its check)."""
        entity = row.get("id") if isinstance(row, dict) else None
        if type(entity) is not int:  # not is_int: mypy narrows on the type test
            return
        limit = self.upto if self.upto is not None else MAX_ENTITY_ID
        need(entity < limit and entity not in self.reserved, f"{where}.id",
             f"an entity id below {limit:,} (the save's next_entity) and not reserved", entity)
        self._fill(entity)

    def finish(self) -> None:
        """Create the entities after the last creature: the reserved ones, and the ids handed out since."""
        self._fill(self.last + 1 if self.upto is None else int(self.upto))

    def _fill(self, below: int) -> None:
        with self.world.active():
            for _ in range(next_entity(), below):
                created = esper.create_entity()
                if created not in self.reserved:
                    esper.delete_entity(created, immediate=True)  # an id the game had deleted: taken, not reused
