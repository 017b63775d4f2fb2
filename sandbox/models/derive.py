"""Deriving a point model's entries from the anatomy data: the features and the conversions every model shares.

A weapon, armour piece or creature written only for the anatomy model has no entry in ``models/<model>.toml``;
each point model then derives one from its anatomy data by the conversions in that file's ``[derive]`` table
(``docs/models/<model>.md``). Most numbers are a *formula*: ``round(base + sum of coefficient x feature)``, rounded
half up, then kept within ``min`` and ``max``. The features are fixed, named measures of the anatomy data:

- a strike mode: ``impact`` (the mean of its impact dice), ``spread``, ``reach``, ``range``, ``attack_modifier``
  (ML points), and 1-or-0 indicators of its aspect (``blunt``, ``edged``, ``piercing``, ``fire``), its kind
  (``melee``, ``thrown``, ``missile``) and a ``natural`` weapon;
- an armour piece: ``protection`` (the mean over the four aspects) and each aspect's (``blunt`` ...), ``coverage``
  (the share of unaimed blows on its body that land on what it covers, 0 to 1), ``covered_protection``
  (protection x coverage), ``rigid`` (1 or 0);
- a creature: its attribute scores (``strength``, ``endurance``, ``will``, ``dexterity``, ``agility``,
  ``perception``; an attribute its file leaves out counts as ``attribute_default``), ``dodge`` (the ML of the
  sandbox's defence skill), ``attack_skill`` (the best ML of the skills of its weapons' modes), ``scale`` (its
  body's), ``natural_protection`` (its body's natural protection: the mean over the aspects, weighted by where
  unaimed blows land; 0 for an incorporeal body) and ``speed`` (metres per tick).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sandbox.components.body import BodyStructure
from sandbox.components.gear import Dice
from sandbox.config.checks import MAX_MODIFIER
from sandbox.config.limits import MAX_COEFFICIENT
from sandbox.config.loader import Catalog
from sandbox.systems.hit_location import build_hit_table, location_probabilities

__all__ = ["ASPECT_NAMES", "ATTRIBUTE_NAMES", "ArmorFormula", "Coefficient", "CreatureFormula", "Formula",
           "WeaponFormula", "armor_features", "creature_features", "derived_dice", "dice_with_mean", "hit_shares",
           "mean_of", "natural_protection", "round_half_up", "values_text", "weapon_features"]

ASPECT_NAMES = ("blunt", "edged", "piercing", "fire")
"""The aspects in their index order (``sandbox.components.body.Aspect``)."""
ATTRIBUTE_NAMES = ("strength", "endurance", "will", "dexterity", "agility", "perception")
"""The creature attributes a formula may read."""


def round_half_up(value: float) -> int:
    """``value`` rounded to the nearest integer, halves upward (2.5 -> 3, -2.5 -> -2), as a designer rounds."""
    return math.floor(value + 0.5)


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


Coefficient = Annotated[float, Field(ge=-MAX_COEFFICIENT, le=MAX_COEFFICIENT, allow_inf_nan=False)]
"""A formula's coefficient, base or bound (within a million either way)."""


class Formula(_Strict):
    """``round(base + sum of coefficient x feature)``, rounded half up, kept within ``min`` and ``max``."""

    base: Coefficient = 0.0
    min: Coefficient | None = Field(default=None, description="The lowest value (none: no bound).")
    max: Coefficient | None = Field(default=None, description="The highest value (none: no bound).")

    def total(self, features: Mapping[str, float]) -> float:
        """The unrounded, unbounded sum (a mean damage the dice are fitted to)."""
        coefficients = self.model_dump(exclude={"base", "min", "max"})
        return self.base + sum(float(weight) * features[name] for name, weight in coefficients.items() if weight)

    def bounded(self, value: float) -> float:
        """``value`` kept within ``min`` and ``max``."""
        if self.min is not None:
            value = max(value, self.min)
        if self.max is not None:
            value = min(value, self.max)
        return value

    def value(self, features: Mapping[str, float]) -> int:
        """The formula's whole number for these features."""
        return int(self.bounded(round_half_up(self.total(features))))


class WeaponFormula(Formula):
    """A formula over a strike mode's features."""

    impact: Coefficient = 0.0
    spread: Coefficient = 0.0
    reach: Coefficient = 0.0
    range: Coefficient = 0.0
    attack_modifier: Coefficient = 0.0
    blunt: Coefficient = 0.0
    edged: Coefficient = 0.0
    piercing: Coefficient = 0.0
    fire: Coefficient = 0.0
    melee: Coefficient = 0.0
    thrown: Coefficient = 0.0
    missile: Coefficient = 0.0
    natural: Coefficient = 0.0


class ArmorFormula(Formula):
    """A formula over an armour piece's features."""

    protection: Coefficient = 0.0
    blunt: Coefficient = 0.0
    edged: Coefficient = 0.0
    piercing: Coefficient = 0.0
    fire: Coefficient = 0.0
    coverage: Coefficient = 0.0
    covered_protection: Coefficient = 0.0
    rigid: Coefficient = 0.0


