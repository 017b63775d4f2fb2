"""Hypothesis strategies for generated configs: bodies, weapons, armour, creatures and small scenarios, as TOML.

Everything generated is what the schema and checks accept (so it must load): 1 to 30 zones (some of weight 0,
some with no parts, or all of weight 0: a body nothing can hit), parts with no roles or one location, paired
parts with a missing side, body scale 0.01..3, natural and per-location protection. Negative protection is not
generated: the schema rejects it (``Protection`` fields are ``ge=0``); nor are negative zone or part weights.

``GenSet`` is one generated set of files (body ``gen_body``, weapon ``gen_weapon``, armour ``gen_armor``,
creature ``gen_creature``, scenario ``gen_scenario``); ``write`` puts them in a config-tree-shaped folder and
returns the paths to pass as ``load_catalog(config_root(), extra)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

ROLES = ("vital", "core", "manipulator", "locomotor")
TIERS = ("none", "low", "medium", "high")
ASPECTS = ("blunt", "edged", "piercing", "fire")
SKILLS = ("unarmed", "dagger", "sword", "axe", "club", "spear", "bow", "bite", "claw", "tail")
LIMBS = ("grip", "vital", "core", "manipulator", "locomotor")


# ------------------------------------------------------------------------------------------------ TOML writing


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def to_toml(data: dict[str, Any], schema: str) -> str:
    """A config dict as TOML: scalars and inline tables first, then arrays of tables (one level of nesting:
    ``[[parts]]`` with ``[[parts.locations]]``)."""
    lines = [f"#:schema ../schemas/{schema}.schema.json"]

    def table(d: dict[str, Any], prefix: str) -> None:
        for k, v in d.items():
            if not (isinstance(v, list) and v and isinstance(v[0], dict)):
                lines.append(f"{k} = {_value(v)}")
        for k, v in d.items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                for item in v:
                    lines.append("")
                    lines.append(f"[[{prefix}{k}]]")
                    table(item, f"{prefix}{k}.")

    table(data, "")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------------ strategies


def protection() -> st.SearchStrategy[dict[str, int]]:
    """Protection per aspect (the schema: every value >= 0; some aspects left out)."""
    return st.dictionaries(st.sampled_from(ASPECTS), st.integers(0, 15), max_size=4)


@st.composite
def body(draw: st.DrawFn) -> dict[str, Any]:
    """A valid body: 1..30 zones (weight 0..6), 1..12 parts, each with 1..3 locations."""
    n_zones = draw(st.integers(1, 30))
    zones = [{"name": f"Zone {i}", "weight": draw(st.integers(0, 6))} for i in range(n_zones)]
    # Every zone may be of weight 0: nothing can hit the body (every blow misses, a fight runs to its limit).
    n_parts = draw(st.integers(1, 12))
    parts = []
    loc_no = 0
    for i in range(n_parts):
        # "Left Arm 3" with or without its "Right Arm 3": missing sides
        side = draw(st.sampled_from(("", "Left ", "Right ", "pair")))
        names = [f"Left Limb {i}", f"Right Limb {i}"] if side == "pair" else [f"{side}Limb {i}"]
        zone = draw(st.sampled_from([z["name"] for z in zones]))
        for name in names:
            locs = []
            for _ in range(draw(st.integers(1, 3))):
                loc: dict[str, Any] = {
                    "name": f"Loc {loc_no}", "weight": draw(st.integers(1, 10)),
                    "shock_value": draw(st.integers(0, 6)), "bleeding": draw(st.sampled_from(TIERS)),
                    "amputability": draw(st.sampled_from(TIERS)), "fumble": draw(st.booleans()),
                    "stumble": draw(st.booleans())}
                if draw(st.booleans()):
                    loc["protection"] = draw(protection())
                locs.append(loc)
                loc_no += 1
            part: dict[str, Any] = {
                "name": name, "zone": zone, "weight": draw(st.integers(0, 10)),
                "roles": draw(st.lists(st.sampled_from(ROLES), unique=True, max_size=3)),
                "can_hold": draw(st.booleans()),
                "permanent_impairment": draw(st.sampled_from((0, 0, 0, -5, -10))),
                "permanently_unusable": draw(st.booleans()) and draw(st.booleans()),
                "locations": locs}
            parts.append(part)
    data: dict[str, Any] = {"name": "Generated", "scale": draw(st.floats(0.01, 3.0)),
                            "natural_protection": draw(protection()), "zones": zones, "parts": parts}
    return data


@st.composite
def weapon(draw: st.DrawFn, natural: bool = False) -> dict[str, Any]:
    """A valid weapon of 1..3 modes."""
    modes = []
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("melee", "melee", "thrown", "missile")))
        dice = draw(st.sampled_from(("1d6", "2d6+1", "1d10+3", "4", "1d4-1", "3d6")))
        mode: dict[str, Any] = {
            "id": f"m{i}", "name": f"Mode {i}", "kind": kind, "skill": draw(st.sampled_from(SKILLS)),
            "impact": dice, "aspect": draw(st.sampled_from(ASPECTS)), "spread": draw(st.integers(1, 12)),
            "attack_modifier": draw(st.integers(-20, 20)), "limbs": draw(st.integers(1, 2)),
            "limb": draw(st.sampled_from(LIMBS)), "reach": draw(st.floats(0.0, 3.0)),
            "range": draw(st.floats(0.5, 40.0)) if kind != "melee" else 0.0}
        modes.append(mode)
    return {"name": "Generated Weapon", "natural": natural, "modes": modes}


@st.composite
def armor(draw: st.DrawFn, body_data: dict[str, Any], body_id: str = "gen_body") -> dict[str, Any]:
    """A valid armour piece for ``body_data`` covering some of its locations."""
    locs = [loc["name"] for p in body_data["parts"] for loc in p["locations"]]
    covers = draw(st.lists(st.sampled_from(locs), min_size=1, max_size=min(len(locs), 6), unique=True))
    return {"name": "Generated Armour", "body": body_id, "rigid": draw(st.booleans()), "covers": covers,
            "protection": draw(protection())}


@st.composite
def creature(draw: st.DrawFn, weapons: list[str], armour: list[str]) -> dict[str, Any]:
    """A creature of the generated body with the given weapons and armour."""
    return {"name": "Generated Creature", "body": "gen_body",
            "dominance": draw(st.sampled_from(("right", "left", "ambidextrous"))),
            "attributes": {a: draw(st.integers(3, 18)) for a in
                           ("strength", "endurance", "will", "dexterity", "agility", "perception")},
            "skills": {s: draw(st.integers(10, 80)) for s in (*SKILLS, "shock", "dodge", "acrobatics", "legerdemain")},
            "weapons": weapons, "armor": armour, "speed": draw(st.floats(1.0, 12.0))}


@dataclass
class GenSet:
    """One generated set of config files."""

    body: dict[str, Any]
    weapon: dict[str, Any]
    armor: dict[str, Any]
    creature: dict[str, Any]
    scenario: dict[str, Any]

    def write(self, folder: Path) -> list[Path]:
        """Write the files under ``folder`` (bodies/, weapons/ ...) and return their paths."""
        files = {"bodies/gen_body.toml": (self.body, "body"), "weapons/gen_weapon.toml": (self.weapon, "weapon"),
                 "armor/gen_armor.toml": (self.armor, "armor"),
                 "creatures/gen_creature.toml": (self.creature, "creature"),
                 "scenarios/gen_scenario.toml": (self.scenario, "scenario")}
        paths = []
        for rel, (data, schema) in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(to_toml(data, schema), encoding="utf-8")
            paths.append(path)
        return paths


@st.composite
def gen_set(draw: st.DrawFn) -> GenSet:
    """A body, a weapon, an armour piece for the body, a creature of it, and a small scenario: 1..3 of the
    generated creature (with the generated weapon, or its natural ones) against 1..2 shipped humans."""
    b = draw(body())
    w = draw(weapon(natural=draw(st.booleans())))
    a = draw(armor(b))
    c = draw(creature(["gen_weapon"], draw(st.sampled_from((["gen_armor"], [])))))
    n_gen, n_human = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    combatants = [
        {"name": "Gen", "creature": "gen_creature", "team": "Gen", "position": [4.0, 3.0], "count": n_gen,
         "aim": draw(st.sampled_from(("unaimed", "random")))},
        {"name": "Man", "creature": "human", "team": "Men", "position": [9.0, 3.0], "count": n_human,
         "weapons": [draw(st.sampled_from(("broadsword", "club", "dagger", "spear")))],
         "aim": draw(st.sampled_from(("unaimed", "random")))},
    ]
    scenario = {"name": "Generated", "model": "anatomy", "max_ticks": draw(st.integers(5, 60)),
                "field": {"width": 20.0, "height": 10.0}, "combatants": combatants}
    return GenSet(b, w, a, c, scenario)
