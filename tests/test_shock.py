"""Tests of ``sandbox.systems.models.anatomy.shock``: opening index, whether a Shock test is made, and the resulting
state.

Rules: document 000 "Shock", anatomy-tables.md section 4 (index <= 4 no test, 5-10 test, > 10 dead; CF +2,
MF +1, MS 0, CS -1; <= 6 none, 7 stunned, 8 incapacitated, 9 unconscious, >= 10 dead) and decisions.md 000 #3.
"""

from __future__ import annotations

import pytest

from sandbox.components.rules import ShockState, TestResult
from sandbox.systems.models.anatomy.shock import (
    adjusted_index,
    needs_test,
    opening_index,
    resolve_opening,
    state_for_index,
    worsen,
)

CS, MS, MF, CF = TestResult.CS, TestResult.MS, TestResult.MF, TestResult.CF
NONE, STUNNED, INCAP, UNCON, DEAD = (
    ShockState.NONE,
    ShockState.STUNNED,
    ShockState.INCAPACITATED,
    ShockState.UNCONSCIOUS,
    ShockState.DEAD,
)


def test_skull_s3_opens_at_8(rules) -> None:
    assert opening_index(5, 3, False, rules) == 8
    assert needs_test(8, rules)


@pytest.mark.parametrize(
    ("result", "index", "state"), [(MS, 8, INCAP), (CS, 7, STUNNED), (MF, 9, UNCON), (CF, 10, DEAD)]
)
def test_skull_s3_by_result(rules, result: TestResult, index: int, state: ShockState) -> None:
    assert adjusted_index(8, result, rules) == index
    assert resolve_opening(8, result, rules) is state


def test_forearm_s3_opens_at_4_and_never_rolls(rules) -> None:
    assert opening_index(1, 3, False, rules) == 4
    assert not needs_test(4, rules)
    assert resolve_opening(4, None, rules) is NONE
    for result in TestResult:
        assert resolve_opening(4, result, rules) is NONE


@pytest.mark.parametrize("index", [11, 12, 15])
def test_opening_above_10_is_dead_without_a_roll(rules, index: int) -> None:
    assert not needs_test(index, rules)
    assert resolve_opening(index, None, rules) is DEAD


@pytest.mark.parametrize(("result", "state"), [(CS, UNCON), (MS, DEAD), (MF, DEAD), (CF, DEAD)])
def test_opening_10_rolls_and_only_cs_saves(rules, result: TestResult, state: ShockState) -> None:
    assert needs_test(10, rules)
    assert resolve_opening(10, result, rules) is state


@pytest.mark.parametrize(
    ("index", "test"), [(0, False), (4, False), (5, True), (7, True), (10, True), (11, False)]
)
def test_needs_test_window(rules, index: int, test: bool) -> None:
    assert needs_test(index, rules) is test


@pytest.mark.parametrize("index", range(5, 11))
def test_a_needed_test_without_result_is_an_error(rules, index: int) -> None:
    with pytest.raises(ValueError):
        resolve_opening(index, None, rules)


@pytest.mark.parametrize(("result", "state"), [(CS, NONE), (MS, NONE), (MF, NONE), (CF, STUNNED)])
def test_opening_5(rules, result: TestResult, state: ShockState) -> None:
    assert resolve_opening(5, result, rules) is state


@pytest.mark.parametrize(
    ("shock_value", "level", "glancing", "index"),
    [(4, 0, True, 5), (5, 0, True, 6), (1, 0, True, 2), (4, 1, True, 5)],
)
def test_glancing_index_is_shock_value_plus_1(
    rules, shock_value: int, level: int, glancing: bool, index: int
) -> None:
    assert opening_index(shock_value, level, glancing, rules) == index


def test_no_wound_no_glance_no_shock(rules) -> None:
    assert opening_index(5, 0, False, rules) == 0
    assert resolve_opening(0, None, rules) is NONE


@pytest.mark.parametrize(("shock_value", "level", "index"), [(5, 5, 10), (2, 2, 4), (3, 4, 7), (4, 1, 5)])
def test_opening_index_is_shock_value_plus_level(rules, shock_value: int, level: int, index: int) -> None:
    assert opening_index(shock_value, level, False, rules) == index


@pytest.mark.parametrize(
    ("index", "state"),
    [
        (-3, NONE),
        (0, NONE),
        (4, NONE),
        (6, NONE),
        (7, STUNNED),
        (8, INCAP),
        (9, UNCON),
        (10, DEAD),
        (11, DEAD),
        (14, DEAD),
    ],
)
def test_state_for_index(rules, index: int, state: ShockState) -> None:
    assert state_for_index(index, rules) is state


def test_index_changes(rules) -> None:
    assert [adjusted_index(7, r, rules) for r in (CF, MF, MS, CS)] == [9, 8, 7, 6]


@pytest.mark.parametrize("current", list(ShockState))
@pytest.mark.parametrize("offered", list(ShockState))
def test_worsen_only_worsens(current: ShockState, offered: ShockState) -> None:
    assert worsen(current, offered) is max(current, offered)


def test_worsen_examples() -> None:
    assert worsen(INCAP, STUNNED) is INCAP
    assert worsen(STUNNED, UNCON) is UNCON
    assert worsen(NONE, NONE) is NONE
    assert worsen(DEAD, NONE) is DEAD
