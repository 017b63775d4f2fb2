"""Loading the severity model's tables (``configs/models/severity.toml``): validated, checked against the catalog.

The file holds every number of document 001 and the sandbox's decisions around it, and the model's numbers of
every creature (a block per creature: Brawn, Poise, Wit, Speed, racial Threshold, attack bonus, Defense, natural
Armor Value, first aid), every strike mode (damage dice, Anti-Armour, indirect) and every armour piece (Armor
Value), so one scenario runs under this model unchanged. Every creature, strike mode and armour piece of the
catalog must have its entry, and every entry must name one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from components.severity import ATTRIBUTES, EFFECTS, SeverityCreature, SeverityRules, SeverityWeapon
from sandbox.config import Catalog, ConfigError, Problem
from sandbox.config.loader import read_validated
from systems.dice import parse_dice
from systems.models.severity import SeverityModel

NAME = "severity"
FILE = "models/severity.toml"

EffectName = Literal["weaken", "stagger", "daze", "slow", "stun", "bloody"]
AttributeName = Literal["brawn", "poise", "wit", "speed", ""]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


class SeverityRollModel(_Strict):
    """How damage becomes Severity, and what Severity does against Threshold."""

    die: Annotated[int, Field(ge=2, description="Faces of the die rolled per point of damage (a d3).")]
    face: Annotated[int, Field(ge=1, description="The face that counts one Severity (each 3).")]
    lethal_multiple: Annotated[int, Field(ge=1, description="Severity above this x Threshold kills (2).")]


class EffectsModel(_Strict):
    """The wound-effect table."""

    die: Annotated[int, Field(ge=1, description="Faces of the effect die (a d6).")]
    table: list[EffectName] = Field(description="The effect of each face, face 1 first.")


class LimitsModel(_Strict):
    """The natural limits."""

    attribute_floor: int = Field(description="Attributes never fall below this (-1); more damage is overflow.")
    speed_floor: Annotated[int, Field(ge=0, description="Speed never falls below this (0).")]


class AttackModel(_Strict):
    """The attack roll (document 002's d20 + attack bonus vs Defense, decisions.md) as this model reads it."""

    attribute: dict[Literal["melee", "thrown", "missile"], AttributeName] = Field(
        description="Per strike-mode kind, the attribute whose damage lowers the attack bonus.")
    defense_attribute: AttributeName = Field(description="The attribute whose damage lowers Defense.")
    helpless_hits: bool = Field(description="An attack on a creature that cannot defend always lands.")


class CognitionModel(_Strict):
    """Cognition Points = base ** (Wit + offset)."""

    base: Annotated[int, Field(ge=1)]
    offset: int


class FirstAidModel(_Strict):
    """First aid: d20 + skill vs the difficulty, with disadvantage on oneself."""

    die: Annotated[int, Field(ge=2)]
    difficulty: int
    self_disadvantage: bool
    delay_seconds: Annotated[float, Field(ge=0, description="After a fight, before first aid (out of combat).")]
    attempts: Annotated[int, Field(ge=0, description="Attempts per patient after each fight.")]


class RestModel(_Strict):
    """Rest: one effect point healed per period, faster with a doctor."""

    period_hours: Annotated[float, Field(gt=0)]
    doctor_multiplier: Annotated[int, Field(ge=1)]
    order: list[EffectName] = Field(description="Which effect first aid and rest reduce first.")
    refills_cognition: bool


class DownModel(_Strict):
    """Incapacitation and fainting."""

    recovery_hours: Annotated[float, Field(ge=0, description="How long an incapacitation lasts (Threshold > 0).")]
    exposed_death_hours: Annotated[float, Field(ge=0, description="A fainted creature nobody can tend dies "
                                                                  "after this long (0: never).")]


class CreatureBlockModel(_Strict):
    """A creature's numbers under this model."""

    threshold: int = Field(description="Racial base Threshold (Human 3).")
    brawn: int
    poise: int
    wit: int
    speed: Annotated[int, Field(ge=0)]
    attack_bonus: int
    defense: int
    armor_value: Annotated[int, Field(ge=0)] = 0
    first_aid: int | None = Field(default=None, description="First-aid bonus; absent: cannot give first aid.")


class WeaponModeModel(_Strict):
    """A strike mode's numbers under this model."""

    damage: str = Field(description="Damage dice, NdX+M, or a flat value.")
    anti_armor: Literal["none", "halve", "negate"] = "none"
    indirect: bool = False


class SeverityModelFile(_Strict):
    """``configs/models/severity.toml``: every table of document 001 and the model's numbers of the gear."""

    severity: SeverityRollModel
    effects: EffectsModel
    limits: LimitsModel
    attack: AttackModel
    cognition: CognitionModel
    first_aid: FirstAidModel
    rest: RestModel
    down: DownModel
    creatures: dict[str, CreatureBlockModel]
    weapons: dict[str, dict[str, WeaponModeModel]] = Field(description="weapon id -> mode id -> numbers")
    armor: dict[str, Annotated[int, Field(ge=0)]] = Field(description="armour id -> Armor Value")


SCHEMA = SeverityModelFile


def _check(m: SeverityModelFile, catalog: Catalog, label: str) -> list[Problem]:
    """Semantic checks: the tables are whole and every entry matches the catalog."""
    problems: list[Problem] = []

    def bad(key: str, entry: str | None, expected: str, found: str) -> None:
        problems.append(Problem(label, key, entry, expected, found))

    if m.severity.face > m.severity.die:
        bad("severity.face", None, f"a face of the d{m.severity.die}", str(m.severity.face))
    if len(m.effects.table) != m.effects.die:
        bad("effects.table", None, f"one effect per face of the d{m.effects.die}", f"{len(m.effects.table)}")
    missing = [e for e in EFFECTS if e not in m.effects.table]
    if missing:
        bad("effects.table", None, "every effect of document 001 on some face", f"no {', '.join(missing)}")
    if sorted(m.rest.order) != sorted(EFFECTS):
        bad("rest.order", None, f"each of {', '.join(EFFECTS)} once", ", ".join(m.rest.order))
    floor = m.limits.attribute_floor
    for cid, block in m.creatures.items():
        name = catalog.creatures[cid].name if cid in catalog.creatures else None
        if cid not in catalog.creatures:
            bad(f"creatures.{cid}", None, f"a creature id ({', '.join(sorted(catalog.creatures))})", repr(cid))
        for attr in ATTRIBUTES:
            if getattr(block, attr) < floor:
                bad(f"creatures.{cid}.{attr}", name, f"at least the attribute floor {floor}",
                    str(getattr(block, attr)))
        if block.speed < m.limits.speed_floor:
            bad(f"creatures.{cid}.speed", name, f"at least the speed floor {m.limits.speed_floor}", str(block.speed))
        if block.threshold + block.brawn < 1:
            bad(f"creatures.{cid}.threshold", name, "a Threshold (base + Brawn) of at least 1",
                str(block.threshold + block.brawn))
    for cid, kind in catalog.creatures.items():
        if cid not in m.creatures:
            bad(f"creatures.{cid}", kind.name, "a block for every creature", "nothing")
    for wid, modes in m.weapons.items():
        weapon = catalog.weapons.get(wid)
        if weapon is None:
            bad(f"weapons.{wid}", None, f"a weapon id ({', '.join(sorted(catalog.weapons))})", repr(wid))
            continue
        mode_ids = {mode.id.split(".", 1)[1] for mode in weapon.modes}
        for mid, entry in modes.items():
            if mid not in mode_ids:
                bad(f"weapons.{wid}.{mid}", weapon.name, f"a mode of {wid} ({', '.join(sorted(mode_ids))})",
                    repr(mid))
            try:
                parse_dice(entry.damage)
            except ValueError as exc:
                bad(f"weapons.{wid}.{mid}.damage", weapon.name, "a dice expression (NdX+M) or a flat value",
                    f"{entry.damage!r} ({exc})")
    for wid, weapon in catalog.weapons.items():
        for mode in weapon.modes:
            mid = mode.id.split(".", 1)[1]
            if mid not in m.weapons.get(wid, {}):
                bad(f"weapons.{wid}.{mid}", mode.name, "damage for every strike mode", "nothing")
    for aid in m.armor:
        if aid not in catalog.armor:
            bad(f"armor.{aid}", None, f"an armour id ({', '.join(sorted(catalog.armor))})", repr(aid))
    for aid, piece in catalog.armor.items():
        if aid not in m.armor:
            bad(f"armor.{aid}", piece.name, "an Armor Value for every armour piece", "nothing")
    return problems


def build_rules(m: SeverityModelFile) -> SeverityRules:
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
        weapons={f"{wid}.{mid}": SeverityWeapon(parse_dice(e.damage), e.anti_armor, e.indirect)
                 for wid, modes in m.weapons.items() for mid, e in modes.items()},
        armor=dict(m.armor),
    )


def load_rules(catalog: Catalog, root: Path) -> SeverityRules:
    """Read, validate and check ``root/models/severity.toml`` against ``catalog``.

    Raises:
        ConfigError: Every problem in the file.
    """
    model, _, label = read_validated(root / FILE, root, SeverityModelFile)
    problems = _check(model, catalog, label)
    if problems:
        raise ConfigError(problems)
    return build_rules(model)


def load(catalog: Catalog, root: Path) -> SeverityModel:
    """The severity model with its tables (``configs/models/severity.toml`` under ``root``).

    Raises:
        ConfigError: The file is missing or invalid (every problem listed).
    """
    return SeverityModel(load_rules(catalog, root))
