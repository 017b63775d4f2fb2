"""Saving and loading a whole world as versioned JSON.

A save holds every entity's components (definitions by config id), the clock, every generator's state and the
event log, so a world saved at tick k and continued gives exactly the events the uninterrupted run would have.
Writing is atomic (a temporary file in the same folder, then a rename), so a crash never leaves half a file.
Loading builds a complete new world before returning it: a bad file raises ``SaveError`` and leaves nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from components.care import CarePolicy
from components.events import event_from_dict
from components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position
from sandbox.config import Catalog
from sandbox.eventlog import expand_log
from sandbox.files import atomic_text
from systems.creatures import Creature
from systems.models import DamageModel, ModelError

if TYPE_CHECKING:
    from sandbox.world import Sandbox

FORMAT = "combat-sandbox-save"
VERSION = 2
"""Version 2: the damage model's state (under the anatomy model, ``Injury`` and ``Shock``) is saved by the model
itself under ``model_state``; version 1 saved the anatomy model's wounds for every creature."""


class SaveError(ValueError):
    """A save file that cannot be loaded: corrupt, truncated, of another version, or naming unknown configs."""


def _stream_state(rng: Any) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _entity_dict(c: Creature, model: DamageModel) -> dict[str, Any]:
    ident, anat, armor, cond, comb, pos, equip = (c.identity, c.anatomy, c.armor, c.condition, c.combatant,
                                                 c.position, c.equipment)
    return {
        "id": c.entity,
        "identity": {"name": ident.name, "creature": ident.creature},
        "traits": {"mls": dict(anat.mls), "attributes": dict(anat.attributes), "speed": anat.speed},
        "armor": [p.id for p in armor.pieces],
        "condition": {"dead": cond.dead, "cause": cond.cause, "prone": cond.prone,
                      "immobilized": sorted(cond.immobilized), "busy": cond.busy, "reeling": cond.reeling,
                      "out": cond.out},
        "combatant": {"team": comb.team, "policy": comb.policy, "aim": comb.aim, "initiative": comb.initiative,
                      "target": comb.target, "mode": comb.mode, "aim_zone": comb.aim_zone, "action": comb.action},
        "position": [pos.x, pos.y],
        "equipment": {"weapons": equip.weapons, "natural": equip.natural,
                      "holding": {str(k): v for k, v in equip.holding.items()}, "dropped": equip.dropped,
                      "lost": equip.lost},
        "model_state": model.dump_state(c),
    }


def save_world(world: Sandbox, path: Path) -> None:
    """Write ``world`` to ``path`` atomically."""
    text = json.dumps(world_document(world), separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_text(path) as fh:
        fh.write(text)


def world_document(world: Sandbox, *, events: bool = True) -> dict[str, Any]:
    """What a save holds, as JSON-ready data (``events=False`` leaves the log out: the viewer's in-memory
    snapshots keep the log themselves)."""
    model = world.damage_model
    entities = [_entity_dict(c, model) for c in world.creatures().values()]
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "seed": world.seed,
        "lineage": list(world.lineage),
        "run": world.run_index,
        "model": world.model,
        "scenario": world.scenario.id if world.scenario else None,
        "max_ticks": world.max_ticks,
        "care": {"first_aid_delay": world.care.first_aid_delay,
                 "healers": list(world.care.healers) if world.care.healers is not None else None,
                 "self_care": world.care.self_care},
        "clock": {"tick": world.ctx.clock.tick, "seconds_per_tick": world.ctx.clock.seconds_per_tick,
                  "seconds": world.ctx.clock.seconds},
        "streams": {name: _stream_state(rng) for name, rng in world.ctx.streams.items()},
        "entities": entities,
        "events": [e.to_dict() for e in expand_log(world.ctx.log)] if events else [],
    }
    return doc