class CreatureFormula(Formula):
    """A formula over a creature's features."""

    strength: Coefficient = 0.0
    endurance: Coefficient = 0.0
    will: Coefficient = 0.0
    dexterity: Coefficient = 0.0
    agility: Coefficient = 0.0
    perception: Coefficient = 0.0
    dodge: Coefficient = 0.0
    attack_skill: Coefficient = 0.0
    scale: Coefficient = 0.0
    natural_protection: Coefficient = 0.0
    speed: Coefficient = 0.0


def mean_of(dice: Dice) -> float:
    """The mean of a dice expression."""
    return dice.count * (dice.sides + 1) / 2 + dice.modifier


def dice_with_mean(dice: Dice, mean: float) -> str:
    """``dice`` with its modifier moved so its mean is ``mean`` (to the nearest whole modifier).

    A derived damage keeps the shape of the weapon's impact (a d10 weapon stays swingy, a 3d6 one steady). The modifier
    stays within the bounds of every dice expression (``MAX_MODIFIER``), so the largest impact dice still derive a valid
    entry.
    """
    modifier = round_half_up(mean - dice.count * (dice.sides + 1) / 2)
    return str(Dice(dice.count, dice.sides, min(max(modifier, -MAX_MODIFIER), MAX_MODIFIER)))


def derived_dice(formula: WeaponFormula, catalog: Catalog, mode_id: str) -> str:
    """A strike mode's derived damage dice: its impact dice with the modifier moved to the formula's mean."""
    return dice_with_mean(catalog.modes[mode_id].impact, formula.bounded(formula.total(weapon_features(catalog,
                                                                                                       mode_id))))


def weapon_features(catalog: Catalog, mode_id: str) -> dict[str, float]:
    """The features of a strike mode (see the module's docstring)."""
    mode = catalog.modes[mode_id]
    features = {"impact": mean_of(mode.impact), "spread": float(mode.spread), "reach": mode.reach,
                "range": mode.range, "attack_modifier": float(mode.attack_modifier),
                "natural": float(catalog.weapons[mode.weapon].natural)}
    features.update({name: float(i == mode.aspect) for i, name in enumerate(ASPECT_NAMES)})
    features.update({kind: float(kind == mode.kind) for kind in ("melee", "thrown", "missile")})
    return features


def hit_shares(body: BodyStructure) -> list[float]:
    """The share of unaimed blows landing on each location of a body (all 0 for an incorporeal body)."""
    if not body.locations:
        return []
    shares, _ = location_probabilities(body, build_hit_table(body))
    return shares


def armor_features(catalog: Catalog, armor_id: str) -> dict[str, float]:
    """The features of an armour piece on the body it is made for."""
    piece = catalog.armor[armor_id]
    body = catalog.bodies[piece.body]
    coverage = sum(share for share, loc in zip(hit_shares(body), body.locations, strict=True)
                   if loc.name.casefold() in piece.covers)
    protection = sum(piece.protection) / len(piece.protection)
    features = {"protection": protection, "coverage": coverage, "covered_protection": protection * coverage,
                "rigid": float(piece.rigid)}
    features.update({name: float(piece.protection[i]) for i, name in enumerate(ASPECT_NAMES)})
    return features


def natural_protection(body: BodyStructure) -> list[float]:
    """A body's natural protection per aspect, weighted by where unaimed blows land."""
    shares = hit_shares(body)
    return [sum(share * loc.protection[aspect] for share, loc in zip(shares, body.locations, strict=True))
            for aspect in range(len(ASPECT_NAMES))]


def creature_features(catalog: Catalog, creature_id: str, attribute_default: float) -> dict[str, float]:
    """The features of a creature.

    ``natural_protection`` is the mean over the aspects; see ``natural_protection`` for each aspect's.
    """
    creature = catalog.creatures[creature_id]
    features = {name: float(creature.attributes.get(name, attribute_default)) for name in ATTRIBUTE_NAMES}
    skills = [mode.skill for wid in creature.weapons if wid in catalog.weapons for mode in catalog.weapons[wid].modes]
    body = catalog.bodies[creature.body]
    features.update(
        dodge=float(catalog.skill_ml(creature, catalog.combat.defence_skill) or 0),
        attack_skill=float(max((catalog.skill_ml(creature, skill) or 0 for skill in skills), default=0)),
        scale=body.scale, natural_protection=sum(natural_protection(body)) / len(ASPECT_NAMES),
        speed=creature.speed if creature.speed is not None else catalog.combat.default_speed)
    return features


def values_text(values: Mapping[str, Any]) -> str:
    """Derived values as a TOML inline table's contents.

    For example ``damage = "1d8+1", anti_armor = "halve"``, ready to be pasted into the model's file as an explicit
    entry.
    """
    def toml(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return f'"{value}"'
        if isinstance(value, Mapping):
            return "{ " + values_text(value) + " }"
        return str(value)

    return ", ".join(f"{key} = {toml(value)}" for key, value in values.items() if value is not None)
