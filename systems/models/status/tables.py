"""Loading the status-ladder model's tables (``configs/models/status.toml``, document 004).

The file is validated (strict types, no unknown keys); a strike mode, armour piece or creature with no entry gets
one derived from its anatomy data by the file's ``[derive]`` conversions (``docs/models/status.md``); then
everything is checked against the catalog: every entry must name something the content defines, dice must parse
and the penalty ladder must worsen rung by rung. Every problem is collected into one ``ConfigError``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sandbox.components.models.status import StatusCreature, StatusTables, StatusWeapon
from sandbox.config.bounds import Modifier, Penalty, Points, RepeatDays, RepeatHours, RepeatSeconds, Score
from sandbox.config.health_tiers import TiersModel, tier_table
from sandbox.config.limits import MAX_MODIFIER, MAX_NAME, MAX_POINTS, MAX_SIDES
from sandbox.config.loader import Catalog
from sandbox.models.derive import (
    ArmorFormula,
    CreatureFormula,
    WeaponFormula,
    armor_features,
    creature_features,
    derived_dice,
    weapon_features,
)
from sandbox.models.health_tiers import check_tiers
from sandbox.models.tables import StrictTable, Tables, TablesLoader, derive_each
from sandbox.systems.dice import parse_dice
from sandbox.systems.models.status.model import StatusModel
from sandbox.systems.models.status.rules import DAY, HOUR

__all__ = ["LOADER", "NAME", "SCHEMA", "ArmorEntry", "CreatureEntry", "DeriveArmor", "DeriveCreatures", "DeriveModel",
           "DeriveWeapons", "Healing", "PassingOut", "PenaltyReduction", "Speed", "StatusModelFile", "WeaponEntry",
           "load", "load_tables"]

NAME = "status"



class PassingOut(StrictTable):
    """Passing out and coming round (sandbox rules: decisions.md, document 004)."""

    die: Annotated[int, Field(ge=2, le=MAX_SIDES, description="Die of the passing-out test: the creature passes "
                                                             "out when the roll exceeds its Constitution.")] = 20
    come_round_die: Annotated[int, Field(ge=2, le=MAX_SIDES, description="Die of the coming-round test: the "
                                                                        "creature comes round when the roll is at "
                                                                        "most its Constitution.")] = 20
    come_round_seconds: RepeatSeconds = Field(description="Game seconds between coming-round tests.")


class Speed(StrictTable):
    """How the status penalty slows a creature."""

    loss_per_penalty_point: Annotated[float, Field(ge=0, le=1, description="Fraction of walking speed lost per "
                                                                           "point of roll penalty.")]
    min_factor: Annotated[float, Field(ge=0, le=1, description="Walking speed never falls below this fraction.")]


class Healing(StrictTable):
    """Rest out of combat (``Sandbox.advance``)."""

    minor_hours: RepeatHours = Field(description="Rest that clears the minor-injury tally.")
    days_per_level: Annotated[list[RepeatDays], Field(
        min_length=5, max_length=5,
        description="Days of rest to heal one rung, from slightly, wounded, seriously, critically and mortally "
                    "wounded.")]
    mortal_untended_hours: RepeatHours = Field(description="A mortally wounded creature nobody tends dies this long "
                                                           "after the wound.")


class WeaponEntry(StrictTable):
    """A strike mode's damage under this model."""

    damage: Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="Damage dice in HP (NdX+M).")]
    attack_bonus: Modifier = Field(default=0, description="Added to the attack roll with this mode.")


class ArmorEntry(StrictTable):
    """An armour piece's value, subtracted from every wound's damage."""

    value: Points = Field(description="HP subtracted from each wound while worn.")


class CreatureEntry(StrictTable):
    """A creature kind's numbers."""

    constitution: Annotated[int, Field(ge=0, le=100, description="Tested against the passing-out die.")]
    endurance: Annotated[int, Field(ge=1, le=MAX_POINTS, description="HP per damage level.")]
    attack_bonus: Modifier = Field(description="Added to its d20 attack roll.")
    defense: Annotated[int, Field(ge=0, le=MAX_MODIFIER, description="What an attack roll must beat.")]
    armor: Points = Field(default=0, description="Natural armour value (hide, scales).")
    penalty_reduction: Annotated[int, Field(ge=0, le=10, description="Points of damage penalty its strength of will "
                                                                     "or fitness removes (never below half the table "
                                                                     "value); absent: from its Constitution by "
                                                                     "[penalty_reduction].")] | None = None


class PenaltyReduction(StrictTable):
    """How Constitution lessens the damage penalties.

    One point of penalty off for every ``per`` points of Constitution above ``above``, never below half the table value.
    Document 004: "characters of strong will or fitness (Constitution), who either feel their wounds less or can
    overcome them by willpower".
    """

    above: Annotated[int, Field(ge=0, le=100, description="The Constitution that feels its wounds fully.")]
    per: Annotated[int, Field(ge=1, le=100, description="Points of Constitution above it per point of penalty "
                                                        "removed.")]


