"""``Sandbox.options``: every action the rules allow a creature this tick, the same under the five models where the
rules are the shared loop's, each model's own turns where it has them (issue 32, "What a creature can do now").

The fixed scenario: Hero (a human with a broadsword, a free left hand) with a constrictor snake 0.7 m off (within the
sword's 1 m reach and a kick's 0.8 m, not a pommel's 0.6 m, a headbutt's or a punch's), a spirit beside it (no target:
no blow reaches it), a wolf 5 m off and a team-mate.
"""

from __future__ import annotations

import pytest

from sandbox.components.state import Condition, Equipment
from sandbox.systems.actions import Approach, Draw, FirstAid, Move, PickUp, StandUp, Strike, UseItem, Wait
from sandbox.systems.options import refusal
from sandbox.world import Sandbox

MODELS = ("anatomy", "severity", "depth", "strength", "status")
HERO, SNAKE, GHOST, WOLF, ALLY = 1, 2, 3, 4, 5
SNAKE_AIMS = ("unaimed", "Head", "Forebody", "Hindbody", "Tail", "Neck", "Thorax", "Abdomen")
"""Unaimed, the snake's parts, then the locations of those parts (its Head and Tail locations share their part's
name, so they are listed once)."""
MODES = ("broadsword.cut", "broadsword.impale", "broadsword.pommel", "unarmed.kick", "unarmed.headbutt",
         "unarmed.punch")
IN_REACH = ("broadsword.cut", "broadsword.impale", "unarmed.kick")
"""Those that reach the snake 0.7 m off."""
"""Hero's modes, hardest-hitting first (``mode_options``): the sword in the right hand, the body's own."""


def scenario(model: str) -> Sandbox:
    world = Sandbox(seed=1, model=model)
    world.spawn("human", name="Hero", team="P", weapons=["broadsword", "dagger"], policy="external")
    world.spawn("constrictor_snake", name="Snake", team="M", position=(0.7, 0.0))
    world.spawn("spirit", name="Ghost", team="M", position=(0.3, 0.0))
    world.spawn("wolf", name="Wolf", team="M", position=(5.0, 0.0))
    world.spawn("human", name="Ally", team="P", position=(0.5, 0.0))
    return world


@pytest.mark.parametrize("model", MODELS)
def test_the_options_of_the_fixed_scenario_are_the_same_under_every_model(model: str) -> None:
    with scenario(model) as world:
        before = world.freeze().document
        assert world.options("Hero") == [
            *(Strike(mode, SNAKE, aim) for mode in IN_REACH for aim in SNAKE_AIMS),  # in reach: the nearest first
            *(Approach(SNAKE, mode) for mode in MODES if mode not in IN_REACH),  # out of reach of the snake
            *(Approach(WOLF, mode) for mode in MODES),  # the wolf is out of every reach
            Move(toward=SNAKE), Move(toward=GHOST), Move(toward=WOLF), Move(toward=ALLY),
            Wait(),  # no turn of a model's own: the snake, an enemy, is within reach
        ]
        assert world.freeze().document == before  # asking changes nothing


@pytest.mark.parametrize("model", MODELS)
def test_every_option_is_allowed_and_what_is_not_listed_is_refused(model: str) -> None:
    with scenario(model) as world, world.active():
        hero = world.creatures()[HERO]
        options = world.options("Hero")
        assert all(refusal(hero, action, world.ctx) == "" for action in options)
        for action in (Strike("broadsword.pommel", SNAKE), Strike("broadsword.cut", WOLF),
                       Strike("broadsword.cut", GHOST), Strike("broadsword.cut", ALLY), Strike("dagger.cut", SNAKE),
                       Strike("broadsword.cut", SNAKE, "Left Arm"), Approach(SNAKE, "broadsword.cut"), StandUp(),
                       PickUp("broadsword"), Draw("dagger"), FirstAid(ALLY), Move(), Move(toward=HERO)):
            assert action not in options
            assert refusal(hero, action, world.ctx) != "", action
        assert refusal(hero, Move(to=(3.0, 4.0)), world.ctx) == ""  # to any point, with the moves listed


@pytest.mark.parametrize(("model", "turns"), [
    ("anatomy", []), ("depth", []), ("status", []),
    ("severity", [FirstAid(3)]),  # its Bloody team-mate (entity 3) within reach
    ("strength", [UseItem("healing_draught", 3)]),  # its dying team-mate within reach
])
def test_a_models_own_turns_are_options_when_no_enemy_is_within_reach(model: str, turns: list[object]) -> None:
    with Sandbox(seed=1, model=model) as world:
        world.spawn("human", name="Hero", team="P", weapons=["broadsword"], policy="external",
                    items=["healing_draught"] if model == "strength" else None)
        world.spawn("wolf", name="Wolf", team="M", position=(5.0, 0.0))
        world.spawn("human", name="Ally", team="P", position=(0.5, 0.0))
        if model == "severity":
            world.inflict("Ally", severity=1, effect="bloody")
        elif model == "strength":
            world.inflict("Ally", damage=3)
            world.inflict("Ally", damage=7)  # all it had left: dying
        assert world.options("Hero") == [*(Approach(2, mode) for mode in MODES), Move(toward=2), Move(toward=3),
                                         *turns, Wait()]


@pytest.mark.parametrize("model", MODELS)
def test_a_prone_creature_that_can_stand_can_only_stand_up(model: str) -> None:
    with scenario(model) as world:
        world.get("Hero", Condition).prone = True
        assert world.options("Hero") == [StandUp(), Wait()]


@pytest.mark.parametrize("model", MODELS)
def test_an_empty_handed_creature_takes_up_a_weapon_before_anything_else(model: str) -> None:
    with scenario(model) as world:
        equip = world.get("Hero", Equipment)
        equip.holding.clear()
        equip.dropped.append("broadsword")
        assert world.options("Hero") == [PickUp("broadsword"), Draw("dagger"), Wait()]


@pytest.mark.parametrize("model", MODELS)
def test_a_creature_out_of_the_fight_has_no_options(model: str) -> None:
    with scenario(model) as world:
        world.get("Hero", Condition).out = True
        assert world.options("Hero") == []
        world.get("Hero", Condition).out = False
        world.get("Snake", Condition).dead = True  # a dead enemy is no target: no strike, no approach
        assert not any(isinstance(a, Strike | Approach) and a.target == SNAKE for a in world.options("Hero"))


def test_a_stunned_creature_under_severity_can_only_wait() -> None:
    with scenario("severity") as world:
        world.inflict("Hero", severity=1, effect="stun")
        assert world.options("Hero") == [Wait()]


def test_options_do_not_depend_on_the_policy() -> None:
    """What the rules allow is the same for a creature the AI drives: the AI chooses among the same actions."""
    with scenario("anatomy") as world:
        world.spawn("human", name="Twin", team="P", weapons=["broadsword", "dagger"])
        twin = world.options("Twin")
        assert [a for a in twin if isinstance(a, Strike)] == [
            Strike(mode, SNAKE, aim) for mode in IN_REACH for aim in SNAKE_AIMS]
