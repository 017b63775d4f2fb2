"""Loading the strength-health model's tables (``configs/models/strength.toml``, document 003).

The file is validated with pydantic (strict, unknown keys rejected); a strike mode, armour piece or creature with
no entry gets one derived from its anatomy data by the file's ``[derive]`` conversions (``docs/models/strength.md``);
then everything is checked against the catalog: every entry must name something the content defines, dice must be
of the allowed sizes and abilities within the cap. Every problem is collected and raised as one ``ConfigError``.

Every Armour value's key is ``armor`` (an armour piece's, a shield's, a creature's natural one and their
``[derive]`` formulas); a file may still spell it ``armour``, the old spelling (deprecated; the shipped file keeps
it), and the tables read the same.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, ConfigDict, Field, model_validator

from sandbox.components.models.strength import (
    ABILITIES,
    CONDITIONS,
    ConditionEffect,
    CreatureBlock,
    HealingItem,
    ItemUse,
    StrengthTables,
    WeaponDamage,
)
from sandbox.config.bounds import Coefficient, Faces, Modifier, Points, RepeatHours, Score
from sandbox.config.errors import suggest
from sandbox.config.health_tiers import TiersModel, tier_table
from sandbox.config.limits import MAX_NAME, MAX_SCORE, MAX_SIDES, MAX_SPAN_DAYS, MIN_TICK_SECONDS
from sandbox.config.loader import Catalog
from sandbox.models.derive import (
    ASPECT_NAMES,
    ArmorFormula,
    CreatureFormula,
    WeaponFormula,
    armor_features,
    creature_features,
    mean_of,
    weapon_features,
)
from sandbox.models.health_tiers import check_tiers
from sandbox.models.tables import StrictTable, Tables, TablesLoader, derive_each
from sandbox.systems.dice import parse_dice
from sandbox.systems.models.strength.model import StrengthModel

__all__ = ["LOADER", "NAME", "SCHEMA", "Ability", "AbilityRules", "ArmorModel", "AspectName", "AttackRules",
           "ConditionModel", "ConditionsModel", "Count", "CreatureModel", "DeriveArmor", "DeriveCreatures",
           "DeriveModel", "DeriveShields", "DeriveWeapons", "DiceRules", "HealthRules", "Id", "ItemModel",
           "ItemUseModel", "RestRules", "ShieldModel", "StrengthFile", "WeaponModel", "check", "load", "load_tables",
           "nearest_die", "tables_from"]

NAME = "strength"

Count = Annotated[int, Field(ge=0, le=100)]
Ability = Annotated[int, Field(ge=1, le=MAX_SCORE)]
AspectName = Literal["blunt", "edged", "piercing", "fire"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_NAME)]



_OLD_ARMOR = "armour"
"""The old spelling of every ``armor`` key of the file (deprecated, still read; the shipped file still spells it so)."""
_ARMOR = AliasChoices("armor", _OLD_ARMOR)


def _either_spelling(schema: dict[str, Any]) -> None:
    """The JSON Schema of a table with an ``armor`` key: ``armor`` or the deprecated ``armour``, one of them."""
    properties = schema["properties"]
    properties[_OLD_ARMOR] = {**properties["armor"], "deprecated": True,
                             "description": "The old spelling of armor (deprecated): the same value."}
    if "title" in properties[_OLD_ARMOR]:
        properties[_OLD_ARMOR]["title"] = "Armour"
    required = schema.get("required", [])
    if "armor" in required:
        required.remove("armor")
        if not required:
            del schema["required"]
        schema["oneOf"] = [{"required": ["armor"]}, {"required": [_OLD_ARMOR]}]
    else:
        schema["not"] = {"required": ["armor", _OLD_ARMOR]}


class _Armored(StrictTable):
    """A table with an ``armor`` key, which a file may spell ``armour`` (the old spelling).

    Where both reach one table (a content tree's ``armor`` laid over the shipped file's ``armour``), ``armor`` wins.
    """

    model_config = ConfigDict(json_schema_extra=_either_spelling)

    @model_validator(mode="before")
    @classmethod
    def _one_spelling(cls, data: Any) -> Any:
        if isinstance(data, dict) and "armor" in data and _OLD_ARMOR in data:
            return {key: value for key, value in data.items() if key != _OLD_ARMOR}
        return data


class HealthRules(StrictTable):
    """Health, critical damage, the stretch and dying."""

    critical_ratio: Annotated[float, Field(gt=0, le=1, description="Share of the health remaining whose loss at "
                                                                   "once is critical damage (0.5: half).")]
    stretch: Literal["skirmish"] | Annotated[float, Field(ge=MIN_TICK_SECONDS, le=MAX_SPAN_DAYS * 86400)] = Field(
        description='How long critical damage incapacitates: "skirmish" (the rest of the fight) or seconds.')
    dying_rounds: Annotated[int, Field(ge=1, le=10_000, description="A dying creature dies at the end of this "
                                                                    "many rounds (1: the next).")]
    damage_while_dying_kills: bool = Field(description="Damage to a dying creature kills it.")


class DiceRules(StrictTable):
    """The damage dice."""

    sizes: Annotated[list[Faces], Field(min_length=1, max_length=100, description="Allowed damage dice.")]
    explode: bool = Field(description="On its maximum a die is rolled again and adds the new roll minus 1.")


class AbilityRules(StrictTable):
    """STR, WIT and AGI."""

    max: Ability = Field(description="The highest an ability can be.")
    max_human: Ability = Field(description="The highest a human's ability can be.")
    temporary_loss_die: Annotated[int, Field(ge=1, le=MAX_SIDES, description="The die of the Injuries table's "
                                                                             "ability losses.")]
    shift_with: dict[Literal["STR", "WIT", "AGI"], str] = Field(
        default_factory=dict, description="Ability -> the creature attribute whose scenario override shifts it by "
                                          "the same difference.")


class AttackRules(StrictTable):
    """The attack roll (document 002's d20 roll, decisions.md)."""

    defenceless_defense: Modifier = Field(description="Defense of a creature that cannot act.")
    skill_step: Count = Field(description="Every this many ML a scenario adds to a weapon skill is +1 attack "
                                          "(0: off).")
    natural_20_enhanced: Count = Field(description="Enhancements of a natural 20's damage (0: none).")


class RestRules(StrictTable):
    """Rest out of combat."""

    full_rest_hours: RepeatHours = Field(description="Hours out of combat that make a full rest.")
    heals: Literal["all"] | Points = Field(description='Health a full rest restores ("all" or points).')


class ConditionModel(StrictTable):
    """What a condition does in a fight."""

    attack: Modifier = 0
    defense: Modifier = 0
    impaired: Count = 0
    drops_shield: bool = Field(default=False, description="The injured arm lets go of a shield it holds (an arm "
                                                          "injury: the arm of its side).")


class ConditionsModel(StrictTable):
    """Every condition the Injuries table leaves."""

    hobbled: ConditionModel
    arm_injury_secondary: ConditionModel
    arm_injury_primary: ConditionModel
    eye_injury: ConditionModel
    blind: ConditionModel


class WeaponModel(StrictTable):
    """A strike mode's damage."""

    die: Faces = Field(description="Damage die size (one of dice.sizes).")
    bonus: Modifier = Field(default=0, description="Flat points added to the kept roll.")
    enhanced: Count = 0
    impaired: Count = 0
    direct: bool = Field(default=False, description="Direct damage ignores armour.")
    attack: Modifier = Field(default=0, description="Added to the attack roll.")


class ArmorModel(_Armored):
    """An armour piece's Armour value."""

    armor: Points = Field(validation_alias=_ARMOR)


class ShieldModel(_Armored):
    """A shield's Armour value (document 003: "It is increased by wearing armour and holding shields")."""

    armor: Annotated[int, Field(ge=0, le=20, validation_alias=_ARMOR,
                                description="Added to the Armour value while the shield is held by a usable, free "
                                            "hand of a creature able to act.")]


class ItemModel(StrictTable):
    """A healing item's effect.

    Document 003: "Lost health can be recovered by resting (see Rest) or using healing items".
    """

    heals: str = Field(description="Health restored: dice NdX+M or a flat value (at least 1 point).")


class ItemUseModel(StrictTable):
    """When the AI has a creature use a healing item in a fight (sandbox rules)."""

    reach: Annotated[float, Field(gt=0, le=100, description="Metres within which a dying team-mate can be given "
                                                            "one.")]
    self_at: Annotated[float, Field(ge=0, le=1, description="A creature uses one on itself when its health is at "
                                                            "most this share of its STR.")]
    self_in_melee: bool = Field(default=True, description="It uses one on itself even with an enemy within its "
                                                          "reach (a team-mate only with none).")


class CreatureModel(_Armored):
    """A creature block."""

    STR: Ability
    WIT: Ability
    AGI: Ability
    attack: Modifier = Field(description="Attack bonus of the d20 roll.")
    defense: Modifier = Field(description="Defense.")
    armor: Points = Field(default=0, validation_alias=_ARMOR, description="Natural Armour value (hide, scales).")
    human: bool = Field(default=False, description="Abilities cap at abilities.max_human.")


class DeriveWeapons(StrictTable):
    """How a strike mode's damage follows from its anatomy data."""

    die: WeaponFormula = Field(description="The die size aimed at; the allowed size nearest to it is taken (a tie: "
                                           "the smaller).")
    bonus: WeaponFormula
    impaired_below: Coefficient = Field(description="A mode whose mean impact is below this is impaired once.")
    enhanced_from: Coefficient = Field(description="A mode whose mean impact is at least this is enhanced once.")
    direct: list[AspectName] = Field(default_factory=list, description="Aspects whose damage ignores armour.")
    attack: WeaponFormula


class DeriveArmor(_Armored):
    """How an armour piece's Armour value follows from its protection and coverage."""

    armor: ArmorFormula = Field(validation_alias=_ARMOR)


class DeriveCreatures(_Armored):
    """How a creature's block follows from its anatomy data (abilities are then capped as every block is)."""

    attribute_default: Score = Field(description="The score of an attribute the creature's file leaves out.")
    STR: CreatureFormula
    WIT: CreatureFormula
    AGI: CreatureFormula
    attack: CreatureFormula
    defense: CreatureFormula
    armor: CreatureFormula = Field(validation_alias=_ARMOR)
    human_bodies: list[Id] = Field(default_factory=list, description="A creature of these bodies is human (its "
                                                                     "abilities cap at max_human).")


class DeriveShields(_Armored):
    """A shield's Armour value when the file gives none (a shield has no anatomy number to derive it from)."""

    armor: Annotated[int, Field(ge=0, le=20, validation_alias=_ARMOR)]


class DeriveModel(StrictTable):
    """The conversions that derive an entry the file does not have (``docs/models/strength.md``)."""

    weapons: DeriveWeapons
    armor: DeriveArmor
    creatures: DeriveCreatures
    shields: DeriveShields


class StrengthFile(StrictTable):
    """``configs/models/strength.toml``: the strength-health model (document 003)."""

    health: HealthRules
    dice: DiceRules
    abilities: AbilityRules
    attack: AttackRules
    rest: RestRules
    conditions: ConditionsModel
    derive: DeriveModel
    weapons: dict[str, WeaponModel]
    armor: dict[str, ArmorModel]
    creatures: dict[str, CreatureModel]
    shields: dict[str, ShieldModel] = Field(default_factory=dict, description="By shield (weapon id).")
    items: dict[str, ItemModel] = Field(default_factory=dict, description="Healing items, by item id (items/).")
    item_use: ItemUseModel
    health_tiers: TiersModel = Field(default_factory=TiersModel,
                                     description="The readout's tiers on its health fraction (docs/readout.md).")


SCHEMA = StrengthFile


def nearest_die(target: float, sizes: list[int]) -> int:
    """The allowed die size nearest to ``target`` (a tie goes to the smaller die)."""
    return min(sorted(sizes), key=lambda size: abs(size - target))


def _derive(t: Tables[StrengthFile], catalog: Catalog) -> None:
    """Derive every entry the file lacks from the anatomy data (``[derive]``)."""
    data = t.model
    d = data.derive

    def weapon(mode_id: str) -> dict[str, Any]:
        w = d.weapons
        mode = catalog.modes[mode_id]
        features = weapon_features(catalog, mode_id)
        impact = mean_of(mode.impact)
        return {"die": nearest_die(w.die.total(features), data.dice.sizes), "bonus": w.bonus.value(features),
                "enhanced": int(impact >= w.enhanced_from), "impaired": int(impact < w.impaired_below),
                "direct": ASPECT_NAMES[mode.aspect] in w.direct, "attack": w.attack.value(features)}

    def armor(armor_id: str) -> dict[str, Any]:
        return {"armor": d.armor.armor.value(armor_features(catalog, armor_id))}

    def creature(creature_id: str) -> dict[str, Any]:
        c = d.creatures
        human = catalog.creatures[creature_id].body in c.human_bodies
        cap = data.abilities.max_human if human else data.abilities.max
        features = creature_features(catalog, creature_id, c.attribute_default)
        values: dict[str, Any] = {ability: min(getattr(c, ability).value(features), cap) for ability in ABILITIES}
        values.update(attack=c.attack.value(features), defense=c.defense.value(features),
                      armor=c.armor.value(features), human=human)
        return values

    derive_each(t, catalog, weapons=(weapon, WeaponModel.model_validate),
                armor=(armor, ArmorModel.model_validate), creatures=(creature, CreatureModel.model_validate))
    for weapon_id, w in catalog.weapons.items():
        if w.shield and weapon_id not in data.shields:
            data.shields[weapon_id] = ShieldModel(armor=d.shields.armor)
            t.derived.setdefault("shields", {})[weapon_id] = {"armor": d.shields.armor}


def check(t: Tables[StrengthFile], catalog: Catalog) -> None:
    """The semantic checks: entries name what the content defines, dice sizes, ability caps, attribute names."""
    data = t.model
    check_tiers(t, data.health_tiers)
    t.unknown_entries(catalog)
    sizes = data.dice.sizes
    for key, weapon in data.weapons.items():
        if weapon.die not in sizes:
            t.bad(("weapons", key, "die"), key, f"one of the dice sizes {sizes}", repr(weapon.die))
    if data.abilities.max_human > data.abilities.max:
        t.bad(("abilities", "max_human"), None, f"at most abilities.max ({data.abilities.max})",
              repr(data.abilities.max_human))
    for key, creature in data.creatures.items():
        cap = data.abilities.max_human if creature.human else data.abilities.max
        for ability in ABILITIES:
            value = getattr(creature, ability)
            if value > cap:
                t.bad(("creatures", key, ability), key, f"at most {cap} ({'human ' if creature.human else ''}ability "
                      "cap)", repr(value))
    shields = sorted(k for k, w in catalog.weapons.items() if w.shield)
    for key in data.shields:
        if key not in shields:
            t.bad(("shields", key), key, f"a shield the content defines ({', '.join(shields) or 'none'})", repr(key),
                  suggest(key, shields))
    for key, item in data.items.items():
        if key not in catalog.items:
            t.bad(("items", key), key, "an item the content defines (items/)", repr(key),
                  suggest(key, list(catalog.items)))
        before = len(t.problems)
        t.dice(("items", key, "heals"), key, item.heals)
        if len(t.problems) == before and parse_dice(item.heals).maximum < 1:
            t.bad(("items", key, "heals"), key, "dice that can heal at least 1 point", repr(item.heals))
    attributes = sorted(k for k, v in catalog.skills.items() if v.kind == "attribute")
    for ability, attribute in data.abilities.shift_with.items():
        if attribute not in attributes:
            t.bad(("abilities", "shift_with", ability), None, f"a creature attribute ({', '.join(attributes)})",
                  repr(attribute))


def tables_from(data: StrengthFile, catalog: Catalog) -> StrengthTables:
    """The frozen tables of a validated, checked file."""
    return StrengthTables(
        critical_ratio=data.health.critical_ratio,
        stretch=None if data.health.stretch == "skirmish" else float(data.health.stretch),
        dying_rounds=data.health.dying_rounds,
        damage_while_dying_kills=data.health.damage_while_dying_kills,
        dice=tuple(data.dice.sizes),
        explode=data.dice.explode,
        ability_max=data.abilities.max,
        ability_max_human=data.abilities.max_human,
        loss_die=data.abilities.temporary_loss_die,
        shift_with={str(k): v for k, v in data.abilities.shift_with.items()},
        defenceless_defense=data.attack.defenceless_defense,
        skill_step=data.attack.skill_step,
        natural_20_enhanced=data.attack.natural_20_enhanced,
        full_rest_hours=data.rest.full_rest_hours,
        full_rest_heals=None if data.rest.heals == "all" else int(data.rest.heals),
        conditions={c: ConditionEffect(**getattr(data.conditions, c).model_dump()) for c in CONDITIONS},
        weapons={k: WeaponDamage(**w.model_dump()) for k, w in data.weapons.items()},
        armor={k: a.armor for k, a in data.armor.items()},
        creatures={k: CreatureBlock({a: getattr(c, a) for a in ABILITIES}, c.attack, c.defense, c.armor, c.human)
                   for k, c in data.creatures.items()},
        items={k: HealingItem(parse_dice(i.heals), catalog.items[k].consumable) for k, i in data.items.items()},
        shields={k: s.armor for k, s in data.shields.items()},
        item_use=ItemUse(data.item_use.reach, data.item_use.self_at, data.item_use.self_in_melee),
        health_tiers=tier_table(data.health_tiers),
    )


LOADER: TablesLoader[StrengthFile, StrengthModel] = TablesLoader(NAME, StrengthFile, _derive, check,
                                                  lambda m, catalog: StrengthModel(tables_from(m, catalog)))
"""How the model's tables load (``sandbox.models.tables.TablesLoader``)."""
load_tables = LOADER.load_tables
load = LOADER.load
