"""The anatomy model's rule tables (``models/anatomy.toml``, document 000): semantic checks and the frozen tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sandbox.components.body import Aspect
from sandbox.components.rules import (
    LEVEL_CODES,
    AftercareRules,
    AmputationOutcome,
    AnatomyRules,
    StrengthImpactRules,
    TestResult,
    TestRules,
    TreatmentRule,
)
from sandbox.config import schema as s
from sandbox.config.errors import Problem
from sandbox.config.health_tiers import tier_problem, tier_table

__all__ = ["RESULT_NAMES", "aspects", "build_rules"]


def aspects(names: Iterable[str]) -> frozenset[int]:
    """The aspect indices of aspect names."""
    return frozenset(Aspect.parse(n) for n in names)


def build_rules(m: s.AnatomyRulesFile, label_for: Callable[[Sequence[str]], str], problems: list[Problem]
                ) -> AnatomyRules | None:
    """Check the semantic rules of a structurally valid ``models/anatomy.toml`` and build its frozen tables.

    Args:
        m: The validated file (merged with any content tree's overrides).
        label_for: The file that gave the key at a path (a tree's override, or the shipped file).
        problems: Every problem found is appended here.

    Returns:
        The tables, or ``None`` when a problem was found.
    """
    start = len(problems)

    def bad(key: str, expected: str, found: object) -> None:
        problems.append(Problem(label_for(key.split(".")), key, None, expected, repr(found)))

    t = m.tests
    if not 0 <= t.ml_min <= t.ml_max <= 100:
        bad("tests.ml_max", "0 <= ml_min <= ml_max <= 100", (t.ml_min, t.ml_max))
    th = m.injury.thresholds
    if any(b <= a for a, b in itertools.pairwise(th)) or th[0] <= 0:
        bad("injury.thresholds", "positive thresholds rising strictly", th)
    if m.injury.scale_min > m.injury.scale_max:
        bad("injury.scale_max", f"at least scale_min ({m.injury.scale_min})", m.injury.scale_max)
    missing = [r for r in ("CF", "MF", "MS", "CS") if r not in m.amputation.outcomes]
    if missing:
        bad("amputation.outcomes", "an outcome for each of CF, MF, MS, CS", sorted(m.amputation.outcomes))
    missing_change = [r for r in ("CF", "MF", "MS", "CS") if r not in m.shock.index_change]
    if missing_change:
        bad("shock.index_change", "a change for each of CF, MF, MS, CS", sorted(m.shock.index_change))
    sh = m.shock
    states = (sh.stunned_from, sh.incapacitated_from, sh.unconscious_from, sh.dead_from)
    if any(b <= a for a, b in itertools.pairwise(states)):
        bad("shock.dead_from", "stunned_from < incapacitated_from < unconscious_from < dead_from", states)
    if sh.no_test_max >= sh.death_above:
        bad("shock.death_above", f"more than no_test_max ({sh.no_test_max})", sh.death_above)
    for code in LEVEL_CODES[1:]:
        if code not in m.mishaps.by_level:
            bad(f"mishaps.by_level.{code}", "a disposition (none, roll or auto)", "nothing")
    imp = m.impairment
    if imp.tier_serious_from > imp.tier_minor_from:
        bad("impairment.tier_serious_from", f"at most tier_minor_from ({imp.tier_minor_from})",
            imp.tier_serious_from)
    bands = m.health.bands
    if any(b.min >= a.min for a, b in itertools.pairwise(bands)):
        bad("health.bands", "bands from best to worst with falling minimums", [b.min for b in bands])
    table = m.strength_impact.table
    if any(b[0] <= a[0] for a, b in itertools.pairwise(table)):
        bad("strength_impact.table", "rows with rising lowest STR", table)
    ac = m.aftercare
    results_tables: list[tuple[str, Mapping[Any, int], tuple[str, ...]]] = [
        ("aftercare.blood_loss", ac.blood_loss, RESULT_NAMES),
        ("aftercare.course_change", ac.course_change, RESULT_NAMES),
        ("aftercare.healing_change", ac.healing_change, RESULT_NAMES),
        ("aftercare.extended_shock_hr", ac.extended_shock_hr, ("MF", "CF"))]
    for key, results, needed in results_tables:
        if set(results) != set(needed):
            bad(key, f"an entry for each of {', '.join(needed)}", sorted(results))
    for severity in ("minor", "serious", "grievous"):
        row = ac.treatment_hr.get(severity)
        if row is None or set(row) != set(RESULT_NAMES):
            bad(f"aftercare.treatment_hr.{severity}", "an HR for each of CF, MF, MS, CS", row)
        for aspect in ("blunt", "edged", "piercing", "fire"):
            if severity not in ac.treatment.get(aspect, {}):
                bad(f"aftercare.treatment.{aspect}.{severity}", "a procedure and modifier", "nothing")
    tiers = tier_problem(m.health_tiers)
    if tiers is not None:
        problems.append(Problem(label_for(["health_tiers", tiers[0]]), f"health_tiers.{tiers[0]}", None, tiers[1],
                                tiers[2]))
    if len(problems) > start:
        return None

    def bleed_row(row: Mapping[str, list[str]]) -> tuple[frozenset[int], ...]:
        return (frozenset(), *tuple(aspects(row.get(code, [])) for code in LEVEL_CODES[1:]))

    grid = m.bleeding
    mishaps: dict[str, str] = {str(k): str(v) for k, v in m.mishaps.by_level.items()}
    return AnatomyRules(
        tests=TestRules(t.ml_min, t.ml_max, t.critical_divisor, t.attribute_ml_multiplier),
        thresholds=tuple(th),
        scale_min=m.injury.scale_min,
        scale_max=m.injury.scale_max,
        glancing_aspects=aspects(m.glancing.aspects),
        glancing_max_level=m.glancing.max_level,
        glancing_shock_index=m.glancing.shock_index,
        glancing_shock_roll=m.glancing.shock_roll,
        bleeding={tier: bleed_row(getattr(grid, tier)) for tier in ("none", "low", "medium", "high")},
        amputation_level=m.amputation.level,
        amputation_aspects=aspects(m.amputation.aspects),
        amputation_modifiers={str(k): v for k, v in m.amputation.modifiers.items()},
        amputation_outcomes={
            TestResult[k]: AmputationOutcome(v.severed, v.bleeder, v.shock_roll_modifier)
            for k, v in m.amputation.outcomes.items()
        },
        shock_no_test_max=sh.no_test_max,
        shock_death_above=sh.death_above,
        shock_index_change={TestResult[k]: v for k, v in sh.index_change.items()},
        shock_state_from=states,
        mishap_by_level=("none", *(mishaps[c] for c in LEVEL_CODES[1:])),
        impairment_by_level=(0, imp.minor, imp.serious, imp.serious)
        + ((None, None) if imp.grievous_unusable else (imp.serious, imp.serious)),
        minor_slow_healing_rate_max=imp.minor_slow_healing_rate_max,
        impairment_tier_minor=imp.tier_minor_from,
        impairment_tier_serious=imp.tier_serious_from,
        permanent_days_per_step=imp.permanent_days_per_step,
        permanent_step=imp.permanent_step,
        permanent_floor=imp.permanent_floor,
        health_limb=m.health.limb.model_dump(),
        health_critical=m.health.critical.model_dump(),
        health_floor_alive=m.health.floor_alive,
        health_bands=tuple((b.name, b.min) for b in bands),
        strength_impact=StrengthImpactRules(
            tuple((a, b) for a, b in table), m.strength_impact.step_from, m.strength_impact.step_every,
            m.strength_impact.step_base, m.strength_impact.off_hand, m.strength_impact.thrown),
        aftercare=_build_aftercare(ac),
        health_tiers=tier_table(m.health_tiers),
    )


RESULT_NAMES = ("CF", "MF", "MS", "CS")


def _results(table: Mapping[Any, int]) -> dict[TestResult, int]:
    return {TestResult[str(k)]: int(v) for k, v in table.items()}


def _build_aftercare(ac: s.AftercareModel) -> AftercareRules:
    minute, hour, day = 60.0, 3600.0, 86400.0
    return AftercareRules(
        bleed_interval=ac.bleed_interval_minutes * minute,
        blood_loss=_results(ac.blood_loss),
        anemia_per_point=ac.anemia_per_point,
        stoppage_skill=ac.stoppage_skill,
        stoppage_carry_bonus=ac.stoppage_carry_bonus,
        retest_modifier=ac.retest_modifier,
        unconscious_retest_after=ac.unconscious_retest_minutes * minute,
        extended_shock_hr=_results(ac.extended_shock_hr),
        course_change=_results(ac.course_change),
        extended_shock_interval=ac.extended_shock_hours * hour,
        hr_death_at=ac.hr_death_at,
        hr_recover_at=ac.hr_recover_at,
        coma_hr_base=ac.coma_hr_base,
        coma_interval_die=ac.coma_interval_die,
        coma_interval_unit=ac.coma_interval_unit_days * day,
        healing_period=ac.healing_days * day,
        healing_change=_results(ac.healing_change),
        treatment_skill=ac.treatment_skill,
        treatment_hr={str(sev): _results(row) for sev, row in ac.treatment_hr.items()},
        treatment={str(a): {str(sev): TreatmentRule(r.procedure, r.modifier) for sev, r in rows.items()}
                   for a, rows in ac.treatment.items()},
        surgery_bleeder_on=frozenset(TestResult[r] for r in ac.surgery_bleeder_on),
        grievous_bleeder_hr={str(a): tuple(v) for a, v in ac.grievous_bleeder_hr.items()},
        permanent_eligible={str(a): {str(sev): tuple(v) for sev, v in rows.items()}
                            for a, rows in ac.permanent_eligible.items()},
        infectable=aspects(ac.infectable),
        infection_fatigue=tuple(sorted((row[0], row[1]) for row in ac.infection_fatigue)),
        infection_cured_at=ac.infection_cured_at,
        self_treatment_modifier=ac.self_treatment_modifier,
        first_aid_delay=ac.first_aid_delay_minutes * minute,
    )
