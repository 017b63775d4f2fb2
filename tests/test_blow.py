"""Tests of ``sandbox.systems.models.anatomy.blow``: one blow end to end against a compiled target.

Every expected value comes from document 000 and anatomy-tables.md (levels, glancing, shock, bleeding,
amputation, mishaps) and decisions.md 000 #3, #5 and #10. Random draws are forced with the queued fake rng, so
each test also pins which tests a blow makes, in order: amputation (Strength), Shock, fumble, stumble.
"""

from __future__ import annotations

import dataclasses
import json
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.body import Aspect, BodyStructure
from sandbox.components.rules import ShockState, TestResult
from sandbox.config import config_root, default_catalog, load_body
from sandbox.systems.dice import parse_dice
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy.blow import TargetProfile, compile_target, resolve_blow, roll_impact
from sandbox.systems.models.anatomy.exact_odds import dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.injury import effective_impact
from sandbox.systems.models.anatomy.vector_blows import resolve_blows

B, E, P, F = Aspect.BLUNT, Aspect.EDGED, Aspect.PIERCING, Aspect.FIRE
CS, MS, MF, CF = TestResult.CS, TestResult.MS, TestResult.MF, TestResult.CF

CATALOG = default_catalog()
RULES = CATALOG.rules
HUMAN = CATALOG.bodies["human"]
ARMOR_IDS = tuple(sorted(CATALOG.armor))


def target(
    body: BodyStructure = HUMAN,
    armor: tuple[str, ...] = (),
    *,
    shock_ml: int | None = 50,
    strength_ml: int | None = 50,
    fumble_ml: int | None = 50,
    stumble_ml: int | None = 50,
    existing: dict[int, list[int]] | None = None,
) -> TargetProfile:
    return compile_target(
        body,
        RULES,
        [CATALOG.armor[a] for a in armor],
        shock_ml=shock_ml,
        strength_ml=strength_ml,
        fumble_ml=fumble_ml,
        stumble_ml=stumble_ml,
        existing_levels=existing,
    )


@cache
def armoured(armor: frozenset[str]) -> TargetProfile:
    return target(HUMAN, tuple(sorted(armor)))


def at(name: str) -> int:
    return HUMAN.location_index(name)


# ---------------------------------------------------------------------------------------------- levels/shock


def test_skull_s3_unarmoured(queued) -> None:
    rng = queued.rolls(47)
    res = resolve_blow(target(), 12, E, rng, location=at("Skull"))
    assert not res.missed
    assert res.zone_number == 1
    assert (res.effective_impact, res.level, res.level_code) == (12, 3, "S3")
    assert res.shock_index == 8
    assert res.shock_test is MS
    assert res.final_index == 8
    assert res.shock_state is ShockState.INCAPACITATED
    assert not res.bleeder  # skull: low susceptibility, S3 never bleeds there
    assert res.amputation == "none"
    assert (res.fumble, res.stumble) == ("none", "none")
    assert not res.dead
    assert rng.remaining == 0


@pytest.mark.parametrize(
    ("roll", "result", "state"),
    [(45, CS, ShockState.STUNNED), (51, MF, ShockState.UNCONSCIOUS), (55, CF, ShockState.DEAD)],
)
def test_skull_s3_shock_results(queued, roll: int, result: TestResult, state: ShockState) -> None:
    res = resolve_blow(target(), 12, E, queued.rolls(roll), location=at("Skull"))
    assert res.shock_test is result
    assert res.shock_state is state
    assert res.dead is (state is ShockState.DEAD)


def test_forearm_s3_opens_at_4_without_a_shock_test(queued) -> None:
    rng = queued.rolls(47)  # the fumble test (the forearm is fumble-flagged and S3 calls for a roll)
    res = resolve_blow(target(), 12, E, rng, location=at("Right Forearm"))
    assert res.level == 3
    assert res.shock_index == 4
    assert res.shock_test is None
    assert res.shock_state is ShockState.NONE
    assert res.fumble == "roll"
    assert res.fumble_test is MS
    assert res.fumble_outcome == "kept"
    assert rng.remaining == 0


def test_glancing_through_mail(queued) -> None:
    # impact 9 edged against mail (edged 8) at the Thorax: effective 1 would be M1 -> glances off.
    rng = queued.rolls(60)
    res = resolve_blow(target(armor=("mail_hauberk",)), 9, E, rng, location=at("Thorax"))
    assert res.protection == 8
    assert res.effective_impact == 1
    assert res.glancing
    assert res.level == 0
    assert res.shock_index == 5  # Shock Value 4 + 1
    assert res.shock_test is CS  # 60 <= 50 + 10, divisible by 5
    assert res.final_index == 4
    assert res.shock_state is ShockState.NONE
    assert not res.bleeder
    assert not res.compound


