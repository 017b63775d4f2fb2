"""Generated configs: random valid bodies, weapons, armour, creatures, scenarios and every damage model's entries
for them, written as a whole config tree.

The generator is written once against ``Draw``, a small interface of random choices, and driven two ways:

- by hypothesis in the tests (``tests/strategies.py`` wraps each ``draw`` call in a strategy, so a failing
  example shrinks and replays);
- by a seeded ``random.Random`` in the soak (``benchmarks/soak.py``, ``RandomDraw.for_run(seed, index)``), so run
  ``index`` of root ``seed`` is the same world on any machine and any number of workers.

It lives here, apart from ``tests/strategies.py``, because it must not import hypothesis: the soak is a benchmark
script that runs with the package's own dependencies, and hypothesis is a test extra. It lives under ``tests/``,
not ``sandbox/``, because it is test tooling, not part of the application or its embedding contract.

Everything generated is what the schemas and checks accept, so it must load:

- a body of 1 to 30 zones (some of weight 0, sometimes all of them: a body nothing can hit), 1 to 12 parts
  (some with no roles, of weight 0, with one location, "Left X" without its "Right X"), scale 0.01 to 3,
  sometimes thresholds of its own, natural protection from -10 (a vulnerability) to 15 per aspect, and
  per-location protection from 0;
- a weapon of 1 to 3 modes (melee, thrown, missile; dice with negative modifiers or flat values), an armour
  piece for the body (protection from 0), a creature of the body (attributes from 0);
- a scenario of 1 to 4 generated creatures against 1 to 3 shipped humans in shipped armour (sometimes with the
  generated weapon), now and then a third side, with random policies, aims, initiatives, speeds, attribute and
  skill overrides, parts held fast, care and fight lengths;
- for each point model (severity, depth, strength, status) an entry for every generated strike mode, the armour
  piece and the creature, merged into a copy of the shipped ``models/<model>.toml`` with values anywhere in that
  model's schema bounds (and its file's own limits: dice sizes, ability caps, attribute floors).

``GenSet.write(folder)`` writes the whole tree (the shipped skills, rules, bodies, weapons, armour and creatures,
the generated files and the merged model tables) and ``GenSet.load(folder)`` loads it: the catalog carries that
root, so ``Sandbox(..., catalog=catalog)`` builds every model from the generated tables.
"""

from __future__ import annotations

import copy
import json
import math
import random
import shutil
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sandbox.config import Catalog, config_root, load_catalog
from sandbox.config.schema import MIN_NATURAL_PROTECTION

T = TypeVar("T")

ROLES = ("vital", "core", "manipulator", "locomotor")
TIERS = ("none", "low", "medium", "high")
ASPECTS = ("blunt", "edged", "piercing", "fire")
WEAPON_SKILLS = ("unarmed", "dagger", "sword", "axe", "club", "spear", "bow", "bite", "claw", "tail", "breath")
OTHER_SKILLS = ("shock", "dodge", "acrobatics", "legerdemain", "physician", "climbing")
ATTRIBUTES = ("strength", "endurance", "will", "dexterity", "agility", "perception")
LIMBS = ("grip", "vital", "core", "manipulator", "locomotor")
HUMAN_WEAPONS = ("broadsword", "club", "dagger", "spear", "battleaxe", "mace", "unarmed")
HUMAN_ARMOUR = ("gambeson", "leather", "mail_hauberk", "plate_cuirass", "helm", "full_harness")
BODY, WEAPON, ARMOR, CREATURE, SCENARIO = "gen_body", "gen_weapon", "gen_armor", "gen_creature", "gen_scenario"


