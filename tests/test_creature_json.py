"""One creature to and from JSON: carried between worlds with its wounds, conditions and gear; bad JSON refused."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import esper
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.models.anatomy import Injury
from sandbox.components.state import Equipment
from sandbox.creature_json import CreatureDataError
from sandbox.saves import next_entity
from sandbox.systems.saved import LARGEST
from sandbox.systems.time_shift import TimeShift
from sandbox.world import Sandbox, SandboxError

MODELS = ("anatomy", "severity", "depth", "strength", "status")


def wounded_hero(model: str) -> tuple[Sandbox, dict[str, Any]]:
    """A world under ``model`` whose hero took a real blow (it lives) and has a part held fast; and its JSON."""
    world = Sandbox(seed=11, model=model)
    world.spawn("human", name="Hero", team="Red", weapons=["battleaxe", "dagger"], armor=["gambeson"])
    world.spawn("human", name="Foe", team="Blue", position=(1, 0), weapons=["broadsword"])
    world.strike("Hero", "dagger.cut" if model == "strength" else "battleaxe.cut")  # a battleaxe kills outright there
    assert world.readout("Hero").alive
    world.immobilize("Hero", world.creatures()[world.entity("Hero")].anatomy.body.parts[0].name)
    return world, json.loads(json.dumps(world.creature_to_json("Hero")))  # through text, as a file carries it


@pytest.mark.parametrize("model", MODELS)
def test_a_creature_round_trips_with_its_wounds_conditions_and_gear(model: str) -> None:
    old, data = wounded_hero(model)
    with old, Sandbox(seed=99, model=model) as level_two:
        hero = level_two.add_creature(data, team="Party", position=(5, 5))
        assert level_two.readout(hero) == old.readout("Hero")
        assert level_two.get(hero, Equipment) == old.get("Hero", Equipment)
        moved = level_two.creatures()[hero]
        was = old.creatures()[old.entity("Hero")]
        assert moved.condition == was.condition and moved.anatomy.mls == was.anatomy.mls
        assert (moved.team, moved.position.x, moved.position.y) == ("Party", 5, 5)
        assert level_two.creature_to_json(hero)["creature"]["model_state"] == data["creature"]["model_state"]


@pytest.mark.parametrize("model", MODELS)
def test_a_carried_hero_heals_between_levels(model: str) -> None:
    old, data = wounded_hero(model)
    with old, Sandbox(seed=5, model=model) as camp:
        camp.add_creature(data)
        before = camp.readout("Hero")
        assert before != _fresh_readout(model)  # it arrived hurt
        camp.advance(days=60)
        after = camp.readout("Hero")
        assert after != before  # time passed over its wounds: they healed (or, untended, took it)


def _fresh_readout(model: str) -> object:
    with Sandbox(seed=5, model=model) as world:
        world.spawn("human", name="Hero", team="Red", weapons=["battleaxe", "dagger"], armor=["gambeson"])
        return world.readout("Hero")


def test_the_json_names_its_model_and_body_and_holds_no_entity() -> None:
    old, data = wounded_hero("anatomy")
    old.close()
    assert (data["format"], data["version"], data["model"], data["body"], data["clock"]) == \
        ("combat-sandbox-creature", 1, "anatomy", "human", {"seconds": 0.0, "tick": 0})
    assert "id" not in data["creature"] and data["creature"]["combatant"]["target"] == -1


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        table = data
        for key in parents:
            table = table[int(key)] if isinstance(table, list) else table[key]
        table[last] = value
    return edit


BAD = [
    ("another model", _set("model", "severity"), "model: a creature of the 'severity' model"),
    ("unknown creature", _set("creature.identity.creature", "dragon"), "creature.identity.creature: expected a "
                                                                       "creature this world's content defines"),
    ("another body", _set("body", "kobold"), "body: the creature was made with the body 'kobold'"),
    ("unknown weapon", _set("creature.equipment.weapons", ["laser"]), r"creature\.equipment\.weapons#1: expected "
                                                                      "a weapon the configs define"),
    ("unknown armour", _set("creature.armor", ["mithril"]), r"creature\.armor#1: expected an armour piece"),
    ("a bad type", _set("creature.traits.speed", "fast"), r"creature\.traits\.speed: expected a number"),
    ("out of range", _set("creature.position", [1e300, 0]), r"creature\.position#1: expected a number from"),
    ("a bad part", _set("creature.condition.immobilized", [999]), r"creature\.condition\.immobilized#1"),
    ("tampered model state", _set("creature.model_state", {"Nonsense": {}}), r"creature\.model_state"),
    ("a target", _set("creature.combatant.target", 1), r"creature\.combatant\.target: expected -1"),
    ("not the format", _set("format", "something-else"), "not a creature's JSON"),
    ("another version", _set("version", 7), "creature JSON version 7"),
    ("an unknown key", _set("extra", 1), "unknown: extra"),
    ("not a table", _set("creature", [1, 2]), "creature: expected a table"),
    ("no clock", lambda data: data.pop("clock"), "missing: clock"),
    ("a clock of no table", _set("clock", 5), "clock: expected a table of the old world's seconds and tick"),
    ("a clock before time began", _set("clock.seconds", -1.0), r"clock\.seconds: expected a number from 0"),
    ("a clock of a broken tick", _set("clock.tick", 1.5), r"clock\.tick: expected a whole number"),
]


@pytest.mark.parametrize(("what", "edit", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_creature_json_is_refused_naming_the_problem_and_changes_nothing(
        what: str, edit: Callable[[dict[str, Any]], None], message: str) -> None:
    old, data = wounded_hero("anatomy")
    old.close()
    bad = copy.deepcopy(data)
    edit(bad)
    with Sandbox(seed=1) as world:
        world.spawn("human", name="Resident")
        with world.active():
            upto = next_entity()
        log = len(world.log)
        with pytest.raises(CreatureDataError, match=message):
            world.add_creature(bad)
        assert list(world.names.values()) == ["Resident"] and len(world.log) == log
        with world.active():
            assert next_entity() == upto and list(esper.get_entities()) == [1]
    assert issubclass(CreatureDataError, SandboxError)


def test_a_name_already_taken_is_refused_and_another_name_given_is_taken() -> None:
    old, data = wounded_hero("anatomy")
    with old:
        with pytest.raises(CreatureDataError, match="a name no other creature has"):
            old.add_creature(data)
        twin = old.add_creature(data, name="Hero's twin")
        assert old.readout(twin).wounds == old.readout("Hero").wounds


def test_a_hero_of_another_content_is_refused(tmp_path: Any) -> None:
    with Sandbox(seed=1, content=[_starter()]) as kobolds:
        kobolds.spawn("kobold", name="Snik")
        data = kobolds.creature_to_json("Snik")
    with Sandbox(seed=1) as shipped, pytest.raises(CreatureDataError, match="'kobold'"):
        shipped.add_creature(data)


def _starter() -> str:
    from importlib.resources import files

    return str(files("sandbox") / "starter")


# ------------------------------------------------------------------ a carried creature's times follow the new clock

DAY = 86400.0
OLD_DAY = 30.0
"""The day of the old world's clock when the hero is carried."""


