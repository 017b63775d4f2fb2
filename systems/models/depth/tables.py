"""The wound-depth model's tables (``configs/models/depth.toml``): schema, checks against the catalog, build.

Document 002 and decisions.md "Document 002". A strike mode, armour piece or creature with no entry gets one derived
from its anatomy data by the file's ``[derive]`` conversions (``docs/models/depth.md``); every entry must name
something the content defines.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import Field

from sandbox.components.models.depth import (
    CELLS,
    FAMILIES,
    CareRules,
    CreatureDepth,
    DepthInjury,
    DepthTables,
    Mishap,
    WeaponDepth,
)
from sandbox.config.bounds import DelayMinutes, Name, RepeatMinutes, Score, Text
from sandbox.config.health_tiers import TiersModel, tier_table
from sandbox.config.limits import MAX_NAME
from sandbox.config.loader import Catalog
from sandbox.models.derive import (
    ASPECT_NAMES,
    ArmorFormula,
    CreatureFormula,
    WeaponFormula,
    armor_features,
    creature_features,
    natural_protection,
    weapon_features,
)
from sandbox.models.health_tiers import check_tiers
from sandbox.models.tables import StrictTable, Tables, TablesLoader, derive_each
from sandbox.systems.models.depth.model import DepthModel

__all__ = [
    "FAMILY_ASPECT",
    "LOADER",
    "NAME",
    "SCHEMA",
    "ArmorEntry",
    "AspectName",
    "AttackModel",
    "CareModel",
    "CollapseModel",
    "CreatureEntry",
    "DefenseModel",
    "DepthFile",
    "DepthTiersModel",
    "DeriveArmor",
    "DeriveCreatures",
    "DeriveModel",
    "DeriveWeapons",
    "Family",
    "FamilyRow",
    "Id",
    "InjuryCell",
    "InjuryModel",
    "InjuryTable",
    "MishapEffect",
    "MishapModel",
    "MishapsModel",
    "Reduction",
    "WeaponEntry",
    "build",
    "check",
    "load",
    "load_tables",
]

NAME = "depth"

Family = Literal["blunt", "cutting", "piercing", "fire"]
AspectName = Literal["blunt", "edged", "piercing", "fire"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_NAME)]



class AttackModel(StrictTable):
    """The attack roll: d20 + ability modifier (+ modifiers) against Defense."""

    melee_ability: Id = Field(default="strength", description="Attribute whose modifier melee attacks add.")
    ranged_ability: Id = Field(default="dexterity", description="Attribute whose modifier missile and thrown "
                                                                "attacks add.")
    ability_base: Score = Field(default=10, description="Score with modifier 0.")
    ability_step: Annotated[int, Field(ge=1, le=100, description="Score points per modifier point.")] = 2
    called_shot_modifier: Annotated[int, Field(ge=-100, le=0, description="To hit on a called shot.")] = -5


MishapEffect = Literal["drop", "notch", "next_roll", "open_guard"]


class MishapModel(StrictTable):
    """One mishap of a natural 1 and the faces of the mishap die that pick it."""

    name: Annotated[str, Field(min_length=1, description="What happens, in words.")]
    faces: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(min_length=1)]
    effect: MishapEffect = Field(description="drop: the weapon falls from the hand; notch: penalty on every later "
                                             "attack with it; next_roll: penalty on the fumbler's next roll; "
                                             "open_guard: bonus to the next attack against the fumbler.")
    penalty: Annotated[int, Field(ge=-10, le=0, description="notch and next_roll: the penalty.")] = 0
    bonus: Annotated[int, Field(ge=0, le=10, description="open_guard: the bonus.")] = 0
    natural_penalty: Annotated[int, Field(ge=-10, le=0, description="drop and notch with a natural weapon (which "
                                                                    "neither falls nor notches): a penalty on the "
                                                                    "fumbler's next roll instead.")] = 0


class MishapsModel(StrictTable):
    """Document 002's mishaps of a natural 1, one picked by a die."""

    die: Annotated[int, Field(ge=1, le=100, description="Faces of the mishap die.")]
    table: list[MishapModel] = Field(min_length=1, description="Each mishap; their faces cover the die once.")


class DefenseModel(StrictTable):
    """Defense = base + ability modifier + armour ratings (or a creature's fixed Defense + armour)."""

    base: Annotated[int, Field(ge=0, le=40)] = 10
    ability: Id = "dexterity"


