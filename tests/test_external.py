"""A creature the game drives (issue 32, problem 5): ``policy="external"``, one ``submit`` per tick, resolved in the
tick's initiative order through the same phases as the AI's; with nothing submitted it waits.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from sandbox.components.events import AttackDeclared, Event, ItemPickedUp, ModelStateChanged, StoodUp
from sandbox.components.state import Combatant, Condition, Equipment, Position
from sandbox.systems.actions import (
    ActionRefused,
    AlreadySubmitted,
    Approach,
    Draw,
    FirstAid,
    Move,
    NotExternal,
    PickUp,
    StandUp,
    Strike,
    UnknownAction,
    UseItem,
    Wait,
)
from sandbox.world import Sandbox, SandboxError

MODELS = ("anatomy", "severity", "depth", "strength", "status")


def melee(model: str = "anatomy", seed: int = 5, hero_initiative: int = 50) -> Sandbox:
    """Hero (external) between a fast and a slow foe, everyone within a sword's reach of everyone."""
    world = Sandbox(seed=seed, model=model)
    world.spawn("human", name="Fast", team="M", weapons=["broadsword"], initiative=90, position=(0.5, 0.0))
    world.spawn("human", name="Hero", team="P", weapons=["broadsword"], initiative=hero_initiative, policy="external",
                armor=["gambeson", "mail_hauberk", "helm"])
    world.spawn("human", name="Slow", team="M", weapons=["broadsword"], initiative=10, position=(-0.5, 0.0))
    return world


def attackers(events: list[Event], world: Sandbox) -> list[str]:
    return [world.name_of(e.attacker) for e in events if isinstance(e, AttackDeclared)]


@pytest.mark.parametrize("model", MODELS)
def test_a_submitted_strike_is_resolved_in_initiative_order(model: str) -> None:
    with melee(model) as world:
        world.submit("Hero", Strike("broadsword.cut", "Slow", "Head"))
        events = world.step()
        assert attackers(events, world) == ["Fast", "Hero", "Slow"]  # Hero's attack between the others'
        mine = next(e for e in events if isinstance(e, AttackDeclared) and world.name_of(e.attacker) == "Hero")
        assert mine.target == world.entity("Slow") and mine.mode == "broadsword.cut"
    with melee(model, hero_initiative=95) as world:
        world.submit("Hero", Strike("broadsword.cut", "Slow"))
        assert attackers(world.step(), world) == ["Hero", "Fast", "Slow"]


@pytest.mark.parametrize("model", MODELS)
def test_a_creature_with_nothing_submitted_waits(model: str) -> None:
    with melee(model) as world:
        for _ in range(3):
            events = world.step()
            assert "Hero" not in attackers(events, world)
            assert world.get("Hero", Combatant).action in ("stand", "down", "dead")
            assert (world.get("Hero", Position).x, world.get("Hero", Position).y) == (0.0, 0.0)


def test_the_same_seed_and_submissions_give_the_same_fight() -> None:
    def fight() -> list[dict[str, object]]:
        with melee("severity", seed=11) as world:
            for tick in range(6):
                strikes = [a for a in world.options("Hero") if isinstance(a, Strike) and a.aim == "unaimed"]
                if strikes:
                    world.submit("Hero", strikes[tick % len(strikes)])
                world.step()
            return [e.to_dict() for e in world.events]

    first = fight()
    assert first == fight() and first


def test_an_action_for_a_creature_the_ai_drives_is_refused() -> None:
    with melee() as world:
        with pytest.raises(NotExternal, match="Fast is not under external control"):
            world.submit("Fast", Wait())
        assert world.submitted("Fast") is None


def test_bad_submissions_change_nothing() -> None:
    with melee() as world:
        before = world.freeze().document
        with pytest.raises(ActionRefused, match="Hero does not carry a Longbow"):
            world.submit("Hero", Strike("longbow.direct", "Slow"))
        with pytest.raises(ActionRefused, match=r"within broadsword\.cut's 1 m reach already"):
            world.submit("Hero", Approach("Slow", "broadsword.cut"))
        with pytest.raises(UnknownAction, match="'attack' is not an action"):
            world.submit("Hero", "attack")  # type: ignore[arg-type]
        with pytest.raises(SandboxError, match="no creature called 'Nobody'"):
            world.submit("Hero", Strike("broadsword.cut", "Nobody"))
        assert world.submitted("Hero") is None and world.freeze().document == before
        world.submit("Hero", Wait())
        with pytest.raises(AlreadySubmitted, match=r"Hero has an action for tick 1 already: Wait\(\)"):
            world.submit("Hero", Strike("broadsword.cut", "Slow"))
        assert world.submitted("Hero") == Wait()
        world.step()
        world.submit("Hero", Strike("broadsword.cut", "Slow"))  # the next tick takes one again
    for error in (ActionRefused, AlreadySubmitted, NotExternal, UnknownAction):
        assert issubclass(error, SandboxError)


