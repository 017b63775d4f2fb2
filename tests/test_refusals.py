"""``Sandbox.strike(attacker=)`` refuses what the rules would not allow (issue 32, problem 4), and nothing changes.

The issue's examples: a target 30 m away from a 1.2 m battleaxe (under severity it dealt damage), a longbow the
attacker does not carry, another creature's natural weapon from a human, a prone and disarmed attacker, and an
incorporeal spirit, which no blow reaches under any of the five models (strength and status struck it before). A
blow struck directly (no attacker) stays as it was: it lands, through the model's procedure.
"""

from __future__ import annotations

import pytest

from sandbox.components.events import DamageDealt, Injured, Missed
from sandbox.components.state import Condition, Equipment, Position
from sandbox.systems.actions import ActionRefused
from sandbox.world import Sandbox, SandboxError

MODELS = ("anatomy", "severity", "depth", "strength", "status")


def state_of(world: Sandbox) -> tuple[str, int]:
    """Everything a save holds (entities, streams, clock) and the log's length: what a refusal must not change."""
    return world.freeze().document, len(world.log)


def refused(world: Sandbox, target: str, mode: str, attacker: str, words: str, aim: str = "unaimed") -> None:
    before = state_of(world)
    with pytest.raises(ActionRefused, match=words):
        world.strike(target, mode, aim, attacker=attacker)
    assert state_of(world) == before


def pair(model: str, *, distance: float = 1.0, weapons: tuple[str, ...] = ("battleaxe",)) -> Sandbox:
    world = Sandbox(seed=7, model=model)
    world.spawn("human", name="Aldric", team="Red", weapons=list(weapons))
    world.spawn("human", name="Bertram", team="Blue", position=(distance, 0.0), weapons=["broadsword"])
    return world


@pytest.mark.parametrize("model", MODELS)
def test_a_target_out_of_reach_is_refused_under_every_model(model: str) -> None:
    with pair(model, distance=30.0) as world:
        refused(world, "Bertram", "battleaxe.cut", "Aldric", r"Bertram is 30\.0 m away, out of battleaxe\.cut's 1\.2 "
                                                             "m reach")
        world.get("Aldric", Position).x = 29.0  # 1 m off: within the 1.2 m reach
        assert world.strike("Bertram", "battleaxe.cut", attacker="Aldric")


def test_a_bow_reaches_as_far_as_its_range_and_no_further() -> None:
    with pair("severity", distance=120.0, weapons=("longbow",)) as world:
        refused(world, "Bertram", "longbow.direct", "Aldric", "120.0 m away, out of longbow.direct's 100 m range")
        world.get("Aldric", Position).x = 30.0  # 90 m: in range of the direct shot, not of point blank (50 m)
        refused(world, "Bertram", "longbow.point_blank", "Aldric", "out of longbow.point_blank's 50 m range")
        assert world.strike("Bertram", "longbow.direct", attacker="Aldric")


def test_a_weapon_the_attacker_does_not_carry_or_hold_is_refused() -> None:
    with pair("anatomy", weapons=("broadsword", "dagger")) as world:
        refused(world, "Bertram", "longbow.direct", "Aldric", "Aldric does not carry a Longbow")
        refused(world, "Bertram", "dagger.cut", "Aldric", "Aldric carries the Dagger but does not hold it")
        equip = world.get("Aldric", Equipment)
        hand = next(p for p, item in equip.holding.items() if item == "broadsword")
        del equip.holding[hand]
        equip.dropped.append("broadsword")
        refused(world, "Bertram", "broadsword.cut", "Aldric", "Aldric's Broadsword lies at its feet")


def test_another_creatures_natural_weapon_is_refused() -> None:
    with pair("strength") as world:  # the kobold's bite of the issue: any body's own weapon, here the wolf's fangs
        refused(world, "Bertram", "fangs.bite", "Aldric", "fangs.bite is a strike of another creature's body: "
                                                          "Aldric's natural weapons are unarmed")