def _bleeding_anatomy_wound(world: Sandbox) -> None:
    world.strike("Hero", "battleaxe.cut")
    world.inflict("Hero", location="Left Forearm", level=3, aspect="edged")
    world.get("Hero", Injury).wounds[-1].bleeder = True  # a bleeder, as an amputation or a surgery leaves one


GRAVE: dict[str, Callable[[Sandbox], object]] = {
    # each leaves due times of its own model set: a bleeding round, a shock course test, first aid, a death clock
    "anatomy": _bleeding_anatomy_wound,
    "severity": lambda w: w.inflict("Hero", severity=5, effect="bloody"),
    "depth": lambda w: w.inflict("Hero", level="organ", aspect="piercing", location="Abdomen"),
    "strength": lambda w: [w.inflict("Hero", damage=6) for _ in range(2)],
    "status": lambda w: w.inflict("Hero", damage=40),
}
MILD: dict[str, Callable[[Sandbox], object]] = {
    # each leaves a hero that heals: a healing test, a treatment, a rest
    "anatomy": lambda w: w.strike("Hero", "battleaxe.cut"),
    "severity": lambda w: w.inflict("Hero", severity=2, effect="weaken"),
    "depth": lambda w: w.inflict("Hero", level="flesh", aspect="cutting", location="Right Calf"),
    "strength": lambda w: w.inflict("Hero", damage=4),
    "status": lambda w: w.inflict("Hero", damage=10),
}
HURT = {"grave": GRAVE, "mild": MILD}
BEFORE_CARRY = {"anatomy": 120.0, "severity": 20.0, "depth": 10.0, "strength": 0.0, "status": 60.0}
"""Seconds the hurt hero's world runs on before the carry (each short of the model's first due event)."""