def test_blunt_m1_under_mail_does_not_glance(queued) -> None:
    # the same roll without the glancing +10 is a critical failure: index 5 + 2 = 7, Stunned.
    res = resolve_blow(target(armor=("mail_hauberk",)), 3, B, queued.rolls(60), location=at("Thorax"))
    assert (res.effective_impact, res.level, res.glancing) == (1, 1, False)
    assert res.shock_index == 5
    assert res.shock_test is CF
    assert res.shock_state is ShockState.STUNNED


def test_glancing_needs_rigid_armour(queued) -> None:
    # gambeson (edged 3) is not rigid: impact 4 edged -> effective 1, an M1 wound.
    res = resolve_blow(target(armor=("gambeson",)), 4, E, queued.rolls(47), location=at("Thorax"))
    assert (res.effective_impact, res.level, res.glancing) == (1, 1, False)
    assert res.shock_index == 5


def test_layered_armour_at_the_thorax(queued) -> None:
    res = resolve_blow(
        target(armor=("gambeson", "mail_hauberk")), 16, E, queued.rolls(47), location=at("Thorax")
    )
    assert res.protection == 11
    assert (res.effective_impact, res.level) == (5, 2)
    res = resolve_blow(
        target(armor=("gambeson", "mail_hauberk")), 16, E, queued.rolls(47), location=at("Pelvis")
    )
    assert res.protection == 3  # the hauberk does not cover the pelvis
    assert (res.effective_impact, res.level) == (13, 3)


def test_no_wound_and_no_glance_means_no_shock(queued) -> None:
    rng = queued()
    res = resolve_blow(target(armor=("mail_hauberk",)), 8, E, rng, location=at("Thorax"))
    assert (res.effective_impact, res.level, res.glancing) == (0, 0, False)
    assert res.shock_index == 0
    assert res.shock_test is None
    assert res.shock_state is ShockState.NONE
    assert rng.drawn == 0


def test_dragon_thresholds_through_a_blow(queued) -> None:
    dragon = CATALOG.bodies["fire_dragon"]
    thorax = dragon.location_index("Thorax")
    res = resolve_blow(target(dragon), 37, E, queued.rolls(47), location=thorax)
    assert (res.protection, res.effective_impact, res.level) == (24, 13, 1)  # 13 < 13.05
    res = resolve_blow(target(dragon), 38, E, queued.rolls(47), location=thorax)
    assert (res.effective_impact, res.level) == (14, 2)
    res = resolve_blow(target(dragon), 26, E, queued(), location=thorax)
    assert (res.effective_impact, res.level) == (2, 0)


def test_opening_index_above_10_is_dead_without_a_roll(make_body, body_loc, queued) -> None:
    body = make_body(
        zones=[{"name": "Core", "weight": 1}],
        parts=[
            {
                "name": "Heart",
                "zone": "Core",
                "roles": ["core"],
                "locations": [body_loc("Heart", shock_value=6)],
            }
        ],
    )
    rng = queued()
    res = resolve_blow(target(body), 20, B, rng, location=0)
    assert res.level == 5
    assert res.shock_index == 11
    assert res.shock_test is None
    assert res.shock_state is ShockState.DEAD
    assert res.dead
    assert rng.drawn == 0


def test_opening_index_10_rolls_and_only_cs_saves(queued) -> None:
    # Skull G5 blunt: 5 + 5 = 10.
    res = resolve_blow(target(), 20, B, queued.rolls(45), location=at("Skull"))
    assert res.shock_index == 10
    assert (res.shock_test, res.final_index, res.shock_state) == (CS, 9, ShockState.UNCONSCIOUS)
    assert not res.dead
    res = resolve_blow(target(), 20, B, queued.rolls(47), location=at("Skull"))
    assert (res.shock_test, res.final_index, res.shock_state) == (MS, 10, ShockState.DEAD)
    assert res.dead


def test_no_shock_ml_fails_the_shock_test_without_a_roll(queued) -> None:
    rng = queued()
    res = resolve_blow(target(shock_ml=None), 12, E, rng, location=at("Skull"))
    assert res.shock_test is CF
    assert res.shock_state is ShockState.DEAD
    assert rng.drawn == 0


