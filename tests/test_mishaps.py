"""Tests of ``sandbox.systems.models.anatomy.mishaps``: fumble and stumble dispositions, outcomes and the keep-control
ML.

Rules: anatomy-tables.md section 7 (M1 or glancing none, S2/S3 roll, G4/G5 auto; a failed fumble drops the
item, a critical failure flings it; a failed stumble means prone; the better of attribute and skill, none
without either) and decisions.md 000 #7 (human arm locations fumble-flagged, leg locations stumble-flagged).
"""

from __future__ import annotations

import pytest

from sandbox.components.body import BodyStructure
from sandbox.components.rules import TestResult
from sandbox.systems.models.anatomy.mishaps import disposition, fumble_outcome, keep_control_ml, stumble_outcome

CS, MS, MF, CF = TestResult.CS, TestResult.MS, TestResult.MF, TestResult.CF


@pytest.mark.parametrize(
    ("level", "expected"), [(0, "none"), (1, "none"), (2, "roll"), (3, "roll"), (4, "auto"), (5, "auto")]
)
def test_disposition_by_level(rules, level: int, expected: str) -> None:
    assert disposition(True, level, False, rules) == expected


@pytest.mark.parametrize("level", range(6))
def test_unflagged_location_never_mishaps(rules, level: int) -> None:
    assert disposition(False, level, False, rules) == "none"


@pytest.mark.parametrize("level", range(6))
def test_glancing_never_mishaps(rules, level: int) -> None:
    assert disposition(True, level, True, rules) == "none"


@pytest.mark.parametrize(
    ("disp", "result", "expected"),
    [
        ("roll", CF, "flung"),
        ("roll", MF, "dropped"),
        ("roll", MS, "kept"),
        ("roll", CS, "kept"),
        ("auto", None, "dropped"),
        ("auto", CS, "dropped"),
        ("none", None, "none"),
        ("none", CF, "none"),
    ],
)
def test_fumble_outcome(disp: str, result: TestResult | None, expected: str) -> None:
    assert fumble_outcome(disp, result) == expected


@pytest.mark.parametrize(
    ("disp", "result", "expected"),
    [
        ("roll", CF, "prone"),
        ("roll", MF, "prone"),
        ("roll", MS, "kept"),
        ("roll", CS, "kept"),
        ("auto", None, "prone"),
        ("auto", CS, "prone"),
        ("none", None, "none"),
        ("none", CF, "none"),
    ],
)
def test_stumble_outcome(disp: str, result: TestResult | None, expected: str) -> None:
    assert stumble_outcome(disp, result) == expected


def test_roll_disposition_needs_a_result() -> None:
    with pytest.raises(ValueError):
        fumble_outcome("roll", None)
    with pytest.raises(ValueError):
        stumble_outcome("roll", None)


@pytest.mark.parametrize(
    ("attribute", "skill", "expected"),
    [
        (50, 30, 50),
        (30, 50, 50),
        (40, 40, 40),
        (50, None, 50),
        (None, 35, 35),
        (None, None, None),
        (0, None, 0),
    ],
)
def test_keep_control_ml_is_the_better_of(
    attribute: int | None, skill: int | None, expected: int | None
) -> None:
    assert keep_control_ml(attribute, skill) == expected


def test_human_mishap_flags(human: BodyStructure) -> None:
    fumble = {loc.name for loc in human.locations if loc.fumble}
    stumble = {loc.name for loc in human.locations if loc.stumble}
    arm = {"Shoulder", "Upper Arm", "Elbow", "Forearm", "Hand"}
    leg = {"Thigh", "Knee", "Calf", "Foot"}
    assert fumble == {f"{side} {name}" for side in ("Right", "Left") for name in arm}
    assert stumble == {f"{side} {name}" for side in ("Right", "Left") for name in leg}
