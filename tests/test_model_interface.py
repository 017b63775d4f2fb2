"""The damage-model interface: a minimal sixth model plugs in without touching any other module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import esper
import pytest

from components.events import AttackDeclared, AttackRolled, D20AttackRolled, DamageDealt, Event
from components.gear import StrikeMode
from components.readout import Readout
from sandbox.models import available_models
from sandbox.world import Sandbox
from systems.context import TickContext
from systems.creatures import Parts, can_act
from systems.damage import kill
from systems.models import DamageModel, register, unregister
from systems.models.d20 import d20_attack


@dataclass(slots=True)
class Glass:
    """The glass model's whole state: how many hits a creature can still take."""

    hits_left: int = 2


@dataclass(slots=True)
class GlassRecord:
    """One attack under the glass model."""

    events_: list[Event]

    def events(self) -> list[Event]:
        return self.events_


class GlassModel(DamageModel):
    """Two hits and you are dead: the smallest model that uses every part of the interface."""

    name = "glass"

    def state_types(self) -> tuple[type, ...]:
        return (Glass,)

    def spawn_state(self, kind: Any, attributes: Any, armor: Any) -> tuple[object, ...]:
        return (Glass(),)

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        roll = d20_attack(0, 10, ctx.streams["attack"])
        clock = ctx.clock
        events: list[Event] = [D20AttackRolled(clock.tick, clock.time, entity, foe_entity, "glass", mode.id,
                                               roll.natural, roll.total, roll.defense, roll.margin, roll.hit)]
        record = GlassRecord(events)
        ctx.log.append(record)
        if roll.hit:
            ctx.log.append(DamageDealt(clock.tick, clock.time, entity, foe_entity, "glass", 1, 1, "a crack"))
            self.inflict(foe_entity, foe, ctx, damage=1)
        return record

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        state = esper.component_for_entity(entity, Glass)
        state.hits_left -= int(kwargs.get("damage", 1))
        if state.hits_left <= 0:
            kill(entity, me[5], "shattered", ctx)

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        state = esper.component_for_entity(entity, Glass)
        cond, shock = me[5], me[4]
        label = "shattered" if cond.dead else "cracked" if state.hits_left < 2 else "whole"
        return Readout(not cond.dead, can_act(cond, shock), label, max(state.hits_left, 0), label,
                       "dead" if cond.dead else "none", ())


@pytest.fixture
def glass() -> Iterator[None]:
    register(GlassModel)
    yield
    unregister("glass")


def test_a_sixth_model_plugs_in(glass: None, tmp_path: Any) -> None:
    assert "glass" in available_models()
    world = Sandbox.from_scenario("duel", seed=4, model="glass")
    outcome = world.run()
    assert outcome.reason == "one team left"
    loser = next(e for e, n in world.names.items() if n not in outcome.survivors or world.readout(e).label != "whole")
    assert world.readout(loser).label in ("shattered", "cracked")
    assert any(isinstance(e, D20AttackRolled) for e in world.events)
    # Saves carry the model's own state.
    world.save(tmp_path / "glass.json")
    loaded = Sandbox.load(tmp_path / "glass.json")
    assert [loaded.readout(e) for e in loaded.names] == [world.readout(e) for e in world.names]
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in world.events]


def test_direct_damage_goes_through_the_model(glass: None) -> None:
    world = Sandbox(seed=1, model="glass")
    e = world.spawn("human", name="Vase")
    world.inflict(e, damage=1)
    assert world.readout(e).label == "cracked"
    world.inflict(e, damage=1)
    assert world.readout(e).label == "shattered" and not world.readout(e).alive


def test_unknown_models_are_refused() -> None:
    from sandbox.world import SandboxError

    with pytest.raises(SandboxError, match="unknown damage model 'glass'"):
        Sandbox(seed=1, model="glass")


SHIPPED_MODELS = ("anatomy", "severity", "depth", "strength", "status")
SCENARIOS = ("duel", "skirmish", "wolf_pack", "bestiary", "battle")


def test_the_five_shipped_models_are_available() -> None:
    assert set(SHIPPED_MODELS) <= set(available_models())


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("model", SHIPPED_MODELS)
def test_every_shipped_scenario_runs_to_an_outcome_under_every_model(model: str, scenario: str) -> None:
    world = Sandbox.from_scenario(scenario, seed=1, model=model)
    try:
        outcome = world.run()
        assert outcome.reason in ("one team left", "no team left", "tick limit")
        assert outcome.ticks <= world.max_ticks
        readouts = [world.readout(e) for e in world.names]
        assert all(r.label == r.label.lower() for r in readouts)  # each model's own words, lower case
        if outcome.winner is not None:
            assert any(r.can_act for r in readouts)
    finally:
        world.close()


def test_compare_runs_the_same_draws_under_every_model() -> None:
    from sandbox.account import comparison_table, run_model

    runs = [run_model("duel", 3, m) for m in SHIPPED_MODELS]
    text = comparison_table(runs)
    assert all(m in text.splitlines()[0] for m in SHIPPED_MODELS)
    assert {r.model for r in runs} == set(SHIPPED_MODELS)
    assert all(r.outcome.ticks > 0 for r in runs)


@pytest.mark.parametrize(("model", "overrides", "field", "expected"), [
    ("severity", {"brawn": 3}, "brawn", 3),
    ("strength", {"str": 12}, "health", 12),
    ("status", {"endurance": 5}, "endurance", 5),
    ("status", {"constitution": 14}, "constitution", 14),
    ("depth", {"str": 16}, "strength_mod", 3),
    ("depth", {"dex": 14}, "dexterity_mod", 2),
])
def test_spawn_attributes_override_the_models_numbers(model: str, overrides: dict[str, int], field: str,
                                                      expected: int) -> None:
    world = Sandbox(seed=1, model=model)
    try:
        e = world.spawn("human", name="X", attributes=overrides)
        plain = world.spawn("human", name="Y")
        with world.active():
            (state,) = (c for c in esper.components_for_entity(e) if type(c) in world.damage_model.state_types())
            (base,) = (c for c in esper.components_for_entity(plain) if type(c) in world.damage_model.state_types())
        assert getattr(state, field) == expected
        assert getattr(base, field) != expected  # the override, not the creature's own number
    finally:
        world.close()


@pytest.mark.parametrize("model", available_models())
def test_every_attack_is_declared_before_it_is_rolled(model: str) -> None:
    """The trace reads the same under every model: each attack roll follows its declaration (same tick, attacker
    and target), so a reader can explain a blow from the declaration on whichever model ran."""
    with Sandbox.from_scenario("skirmish", seed=2, model=model) as world:
        world.run(max_ticks=30)
        events = world.events
    rolls = [i for i, e in enumerate(events) if isinstance(e, AttackRolled | D20AttackRolled)]
    assert rolls
    for i in rolls:
        roll, before = events[i], events[i - 1]
        assert isinstance(before, AttackDeclared), (model, before)
        assert (before.tick, before.attacker, before.target) == (roll.tick, roll.attacker, roll.target)
