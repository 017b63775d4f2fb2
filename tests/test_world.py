"""``Sandbox``: building a world, isolation between worlds, readouts, direct injuries, determinism, run/step."""

from __future__ import annotations

from collections.abc import Iterator

import esper
import pytest

from sandbox.components.events import (
    Died,
    Event,
    HealthChanged,
    ImpairmentChanged,
    Injured,
)
from sandbox.components.models.anatomy import Injury
from sandbox.components.state import Anatomy
from sandbox.world import Outcome, Readout, Sandbox, SandboxError


@pytest.fixture
def world() -> Iterator[Sandbox]:
    """An empty anatomy-model world, closed afterwards."""
    w = Sandbox(seed=11, model="anatomy")
    yield w
    w.close()


def dicts(events: list[Event]) -> list[dict[str, object]]:
    return [e.to_dict() for e in events]


# ---------------------------------------------------------------------------------------------- construction


def test_unknown_model_is_a_sandbox_error() -> None:
    with pytest.raises(SandboxError, match="bogus"):
        Sandbox(seed=1, model="bogus")
    with pytest.raises(SandboxError):
        Sandbox.from_scenario("duel", seed=1, model="bogus")


def test_unknown_creature_in_spawn_is_a_sandbox_error(world: Sandbox) -> None:
    with pytest.raises(SandboxError, match="dragonfly"):
        world.spawn("dragonfly", name="X")
    assert world.creatures() == {}


def test_duplicate_names_are_a_sandbox_error(world: Sandbox) -> None:
    first = world.spawn("human", name="Aldric", team="Red")
    with pytest.raises(SandboxError, match="Aldric"):
        world.spawn("wolf", name="Aldric", team="Blue")
    assert list(world.creatures()) == [first]
    assert world.entity("Aldric") == first


def test_spawn_returns_an_entity_found_by_name(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="Red", position=(1.0, 2.0), armor=["gambeson"], weapons=["broadsword"])
    b = world.spawn("wolf", name="B", team="Blue", position=(4.0, 2.0))
    assert a != b
    assert world.entity("A") == a and world.entity("B") == b
    assert world.name_of(b) == "B"
    comps = world.creatures()[a]
    assert comps.identity.creature == "human"
    assert comps.combatant.team == "Red"
    assert (comps.position.x, comps.position.y) == (1.0, 2.0)
    assert [p.id for p in comps.armor.pieces] == ["gambeson"]
    assert "broadsword" in comps.equipment.holding.values()
    with pytest.raises(SandboxError):
        world.entity("nobody")


def test_spawn_rejects_unknown_weapon_armour_and_wrong_body_armour(world: Sandbox) -> None:
    with pytest.raises(SandboxError):
        world.spawn("human", name="A", weapons=["lightsaber"])
    with pytest.raises(SandboxError):
        world.spawn("human", name="B", armor=["barding"])
    with pytest.raises(SandboxError, match="wolf"):
        world.spawn("wolf", name="C", armor=["mail_hauberk"])
    assert world.creatures() == {}


# ---------------------------------------------------------------------------------------------- isolation


def test_two_sandboxes_never_see_each_others_entities() -> None:
    a = Sandbox(seed=1)
    b = Sandbox(seed=2)
    try:
        assert a._world != b._world
        assert {a._world, b._world} <= set(esper.list_worlds())
        a1 = a.spawn("human", name="A1", team="Red", position=(0.0, 0.0))
        a.spawn("human", name="A2", team="Blue", position=(1.0, 0.0))
        for i in range(3):
            b.spawn("wolf", name=f"W{i}", team=f"T{i}", position=(float(i), 5.0))
        assert [c.name for c in a.creatures().values()] == ["A1", "A2"]
        assert [c.name for c in b.creatures().values()] == ["W0", "W1", "W2"]
        with pytest.raises(SandboxError):
            a.entity("W0")
        with pytest.raises(SandboxError):
            b.entity("A1")
        # Inflicting in one world does not touch the other, even where the entity ids coincide.
        assert b.entity("W0") == a1
        with pytest.raises(SandboxError, match="belongs to another world"):
            b.readout(a1)  # a's handle, handed to b
        before = b.readout(int(a1))  # b's creature of the same number
        a.inflict(a1, location="Thorax", level="G4")
        assert b.readout(int(a1)) == before
        assert a.readout(a1).health == 1
        # Each sandbox switches back to whatever world was current around its calls.
        assert esper.current_world == "default"
        a.step()
        b.step()
        assert esper.current_world == "default"
        assert all(e.attacker in a.names for e in a.events if hasattr(e, "attacker"))
    finally:
        a.close()
        b.close()
    assert a._world not in esper.list_worlds() and b._world not in esper.list_worlds()


