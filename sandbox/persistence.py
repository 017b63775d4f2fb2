"""Saving and loading a whole world as versioned JSON.

A save holds every entity's components (definitions by config id), the clock, every generator's state and the
event log, so a world saved at tick k and continued gives exactly the events the uninterrupted run would have.
Writing is atomic (a temporary file in the same folder, then a rename), so a crash never leaves half a file.
Loading builds a complete new world before returning it: a bad file raises ``SaveError`` and leaves nothing.
"""

from __future__ import annotations

import json
import random
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import EVENT_TYPES
from sandbox.components.log import LogEntry
from sandbox.components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position
from sandbox.config import Catalog
from sandbox.config.bounds import unprintable
from sandbox.config.errors import readable
from sandbox.config.guard import NestingError, parse_json
from sandbox.config.limits import (
    MAX_CREATURES,
    MAX_DISTANCE,
    MAX_NAME,
    MAX_SCORE,
    MAX_SPAN_DAYS,
    MAX_TICK_SECONDS,
    MAX_TICKS,
    MIN_TICK_SECONDS,
)
from sandbox.eventlog import expand_log
from sandbox.files import atomic_text
from sandbox.systems.creatures import Creature
from sandbox.systems.models import DamageModel, ModelError
from sandbox.systems.saved import LARGEST, LONGEST, StateError, choice, index, is_int, need, number, shown, typed_fields

if TYPE_CHECKING:
    from sandbox.saves import SaveHook
    from sandbox.scenario_def import ScenarioDef
    from sandbox.world import Sandbox

__all__ = [
    "ACTIONS",
    "BUSY",
    "ENTITY_KEYS",
    "FORMAT",
    "MAX_MASTERY",
    "MAX_RUN",
    "MAX_SAVE_BYTES",
    "POLICIES",
    "TOP_KEYS",
    "VERSION",
    "FrozenSandbox",
    "SaveError",
    "load_world",
    "save_world",
    "world_document",
    "world_from_document",
]

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
                      "lost": equip.lost, "items": equip.items},
        "model_state": model.dump_state(c),
    }


def save_world(world: Sandbox, path: Path, hook: SaveHook | None = None) -> None:
    """Write ``world`` to ``path`` atomically, with ``hook``'s data under ``game``.

    Raises:
        GameDataError: ``hook.dump()`` gave something JSON cannot hold (nothing is written).
    """
    from sandbox.saves import GameDataError

    doc = world_document(world)
    if hook is not None:
        with world.active():
            doc["game"] = hook.dump()
    try:
        text = json.dumps(doc, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise GameDataError(f"the game's save hook gave data a JSON save cannot hold ({exc})") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_text(path) as fh:
        fh.write(text)


def world_document(world: Sandbox, *, events: bool = True) -> dict[str, Any]:
    """What a save holds, as JSON-ready data.

    ``events=False`` leaves the log out: the viewer's in-memory snapshots keep the log themselves.
    """
    from sandbox.saves import entity_layout

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
        **entity_layout(world),
        "game": None,
        "events": [e.to_dict() for e in expand_log(world.ctx.log)] if events else [],
    }
    return doc


@dataclass(frozen=True, slots=True)
class FrozenSandbox:
    """A ``Sandbox`` as it was at one tick (``Sandbox.freeze``).

    Its save document without the log, as JSON text (text, not live objects a world made from it could change), and what
    a save does not hold: the content, the world's class, its scenario and invariant checks. Nothing ticks it; ``copy``
    makes worlds from it.

    Attributes:
        document: The save document (``world_document(world, events=False)``), as JSON text.
        catalog: The world's content.
        world_type: The world's class.
        scenario: The scenario it was built from (``None``: built by hand).
        check_invariants: Whether it checks its invariants.
    """

    document: str
    catalog: Catalog
    world_type: type[Sandbox]
    scenario: ScenarioDef | None
    check_invariants: bool

    @classmethod
    def of(cls, world: Sandbox) -> FrozenSandbox:
        """``world`` as it is now."""
        text = json.dumps(world_document(world, events=False), separators=(",", ":"))
        return cls(text, world.catalog, type(world), world.scenario, world.check_invariants)

    def copy(self, log: Sequence[LogEntry] = ()) -> Sandbox:
        """A new world as this one was, whose log is ``log`` (the entries themselves shared).

        Restored from the document as a save is loaded (bit-exact: ticked, it gives the events the frozen world gave).
        """
        world = world_from_document(json.loads(self.document), self.catalog, self.world_type)
        world.scenario = self.scenario
        world.check_invariants = self.check_invariants
        world.ctx.log.extend(log)
        return world


MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest save read (a 200-creature battle saved after its fight is a few megabytes)."""
TOP_KEYS = ("format", "version", "seed", "lineage", "run", "model", "scenario", "max_ticks", "care", "clock",
            "streams", "entities", "events")
"""The keys of a save, every one required."""
LATER_KEYS = ("reserved", "next_entity", "game")
"""The keys a save has held since the game's own entities were kept (``sandbox.saves``); an older save has none."""
ENTITY_KEYS = ("id", "identity", "traits", "armor", "condition", "combatant", "position", "equipment", "model_state")
POLICIES = ("nearest", "weakest", "random", "external")
"""The AI's target policies, and ``external``: a creature the game drives."""
ACTIONS = ("stand", "attack", "approach", "stand up", "pick up", "draw", "dead", "down", "stunned", "first aid",
           "healing item", "move")
"""Every action a combatant can hold between ticks: the AI's, the models' own turns (severity's stun loses the
turn; first aid; strength's healing item), and the walk of a creature the game drives."""
BUSY = ("", "stand up", "pick up", "draw")
MAX_RUN = 2**63 - 1
"""The largest seed and run index."""
MAX_MASTERY = MAX_SCORE * 100
"""The largest Mastery Level a creature can have (an attribute score at the largest ML multiplier)."""


def _no_constant(name: str) -> Any:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``: Python's json reads them, but no save holds them."""
    raise ValueError(f"expected finite numbers, found {name}")


