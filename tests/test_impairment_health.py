"""Tests of ``sandbox.systems.models.anatomy.impairment`` and ``sandbox.systems.models.anatomy.health``: part
impairment, test penalties and Health.

Rules: document 000 "Impairment and Unusable Parts" and "Health", anatomy-tables.md sections 8.1-8.3, and
decisions.md 000 #8 (an untreated minor wound counts as slow to heal) and #11 (Health).
"""

from __future__ import annotations

import dataclasses

import pytest

from sandbox.components.body import BodyStructure
from sandbox.components.models.anatomy import Injury, Wound
from sandbox.systems.models.anatomy.health import band, health, health_ceiling
from sandbox.systems.models.anatomy.impairment import (
    SOUND,
    Impairment,
    body_impairments,
    injury_penalty,
    part_impairment,
    permanent_impairment_for,
    tier,
)
from sandbox.systems.models.anatomy.impairment import test_penalty as role_penalty

HEAD, RARM, LARM, TORSO, RLEG, LLEG = range(6)


def impairments(n: int = 6, **by_part: Impairment) -> tuple[Impairment, ...]:
    """Impairments of a six-part human with the named parts (``rarm=...``) impaired."""
    index = {"head": HEAD, "rarm": RARM, "larm": LARM, "torso": TORSO, "rleg": RLEG, "lleg": LLEG}
    result = [SOUND] * n
    for name, imp in by_part.items():
        result[index[name]] = imp
    return tuple(result)


MINOR = Impairment(-5)
SERIOUS = Impairment(-10)
GRIEVOUS = Impairment(-15)
UNUSABLE = Impairment(0, True)


# ----------------------------------------------------------------------------------------- one wound


@pytest.mark.parametrize(
    ("level", "rate", "penalty"),
    [
        (0, None, 0),
        (1, None, -5),
        (1, 5, -5),
        (1, 4, -5),
        (1, 0, -5),
        (1, 6, 0),
        (2, None, -10),
        (2, 6, -10),
        (3, 3, -10),
        (4, None, None),
        (4, 6, None),
        (5, 2, None),
    ],
)
def test_injury_penalty(rules, level: int, rate: int | None, penalty: int | None) -> None:
    assert injury_penalty(level, rate, rules) == penalty


# ------------------------------------------------------------------------------------------ one part


def test_worst_of_not_additive(rules) -> None:
    assert part_impairment([(2, None), (3, None), (2, 4)], rules=rules) == Impairment(-10)


def test_grievous_makes_the_part_unusable(rules) -> None:
    imp = part_impairment([(1, None), (4, None)], rules=rules)
    assert imp.unusable
    assert imp.impaired
    assert part_impairment([(5, 6)], rules=rules).unusable


@pytest.mark.parametrize(("rate", "penalty"), [(None, -5), (6, 0), (5, -5), (3, -5)])
def test_minor_wound_impairs_while_slow_to_heal(rules, rate: int | None, penalty: int) -> None:
    assert part_impairment([(1, rate)], rules=rules) == Impairment(penalty)


def test_healed_wound_does_not_impair(rules) -> None:
    assert part_impairment([(0, None)], rules=rules) == SOUND
    assert part_impairment([], rules=rules) == SOUND
    assert not SOUND.impaired


def test_permanent_floor(rules) -> None:
    assert part_impairment([(2, None)], -15, rules=rules) == Impairment(-15)
    assert part_impairment([], -15, rules=rules) == Impairment(-15)
    assert part_impairment([(1, 6)], -5, rules=rules) == Impairment(-5)
    assert part_impairment([(2, 4)], -5, rules=rules) == Impairment(-10)


def test_permanent_impairment_never_makes_a_part_unusable_on_its_own(rules) -> None:
    imp = part_impairment([], -25, rules=rules)
    assert not imp.unusable
    assert imp.penalty == -25


def test_permanently_unusable(rules) -> None:
    assert part_impairment([], 0, True, rules=rules).unusable
    assert part_impairment([(1, 6)], -10, True, rules=rules) == Impairment(-10, True)


