"""The opt-in invariant checks (``sandbox.systems.invariants``, ``Sandbox(check_invariants=True)``): off by default, on
by argument or ``SANDBOX_INVARIANTS=1``; each invariant catches its breach; clean worlds pass under every model. And the
regression the checks found: a creature bleeding to death had its old health until the next tick."""

from __future__ import annotations

from typing import Any

import pytest

import sandbox.systems.invariants as inv
from sandbox.components.events import (
    AttackDeclared,
    BloodLost,
    Died,
    HealthChanged,
    InjuryHealed,
    ShockChanged,
    ShockRetested,
)
from sandbox.components.impairment import Impairment
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.readout import Readout
from sandbox.components.rules import AnatomyRules, ShockState
from sandbox.components.state import Anatomy, Condition, Equipment
from sandbox.models import available_models
from sandbox.systems.invariants import InvariantError, Tracker, check
from sandbox.systems.models.anatomy.damage import set_shock
from sandbox.world import Sandbox


def duel(model: str = "anatomy", **kwargs: Any) -> Sandbox:
    return Sandbox.from_scenario("duel", 0, model, **kwargs)


TRACKERS: dict[str, Tracker] = {}


def breaches(world: Sandbox) -> list[str]:
    """What ``check`` finds, with one tracker per world (as the world keeps its own)."""
    track = TRACKERS.setdefault(world.uid, Tracker())
    with world.active():
        return check(world.creatures(), world.ctx, track)


def emit(world: Sandbox, event: Any) -> None:
    world.ctx.emit(event)


# ------------------------------------------------------------------------------------------------ switching


def test_off_by_default_and_costs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SANDBOX_INVARIANTS", raising=False)

    def boom(*_: Any) -> list[str]:
        raise AssertionError("check ran while off")

    monkeypatch.setattr(inv, "check", boom)
    world = duel()
    assert world.check_invariants is False
    world.run()
    world.advance(days=1)


def test_on_by_argument_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SANDBOX_INVARIANTS", raising=False)
    assert duel(check_invariants=True).check_invariants is True
    monkeypatch.setenv("SANDBOX_INVARIANTS", "1")
    assert duel().check_invariants is True
    assert duel(check_invariants=False).check_invariants is False
    monkeypatch.setenv("SANDBOX_INVARIANTS", "0")
    assert duel().check_invariants is False


@pytest.mark.parametrize("model", available_models())
@pytest.mark.parametrize("scenario", ["duel", "skirmish", "wolf_pack"])
def test_shipped_scenarios_keep_every_invariant(model: str, scenario: str) -> None:
    for seed in range(3):
        world = Sandbox.from_scenario(scenario, seed, model, check_invariants=True)
        world.run()
        world.advance(days=20)
        assert breaches(world) == []


def test_a_breach_raises_from_the_tick() -> None:
    world = duel(check_invariants=True)
    world.step()
    aldric = world.entity("Aldric")
    world.get(aldric, Injury).health = 0
    with pytest.raises(InvariantError) as caught:
        world.step()
    assert caught.value.tick == 2
    assert any("Aldric" in b and "alive with health 0" in b for b in caught.value.breaches)


# ------------------------------------------------------------------------------------------------ each invariant


def test_health_range() -> None:
    world = duel()
    world.step()
    injury, cond = world.get("Aldric", Injury), world.get("Aldric", Condition)
    injury.health = 101
    assert any("alive with health 101" in b for b in breaches(world))
    injury.health = 40
    cond.dead = True
    found = breaches(world)
    assert any("dead with health 40" in b for b in found)
    assert any("dead readout with health 40" in b for b in found)


def test_impairment_never_better_than_its_floor_and_unusable_holds_nothing() -> None:
    world = duel()
    world.step()
    wounds, equip = world.get("Aldric", Injury), world.get("Aldric", Equipment)
    held = next(iter(equip.holding))
    wounds.permanent_impairment[held] = -10  # without a refresh: the cached impairment is still sound
    found = breaches(world)
    assert any("better than its permanent floor -10" in b for b in found)
    wounds.permanent_impairment.clear()
    imps = list(wounds.impairments)
    imps[held] = Impairment(0, True)
    wounds.impairments = tuple(imps)
    assert any("still holds 'broadsword'" in b for b in breaches(world))
    wounds.unusable_parts.add(held + 1)
    assert any("gone for good but not unusable" in b for b in breaches(world))