def _read(path: Path) -> dict[str, Any]:
    """The save's JSON.

    A regular file of at most ``MAX_SAVE_BYTES``, UTF-8, nested within bounds, of this format and version.
    """
    try:
        info = path.stat()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
        raise SaveError(f"{path}: not a sandbox save ({what}, not a regular file)")
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save ({exc.strerror or exc})") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"{path}: not a sandbox save (larger than {MAX_SAVE_BYTES // 2**20} MB)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a sandbox save (not UTF-8 text)") from None
    try:
        doc = parse_json(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: corrupt or truncated save (invalid JSON at line {exc.lineno}, column "
                        f"{exc.colno}: {exc.msg})") from None
    except NestingError as exc:
        raise SaveError(f"{path}: not a sandbox save ({exc})") from None
    except ValueError as exc:
        raise SaveError(f"{path}: corrupt save ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{path}: not a sandbox save (no '\"format\": \"{FORMAT}\"')")
    version = doc.get("version")
    if not (is_int(version) and version == VERSION):
        raise SaveError(f"{path}: save version {shown(version)}; this sandbox reads version {VERSION} "
                        "(a save of version 1 predates the models' own state: run its fight again)")
    return doc


def _keys(table: Any, key: str, wanted: Sequence[str]) -> dict[str, Any]:
    """``table`` as a table of exactly the keys ``wanted``."""
    need(isinstance(table, dict), key or "the save", "a table", table)
    for name in table:
        need(name in wanted, f"{key}.{name}" if key else str(name), f"no such key (a save holds {', '.join(wanted)})",
             name)
    for name in wanted:
        need(name in table, f"{key}.{name}" if key else name, "a value (the key is required)", None)
    return dict(table)


def _text(key: str, value: Any, *, empty: bool = False) -> str:
    need(isinstance(value, str) and (empty or value != "") and len(value) <= LONGEST
         and unprintable(value) is None, key, "printable text" + ("" if empty else " (not empty)"), value)
    return str(value)


def _ids(key: str, value: Any, known: Mapping[str, Any] | set[str], what: str) -> list[str]:
    need(isinstance(value, list), key, f"a list of {what}", value)
    for i, item in enumerate(value):
        need(isinstance(item, str) and item in known, f"{key}#{i + 1}", what, item)
    return list(value)


def load_world(path: Path, catalog: Catalog, world_type: Callable[..., Sandbox],
               hook: SaveHook | None = None) -> Sandbox:
    """Rebuild a world of ``world_type`` from a save (see ``Sandbox.load``): every value checked for meaning first.

    Raises:
        SaveError: The file is not a save, or holds a state the world could not have reached (the message names
            the key: ``entities#2.model_state.Injury.wounds#1.level``).
    """
    return world_from_document(_read(path), catalog, world_type, path, hook)


def world_from_document(doc: dict[str, Any], catalog: Catalog, world_type: Callable[..., Sandbox],
                        path: Path | str = "snapshot", hook: SaveHook | None = None) -> Sandbox:
    """Rebuild a world of ``world_type`` from what ``world_document`` gave.

    The document is checked for meaning as a save is (the viewer's in-memory snapshots go through the same door);
    ``path`` names it in errors. ``world_type`` builds the empty world (``world_type(seed, model, run=, catalog=)``);
    ``hook.restore`` gets the document's ``game`` part once the world is whole.

    Raises:
        SaveError: The document does not describe a world the rules could have reached (nothing is half-built).
    """
    from sandbox.models import available_models
    from sandbox.saves import EntityPlacer

    world: Sandbox | None = None
    try:
        doc = _keys(doc, "", TOP_KEYS + tuple(k for k in LATER_KEYS if isinstance(doc, dict) and k in doc))
        seed = int(number("seed", doc["seed"], 0, MAX_RUN, whole=True))
        run = int(number("run", doc["run"], 0, MAX_RUN, whole=True))
        model = choice("model", doc["model"], available_models(), "a damage model:")
        world = world_type(seed, model, run=run, catalog=catalog)
        lineage = doc["lineage"]
        need(isinstance(lineage, list) and all(isinstance(x, str) and len(x) <= LONGEST for x in lineage),
             "lineage", "a list of world ids", lineage)
        world.lineage = (world.uid, *lineage)
        scenario = doc["scenario"]
        if scenario is not None:
            world.scenario = catalog.scenarios.get(_text("scenario", scenario))
        world.max_ticks = int(number("max_ticks", doc["max_ticks"], 1, MAX_TICKS, whole=True))
        _restore_clock(world, doc["clock"])
        _restore_streams(world, doc["streams"])
        rows = doc["entities"]
        need(isinstance(rows, list) and len(rows) <= MAX_CREATURES, "entities",
             f"a list of at most {MAX_CREATURES:,} creatures", rows)
        ids = {row.get("id") for row in rows if isinstance(row, dict)}
        placer = EntityPlacer(world, doc.get("reserved", []), doc.get("next_entity"))
        for i, row in enumerate(rows):
            placer.before(row, f"entities#{i + 1}")
            _restore_entity(world, row, catalog, f"entities#{i + 1}", ids)
        placer.finish()
        world.care = _care(doc["care"], world)
        _restore_events(world, doc["events"], ids)
        _check_world(world)
    except ValueError as exc:  # SaveError, StateError, ModelError, SandboxError: each names what it refuses
        if world is not None:
            world.close()
        message = readable(str(exc))
        raise SaveError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    if hook is not None:
        try:
            with world.active():
                hook.restore(doc.get("game"))
        except BaseException:
            world.close()  # the game refused its part: nothing of the load is left behind
            raise
    return world


def _care(data: Any, world: Sandbox) -> CarePolicy:
    care = _keys(data, "care", ("first_aid_delay", "healers", "self_care"))
    delay = care["first_aid_delay"]
    if delay is not None:
        number("care.first_aid_delay", delay, 0, MAX_SPAN_DAYS * 86400)
    healers = care["healers"]
    if healers is not None:
        healers = tuple(_ids("care.healers", healers, set(world.names.values()), "the name of a creature in the save"))
    need(type(care["self_care"]) is bool, "care.self_care", "true or false", care["self_care"])
    return CarePolicy(None if delay is None else float(delay), healers, care["self_care"])


def _restore_clock(world: Sandbox, data: Any) -> None:
    clock = _keys(data, "clock", ("tick", "seconds_per_tick", "seconds"))
    world.ctx.clock.tick = int(number("clock.tick", clock["tick"], 0, LARGEST, whole=True))
    world.ctx.clock.seconds_per_tick = number("clock.seconds_per_tick", clock["seconds_per_tick"], MIN_TICK_SECONDS,
                                              MAX_TICK_SECONDS)
    world.ctx.clock.seconds = number("clock.seconds", clock["seconds"], 0, LARGEST)


def _restore_streams(world: Sandbox, data: Any) -> None:
    """Every stream of the world from the save.

    None missing (a fresh one would make the continuation differ from the uninterrupted run), none unknown, each a
    Mersenne Twister state.
    """
    streams = _keys(data, "streams", tuple(world.ctx.streams))
    for name, state in streams.items():
        key = f"streams.{name}"
        need(isinstance(state, list) and len(state) == 3 and state[0] == 3 and isinstance(state[1], list)
             and len(state[1]) == 625, key, "a generator state [3, [625 words], gauss]", state)
        words = state[1]
        need(all(is_int(w) and 0 <= w < 2**32 for w in words[:624]) and is_int(words[624])
             and 0 <= words[624] <= 624, key, "624 32-bit words and a position from 0 to 624", words)
        need(state[2] is None or type(state[2]) is float, key, "a last gauss of null or a number", state[2])
        rng = world.ctx.streams[name]
        assert isinstance(rng, random.Random)
        try:
            rng.setstate((3, tuple(words), state[2]))
        except (ValueError, TypeError, OverflowError) as exc:
            raise StateError(f"{key}: expected a generator state, found one it refuses ({exc})") from None


def _restore_events(world: Sandbox, data: Any, ids: set[Any]) -> None:
    need(isinstance(data, list), "events", "a list of events", data)
    events = []
    for i, item in enumerate(data):
        key = f"events#{i + 1}"
        need(isinstance(item, dict), key, "an event's table", item)
        cls = EVENT_TYPES.get(item.get("type")) if isinstance(item.get("type"), str) else None
        need(cls is not None, f"{key}.type", "an event type", item.get("type"))
        assert cls is not None
        values = typed_fields(cls, {f.name: item[f.name] for f in fields(cls) if f.name in item}, key)
        event = cls(**values)
        for name in event.entity_fields:
            need(getattr(event, name) in ids or getattr(event, name) == -1, f"{key}.{name}",
                 "an entity of the save", getattr(event, name))
        events.append(event)
    world.ctx.log.extend(events)


def _check_world(world: Sandbox) -> None:
    """The loaded world keeps every invariant (``sandbox.systems.invariants``).

    Health and death agree, the readouts agree with the state, held items are owned, the log's time never runs
    backwards, the dead never act.
    """
    from sandbox.systems.invariants import Tracker, check

    breaches = check(world.creatures(), world.ctx, Tracker())
    if breaches:
        raise SaveError("a state no fight reaches: " + "; ".join(breaches[:5])
                        + (f" (and {len(breaches) - 5} more)" if len(breaches) > 5 else ""))


def _restore_entity(world: Sandbox, row: Any, catalog: Catalog, where: str, ids: set[Any]) -> None:
    components = _entity_components(world, row, catalog, where, ids)
    entity = world.adopt(*components)
    need(row["id"] == entity and is_int(row["id"]), f"{where}.id", f"the entity {entity} (entities in order)",
         row["id"])


def _entity_components(world: Sandbox, row: Any, catalog: Catalog, where: str, ids: set[Any],
                       keys: Sequence[str] = ENTITY_KEYS) -> tuple[object, ...]:
    """A creature's components from its save row (``_entity_dict``), every value checked; ``keys``: the row's keys.

    Raises:
        StateError: A value the world could not have reached, naming its key under ``where``.
        SaveError: A model state the model refuses.
    """
    row = _keys(row, where, keys)
    ident_data = _keys(row["identity"], f"{where}.identity", ("name", "creature"))
    name = _text(f"{where}.identity.name", ident_data["name"])
    need(len(name) <= MAX_NAME, f"{where}.identity.name", f"a name of at most {MAX_NAME} characters", name)
    need(name not in world.names.values(), f"{where}.identity.name", "a name no other creature has", name)
    creature = ident_data["creature"]
    need(isinstance(creature, str) and creature in catalog.creatures, f"{where}.identity.creature",
         "a creature the configs define", creature)
    ident = Identity(name, creature)
    kind = catalog.creatures[creature]
    body = catalog.bodies[kind.body]
    anat = _traits(row["traits"], f"{where}.traits", catalog, kind, body)
    pieces = _ids(f"{where}.armor", row["armor"], catalog.armor, "an armour piece the configs define")
    for i, piece in enumerate(pieces):
        need(catalog.armor[piece].body == kind.body, f"{where}.armor#{i + 1}", f"armour made for the {kind.body!r} "
             "body", piece)
    armor = Armor(tuple(catalog.armor[i] for i in pieces))
    cond = _condition(row["condition"], f"{where}.condition", body)
    comb = _combatant(row["combatant"], f"{where}.combatant", catalog, body, ids)
    pos = row["position"]
    need(isinstance(pos, list) and len(pos) == 2, f"{where}.position", "[x, y]", pos)
    position = Position(number(f"{where}.position#1", pos[0], -MAX_DISTANCE, 2 * MAX_DISTANCE),
                        number(f"{where}.position#2", pos[1], -MAX_DISTANCE, 2 * MAX_DISTANCE))
    equip = _equipment(row["equipment"], f"{where}.equipment", catalog, body)
    data = row["model_state"]
    need(isinstance(data, dict), f"{where}.model_state", "a table of the model's state", data)
    try:
        state = world.damage_model.load_state(data, kind, body, armor.pieces)
    except (ModelError, StateError) as exc:
        raise SaveError(f"{where}.model_state.{exc}") from None
    return (ident, anat, armor, cond, comb, position, equip, *state)


def _traits(data: Any, where: str, catalog: Catalog, kind: CreatureDef, body: BodyStructure) -> Anatomy:
    traits = _keys(data, where, ("mls", "attributes", "speed"))
    tables = {}
    for name in ("mls", "attributes"):
        values = traits[name]
        need(isinstance(values, dict), f"{where}.{name}", "a table of skill ids and numbers", values)
        for skill, value in values.items():
            # Any name a spawn accepts: a skill of skills.toml, or a point model's own ability (the strength model's
            # STR); a name that resolves to nothing is never tested, so only its form is checked.
            _text(f"{where}.{name}.{skill}", skill)
            number(f"{where}.{name}.{skill}", value, 0, MAX_MASTERY, whole=True)
        tables[name] = dict(values)
    speed = number(f"{where}.speed", traits["speed"], 0, MAX_DISTANCE)
    return Anatomy(body, kind, tables["mls"], tables["attributes"], speed)


def _condition(data: Any, where: str, body: BodyStructure) -> Condition:
    c = _keys(data, where, ("dead", "cause", "prone", "immobilized", "busy", "reeling", "out"))
    for flag in ("dead", "prone", "reeling", "out"):
        need(type(c[flag]) is bool, f"{where}.{flag}", "true or false", c[flag])
    cause = _text(f"{where}.cause", c["cause"], empty=True)
    need(c["dead"] == (cause != ""), f"{where}.cause", "what killed it exactly when it is dead", cause)
    immobilized = c["immobilized"]
    need(isinstance(immobilized, list), f"{where}.immobilized", "a list of part indices", immobilized)
    parts = {index(f"{where}.immobilized#{i + 1}", p, len(body.parts), "a part of the body")
             for i, p in enumerate(immobilized)}
    busy = choice(f"{where}.busy", c["busy"], BUSY)
    return Condition(c["dead"], cause, c["prone"], parts, busy, c["reeling"], c["out"])


def _combatant(data: Any, where: str, catalog: Catalog, body: BodyStructure, ids: set[Any]) -> Combatant:
    b = _keys(data, where, ("team", "policy", "aim", "initiative", "target", "mode", "aim_zone", "action"))
    team = _text(f"{where}.team", b["team"])
    policy = choice(f"{where}.policy", b["policy"], POLICIES, "a target policy:")
    # An aim names a part or location of the target's body, not the aimer's own (what spawn accepts, case-folded; a
    # creature the game drives keeps the aim of its last strike), and its zone number is on that body too.
    names, last_zone = _aims_of(catalog)
    aim = b["aim"]
    need(isinstance(aim, str) and aim.casefold() in names, f"{where}.aim",
         "unaimed, random or a part or location of a body of the content", aim)
    initiative = int(number(f"{where}.initiative", b["initiative"], -LARGEST, LARGEST, whole=True))
    target = b["target"]
    need(is_int(target) and (target == -1 or target in ids), f"{where}.target", "-1 or an entity of the save",
         target)
    mode = b["mode"]
    need(mode == "" or (isinstance(mode, str) and mode in catalog.modes), f"{where}.mode",
         "a strike mode the configs define, or empty", mode)
    aim_zone = int(number(f"{where}.aim_zone", b["aim_zone"], 0, last_zone, whole=True))
    action = choice(f"{where}.action", b["action"], ACTIONS, "an action:")
    return Combatant(team, policy, aim, initiative, target, mode, aim_zone, action)


_AIMS: dict[int, tuple[Catalog, frozenset[str], int]] = {}


def _aims_of(catalog: Catalog) -> tuple[frozenset[str], int]:
    """Every aim a combatant may hold under ``catalog`` (case-folded) and the highest zone number of any of its bodies.

    Memoised per catalog object (the entry keeps it alive, so its id cannot be reused by another).
    """
    entry = _AIMS.get(id(catalog))
    if entry is None or entry[0] is not catalog:
        names = {"unaimed", "random"}
        for b in catalog.bodies.values():
            names.update(p.name.casefold() for p in b.parts)
            names.update(loc.name.casefold() for loc in b.locations)
        last = max((z.last for b in catalog.bodies.values() for z in b.zones), default=0)
        entry = _AIMS[id(catalog)] = (catalog, frozenset(names), last)
    return entry[1], entry[2]


def _equipment(data: Any, where: str, catalog: Catalog, body: BodyStructure) -> Equipment:
    # items joined the save with healing items and medicine (a save made before them has none, and still loads)
    carried = ("weapons", "natural", "holding", "dropped", "lost")
    e = _keys(data, where, (*carried, "items") if isinstance(data, dict) and "items" in data else carried)
    weapons = _ids(f"{where}.weapons", e["weapons"], catalog.weapons, "a weapon the configs define")
    natural = _ids(f"{where}.natural", e["natural"], catalog.weapons, "a weapon the configs define")
    holding_data = e["holding"]
    need(isinstance(holding_data, dict), f"{where}.holding", "a table of part index -> weapon", holding_data)
    holding = {}
    for part, weapon in holding_data.items():
        key = f"{where}.holding.{part}"
        need(isinstance(part, str) and part.isdigit() and int(part) < len(body.parts), key,
             f"a part of the body (0 to {len(body.parts) - 1})", part)
        need(body.parts[int(part)].can_hold, key, f"a part that can hold ({body.parts[int(part)].name} cannot)",
             part)
        need(weapon in weapons or weapon in natural, key, "a weapon the creature carries", weapon)
        holding[int(part)] = weapon
    dropped = _ids(f"{where}.dropped", e["dropped"], set(weapons), "a weapon the creature carries")
    lost = _ids(f"{where}.lost", e["lost"], set(weapons), "a weapon the creature carries")
    items = _ids(f"{where}.items", e.get("items", []), catalog.items, "an item the configs define")
    return Equipment(weapons, natural, holding, dropped, lost, items)