@pytest.mark.parametrize(
    ("days", "penalty"),
    [
        (0, 0),
        (19, 0),
        (19.9, 0),
        (20, -5),
        (39, -5),
        (40, -10),
        (59, -10),
        (60, -15),
        (80, -20),
        (99, -20),
        (100, -25),
        (300, -25),
    ],
)
def test_permanent_impairment_for(rules, days: float, penalty: int) -> None:
    assert permanent_impairment_for(days, rules) == penalty


@pytest.mark.parametrize(
    ("imp", "expected"),
    [
        (SOUND, "none"),
        (Impairment(-1), "minor"),
        (MINOR, "minor"),
        (Impairment(-6), "serious"),
        (SERIOUS, "serious"),
        (Impairment(-11), "grievous"),
        (GRIEVOUS, "grievous"),
        (Impairment(-25), "grievous"),
        (UNUSABLE, "unusable"),
        (Impairment(-10, True), "unusable"),
    ],
)
def test_tier(rules, imp: Impairment, expected: str) -> None:
    assert tier(imp, rules) == expected


# ---------------------------------------------------------------------------------------- whole body


def test_body_impairments_collects_wounds_per_part(human: BodyStructure, rules, loc) -> None:
    wounds = Injury(
        [
            Wound(loc("Right Forearm"), 2, 1),
            Wound(loc("Right Hand"), 3, 0),
            Wound(loc("Right Elbow"), 2, 1),
            Wound(loc("Left Calf"), 1, 0),
            Wound(loc("Left Thigh"), 1, 0, healing_rate=6),
            Wound(loc("Thorax"), 0, 1),  # healed
        ]
    )
    imps = body_impairments(human, wounds, rules)
    assert imps == (SOUND, Impairment(-10), SOUND, SOUND, SOUND, Impairment(-5))


def test_body_impairments_severed_location_makes_the_part_unusable(human: BodyStructure, rules, loc) -> None:
    imps = body_impairments(human, Injury(severed={loc("Left Hand")}), rules)
    assert imps[LARM].unusable
    assert not imps[RARM].impaired


def test_body_impairments_unusable_parts_and_permanent(human: BodyStructure, rules, loc) -> None:
    wounds = Injury(
        [Wound(loc("Right Thigh"), 2, 0)], unusable_parts={RARM}, permanent_impairment={RLEG: -15}
    )
    imps = body_impairments(human, wounds, rules)
    assert imps[RARM].unusable
    assert imps[RLEG] == Impairment(-15)


def test_body_impairments_part_definition_floor(human: BodyStructure, rules, loc) -> None:
    parts = list(human.parts)
    parts[LLEG] = dataclasses.replace(parts[LLEG], permanent_impairment=-20)
    parts[LARM] = dataclasses.replace(parts[LARM], permanently_unusable=True)
    body = dataclasses.replace(human, parts=tuple(parts))
    imps = body_impairments(body, Injury([Wound(loc("Left Knee"), 2, 0)]), rules)
    assert imps[LLEG] == Impairment(-20)
    assert imps[LARM].unusable


# ------------------------------------------------------------------------------------------ test penalty


def test_unusable_part_on_a_named_role_fails_the_test(human: BodyStructure, rules, loc) -> None:
    imps = body_impairments(human, Injury([Wound(loc("Right Forearm"), 4, 1)]), rules)
    assert role_penalty(human, imps, ["manipulator"]) is None
    assert role_penalty(human, imps, ["manipulator", "locomotor"]) is None
    assert role_penalty(human, imps, ["locomotor"]) == 0


def test_worst_penalty_among_the_role_parts(human: BodyStructure, rules, loc) -> None:
    imps = body_impairments(
        human,
        Injury(
            [Wound(loc("Right Calf"), 2, 0), Wound(loc("Left Foot"), 1, 0), Wound(loc("Left Hand"), 1, 0)]
        ),
        rules,
    )
    assert role_penalty(human, imps, ["locomotor"]) == -10
    assert role_penalty(human, imps, ["manipulator"]) == -5
    assert role_penalty(human, imps, ["manipulator", "locomotor"]) == -10
    assert role_penalty(human, imps, ["core"]) == 0
    assert role_penalty(human, imps, ["vital"]) == 0


