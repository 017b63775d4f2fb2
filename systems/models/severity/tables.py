"""Loading the severity model's tables (``configs/models/severity.toml``): validated, checked against the catalog.

The file holds every number of document 001 and the sandbox's decisions around it, and the model's numbers of
creatures (a block per creature: Brawn, Poise, Wit, Speed, racial Threshold, attack bonus, Defense, natural Armor
Value, first aid), strike modes (damage dice, Anti-Armour, indirect) and armour pieces (Armor Value), so one
scenario runs under this model unchanged. What has no entry is derived from its anatomy data by the file's
``[derive]`` conversions (``docs/models/severity.md``); every entry must name something the content defines.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from sandbox.components.models.severity import (
    ATTRIBUTES,
    EFFECTS,
    SeverityCreature,
    SeverityItem,
    SeverityRules,
    SeverityWeapon,
)
from sandbox.config.bounds import DelayHours, DelaySeconds, Faces, Modifier, Points, RepeatHours, Score
from sandbox.config.errors import suggest
from sandbox.config.health_tiers import TiersModel, tier_table
from sandbox.config.limits import MAX_NAME, MAX_POINTS, MAX_SIDES
from sandbox.config.loader import Catalog
from sandbox.models.derive import (
    ASPECT_NAMES,
    ArmorFormula,
    CreatureFormula,
    WeaponFormula,
    armor_features,
    creature_features,
    derived_dice,
    round_half_up,
)
from sandbox.models.health_tiers import check_tiers
from sandbox.models.tables import StrictTable, Tables, TablesLoader, derive_each
from sandbox.systems.dice import parse_dice
from sandbox.systems.models.severity.model import SeverityModel

__all__ = ["LOADER", "NAME", "SCHEMA", "AntiArmor", "ArmorEntryModel", "AspectName", "AttackModel", "AttributeName",
           "CognitionModel", "CreatureBlockModel", "DeriveArmor", "DeriveCreatures", "DeriveFirstAid", "DeriveModel",
           "DeriveWeapons", "DownModel", "EffectName", "EffectsModel", "FirstAidModel", "Id", "ItemEntryModel",
           "LimitsModel", "RestModel", "SeverityModelFile", "SeverityRollModel", "WeaponModeModel", "load",
           "load_tables"]

NAME = "severity"
_FILE = "models/severity.toml"

EffectName = Literal["weaken", "stagger", "daze", "slow", "stun", "bloody"]
AttributeName = Literal["brawn", "poise", "wit", "speed", ""]
AspectName = Literal["blunt", "edged", "piercing", "fire"]
AntiArmor = Literal["none", "halve", "negate"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_NAME)]



class SeverityRollModel(StrictTable):
    """How damage becomes Severity, and what Severity does against Threshold."""

    die: Annotated[int, Field(ge=2, le=MAX_SIDES, description="Faces of the die rolled per point of damage (a d3).")]
    face: Annotated[int, Field(ge=1, le=MAX_SIDES, description="The face that counts one Severity (each 3).")]
    lethal_multiple: Annotated[int, Field(ge=1, le=100, description="Severity above this x Threshold kills (2).")]


class EffectsModel(StrictTable):
    """The wound-effect table."""

    die: Annotated[int, Field(ge=1, le=MAX_SIDES, description="Faces of the effect die (a d6).")]
    table: list[EffectName] = Field(description="The effect of each face, face 1 first.")


class LimitsModel(StrictTable):
    """The natural limits."""

    attribute_floor: Modifier = Field(description="Attributes never fall below this (-1); more damage is overflow.")
    speed_floor: Annotated[int, Field(ge=0, le=MAX_POINTS, description="Speed never falls below this (0).")]


class AttackModel(StrictTable):
    """The attack roll (document 002's d20 + attack bonus vs Defense, decisions.md) as this model reads it."""

    attribute: dict[Literal["melee", "thrown", "missile"], AttributeName] = Field(
        description="Per strike-mode kind, the attribute whose damage lowers the attack bonus.")
    defense_attribute: AttributeName = Field(description="The attribute whose damage lowers Defense.")
    helpless_hits: bool = Field(description="An attack on a creature that cannot defend always lands.")


class CognitionModel(StrictTable):
    """Cognition Points = base ** (Wit + offset)."""

    base: Annotated[int, Field(ge=1, le=10)]
    offset: Annotated[int, Field(ge=-100, le=100)]


class FirstAidModel(StrictTable):
    """First aid: d20 + skill vs the difficulty, with disadvantage on oneself."""

    die: Faces
    difficulty: Modifier
    self_disadvantage: bool
    delay_seconds: DelaySeconds = Field(description="After a fight, before first aid (out of combat).")
    attempts: Annotated[int, Field(ge=0, le=100, description="Attempts per patient after each fight.")]
    reach: Annotated[float, Field(gt=0, le=100, description="In combat: metres within which a creature can give a "
                                                            "team-mate first aid (an adjacent ally).")] = 1.5


class RestModel(StrictTable):
    """Rest: one effect point healed per period, faster with a doctor."""

    period_hours: RepeatHours
    doctor_multiplier: Annotated[int, Field(ge=1, le=100)]
    order: list[EffectName] = Field(description="Which effect first aid and rest reduce first.")
    refills_cognition: bool
    interrupting_check: Annotated[int, Field(ge=0, le=100, description="A skill check of this difficulty or more "
                                                                       "interrupts the roller's rest.")] = 7


class ItemEntryModel(StrictTable):
    """Medicine or equipment for first aid.

    Document 001: "Proper equipment and medicine can reduce the difficulty of the check".
    """

    difficulty: Annotated[int, Field(ge=-20, le=0, description="Added to the first-aid difficulty when the healer "
                                                               "carries it (the best one it carries counts).")]


class DownModel(StrictTable):
    """Incapacitation and fainting."""

    recovery_hours: DelayHours = Field(description="How long an incapacitation lasts (Threshold > 0).")
    exposed_death_hours: DelayHours = Field(description="A fainted creature nobody can tend dies after this long "
                                                        "(0: never).")


class CreatureBlockModel(StrictTable):
    """A creature's numbers under this model."""

    threshold: Modifier = Field(description="Racial base Threshold (Human 3).")
    brawn: Modifier
    poise: Modifier
    wit: Annotated[int, Field(ge=-100, le=100)]
    speed: Points
    attack_bonus: Modifier
    defense: Modifier
    armor_value: Points = 0
    first_aid: Modifier | None = Field(default=None, description="First-aid bonus; absent: cannot give first aid.")


class WeaponModeModel(StrictTable):
    """A strike mode's numbers under this model."""

    damage: Annotated[str, Field(max_length=MAX_NAME, description="Damage dice, NdX+M, or a flat value.")]
    anti_armor: AntiArmor = "none"
    indirect: bool = False


class ArmorEntryModel(StrictTable):
    """An armour piece's numbers under this model."""

    armor_value: Points = Field(description="Armor Value; a creature's adds its natural armour and every piece it "
                                            "wears.")


class DeriveWeapons(StrictTable):
    """How a strike mode's numbers follow from its anatomy data."""

    damage: WeaponFormula = Field(description="The mean damage; the derived dice are the mode's impact dice with "
                                              "the modifier moved to that mean.")
    anti_armor: dict[AspectName, AntiArmor] = Field(
        default_factory=dict, description="Anti-Armour by the mode's aspect (an aspect not listed: none).")
    indirect: list[AspectName] = Field(default_factory=list, description="Aspects whose damage is indirect.")


class DeriveArmor(StrictTable):
    """How an armour piece's Armor Value follows from its protection and coverage."""

    armor_value: ArmorFormula


class DeriveFirstAid(StrictTable):
    """First aid: a creature with some ML in ``skill`` gets a bonus of that ML x ``per_ml``; others give none."""

    skill: Id
    per_ml: Annotated[float, Field(ge=0, le=1000)]


class DeriveCreatures(StrictTable):
    """How a creature's block follows from its anatomy data."""

    attribute_default: Score = Field(description="The score of an attribute the creature's file leaves out.")
    threshold: CreatureFormula
    brawn: CreatureFormula
    poise: CreatureFormula
    wit: CreatureFormula
    speed: CreatureFormula
    attack_bonus: CreatureFormula
    defense: CreatureFormula
    armor_value: CreatureFormula
    first_aid: DeriveFirstAid


class DeriveModel(StrictTable):
    """The conversions that derive an entry the file does not have (``docs/models/severity.md``)."""

    weapons: DeriveWeapons
    armor: DeriveArmor
    creatures: DeriveCreatures


class SeverityModelFile(StrictTable):
    """``configs/models/severity.toml``: every table of document 001 and the model's numbers of the gear."""

    severity: SeverityRollModel
    effects: EffectsModel
    limits: LimitsModel
    attack: AttackModel
    cognition: CognitionModel
    first_aid: FirstAidModel
    rest: RestModel
    down: DownModel
    derive: DeriveModel
    creatures: dict[str, CreatureBlockModel]
    weapons: dict[str, WeaponModeModel] = Field(description='By qualified strike mode id ([weapons."broadsword.cut"]).')
    armor: dict[str, ArmorEntryModel] = Field(description="By armour piece id.")
    items: dict[str, ItemEntryModel] = Field(default_factory=dict, description="First-aid equipment and medicine, "
                                                                               "by item id (items/).")
    health_tiers: TiersModel = Field(default_factory=TiersModel,
                                     description="The readout's tiers on its health fraction (docs/readout.md).")


SCHEMA = SeverityModelFile


def _derive(t: Tables[SeverityModelFile], catalog: Catalog) -> None:
    """Derive every entry the file lacks from the anatomy data (``[derive]``)."""
    d = t.model.derive
    if d.creatures.first_aid.skill not in catalog.skills:
        t.bad(("derive", "creatures", "first_aid", "skill"), None, "a skill in skills.toml",
              repr(d.creatures.first_aid.skill))
        return

    anti_armor: dict[str, str] = {str(k): str(v) for k, v in d.weapons.anti_armor.items()}

    def weapon(mode_id: str) -> dict[str, Any]:
        mode = catalog.modes[mode_id]
        aspect = ASPECT_NAMES[mode.aspect]
        return {"damage": derived_dice(d.weapons.damage, catalog, mode_id),
                "anti_armor": anti_armor.get(aspect, "none"), "indirect": aspect in d.weapons.indirect}

    def armor(armor_id: str) -> dict[str, Any]:
        return {"armor_value": d.armor.armor_value.value(armor_features(catalog, armor_id))}

    def creature(creature_id: str) -> dict[str, Any]:
        c = d.creatures
        kind = catalog.creatures[creature_id]
        features = creature_features(catalog, creature_id, c.attribute_default)
        values: dict[str, Any] = {key: getattr(c, key).value(features) for key in (
            "threshold", "brawn", "poise", "wit", "speed", "attack_bonus", "defense", "armor_value")}
        ml = catalog.skill_ml(kind, c.first_aid.skill) or 0
        values["first_aid"] = round_half_up(ml * c.first_aid.per_ml) if ml > 0 else None
        return values

    derive_each(t, catalog, weapons=(weapon, WeaponModeModel.model_validate),
                armor=(armor, ArmorEntryModel.model_validate), creatures=(creature, CreatureBlockModel.model_validate))


def _check(t: Tables[SeverityModelFile], catalog: Catalog) -> None:
    """Semantic checks: the tables are whole and every entry matches the catalog."""
    m = t.model
    check_tiers(t, m.health_tiers)
    if m.severity.face > m.severity.die:
        t.bad(("severity", "face"), None, f"a face of the d{m.severity.die}", str(m.severity.face))
    if len(m.effects.table) != m.effects.die:
        t.bad(("effects", "table"), None, f"one effect per face of the d{m.effects.die}", f"{len(m.effects.table)}")
    missing = [e for e in EFFECTS if e not in m.effects.table]
    if missing:
        t.bad(("effects", "table"), None, "every effect of document 001 on some face", f"no {', '.join(missing)}")
    if sorted(m.rest.order) != sorted(EFFECTS):
        t.bad(("rest", "order"), None, f"each of {', '.join(EFFECTS)} once", ", ".join(m.rest.order))
    t.unknown_entries(catalog)
    floor = m.limits.attribute_floor
    for cid, block in m.creatures.items():
        name = catalog.creatures[cid].name if cid in catalog.creatures else None
        for attr in ATTRIBUTES:
            if getattr(block, attr) < floor:
                t.bad(("creatures", cid, attr), name, f"at least the attribute floor {floor}",
                      str(getattr(block, attr)))
        if block.speed < m.limits.speed_floor:
            t.bad(("creatures", cid, "speed"), name, f"at least the speed floor {m.limits.speed_floor}",
                  str(block.speed))
        if block.threshold + block.brawn < 1:
            t.bad(("creatures", cid, "threshold"), name, "a Threshold (base + Brawn) of at least 1",
                  str(block.threshold + block.brawn))
    for mode_id, entry in m.weapons.items():
        t.dice(("weapons", mode_id, "damage"), mode_id, entry.damage)
    for item_id in m.items:
        if item_id not in catalog.items:
            t.bad(("items", item_id), item_id, "an item the content defines (items/)", repr(item_id),
                  suggest(item_id, list(catalog.items)))


def _build_rules(m: SeverityModelFile, catalog: Catalog) -> SeverityRules:
    """The frozen tables of a checked file."""
    hours = 3600.0
    return SeverityRules(
        severity_die=m.severity.die, severity_face=m.severity.face, effect_die=m.effects.die,
        effects=tuple(m.effects.table), attribute_floor=m.limits.attribute_floor, speed_floor=m.limits.speed_floor,
        lethal_multiple=m.severity.lethal_multiple,
        attack_attribute={str(kind): str(name) for kind, name in m.attack.attribute.items()},
        defense_attribute=m.attack.defense_attribute, helpless_hits=m.attack.helpless_hits,
        cognition_base=m.cognition.base, cognition_offset=m.cognition.offset, aid_die=m.first_aid.die,
        aid_difficulty=m.first_aid.difficulty, aid_self_disadvantage=m.first_aid.self_disadvantage,
        aid_delay=m.first_aid.delay_seconds, aid_attempts=m.first_aid.attempts,
        rest_period=m.rest.period_hours * hours, doctor_multiplier=m.rest.doctor_multiplier,
        heal_order=tuple(m.rest.order), rest_refills_cognition=m.rest.refills_cognition,
        recovery=m.down.recovery_hours * hours, exposed_death=m.down.exposed_death_hours * hours,
        creatures={cid: SeverityCreature(**b.model_dump()) for cid, b in m.creatures.items()},
        weapons={mode_id: SeverityWeapon(parse_dice(e.damage), e.anti_armor, e.indirect)
                 for mode_id, e in m.weapons.items()},
        armor={aid: e.armor_value for aid, e in m.armor.items()},
        aid_reach=m.first_aid.reach, rest_interrupting_check=m.rest.interrupting_check,
        items={iid: SeverityItem(e.difficulty, catalog.items[iid].consumable) for iid, e in m.items.items()},
        health_tiers=tier_table(m.health_tiers),
    )


LOADER: TablesLoader[SeverityModelFile, SeverityModel] = TablesLoader(NAME, SeverityModelFile, _derive, _check,
                                                  lambda m, catalog: SeverityModel(_build_rules(m, catalog)))
"""How the model's tables load (``sandbox.models.tables.TablesLoader``)."""
load_tables = LOADER.load_tables
load = LOADER.load