class DepthTiersModel(StrictTable):
    """The lowest depth margin of each tier (rising strictly)."""

    skin: Annotated[int, Field(ge=1, le=100)] = 1
    flesh: Annotated[int, Field(ge=1, le=100)] = 4
    bone: Annotated[int, Field(ge=1, le=100)] = 8
    organ: Annotated[int, Field(ge=1, le=100)] = 12


class CollapseModel(StrictTable):
    """Blood loss: the untreated-wound penalty that puts a creature down (sandbox rule)."""

    at_penalty: Annotated[int, Field(ge=0, le=1000, description="Down when the penalty reaches -at_penalty (0: "
                                                                "never).")] = 5


class CareModel(StrictTable):
    """Treatment out of combat: d20 + skill ML // divisor (+ modifiers) against the injury's DC."""

    skill: Id = "physician"
    skill_divisor: Annotated[int, Field(ge=1, le=1000)] = 10
    self_care_modifier: Annotated[int, Field(ge=-100, le=0)] = -4
    first_aid_delay_minutes: DelayMinutes = 1.0
    attempt_minutes: RepeatMinutes = 1.0


class InjuryModel(StrictTable):
    """What a wound does."""

    name: Name
    penalty: Annotated[int, Field(ge=-10, le=0, description="On the creature's rolls while untreated.")] = 0
    breaks: bool = Field(default=False, description="The part stops working until set.")
    lost: bool = Field(default=False, description="The part is lost for good.")
    down: bool = Field(default=False, description="The creature is down until treated.")
    dies_after: Annotated[int, Field(ge=0, le=10000, description="Rounds to death unless treated (0: never).")] = 0
    kills: bool = Field(default=False, description="The creature dies at once.")
    treat_dc: Annotated[int, Field(ge=0, le=40, description="Treatment DC (0: needs none).")] = 0


class InjuryCell(InjuryModel):
    """One depth x damage type cell; ``worst`` is a natural 20's result at that depth (default: the same)."""

    worst: InjuryModel | None = None


class FamilyRow(StrictTable):
    """A depth row: one cell per damage type."""

    blunt: InjuryCell
    cutting: InjuryCell
    piercing: InjuryCell
    fire: InjuryCell


class InjuryTable(StrictTable):
    """The injury of each depth x damage type; organ wounds split by Vital/Core part or limb."""

    skin: FamilyRow
    flesh: FamilyRow
    bone: FamilyRow
    organ_core: FamilyRow
    organ_limb: FamilyRow


class WeaponEntry(StrictTable):
    """A strike mode: its damage-type family and depth bonus."""

    type: Family
    depth_bonus: Annotated[int, Field(ge=-10, le=20)] = 0


class ArmorEntry(StrictTable):
    """An armour piece: its rating, added to Defense."""

    rating: Annotated[int, Field(ge=0, le=10)]


class Reduction(StrictTable):
    """Depth reduction per damage type (what a hide, scales or bulk turn)."""

    blunt: Annotated[int, Field(ge=0, le=30)] = 0
    cutting: Annotated[int, Field(ge=0, le=30)] = 0
    piercing: Annotated[int, Field(ge=0, le=30)] = 0
    fire: Annotated[int, Field(ge=0, le=30)] = 0


class CreatureEntry(StrictTable):
    """A creature kind: fixed Defense (hostiles), modifier overrides, its anatomy note."""

    defense: Annotated[int, Field(ge=0, le=40)] | None = Field(
        default=None, description="Fixed Defense instead of base + Dexterity modifier (armour still adds).")
    strength_modifier: Annotated[int, Field(ge=-10, le=20)] | None = None
    dexterity_modifier: Annotated[int, Field(ge=-10, le=20)] | None = None
    depth_reduction: Reduction = Field(default_factory=Reduction)
    note: Text = ""


class DeriveWeapons(StrictTable):
    """How a strike mode's entry follows from its anatomy data."""

    type: dict[AspectName, Family] = Field(description="The damage-type family of each aspect (all four).")
    depth_bonus: WeaponFormula


class DeriveArmor(StrictTable):
    """How an armour piece's rating follows from its protection and coverage."""

    rating: ArmorFormula


