"""Odds cards: for every attacker and enemy of a scenario, what one blow of the attacker's weapon does to that
enemy in its armour, from a million blows of the vectorised pipeline (``systems.vector_blows``) in a second.

The cards complement the skirmish records: the runs say who wins, the cards say why (how often a sword cut gets
through mail, how often it drops a man).
"""

from __future__ import annotations

import csv
from pathlib import Path

from components.rules import LEVEL_CODES, ShockState
from sandbox.blows import BlowSetup, SetupError
from sandbox.vector_odds import vector_odds
from sandbox.world import Sandbox
from systems.ai import choose_mode, mode_options
from systems.creatures import Creature

CARD_FIELDS = ["attacker", "mode", "defender", "blows", "missed", "glancing", "bleeder", "severed", "dead",
               *[f"level_{c}" for c in LEVEL_CODES], *[f"shock_{s.label}" for s in ShockState]]
"""Columns of ``odds.csv``: shares of all blows."""


def _mode_of(world: Sandbox, c: Creature) -> str | None:
    """The mode the creature would strike with in melee reach (its hardest-hitting usable one)."""
    with world.active():
        states = world.damage_model.part_states(c)
        mode = choose_mode(mode_options(c.anatomy, states, c.condition, c.equipment, world.ctx), 0.0)
    return mode.id if mode is not None else None


def odds_cards(scenario: str, blows: int = 100_000, seed: int = 0) -> list[dict[str, object]]:
    """One card per (attacker, enemy) pair of the scenario, as flat records of shares (``CARD_FIELDS``)."""
    world = Sandbox.from_scenario(scenario, seed=seed)
    cards: list[dict[str, object]] = []
    try:
        creatures = world.creatures()
        for c in creatures.values():
            mode = _mode_of(world, c)
            if mode is None:
                continue
            for foe in creatures.values():
                if foe.team == c.team or not foe.anatomy.body.locations:
                    continue
                try:
                    setup = BlowSetup.build(world.catalog, body=foe.anatomy.body, mode=mode,
                                            armor=[p.id for p in foe.armor.pieces],
                                            strength=c.anatomy.attributes.get("strength"),
                                            shock_ml=foe.anatomy.mls.get("shock"),
                                            strength_ml=foe.anatomy.mls.get("strength"))
                except SetupError:
                    continue
                odds = vector_odds(setup, blows, seed)
                n = odds.n or 1
                card: dict[str, object] = {
                    "attacker": c.name, "mode": mode, "defender": foe.name, "blows": odds.n,
                    "missed": odds.missed / n, "glancing": odds.glancing / n, "bleeder": odds.bleeder / n,
                    "severed": odds.amputation["severed"] / n, "dead": odds.dead / n,
                }
                card.update({f"level_{c}": odds.level[c] / n for c in LEVEL_CODES})
                card.update({f"shock_{s.label}": odds.shock[s.label] / n for s in ShockState})
                cards.append(card)
    finally:
        world.close()
    return cards


def write_cards(path: Path, cards: list[dict[str, object]]) -> Path:
    """Write the cards as CSV (shares rounded to 5 places)."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CARD_FIELDS)
        writer.writeheader()
        for card in cards:
            writer.writerow({k: round(v, 5) if isinstance(v, float) else v for k, v in card.items()})
    return path
