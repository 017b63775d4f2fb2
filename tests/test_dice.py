"""Tests of ``sandbox.systems.dice``: dice expressions and the d100 skill test of decisions.md.

A d100 test rolls against a Mastery Level clamped to 5..95: a roll at or under the ML succeeds, and a roll
divisible by 5 is critical (CS = success and roll % 5 == 0, MS, MF, CF = failure and roll % 5 == 0).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.gear import Dice
from sandbox.components.rules import TestResult
from sandbox.config import default_catalog
from sandbox.systems.dice import parse_dice, read_test, roll_dice, roll_die, skill_test, success_probabilities

TESTS = default_catalog().rules.tests

CS, MS, MF, CF = TestResult.CS, TestResult.MS, TestResult.MF, TestResult.CF


# ------------------------------------------------------------------------------------------------ parse_dice


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d10+3", Dice(1, 10, 3)),
        ("d6-3", Dice(1, 6, -3)),
        ("2d4", Dice(2, 4, 0)),
        ("3", Dice(0, 0, 3)),
        ("1d8+7", Dice(1, 8, 7)),
        ("3d10", Dice(3, 10, 0)),
        ("2D10+8", Dice(2, 10, 8)),
        (" 1d6 - 2 ", Dice(1, 6, -2)),
        ("-3", Dice(0, 0, -3)),
    ],
)
def test_parse_dice(text: str, expected: Dice) -> None:
    assert parse_dice(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "1d", "d", "0d6", "1d0", "1d6+", "2x4", "1d6+3d4", "1.5d6", "+"])
def test_parse_dice_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError):
        parse_dice(text)


@pytest.mark.parametrize(
    ("text", "minimum", "maximum", "canonical"),
    [("1d10+3", 4, 13, "1d10+3"), ("d6-3", -2, 3, "1d6-3"), ("2d4", 2, 8, "2d4"), ("3", 3, 3, "3")],
)
def test_dice_bounds_and_text(text: str, minimum: int, maximum: int, canonical: str) -> None:
    dice = parse_dice(text)
    assert (dice.minimum, dice.maximum) == (minimum, maximum)
    assert str(dice) == canonical
    assert parse_dice(str(dice)) == dice


# ------------------------------------------------------------------------------------------------ roll_dice


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(1, 6),
    sides=st.integers(1, 20),
    modifier=st.integers(-10, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_roll_dice_stays_within_bounds(count: int, sides: int, modifier: int, seed: int) -> None:
    dice = Dice(count, sides, modifier)
    rng = random.Random(seed)
    for _ in range(20):
        assert dice.minimum <= roll_dice(dice, rng) <= dice.maximum


def test_roll_dice_extremes(queued) -> None:
    dice = parse_dice("2d6+1")
    assert roll_dice(dice, queued(0.0, 0.0)) == 3
    assert roll_dice(dice, queued(0.999999, 0.999999)) == 13
    assert roll_dice(dice, queued(queued.die(4, 6), queued.die(2, 6))) == 7


def test_roll_dice_flat_value_draws_nothing(queued) -> None:
    rng = queued()
    assert roll_dice(parse_dice("3"), rng) == 3
    assert rng.drawn == 0


def test_roll_dice_reaches_every_total() -> None:
    rng = random.Random(7)
    totals = {roll_dice(parse_dice("1d10+3"), rng) for _ in range(2000)}
    assert totals == set(range(4, 14))


def test_roll_die(queued) -> None:
    assert roll_die(6, queued(queued.die(6, 6))) == 6
    assert roll_die(6, queued(0.0)) == 1
    rng = queued()
    assert roll_die(1, rng) == 1
    assert roll_die(0, rng) == 1  # a die below 1 counts as 1, without a draw
    assert rng.drawn == 0


# ------------------------------------------------------------------------------------------------ read_test


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (1, MS),
        (5, CS),
        (45, CS),
        (47, MS),
        (49, MS),
        (50, CS),
        (51, MF),
        (54, MF),
        (55, CF),
        (99, MF),
        (100, CF),
    ],
)
def test_read_test_ml_50(roll: int, expected: TestResult) -> None:
    assert read_test(roll, 50, TESTS) is expected


@pytest.mark.parametrize(
    ("roll", "ml", "expected"),
    [
        (5, 0, CS),  # ML 0 is clamped up to 5: a roll of 5 still succeeds, critically
        (4, 0, MS),
        (6, 0, MF),
        (10, 0, CF),
        (5, -40, CS),
        (95, 100, CS),  # ML 100 is clamped down to 95
        (94, 100, MS),
        (96, 100, MF),
        (100, 100, CF),
        (100, 250, CF),
        (95, 95, CS),
        (96, 95, MF),
        (60, 60, CS),
        (61, 60, MF),
    ],
)
def test_read_test_clamps_ml_to_5_95(roll: int, ml: int, expected: TestResult) -> None:
    assert read_test(roll, ml, TESTS) is expected


def test_shipped_test_rules() -> None:
    assert (TESTS.ml_min, TESTS.ml_max, TESTS.critical_divisor) == (5, 95, 5)


@settings(max_examples=200, deadline=None)
@given(roll=st.integers(1, 100), ml=st.integers(-50, 200))
def test_read_test_matches_decision(roll: int, ml: int) -> None:
    effective = min(max(ml, 5), 95)
    result = read_test(roll, ml, TESTS)
    assert result.success == (roll <= effective)
    assert result.critical == (roll % 5 == 0)


# ------------------------------------------------------------------------------------- success_probabilities


@pytest.mark.parametrize(
    ("ml", "cs", "ms", "mf", "cf"),
    [
        (50, 0.10, 0.40, 0.40, 0.10),
        (0, 0.01, 0.04, 0.76, 0.19),
        (5, 0.01, 0.04, 0.76, 0.19),
        (100, 0.19, 0.76, 0.04, 0.01),
        (95, 0.19, 0.76, 0.04, 0.01),
        (47, 0.09, 0.38, 0.42, 0.11),
    ],
)
def test_success_probabilities(ml: int, cs: float, ms: float, mf: float, cf: float) -> None:
    probs = success_probabilities(ml, TESTS)
    assert probs[CS] == pytest.approx(cs)
    assert probs[MS] == pytest.approx(ms)
    assert probs[MF] == pytest.approx(mf)
    assert probs[CF] == pytest.approx(cf)
    assert sum(probs.values()) == pytest.approx(1.0)


# ------------------------------------------------------------------------------------------------ skill_test


def test_skill_test_none_is_cf_without_drawing(queued) -> None:
    rng = queued()
    assert skill_test(None, rng, TESTS) is CF
    assert rng.drawn == 0


@pytest.mark.parametrize(("roll", "expected"), [(47, MS), (45, CS), (51, MF), (100, CF)])
def test_skill_test_draws_one_d100(queued, roll: int, expected: TestResult) -> None:
    rng = queued.rolls(roll, 1)
    assert skill_test(50, rng, TESTS) is expected
    assert rng.drawn == 1


def test_skill_test_frequencies_match_probabilities() -> None:
    rng = random.Random(2024)
    n = 40_000
    counts = dict.fromkeys(TestResult, 0)
    for _ in range(n):
        counts[skill_test(50, rng, TESTS)] += 1
    for result, p in success_probabilities(50, TESTS).items():
        assert abs(counts[result] / n - p) < 0.01
