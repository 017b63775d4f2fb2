"""Tests of ``sandbox.systems.strike``: the Strength Impact Modifier, dominance, the off hand and wielding limbs.

Rules: anatomy-tables.md section 11 (Strength Impact Modifier; -1 more off-hand, -1 more thrown) and document
000 "Dominance" and "What impairment costs" (a strike mode checks its own limbs: an unusable off hand does not
spoil a one-handed strike, an unusable gripping hand fails it; immobilised limbs cannot strike).
"""

from __future__ import annotations

import pytest

from sandbox.components.body import BodyStructure
from sandbox.systems.models.anatomy.impairment import SOUND, Impairment
from sandbox.systems.strike import dominance_from, is_off_hand, strength_impact_modifier, wielding_parts

HEAD, RARM, LARM, TORSO, RLEG, LLEG = range(6)
UNUSABLE = Impairment(0, True)


def sound(n: int = 6, **unusable: bool) -> tuple[Impairment, ...]:
    index = {"rarm": RARM, "larm": LARM, "rleg": RLEG, "lleg": LLEG, "head": HEAD}
    result = [SOUND] * n
    for name, flag in unusable.items():
        if flag:
            result[index[name]] = UNUSABLE
    return tuple(result)


# --------------------------------------------------------------------------------- Strength Impact Modifier


@pytest.mark.parametrize(
    ("strength", "modifier"),
    [
        (10, 0),
        (11, 0),
        (12, 1),
        (13, 1),
        (14, 2),
        (15, 2),
        (16, 3),
        (17, 3),
        (18, 4),
        (19, 4),
        (20, 5),
        (21, 5),
        (24, 7),
        (25, 7),
        (48, 19),
        (8, -1),
        (9, -1),
        (6, -2),
        (7, -2),
        (5, -3),
        (4, -4),
        (3, -6),
        (2, -8),
        (1, -10),
    ],
)
def test_strength_impact_modifier(rules, strength: int, modifier: int) -> None:
    assert strength_impact_modifier(strength, rules.strength_impact) == modifier


@pytest.mark.parametrize(
    ("strength", "off_hand", "thrown", "modifier"),
    [
        (10, True, False, -1),
        (10, False, True, -1),
        (10, True, True, -2),
        (14, True, False, 1),
        (1, True, True, -12),
        (20, False, True, 4),
    ],
)
def test_strength_impact_off_hand_and_thrown(
    rules, strength: int, off_hand: bool, thrown: bool, modifier: int
) -> None:
    assert (
        strength_impact_modifier(strength, rules.strength_impact, off_hand=off_hand, thrown=thrown)
        == modifier
    )


# ------------------------------------------------------------------------------------------------ dominance


@pytest.mark.parametrize(
    ("left", "right", "dominance"),
    [
        (True, False, "left"),
        (False, True, "right"),
        (True, True, "ambidextrous"),
        (False, False, "ambidextrous"),
    ],
)
def test_dominance_from(left: bool, right: bool, dominance: str) -> None:
    assert dominance_from(left, right) == dominance


def test_human_sides(human: BodyStructure) -> None:
    assert [p.side for p in human.parts] == ["center", "right", "left", "center", "right", "left"]


@pytest.mark.parametrize(
    ("gripping", "dominance", "off"),
    [
        ((LARM,), "right", True),
        ((RARM,), "right", False),
        ((RARM, LARM), "right", False),  # a two-handed grip includes the dominant hand
        ((LARM, RARM), "left", False),
        ((RARM,), "left", True),
        ((LARM,), "ambidextrous", False),
        ((RARM,), "ambidextrous", False),
        ((), "right", False),
        ((HEAD,), "right", False),  # a central part is on neither side
        ((LARM, HEAD), "right", False),
    ],
)
def test_is_off_hand(human: BodyStructure, gripping: tuple[int, ...], dominance: str, off: bool) -> None:
    assert is_off_hand(human, gripping, dominance) is off


# -------------------------------------------------------------------------------------------- wielding parts


def test_one_hand_picks_the_dominant_arm(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    assert wielding_parts(human, mode, sound()) == (RARM,)
    assert wielding_parts(human, mode, sound(), dominance="left") == (LARM,)


def test_one_hand_falls_back_to_the_usable_arm(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    parts = wielding_parts(human, mode, sound(rarm=True))
    assert parts == (LARM,)
    assert is_off_hand(human, parts, "right")


def test_unusable_gripping_hand_fails_the_strike(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    assert wielding_parts(human, mode, sound(rarm=True), holding={RARM: "broadsword"}) is None


def test_unusable_off_hand_does_not_spoil_a_one_handed_strike(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    assert wielding_parts(human, mode, sound(larm=True), holding={RARM: "broadsword"}) == (RARM,)
    assert wielding_parts(human, mode, sound(larm=True)) == (RARM,)


def test_held_weapon_uses_the_hand_holding_it(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    parts = wielding_parts(human, mode, sound(), holding={LARM: "broadsword", RARM: "dagger"})
    assert parts == (LARM,)
    assert is_off_hand(human, parts, "right")


def test_battleaxe_needs_two_usable_hands(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("battleaxe.cut")
    assert mode.limbs == 2
    assert sorted(wielding_parts(human, mode, sound()) or ()) == [RARM, LARM]
    assert wielding_parts(human, mode, sound(larm=True)) is None
    assert wielding_parts(human, mode, sound(rarm=True)) is None
    assert wielding_parts(human, mode, sound(larm=True), holding={RARM: "battleaxe"}) is None
    # held in one hand: topped up with the free one
    assert sorted(wielding_parts(human, mode, sound(), holding={RARM: "battleaxe"}) or ()) == [RARM, LARM]
    # the other hand is busy holding something else
    assert wielding_parts(human, mode, sound(), holding={RARM: "battleaxe", LARM: "dagger"}) is None


def test_immobilised_arm_cannot_wield(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("broadsword.cut")
    assert wielding_parts(human, mode, sound(), immobilized={RARM}, holding={RARM: "broadsword"}) is None
    assert wielding_parts(human, mode, sound(), immobilized={RARM}) == (LARM,)
    assert wielding_parts(human, mode, sound(), immobilized={RARM, LARM}) is None
    assert wielding_parts(human, catalog.mode("battleaxe.cut"), sound(), immobilized={LARM}) is None


def test_punch_needs_a_free_hand(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("unarmed.punch")
    assert wielding_parts(human, mode, sound()) == (RARM,)
    assert wielding_parts(human, mode, sound(), holding={RARM: "broadsword"}) == (LARM,)
    assert wielding_parts(human, mode, sound(), holding={RARM: "broadsword", LARM: "dagger"}) is None
    assert wielding_parts(human, mode, sound(larm=True), holding={RARM: "broadsword"}) is None


def test_kick_uses_a_locomotor_part(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("unarmed.kick")
    assert wielding_parts(human, mode, sound()) == (RLEG,)
    assert wielding_parts(human, mode, sound(), holding={RARM: "broadsword", LARM: "dagger"}) == (RLEG,)
    assert wielding_parts(human, mode, sound(rleg=True)) == (LLEG,)
    assert wielding_parts(human, mode, sound(rleg=True, lleg=True)) is None


def test_headbutt_uses_the_vital_part(catalog, human: BodyStructure) -> None:
    mode = catalog.mode("unarmed.headbutt")
    assert wielding_parts(human, mode, sound()) == (HEAD,)
    assert wielding_parts(human, mode, sound(head=True)) is None
