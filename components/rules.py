"""The anatomy model's rule tables, as frozen data loaded from ``configs/models/anatomy.toml``.

Nothing here decides anything: ``systems`` reads these tables. Keeping every number in data lets a designer
change a rule without touching code, and lets tests pin the shipped values against the rule documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

from sandbox.components.health_tiers import TierTable

__all__ = ["LEVEL_CODES", "LEVEL_WORDS", "MISHAP_DISPOSITIONS", "TEST_WORDS", "AftercareRules", "AmputationOutcome",
           "AnatomyRules", "CombatRules", "InjuryLevel", "ShockState", "StrengthImpactRules", "TestResult", "TestRules",
           "TreatmentRule"]


class TestResult(IntEnum):
    """Outcome of a d100 test, ordered by success level (CF worst, CS best)."""

    __test__ = False  # not a pytest test class

    CF = 0
    MF = 1
    MS = 2
    CS = 3

    @property
    def success(self) -> bool:
        """True for MS and CS."""
        return self >= TestResult.MS

    @property
    def critical(self) -> bool:
        """True for CS and CF."""
        return self in (TestResult.CS, TestResult.CF)


TEST_WORDS: dict[str, str] = {"CS": "critical success", "MS": "marginal success", "MF": "marginal failure",
                              "CF": "critical failure"}
"""Each d100 test result in words."""


class ShockState(IntEnum):
    """Shock states, mildest first; a creature is in exactly one."""

    NONE = 0
    STUNNED = 1
    INCAPACITATED = 2
    UNCONSCIOUS = 3
    DEAD = 4

    @property
    def label(self) -> str:
        """Lower-case name (``"incapacitated"``)."""
        return self.name.lower()


LEVEL_CODES: tuple[str, ...] = ("NA", "M1", "S2", "S3", "G4", "G5")
"""Injury level codes by level 0..5."""


class InjuryLevel(IntEnum):
    """Injury levels of document 000, by their codes: no wound, minor (M1), serious (S2, S3), grievous (G4, G5).

    Wounds store plain ints (a healed wound counts down to 0 and below); compare them with these names.
    """

    NA = 0
    M1 = 1
    S2 = 2
    S3 = 3
    G4 = 4
    G5 = 5

    @property
    def code(self) -> str:
        """The level's code (``"S3"``)."""
        return self.name

    @classmethod
    def parse(cls, value: int | str) -> InjuryLevel:
        """The level of a code (``"S3"``) or a number 1..5; raises ``ValueError`` naming the valid ones."""
        if isinstance(value, str) and value in LEVEL_CODES[1:]:
            return cls[value]
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5:
            return cls(value)
        raise ValueError(f"unknown injury level {value!r}; expected 1..5 or one of {', '.join(LEVEL_CODES[1:])}")


LEVEL_WORDS: tuple[str, ...] = ("no wound", "minor wound", "serious wound", "serious wound", "grievous wound",
                                "grievous wound")
"""Each level in words (what ``--plain`` accounts and the viewer say)."""

MISHAP_DISPOSITIONS: tuple[str, ...] = ("none", "roll", "auto")


@dataclass(frozen=True, slots=True)
class TestRules:
    """How a d100 test reads.

    Attributes:
        ml_min: Lowest effective Mastery Level.
        ml_max: Highest effective Mastery Level.
        critical_divisor: A roll divisible by this is critical.
        attribute_ml_multiplier: An attribute is tested at score times this.
    """

    __test__ = False  # not a pytest test class

    ml_min: int
    ml_max: int
    critical_divisor: int
    attribute_ml_multiplier: int


@dataclass(frozen=True, slots=True)
class AmputationOutcome:
    """What one amputation test result does.

    Attributes:
        severed: The location comes off.
        bleeder: ``always``, ``if_susceptible`` (only where the location bleeds at all) or ``never``.
        shock_roll_modifier: Added to the Shock roll that follows.
    """

    severed: bool
    bleeder: str
    shock_roll_modifier: int


@dataclass(frozen=True, slots=True)
class StrengthImpactRules:
    """The Strength Impact Modifier table.

    Attributes:
        table: ``(lowest STR, modifier)`` rows, ascending; a score takes the last row it reaches.
        step_from: From this score up the modifier rises by one every ``step_every`` points.
        step_every: See ``step_from``.
        step_base: The modifier at ``step_from``.
        off_hand: Added when the weapon is wielded only by off-side limbs.
        thrown: Added for thrown weapons.
    """

    table: tuple[tuple[int, int], ...]
    step_from: int
    step_every: int
    step_base: int
    off_hand: int
    thrown: int


