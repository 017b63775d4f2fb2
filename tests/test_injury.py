"""Tests of ``sandbox.systems.models.anatomy.injury``: protection, injury levels, glancing, compounding, bleeding and
amputation.

Rules: document 000 "From Blow to Injury", anatomy-tables.md sections 3 (bleeding grid), 5 (amputation) and 12
(scaled thresholds), decisions.md 000 #3 (glancing), #4 (thresholds compared as floats) and #5 (compounding).
"""

from __future__ import annotations

import dataclasses

import pytest

from sandbox.components.body import Aspect, BodyStructure
from sandbox.components.rules import TestResult
from sandbox.systems.models.anatomy.injury import (
    amputation_bleeds,
    amputation_modifier,
    amputation_outcome,
    amputation_possible,
    compounds,
    effective_impact,
    injury_level,
    is_bleeder,
    is_glancing,
    location_protection,
    scaled_thresholds,
)

B, E, P, F = Aspect.BLUNT, Aspect.EDGED, Aspect.PIERCING, Aspect.FIRE


# ------------------------------------------------------------------------------------------ effective impact


@pytest.mark.parametrize(
    ("impact", "protection", "expected"),
    [(9, 8, 1), (8, 8, 0), (3, 8, 0), (0, 0, 0), (12, 0, 12), (-2, 0, 0), (20, 11, 9)],
)
def test_effective_impact_floored_at_zero(impact: int, protection: int, expected: int) -> None:
    assert effective_impact(impact, protection) == expected


# ------------------------------------------------------------------------------------------------ levels


def test_human_thresholds(human: BodyStructure, rules) -> None:
    assert scaled_thresholds(human, rules) == (1.0, 5.0, 10.0, 15.0, 20.0)


@pytest.mark.parametrize(
    ("effective", "level"),
    [
        (0, 0),
        (1, 1),
        (4, 1),
        (5, 2),
        (9, 2),
        (10, 3),
        (14, 3),
        (15, 4),
        (19, 4),
        (20, 5),
        (21, 5),
        (60, 5),
        (0.99, 0),
        (4.99, 1),
    ],
)
def test_human_levels(human: BodyStructure, rules, effective: float, level: int) -> None:
    assert injury_level(effective, scaled_thresholds(human, rules)) == level


def test_dragon_thresholds_are_scaled_not_rounded(catalog, rules) -> None:
    dragon = catalog.bodies["fire_dragon"]
    assert dragon.scale == 2.61
    assert scaled_thresholds(dragon, rules) == pytest.approx((2.61, 13.05, 26.1, 39.15, 52.2))


@pytest.mark.parametrize(
    ("effective", "level"),
    [(2, 0), (2.6, 0), (3, 1), (13, 1), (14, 2), (26, 2), (27, 3), (39, 3), (40, 4), (52, 4), (53, 5)],
)
def test_dragon_levels(catalog, rules, effective: float, level: int) -> None:
    # decisions.md 000 #4: compared as floats, so 13 < 13.05 is still M1, and 2 does not scratch it.
    assert injury_level(effective, scaled_thresholds(catalog.bodies["fire_dragon"], rules)) == level


@pytest.mark.parametrize(("effective", "level"), [(0.9, 0), (1, 1), (4.6, 1), (5, 2), (9.4, 3), (18.8, 5)])
def test_wolf_levels(catalog, rules, effective: float, level: int) -> None:
    wolf = catalog.bodies["wolf"]
    assert scaled_thresholds(wolf, rules) == pytest.approx((0.94, 4.7, 9.4, 14.1, 18.8))
    assert injury_level(effective, scaled_thresholds(wolf, rules)) == level


@pytest.mark.parametrize(
    ("scale", "expected"),
    [(3.0, (3, 15, 30, 45, 60)), (5.0, (3, 15, 30, 45, 60)), (0.001, (0.01, 0.05, 0.1, 0.15, 0.2))],
)
def test_scale_is_clamped(human: BodyStructure, rules, scale: float, expected: tuple[float, ...]) -> None:
    body = dataclasses.replace(human, scale=scale)
    assert scaled_thresholds(body, rules) == pytest.approx(expected)


def test_body_thresholds_override_the_rules(human: BodyStructure, rules) -> None:
    body = dataclasses.replace(human, scale=2.0, thresholds=(2.0, 4.0, 6.0, 8.0, 10.0))
    assert scaled_thresholds(body, rules) == (4.0, 8.0, 12.0, 16.0, 20.0)


