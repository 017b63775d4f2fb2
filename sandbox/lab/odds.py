"""Odds cards: what one blow of an attacker's strike does to an enemy in its armour.

They tell how often a sword cut gets through mail and how often it drops a man, from the vectorised pipeline
(``sandbox.systems.models.anatomy.vector_blows``).

The runs say who wins, the cards say why. A card depends only on (strike mode, the attacker's Strength, the
defender's body, armour, test MLs and the attacker's aim), so each distinct one is computed once, however many
attacker-enemy pairs share it (a hundred a side of the same gear: a handful of cards), and the cards are computed
in the lab's worker pool like the runs.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path

from sandbox.blows import BlowSetup, SetupError
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.config.content import ScenarioRef, scenario_ref
from sandbox.systems.ai import choose_mode, mode_options
from sandbox.systems.creatures import Creature
from sandbox.vector_odds import vector_odds
from sandbox.world import Sandbox

from .variants import Variant, variant_content

__all__ = ["CARD_FIELDS", "MAX_ODDS_BLOWS", "CardKey", "card", "card_keys", "cards_csv", "odds_cards"]

MAX_ODDS_BLOWS = 1_000_000
"""The most blows per card (a million blows take about a second; more would hold a Ctrl-C for as long)."""
CARD_FIELDS = ["mode", "strength", "body", "armor", "aim", "pairs", "example", "blows", "missed", "glancing",
               "bleeder", "severed", "dead", *[f"level_{c}" for c in LEVEL_CODES],
               *[f"shock_{s.label}" for s in ShockState]]
"""Columns of ``odds.csv``: the card's key, how many attacker-enemy pairs share it and one of them, then shares of
all blows."""


@dataclass(frozen=True, slots=True)
class CardKey:
    """What a card depends on.

    Attributes:
        mode: The attacker's strike mode in melee reach (its hardest-hitting usable one).
        strength: The attacker's Strength score (the impact modifier).
        body: The defender's body id.
        armor: The defender's armour ids, as worn.
        aim: The attacker's aim ("unaimed", "random" or a part).
        shock_ml: The defender's Shock ML.
        strength_ml: The defender's Strength ML (amputation tests).
    """

    mode: str
    strength: int | None
    body: str
    armor: tuple[str, ...]
    aim: str
    shock_ml: int | None
    strength_ml: int | None


def _mode_of(world: Sandbox, c: Creature) -> str | None:
    with world.active():
        states = world.damage_model.part_states(c)
        mode = choose_mode(mode_options(c.anatomy, states, c.condition, c.equipment, world.ctx), 0.0)
    return mode.id if mode is not None else None


def card_keys(scenario: str | Path | ScenarioRef,
              variant: Variant | None = None) -> dict[CardKey, list[tuple[str, str]]]:
    """Each distinct card of the scenario and the (attacker, defender) pairs it covers."""
    content = variant_content(variant or Variant("baseline"), scenario)
    world = Sandbox.from_spec(content.scenario, catalog=content.catalog)
    keys: dict[CardKey, list[tuple[str, str]]] = {}
    try:
        creatures = list(world.creatures().values())
        modes = {c.entity: _mode_of(world, c) for c in creatures}
        for c in creatures:
            mode = modes[c.entity]
            if mode is None:
                continue
            for foe in creatures:
                if foe.team == c.team or not foe.anatomy.body.locations:
                    continue
                aim = c.combatant.aim if c.combatant.aim not in ("", "random") else "unaimed"
                key = CardKey(mode, c.anatomy.attributes.get("strength"), foe.anatomy.body.id,
                              tuple(p.id for p in foe.armor.pieces), aim, foe.anatomy.mls.get("shock"),
                              foe.anatomy.mls.get("strength"))
                keys.setdefault(key, []).append((c.name, foe.name))
    finally:
        world.close()
    return keys


def card(scenario: str | Path | ScenarioRef, key: CardKey, blows: int, seed: int,
         variant: Variant | None = None) -> dict[str, object]:
    """One card's shares (``CARD_FIELDS`` less the pairs).

    It is ``{"error": ...}`` instead when its numbers are out of the range the vectorised pipeline computes in (a
    Strength of 10**21 overflows its integers).
    """
    catalog = variant_content(variant or Variant("baseline"), scenario).catalog
    try:
        setup = BlowSetup.build(catalog, body=catalog.bodies[key.body], mode=key.mode, armor=list(key.armor),
                                aim=None if key.aim == "unaimed" else key.aim, strength=key.strength,
                                shock_ml=key.shock_ml, strength_ml=key.strength_ml)
        odds = vector_odds(setup, blows, seed)
    except SetupError as exc:
        return {"error": str(exc)}
    except (OverflowError, ValueError, FloatingPointError) as exc:
        return {"error": f"numbers out of range for the odds pipeline ({type(exc).__name__}: {exc})"}
    n = odds.n or 1
    out: dict[str, object] = {"blows": odds.n, "missed": odds.missed / n, "glancing": odds.glancing / n,
                              "bleeder": odds.bleeder / n, "severed": odds.amputation["severed"] / n,
                              "dead": odds.dead / n}
    out.update({f"level_{c}": odds.level[c] / n for c in LEVEL_CODES})
    out.update({f"shock_{s.label}": odds.shock[s.label] / n for s in ShockState})
    return out


def odds_cards(scenario: str | Path | ScenarioRef, blows: int = 100_000, seed: int = 0,
               executor: Executor | None = None,
               variant: Variant | None = None) -> tuple[list[dict[str, object]], list[str]]:
    """Every distinct card of the scenario, and a line per card that could not be computed.

    The cards are computed on ``executor`` (default: here); the resolved scenario, with its content trees, travels with
    each card's work.

    Returns:
        (cards as flat records of ``CARD_FIELDS``, problems).
    """
    scenario = scenario_ref(scenario)
    keys = card_keys(scenario, variant)
    futures: list[tuple[CardKey, Future[dict[str, object]] | dict[str, object]]] = []
    for key in keys:
        if executor is None:
            futures.append((key, card(scenario, key, blows, seed, variant)))
        else:
            futures.append((key, executor.submit(card, scenario, key, blows, seed, variant)))
    cards, problems = [], []
    try:
        for key, pending in futures:
            shares = pending.result() if isinstance(pending, Future) else pending
            pairs = keys[key]
            if "error" in shares:
                problems.append(f"odds card {key.mode} against {key.body} in {'+'.join(key.armor) or 'no armour'} "
                                f"skipped: {shares['error']}")
                continue
            cards.append({"mode": key.mode, "strength": key.strength, "body": key.body, "armor": "+".join(key.armor),
                          "aim": key.aim, "pairs": len(pairs), "example": f"{pairs[0][0]} -> {pairs[0][1]}",
                          **shares})
    finally:
        for _, pending in futures:
            if isinstance(pending, Future):
                pending.cancel()
    return cards, problems


def cards_csv(cards: Sequence[dict[str, object]]) -> bytes:
    """The cards as ``odds.csv`` (shares rounded to 5 places)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CARD_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for c in cards:
        writer.writerow({k: round(v, 5) if isinstance(v, float) else v for k, v in c.items()})
    return buffer.getvalue().encode("utf-8")