class DeriveWeapons(StrictTable):
    """How a strike mode's numbers follow from its anatomy data."""

    damage: WeaponFormula = Field(description="The mean damage in HP; the derived dice are the mode's impact dice "
                                              "with the modifier moved to that mean.")
    attack_bonus: WeaponFormula


class DeriveArmor(StrictTable):
    """How an armour piece's value follows from its protection and coverage."""

    value: ArmorFormula


class DeriveCreatures(StrictTable):
    """How a creature's numbers follow from its anatomy data."""

    attribute_default: Score = Field(description="The score of an attribute the creature's file leaves out.")
    constitution: CreatureFormula
    endurance: CreatureFormula
    attack_bonus: CreatureFormula
    defense: CreatureFormula
    armor: CreatureFormula


class DeriveModel(StrictTable):
    """The conversions that derive an entry the file does not have (``docs/models/status.md``)."""

    weapons: DeriveWeapons
    armor: DeriveArmor
    creatures: DeriveCreatures


class StatusModelFile(StrictTable):
    """``configs/models/status.toml``: the status ladder (document 004)."""

    penalties: Annotated[list[Penalty], Field(
        min_length=6, max_length=6,
        description="Roll penalty of healthy, slightly, wounded, seriously, critically and mortally wounded.")]
    penalty_to_damage: bool = Field(default=False, description="The attacker's penalty also lowers its damage "
                                                               "roll.")
    penalty_reduction: PenaltyReduction
    passing_out: PassingOut
    speed: Speed
    healing: Healing
    derive: DeriveModel
    weapons: dict[str, WeaponEntry] = Field(description="By qualified strike mode id (broadsword.cut).")
    armor: dict[str, ArmorEntry] = Field(description="By armour piece id.")
    creatures: dict[str, CreatureEntry] = Field(description="By creature id.")
    health_tiers: TiersModel = Field(default_factory=TiersModel,
                                     description="The readout's tiers on its health fraction (docs/readout.md).")


SCHEMA = StatusModelFile


def _derive(t: Tables[StatusModelFile], catalog: Catalog) -> None:
    """Derive every entry the file lacks from the anatomy data (``[derive]``)."""
    d = t.model.derive

    def weapon(mode_id: str) -> dict[str, Any]:
        return {"damage": derived_dice(d.weapons.damage, catalog, mode_id),
                "attack_bonus": d.weapons.attack_bonus.value(weapon_features(catalog, mode_id))}

    def armor(armor_id: str) -> dict[str, Any]:
        return {"value": d.armor.value.value(armor_features(catalog, armor_id))}

    def creature(creature_id: str) -> dict[str, Any]:
        c = d.creatures
        features = creature_features(catalog, creature_id, c.attribute_default)
        return {key: getattr(c, key).value(features) for key in (
            "constitution", "endurance", "attack_bonus", "defense", "armor")}

    derive_each(t, catalog, weapons=(weapon, WeaponEntry.model_validate),
                armor=(armor, ArmorEntry.model_validate), creatures=(creature, CreatureEntry.model_validate))


def _check(t: Tables[StatusModelFile], catalog: Catalog) -> None:
    """Semantic problems: entries name what the content defines, dice, a worsening ladder."""
    model = t.model
    check_tiers(t, model.health_tiers)
    pens = model.penalties
    for i in range(1, len(pens)):
        if pens[i] > pens[i - 1]:
            t.bad(("penalties", i), None, f"a penalty at least as bad as the rung above ({pens[i - 1]})",
                  repr(pens[i]))
    t.unknown_entries(catalog)
    for key, entry in model.weapons.items():
        t.dice(("weapons", key, "damage"), key, entry.damage)


def build_tables(model: StatusModelFile) -> StatusTables:
    """The model's ``StatusTables`` from its validated file."""
    healing, passing, speed = model.healing, model.passing_out, model.speed
    return StatusTables(
        penalties=tuple(model.penalties),
        penalty_to_damage=model.penalty_to_damage,
        reduction_above=model.penalty_reduction.above,
        reduction_per=model.penalty_reduction.per,
        passing_out_die=passing.die,
        come_round_die=passing.come_round_die,
        come_round_seconds=passing.come_round_seconds,
        speed_loss_per_point=speed.loss_per_penalty_point,
        min_speed_factor=speed.min_factor,
        minor_heal_seconds=healing.minor_hours * HOUR,
        heal_seconds=tuple(d * DAY for d in healing.days_per_level),
        mortal_untended_seconds=healing.mortal_untended_hours * HOUR,
        weapons={k: StatusWeapon(parse_dice(w.damage), w.attack_bonus) for k, w in model.weapons.items()},
        armor={k: a.value for k, a in model.armor.items()},
        creatures={k: StatusCreature(c.constitution, c.endurance, c.attack_bonus, c.defense, c.armor,
                                     c.penalty_reduction) for k, c in model.creatures.items()},
        health_tiers=tier_table(model.health_tiers),
    )


LOADER: TablesLoader[StatusModelFile, StatusModel] = TablesLoader(NAME, StatusModelFile, _derive, _check,
                                                  lambda m, catalog: StatusModel(build_tables(m)))
"""How the model's tables load (``sandbox.models.tables.TablesLoader``)."""
load_tables = LOADER.load_tables
load = LOADER.load