# ----------------------------------------------------------------------------------------------- glancing


@pytest.mark.parametrize(
    ("aspect", "level", "rigid", "glances"),
    [
        (E, 1, True, True),
        (P, 1, True, True),
        (B, 1, True, False),  # blunt never glances
        (F, 1, True, False),
        (E, 1, False, False),  # not rigid
        (P, 1, False, False),
        (E, 0, True, False),  # no wound to glance
        (E, 2, True, False),  # only a would-be M1 glances
        (P, 3, True, False),
    ],
)
def test_is_glancing(rules, aspect: int, level: int, rigid: bool, glances: bool) -> None:
    assert is_glancing(aspect, level, rigid, rules) is glances


@pytest.mark.parametrize(
    ("piece", "rigid"),
    [
        ("mail_hauberk", True),
        ("plate_cuirass", True),
        ("helm", True),
        ("full_harness", True),
        ("gambeson", False),
        ("leather", False),
    ],
)
def test_rigid_armour(catalog, piece: str, rigid: bool) -> None:
    assert catalog.armor[piece].rigid is rigid


# ---------------------------------------------------------------------------------------------- protection


def test_no_armour_means_natural_protection_only(human: BodyStructure) -> None:
    protection, rigid = location_protection(human, [])
    assert all(p == (0, 0, 0, 0) for p in protection)
    assert not any(rigid)


def test_layering_adds(catalog, human: BodyStructure) -> None:
    protection, rigid = location_protection(human, [catalog.armor["gambeson"], catalog.armor["mail_hauberk"]])
    thorax = human.location_index("Thorax")
    assert protection[thorax] == (5 + 2, 3 + 8, 2 + 5, 4 + 1)
    assert protection[thorax][E] == 11
    assert rigid[thorax]
    pelvis = human.location_index("Pelvis")
    assert protection[pelvis] == (5, 3, 2, 4)  # gambeson only
    assert not rigid[pelvis]
    assert protection[human.location_index("Right Shoulder")] == (5, 3, 2, 4)
    assert protection[human.location_index("Right Forearm")] == (0, 0, 0, 0)


def test_hauberk_covers_thorax_and_abdomen_not_pelvis(catalog, human: BodyStructure) -> None:
    protection, rigid = location_protection(human, [catalog.armor["mail_hauberk"]])
    covered = {human.locations[i].name for i, p in enumerate(protection) if p != (0, 0, 0, 0)}
    assert covered == {"Thorax", "Abdomen"}
    assert protection[human.location_index("Thorax")] == (2, 8, 5, 1)
    assert {human.locations[i].name for i, r in enumerate(rigid) if r} == {"Thorax", "Abdomen"}


def test_helm_covers_skull_not_neck(catalog, human: BodyStructure) -> None:
    protection, rigid = location_protection(human, [catalog.armor["helm"]])
    assert protection[human.location_index("Skull")] == (6, 11, 9, 5)
    assert rigid[human.location_index("Skull")]
    assert protection[human.location_index("Neck")] == (0, 0, 0, 0)
    assert not rigid[human.location_index("Neck")]


def test_natural_protection_adds_to_armour(catalog) -> None:
    wolf = catalog.bodies["wolf"]
    piece = dataclasses.replace(catalog.armor["mail_hauberk"], body="wolf")
    protection, _ = location_protection(wolf, [piece])
    assert protection[wolf.location_index("Thorax")] == (3 + 2, 2 + 8, 1 + 5, 3 + 1)
    assert protection[wolf.location_index("Pelvis")] == (3, 2, 1, 3)


# -------------------------------------------------------------------------------------------- compounding


@pytest.mark.parametrize(
    ("new", "existing", "expected"),
    [
        (2, [2], True),  # meets the total
        (2, [2, 1], False),  # 2 < 3
        (3, [2, 1], True),
        (4, [2, 1], True),
        (2, [], False),  # no existing wound: nothing to compound
        (1, [1], True),
        (1, [2], False),
        (0, [1], False),  # no new wound (a glancing blow)
        (5, [3, 3], False),
    ],
)
def test_compounds(new: int, existing: list[int], expected: bool) -> None:
    assert compounds(new, existing) is expected


# ----------------------------------------------------------------------------------------------- bleeding

