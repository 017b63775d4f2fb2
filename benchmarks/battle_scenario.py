"""The shipped ``battle`` scaled to any number of combatants: its two armies (a hundred a side in four lines of
groups) repeated side by side along the lines, 50 m apart, so a battle of 10,000 is fifty battles' worth of front
at the shipped density (each fighter's neighbourhood, and so its cost, is the shipped battle's).

``scenario_toml(n)`` is the scenario file: the shipped groups once per copy (copy ``k`` > 1 names its groups
``"Red Sword k"``, whose members are ``"Red Sword k 1"`` ...), the last copy cut short. ``scaled_battle(n)`` is that
file as the ``ScenarioDef`` ``sandbox run`` would read. ``python benchmarks/battle_scenario.py 10000 battle10k.toml``
writes it for ``sandbox run battle10k.toml --engine array``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from sandbox.config import default_catalog
from sandbox.config.scenarios import load_scenario
from sandbox.scenario_def import ScenarioDef

SHIPPED = Path(__file__).resolve().parents[1] / "configs" / "scenarios" / "battle.toml"
"""The shipped battle."""
BAND = 50.0
"""Metres between copies of the shipped battle along its lines."""


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)  # strings, numbers and lists of them are written alike in TOML


def scenario_toml(n: int) -> str:
    """The battle with ``n`` combatants as a scenario file."""
    shipped = tomllib.loads(SHIPPED.read_text(encoding="utf-8"))
    groups: list[dict[str, Any]] = shipped["combatants"]
    per_copy = sum(int(g.get("count", 1)) for g in groups)
    copies = -(-n // per_copy)
    width, height = shipped["field"]["width"], shipped["field"]["height"] + (copies - 1) * BAND
    lines = [f"name = {_value(f'Battle of {n:,}')}",
             f"description = {_value(f'The shipped battle, {copies} times over along its lines.')}",
             f"model = {_value(shipped['model'])}", f"max_ticks = {shipped['max_ticks']}",
             f"field = {_value({'width': width, 'height': height})}"]
    left = n
    for copy in range(copies):
        for group in groups:
            count = min(int(group.get("count", 1)), left)
            if count <= 0:
                break
            left -= count
            x, y = group["position"]
            entry = dict(group, name=group["name"] if copy == 0 else f"{group['name']} {copy + 1}", count=count,
                         position=[x, y + copy * BAND])
            lines += ["", "[[combatants]]", *(f"{key} = {_value(value)}" for key, value in entry.items())]
    return "\n".join(lines) + "\n"


def scaled_battle(n: int) -> ScenarioDef:
    """The battle with ``n`` combatants, read from ``scenario_toml(n)`` as a scenario file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"battle{n}.toml"
        path.write_text(scenario_toml(n), encoding="utf-8")
        return load_scenario(path, default_catalog())


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(scenario_toml(int(sys.argv[1])), encoding="utf-8")
