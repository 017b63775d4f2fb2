"""The shipped ``battle`` scaled to any number of combatants: its two armies (a hundred a side in four lines)
repeated side by side along the lines, 50 m apart, so a battle of 10,000 is fifty battles' worth of front at the
shipped density (each fighter's neighbourhood, and so its cost, is the shipped battle's).

``scaled_battle(n)`` is the scenario as a ``ScenarioDef``; ``python benchmarks/battle_scenario.py 10000
battle10k.toml`` writes it as a scenario file (groups of the shipped size) for ``sandbox run``.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from sandbox.config import default_catalog
from sandbox.config.scenarios import resolve_scenario
from sandbox.scenario_def import CombatantSpec, ScenarioDef

BAND = 50.0
"""Metres between copies of the shipped battle along its lines."""


def scaled_battle(n: int) -> ScenarioDef:
    """The battle with ``n`` combatants (a whole number of copies of the shipped 200, the last one cut short)."""
    _, base = resolve_scenario("battle", default_catalog())
    size = len(base.combatants)
    combatants: list[CombatantSpec] = []
    copy = 0
    while len(combatants) < n:
        for c in base.combatants[: n - len(combatants)]:
            x, y = c.position
            name = f"{c.name} {copy + 1}" if copy else c.name
            combatants.append(replace(c, name=name, position=(x, y + copy * BAND)))
        copy += 1
    height = max(base.field[1], copy * BAND)
    return replace(base, id=f"battle{n}", name=f"Battle of {n:,}", combatants=tuple(combatants),
                   field=(base.field[0], height), description=f"The shipped battle, {-(-n // size)} times over.")


def scenario_toml(spec: ScenarioDef) -> str:
    """``spec`` as a scenario file (one group per run of a shipped group)."""
    lines = [f'name = "{spec.name}"', f'description = "{spec.description}"', f'model = "{spec.model}"',
             f"max_ticks = {spec.max_ticks}", f"field = {{ width = {spec.field[0]}, height = {spec.field[1]} }}"]
    for c in spec.combatants:
        lines += ["", "[[combatants]]", f'name = "{c.name}"', f'creature = "{c.creature}"', f'team = "{c.team}"',
                  f"position = [{c.position[0]}, {c.position[1]}]", f"policy = \"{c.policy}\""]
        if c.weapons is not None:
            lines.append("weapons = [" + ", ".join(f'"{w}"' for w in c.weapons) + "]")
        if c.armor is not None:
            lines.append("armor = [" + ", ".join(f'"{a}"' for a in c.armor) + "]")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(scenario_toml(scaled_battle(int(sys.argv[1]))))