# anatomy-tables.md section 3: per tier, the aspects that bleed at S3, G4, G5 (M1 and S2 never; fire never).
BLEEDING_GRID: dict[str, dict[int, set[int]]] = {
    "none": {3: set(), 4: set(), 5: set()},
    "low": {3: set(), 4: set(), 5: {E, P, B}},
    "medium": {3: set(), 4: {E, P}, 5: {E, P, B}},
    "high": {3: {E}, 4: {E, P}, 5: {E, P, B}},
}


@pytest.mark.parametrize("tier", ["none", "low", "medium", "high"])
@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("aspect", [B, E, P, F])
def test_bleeding_grid(rules, tier: str, level: int, aspect: int) -> None:
    expected = aspect in BLEEDING_GRID[tier].get(level, set())
    assert is_bleeder(tier, level, aspect, rules) is expected


def test_bleeding_grid_spot_checks(rules) -> None:
    assert is_bleeder("high", 3, E, rules)
    assert not is_bleeder("high", 3, P, rules)
    assert not is_bleeder("medium", 3, E, rules)
    assert not is_bleeder("high", 2, E, rules)
    assert not is_bleeder("high", 5, F, rules)
    assert not is_bleeder("medium", 4, B, rules)
    assert is_bleeder("low", 5, B, rules)
    assert not is_bleeder("none", 5, E, rules)


# --------------------------------------------------------------------------------------------- amputation


@pytest.mark.parametrize("tier", ["none", "low", "medium", "high"])
@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("aspect", [B, E, P, F])
def test_amputation_only_on_g5_edged(rules, tier: str, level: int, aspect: int) -> None:
    expected = level == 5 and aspect == E and tier != "none"
    assert amputation_possible(tier, level, aspect, rules) is expected


@pytest.mark.parametrize(("tier", "modifier"), [("low", 20), ("medium", 0), ("high", -20)])
def test_amputation_modifier(rules, tier: str, modifier: int) -> None:
    assert amputation_modifier(tier, rules) == modifier


def test_amputation_cf_severs_and_always_bleeds(rules) -> None:
    outcome = amputation_outcome(TestResult.CF, rules)
    assert outcome.severed
    assert outcome.shock_roll_modifier == 0
    for tier in ("none", "low", "medium", "high"):
        assert amputation_bleeds(outcome, tier), tier


def test_amputation_mf_severs_and_bleeds_only_if_susceptible(rules, human: BodyStructure) -> None:
    outcome = amputation_outcome(TestResult.MF, rules)
    assert outcome.severed
    assert outcome.shock_roll_modifier == 0
    hand = human.locations[human.location_index("Right Hand")]
    assert hand.bleeding == "none"
    assert not amputation_bleeds(outcome, hand.bleeding)  # the hand does not bleed at all
    for tier in ("low", "medium", "high"):
        assert amputation_bleeds(outcome, tier), tier


def test_amputation_ms_kept_with_shock_penalty(rules) -> None:
    outcome = amputation_outcome(TestResult.MS, rules)
    assert not outcome.severed
    assert outcome.shock_roll_modifier == -20
    assert not any(amputation_bleeds(outcome, tier) for tier in ("none", "low", "medium", "high"))


def test_amputation_cs_kept_cleanly(rules) -> None:
    outcome = amputation_outcome(TestResult.CS, rules)
    assert not outcome.severed
    assert outcome.shock_roll_modifier == 0
    assert not any(amputation_bleeds(outcome, tier) for tier in ("none", "low", "medium", "high"))


@pytest.mark.parametrize(
    ("location", "bleeding", "amputability", "shock_value"),
    [
        ("Skull", "low", "none", 5),
        ("Neck", "high", "low", 5),
        ("Right Hand", "none", "high", 2),
        ("Right Forearm", "low", "medium", 1),
        ("Abdomen", "high", "none", 4),
        ("Left Thigh", "medium", "low", 3),
        ("Left Foot", "none", "medium", 2),
        ("Right Shoulder", "medium", "none", 3),
    ],
)
def test_human_location_tiers(
    human: BodyStructure, location: str, bleeding: str, amputability: str, shock_value: int
) -> None:
    loc = human.locations[human.location_index(location)]
    assert (loc.bleeding, loc.amputability, loc.shock_value) == (bleeding, amputability, shock_value)
