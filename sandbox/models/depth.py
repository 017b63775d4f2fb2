"""The wound-depth model's tables (``configs/models/depth.toml``): schema, checks against the catalog, build.

Document 002 and decisions.md "Document 002". Every strike mode, armour piece and creature of the catalog must
have an entry, and every entry must name something the catalog defines.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from components.depth import CELLS, FAMILIES, CareRules, CreatureDepth, DepthTables, Injury, WeaponDepth
from sandbox.config import Catalog, ConfigError, Problem
from sandbox.config.loader import read_validated
from systems.models.depth import DepthModel

NAME = "depth"

Family = Literal["blunt", "cutting", "piercing", "fire"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


class AttackModel(_Strict):
    """The attack roll: d20 + ability modifier (+ modifiers) against Defense."""

    melee_ability: Id = Field(default="strength", description="Attribute whose modifier melee attacks add.")
    ranged_ability: Id = Field(default="dexterity", description="Attribute whose modifier missile and thrown "
                                                                "attacks add.")
    ability_base: int = Field(default=10, description="Score with modifier 0.")
    ability_step: Annotated[int, Field(ge=1, description="Score points per modifier point.")] = 2
    called_shot_modifier: Annotated[int, Field(le=0, description="To hit on a called shot.")] = -5
    natural_20_hits: bool = Field(default=True, description="A natural 20 always hits (sandbox rule).")
    natural_1_misses: bool = Field(default=True, description="A natural 1 always misses (sandbox rule).")
    mishap_penalty: Annotated[int, Field(le=0, description="A natural 1's penalty on the attacker's next roll.")] = -1


class DefenseModel(_Strict):
    """Defense = base + ability modifier + armour ratings (or a creature's fixed Defense + armour)."""

    base: Annotated[int, Field(ge=0, le=40)] = 10
    ability: Id = "dexterity"


class DepthTiersModel(_Strict):
    """The lowest depth margin of each tier (rising strictly)."""

    skin: Annotated[int, Field(ge=1)] = 1
    flesh: Annotated[int, Field(ge=1)] = 4
    bone: Annotated[int, Field(ge=1)] = 8
    organ: Annotated[int, Field(ge=1)] = 12


class CollapseModel(_Strict):
    """Blood loss: the untreated-wound penalty that puts a creature down (sandbox rule)."""

    at_penalty: Annotated[int, Field(ge=0, description="Down when the penalty reaches -at_penalty (0: never).")] = 5


class CareModel(_Strict):
    """Treatment out of combat: d20 + skill ML // divisor (+ modifiers) against the injury's DC."""

    skill: Id = "physician"
    skill_divisor: Annotated[int, Field(ge=1)] = 10
    self_care_modifier: Annotated[int, Field(le=0)] = -4
    first_aid_delay_minutes: Annotated[float, Field(ge=0)] = 1.0
    attempt_minutes: Annotated[float, Field(gt=0)] = 1.0


class InjuryModel(_Strict):
    """What a wound does."""

    name: Annotated[str, Field(min_length=1)]
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


class FamilyRow(_Strict):
    """A depth row: one cell per damage type."""

    blunt: InjuryCell
    cutting: InjuryCell
    piercing: InjuryCell
    fire: InjuryCell


class InjuryTable(_Strict):
    """The injury of each depth x damage type; organ wounds split by Vital/Core part or limb."""

    skin: FamilyRow
    flesh: FamilyRow
    bone: FamilyRow
    organ_core: FamilyRow
    organ_limb: FamilyRow


class WeaponEntry(_Strict):
    """A strike mode: its damage-type family and depth bonus."""

    type: Family
    depth_bonus: Annotated[int, Field(ge=-10, le=20)] = 0


class ArmorEntry(_Strict):
    """An armour piece: its rating, added to Defense."""

    rating: Annotated[int, Field(ge=0, le=10)]


class Reduction(_Strict):
    """Depth reduction per damage type (what a hide, scales or bulk turn)."""

    blunt: Annotated[int, Field(ge=0, le=30)] = 0
    cutting: Annotated[int, Field(ge=0, le=30)] = 0
    piercing: Annotated[int, Field(ge=0, le=30)] = 0
    fire: Annotated[int, Field(ge=0, le=30)] = 0


class CreatureEntry(_Strict):
    """A creature kind: fixed Defense (hostiles), modifier overrides, its anatomy note."""

    defense: Annotated[int, Field(ge=0, le=40)] | None = Field(
        default=None, description="Fixed Defense instead of base + Dexterity modifier (armour still adds).")
    strength_modifier: Annotated[int, Field(ge=-10, le=20)] | None = None
    dexterity_modifier: Annotated[int, Field(ge=-10, le=20)] | None = None
    depth_reduction: Reduction = Field(default_factory=Reduction)
    note: str = ""


class DepthFile(_Strict):
    """``configs/models/depth.toml``: the wound-depth model (document 002)."""

    attack: AttackModel = Field(default_factory=AttackModel)
    defense: DefenseModel = Field(default_factory=DefenseModel)
    depth: DepthTiersModel = Field(default_factory=DepthTiersModel)
    collapse: CollapseModel = Field(default_factory=CollapseModel)
    care: CareModel = Field(default_factory=CareModel)
    injuries: InjuryTable
    weapons: dict[str, WeaponEntry]
    armor: dict[str, ArmorEntry]
    creatures: dict[str, CreatureEntry]


SCHEMA = DepthFile


def _injury(m: InjuryModel) -> Injury:
    return Injury(m.name, m.penalty, m.breaks, m.lost, m.down, m.dies_after, m.kills, m.treat_dc)


def check(m: DepthFile, catalog: Catalog, label: str) -> list[Problem]:
    """Every semantic problem of validated tables against ``catalog``."""
    problems: list[Problem] = []

    def bad(key: str, entry: str | None, expected: str, found: str) -> None:
        problems.append(Problem(label, key, entry, expected, found))

    tiers = [m.depth.skin, m.depth.flesh, m.depth.bone, m.depth.organ]
    if any(b <= a for a, b in pairwise(tiers)):
        bad("depth", None, "skin < flesh < bone < organ", f"{tiers}")
    for key, ability in (("attack.melee_ability", m.attack.melee_ability),
                         ("attack.ranged_ability", m.attack.ranged_ability), ("defense.ability", m.defense.ability)):
        skill = catalog.skills.get(ability)
        if skill is None or skill.kind != "attribute":
            bad(key, None, "an attribute in skills.toml", repr(ability))
    if m.care.skill not in catalog.skills:
        bad("care.skill", None, "a skill in skills.toml", repr(m.care.skill))
    for cell in CELLS:
        row = getattr(m.injuries, cell)
        for family in FAMILIES:
            c: InjuryCell = getattr(row, family)
            for key, injury in ((f"injuries.{cell}.{family}", c), (f"injuries.{cell}.{family}.worst", c.worst)):
                if injury is None:
                    continue
                built = _injury(injury)
                if built.lasting and not built.kills and injury.treat_dc == 0:
                    bad(f"{key}.treat_dc", injury.name, "a DC >= 1 for an injury with a lasting effect", "0")
    for kind, entries, known, what in (("weapons", m.weapons, catalog.modes, "strike mode"),
                                       ("armor", m.armor, catalog.armor, "armour piece"),
                                       ("creatures", m.creatures, catalog.creatures, "creature")):
        for name in sorted(set(known) - set(entries)):
            bad(kind, name, f"an entry for every {what} ({kind}.{name!r} is missing)", "none")
        for name in sorted(set(entries) - set(known)):
            bad(f"{kind}.{name}", name, f"a {what} the configs define", repr(name))
    return problems


def build(m: DepthFile) -> DepthTables:
    """The frozen tables of validated, checked tables."""
    injuries: dict[tuple[str, str], tuple[Injury, Injury]] = {}
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
        called_shot_modifier=a.called_shot_modifier, natural_20_hits=a.natural_20_hits,
        natural_1_misses=a.natural_1_misses, mishap_penalty=a.mishap_penalty,
        tiers=(d.skin, d.flesh, d.bone, d.organ), collapse_at=m.collapse.at_penalty, injuries=injuries,
        weapons={k: WeaponDepth(v.type, v.depth_bonus) for k, v in m.weapons.items()},
        armor={k: v.rating for k, v in m.armor.items()},
        creatures={k: CreatureDepth(v.defense, v.strength_modifier, v.dexterity_modifier,
                                    (v.depth_reduction.blunt, v.depth_reduction.cutting, v.depth_reduction.piercing,
                                     v.depth_reduction.fire), v.note)
                   for k, v in m.creatures.items()},
        care=CareRules(m.care.skill, m.care.skill_divisor, m.care.self_care_modifier,
                       m.care.first_aid_delay_minutes * 60.0, m.care.attempt_minutes * 60.0),
    )


def load(catalog: Catalog, root: Path) -> DepthModel:
    """Read, validate and check ``root/models/depth.toml``; the model with its tables.

    Raises:
        ConfigError: Every problem of the file.
    """
    model, _, label = read_validated(root / "models" / f"{NAME}.toml", root, SCHEMA)
    problems = check(model, catalog, label)
    if problems:
        raise ConfigError(problems)
    return DepthModel(build(model))