class DeriveCreatures(StrictTable):
    """How a creature's entry follows from its anatomy data."""

    attribute_default: Score = Field(description="The score of an attribute the creature's file leaves out.")
    defense: CreatureFormula = Field(description="A fixed Defense (armour still adds).")
    modifier_min: Annotated[int, Field(ge=-100, le=100)] = Field(
        description="A Strength or Dexterity modifier below this is entered as this.")
    modifier_max: Annotated[int, Field(ge=-100, le=100)] = Field(
        description="A Strength or Dexterity modifier above this is entered as this (a dragon's Strength 48 would "
                    "read +19).")
    depth_reduction: CreatureFormula = Field(description="Per damage type; natural_protection is that type's "
                                                         "aspect's natural protection.")
    note: Text = ""


class DeriveModel(StrictTable):
    """The conversions that derive an entry the file does not have (``docs/models/depth.md``)."""

    weapons: DeriveWeapons
    armor: DeriveArmor
    creatures: DeriveCreatures


class DepthFile(StrictTable):
    """``configs/models/depth.toml``: the wound-depth model (document 002)."""

    attack: AttackModel = Field(default_factory=AttackModel)
    mishaps: MishapsModel
    defense: DefenseModel = Field(default_factory=DefenseModel)
    depth: DepthTiersModel = Field(default_factory=DepthTiersModel)
    collapse: CollapseModel = Field(default_factory=CollapseModel)
    care: CareModel = Field(default_factory=CareModel)
    injuries: InjuryTable
    derive: DeriveModel
    weapons: dict[str, WeaponEntry]
    armor: dict[str, ArmorEntry]
    creatures: dict[str, CreatureEntry]
    health_tiers: TiersModel = Field(default_factory=TiersModel,
                                     description="The readout's tiers on its health fraction (docs/readout.md).")


SCHEMA = DepthFile



def _injury(m: InjuryModel) -> DepthInjury:
    return DepthInjury(m.name, m.penalty, m.breaks, m.lost, m.down, m.dies_after, m.kills, m.treat_dc)


FAMILY_ASPECT = {"blunt": "blunt", "cutting": "edged", "piercing": "piercing", "fire": "fire"}
"""The aspect whose natural protection a damage-type family's depth reduction is derived from."""


def _derive(t: Tables[DepthFile], catalog: Catalog) -> None:
    """Derive every entry the file lacks from the anatomy data (``[derive]``)."""
    m = t.model
    d = m.derive
    families: dict[str, str] = {str(k): str(v) for k, v in d.weapons.type.items()}
    missing = [a for a in ASPECT_NAMES if a not in families]
    if missing:
        t.bad(("derive", "weapons", "type"), None, "a family for each of blunt, edged, piercing, fire",
              f"none for {', '.join(missing)}")
        return

    def weapon(mode_id: str) -> dict[str, Any]:
        aspect = ASPECT_NAMES[catalog.modes[mode_id].aspect]
        return {"type": families[aspect],
                "depth_bonus": d.weapons.depth_bonus.value(weapon_features(catalog, mode_id))}

    def armor(armor_id: str) -> dict[str, Any]:
        return {"rating": d.armor.rating.value(armor_features(catalog, armor_id))}

    def creature(creature_id: str) -> dict[str, Any]:
        c = d.creatures
        kind = catalog.creatures[creature_id]
        features = creature_features(catalog, creature_id, c.attribute_default)
        values: dict[str, Any] = {"defense": c.defense.value(features)}
        for key, ability in (("strength_modifier", m.attack.melee_ability),
                             ("dexterity_modifier", m.attack.ranged_ability)):
            sheet = (int(kind.attributes.get(ability, c.attribute_default)) - m.attack.ability_base) \
                // m.attack.ability_step
            values[key] = min(max(sheet, c.modifier_min), c.modifier_max) if not (
                c.modifier_min <= sheet <= c.modifier_max) else None
        natural = natural_protection(catalog.bodies[kind.body])
        values["depth_reduction"] = {
            family: c.depth_reduction.value({**features, "natural_protection": natural[ASPECT_NAMES.index(aspect)]})
            for family, aspect in FAMILY_ASPECT.items()}
        values["note"] = c.note
        return values

    derive_each(t, catalog, weapons=(weapon, WeaponEntry.model_validate),
                armor=(armor, ArmorEntry.model_validate), creatures=(creature, CreatureEntry.model_validate))