def test_a_prone_disarmed_attacker_is_refused_until_it_stands_and_takes_up_a_weapon() -> None:
    with pair("depth") as world:
        equip = world.get("Aldric", Equipment)
        equip.holding.clear()
        equip.dropped.append("battleaxe")
        world.get("Aldric", Condition).prone = True
        refused(world, "Bertram", "battleaxe.cut", "Aldric", "lies at its feet")
        refused(world, "Bertram", "unarmed.punch", "Aldric", "Aldric is prone: it stands up before anything else")
        world.get("Aldric", Condition).prone = False
        refused(world, "Bertram", "unarmed.punch", "Aldric", "holds no weapon and can take one up")


@pytest.mark.parametrize("model", MODELS)
def test_an_attacker_or_target_out_of_the_fight_is_refused(model: str) -> None:
    with pair(model) as world:
        world.get("Aldric", Condition).out = True
        refused(world, "Bertram", "battleaxe.cut", "Aldric", r"Aldric is down \(taken out of the fight\)")
        refused(world, "Aldric", "broadsword.cut", "Aldric", "Aldric cannot strike itself|Aldric is down")
        world.get("Aldric", Condition).out = False
        refused(world, "Aldric", "battleaxe.cut", "Aldric", "Aldric cannot strike itself")
        world.spawn("human", name="Cedric", team="Red", position=(0.5, 0.0))
        refused(world, "Cedric", "battleaxe.cut", "Aldric", r"Cedric is on Aldric's own team \(Red\)")


def test_a_stunned_attacker_under_severity_loses_its_turn() -> None:
    with pair("severity") as world:
        world.inflict("Aldric", severity=1, effect="stun")
        refused(world, "Bertram", "battleaxe.cut", "Aldric", "Aldric loses its turn: it is stunned")


def test_limbs_held_fast_wield_nothing() -> None:
    with pair("anatomy") as world:
        world.immobilize("Aldric", "Right Arm")
        refused(world, "Bertram", "battleaxe.cut", "Aldric", "cannot strike with battleaxe.cut now: the limbs it needs "
                                                             "are unusable or held fast")


@pytest.mark.parametrize("model", MODELS)
def test_no_blow_reaches_a_spirit_under_any_model(model: str) -> None:
    """The point models' own TOML says no blow can reach it; anatomy, severity and depth missed it off the body, and
    now strength and status do too: an attacker's strike is refused, a blow struck directly passes through it."""
    with Sandbox(seed=2, model=model) as world:
        world.spawn("human", name="Aldric", team="Red", weapons=["broadsword"])
        ghost = world.spawn("spirit", name="Ghost", team="Blue", position=(0.5, 0.0))
        refused(world, "Ghost", "broadsword.cut", "Aldric", "no blow can reach Ghost: it has no body to strike")
        before = world.readout(ghost)
        events = world.strike(ghost, "broadsword.cut")
        assert not any(isinstance(e, DamageDealt | Injured) for e in events)
        assert [e.reason for e in events if isinstance(e, Missed)] == [
            "nothing to strike" if model == "depth" else "off the body"]  # each model's own words for it
        assert world.readout(ghost) == before


@pytest.mark.parametrize("model", ("strength", "status"))
def test_a_point_model_misses_a_spirit_off_the_body_and_says_so(model: str) -> None:
    with Sandbox(seed=2, model=model) as world:
        world.spawn("human", name="Aldric", team="Red", weapons=["broadsword"])
        ghost = world.spawn("spirit", name="Ghost", team="Blue")
        events = world.strike(ghost, "broadsword.cut")
        assert [type(e).__name__ for e in events] == ["AttackDeclared", "Missed"]
        assert isinstance(events[1], Missed) and events[1].reason == "off the body"
        record = world.log[-1]
        assert record.summary(world.names) is None
        assert record.explain(world.names)[-1] == "Ghost has no body to strike: the blow passes through it, a miss"
        preview = world.preview(None, ghost, "broadsword.cut")
        assert preview.land == 0.0 and preview.kill == 0.0


def test_a_blow_struck_directly_is_not_checked_against_the_rules() -> None:
    with pair("severity", distance=30.0) as world:  # no attacker: a scripted blow lands wherever the target is
        assert any(isinstance(e, DamageDealt) for e in world.strike("Bertram", "battleaxe.cut"))


def test_a_refusal_is_a_sandbox_error() -> None:
    assert issubclass(ActionRefused, SandboxError)