def hurt_at_day_30(model: str, hurt: str = "grave") -> Sandbox:
    """A world whose clock is at day 30 and a few ticks, whose only creature, the hero, is hurt, its clocks running."""
    world = Sandbox(seed=11, model=model)
    world.advance(days=OLD_DAY)
    world.spawn("human", name="Hero", team="Red", weapons=["battleaxe", "dagger"], armor=["gambeson"])
    for _ in range(3):
        world.step()
    HURT[hurt][model](world)
    world.advance(seconds=BEFORE_CARRY[model])
    assert world.readout("Hero").alive
    return world


def fresh_world(old: Sandbox, ahead: float) -> Sandbox:
    """A fresh world at ``ahead`` days (and, ahead, as many ticks as ``old`` plus two), under ``old``'s model."""
    new = Sandbox(seed=5, model=old.model)
    if ahead:
        new.advance(days=ahead)
        for _ in range(old.tick + 2):
            new.step()
    return new


def carried_into(old: Sandbox, data: dict[str, Any], ahead: float) -> Sandbox:
    """A ``fresh_world`` with the hero carried in.

    It rolls the old world's dice from here on: the same dice, so what differs is only when things fall due.
    """
    new = fresh_world(old, ahead)
    new.add_creature(data)
    for purpose, rng in old.ctx.streams.items():
        new.ctx.streams[purpose].setstate(rng.getstate())
    return new


def relative(world: Sandbox, events: list[Any], since: tuple[float, int]) -> list[tuple[str, dict[str, Any]]]:
    """``events`` with their times and ticks counted from ``since`` (a clock) and their entities by name."""
    seconds, tick = since
    out = []
    for e in events:
        data = {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}
        data["time"] -= seconds
        data["tick"] -= tick
        for key in e.entity_fields:
            data[key] = world.name_of(data[key]) if data[key] != -1 else ""
        out.append((type(e).__name__, data))
    return out


def _clock(world: Sandbox) -> tuple[float, int]:
    return world.time, world.tick


def _spans(old: Sandbox, new: Sandbox) -> tuple[list[Any], list[Any]]:
    """What each world's hero goes through over the same spans after the carry, counted from the carry."""
    at = _clock(old), _clock(new)
    seen: tuple[list[Any], list[Any]] = ([], [])
    for span in ({"minutes": 5}, {"hours": 2}, {"days": 12}):
        for world, clock, out in zip((old, new), at, seen, strict=True):
            out.extend(relative(world, world.advance(**span), clock))
            seen_now = world.readout("Hero")  # its wounds but their text, which names the game time (fatal at ...)
            out.append((seen_now.label, seen_now.alive, [dataclasses.replace(w, text="") for w in seen_now.wounds]))
    return seen


@pytest.mark.parametrize("ahead", [0.0, 45.0], ids=["a fresh world behind", "a world ahead"])
@pytest.mark.parametrize("hurt", ["grave", "mild"])
@pytest.mark.parametrize("model", MODELS)
def test_a_carried_hero_falls_due_the_same_span_after_the_carry(model: str, hurt: str, ahead: float) -> None:
    old = hurt_at_day_30(model, hurt)
    data = json.loads(json.dumps(old.creature_to_json("Hero")))
    assert data["clock"] == {"seconds": old.time, "tick": old.tick} and old.time >= OLD_DAY * DAY
    same_clock = copy.deepcopy(data)  # the same hero read as of the new world's clock: no times moved
    with old, carried_into(old.copy(), data, ahead) as new:
        assert new.time != old.time
        moved = new.creature_to_json("Hero")["creature"]["model_state"]
        # its times did move; a strength hero that is neither dying nor out holds none (its rest is a span)
        holds_times = (model, hurt) != ("strength", "mild")
        assert (moved != data["creature"]["model_state"]) == holds_times
        before = new.readout("Hero").label
        assert before == old.readout("Hero").label
        twin = old.copy()
        then, now = _spans(old, new)
        assert then == now
        assert any(len(e) == 2 for e in then)  # something fell due in the spans
        # Read as of the new clock instead, the same hero's times fire elsewhere: the comparison can tell.
        with fresh_world(old, ahead) as empty:
            same_clock["clock"] = {"seconds": empty.time, "tick": empty.tick}
        with carried_into(twin, same_clock, ahead) as unmoved:
            assert (_spans(twin, unmoved)[1] != now) == holds_times