def test_skills_with_no_roles_are_untouched(catalog, human: BodyStructure) -> None:
    everything_gone = tuple(UNUSABLE for _ in human.parts)
    for skill in ("shock", "lore", "endurance", "will"):
        assert catalog.skills[skill].roles == frozenset()
        assert role_penalty(human, everything_gone, catalog.skills[skill].roles) == 0


def test_skill_roles(catalog) -> None:
    assert catalog.skills["climbing"].roles == frozenset({"manipulator", "locomotor"})
    assert catalog.skills["legerdemain"].roles == frozenset({"manipulator"})
    assert catalog.skills["agility"].roles == frozenset({"locomotor"})
    assert not catalog.skills["shock"].impairable


# ------------------------------------------------------------------------------------------------ health


@pytest.mark.parametrize(
    ("imps", "ceiling"),
    [
        (impairments(), 100),
        (impairments(rarm=MINOR), 80),
        (impairments(torso=SERIOUS), 20),
        (impairments(torso=MINOR), 50),
        (impairments(rarm=MINOR, torso=SERIOUS), 20),
        (impairments(rarm=MINOR, lleg=MINOR), 50),
        (impairments(rarm=MINOR, larm=MINOR, lleg=MINOR), 30),
        (impairments(rarm=MINOR, larm=MINOR, lleg=MINOR, rleg=MINOR), 30),
        (impairments(rarm=SERIOUS), 50),
        (impairments(rarm=SERIOUS, lleg=SERIOUS), 20),
        (impairments(rarm=GRIEVOUS), 30),
        (impairments(rarm=GRIEVOUS, rleg=GRIEVOUS), 10),
        (impairments(rarm=UNUSABLE), 20),
        (impairments(rarm=UNUSABLE, larm=UNUSABLE), 10),
        (impairments(rarm=UNUSABLE, larm=UNUSABLE, rleg=UNUSABLE, lleg=UNUSABLE), 10),
        (impairments(head=MINOR, torso=MINOR), 25),
        (impairments(head=SERIOUS, torso=SERIOUS), 10),
        (impairments(head=GRIEVOUS), 10),
        (impairments(head=UNUSABLE), 0),
        (impairments(torso=UNUSABLE, rarm=MINOR), 0),
        (impairments(head=MINOR, rarm=SERIOUS), 50),
        (impairments(head=MINOR, rarm=SERIOUS, lleg=SERIOUS), 20),
    ],
)
def test_health_ceiling(human: BodyStructure, rules, imps: tuple[Impairment, ...], ceiling: int) -> None:
    assert health_ceiling(human, imps, rules) == ceiling


LIMB_TABLE = {
    "minor": (80, 50, 30),
    "serious": (50, 20, 20),
    "grievous": (30, 10, 10),
    "unusable": (20, 10, 10),
}
CRITICAL_TABLE = {"minor": (50, 25), "serious": (20, 10), "grievous": (10, 10), "unusable": (0, 0)}
BY_TIER = {"minor": MINOR, "serious": SERIOUS, "grievous": GRIEVOUS, "unusable": UNUSABLE}


@pytest.mark.parametrize("state", list(LIMB_TABLE))
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_limb_ceiling_table(human: BodyStructure, rules, state: str, count: int) -> None:
    limbs = ["rarm", "larm", "rleg", "lleg"][:count]
    imps = impairments(**dict.fromkeys(limbs, BY_TIER[state]))
    assert health_ceiling(human, imps, rules) == LIMB_TABLE[state][min(count, 3) - 1]


@pytest.mark.parametrize("state", list(CRITICAL_TABLE))
@pytest.mark.parametrize("count", [1, 2])
def test_critical_ceiling_table(human: BodyStructure, rules, state: str, count: int) -> None:
    crit = ["head", "torso"][:count]
    imps = impairments(**dict.fromkeys(crit, BY_TIER[state]))
    assert health_ceiling(human, imps, rules) == CRITICAL_TABLE[state][count - 1]


