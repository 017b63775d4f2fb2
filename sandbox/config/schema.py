"""Pydantic models of every config file kind: the structure a TOML file must have.

Strict (no coercion: ``"5"`` is not a number) and closed (unknown keys are rejected, so a misspelt key is an
error, not a silently ignored line). Cross-file references and other semantic checks live in ``loader``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# The bounds live in limits (the CLI reads them without pydantic); re-exported where the fields use them.
from sandbox.config.bounds import (
    Count,
    DelayMinutes,
    Metres,
    Modifier,
    Name,
    Penalty,
    Points,
    Positive,
    PositiveMetres,
    RepeatDays,
    RepeatHours,
    RepeatMinutes,
    Score,
    Share,
    Text,
)
from sandbox.config.health_tiers import TiersModel
from sandbox.config.limits import MAX_GROUP as MAX_GROUP
from sandbox.config.limits import MAX_LIMBS, MAX_NAME, MAX_THRESHOLD, MAX_TICK_SECONDS, MIN_GRID_CELL, MIN_TICK_SECONDS
from sandbox.config.limits import MAX_SPREAD as MAX_SPREAD
from sandbox.config.limits import MAX_TICKS as MAX_TICKS
from sandbox.config.limits import MAX_WEIGHT as MAX_WEIGHT
from sandbox.config.limits import MAX_ZONE_WEIGHT as MAX_ZONE_WEIGHT
from sandbox.config.limits import MIN_NATURAL_PROTECTION as MIN_NATURAL_PROTECTION

Role = Literal["vital", "core", "manipulator", "locomotor"]
Tier = Literal["none", "low", "medium", "high"]
AspectName = Literal["blunt", "edged", "piercing", "fire"]
ResultName = Literal["CF", "MF", "MS", "CS"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_NAME)]
Threshold = Annotated[float, Field(gt=0, le=MAX_THRESHOLD)]
HealingRate = Annotated[int, Field(ge=-100, le=100)]
"""A Healing Rate (or a course's HR threshold)."""
ShockIndex = Annotated[int, Field(ge=-100, le=100)]
"""A shock index or a change of one."""

__all__ = ["FILE_KINDS", "MAX_GROUP", "MAX_SPREAD", "MAX_TICKS", "MAX_WEIGHT", "MAX_ZONE_WEIGHT",
           "MIN_NATURAL_PROTECTION", "Id", "Name", "Text"]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)  # nan/inf: "a finite number"


class Protection(_Strict):
    """Protection per damage aspect."""

    blunt: Points = 0
    edged: Points = 0
    piercing: Points = 0
    fire: Points = 0


NaturalPoints = Annotated[int, Field(ge=MIN_NATURAL_PROTECTION, le=1000)]


class NaturalProtection(_Strict):
    """A body's natural protection per damage aspect.

    Negative is a vulnerability (effective impact above the blow's impact). Worn armour and a location's own protection
    stay at 0 or more.
    """

    blunt: NaturalPoints = 0
    edged: NaturalPoints = 0
    piercing: NaturalPoints = 0
    fire: NaturalPoints = 0


class LocationModel(_Strict):
    """A body location (nested in its part)."""

    name: Name
    weight: Annotated[float, Field(gt=0, le=MAX_WEIGHT)]
    shock_value: Annotated[int, Field(ge=0, le=100)]
    bleeding: Tier
    amputability: Tier
    fumble: bool = False
    stumble: bool = False
    protection: Protection | None = Field(default=None, description="Overrides the body's natural protection.")
    layout: Annotated[list[Annotated[float, Field(ge=0, le=100)]], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="Drawing hint: [row, column] of the location inside its part's box (default: "
                                  "the locations stack along the part's longer side, in file order).")


