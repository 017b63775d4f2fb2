"""One creature to and from JSON: a hero carried from one world to the next, wounds, conditions and gear included.

The creature's part is exactly a save's row for it (``persistence._entity_dict``, read back by the same checks),
without its entity id and its target (both mean something in its old world only), wrapped with the format, the
version, the damage model and the body it was made under: the model's state only means something under its own
model, and a body id of another content would put the wounds on parts the body here does not have.

It records its world's clock too (``seconds`` and ``tick``): the state's game times (a wound's next bleeding, a
death clock) are times of that world, and ``add_creature`` moves every one by the difference of the clocks (each
model's ``DamageModel.shift_times``), so what was due an hour after the carry is due an hour after it in the new
world as well. JSON without its clock is refused naming the key: read as of the same clock, a hero carried from day
30 into a new world would bleed, heal and die a month late.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sandbox.components.state import Anatomy, Armor, Identity
from sandbox.persistence import ENTITY_KEYS, _entity_components, _entity_dict
from sandbox.systems.creatures import Creature
from sandbox.systems.errors import SandboxError
from sandbox.systems.invariants import Tracker, check
from sandbox.systems.saved import LARGEST, StateError, need, number
from sandbox.systems.time_shift import TimeShift

if TYPE_CHECKING:
    from sandbox.world import Entity, Sandbox

__all__ = ["CREATURE_FORMAT", "CREATURE_KEYS", "CREATURE_VERSION", "CreatureDataError", "add_creature",
           "creature_document"]

CREATURE_FORMAT = "combat-sandbox-creature"
CREATURE_VERSION = 1
CREATURE_KEYS = ("format", "version", "model", "body", "clock", "creature")
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
    clock = world.ctx.clock
    return {"format": CREATURE_FORMAT, "version": CREATURE_VERSION, "model": world.model,
            "body": creature.anatomy.body.id, "clock": {"seconds": clock.seconds, "tick": clock.tick},
            "creature": row}


def add_creature(world: Sandbox, data: Mapping[str, Any], *, name: str | None = None, team: str | None = None,
                 position: Sequence[float] | None = None) -> Entity:
    """Add the creature ``data`` describes to ``world`` (``Sandbox.add_creature``); returns its entity.

    Its game times move from the clock ``data`` records to ``world``'s (``DamageModel.shift_times``).

    Raises:
        CreatureDataError: Naming the problem; the world is unchanged.
    """
    row = _checked_row(world, data)
    shift = _shift(world, data["clock"])
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
    components = (*components[:7], *_shifted_state(world, components, shift))
    # The invariants are checked on the record before the entity exists, so a refusal leaves even esper's id
    # counter as it was.
    record = Creature(0, *components[:7], world.damage_model.bind(components[7:]))  # type: ignore[arg-type, call-arg]
    with world.active():
        breaches = check({0: record}, world.ctx, Tracker())
    if breaches:
        raise CreatureDataError("creature: a state no fight reaches: " + "; ".join(breaches[:5]))
    return world.adopt(*components)


def _shift(world: Sandbox, clock: Any) -> TimeShift:
    """From the clock the creature's JSON records to ``world``'s."""
    try:
        need(isinstance(clock, dict) and sorted(clock) == ["seconds", "tick"], "clock",
             "a table of the old world's seconds and tick", clock)
        seconds = number("clock.seconds", clock["seconds"], 0, LARGEST)
        tick = int(number("clock.tick", clock["tick"], 0, LARGEST, whole=True))
    except StateError as exc:
        raise CreatureDataError(str(exc)) from None
    now = world.ctx.clock
    return TimeShift.between(seconds, tick, now.seconds, now.tick)


def _shifted_state(world: Sandbox, components: tuple[object, ...], shift: TimeShift) -> tuple[object, ...]:
    """The model state of ``components`` with its times moved, read back as a save of ``world`` would read it.

    Reading it back is what keeps a save of the new world loadable: a time moved past what a save may hold is
    refused here, naming it, rather than in that save.
    """
    model = world.damage_model
    state = model.shift_times(components[7:], shift)
    ident, anat, armor = components[0], components[1], components[2]
    assert isinstance(ident, Identity) and isinstance(anat, Anatomy) and isinstance(armor, Armor)
    record = Creature(0, *components[:7], model.bind(state))  # type: ignore[arg-type, call-arg]
    try:
        model.load_state(model.dump_state(record), world.catalog.creatures[ident.creature], anat.body,
                         armor.pieces)
    except ValueError as exc:  # StateError, ModelError
        raise CreatureDataError(f"creature.model_state, its times moved to this world's clock: {exc}") from None
    return state


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

