"""One creature to and from JSON: carried between worlds with its wounds, conditions and gear; bad JSON refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import esper
import pytest

from sandbox.components.state import Equipment
from sandbox.creature_json import CreatureDataError
from sandbox.saves import next_entity
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
    assert (data["format"], data["version"], data["model"], data["body"]) == \
        ("combat-sandbox-creature", 1, "anatomy", "human")
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
