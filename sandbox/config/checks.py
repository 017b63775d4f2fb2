"""Semantic checks of config files, run on the raw TOML data.

They run whether or not the file passed its structural (pydantic) validation, reading defensively, so one run
reports a misspelt zone reference beside a negative weight instead of one after the other. Cross-file checks
(an armour piece's locations, a creature's weapons) read the other files' raw data the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.config.errors import Problem, dotted, unknown
from sandbox.config.limits import MAX_CREATURES, MAX_SIDES
from sandbox.systems.dice import parse_dice

__all__ = [
    "CHECKS",
    "DICE_EXPECTED",
    "MAX_DICE",
    "MAX_MODIFIER",
    "RULE_SKILLS",
    "Known",
    "check_armor",
    "check_body",
    "check_creature",
    "check_scenario",
    "check_weapon",
    "dice_problem",
    "entries",
    "group_names",
    "known_from",
    "text",
]

MAX_DICE = 100
"""Bounds of an impact's dice (``1000000d1000000`` would make every roll and every exact odds table huge)."""
MAX_MODIFIER = 1000
DICE_EXPECTED = "a dice expression NdX+M (1d10+3) or a flat value"
"""How every dice expression (impact, each point model's damage) is asked for."""


def dice_problem(label: str, key: str, entry: str | None, value: str) -> Problem | None:
    """The problem with a dice expression, if any: not ``NdX+M`` or a flat value, or dice beyond the bounds."""
    try:
        dice = parse_dice(value)
    except ValueError:
        return Problem(label, key, entry, DICE_EXPECTED, repr(value))
    if dice.count > MAX_DICE or dice.sides > MAX_SIDES or abs(dice.modifier) > MAX_MODIFIER:
        return Problem(label, key, entry, f"a dice expression of at most {MAX_DICE} dice of at most {MAX_SIDES} "
                                          f"faces, plus at most {MAX_MODIFIER}", repr(value))
    return None


@dataclass(slots=True)
class Known:
    """What the other files define, for reference checks (all names case-folded).

    Attributes:
        skills: Skill id -> kind (attribute or skill).
        bodies: Body id -> its location names.
        body_parts: Body id -> its part names.
        location_names: Body id -> its location names as spelt (for "did you mean").
        part_names: Body id -> its part names as spelt.
        weapons: Weapon ids.
        items: Item ids (``items/``).
        armor: Armour id -> the body it is made for.
        creatures: Creature id -> its body.
        scale: Allowed body scale range.
    """

    skills: dict[str, str] = field(default_factory=dict)
    bodies: dict[str, set[str]] = field(default_factory=dict)
    body_parts: dict[str, set[str]] = field(default_factory=dict)
    location_names: dict[str, list[str]] = field(default_factory=dict)
    part_names: dict[str, list[str]] = field(default_factory=dict)
    weapons: set[str] = field(default_factory=set)
    items: set[str] = field(default_factory=set)
    armor: dict[str, str] = field(default_factory=dict)
    creatures: dict[str, str] = field(default_factory=dict)
    scale: tuple[float, float] = (0.01, 3.0)


