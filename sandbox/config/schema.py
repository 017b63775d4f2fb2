"""Pydantic models of every config file kind: the structure a TOML file must have.

Strict (no coercion: ``"5"`` is not a number) and closed (unknown keys are rejected, so a misspelt key is an
error, not a silently ignored line). Cross-file references and other semantic checks live in ``loader``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# The bounds live in limits (the CLI reads them without pydantic); re-exported where the fields use them.
from sandbox.config.limits import MAX_GROUP as MAX_GROUP
from sandbox.config.limits import MAX_SPREAD as MAX_SPREAD
from sandbox.config.limits import MAX_TICKS as MAX_TICKS
from sandbox.config.limits import MAX_WEIGHT as MAX_WEIGHT
from sandbox.config.limits import MAX_ZONE_WEIGHT as MAX_ZONE_WEIGHT
from sandbox.config.limits import MIN_NATURAL_PROTECTION as MIN_NATURAL_PROTECTION

Role = Literal["vital", "core", "manipulator", "locomotor"]
Tier = Literal["none", "low", "medium", "high"]
AspectName = Literal["blunt", "edged", "piercing", "fire"]
ResultName = Literal["CF", "MF", "MS", "CS"]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
Name = Annotated[str, Field(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)  # nan/inf: "a finite number"


class Protection(_Strict):
    """Protection per damage aspect."""

    blunt: Annotated[int, Field(ge=0)] = 0
    edged: Annotated[int, Field(ge=0)] = 0
    piercing: Annotated[int, Field(ge=0)] = 0
    fire: Annotated[int, Field(ge=0)] = 0


class NaturalProtection(_Strict):
    """A body's natural protection per damage aspect: negative is a vulnerability (effective impact above the
    blow's impact). Worn armour and a location's own protection stay at 0 or more."""

    blunt: Annotated[int, Field(ge=MIN_NATURAL_PROTECTION)] = 0
    edged: Annotated[int, Field(ge=MIN_NATURAL_PROTECTION)] = 0
    piercing: Annotated[int, Field(ge=MIN_NATURAL_PROTECTION)] = 0
    fire: Annotated[int, Field(ge=MIN_NATURAL_PROTECTION)] = 0


class LocationModel(_Strict):
    """A body location (nested in its part)."""

    name: Name
    weight: Annotated[float, Field(gt=0, le=MAX_WEIGHT)]
    shock_value: Annotated[int, Field(ge=0)]
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
    permanent_impairment: Annotated[int, Field(le=0)] = 0
    permanently_unusable: bool = False
    layout: Annotated[list[float], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="Viewer hint: [row, column] of the part in the body drawing.")
    locations: list[LocationModel] = Field(min_length=1)


class ZoneModel(_Strict):
    """A body zone; its weight is the count of zone numbers it owns."""

    name: Name
    weight: Annotated[int, Field(ge=0, le=MAX_ZONE_WEIGHT)]


class BodyFile(_Strict):
    """``configs/bodies/<id>.toml``: a body structure. An empty body (no zones) is incorporeal."""

    name: Name
    scale: float = 1.0
    thresholds: list[float] | None = Field(default=None, description="Unscaled M1..G5 thresholds.")
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
    impact: Annotated[str, Field(description="NdX+M, e.g. 1d10+3, or a flat value")]
    aspect: AspectName
    spread: Annotated[int, Field(ge=1, le=MAX_SPREAD)]
    attack_modifier: int = 0
    limbs: Annotated[int, Field(ge=1)] = 1
    limb: Literal["grip", "vital", "core", "manipulator", "locomotor"] = "grip"
    strength_modifier: bool | None = Field(default=None, description="Default: true for melee and thrown.")
    reach: Annotated[float, Field(ge=0)] = 1.0
    range: Annotated[float, Field(ge=0)] = 0.0


class WeaponFile(_Strict):
    """``configs/weapons/<id>.toml``: a weapon and its strike modes."""

    name: Name
    natural: bool = False
    modes: list[ModeModel] = Field(min_length=1)
    shield: bool = Field(default=False, description="A shield: gripped by a hand like a weapon, besides the weapon "
                                                    "taken in hand; it raises the Armour value while held by a usable "
                                                    "hand under the models that count shields.")


class ItemFile(_Strict):
    """``configs/items/<id>.toml``: a carried item that is neither weapon nor armour (a healing item, medicine);
    what it does under each damage model is that model's tables' ``[items.<id>]``."""

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
    attributes: dict[Id, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    skills: dict[Id, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    weapons: list[Id] = Field(default_factory=list)
    armor: list[Id] = Field(default_factory=list)
    speed: Annotated[float, Field(gt=0)] | None = Field(default=None, description="Metres per tick walking.")
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

    ml_min: int
    ml_max: int
    critical_divisor: Annotated[int, Field(ge=1)]
    attribute_ml_multiplier: Annotated[int, Field(ge=1)]


class InjuryModel(_Strict):
    """Injury thresholds and body scale bounds."""

    thresholds: list[float] = Field(min_length=5, max_length=5)
    scale_min: Annotated[float, Field(gt=0)]
    scale_max: Annotated[float, Field(gt=0)]


class GlancingModel(_Strict):
    """Glancing blows off rigid armour."""

    aspects: list[AspectName]
    max_level: Annotated[int, Field(ge=0, le=5)]
    shock_index: int
    shock_roll: int


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
    shock_roll_modifier: int = 0


class AmputationModel(_Strict):
    """The amputation check."""

    level: Annotated[int, Field(ge=1, le=5)]
    aspects: list[AspectName]
    modifiers: dict[Literal["low", "medium", "high"], int]
    outcomes: dict[ResultName, AmputationOutcomeModel]


class ShockModel(_Strict):
    """Shock index and states."""

    no_test_max: int
    death_above: int
    index_change: dict[ResultName, int]
    stunned_from: int
    incapacitated_from: int
    unconscious_from: int
    dead_from: int


class MishapsModel(_Strict):
    """Mishap disposition by injury level code."""

    by_level: dict[Literal["M1", "S2", "S3", "G4", "G5"], Literal["none", "roll", "auto"]]


class ImpairmentModel(_Strict):
    """Part impairment by wound severity, the health tiers, and permanent impairment."""

    minor: Annotated[int, Field(le=0)]
    serious: Annotated[int, Field(le=0)]
    grievous_unusable: bool
    minor_slow_healing_rate_max: int
    tier_minor_from: Annotated[int, Field(le=0)]
    tier_serious_from: Annotated[int, Field(le=0)]
    permanent_days_per_step: Annotated[int, Field(ge=1)]
    permanent_step: Annotated[int, Field(le=0)]
    permanent_floor: Annotated[int, Field(le=0)]


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

    table: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(min_length=1)
    step_from: int
    step_every: Annotated[int, Field(ge=1)]
    step_base: int
    off_hand: int
    thrown: int


Severity = Literal["minor", "serious", "grievous"]


class TreatmentRuleModel(_Strict):
    """A treatment procedure and its Physician modifier."""

    procedure: Literal["CLN", "CMP", "SET", "SUR"]
    modifier: int


class AftercareModel(_Strict):
    """Wounds over time: bleeding, re-tests, Extended Shock, Coma, treatment, healing, infection."""

    bleed_interval_minutes: Annotated[float, Field(gt=0)]
    blood_loss: dict[ResultName, Annotated[int, Field(ge=0)]]
    anemia_per_point: Annotated[int, Field(ge=0)]
    stoppage_skill: Id
    stoppage_carry_bonus: int
    retest_modifier: int
    unconscious_retest_minutes: Annotated[float, Field(gt=0)]
    extended_shock_hr: dict[Literal["MF", "CF"], Annotated[int, Field(ge=0)]]
    course_change: dict[ResultName, int]
    extended_shock_hours: Annotated[float, Field(gt=0)]
    hr_death_at: int
    hr_recover_at: int
    coma_hr_base: int
    coma_interval_die: Annotated[int, Field(ge=1)]
    coma_interval_unit_days: Annotated[float, Field(gt=0)]
    healing_days: Annotated[float, Field(gt=0)]
    healing_change: dict[ResultName, int]
    treatment_skill: Id
    surgery_bleeder_on: list[ResultName]
    self_treatment_modifier: int
    first_aid_delay_minutes: Annotated[float, Field(ge=0)]
    infectable: list[AspectName]
    infection_fatigue: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(min_length=1)
    infection_cured_at: int
    treatment_hr: dict[Severity, dict[ResultName, Annotated[int, Field(ge=0, le=7)]]]
    treatment: dict[AspectName, dict[Severity, TreatmentRuleModel]]
    grievous_bleeder_hr: dict[AspectName, list[int]]
    permanent_eligible: dict[AspectName, dict[Severity, list[int]]]


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


class CombatModel(_Strict):
    """The skirmish loop's own rules."""

    tick_seconds: Annotated[float, Field(gt=0)]
    defence_skill: Id
    default_speed: Annotated[float, Field(gt=0)]
    stunned_speed_factor: Annotated[float, Field(ge=0, le=1)]
    impairment_speed_per_point: Annotated[float, Field(ge=0)]
    min_speed_factor: Annotated[float, Field(ge=0, le=1)]
    stunned_level_drop: Annotated[int, Field(ge=0, le=3)]
    retarget_radius: Annotated[float, Field(gt=0)]
    grid_cell: Annotated[float, Field(gt=0)]
    melee_reach_default: Annotated[float, Field(gt=0)]
    helpless_defence: bool
    max_melee_attackers: Annotated[int, Field(ge=0)] = 0