class PartModel(_Strict):
    """A body part and its locations."""

    name: Name
    zone: Name
    weight: Annotated[float, Field(ge=0, le=MAX_WEIGHT)]
    roles: list[Role] = Field(default_factory=list)
    can_hold: bool = False
    permanent_impairment: Penalty = 0
    permanently_unusable: bool = False
    layout: Annotated[list[Annotated[float, Field(ge=0, le=100)]], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="Viewer hint: [row, column] of the part in the body drawing.")
    locations: list[LocationModel] = Field(min_length=1)


class ZoneModel(_Strict):
    """A body zone; its weight is the count of zone numbers it owns."""

    name: Name
    weight: Annotated[int, Field(ge=0, le=MAX_ZONE_WEIGHT)]


class BodyFile(_Strict):
    """``configs/bodies/<id>.toml``: a body structure. An empty body (no zones) is incorporeal."""

    name: Name
    scale: Annotated[float, Field(ge=0.01, le=3.0, description="Thresholds scale with it (the rules' scale_min "
                                                             "and scale_max narrow it).")] = 1.0
    thresholds: list[Threshold] | None = Field(default=None, description="Unscaled M1..G5 thresholds.")
    natural_protection: NaturalProtection = Field(
        default_factory=NaturalProtection, description="Every location's protection unless it has its own; may be "
                                                       f"negative down to {MIN_NATURAL_PROTECTION} (a vulnerability).")
    zones: list[ZoneModel] = Field(default_factory=list)
    parts: list[PartModel] = Field(default_factory=list)


class ModeModel(_Strict):
    """A strike mode of a weapon."""

    id: Id
    name: Name
    kind: Literal["melee", "thrown", "missile"] = "melee"
    skill: Id
    impact: Annotated[str, Field(max_length=MAX_NAME, description="NdX+M, e.g. 1d10+3, or a flat value")]
    aspect: AspectName
    spread: Annotated[int, Field(ge=1, le=MAX_SPREAD)]
    attack_modifier: Modifier = 0
    limbs: Annotated[int, Field(ge=1, le=MAX_LIMBS)] = 1
    limb: Literal["grip", "vital", "core", "manipulator", "locomotor"] = "grip"
    strength_modifier: bool | None = Field(default=None, description="Default: true for melee and thrown.")
    reach: Metres = 1.0
    range: Metres = 0.0


class WeaponFile(_Strict):
    """``configs/weapons/<id>.toml``: a weapon and its strike modes."""

    name: Name
    natural: bool = False
    modes: list[ModeModel] = Field(min_length=1)
    shield: bool = Field(default=False, description="A shield: gripped by a hand like a weapon, besides the weapon "
                                                    "taken in hand; it raises the Armour value while held by a usable "
                                                    "hand under the models that count shields.")


class ItemFile(_Strict):
    """``configs/items/<id>.toml``.

    A carried item that is neither weapon nor armour (a healing item, medicine); what it does under each damage model is
    that model's tables' ``[items.<id>]``.
    """

    name: Name
    description: str = ""
    consumable: bool = Field(default=True, description="Used up when used (a draught); false: it serves again and "
                                                       "again (a physician's kit).")


class ArmorFile(_Strict):
    """``configs/armor/<id>.toml``: an armour piece."""

    name: Name
    body: Id
    rigid: bool
    covers: list[Name] = Field(min_length=1)
    protection: Protection


class CreatureFile(_Strict):
    """``configs/creatures/<id>.toml``: a kind of creature."""

    name: Name
    body: Id
    dominance: Literal["right", "left", "ambidextrous"] = "right"
    attributes: dict[Id, Score] = Field(default_factory=dict)
    skills: dict[Id, Score] = Field(default_factory=dict)
    weapons: list[Id] = Field(default_factory=list)
    armor: list[Id] = Field(default_factory=list)
    speed: PositiveMetres | None = Field(default=None, description="Metres per tick walking.")
    items: list[Id] = Field(default_factory=list, description="Items carried (items/; one entry per item: "
                                                              "repeat an id to carry several).")


class SkillModel(_Strict):
    """A skill or attribute the rules test."""

    name: Name
    kind: Literal["attribute", "skill"]
    roles: list[Role] = Field(default_factory=list)
    impairable: bool = True