def _no_constant(name: str) -> Any:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``: Python's json reads them, but no save holds them."""
    raise ValueError(f"expected finite numbers, found {name}")


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a sandbox save (not UTF-8 text)") from None
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: corrupt or truncated save (invalid JSON at line {exc.lineno}, column "
                        f"{exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise SaveError(f"{path}: not a sandbox save (JSON nested too deeply)") from None
    except ValueError as exc:
        raise SaveError(f"{path}: corrupt save ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{path}: not a sandbox save (no '\"format\": \"{FORMAT}\"')")
    if doc.get("version") != VERSION:
        raise SaveError(f"{path}: save version {doc.get('version')!r}; this sandbox reads version {VERSION} "
                        "(a save of version 1 predates the models' own state: run its fight again)")
    return doc


def load_world(path: Path, catalog: Catalog, world_type: type[Sandbox]) -> Sandbox:
    """Rebuild a world of ``world_type`` from a save (see ``Sandbox.load``)."""
    return world_from_document(_read(path), catalog, world_type, path)


def world_from_document(doc: dict[str, Any], catalog: Catalog, world_type: type[Sandbox],
                        path: Path | str = "snapshot") -> Sandbox:
    """Rebuild a world of ``world_type`` from what ``world_document`` gave (``path`` names it in errors).

    Raises:
        SaveError: The document does not describe a world (nothing is half-built).
    """
    world: Sandbox | None = None
    at = ["the header"]  # the part of the save being restored, named in errors
    try:
        world = world_type(int(doc["seed"]), str(doc["model"]), run=int(doc["run"]), catalog=catalog)
        lineage = doc.get("lineage", [])
        if not isinstance(lineage, list) or not all(isinstance(x, str) for x in lineage):
            raise SaveError("lineage: expected a list of world ids")
        world.lineage = (world.uid, *lineage)
        if doc.get("scenario"):
            world.scenario = catalog.scenarios.get(doc["scenario"])
        world.max_ticks = int(doc.get("max_ticks", world.max_ticks))
        care = doc["care"]
        world.care = CarePolicy(care["first_aid_delay"], tuple(care["healers"]) if care["healers"] is not None
                                else None, bool(care["self_care"]))
        at[0] = "clock"
        world.ctx.clock.tick = int(doc["clock"]["tick"])
        world.ctx.clock.seconds_per_tick = float(doc["clock"]["seconds_per_tick"])
        world.ctx.clock.seconds = float(doc["clock"]["seconds"])
        at[0] = "streams"
        for name, state in doc["streams"].items():
            rng = world.ctx.streams[name]
            assert isinstance(rng, random.Random)
            rng.setstate((state[0], tuple(state[1]), state[2]))
        for i, row in enumerate(doc["entities"]):
            at[0] = f"entities.{i}"
            _restore_entity(world, row, catalog, at)
        at[0] = "events"
        world.ctx.log.extend(event_from_dict(e) for e in doc["events"])
        return world
    except SaveError as exc:
        if world is not None:
            world.close()
        message = str(exc)
        raise SaveError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as exc:  # SandboxError too
        if world is not None:
            world.close()
        detail = f"missing {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise SaveError(f"{path}: corrupt save at {at[0]} ({type(exc).__name__}: {detail})") from None


def _restore_entity(world: Sandbox, row: dict[str, Any], catalog: Catalog, at: list[str]) -> None:
    where = at[0]
    if not isinstance(row, dict):
        raise SaveError(f"{where}: expected an entity table, found {type(row).__name__}")
    at[0] = f"{where}.identity"
    ident = Identity(row["identity"]["name"], row["identity"]["creature"])
    kind = catalog.creatures.get(ident.creature)
    if kind is None:
        raise SaveError(f"the save names creature {ident.creature!r}, which the configs do not define")
    body = catalog.bodies[kind.body]
    at[0] = f"{where}.traits"
    a = row["traits"]
    anat = Anatomy(body, kind, dict(a["mls"]), dict(a["attributes"]), float(a["speed"]))
    at[0] = f"{where}.armor"
    for armor_id in row["armor"]:
        if armor_id not in catalog.armor:
            raise SaveError(f"the save names armour {armor_id!r}, which the configs do not define")
    armor = Armor(tuple(catalog.armor[i] for i in row["armor"]))
    at[0] = f"{where}.condition"
    c = row["condition"]
    cond = Condition(bool(c["dead"]), str(c["cause"]), bool(c["prone"]), set(c["immobilized"]), str(c["busy"]),
                     bool(c["reeling"]), bool(c["out"]))
    at[0] = f"{where}.combatant"
    b = row["combatant"]
    comb = Combatant(b["team"], b["policy"], b["aim"], int(b["initiative"]), int(b["target"]), b["mode"],
                     int(b["aim_zone"]), b["action"])
    at[0] = f"{where}.position"
    pos = Position(float(row["position"][0]), float(row["position"][1]))
    at[0] = f"{where}.equipment"
    e = row["equipment"]
    equip = Equipment(list(e["weapons"]), list(e["natural"]), {int(k): v for k, v in e["holding"].items()},
                      list(e["dropped"]), list(e["lost"]))
    at[0] = f"{where}.model_state"
    data = row["model_state"]
    if not isinstance(data, dict):
        raise SaveError(f"{at[0]}: expected a table of the model's state, found {type(data).__name__}")
    try:
        state = world.damage_model.load_state(data, kind, body, armor.pieces)
    except ModelError as exc:
        raise SaveError(f"{at[0]}: {exc}") from None
    at[0] = where
    entity = world.adopt(ident, anat, armor, cond, comb, pos, equip, *state)
    if entity != row["id"]:
        raise SaveError(f"entity ids out of order in the save (expected {entity}, found {row['id']})")