# ---------------------------------------------------------------------------------------------- bleeding


@pytest.mark.parametrize(
    ("location", "impact", "aspect", "bleeds"),
    [
        ("Abdomen", 12, E, True),  # high, S3 edged
        ("Abdomen", 12, P, False),  # high, S3 piercing
        ("Thorax", 12, E, False),  # medium, S3
        ("Thorax", 15, P, True),  # medium, G4 piercing
        ("Thorax", 15, B, False),  # medium, G4 blunt
        ("Skull", 20, B, True),  # low, G5 blunt
        ("Skull", 19, E, False),  # low, G4
        ("Abdomen", 25, F, False),  # fire never bleeds
        ("Neck", 9, E, False),  # S2 never bleeds
    ],
)
def test_bleeding_through_a_blow(location: str, impact: int, aspect: int, bleeds: bool) -> None:
    res = resolve_blow(target(), impact, aspect, random.Random(1), location=at(location))
    assert res.bleeder is bleeds


# --------------------------------------------------------------------------------------------- amputation


def test_neck_g5_edged_cf_severs_and_kills(queued) -> None:
    # Neck amputability low: Strength ML 50 + 20 = 70; a roll of 75 is a critical failure.
    rng = queued.rolls(75, 47)
    res = resolve_blow(target(), 20, E, rng, location=at("Neck"))
    assert res.level == 5
    assert res.amputation_test is CF
    assert res.severed
    assert res.amputation == "severed"
    assert res.bleeder
    assert res.dead  # decisions.md 000 #10: severing any location of a Vital part kills
    assert rng.remaining == 0


def test_neck_g5_edged_cs_keeps_it(queued) -> None:
    rng = queued.rolls(45, 45)
    res = resolve_blow(target(), 20, E, rng, location=at("Neck"))
    assert res.amputation_test is CS
    assert not res.severed
    assert res.amputation == "kept"
    assert res.shock_index == 10
    assert (res.shock_test, res.shock_state) == (CS, ShockState.UNCONSCIOUS)
    assert not res.dead


def test_amputation_ms_puts_minus_20_on_the_shock_roll(queued) -> None:
    # Right Upper Arm: amputability medium (+0), Shock Value 1: index 1 + 5 = 6.
    # Strength 47 -> MS (kept); the Shock roll of 40 is then against 50 - 20 = 30: CF, index 8.
    rng = queued.rolls(47, 40)
    res = resolve_blow(target(), 20, E, rng, location=at("Right Upper Arm"))
    assert res.amputation_test is MS
    assert not res.severed
    assert res.amputation == "kept"
    assert res.shock_index == 6
    assert res.shock_test is CF
    assert res.final_index == 8
    assert res.shock_state is ShockState.INCAPACITATED
    assert (res.fumble, res.fumble_outcome, res.fumble_test) == ("auto", "dropped", None)
    assert rng.remaining == 0


def test_amputation_cs_leaves_the_shock_roll_alone(queued) -> None:
    res = resolve_blow(target(), 20, E, queued.rolls(45, 40), location=at("Right Upper Arm"))
    assert res.amputation_test is CS
    assert res.shock_test is CS  # 40 against 50
    assert res.shock_state is ShockState.NONE


def test_hand_mf_severs_without_a_bleeder(queued) -> None:
    # Right Hand: amputability high (ML 50 - 20 = 30), bleeding none: an MF severs it but it does not bleed.
    rng = queued.rolls(31, 47)
    res = resolve_blow(target(), 20, E, rng, location=at("Right Hand"))
    assert res.amputation_test is MF
    assert res.severed
    assert not res.bleeder
    assert res.shock_index == 7
    assert res.shock_state is ShockState.STUNNED
    assert not res.dead  # an arm is not Vital
    assert res.fumble_outcome == "dropped"


def test_hand_cf_severs_and_bleeds(queued) -> None:
    res = resolve_blow(target(), 20, E, queued.rolls(35, 47), location=at("Right Hand"))
    assert res.amputation_test is CF
    assert res.severed
    assert res.bleeder


def test_amputation_only_for_edged(queued) -> None:
    rng = queued.rolls(47)  # only the Shock test
    res = resolve_blow(target(), 20, P, rng, location=at("Right Upper Arm"))
    assert res.amputation_test is None
    assert not res.severed
    assert rng.remaining == 0


