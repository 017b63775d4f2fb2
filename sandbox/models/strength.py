"""Loading the strength-health model's tables (``configs/models/strength.toml``, document 003).

The file is validated with pydantic (strict, unknown keys rejected), then checked against the catalog: every
shipped strike mode, armour piece and creature needs an entry, every entry must name one that exists, dice must
be of the allowed sizes and abilities within the cap. Every problem is collected and raised as one
``ConfigError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from components.strength import ABILITIES, CONDITIONS, ConditionEffect, CreatureBlock, StrengthTables, WeaponDamage
from sandbox.config import Catalog, ConfigError, Problem
from sandbox.config.loader import read_validated
from systems.models.strength import StrengthModel

NAME = "strength"

Count = Annotated[int, Field(ge=0)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class HealthRules(_Strict):
    """Health, critical damage, the stretch and dying."""

    critical_ratio: Annotated[float, Field(gt=0, le=1, description="Share of the health remaining whose loss at "
                                                                   "once is critical damage (0.5: half).")]
    stretch: Literal["skirmish"] | Annotated[float, Field(gt=0)] = Field(
        description='How long critical damage incapacitates: "skirmish" (the rest of the fight) or seconds.')
    dying_rounds: Annotated[int, Field(ge=1, description="A dying creature dies at the end of this many rounds "
                                                         "(1: the next).")]
    damage_while_dying_kills: bool = Field(description="Damage to a dying creature kills it.")


class DiceRules(_Strict):
    """The damage dice."""

    sizes: Annotated[list[Annotated[int, Field(ge=2)]], Field(min_length=1, description="Allowed damage dice.")]
    explode: bool = Field(description="On its maximum a die is rolled again and adds the new roll minus 1.")


class AbilityRules(_Strict):
    """STR, WIT and AGI."""

    max: Annotated[int, Field(ge=1, description="The highest an ability can be.")]
    max_human: Annotated[int, Field(ge=1, description="The highest a human's ability can be.")]
    temporary_loss_die: Annotated[int, Field(ge=1, description="The die of the Injuries table's ability losses.")]
    shift_with: dict[Literal["STR", "WIT", "AGI"], str] = Field(
        default_factory=dict, description="Ability -> the creature attribute whose scenario override shifts it by "
                                          "the same difference.")


class AttackRules(_Strict):
    """The attack roll (document 002's d20 roll, decisions.md)."""

    defenceless_defense: int = Field(description="Defense of a creature that cannot act.")
    skill_step: Count = Field(description="Every this many ML a scenario adds to a weapon skill is +1 attack "
                                          "(0: off).")
    natural_20_enhanced: Count = Field(description="Enhancements of a natural 20's damage (0: none).")


class RestRules(_Strict):
    """Rest out of combat."""

    full_rest_hours: Annotated[float, Field(ge=0.01, description="Hours out of combat that make a full rest.")]
    heals: Literal["all"] | Count = Field(description='Health a full rest restores ("all" or points).')


class ConditionModel(_Strict):
    """What a condition does in a fight."""

    attack: int = 0
    defense: int = 0
    impaired: Count = 0


class ConditionsModel(_Strict):
    """Every condition the Injuries table leaves."""

    hobbled: ConditionModel
    arm_injury_secondary: ConditionModel
    arm_injury_primary: ConditionModel
    eye_injury: ConditionModel
    blind: ConditionModel


class WeaponModel(_Strict):
    """A strike mode's damage."""

    die: int = Field(description="Damage die size (one of dice.sizes).")
    bonus: int = Field(default=0, description="Flat points added to the kept roll.")
    enhanced: Count = 0
    impaired: Count = 0
    direct: bool = Field(default=False, description="Direct damage ignores armour.")
    attack: int = Field(default=0, description="Added to the attack roll.")


class ArmorModel(_Strict):
    """An armour piece's Armour value."""

    armour: Count


class CreatureModel(_Strict):
    """A creature block."""

    STR: Annotated[int, Field(ge=1)]
    WIT: Annotated[int, Field(ge=1)]
    AGI: Annotated[int, Field(ge=1)]
    attack: int = Field(description="Attack bonus of the d20 roll.")
    defense: int = Field(description="Defense.")
    armour: Count = Field(default=0, description="Natural Armour value (hide, scales).")
    human: bool = Field(default=False, description="Abilities cap at abilities.max_human.")


class StrengthFile(_Strict):
    """``configs/models/strength.toml``: the strength-health model (document 003)."""

    health: HealthRules
    dice: DiceRules
    abilities: AbilityRules
    attack: AttackRules
    rest: RestRules
    conditions: ConditionsModel
    weapons: dict[str, WeaponModel]
    armor: dict[str, ArmorModel]
    creatures: dict[str, CreatureModel]


SCHEMA = StrengthFile


def _coverage(label: str, table: str, entries: dict[str, Any], known: list[str], what: str) -> list[Problem]:
    problems = [Problem(label, f"{table}.{key}", key, f"{what} of the catalog ({', '.join(known)})", repr(key))
                for key in entries if key not in known]
    problems += [Problem(label, table, None, f"an entry for every {what} ([{table}.\"{key}\"])", f"none for {key!r}")
                 for key in known if key not in entries]
    return problems


def check(data: StrengthFile, catalog: Catalog, label: str) -> list[Problem]:
    """The semantic checks: coverage of the catalog, dice sizes, ability caps, attribute names."""
    problems = _coverage(label, "weapons", data.weapons, sorted(catalog.modes), "strike mode")
    problems += _coverage(label, "armor", data.armor, sorted(catalog.armor), "armour piece")
    problems += _coverage(label, "creatures", data.creatures, sorted(catalog.creatures), "creature")
    sizes = data.dice.sizes
    for key, weapon in data.weapons.items():
        if weapon.die not in sizes:
            problems.append(Problem(label, f"weapons.{key}.die", key, f"one of the dice sizes {sizes}",
                                    repr(weapon.die)))
    if data.abilities.max_human > data.abilities.max:
        problems.append(Problem(label, "abilities.max_human", None, f"at most abilities.max ({data.abilities.max})",
                                repr(data.abilities.max_human)))
    for key, creature in data.creatures.items():
        cap = data.abilities.max_human if creature.human else data.abilities.max
        for ability in ABILITIES:
            value = getattr(creature, ability)
            if value > cap:
                problems.append(Problem(label, f"creatures.{key}.{ability}", key,
                                        f"at most {cap} ({'human ' if creature.human else ''}ability cap)",
                                        repr(value)))
    attributes = sorted(k for k, v in catalog.skills.items() if v.kind == "attribute")
    for ability, attribute in data.abilities.shift_with.items():
        if attribute not in attributes:
            problems.append(Problem(label, f"abilities.shift_with.{ability}", None,
                                    f"a creature attribute ({', '.join(attributes)})", repr(attribute)))
    return problems


def tables_from(data: StrengthFile) -> StrengthTables:
    """The frozen tables of a validated file."""
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
        armor={k: a.armour for k, a in data.armor.items()},
        creatures={k: CreatureBlock({a: getattr(c, a) for a in ABILITIES}, c.attack, c.defense, c.armour, c.human)
                   for k, c in data.creatures.items()},
    )


def load(catalog: Catalog, root: Path) -> StrengthModel:
    """Read, validate and check ``root/models/strength.toml`` against ``catalog``; build the model.

    Raises:
        ConfigError: Every problem of the file.
    """
    data, _, label = read_validated(root / "models" / "strength.toml", root, StrengthFile)
    problems = check(data, catalog, label)
    if problems:
        raise ConfigError(problems)
    return StrengthModel(tables_from(data))