class SkillsFile(_Strict):
    """``configs/skills.toml``: every skill and attribute, and the roles whose injury impairs it."""

    skills: dict[Id, SkillModel]


class TestsModel(_Strict):
    """How d100 tests read."""

    __test__ = False  # not a pytest test class

    ml_min: Annotated[int, Field(ge=0, le=100)]
    ml_max: Annotated[int, Field(ge=0, le=100)]
    critical_divisor: Annotated[int, Field(ge=1, le=100)]
    attribute_ml_multiplier: Annotated[int, Field(ge=1, le=100)]


class InjuryModel(_Strict):
    """Injury thresholds and body scale bounds."""

    thresholds: list[Threshold] = Field(min_length=5, max_length=5)
    scale_min: Annotated[float, Field(ge=0.01, le=3.0)]
    scale_max: Annotated[float, Field(ge=0.01, le=3.0)]


class GlancingModel(_Strict):
    """Glancing blows off rigid armour."""

    aspects: list[AspectName]
    max_level: Annotated[int, Field(ge=0, le=5)]
    shock_index: ShockIndex
    shock_roll: Modifier


class BleedingModel(_Strict):
    """The bleeding grid: per tier, per level code, the aspects that make a bleeder."""

    none: dict[Literal["M1", "S2", "S3", "G4", "G5"], list[AspectName]]
    low: dict[Literal["M1", "S2", "S3", "G4", "G5"], list[AspectName]]
    medium: dict[Literal["M1", "S2", "S3", "G4", "G5"], list[AspectName]]
    high: dict[Literal["M1", "S2", "S3", "G4", "G5"], list[AspectName]]


class AmputationOutcomeModel(_Strict):
    """What one amputation test result does."""

    severed: bool
    bleeder: Literal["always", "if_susceptible", "never"]
    shock_roll_modifier: Modifier = 0


class AmputationModel(_Strict):
    """The amputation check."""

    level: Annotated[int, Field(ge=1, le=5)]
    aspects: list[AspectName]
    modifiers: dict[Literal["low", "medium", "high"], Modifier]
    outcomes: dict[ResultName, AmputationOutcomeModel]


class ShockModel(_Strict):
    """Shock index and states."""

    no_test_max: ShockIndex
    death_above: ShockIndex
    index_change: dict[ResultName, ShockIndex]
    stunned_from: ShockIndex
    incapacitated_from: ShockIndex
    unconscious_from: ShockIndex
    dead_from: Annotated[int, Field(ge=0, le=100)]


class MishapsModel(_Strict):
    """Mishap disposition by injury level code."""

    by_level: dict[Literal["M1", "S2", "S3", "G4", "G5"], Literal["none", "roll", "auto"]]


class ImpairmentModel(_Strict):
    """Part impairment by wound severity, the health tiers, and permanent impairment."""

    minor: Penalty
    serious: Penalty
    grievous_unusable: bool
    minor_slow_healing_rate_max: HealingRate
    tier_minor_from: Penalty
    tier_serious_from: Penalty
    permanent_days_per_step: Annotated[int, Field(ge=1, le=3650)]
    permanent_step: Penalty
    permanent_floor: Penalty


class CeilingsModel(_Strict):
    """Health ceilings by impairment tier; the n-th value applies to n parts in that state (last: n or more)."""

    minor: list[Annotated[int, Field(ge=0, le=100)]] = Field(min_length=1)
    serious: list[Annotated[int, Field(ge=0, le=100)]] = Field(min_length=1)
    grievous: list[Annotated[int, Field(ge=0, le=100)]] = Field(min_length=1)
    unusable: list[Annotated[int, Field(ge=0, le=100)]] = Field(min_length=1)


class BandModel(_Strict):
    """A health band and the lowest figure it covers."""

    name: Name
    min: Annotated[int, Field(ge=0, le=100)]