def test_no_strength_ml_is_a_critical_failure(queued) -> None:
    rng = queued.rolls(47)
    res = resolve_blow(target(strength_ml=None), 20, E, rng, location=at("Left Thigh"))
    assert res.amputation_test is CF
    assert res.severed
    assert res.bleeder


# ------------------------------------------------------------------------------------------------ mishaps


@pytest.mark.parametrize(
    ("roll", "result", "outcome"),
    [(47, MS, "kept"), (45, CS, "kept"), (51, MF, "dropped"), (55, CF, "flung")],
)
def test_fumble_roll_at_right_hand_s2(queued, roll: int, result: TestResult, outcome: str) -> None:
    rng = queued.rolls(roll)
    res = resolve_blow(target(), 5, B, rng, location=at("Right Hand"))
    assert res.level == 2
    assert res.shock_index == 4  # Shock Value 2 + 2: no Shock test
    assert res.fumble == "roll"
    assert res.fumble_test is result
    assert res.fumble_outcome == outcome
    assert res.stumble == "none"
    assert rng.remaining == 0


def test_fumble_without_any_keep_grip_ability(queued) -> None:
    rng = queued()
    res = resolve_blow(target(fumble_ml=None), 5, B, rng, location=at("Right Hand"))
    assert (res.fumble_test, res.fumble_outcome) == (CF, "flung")
    assert rng.drawn == 0


def test_g4_at_right_thigh_is_an_automatic_stumble(queued) -> None:
    rng = queued.rolls(47)  # the Shock test: 3 + 4 = 7
    res = resolve_blow(target(), 15, B, rng, location=at("Right Thigh"))
    assert res.level == 4
    assert res.stumble == "auto"
    assert res.stumble_test is None
    assert res.stumble_outcome == "prone"
    assert res.fumble == "none"
    assert res.shock_state is ShockState.STUNNED
    assert rng.remaining == 0


def test_stumble_roll_at_knee_s3(queued) -> None:
    rng = queued.rolls(47, 51)  # Knee SV 2 + 3 = 5: a Shock test, then the stumble test
    res = resolve_blow(target(), 10, B, rng, location=at("Left Knee"))
    assert res.shock_test is MS
    assert (res.stumble, res.stumble_test, res.stumble_outcome) == ("roll", MF, "prone")


def test_m1_at_a_flagged_location_threatens_nothing(queued) -> None:
    res = resolve_blow(target(), 4, B, queued(), location=at("Right Hand"))
    assert (res.level, res.fumble, res.fumble_outcome) == (1, "none", "none")


# ----------------------------------------------------------------------------------------------- compound


@pytest.mark.parametrize(
    ("existing", "impact", "compound"),
    [([2], 5, True), ([2, 1], 5, False), ([2, 1], 10, True), ([], 5, False), ([1], 0, False)],
)
def test_compound_flag(existing: list[int], impact: int, compound: bool) -> None:
    t = target(existing={at("Left Calf"): existing})
    res = resolve_blow(t, impact, B, random.Random(3), location=at("Left Calf"))
    assert res.compound is compound


def test_glancing_blow_never_compounds() -> None:
    t = target(armor=("helm",), existing={at("Skull"): [1]})
    res = resolve_blow(t, 12, E, random.Random(3), location=at("Skull"))  # 12 - 11 = 1: glancing
    assert res.glancing
    assert not res.compound


# ---------------------------------------------------------------------------------------------- misses


def test_spirit_every_blow_misses(queued) -> None:
    spirit = target(CATALOG.bodies["spirit"])
    res = resolve_blow(spirit, 20, E, queued(), aim=None)
    assert res.missed
    assert res.location == MISS
    assert res.zone_number == 0
    assert res.shock_state is ShockState.NONE
    assert not res.dead
    res = resolve_blow(spirit, 20, E, queued(queued.die(1, 6)), aim=1, spread=6)
    assert res.missed
    assert res.location == MISS


def test_aimed_blow_past_the_edge_misses(queued) -> None:
    res = resolve_blow(target(), 20, E, queued(queued.die(6, 6)), aim=12, spread=6)
    assert res.missed
    assert res.zone_number == 17
    assert res.level == 0
    assert not res.bleeder


def test_aimed_blow_lands_and_resolves(queued) -> None:
    # aim at the head (1) with Spread 1; the location draw 0.0 takes the first head location (Skull).
    rng = queued(0.0, queued.d100(47))
    res = resolve_blow(target(), 12, E, rng, aim=1, spread=1)
    assert res.zone_number == 1
    assert res.location == at("Skull")
    assert res.shock_state is ShockState.INCAPACITATED