class SandboxRulesFile(_Strict):
    """``configs/sandbox.toml``: the sandbox's own rules where the documents are silent."""

    combat: CombatModel


class FieldModel(_Strict):
    """The battlefield, in metres."""

    width: Annotated[float, Field(gt=0)]
    height: Annotated[float, Field(gt=0)]


class CombatantModel(_Strict):
    """One creature (or a group of ``count`` alike) in a scenario."""

    name: Name
    creature: Id
    team: Name
    position: Annotated[list[float], Field(min_length=2, max_length=2, description="[x, y] in metres")]
    count: Annotated[int, Field(ge=1, le=MAX_GROUP)] = 1
    spacing: Annotated[float, Field(gt=0, description="Metres between members of a group, along y")] = 1.5
    weapons: list[Id] | None = Field(default=None, description="Replaces the creature's carried weapons.")
    armor: list[Id] | None = Field(default=None, description="Replaces the creature's armour.")
    policy: Literal["nearest", "weakest", "random"] = "nearest"
    aim: Name = Field(default="unaimed", description="unaimed, random, or the name of a part or location to aim at "
                                                     "(a called shot)")
    initiative: int | None = None
    speed: Annotated[float, Field(gt=0)] | None = None
    attributes: dict[Id, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    skills: dict[Id, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    immobilized: list[Name] = Field(default_factory=list, description="Parts held fast (netted, bound).")
    items: list[Id] | None = Field(default=None, description="Replaces the creature's carried items (items/; "
                                                             "repeat an id to carry several).")


class CareModel(_Strict):
    """Who tends the wounded after a fight, and when."""

    first_aid_minutes: Annotated[float, Field(ge=0)] | None = Field(
        default=None, description="Minutes after the fight before wounds are treated (default: the rules').")
    healers: list[Name] | None = Field(
        default=None, description="Combatants who tend their team (default: whoever has the best Physician).")
    self_care: bool = Field(default=True, description="A creature with no healer at hand tends itself.")


class ScenarioFile(_Strict):
    """``configs/scenarios/<id>.toml``: who fights whom, where, with what."""

    name: Name
    description: str = ""
    model: Id = "anatomy"
    max_ticks: Annotated[int, Field(ge=1, le=MAX_TICKS)] = 200
    field: FieldModel
    combatants: list[CombatantModel] = Field(min_length=1)
    care: CareModel = Field(default_factory=CareModel)


class ContentFile(_Strict):
    """``content.toml``: the manifest that marks a folder as a content tree (and the shipped content's own)."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", description="The content's name (my-bestiary).")]
    version: Annotated[str, Field(min_length=1, description="The content's own version (0.1.0).")]
    extends: Annotated[str, Field(min_length=1, description="The shipped content it extends ('sandbox').")] | None = (
        Field(default=None, description="Absent only in the shipped content's own manifest."))
    description: str = ""


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
    """The definition kinds a file's top-level ``keys`` could be: ``(kinds whose every required key is there and
    that have every one of them, kinds that have every one of them)``.

    A file whose folder and first line do not tell its kind takes it from its keys when only one kind has them all
    and it has that kind's required keys (``name`` alone could start a body, a weapon or a creature: no kind).
    """
    present = set(keys)
    possible = [kind for kind, model in FILE_KINDS.items() if present <= set(model.model_fields)]
    complete = [kind for kind in possible
                if {name for name, f in FILE_KINDS[kind].model_fields.items() if f.is_required()} <= present]
    return complete, possible