def test_names_and_aims_are_resolved_as_the_rest_of_the_api_takes_them() -> None:
    with melee() as world:
        world.submit("Hero", Strike("broadsword.cut", "Slow", "left arm"))
        assert world.submitted(world.entity("Hero")) == Strike("broadsword.cut", world.entity("Slow"), "Left Arm")


def test_an_action_the_world_no_longer_allows_when_the_tick_comes_is_not_taken() -> None:
    with melee() as world:
        world.submit("Hero", Strike("broadsword.cut", "Slow"))
        world.get("Slow", Position).x = -20.0  # moved off by the game before the tick
        assert "Hero" not in attackers(world.step(), world)
        assert world.get("Hero", Combatant).action == "stand"


def test_a_move_walks_as_far_as_the_walking_speed_allows() -> None:
    with Sandbox(seed=1) as world:
        world.spawn("human", name="Hero", team="P", policy="external")  # 10 m a tick
        world.spawn("wolf", name="Wolf", team="M", position=(40.0, 0.0), immobilized=[
            "Right Foreleg", "Left Foreleg", "Right Hind Leg", "Left Hind Leg"])  # it stays put
        world.submit("Hero", Move(to=(6.0, 8.0)))
        world.step()
        pos = world.get("Hero", Position)
        assert (pos.x, pos.y) == (6.0, 8.0)  # 10 m away: reached exactly
        world.submit("Hero", Move(toward="Wolf", within=2.0))
        world.step()
        way = math.hypot(40.0 - 6.0, 0.0 - 8.0)
        assert math.isclose(pos.x, 6.0 + 34.0 / way * 10) and math.isclose(pos.y, 8.0 - 8.0 / way * 10)  # 10 m on
        for _ in range(4):  # 24.9 m left: three more ticks, and one that finds it there already
            world.submit("Hero", Move(toward="Wolf", within=2.0))
            world.step()
        wolf = world.get("Wolf", Position)
        assert abs(((wolf.x - pos.x) ** 2 + (wolf.y - pos.y) ** 2) ** 0.5 - 2.0) < 1e-9  # stopped 2 m short


def test_an_approach_closes_in_and_strikes_in_the_same_tick() -> None:
    with Sandbox(seed=1) as world:
        world.spawn("human", name="Hero", team="P", weapons=["broadsword"], policy="external")
        world.spawn("human", name="Foe", team="M", position=(8.0, 0.0), immobilized=["Right Leg", "Left Leg"])
        world.submit("Hero", Approach("Foe", "broadsword.cut"))
        events = world.step()
        assert "Hero" in attackers(events, world)
        assert abs(world.get("Hero", Position).x - (8.0 - 0.9)) < 1e-9  # a little inside the 1 m reach


def test_standing_up_picking_up_and_drawing_are_turns_of_their_own() -> None:
    with Sandbox(seed=1) as world:
        hero = world.spawn("human", name="Hero", team="P", weapons=["broadsword", "dagger", "mace"],
                           policy="external")
        world.spawn("human", name="Foe", team="M", position=(30.0, 0.0), immobilized=["Right Leg", "Left Leg"])
        equip = world.get(hero, Equipment)
        equip.holding.clear()
        equip.dropped.append("broadsword")
        world.get(hero, Condition).prone = True
        world.submit(hero, StandUp())
        assert any(isinstance(e, StoodUp) and e.entity == hero for e in world.step())
        assert world.options(hero) == [PickUp("broadsword"), Draw("dagger"), Draw("mace"), Wait()]
        world.submit(hero, Draw("mace"))  # the one chosen, not the first carried
        taken = [e for e in world.step() if isinstance(e, ItemPickedUp)]
        assert [(e.entity, e.item) for e in taken] == [(hero, "mace")]
        assert list(equip.holding.values()) == ["mace"] and equip.dropped == ["broadsword"]


def test_first_aid_under_severity_is_given_in_the_tick() -> None:
    with Sandbox(seed=1, model="severity") as world:
        world.spawn("human", name="Hero", team="P", policy="external")
        ally = world.spawn("human", name="Ally", team="P", position=(0.5, 0.0))
        world.spawn("wolf", name="Wolf", team="M", position=(40.0, 0.0), immobilized=[
            "Right Foreleg", "Left Foreleg", "Right Hind Leg", "Left Hind Leg"])
        world.inflict(ally, severity=1, effect="bloody")
        world.submit("Hero", FirstAid("Ally"))
        aid = [e for e in world.step() if isinstance(e, ModelStateChanged) and "first aid in combat by Hero" in e.what]
        assert [e.entity for e in aid] == [ally]