def check(t: Tables[DepthFile], catalog: Catalog) -> None:
    """Record every semantic problem of validated tables against ``catalog``."""
    m = t.model
    check_tiers(t, m.health_tiers)
    tiers = [m.depth.skin, m.depth.flesh, m.depth.bone, m.depth.organ]
    if any(b <= a for a, b in pairwise(tiers)):
        t.bad(("depth",), None, "skin < flesh < bone < organ", f"{tiers}")
    for where, ability in ((("attack", "melee_ability"), m.attack.melee_ability),
                           (("attack", "ranged_ability"), m.attack.ranged_ability),
                           (("defense", "ability"), m.defense.ability)):
        skill = catalog.skills.get(ability)
        if skill is None or skill.kind != "attribute":
            t.bad(where, None, "an attribute in skills.toml", repr(ability))
    faces = sorted(f for mishap in m.mishaps.table for f in mishap.faces)
    if faces != list(range(1, m.mishaps.die + 1)):
        t.bad(("mishaps", "table"), None, f"faces covering 1..{m.mishaps.die} (the die) once each", f"{faces}")
    for i, mishap in enumerate(m.mishaps.table):
        needs = {"notch": "penalty", "next_roll": "penalty", "open_guard": "bonus"}.get(mishap.effect)
        if needs is not None and getattr(mishap, needs) == 0:
            article = "an" if mishap.effect[0] in "aeiou" else "a"
            t.bad(("mishaps", "table", i, needs), mishap.name, f"a {needs} for {article} {mishap.effect} mishap", "0")
    if m.care.skill not in catalog.skills:
        t.bad(("care", "skill"), None, "a skill in skills.toml", repr(m.care.skill))
    for cell in CELLS:
        row = getattr(m.injuries, cell)
        for family in FAMILIES:
            c: InjuryCell = getattr(row, family)
            cells: tuple[tuple[tuple[str, ...], InjuryModel | None], ...] = (
                (("injuries", cell, family), c), (("injuries", cell, family, "worst"), c.worst))
            for key, injury in cells:
                if injury is None:
                    continue
                built = _injury(injury)
                if built.lasting and not built.kills and injury.treat_dc == 0:
                    t.bad((*key, "treat_dc"), injury.name, "a DC >= 1 for an injury with a lasting effect", "0")
    t.unknown_entries(catalog)


def build(m: DepthFile) -> DepthTables:
    """The frozen tables of validated, checked tables."""
    injuries: dict[tuple[str, str], tuple[DepthInjury, DepthInjury]] = {}
    for cell in CELLS:
        row = getattr(m.injuries, cell)
        for family in FAMILIES:
            c: InjuryCell = getattr(row, family)
            ordinary = _injury(c)
            injuries[(cell, family)] = (ordinary, _injury(c.worst) if c.worst is not None else ordinary)
    a, d = m.attack, m.depth
    return DepthTables(
        melee_ability=a.melee_ability, ranged_ability=a.ranged_ability, defense_ability=m.defense.ability,
        ability_base=a.ability_base, ability_step=a.ability_step, defense_base=m.defense.base,
        called_shot_modifier=a.called_shot_modifier, mishap_die=m.mishaps.die,
        mishaps=tuple(Mishap(x.name, tuple(x.faces), x.effect, x.penalty, x.bonus, x.natural_penalty)
                      for x in m.mishaps.table),
        tiers=(d.skin, d.flesh, d.bone, d.organ), collapse_at=m.collapse.at_penalty, injuries=injuries,
        weapons={k: WeaponDepth(v.type, v.depth_bonus) for k, v in m.weapons.items()},
        armor={k: v.rating for k, v in m.armor.items()},
        creatures={k: CreatureDepth(v.defense, v.strength_modifier, v.dexterity_modifier,
                                    (v.depth_reduction.blunt, v.depth_reduction.cutting, v.depth_reduction.piercing,
                                     v.depth_reduction.fire), v.note)
                   for k, v in m.creatures.items()},
        care=CareRules(m.care.skill, m.care.skill_divisor, m.care.self_care_modifier,
                       m.care.first_aid_delay_minutes * 60.0, m.care.attempt_minutes * 60.0),
        health_tiers=tier_table(m.health_tiers),
    )


LOADER: TablesLoader[DepthFile, DepthModel] = TablesLoader(NAME, DepthFile, _derive, check,
                                                  lambda m, catalog: DepthModel(build(m)))
"""How the model's tables load (``sandbox.models.tables.TablesLoader``)."""
load_tables = LOADER.load_tables
load = LOADER.load
