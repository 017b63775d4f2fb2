"""The damage-model interface: a minimal sixth model plugs in without touching any other module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from sandbox.components.events import AttackDeclared, AttackRolled, D20AttackRolled, DamageDealt, Event
from sandbox.components.gear import StrikeMode
from sandbox.components.log import Names
from sandbox.components.readout import Readout
from sandbox.models import available_models
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.d20 import D20Roll, d20_attack
from sandbox.systems.models import DamageModel, ModelError, register, unregister
from sandbox.world import Sandbox


@dataclass(slots=True)
class Glass:
    """The glass model's whole state: how many hits a creature can still take."""

    hits_left: int = 2


class GlassRecord:
    """One attack under the glass model (a ``sandbox.components.log.AttackEntry``)."""

    headline = True

    def __init__(self, tick: int, time: float, attacker: int, target: int, roll: D20Roll) -> None:
        self.tick, self.time, self.attacker, self.target, self.roll = tick, time, attacker, target, roll

    @property
    def struck(self) -> bool:
        return self.roll.hit

    def events(self) -> list[Event]:
        return self.roll.events(self.tick, self.time, self.attacker, self.target, "glass", "glass.tap")

    def summary(self, names: Names) -> str | None:
        return f"{names[self.attacker]} cracks {names[self.target]}" if self.roll.hit else None

    def explain(self, names: Names) -> list[str]:
        return [f"{names[self.attacker]} taps {names[self.target]}: {self.roll.describe()}"]


def glass_of(c: Creature) -> Glass:
    assert isinstance(c.state, Glass)
    return c.state


class GlassModel(DamageModel):
    """Two hits and you are dead: the smallest model that uses every part of the interface."""

    name = "glass"

    def state_types(self) -> tuple[type, ...]:
        return (Glass,)

    def spawn_state(self, kind: Any, body: Any, attributes: Any, armor: Any) -> tuple[object, ...]:
        return (Glass(),)

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> GlassRecord:
        roll = d20_attack(0, 10, ctx.streams["attack"])
        clock = ctx.clock
        record = GlassRecord(clock.tick, clock.time, attacker.entity, target.entity, roll)
        ctx.log.append(record)
        if roll.hit:
            ctx.log.append(DamageDealt(clock.tick, clock.time, attacker.entity, target.entity, "glass", 1, 1,
                                       "a crack"))
            self.inflict(target, ctx, damage=1)
        return record

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        state = glass_of(creature)
        damage = options.get("damage", 1)
        if not isinstance(damage, int):
            raise ModelError(f"damage is a whole number, not {damage!r}")
        state.hits_left -= damage
        if state.hits_left <= 0:
            kill(creature.entity, creature.condition, "shattered", ctx)

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        state = glass_of(creature)
        cond = creature.condition
        label = "shattered" if cond.dead else "cracked" if state.hits_left < 2 else "whole"
        return Readout(not cond.dead, can_act(cond), label, max(state.hits_left, 0), label,
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
    # The account reads its attacks through the protocol alone.
    from sandbox.account import blow_lines

    lines = list(blow_lines(world.log, world.names))
    assert lines and all(" cracks " in line for line in lines)


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
        (state_type,) = world.damage_model.state_types()
        state, base = world.get(e, state_type), world.get(plain, state_type)
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