class Draw(Protocol):
    """The random choices the generator makes; hypothesis and ``random.Random`` both provide them."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer from ``lo`` to ``hi`` inclusive."""
        ...

    def real(self, lo: float, hi: float) -> float:
        """A finite float from ``lo`` to ``hi``."""
        ...

    def boolean(self) -> bool:
        """True or False."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (repeat an option to weight it)."""
        ...

    def subset(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        """``lo`` to ``hi`` distinct elements of ``options``, in drawn order."""
        ...


class RandomDraw:
    """``Draw`` from a seeded ``random.Random``: the soak's generator.

    Args:
        rng: The generator every choice comes from.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @classmethod
    def for_run(cls, seed: int, index: int) -> RandomDraw:
        """The draws of run ``index`` under root ``seed``: a string seed is hashed (SHA-512) into the generator's
        state, the same on every platform and process and unrelated to the world's own streams of that run."""
        return cls(random.Random(f"generated-config/{seed}/{index}"))

    def integer(self, lo: int, hi: int) -> int:
        """An integer from ``lo`` to ``hi`` inclusive."""
        return self.rng.randint(lo, hi)

    def real(self, lo: float, hi: float) -> float:
        """A float from ``lo`` to ``hi``; the bounds themselves now and then (where bugs live)."""
        pick = self.rng.random()
        if pick < 0.05:
            return lo
        if pick < 0.1:
            return hi
        return self.rng.uniform(lo, hi)

    def boolean(self) -> bool:
        """True or False."""
        return self.rng.random() < 0.5

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``."""
        return options[self.rng.randrange(len(options))]

    def subset(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        """``lo`` to ``hi`` distinct elements of ``options``."""
        return self.rng.sample(list(options), self.rng.randint(lo, min(hi, len(options))))


# ------------------------------------------------------------------------------------------------ TOML writing


def _key(k: str) -> str:
    bare = k and all(c.isascii() and (c.isalnum() or c in "_-") for c in k)
    return k if bare else _value(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML configs take finite numbers, not {v!r}")
        return repr(v)
    if isinstance(v, str):
        # JSON's escapes are TOML's, but for DEL, which TOML wants escaped and JSON leaves raw.
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML value for {type(v).__name__}")


def _is_tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def to_toml(data: dict[str, Any], schema: str | None = None) -> str:
    """A config dict as TOML, any nesting: scalars first, then ``[tables]`` and ``[[arrays of tables]]``.

    Args:
        data: The document.
        schema: The file kind for the ``#:schema`` first line (``body``, ``severity_model`` ...), or ``None``.
    """
    lines = [f"#:schema ../schemas/{schema}.schema.json"] if schema else []

    def table(d: dict[str, Any], path: list[str]) -> None:
        for k, v in d.items():
            if not isinstance(v, dict) and not _is_tables(v):
                lines.append(f"{_key(k)} = {_value(v)}")
        for k, v in d.items():
            sub = [*path, _key(k)]
            if isinstance(v, dict):
                lines.extend(("", f"[{'.'.join(sub)}]"))
                table(v, sub)
            elif _is_tables(v):
                for item in v:
                    lines.extend(("", f"[[{'.'.join(sub)}]]"))
                    table(item, sub)

    table(data, [])
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------------ the anatomy


def dice(d: Draw, *, flat: bool = True) -> str:
    """A dice expression: ``NdX+M`` with a modifier from -5 (a roll may come out negative) or a flat value."""
    if flat and d.integer(0, 7) == 0:
        return str(d.integer(-2, 20))
    count, sides, mod = d.integer(1, 4), d.choice((1, 2, 3, 4, 6, 8, 10, 12, 20)), d.integer(-5, 8)
    return f"{count}d{sides}" + (f"{mod:+d}" if mod else "")


def protection(d: Draw, lo: int = 0, hi: int = 15) -> dict[str, int]:
    """Protection per aspect, some aspects left out (0)."""
    return {a: d.integer(lo, hi) for a in d.subset(ASPECTS, 0, 4)}


def gen_body(d: Draw) -> dict[str, Any]:
    """A valid body: 1..30 zones (weight 0..6), 1..12 parts, each with 1..3 locations."""
    n_zones = d.integer(1, 30)
    zones = [{"name": f"Zone {i}", "weight": d.integer(0, 6)} for i in range(n_zones)]
    parts = []
    loc_no = 0
    for i in range(d.integer(1, 12)):
        side = d.choice(("", "Left ", "Right ", "pair"))  # "Left Limb 3" with or without its "Right Limb 3"
        names = [f"Left Limb {i}", f"Right Limb {i}"] if side == "pair" else [f"{side}Limb {i}"]
        zone = d.choice([z["name"] for z in zones])
        for name in names:
            locs = []
            for _ in range(d.integer(1, 3)):
                loc: dict[str, Any] = {
                    "name": f"Loc {loc_no}", "weight": d.integer(1, 10), "shock_value": d.integer(0, 6),
                    "bleeding": d.choice(TIERS), "amputability": d.choice(TIERS), "fumble": d.boolean(),
                    "stumble": d.boolean()}
                if d.integer(0, 3) == 0:
                    loc["protection"] = protection(d)
                locs.append(loc)
                loc_no += 1
            parts.append({
                "name": name, "zone": zone, "weight": d.integer(0, 10),
                "roles": d.subset(ROLES, 0, 3), "can_hold": d.boolean(),
                "permanent_impairment": d.choice((0, 0, 0, -5, -10)),
                "permanently_unusable": d.integer(0, 5) == 0,
                "locations": locs})
    data: dict[str, Any] = {"name": "Generated", "scale": d.real(0.01, 3.0),
                            "natural_protection": protection(d, MIN_NATURAL_PROTECTION, 15)}
    if d.integer(0, 3) == 0:
        first = d.real(0.5, 5.0)
        steps = [d.real(0.5, 10.0) for _ in range(4)]
        data["thresholds"] = [round(first + sum(steps[:i]), 3) for i in range(5)]
    data["zones"], data["parts"] = zones, parts
    return data


def gen_weapon(d: Draw) -> dict[str, Any]:
    """A valid weapon of 1..3 modes, natural or not."""
    modes = []
    for i in range(d.integer(1, 3)):
        kind = d.choice(("melee", "melee", "thrown", "missile"))
        mode: dict[str, Any] = {
            "id": f"m{i}", "name": f"Mode {i}", "kind": kind, "skill": d.choice(WEAPON_SKILLS),
            "impact": dice(d), "aspect": d.choice(ASPECTS), "spread": d.integer(1, 12),
            "attack_modifier": d.integer(-20, 20), "limbs": d.integer(1, 2), "limb": d.choice(LIMBS),
            "reach": d.real(0.0, 3.0), "range": d.real(0.5, 40.0) if kind != "melee" else 0.0}
        strength = d.choice((None, None, True, False))
        if strength is not None:
            mode["strength_modifier"] = strength
        modes.append(mode)
    return {"name": "Generated Weapon", "natural": d.boolean(), "modes": modes}


def gen_armor(d: Draw, body: dict[str, Any]) -> dict[str, Any]:
    """A valid armour piece for ``body`` covering 1..6 of its locations."""
    locs = [loc["name"] for p in body["parts"] for loc in p["locations"]]
    return {"name": "Generated Armour", "body": BODY, "rigid": d.boolean(), "covers": d.subset(locs, 1, 6),
            "protection": protection(d)}


def gen_creature(d: Draw, wears_armor: bool) -> dict[str, Any]:
    """A creature of the generated body with the generated weapon (and shipped fists, now and then)."""
    data: dict[str, Any] = {
        "name": "Generated Creature", "body": BODY, "dominance": d.choice(("right", "left", "ambidextrous")),
        "attributes": {a: d.integer(0, 20) for a in ATTRIBUTES},
        "skills": {s: d.integer(0, 90) for s in (*WEAPON_SKILLS, *OTHER_SKILLS)},
        "weapons": [WEAPON, "unarmed"] if d.integer(0, 3) == 0 else [WEAPON],
        "armor": [ARMOR] if wears_armor else []}
    if d.boolean():
        data["speed"] = d.real(0.5, 12.0)
    return data


def gen_scenario(d: Draw, body: dict[str, Any], weapon: dict[str, Any]) -> dict[str, Any]:
    """1..4 generated creatures against 1..3 shipped humans (who may carry the generated weapon), and now and then
    a third side of generated creatures, on a field of 2 to 40 metres, each side with random orders; mostly short
    fights, now and then long enough for the five-minute checks (bleeding, shock re-tests) to come round."""
    gen_parts = [p["name"] for p in body["parts"]]
    width = d.choice((2.0, 20.0, 20.0, 40.0))
    arms = (*HUMAN_WEAPONS, WEAPON) if not weapon["natural"] else HUMAN_WEAPONS
    gen: dict[str, Any] = {
        "name": "Gen", "creature": CREATURE, "team": "Gen", "position": [d.real(0.0, width / 2), 0.5],
        "count": d.integer(1, 4), "policy": d.choice(("nearest", "weakest", "random")),
        "aim": d.choice(("unaimed", "random", "Head", d.choice(gen_parts)))}
    men: dict[str, Any] = {
        "name": "Man", "creature": "human", "team": "Men", "position": [d.real(width / 2, width), 0.5],
        "count": d.integer(1, 3), "weapons": d.subset(arms, 1, 2), "armor": d.subset(HUMAN_ARMOUR, 0, 3),
        "policy": d.choice(("nearest", "weakest", "random")),
        "aim": d.choice(("unaimed", "random", "Head", d.choice(gen_parts)))}
    for c in (gen, men):
        if d.integer(0, 3) == 0:
            c["initiative"] = d.integer(-5, 5)
        if d.integer(0, 3) == 0:
            c["speed"] = d.real(0.1, 15.0)
        if d.integer(0, 3) == 0:
            c["attributes"] = {a: d.integer(0, 25) for a in d.subset(ATTRIBUTES, 1, 3)}
        if d.integer(0, 3) == 0:
            c["skills"] = {s: d.integer(0, 100) for s in d.subset(("shock", "dodge", "physician", "sword"), 1, 2)}
    if d.integer(0, 4) == 0:
        gen["immobilized"] = d.subset(gen_parts, 1, 2)
    if d.integer(0, 4) == 0:
        men["immobilized"] = d.subset(("Left Arm", "Right Arm", "Right Leg", "Torso"), 1, 2)
    combatants = [gen, men]
    if d.integer(0, 3) == 0:
        combatants.append({"name": "Other", "creature": CREATURE, "team": "Others", "position": [width, 9.5],
                           "count": 1, "aim": d.choice(("unaimed", "random", d.choice(gen_parts)))})
    care: dict[str, Any] = {"self_care": d.boolean()}
    if d.boolean():
        care["first_aid_minutes"] = d.real(0.0, 120.0)
    max_ticks = d.integer(5, 60) if d.integer(0, 7) else d.integer(60, 150)
    return {"name": "Generated", "model": "anatomy", "max_ticks": max_ticks,
            "field": {"width": width, "height": 10.0}, "combatants": combatants, "care": care}


# ------------------------------------------------------------------------------------------------ the point models


@cache
def shipped_model_tables(name: str) -> dict[str, Any]:
    """The shipped ``models/<name>.toml`` as data (read once per process)."""
    with (config_root() / "models" / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def _mode_ids(weapon: dict[str, Any]) -> list[str]:
    return [m["id"] for m in weapon["modes"]]


def severity_entries(d: Draw, weapon: dict[str, Any]) -> dict[str, Any]:
    """Entries of ``models/severity.toml``: attributes at or above its floor, a Threshold of at least 1."""
    limits = shipped_model_tables("severity")["limits"]
    floor, speed_floor = limits["attribute_floor"], limits["speed_floor"]
    brawn = d.integer(floor, 5)
    block: dict[str, Any] = {
        "threshold": max(d.integer(-2, 8), 1 - brawn), "brawn": brawn, "poise": d.integer(floor, 5),
        "wit": d.integer(floor, 5), "speed": d.integer(speed_floor, 14), "attack_bonus": d.integer(-3, 10),
        "defense": d.integer(0, 22), "armor_value": d.integer(0, 6)}
    if d.boolean():
        block["first_aid"] = d.integer(-2, 5)
    modes = {}
    for mid in _mode_ids(weapon):
        entry: dict[str, Any] = {"damage": dice(d)}
        if d.boolean():
            entry["anti_armor"] = d.choice(("none", "halve", "negate"))
        if d.integer(0, 3) == 0:
            entry["indirect"] = True
        modes[f"{WEAPON}.{mid}"] = entry
    return {"creatures": {CREATURE: block}, "weapons": modes, "armor": {ARMOR: {"armor_value": d.integer(0, 5)}}}


def depth_entries(d: Draw, weapon: dict[str, Any]) -> dict[str, Any]:
    """Entries of ``models/depth.toml``, anywhere in its schema's bounds."""
    block: dict[str, Any] = {"note": "generated"}
    for key, lo, hi in (("defense", 0, 40), ("strength_modifier", -10, 20), ("dexterity_modifier", -10, 20)):
        if d.boolean():
            block[key] = d.integer(lo, hi)
    if d.boolean():
        block["depth_reduction"] = {f: d.integer(0, 30) for f in d.subset(("blunt", "cutting", "piercing", "fire"),
                                                                          1, 4)}
    weapons = {f"{WEAPON}.{mid}": {"type": d.choice(("blunt", "cutting", "piercing", "fire")),
                                   "depth_bonus": d.integer(-10, 20)} for mid in _mode_ids(weapon)}
    return {"creatures": {CREATURE: block}, "weapons": weapons, "armor": {ARMOR: {"rating": d.integer(0, 10)}}}


def strength_entries(d: Draw, weapon: dict[str, Any]) -> dict[str, Any]:
    """Entries of ``models/strength.toml``: dice of its sizes, abilities within its caps."""
    tables = shipped_model_tables("strength")
    human = d.integer(0, 4) == 0
    cap = tables["abilities"]["max_human" if human else "max"]
    block: dict[str, Any] = {"STR": d.integer(1, cap), "WIT": d.integer(1, cap), "AGI": d.integer(1, cap),
                             "attack": d.integer(-3, 10), "defense": d.integer(0, 22), "armour": d.integer(0, 5),
                             "human": human}
    weapons = {}
    for mid in _mode_ids(weapon):
        weapons[f"{WEAPON}.{mid}"] = {
            "die": d.choice(tables["dice"]["sizes"]), "bonus": d.integer(-3, 5), "enhanced": d.integer(0, 2),
            "impaired": d.integer(0, 2), "direct": d.boolean(), "attack": d.integer(-3, 5)}
    return {"creatures": {CREATURE: block}, "weapons": weapons, "armor": {ARMOR: {"armour": d.integer(0, 4)}}}


def status_entries(d: Draw, weapon: dict[str, Any]) -> dict[str, Any]:
    """Entries of ``models/status.toml``, anywhere in its schema's bounds."""
    block = {"constitution": d.integer(0, 25), "endurance": d.integer(1, 30), "attack_bonus": d.integer(-3, 10),
             "defense": d.integer(0, 25), "armor": d.integer(0, 5), "penalty_reduction": d.integer(0, 5)}
    weapons = {f"{WEAPON}.{mid}": {"damage": dice(d, flat=False), "attack_bonus": d.integer(-3, 5)}
               for mid in _mode_ids(weapon)}
    return {"creatures": {CREATURE: block}, "weapons": weapons, "armor": {ARMOR: {"value": d.integer(0, 5)}}}


MODEL_ENTRIES: dict[str, Callable[[Draw, dict[str, Any]], dict[str, Any]]] = {
    "severity": severity_entries, "depth": depth_entries, "strength": strength_entries, "status": status_entries}
"""Point model -> the generator of its entries for the generated weapon, armour piece and creature."""


def merged_tables(name: str, entries: dict[str, Any]) -> dict[str, Any]:
    """The shipped ``models/<name>.toml`` with ``entries`` added to its ``weapons``, ``armor`` and ``creatures``."""
    data = copy.deepcopy(shipped_model_tables(name))  # the cached tables stay as shipped
    for table, added in entries.items():
        data.setdefault(table, {}).update(added)
    return data


# ------------------------------------------------------------------------------------------------ a whole set


SHIPPED_DIRS = ("bodies", "weapons", "armor", "items", "creatures")
SHIPPED_FILES = ("skills.toml", "sandbox.toml", "models/anatomy.toml")


@dataclass(frozen=True, slots=True)
class Written:
    """Where ``GenSet.write`` put things."""

    root: Path
    body: Path
    weapon: Path
    armor: Path
    creature: Path
    scenario: Path

    @property
    def generated(self) -> list[Path]:
        """The generated files (the model tables aside)."""
        return [self.body, self.weapon, self.armor, self.creature, self.scenario]


@dataclass
class GenSet:
    """One generated set of configs: a body, a weapon, an armour piece, a creature, a scenario, and each point
    model's entries for them."""

    body: dict[str, Any]
    weapon: dict[str, Any]
    armor: dict[str, Any]
    creature: dict[str, Any]
    scenario: dict[str, Any]
    models: dict[str, dict[str, Any]] = field(default_factory=dict)

    def write(self, folder: Path) -> Written:
        """Write a whole config tree under ``folder``: the shipped configs it needs (no shipped scenarios), the
        generated files, and every model's tables with the generated entries merged in."""
        shipped = config_root()
        for sub in SHIPPED_DIRS:
            (folder / sub).mkdir(parents=True, exist_ok=True)
            for path in (shipped / sub).glob("*.toml"):
                shutil.copyfile(path, folder / sub / path.name)
        (folder / "models").mkdir(exist_ok=True)
        (folder / "scenarios").mkdir(exist_ok=True)
        for rel in SHIPPED_FILES:
            shutil.copyfile(shipped / rel, folder / rel)
        for path in (shipped / "models").glob("*.toml"):
            if path.stem in self.models:
                tables = merged_tables(path.stem, self.models[path.stem])
                (folder / "models" / path.name).write_text(to_toml(tables, f"{path.stem}_model"), encoding="utf-8")
            elif not (folder / "models" / path.name).exists():
                shutil.copyfile(path, folder / "models" / path.name)  # a model this generator has no entries for
        files = {"bodies": (BODY, self.body, "body"), "weapons": (WEAPON, self.weapon, "weapon"),
                 "armor": (ARMOR, self.armor, "armor"), "creatures": (CREATURE, self.creature, "creature"),
                 "scenarios": (SCENARIO, self.scenario, "scenario")}
        paths = {}
        for sub, (name, data, kind) in files.items():
            path = folder / sub / f"{name}.toml"
            path.write_text(to_toml(data, kind), encoding="utf-8")
            paths[sub] = path
        return Written(folder, paths["bodies"], paths["weapons"], paths["armor"], paths["creatures"],
                       paths["scenarios"])

    def load(self, folder: Path) -> tuple[Catalog, Written]:
        """Write the tree under ``folder`` and load it (the catalog carries ``folder`` as its root).

        Raises:
            ConfigError: The generated set is not valid (a bug of the generator or of the checks).
        """
        written = self.write(folder)
        return load_catalog(folder), written


def gen_set(d: Draw) -> GenSet:
    """One whole generated set."""
    body = gen_body(d)
    weapon = gen_weapon(d)
    armour = gen_armor(d, body)
    creature = gen_creature(d, wears_armor=d.boolean())
    scenario = gen_scenario(d, body, weapon)
    models = {name: make(d, weapon) for name, make in MODEL_ENTRIES.items()}
    return GenSet(body, weapon, armour, creature, scenario, models)


def gen_set_for_run(seed: int, index: int) -> GenSet:
    """The generated set of run ``index`` under root ``seed`` (the soak's; deterministic)."""
    return gen_set(RandomDraw.for_run(seed, index))