def test_worsening_one_of_three_minor_limbs_raises_the_ceiling_by_the_bucket_rule(
    human: BodyStructure, rules
) -> None:
    """Pins the documented bucket algorithm (anatomy-tables.md 8.2, decisions.md 000 #11) at its odd corner.

    Three minorly impaired limbs read 30; when one of them becomes serious, the buckets are two minor limbs
    (50) and one serious limb (50), so Health rises to 50. A rule question, reported; not a code bug.
    """
    three_minor = impairments(rarm=MINOR, larm=MINOR, rleg=MINOR)
    assert health_ceiling(human, three_minor, rules) == 30
    one_worse = impairments(rarm=SERIOUS, larm=MINOR, rleg=MINOR)
    assert health_ceiling(human, one_worse, rules) == 50


def test_bucket_corner_from_real_wounds(human: BodyStructure, rules, loc) -> None:
    """The same corner from wounds: an S2 on one of three minorly wounded limbs lifts Health from 30 to 50."""
    minor = [
        Wound(loc("Right Forearm"), 1, 1),
        Wound(loc("Left Forearm"), 1, 1),
        Wound(loc("Right Calf"), 1, 0),
    ]
    assert health_ceiling(human, body_impairments(human, Injury(list(minor)), rules), rules) == 30
    worse = Injury([*minor, Wound(loc("Right Hand"), 2, 0)])
    assert health_ceiling(human, body_impairments(human, worse, rules), rules) == 50


def test_unusable_critical_part_reads_1_while_alive(human: BodyStructure, rules) -> None:
    ceiling = health_ceiling(human, impairments(head=UNUSABLE), rules)
    assert ceiling == 0
    assert health(ceiling, True, rules) == 1
    assert health(ceiling, False, rules) == 0


@pytest.mark.parametrize(
    ("ceiling", "alive", "expected"),
    [
        (100, True, 100),
        (100, False, 0),
        (20, True, 20),
        (1, True, 1),
        (0, True, 1),
        (0, False, 0),
        (50, False, 0),
    ],
)
def test_health(rules, ceiling: int, alive: bool, expected: int) -> None:
    assert health(ceiling, alive, rules) == expected


@pytest.mark.parametrize(
    ("pct", "name"),
    [
        (100, "Excellent"),
        (96, "Excellent"),
        (95, "Good"),
        (80, "Good"),
        (79, "Fair"),
        (60, "Fair"),
        (59, "Poor"),
        (30, "Poor"),
        (29, "Morbid"),
        (1, "Morbid"),
        (0, "Dead"),
    ],
)
def test_bands(rules, pct: int, name: str) -> None:
    assert band(pct, rules) == name


def test_part_with_no_roles_counts_as_a_limb(catalog, rules) -> None:
    wolf = catalog.bodies["wolf"]
    tail = wolf.part_index("Tail")
    assert wolf.parts[tail].roles == frozenset()
    assert not wolf.parts[tail].critical
    imps = [SOUND] * len(wolf.parts)
    imps[tail] = SERIOUS
    assert health_ceiling(wolf, tuple(imps), rules) == 50  # limb serious, not critical serious (20)
    imps[tail] = UNUSABLE
    assert health_ceiling(wolf, tuple(imps), rules) == 20  # not 0


def test_critical_and_limb_parts(human: BodyStructure) -> None:
    assert [p.critical for p in human.parts] == [True, False, False, True, False, False]
    assert [p.affects_mobility for p in human.parts] == [True, False, False, True, True, True]
    assert [p.vital for p in human.parts] == [True, False, False, False, False, False]


def test_health_from_wounds_end_to_end(human: BodyStructure, rules, loc) -> None:
    # a minor limb wound (80) and a serious chest wound (20): the chest governs -> 20, Morbid
    wounds = Injury([Wound(loc("Left Forearm"), 1, 1), Wound(loc("Thorax"), 3, 1)])
    ceiling = health_ceiling(human, body_impairments(human, wounds, rules), rules)
    assert ceiling == 20
    assert band(health(ceiling, True, rules), rules) == "Morbid"


def test_negative_days_leave_no_permanent_impairment(rules) -> None:
    from sandbox.systems.models.anatomy.impairment import permanent_impairment_for

    assert permanent_impairment_for(-1, rules) == 0
    assert permanent_impairment_for(-100, rules) == 0