def test_weapons_never_duplicated_and_natural_never_dropped() -> None:
    world = duel()
    world.step()
    equip = world.get(world.entity("Aldric"), Equipment)
    equip.dropped.append("broadsword")  # still held too
    assert any("'broadsword' 2 times" in b for b in breaches(world))
    equip.dropped.clear()
    equip.lost.append(equip.natural[0])
    assert any("natural weapon" in b for b in breaches(world))
    equip.lost.clear()
    equip.holding[99] = "dagger"
    assert any("does not own" in b for b in breaches(world))


def test_the_dead_never_act_bleed_or_heal() -> None:
    world = duel()
    world.step()
    e = world.entity("Bertram")
    assert breaches(world) == []
    emit(world, Died(1, 10.0, e, "test"))
    assert breaches(world) == []
    emit(world, AttackDeclared(1, 10.0, e, 1, "broadsword.cut", "unaimed"))
    emit(world, BloodLost(1, 10.0, e, "Neck", "MF", 2, 2))
    emit(world, InjuryHealed(1, 10.0, e, "Neck", "M1", 3.0, 0))
    emit(world, Died(1, 10.0, e, "again"))
    found = breaches(world)
    assert any("attacked at tick 1 after dying" in b for b in found)
    assert any("BloodLost" in b for b in found)
    assert any("InjuryHealed" in b for b in found)
    assert any("died again" in b for b in found)


def test_shock_only_improves_through_a_retest() -> None:
    world = duel()
    world.step()
    e = world.entity("Bertram")
    emit(world, ShockChanged(1, 10.0, e, "none", "incapacitated"))
    assert breaches(world) == []
    emit(world, ShockChanged(1, 10.0, e, "incapacitated", "stunned"))
    assert any("shock improved incapacitated -> stunned" in b for b in breaches(world))
    emit(world, ShockRetested(1, 10.0, e, "MS", "stunned", "none"))
    emit(world, ShockChanged(1, 10.0, e, "stunned", "none"))
    assert breaches(world) == []


def test_time_never_goes_backwards() -> None:
    world = duel()
    world.step()
    world.step()
    assert breaches(world) == []
    emit(world, HealthChanged(1, 10.0, world.entity("Aldric"), 100, 90, "Good"))
    assert any("time went backwards" in b for b in breaches(world))
    world.ctx.clock.seconds -= 5
    assert any("game time went backwards" in b for b in breaches(world))


def test_readout_must_agree_with_state(monkeypatch: pytest.MonkeyPatch) -> None:
    world = duel("strength")
    world.step()
    real = world.damage_model.readout

    def lying(creature: Any, ctx: Any) -> Readout:
        r = real(creature, ctx)
        return Readout(not r.alive, not r.can_act, r.label, r.health, r.band, r.shock, r.conditions)

    monkeypatch.setattr(world.damage_model, "readout", lying)
    found = breaches(world)
    assert any("readout alive=False" in b for b in found)
    assert any("readout can_act=False" in b for b in found)


# ------------------------------------------------------------------------------------------------ regression


def test_bleeding_to_death_sets_health_to_0_in_the_same_tick() -> None:
    """Found by the invariants (battle, seed 0, tick 33): a creature that bled to death in the EFFECTS phase,
    after the DAMAGE phase had settled the wounded, kept its old health (and a dead readout with health 20) until
    the next tick; a fight ending that tick left it so."""
    world = Sandbox(0, check_invariants=True)
    a = world.spawn("human", name="A", team="A", position=(0.0, 0.0), attributes={"strength": 1})
    world.spawn("human", name="B", team="B", position=(500.0, 0.0))
    wounds, cond = world.get(a, Injury), world.get(a, Condition)
    neck = world.get(a, Anatomy).body.location_index("Neck")
    wounds.wounds.append(Wound(neck, 3, 1, bleeder=True, received=0.0))
    wounds.reindex()
    wounds.dirty = True
    rules = world.damage_model.tables
    assert isinstance(rules, AnatomyRules)
    with world.active():
        set_shock(a, world.get(a, Shock), cond, ShockState.UNCONSCIOUS, rules, world.ctx)
    for _ in range(200):
        events = world.step()
        if cond.dead:
            break
    assert cond.dead and cond.cause == "blood loss"
    died = next(e for e in events if isinstance(e, Died))
    zeroed = [e for e in events if isinstance(e, HealthChanged) and e.entity == a and e.after == 0]
    assert zeroed and zeroed[0].tick == died.tick
    assert wounds.health == 0 and world.readout(a).health == 0