def test_interleaved_worlds_run_exactly_as_worlds_run_alone() -> None:
    alone = Sandbox.from_scenario("duel", seed=5)
    alone.run(max_ticks=25)
    expected = dicts(alone.events)
    alone.close()
    x = Sandbox.from_scenario("duel", seed=5)
    y = Sandbox.from_scenario("skirmish", seed=6)
    try:
        for _ in range(25):
            y.step()
            if len(x.able_teams()) > 1:
                x.step()
        assert dicts(x.events) == expected
    finally:
        x.close()
        y.close()


def test_a_closed_sandbox_cannot_be_used() -> None:
    w = Sandbox(seed=1)
    e = w.spawn("human", name="A")
    w.close()
    w.close()  # closing twice is harmless
    with pytest.raises(SandboxError):
        w.step()
    with pytest.raises(SandboxError):
        w.readout(e)


# ---------------------------------------------------------------------------------------------- readouts, inflict


def test_fresh_creature_reads_excellent(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    r = world.readout(e)
    assert isinstance(r, Readout)
    assert (r.alive, r.can_act, r.label, r.health, r.band, r.shock, r.conditions) == (
        True, True, "excellent", 100, "Excellent", "none", ())  # labels: lower case
    assert r.wounds == () and r.severed == () and r.health_unit == "%"
    assert [p.name for p in r.parts] == ["Head", "Right Arm", "Left Arm", "Torso", "Right Leg", "Left Leg"]
    assert not any(p.penalty or p.unusable or p.severed for p in r.parts)


def test_inflict_serious_limb_wound(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    events = world.inflict(e, location="Right Forearm", level="S3")
    injured = [ev for ev in events if isinstance(ev, Injured)]
    assert len(injured) == 1
    assert (injured[0].location, injured[0].level, injured[0].level_code) == ("Right Forearm", 3, "S3")
    imp = [ev for ev in events if isinstance(ev, ImpairmentChanged)]
    assert [(ev.entity, ev.part, ev.penalty, ev.unusable) for ev in imp] == [(e, "Right Arm", -10, False)]
    hc = [ev for ev in events if isinstance(ev, HealthChanged)]
    assert [(ev.before, ev.after, ev.band) for ev in hc] == [(100, 50, "Poor")]
    r = world.readout(e)
    assert (r.health, r.band, r.alive, r.can_act, r.label) == (50, "Poor", True, True, "poor")  # labels: lower case
    # No blow: no shock, no bleeding roll.
    assert r.shock == "none" and not any("bleeding" in c for c in r.conditions)
    assert world.events[-len(events):] == events


def test_inflict_grievous_thorax_leaves_health_one(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    events = world.inflict(e, location="Thorax", level="G4")
    imp = [ev for ev in events if isinstance(ev, ImpairmentChanged)]
    assert [(ev.part, ev.unusable) for ev in imp] == [("Torso", True)]
    assert [(ev.before, ev.after) for ev in events if isinstance(ev, HealthChanged)] == [(100, 1)]
    r = world.readout(e)
    assert (r.health, r.band, r.alive) == (1, "Morbid", True)
    assert not any(isinstance(ev, Died) for ev in events)


def test_inflict_compounds_the_worst_wound_at_the_location(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    world.inflict(e, location="Left Thigh", level="S2")
    second = world.inflict(e, location="Left Thigh", level=2)
    injured = [ev for ev in second if isinstance(ev, Injured)]
    assert len(injured) == 1 and injured[0].compound
    thigh = world.get(e, Anatomy).body.location_index("Left Thigh")
    levels = sorted(i.level for i in world.get(e, Injury).wounds if i.location == thigh)
    assert levels == [2, 3]
    # A smaller wound (1 < 3 + 2) does not compound.
    third = world.inflict(e, location="Left Thigh", level="M1")
    assert not next(ev for ev in third if isinstance(ev, Injured)).compound
    levels = sorted(i.level for i in world.get(e, Injury).wounds if i.location == thigh)
    assert levels == [1, 2, 3]


def test_inflict_rejects_bad_requests(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    with pytest.raises(SandboxError):
        world.inflict(e, location="Tail", level="S2")
    with pytest.raises(SandboxError):
        world.inflict(e, location="Thorax", level=6)
    with pytest.raises(SandboxError):
        world.inflict(e, location="Thorax", level="X9")
    with pytest.raises(SandboxError):
        world.inflict(e, location="Thorax", level="S2", aspect="sonic")
    with pytest.raises(SandboxError):
        world.inflict(999, location="Thorax", level="S2")
    assert world.get(e, Injury).wounds == []
    assert world.readout(e).health == 100


def test_readout_of_a_dead_creature() -> None:
    # The shipped bestiary's eagle falls early under seed 0; any death would do.
    w = Sandbox.from_scenario("bestiary", seed=0)
    try:
        died: list[Died] = []
        for _ in range(60):
            died = [e for e in w.step() if isinstance(e, Died)]
            if died:
                break
        assert died, "nobody died in 60 ticks"
        r = w.readout(died[0].entity)
        assert (r.alive, r.can_act, r.health, r.band, r.label) == (False, False, 0, "Dead", "dead")
        assert "prone" not in r.conditions
        for _ in range(3):
            w.step()
        assert w.readout(died[0].entity).health == 0
        assert died[0].entity not in [w.entity(n) for n in w.run(max_ticks=1).survivors]
    finally:
        w.close()


def test_immobilize_and_free_report_in_the_readout(world: Sandbox) -> None:
    e = world.spawn("human", name="A", weapons=["broadsword"])
    world.immobilize(e, "Left Leg")
    assert world.readout(e).conditions == ("immobilized: Left Leg",)
    world.free(e, "Left Leg")
    assert world.readout(e).conditions == ()
    with pytest.raises(SandboxError):
        world.immobilize(e, "Tail")
    with pytest.raises(SandboxError):
        world.free(e, "Wing")


# ---------------------------------------------------------------------------------------------- running


def test_same_seed_same_log_other_seed_other_log() -> None:
    logs = []
    for seed in (3, 3, 4):
        w = Sandbox.from_scenario("skirmish", seed=seed)
        w.run(max_ticks=40)
        logs.append(dicts(w.events))
        w.close()
    assert logs[0] and logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_step_returns_that_ticks_events(world: Sandbox) -> None:
    world.spawn("human", name="A", team="Red", position=(0.0, 0.0), weapons=["broadsword"])
    world.spawn("human", name="B", team="Blue", position=(5.0, 0.0), weapons=["mace"])
    collected: list[Event] = []
    for n in range(1, 8):
        events = world.step()
        assert world.tick == n
        assert all(e.tick == n for e in events)
        collected.extend(events)
    assert dicts(collected) == dicts(world.events)
    assert any(e.to_dict()["type"] == "AttackDeclared" for e in collected)


def test_run_stops_at_the_limit_then_continues_to_an_outcome() -> None:
    w = Sandbox.from_scenario("skirmish", seed=2)
    try:
        first = w.run(max_ticks=3)
        assert first == Outcome(None, 3, first.survivors, "tick limit")
        assert len(first.survivors) == 6
        final = w.run(max_ticks=200)
        assert final.reason == "one team left" and final.winner in ("Red", "Blue")
        assert 3 < final.ticks <= 203 and final.ticks == w.tick
        assert w.able_teams() == [final.winner]
        # A finished world runs no further.
        again = w.run(max_ticks=50)
        assert again == final and w.tick == final.ticks
    finally:
        w.close()


def test_run_with_no_enemies_ends_at_once(world: Sandbox) -> None:
    world.spawn("human", name="A", team="Red")
    world.spawn("human", name="B", team="Red", position=(3.0, 0.0))
    out = world.run(max_ticks=10)
    assert out == Outcome("Red", 0, ("A", "B"), "one team left")