# ------------------------------------------------------------------------------------------------ impact


def test_roll_impact_adds_the_strength_modifier(queued) -> None:
    cut = CATALOG.mode("broadsword.cut")
    assert roll_impact(cut, 14, RULES, queued(queued.die(10, 10))) == 10 + 3 + 2
    assert roll_impact(cut, 14, RULES, queued(queued.die(10, 10)), off_hand=True) == 10 + 3 + 1
    assert roll_impact(cut, 1, RULES, queued(queued.die(1, 10))) == 1 + 3 - 10
    assert roll_impact(cut, None, RULES, queued(queued.die(5, 10))) == 8
    thrown = dataclasses.replace(CATALOG.mode("dagger.impale"), kind="thrown")
    assert roll_impact(thrown, 10, RULES, queued(queued.die(8, 8))) == 8 + 2 - 1


def test_bows_get_no_strength_modifier(queued) -> None:
    direct = CATALOG.mode("longbow.direct")
    assert not direct.strength_modifier
    assert roll_impact(direct, 20, RULES, queued(queued.die(6, 6))) == 6 + 3


# -------------------------------------------------------------------------------------------- properties

armour_sets = st.frozensets(st.sampled_from(ARMOR_IDS), max_size=3)


@settings(max_examples=200, deadline=None)
@given(
    impact=st.integers(0, 60),
    aspect=st.sampled_from([B, E, P, F]),
    location=st.integers(0, 31),
    armor=armour_sets,
    extra=st.sampled_from(ARMOR_IDS),
)
def test_more_armour_never_raises_effective_impact_or_level(
    impact: int, aspect: int, location: int, armor: frozenset[str], extra: str
) -> None:
    less = resolve_blow(armoured(armor), impact, aspect, random.Random(0), location=location)
    more = resolve_blow(armoured(armor | {extra}), impact, aspect, random.Random(0), location=location)
    assert more.protection >= less.protection
    assert more.effective_impact <= less.effective_impact
    assert more.level <= less.level


@settings(max_examples=200, deadline=None)
@given(
    impact=st.integers(0, 59),
    aspect=st.sampled_from([B, E, P, F]),
    location=st.integers(0, 31),
    armor=armour_sets,
)
def test_level_is_monotonic_in_impact(impact: int, aspect: int, location: int, armor: frozenset[str]) -> None:
    t = armoured(armor)
    lower = resolve_blow(t, impact, aspect, random.Random(0), location=location)
    higher = resolve_blow(t, impact + 1, aspect, random.Random(0), location=location)
    assert lower.level <= higher.level
    assert lower.effective_impact <= higher.effective_impact