@dataclass(frozen=True, slots=True)
class AnatomyRules:
    """Every table of document 000 that the anatomy model reads.

    Aspects are indices (see ``sandbox.components.body.ASPECTS``); levels run 0 (no injury) to 5 (G5). ``health_tiers``
    is where the health percent (as a fraction of 100) crosses the readout's tiers (``[health_tiers]``).
    """

    tests: TestRules
    thresholds: tuple[float, ...]
    scale_min: float
    scale_max: float
    glancing_aspects: frozenset[int]
    glancing_max_level: int
    glancing_shock_index: int
    glancing_shock_roll: int
    bleeding: Mapping[str, tuple[frozenset[int], ...]]
    amputation_level: int
    amputation_aspects: frozenset[int]
    amputation_modifiers: Mapping[str, int]
    amputation_outcomes: Mapping[TestResult, AmputationOutcome]
    shock_no_test_max: int
    shock_death_above: int
    shock_index_change: Mapping[TestResult, int]
    shock_state_from: tuple[int, int, int, int]
    mishap_by_level: tuple[str, ...]
    impairment_by_level: tuple[int | None, ...]
    minor_slow_healing_rate_max: int
    impairment_tier_minor: int
    impairment_tier_serious: int
    permanent_days_per_step: int
    permanent_step: int
    permanent_floor: int
    health_limb: Mapping[str, tuple[int, ...]]
    health_critical: Mapping[str, tuple[int, ...]]
    health_floor_alive: int
    health_bands: tuple[tuple[str, int], ...]
    strength_impact: StrengthImpactRules
    aftercare: AftercareRules | None = None
    health_tiers: TierTable = field(default_factory=TierTable)


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The sandbox's own rules for the skirmish loop (``configs/sandbox.toml``), where the documents are silent.

    Attributes:
        tick_seconds: Game time of one tick (one combat turn).
        defence_skill: The skill a defender tests against an attack.
        default_speed: Walking speed in metres per tick for creatures that name none.
        stunned_speed_factor: Speed multiplier while stunned (movement is Difficult).
        impairment_speed_per_point: Speed lost per point of the worst mobility-part penalty (0.03: -10 -> 70%).
        min_speed_factor: The slowest an impaired (but able) walker gets.
        stunned_level_drop: Success levels a stunned creature's tests drop.
        retarget_radius: How far the ``weakest`` and ``random`` policies look for candidates (metres).
        grid_cell: Cell size of the spatial index (metres).
        melee_reach_default: Reach of a melee mode that names none.
        helpless_defence: A defender that cannot act makes no defence roll (the attack is Ignored).
        max_melee_attackers: A melee fighter picking a target passes over enemies already engaged by this many
            melee attackers while another is to be had (0: no limit).
    """

    tick_seconds: float
    defence_skill: str
    default_speed: float
    stunned_speed_factor: float
    impairment_speed_per_point: float
    min_speed_factor: float
    stunned_level_drop: int
    retarget_radius: float
    grid_cell: float
    melee_reach_default: float
    helpless_defence: bool
    max_melee_attackers: int = 0


@dataclass(frozen=True, slots=True)
class TreatmentRule:
    """How one kind of wound is treated: the procedure and its modifier on the Physician test.

    Attributes:
        procedure: ``CLN`` clean and dress, ``CMP`` cool compress, ``SET`` splint, ``SUR`` surgery.
        modifier: Added to the Physician ML.
    """

    procedure: str
    modifier: int


@dataclass(frozen=True, slots=True)
class AftercareRules:
    """Wounds over time (document 000's Injury, Shock, Bleeding and Healing chapters, anatomy-tables.md 4, 9, 10).

    Severities are ``minor`` (M1), ``serious`` (S2, S3), ``grievous`` (G4, G5). Times are game seconds.
    """

    bleed_interval: float
    blood_loss: Mapping[TestResult, int]
    anemia_per_point: int
    stoppage_skill: str
    stoppage_carry_bonus: int
    retest_modifier: int
    unconscious_retest_after: float
    extended_shock_hr: Mapping[TestResult, int]
    course_change: Mapping[TestResult, int]
    extended_shock_interval: float
    hr_death_at: int
    hr_recover_at: int
    coma_hr_base: int
    coma_interval_die: int
    coma_interval_unit: float
    healing_period: float
    healing_change: Mapping[TestResult, int]
    treatment_skill: str
    treatment_hr: Mapping[str, Mapping[TestResult, int]]
    treatment: Mapping[str, Mapping[str, TreatmentRule]]
    surgery_bleeder_on: frozenset[TestResult]
    grievous_bleeder_hr: Mapping[str, tuple[int, ...]]
    permanent_eligible: Mapping[str, Mapping[str, tuple[int, ...]]]
    infectable: frozenset[int]
    infection_fatigue: tuple[tuple[int, int], ...]
    infection_cured_at: int
    self_treatment_modifier: int
    first_aid_delay: float