def entries(data: Mapping[str, Any], key: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(index, table)`` of each table in the array ``key`` (anything else is skipped)."""
    value = data.get(key)
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict):
                yield i, item


def text(table: Mapping[str, Any], key: str) -> str | None:
    """``table[key]`` when it is a string."""
    value = table.get(key)
    return value if isinstance(value, str) else None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _dupes(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for n in names:
        if n.casefold() in seen:
            out.append(n)
        seen.add(n.casefold())
    return out


def check_body(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
    """Zones referenced by parts exist; names are unique; roles are not repeated; scale and thresholds fit."""
    problems = []
    zones = [text(z, "name") for _, z in entries(data, "zones")]
    zone_names = {z.casefold() for z in zones if z}
    for name in _dupes(z for z in zones if z):
        problems.append(Problem(label, "zones", name, "unique zone names", f"{name!r} twice"))
    parts = list(entries(data, "parts"))
    for name in _dupes(n for _, p in parts if (n := text(p, "name"))):
        problems.append(Problem(label, "parts", name, "unique part names", f"{name!r} twice"))
    locations = [n for _, p in parts for _, loc in entries(p, "locations") if (n := text(loc, "name"))]
    for name in _dupes(locations):
        problems.append(Problem(label, "parts.locations", name, "unique location names", f"{name!r} twice"))
    for i, part in parts:
        zone = text(part, "zone")
        if zone is not None and zone.casefold() not in zone_names:
            defined = ", ".join(repr(z) for z in zones if z) or "none defined"
            problems.append(unknown(label, dotted("parts", i, "zone"), text(part, "name"),
                                    f"a defined zone ({defined})", zone, [z for z in zones if z]))
        roles = part.get("roles")
        if isinstance(roles, list) and len({repr(r) for r in roles}) != len(roles):
            problems.append(Problem(label, dotted("parts", i, "roles"), text(part, "name"), "each role once",
                                    repr(roles)))
    cells: dict[tuple[float, float], str] = {}
    for i, part in parts:
        hint = part.get("layout")
        if isinstance(hint, list) and len(hint) == 2 and all(_number(v) for v in hint):
            cell = (float(hint[0]), float(hint[1]))
            if cell in cells:
                problems.append(Problem(label, dotted("parts", i, "layout"), text(part, "name"),
                                        f"a drawing cell of its own ({cells[cell]!r} has it)", repr(hint)))
            cells.setdefault(cell, text(part, "name") or "?")
    scale = data.get("scale", 1.0)
    lo, hi = known.scale
    if _number(scale) and not lo <= scale <= hi:
        problems.append(Problem(label, "scale", text(data, "name"), f"a body scale from {lo} to {hi}", repr(scale)))
    th = data.get("thresholds")
    if isinstance(th, list) and all(_number(t) for t in th) and (
            len(th) != 5 or th[0] <= 0 or any(b <= a for a, b in itertools.pairwise(th))):
        problems.append(Problem(label, "thresholds", text(data, "name"), "five positive thresholds rising strictly",
                                repr(th)))
    return problems


def check_weapon(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
    """Impacts are dice expressions; skills exist; ranged modes have a range; mode ids are unique."""
    problems = []
    modes = list(entries(data, "modes"))
    for name in _dupes(n for _, m in modes if (n := text(m, "id"))):
        problems.append(Problem(label, "modes", name, "unique mode ids", f"{name!r} twice"))
    for i, mode in modes:
        entry = text(mode, "name")
        impact = text(mode, "impact")
        bad_dice = dice_problem(label, dotted("modes", i, "impact"), entry, impact) if impact is not None else None
        if bad_dice is not None:
            problems.append(bad_dice)
        skill = text(mode, "skill")
        if skill is not None and known.skills and skill not in known.skills:
            problems.append(unknown(label, dotted("modes", i, "skill"), entry, "a skill defined in skills.toml",
                                    skill, known.skills))
        kind = text(mode, "kind") or "melee"
        reach = mode.get("range", 0.0)
        if kind in ("thrown", "missile") and _number(reach) and reach <= 0:
            problems.append(Problem(label, dotted("modes", i, "range"), entry, f"a range above 0 for a {kind} mode",
                                    repr(reach)))
    if data.get("shield") is True:
        if data.get("natural") is True:
            problems.append(Problem(label, "shield", text(data, "name"), "a shield that is not a natural weapon "
                                    "(a hand grips it)", "natural = true"))
        elif modes and not any((text(m, "limb") or "grip") == "grip" for _, m in modes):
            problems.append(Problem(label, "shield", text(data, "name"), "a shield with a mode gripped by a hand "
                                    '(limb = "grip"), so a hand can hold it', "no grip mode"))
    return problems


def _item_refs(items: Any, prefix: tuple[str | int, ...], label: str, entry: str | None, known: Known
               ) -> list[Problem]:
    """Every item a creature or combatant carries is one of ``items/``."""
    return [unknown(label, dotted(*prefix, "items", i), entry, "an item in items/", item, known.items)
            for i, item in enumerate(items if isinstance(items, list) else [])
            if isinstance(item, str) and item not in known.items]


def check_armor(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
    """The armour's body exists and every covered location is one of its locations."""
    problems: list[Problem] = []
    entry = text(data, "name")
    body = text(data, "body")
    if body is None:
        return problems
    if body not in known.bodies:
        problems.append(unknown(label, "body", entry, f"a body in bodies/ ({', '.join(sorted(known.bodies))})",
                                body, known.bodies))
        return problems
    covers = data.get("covers")
    for i, name in enumerate(covers if isinstance(covers, list) else []):
        if isinstance(name, str) and name.casefold() not in known.bodies[body]:
            problems.append(unknown(label, dotted("covers", i), entry, f"a location of the {body!r} body", name,
                                    known.location_names.get(body, known.bodies[body])))
    return problems


def _skill_refs(table: Mapping[str, Any], prefix: tuple[str | int, ...], label: str, entry: str | None, known: Known
                ) -> list[Problem]:
    """The ``attributes`` name attributes and the ``skills`` name skills or attributes of skills.toml."""
    problems = []
    for key, want in (("attributes", "attribute"), ("skills", None)):
        values = table.get(key)
        for sid in values if isinstance(values, dict) else {}:
            kind = known.skills.get(sid)
            if kind is None or (want and kind != want):
                what = "an attribute" if want else "a skill or attribute"
                problems.append(unknown(label, dotted(*prefix, key, sid), entry, f"{what} defined in skills.toml",
                                        sid, known.skills))
    return problems


def check_creature(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
    """The creature's body, skills, attributes, weapons and armour all exist, and the armour fits its body."""
    problems = []
    entry = text(data, "name")
    body = text(data, "body")
    if body is not None and body not in known.bodies:
        problems.append(unknown(label, "body", entry, f"a body in bodies/ ({', '.join(sorted(known.bodies))})",
                                body, known.bodies))
    problems += _skill_refs(data, (), label, entry, known)
    weapons = data.get("weapons")
    for i, w in enumerate(weapons if isinstance(weapons, list) else []):
        if isinstance(w, str) and w not in known.weapons:
            problems.append(unknown(label, dotted("weapons", i), entry, "a weapon in weapons/", w, known.weapons))
    problems += _item_refs(data.get("items"), (), label, entry, known)
    armor = data.get("armor")
    for i, a in enumerate(armor if isinstance(armor, list) else []):
        if not isinstance(a, str):
            continue
        if a not in known.armor:
            problems.append(unknown(label, dotted("armor", i), entry, "an armour piece in armor/", a, known.armor))
        elif body is not None and known.armor[a] != body:
            problems.append(Problem(label, dotted("armor", i), entry, f"armour made for the {body!r} body",
                                    f"{a!r} (made for {known.armor[a]!r})"))
    return problems


def group_names(name: str, count: int) -> list[str]:
    """Names of a scenario group: the name itself for one, "Name 1" .. "Name n" for more."""
    return [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]


def check_scenario(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
    """Creatures, weapons, armour, skills and parts exist.

    Armour fits; names are unique; everyone stands on the field; at least two teams.
    """
    problems: list[Problem] = []
    from sandbox.systems.models import model_names  # imported here: the models are heavy and only a scenario names one

    models = model_names()
    model = text(data, "model")
    if model is not None and model not in models:
        problems.append(unknown(label, "model", text(data, "name"), f"a damage model ({', '.join(models)})", model,
                                models))
    field_ = data.get("field")
    width = field_.get("width") if isinstance(field_, dict) else None
    height = field_.get("height") if isinstance(field_, dict) else None
    names: list[str] = []
    total = 0
    teams: set[str] = set()
    aimable = set().union(*known.body_parts.values(), *known.bodies.values())  # parts and locations, case-folded
    aim_spellings = [n for names in (*known.part_names.values(), *known.location_names.values()) for n in names]
    for i, c in entries(data, "combatants"):
        entry = text(c, "name")
        key = ("combatants", i)
        count = c.get("count", 1)
        count = count if isinstance(count, int) and count >= 1 else 1
        total += count
        if entry:
            names.extend(group_names(entry, count))
        team = text(c, "team")
        if team:
            teams.add(team)
        creature = text(c, "creature")
        body = known.creatures.get(creature or "")
        if creature is not None and creature not in known.creatures:
            problems.append(unknown(label, dotted(*key, "creature"), entry, "a creature in creatures/", creature,
                                    known.creatures))
        for j, w in enumerate(c.get("weapons") or [] if isinstance(c.get("weapons"), list) else []):
            if isinstance(w, str) and w not in known.weapons:
                problems.append(unknown(label, dotted(*key, "weapons", j), entry, "a weapon in weapons/", w,
                                        known.weapons))
        for j, a in enumerate(c.get("armor") or [] if isinstance(c.get("armor"), list) else []):
            if not isinstance(a, str):
                continue
            if a not in known.armor:
                problems.append(unknown(label, dotted(*key, "armor", j), entry, "an armour piece in armor/", a,
                                        known.armor))
            elif body and known.armor[a] != body:
                problems.append(Problem(label, dotted(*key, "armor", j), entry, f"armour made for the {body!r} body",
                                        f"{a!r} (made for {known.armor[a]!r})"))
        problems += _skill_refs(c, key, label, entry, known)
        problems += _item_refs(c.get("items"), key, label, entry, known)
        parts = known.body_parts.get(body or "", set())
        immobilized = c.get("immobilized")
        for j, p in enumerate(immobilized if isinstance(immobilized, list) else []):
            if isinstance(p, str) and body and p.casefold() not in parts:
                problems.append(unknown(label, dotted(*key, "immobilized", j), entry, f"a part of the {body!r} body",
                                        p, known.part_names.get(body, parts)))
        aim = text(c, "aim")
        if aim is not None and aim not in ("unaimed", "random") and aim.casefold() not in aimable:
            problems.append(unknown(label, dotted(*key, "aim"), entry,
                                    "unaimed, random, or a part or location name of some body", aim,
                                    ["unaimed", "random", *aim_spellings]))
        pos = c.get("position")
        spacing = c.get("spacing", 1.5)
        if (isinstance(pos, list) and len(pos) == 2 and all(_number(v) for v in pos) and _number(width)
                and _number(height) and _number(spacing)):
            x, y = pos
            last_y = y + spacing * (count - 1)
            if not (0 <= x <= width and 0 <= y <= height and 0 <= last_y <= height):
                where = f"[{x}, {y}]" + (f" to [{x}, {last_y}]" if count > 1 else "")
                problems.append(Problem(label, dotted(*key, "position"), entry,
                                        f"a place on the {width} x {height} m field", where))
    if total > MAX_CREATURES:
        problems.append(Problem(label, "combatants", text(data, "name"), f"at most {MAX_CREATURES:,} creatures in "
                                "all (each group's count counted)", f"{total:,}"))
    for name in _dupes(names[:MAX_CREATURES + 1]):
        problems.append(Problem(label, "combatants", name, "unique combatant names", f"{name!r} twice"))
    care = data.get("care")
    healers = care.get("healers") if isinstance(care, dict) else None
    for j, healer in enumerate(healers if isinstance(healers, list) else []):
        if isinstance(healer, str) and healer not in names:
            problems.append(unknown(label, dotted("care", "healers", j), text(data, "name"), "the name of a combatant",
                                    healer, names))
    if "combatants" in data and len(teams) < 2:
        problems.append(Problem(label, "combatants", text(data, "name"), "at least two teams",
                                f"{len(teams)} team{'s' if len(teams) != 1 else ''}"))
    return problems


RULE_SKILLS = {"sandbox_rules": (("combat", "defence_skill"),),
               "anatomy_rules": (("aftercare", "stoppage_skill"), ("aftercare", "treatment_skill"))}
"""The keys of each rule file that name a skill the rules test (each must be one skills.toml defines)."""


def _rule_skills(kind: str) -> Any:
    def check(data: Mapping[str, Any], label: str, known: Known) -> list[Problem]:
        problems = []
        for table, key in RULE_SKILLS[kind]:
            section = data.get(table)
            skill = text(section, key) if isinstance(section, dict) else None
            if skill is not None and known.skills and skill not in known.skills:
                problems.append(unknown(label, dotted(table, key), None, "a skill or attribute defined in skills.toml",
                                        skill, known.skills))
        return problems

    check.__doc__ = f"The skills the {kind} file names exist."
    return check


CHECKS = {"body": check_body, "weapon": check_weapon, "armor": check_armor, "creature": check_creature,
          "scenario": check_scenario, "sandbox_rules": _rule_skills("sandbox_rules"),
          "anatomy_rules": _rule_skills("anatomy_rules")}
"""Semantic check of each file kind that has one (the rules file is checked once structurally valid)."""


def known_from(files: Iterable[tuple[str, str, Mapping[str, Any] | None]]) -> Known:
    """Collect what a set of raw files defines: ``(kind, id, data)`` triples."""
    known = Known()
    for kind, file_id, data in files:
        if data is None:
            continue
        if kind == "skills" and isinstance(data.get("skills"), dict):
            known.skills = {k: (v.get("kind") if isinstance(v, dict) else "") or "" for k, v in
                            data["skills"].items()}
        elif kind == "body":
            parts = [n for _, p in entries(data, "parts") if (n := text(p, "name"))]
            locations = [n for _, p in entries(data, "parts") for _, loc in entries(p, "locations")
                         if (n := text(loc, "name"))]
            known.bodies[file_id] = {n.casefold() for n in locations}
            known.body_parts[file_id] = {n.casefold() for n in parts}
            known.location_names[file_id] = locations
            known.part_names[file_id] = parts
        elif kind == "creature":
            known.creatures[file_id] = text(data, "body") or ""
        elif kind == "weapon":
            known.weapons.add(file_id)
        elif kind == "item":
            known.items.add(file_id)
        elif kind == "armor":
            known.armor[file_id] = text(data, "body") or ""
        elif kind == "anatomy_rules":
            injury = data.get("injury")
            if isinstance(injury, dict) and _number(injury.get("scale_min")) and _number(injury.get("scale_max")):
                known.scale = (float(injury["scale_min"]), float(injury["scale_max"]))
    return known