@settings(max_examples=200, deadline=None)
@given(
    impact=st.integers(0, 60),
    aspect=st.sampled_from([B, E, P, F]),
    armor=armour_sets,
    aim=st.one_of(st.none(), st.integers(1, 15)),
    spread=st.integers(1, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_blow_result_invariants(
    impact: int, aspect: int, armor: frozenset[str], aim: int | None, spread: int, seed: int
) -> None:
    res = resolve_blow(armoured(armor), impact, aspect, random.Random(seed), aim=aim, spread=spread)
    assert res.missed is (res.location == MISS)
    if res.missed:
        assert aim is not None and res.zone_number > 15
        assert (res.level, res.bleeder, res.dead) == (0, False, False)
        return
    assert 0 <= res.level <= 5
    assert res.effective_impact == max(impact - res.protection, 0)
    if res.glancing:
        assert res.level == 0
        assert 1 <= res.effective_impact <= 4
        assert aspect in (E, P)
        assert res.shock_index == HUMAN.locations[res.location].shock_value + 1
    if res.level < 3:
        assert not res.bleeder
    if res.severed:
        assert res.level == 5 and aspect == E
    if res.level == 0 and not res.glancing:
        assert res.shock_index == 0
    assert (res.shock_test is None) is (res.shock_index <= 4 or res.shock_index > 10)
    if res.shock_state is ShockState.DEAD:
        assert res.dead
    if res.dead:
        assert res.shock_state is ShockState.DEAD or (res.severed and HUMAN.locations[res.location].part == 0)


# ------------------------------------------------------------------------------------ negative protection


def _vulnerable_human(tmp_path: Path, edged: int) -> BodyStructure:
    """The human body with natural edged protection ``edged`` (negative: a vulnerability), from a body file."""
    text = (config_root() / "bodies" / "human.toml").read_text(encoding="utf-8")
    assert "edged = 0," in text
    path = tmp_path / "bodies" / f"human_{edged}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace("edged = 0,", f"edged = {edged},", 1), encoding="utf-8")
    return load_body(path)


def test_negative_natural_protection_makes_worse_wounds(tmp_path: Path) -> None:
    # Document 000: effective impact = impact - protection, floored at 0; with a vulnerability of -6 an impact of
    # 8 is 14 (S3 on a human) where the same body at 0 takes 8 (S2). The same draws, the same location.
    weak = target(_vulnerable_human(tmp_path, -6))
    whole = target(_vulnerable_human(tmp_path, 0))
    thorax = at("Thorax")
    for seed in range(20):
        hurt = resolve_blow(weak, 8, E, random.Random(seed), location=thorax)
        base = resolve_blow(whole, 8, E, random.Random(seed), location=thorax)
        assert (hurt.protection, hurt.effective_impact, hurt.level_code) == (-6, 14, "S3")
        assert (base.protection, base.effective_impact, base.level_code) == (0, 8, "S2")
        assert hurt.shock_index > base.shock_index
    # A blow of no impact does nothing, vulnerability or not (a sandbox decision: docs/rules.md).
    for impact in (0, -3):
        nothing = resolve_blow(weak, impact, E, random.Random(0), location=thorax)
        assert (nothing.effective_impact, nothing.level_code) == (0, "NA")
        assert effective_impact(impact, -6) == 0
    assert effective_impact(1, -6) == 7
    # An impact whose effective impact passes the top threshold reads the top level (the table's last entry).
    assert resolve_blow(weak, 40, E, random.Random(0), location=thorax).level_code == "G5"
    # Armour still adds: a gambeson over the vulnerability leaves less than the bare vulnerable body takes.
    padded = compile_target(weak.body, RULES, [CATALOG.armor["gambeson"]], shock_ml=50, strength_ml=50,
                            fumble_ml=50, stumble_ml=50)
    assert resolve_blow(padded, 8, E, random.Random(0), location=thorax).effective_impact < 14


def test_negative_natural_protection_in_the_vectorised_and_exact_paths(tmp_path: Path) -> None:
    weak = target(_vulnerable_human(tmp_path, -10))
    whole = target(_vulnerable_human(tmp_path, 0))
    impacts = np.random.default_rng(0).integers(-3, 40, size=100_000)  # past the top of the level table
    hurt = resolve_blows(weak, impacts, E, np.random.default_rng(1))
    base = resolve_blows(whole, impacts, E, np.random.default_rng(1))
    landed = ~hurt.missed
    # A vulnerability adds to a blow's impact; a blow of no impact (0 or less) stays at 0.
    assert (hurt.effective_impact[landed] == np.where(impacts[landed] > 0, impacts[landed] + 10, 0)).all()
    assert (hurt.level >= base.level).all() and hurt.level.mean() > base.level.mean()
    dist = dice_distribution(CATALOG.mode("dagger.cut").impact)
    exact_hurt, exact_base = exact_blow_odds(weak, dist, E), exact_blow_odds(whole, dist, E)
    assert sum(exact_hurt.level[3:]) > sum(exact_base.level[3:])
    assert sum(exact_hurt.level[:2]) < sum(exact_base.level[:2])
    # 1d4-3 rolls -2, -1, 0 or 1: only the 1 hurts, and on the -10 body it is 11, S3 (human thresholds 10 and 15).
    feeble = exact_blow_odds(weak, dice_distribution(parse_dice("1d4-3")), E)
    assert feeble.level[0] == pytest.approx(0.75) and feeble.level[3] == pytest.approx(0.25)


def test_sandbox_blows_takes_a_vulnerable_body(tmp_path: Path) -> None:
    path = tmp_path / "bodies" / "human_-10.toml"
    _vulnerable_human(tmp_path, -10)
    runner = CliRunner()
    for extra in (["-n", "100"], ["-n", "100000"], ["--exact"], ["-n", "20", "--format", "jsonl"]):
        result = runner.invoke(app, ["blows", "--body", str(path), "--mode", "dagger.cut", *extra])
        assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in runner.invoke(
        app, ["blows", "--body", str(path), "--impact", "5", "--aspect", "edged", "-n", "50", "--format", "jsonl"]
    ).output.splitlines()]
    assert all(r["effective_impact"] == 15 and r["protection"] == -10 for r in records if not r["missed"])