class HealthModel(_Strict):
    """Health ceilings and bands."""

    floor_alive: Annotated[int, Field(ge=0, le=100)]
    limb: CeilingsModel
    critical: CeilingsModel
    bands: list[BandModel] = Field(min_length=1)


class StrengthImpactModel(_Strict):
    """The Strength Impact Modifier table."""

    table: list[Annotated[list[Modifier], Field(min_length=2, max_length=2)]] = Field(min_length=1)
    step_from: Score
    step_every: Positive
    step_base: Modifier
    off_hand: Modifier
    thrown: Modifier


Severity = Literal["minor", "serious", "grievous"]


class TreatmentRuleModel(_Strict):
    """A treatment procedure and its Physician modifier."""

    procedure: Literal["CLN", "CMP", "SET", "SUR"]
    modifier: Modifier


class AftercareModel(_Strict):
    """Wounds over time: bleeding, re-tests, Extended Shock, Coma, treatment, healing, infection."""

    bleed_interval_minutes: RepeatMinutes
    blood_loss: dict[ResultName, Count]
    anemia_per_point: Count
    stoppage_skill: Id
    stoppage_carry_bonus: Modifier
    retest_modifier: Modifier
    unconscious_retest_minutes: RepeatMinutes
    extended_shock_hr: dict[Literal["MF", "CF"], HealingRate]
    course_change: dict[ResultName, HealingRate]
    extended_shock_hours: RepeatHours
    hr_death_at: HealingRate
    hr_recover_at: HealingRate
    coma_hr_base: HealingRate
    coma_interval_die: Annotated[int, Field(ge=1, le=1000)]
    coma_interval_unit_days: RepeatDays
    healing_days: RepeatDays
    healing_change: dict[ResultName, Annotated[int, Field(ge=-5, le=5)]]
    treatment_skill: Id
    surgery_bleeder_on: list[ResultName]
    self_treatment_modifier: Modifier
    first_aid_delay_minutes: DelayMinutes
    infectable: list[AspectName]
    infection_fatigue: list[Annotated[list[Modifier], Field(min_length=2, max_length=2)]] = Field(min_length=1)
    infection_cured_at: HealingRate
    treatment_hr: dict[Severity, dict[ResultName, Annotated[int, Field(ge=0, le=7)]]]
    treatment: dict[AspectName, dict[Severity, TreatmentRuleModel]]
    grievous_bleeder_hr: dict[AspectName, list[HealingRate]]
    permanent_eligible: dict[AspectName, dict[Severity, list[HealingRate]]]


class AnatomyRulesFile(_Strict):
    """``configs/models/anatomy.toml``: every table of document 000."""

    tests: TestsModel
    injury: InjuryModel
    glancing: GlancingModel
    bleeding: BleedingModel
    amputation: AmputationModel
    shock: ShockModel
    mishaps: MishapsModel
    impairment: ImpairmentModel
    health: HealthModel
    strength_impact: StrengthImpactModel
    aftercare: AftercareModel
    health_tiers: TiersModel = Field(default_factory=TiersModel, description="The readout's tiers on health / 100.")


class CombatModel(_Strict):
    """The skirmish loop's own rules."""

    tick_seconds: Annotated[float, Field(ge=MIN_TICK_SECONDS, le=MAX_TICK_SECONDS)]
    defence_skill: Id
    default_speed: PositiveMetres
    stunned_speed_factor: Share
    impairment_speed_per_point: Share
    min_speed_factor: Share
    stunned_level_drop: Annotated[int, Field(ge=0, le=3)]
    retarget_radius: PositiveMetres
    grid_cell: Annotated[float, Field(ge=MIN_GRID_CELL, le=1000.0)]
    melee_reach_default: PositiveMetres
    helpless_defence: bool
    max_melee_attackers: Count = 0


class SandboxRulesFile(_Strict):
    """``configs/sandbox.toml``: the sandbox's own rules where the documents are silent."""

    combat: CombatModel


class FieldModel(_Strict):
    """The battlefield, in metres."""

    width: PositiveMetres
    height: PositiveMetres


