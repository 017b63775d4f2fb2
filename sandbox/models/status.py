"""Loading the status-ladder model's tables (``configs/models/status.toml``, document 004).

The file is validated (strict types, no unknown keys), then checked against the catalog: every shipped strike
mode, armour piece and creature needs an entry, every entry must name something that exists, dice must parse
and the penalty ladder must worsen rung by rung. Every problem is collected into one ``ConfigError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from components.status import StatusCreature, StatusTables, StatusWeapon
from sandbox.config import Catalog, ConfigError, Problem
from sandbox.config.loader import read_validated
from systems.dice import parse_dice
from systems.models.status import DAY, HOUR, StatusModel

NAME = "status"
FILE = Path("models") / "status.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class PassingOut(_Strict):
    """Passing out and coming round (sandbox rules: decisions.md, document 004)."""

    die: Annotated[int, Field(ge=2, description="Die of the passing-out test: the creature passes out when the "
                                                "roll exceeds its Constitution.")] = 20
    come_round_die: Annotated[int, Field(ge=2, description="Die of the coming-round test: the creature comes round "
                                                           "when the roll is at most its Constitution.")] = 20
    come_round_seconds: Annotated[float, Field(gt=0, description="Game seconds between coming-round tests.")]


class Speed(_Strict):
    """How the status penalty slows a creature."""

    loss_per_penalty_point: Annotated[float, Field(ge=0, le=1, description="Fraction of walking speed lost per "
                                                                           "point of roll penalty.")]
    min_factor: Annotated[float, Field(ge=0, le=1, description="Walking speed never falls below this fraction.")]


class Healing(_Strict):
    """Rest out of combat (``Sandbox.advance``)."""

    minor_hours: Annotated[float, Field(gt=0, description="Rest that clears the minor-injury tally.")]
    days_per_level: Annotated[list[Annotated[float, Field(gt=0)]], Field(
        min_length=5, max_length=5,
        description="Days of rest to heal one rung, from slightly, wounded, seriously, critically and mortally "
                    "wounded.")]
    mortal_untended_hours: Annotated[float, Field(gt=0, description="A mortally wounded creature nobody tends "
                                                                    "dies this long after the wound.")]


class WeaponEntry(_Strict):
    """A strike mode's damage under this model."""

    damage: Annotated[str, Field(min_length=1, description="Damage dice in HP (NdX+M).")]
    attack_bonus: int = Field(default=0, description="Added to the attack roll with this mode.")


class ArmorEntry(_Strict):
    """An armour piece's value, subtracted from every wound's damage."""

    value: Annotated[int, Field(ge=0, description="HP subtracted from each wound while worn.")]


class CreatureEntry(_Strict):
    """A creature kind's numbers."""

    constitution: Annotated[int, Field(ge=0, le=100, description="Tested against the passing-out die.")]
    endurance: Annotated[int, Field(ge=1, description="HP per damage level.")]
    attack_bonus: int = Field(description="Added to its d20 attack roll.")
    defense: Annotated[int, Field(ge=0, description="What an attack roll must beat.")]
    armor: Annotated[int, Field(ge=0, description="Natural armour value (hide, scales).")] = 0
    penalty_reduction: Annotated[int, Field(ge=0, description="Points of damage penalty an ability removes (never "
                                                              "below half the table value).")] = 0


class StatusModelFile(_Strict):
    """``configs/models/status.toml``: the status ladder (document 004)."""

    penalties: Annotated[list[Annotated[int, Field(le=0)]], Field(
        min_length=6, max_length=6,
        description="Roll penalty of healthy, slightly, wounded, seriously, critically and mortally wounded.")]
    penalty_to_damage: bool = Field(default=False, description="The attacker's penalty also lowers its damage "
                                                               "roll.")
    passing_out: PassingOut
    speed: Speed
    healing: Healing
    weapons: dict[str, WeaponEntry] = Field(description="By qualified strike mode id (broadsword.cut).")
    armor: dict[str, ArmorEntry] = Field(description="By armour piece id.")
    creatures: dict[str, CreatureEntry] = Field(description="By creature id.")


SCHEMA = StatusModelFile


def _key(table: str, key: str) -> str:
    """A dotted key as TOML spells it (``weapons."broadsword.cut"``)."""
    return f'{table}."{key}"' if "." in key else f"{table}.{key}"


def _problems_of(model: StatusModelFile, catalog: Catalog, label: str) -> list[Problem]:
    """Semantic problems: coverage of the catalog, names that exist, dice, a worsening ladder."""
    problems: list[Problem] = []
    pens = model.penalties
    for i in range(1, len(pens)):
        if pens[i] > pens[i - 1]:
            problems.append(Problem(label, f"penalties.{i}", None, "a penalty at least as bad as the rung above "
                                    f"({pens[i - 1]})", repr(pens[i])))
    for table, known, what in (("weapons", catalog.modes, "strike mode"), ("armor", catalog.armor, "armour piece"),
                               ("creatures", catalog.creatures, "creature")):
        entries: dict[str, Any] = getattr(model, table)
        for key in sorted(set(known) - set(entries)):
            problems.append(Problem(label, _key(table, key), None, f"an entry for the {what} {key!r}", "nothing"))
        for key in sorted(set(entries) - set(known)):
            problems.append(Problem(label, _key(table, key), None, f"a {what} defined in the configs", repr(key)))
    for key, entry in model.weapons.items():
        try:
            parse_dice(entry.damage)
        except ValueError:
            problems.append(Problem(label, _key("weapons", key) + ".damage", None, "a dice expression (NdX+M)",
                                    repr(entry.damage)))
    return problems


def load(catalog: Catalog, root: Path) -> StatusModel:
    """The status model with its tables from ``root / models / status.toml``, checked against ``catalog``.

    Raises:
        ConfigError: Every problem of the file.
    """
    model, _, label = read_validated(root / FILE, root, StatusModelFile)
    problems = _problems_of(model, catalog, label)
    if problems:
        raise ConfigError(problems)
    healing, passing, speed = model.healing, model.passing_out, model.speed
    tables = StatusTables(
        penalties=tuple(model.penalties),
        penalty_to_damage=model.penalty_to_damage,
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
    )
    return StatusModel(tables)
