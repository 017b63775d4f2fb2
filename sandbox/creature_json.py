"""One creature to and from JSON: a hero carried from one world to the next, wounds, conditions and gear included.

The creature's part is exactly a save's row for it (``persistence._entity_dict``, read back by the same checks),
without its entity id and its target (both mean something in its old world only), wrapped with the format, the
version, the damage model and the body it was made under: the model's state only means something under its own
model, and a body id of another content would put the wounds on parts the body here does not have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sandbox.persistence import ENTITY_KEYS, _entity_components, _entity_dict
from sandbox.systems.creatures import Creature
from sandbox.systems.errors import SandboxError
from sandbox.systems.invariants import Tracker, check

if TYPE_CHECKING:
    from sandbox.world import Entity, Sandbox

__all__ = ["CREATURE_FORMAT", "CREATURE_KEYS", "CREATURE_VERSION", "CreatureDataError", "add_creature",
           "creature_document"]

CREATURE_FORMAT = "combat-sandbox-creature"
CREATURE_VERSION = 1
CREATURE_KEYS = ("format", "version", "model", "body", "creature")
"""The keys of a creature's JSON, every one required."""
ROW_KEYS = tuple(k for k in ENTITY_KEYS if k != "id")


class CreatureDataError(SandboxError):
    """Creature JSON this world cannot take: of another model or content, tampered, or a name already taken."""


def creature_document(world: Sandbox, creature: Creature) -> dict[str, Any]:
    """``creature`` of ``world`` as JSON-ready data (``Sandbox.creature_to_json``)."""
    with world.active():
        row = _entity_dict(creature, world.damage_model)
    del row["id"]
    row["combatant"]["target"] = -1  # an entity of the old world
    return {"format": CREATURE_FORMAT, "version": CREATURE_VERSION, "model": world.model,
            "body": creature.anatomy.body.id, "creature": row}


def add_creature(world: Sandbox, data: Mapping[str, Any], *, name: str | None = None, team: str | None = None,
                 position: Sequence[float] | None = None) -> Entity:
    """Add the creature ``data`` describes to ``world`` (``Sandbox.add_creature``); returns its entity.

    Raises:
        CreatureDataError: Naming the problem; the world is unchanged.
    """
    row = _checked_row(world, data)
    if name is not None:
        row["identity"] = {**_table(row.get("identity")), "name": name}
    if team is not None:
        row["combatant"] = {**_table(row.get("combatant")), "team": team}
    if position is not None:
        row["position"] = list(position)
    combatant = row.get("combatant")
    if isinstance(combatant, dict) and combatant.get("target") != -1:
        raise CreatureDataError(f"creature.combatant.target: expected -1 (no target in a new world), found "
                                f"{combatant.get('target')!r}")
    try:
        components = _entity_components(world, row, world.catalog, "creature", set(), ROW_KEYS)
    except ValueError as exc:  # StateError, SaveError, ModelError: each names the key it refuses
        raise CreatureDataError(str(exc)) from None
    # The invariants are checked on the record before the entity exists, so a refusal leaves even esper's id
    # counter as it was.
    record = Creature(0, *components[:7], world.damage_model.bind(components[7:]))  # type: ignore[arg-type, call-arg]
    with world.active():
        breaches = check({0: record}, world.ctx, Tracker())
    if breaches:
        raise CreatureDataError("creature: a state no fight reaches: " + "; ".join(breaches[:5]))
    return world.adopt(*components)


def _table(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _checked_row(world: Sandbox, data: Any) -> dict[str, Any]:
    """The creature's row from ``data``, once the wrapper says it is of this world's model and content."""
    if not isinstance(data, Mapping) or data.get("format") != CREATURE_FORMAT:
        raise CreatureDataError(f"not a creature's JSON (no '\"format\": \"{CREATURE_FORMAT}\"')")
    unknown = sorted(str(k) for k in data if k not in CREATURE_KEYS)
    missing = [k for k in CREATURE_KEYS if k not in data]
    if unknown or missing:
        problems = ([f"unknown: {', '.join(unknown)}"] if unknown else []) + (
            [f"missing: {', '.join(missing)}"] if missing else [])
        raise CreatureDataError(f"creature JSON: expected the keys {', '.join(CREATURE_KEYS)}; "
                                + "; ".join(problems))
    if type(data["version"]) is not int or data["version"] != CREATURE_VERSION:
        raise CreatureDataError(f"creature JSON version {data['version']!r}; this sandbox reads version "
                                f"{CREATURE_VERSION}")
    if data["model"] != world.model:
        raise CreatureDataError(f"model: a creature of the {data['model']!r} model cannot join a world under the "
                                f"{world.model!r} model (its wounds mean something under its own model only)")
    row = data["creature"]
    if not isinstance(row, dict):
        raise CreatureDataError(f"creature: expected a table of the creature, found {type(row).__name__}")
    identity = row.get("identity")
    kind_id = identity.get("creature") if isinstance(identity, dict) else None
    kind = world.catalog.creatures.get(kind_id) if isinstance(kind_id, str) else None
    if kind is None:
        raise CreatureDataError(f"creature.identity.creature: expected a creature this world's content defines, "
                                f"found {kind_id!r}")
    if data["body"] != kind.body:
        raise CreatureDataError(f"body: the creature was made with the body {data['body']!r}; this world's "
                                f"{kind.id!r} has the body {kind.body!r} (another content)")
    return dict(row)