def test_a_healing_item_under_strength_is_used_in_the_tick() -> None:
    with Sandbox(seed=1, model="strength") as world:
        world.spawn("human", name="Hero", team="P", policy="external", items=["healing_draught"])
        world.spawn("human", name="Ally", team="P", position=(0.5, 0.0))
        world.spawn("wolf", name="Wolf", team="M", position=(40.0, 0.0), immobilized=[
            "Right Foreleg", "Left Foreleg", "Right Hind Leg", "Left Hind Leg"])
        world.inflict("Ally", damage=3)
        world.inflict("Ally", damage=7)
        assert world.readout("Ally").label == "dying"
        world.submit("Hero", UseItem("healing_draught", "Ally"))
        world.step()
        assert world.get("Hero", Equipment).items == [] and world.readout("Ally").label != "dying"


def test_a_saved_world_keeps_the_policy(tmp_path: Path) -> None:
    with melee() as world:
        world.submit("Hero", Strike("broadsword.cut", "Slow", "Skull"))  # the aim of its last strike: a location
        world.step()
        world.save(tmp_path / "w.json")
        with Sandbox.load(tmp_path / "w.json") as loaded:
            assert loaded.get("Hero", Combatant).policy == "external"
            assert loaded.submitted("Hero") is None  # a submission is for one world's next tick
            loaded.submit("Hero", Wait())
            assert "Hero" not in attackers(loaded.step(), loaded)


def test_an_unknown_policy_names_external_among_the_known() -> None:
    with Sandbox(seed=1) as world, pytest.raises(SandboxError, match="external"):
        world.spawn("human", name="Hero", policy="player")


@pytest.mark.parametrize("model", MODELS)
def test_any_option_submitted_is_taken_and_the_world_keeps_its_invariants(model: str) -> None:
    with Sandbox.from_scenario("skirmish", seed=2, model=model, check_invariants=True) as world:
        teams = sorted({c.team for c in world.creatures().values()})
        world.spawn("human", name="P1", team=teams[0], weapons=["broadsword", "dagger"], policy="external",
                    position=(3.0, 3.0))
        world.spawn("human", name="P2", team=teams[-1], weapons=["spear"], policy="external", position=(6.0, 3.0))
        rng = random.Random(1)
        for _ in range(15):
            for name in ("P1", "P2"):
                options = world.options(name)
                if options:
                    world.submit(name, rng.choice(options))  # never refused: an option is what the rules allow
            world.step()  # the invariants are checked after every tick



def test_a_scenario_names_the_creature_the_game_drives(tmp_path: Path) -> None:
    """``policy = "external"`` in a scenario file: the game drives that creature from the first tick."""
    from sandbox.systems.actions import NotExternal, Wait

    scenario = tmp_path / "hero.toml"
    scenario.write_text('name = "Hero"\ndescription = "One hero, one foe."\nmodel = "anatomy"\nmax_ticks = 10\n'
                        'field = { width = 10.0, height = 10.0 }\n\n'
                        '[[combatants]]\nname = "Hero"\ncreature = "human"\nteam = "H"\nposition = [0.0, 0.0]\n'
                        'weapons = ["broadsword"]\npolicy = "external"\n\n'
                        '[[combatants]]\nname = "Foe"\ncreature = "human"\nteam = "F"\nposition = [6.0, 0.0]\n',
                        encoding="utf-8")
    with Sandbox.from_scenario(scenario, seed=1) as world:
        world.submit("Hero", Wait())
        world.step()
        with pytest.raises(NotExternal):
            world.submit("Foe", Wait())


def test_the_array_engine_refuses_a_creature_the_game_drives(tmp_path: Path) -> None:
    from sandbox.engines import open_world
    from sandbox.systems.errors import SandboxError

    scenario = tmp_path / "hero.toml"
    scenario.write_text('name = "Hero"\ndescription = "One hero."\nmodel = "anatomy"\nmax_ticks = 10\n'
                        'field = { width = 10.0, height = 10.0 }\n\n'
                        '[[combatants]]\nname = "Hero"\ncreature = "human"\nteam = "H"\nposition = [0.0, 0.0]\n'
                        'policy = "external"\n\n'
                        '[[combatants]]\nname = "Foe"\ncreature = "human"\nteam = "F"\nposition = [6.0, 0.0]\n',
                        encoding="utf-8")
    with pytest.raises(SandboxError, match=r"policy 'external'.*--engine esper"):
        open_world(scenario, "array")