@pytest.mark.parametrize("model", MODELS)
def test_a_world_the_carried_hero_joined_saves_and_loads(model: str, tmp_path: Any) -> None:
    old = hurt_at_day_30(model)
    with old, carried_into(old, old.creature_to_json("Hero"), 0.0) as new:
        new.advance(hours=1)
        new.save(tmp_path / "level.json")
        with Sandbox.load(tmp_path / "level.json") as again:
            assert again.creature_to_json("Hero") == new.creature_to_json("Hero")


def test_times_moved_past_what_a_save_holds_are_refused_naming_them() -> None:
    old = hurt_at_day_30("status")
    data = old.creature_to_json("Hero")
    old.close()
    with Sandbox(seed=1, model="status") as far:
        far.advance(seconds=LARGEST - 1000.0)
        with pytest.raises(CreatureDataError, match=r"its times moved to this world's clock: StatusState\.dies_at"):
            far.add_creature(data)
        assert far.names == {}


def test_a_time_shift_moves_due_past_and_tick_times_each_by_its_meaning() -> None:
    shift = TimeShift.between(OLD_DAY * DAY, 30, 0.0, 4)
    assert (shift.seconds, shift.ticks, (-shift).seconds) == (-OLD_DAY * DAY, -26, OLD_DAY * DAY)
    assert shift.due(OLD_DAY * DAY + 60) == 60 and shift.due(-1.0) == -1.0
    assert shift.due(10.0) == 0.0  # long overdue: still due at once, never read as none
    assert shift.past(OLD_DAY * DAY - 60) == -60 and shift.past_or_never(-1.0) == -1.0
    landed = shift.past_or_never(OLD_DAY * DAY - 1)  # lands on the sentinel: moved off it, into the past
    assert landed < -1.0 and landed == pytest.approx(-1.0)
    assert shift.tick(30) == 4 and shift.tick(3) == -23


@pytest.fixture(scope="module")
def hurt_states() -> dict[str, tuple[Sandbox, tuple[object, ...]]]:
    states = {}
    for model in MODELS:
        world = hurt_at_day_30(model)
        hero = world.creatures()[world.entity("Hero")]
        components = tuple(world.get(hero.entity, t) for t in world.damage_model.state_types())
        states[model] = world, components
    return states


@pytest.mark.parametrize("model", MODELS)
@settings(max_examples=40, deadline=None)
@given(seconds=st.integers(-10**13, 10**13), ticks=st.integers(-10**9, 10**9))
def test_shifting_a_state_there_and_back_is_the_identity(
        hurt_states: dict[str, tuple[Sandbox, tuple[object, ...]]], model: str, seconds: int, ticks: int) -> None:
    world, components = hurt_states[model]
    # to a world whose clock is 0 or more (no due time is behind its own world's clock, so none is held at 0); in
    # whole tens of seconds, as two clocks ticking 10 s apart differ, so no past time lands on the sentinel -1
    shift = TimeShift(max(seconds, -world.time) // 10 * 10 + (10 if seconds < -world.time else 0),
                      max(ticks, -world.tick))
    model_ = world.damage_model
    there = model_.shift_times(components, shift)
    back = model_.shift_times(there, -shift)
    hero = world.creatures()[world.entity("Hero")]
    dumped = [model_.dump_state(hero._replace(state=model_.bind(c))) for c in (components, there, back)]
    assert dumped[2] == dumped[0]
    # every hurt state holds a time in seconds; only the anatomy model's a tick (when its shock began)
    assert (dumped[1] != dumped[0]) == (shift.seconds != 0 or (model == "anatomy" and shift.ticks != 0))
    assert model_.dump_state(hero) == dumped[0]  # the components themselves are left as they were