class CombatantModel(_Strict):
    """One creature (or a group of ``count`` alike) in a scenario."""

    name: Name
    creature: Id
    team: Name
    position: Annotated[list[Metres], Field(min_length=2, max_length=2, description="[x, y] in metres")]
    count: Annotated[int, Field(ge=1, le=MAX_GROUP)] = 1
    spacing: Annotated[float, Field(gt=0, le=1000.0, description="Metres between members of a group, along y")] = 1.5
    weapons: list[Id] | None = Field(default=None, description="Replaces the creature's carried weapons.")
    armor: list[Id] | None = Field(default=None, description="Replaces the creature's armour.")
    policy: Literal["nearest", "weakest", "random", "external"] = Field(
        default="nearest", description="How it picks a target (nearest, weakest, random), or external: the game drives "
                                       "it with Sandbox.submit (with nothing submitted it waits, as under sandbox run)")
    aim: Name = Field(default="unaimed", description="unaimed, random, or the name of a part or location to aim at "
                                                     "(a called shot)")
    initiative: Modifier | None = None
    speed: PositiveMetres | None = None
    attributes: dict[Id, Score] = Field(default_factory=dict)
    skills: dict[Id, Score] = Field(default_factory=dict)
    immobilized: list[Name] = Field(default_factory=list, description="Parts held fast (netted, bound).")
    items: list[Id] | None = Field(default=None, description="Replaces the creature's carried items (items/; "
                                                             "repeat an id to carry several).")


class CareModel(_Strict):
    """Who tends the wounded after a fight, and when."""

    first_aid_minutes: DelayMinutes | None = Field(
        default=None, description="Minutes after the fight before wounds are treated (default: the rules').")
    healers: list[Name] | None = Field(
        default=None, description="Combatants who tend their team (default: whoever has the best Physician).")
    self_care: bool = Field(default=True, description="A creature with no healer at hand tends itself.")


class ScenarioFile(_Strict):
    """``configs/scenarios/<id>.toml``: who fights whom, where, with what."""

    name: Name
    description: Text = ""
    model: Id = "anatomy"
    max_ticks: Annotated[int, Field(ge=1, le=MAX_TICKS)] = 200
    field: FieldModel
    combatants: list[CombatantModel] = Field(min_length=1)
    care: CareModel = Field(default_factory=CareModel)


class ContentFile(_Strict):
    """``content.toml``: the manifest that marks a folder as a content tree (and the shipped content's own)."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=MAX_NAME,
                               description="The content's name (my-bestiary).")]
    version: Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="The content's own version (0.1.0).")]
    extends: Annotated[str, Field(min_length=1, description="The shipped content it extends ('sandbox').")] | None = (
        Field(default=None, description="Absent only in the shipped content's own manifest."))
    description: Text = ""


FILE_KINDS: dict[str, type[_Strict]] = {
    "body": BodyFile,
    "weapon": WeaponFile,
    "armor": ArmorFile,
    "item": ItemFile,
    "creature": CreatureFile,
    "skills": SkillsFile,
    "anatomy_rules": AnatomyRulesFile,
    "sandbox_rules": SandboxRulesFile,
    "scenario": ScenarioFile,
    "content": ContentFile,
}
"""Every config file kind, by the name its JSON Schema file carries (``body.schema.json``)."""


def kinds_fitting(keys: Iterable[str]) -> tuple[list[str], list[str]]:
    """The definition kinds a file's top-level ``keys`` could be.

    ``(kinds whose every required key is there and that have every one of them, kinds that have every one of them)``.

    A file whose folder and first line do not tell its kind takes it from its keys when only one kind has them all
    and it has that kind's required keys (``name`` alone could start a body, a weapon or a creature: no kind).
    """
    present = set(keys)
    possible = [kind for kind, model in FILE_KINDS.items() if present <= set(model.model_fields)]
    complete = [kind for kind in possible
                if {name for name, f in FILE_KINDS[kind].model_fields.items() if f.is_required()} <= present]
    return complete, possible
