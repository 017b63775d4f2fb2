"""Worlds the game holds: the own-world route is bound to one esper world, installs once, saves and loads there."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import esper
import pytest

from sandbox.config import default_catalog
from sandbox.models import build_model
from sandbox.own_world import OccupiedWorldError, OwnWorld
from sandbox.persistence import SaveError
from sandbox.saves import GameDataError
from sandbox.systems import install
from sandbox.systems.spawning import creature_components
from sandbox.systems.worlds import AlreadyInstalledError
from sandbox.world import Sandbox, SandboxError

MODELS = ("anatomy", "severity", "depth", "strength", "status")


@dataclass
class Chest:
    """A game's own component: loot in a chest."""

    gold: int


class ChestHook:
    """The game's part of a save: every chest's gold, by entity."""

    def __init__(self) -> None:
        self.restored: Any = "never called"

    def dump(self) -> Any:
        return {str(e): chest.gold for e, chest in esper.get_component(Chest)}

    def restore(self, data: Any) -> None:
        self.restored = data
        for entity, gold in (data or {}).items():
            esper.add_component(int(entity), Chest(gold))


@pytest.fixture
def worlds() -> Iterator[list[str]]:
    """Names of esper worlds a test makes; each is deleted afterwards, and "default" left current."""
    names: list[str] = []
    yield names
    esper.switch_world("default")
    for name in names:
        if name in esper.list_worlds():
            esper.delete_world(name)


def duel(world: Sandbox) -> None:
    world.spawn("human", name="Aldric", team="Red", position=(0, 0), weapons=["battleaxe"], armor=["gambeson"])
    world.spawn("human", name="Bertram", team="Blue", position=(1, 0), weapons=["broadsword"])


# ------------------------------------------------------------------ the systems route: a context bound to its world

def test_install_binds_the_context_so_reads_answer_from_its_world_whatever_is_current(worlds: list[str]) -> None:
    worlds += ["dungeon", "menu"]
    catalog = default_catalog()
    ctx = install(build_model("severity", catalog), catalog, seed=3, world="dungeon")
    assert esper.current_world == "default"  # installing into a named world leaves the current one current
    with ctx.active():
        entity = esper.create_entity(*creature_components(catalog, ctx.model, "human", "Aldric", team="Red"))
        esper.create_entity(*creature_components(catalog, ctx.model, "human", "Bertram", team="Blue",
                                                 position=(1, 0)))
    esper.switch_world("menu")  # the game shows its menu: another world current
    assert sorted(c.name for c in ctx.creatures().values()) == ["Aldric", "Bertram"]
    found = ctx.roster.get(entity)
    assert found is not None and found.name == "Aldric"
    for _ in range(3):
        ctx.process()
    assert ctx.clock.tick == 3 and ctx.log
    assert esper.current_world == "menu"  # every call put the game's world back


def test_install_into_the_current_world_remembers_its_name(worlds: list[str]) -> None:
    worlds += ["town", "menu"]
    catalog = default_catalog()
    esper.switch_world("town")
    ctx = install(build_model("anatomy", catalog), catalog, seed=1)
    esper.create_entity(*creature_components(catalog, ctx.model, "human", "Lone", team="A"))
    assert ctx.world == "town"
    esper.switch_world("menu")
    assert [c.name for c in ctx.creatures().values()] == ["Lone"]
    ctx.process()
    assert ctx.clock.tick == 1


def test_installing_twice_into_one_world_is_refused(worlds: list[str]) -> None:
    worlds.append("dungeon")
    catalog = default_catalog()
    first = install(build_model("anatomy", catalog), catalog, seed=1, world="dungeon")
    with pytest.raises(AlreadyInstalledError, match="'dungeon' already"):
        install(build_model("anatomy", catalog), catalog, seed=2, world="dungeon")
    with pytest.raises(AlreadyInstalledError):
        OwnWorld(seed=1, world="dungeon")
    first.process()
    assert first.clock.tick == 1  # one clock: the refused install registered nothing
    assert issubclass(AlreadyInstalledError, SandboxError)


def test_installing_into_a_sandboxs_world_is_refused() -> None:
    with Sandbox(seed=1) as world:
        catalog = default_catalog()
        with pytest.raises(AlreadyInstalledError):
            install(build_model("anatomy", catalog), catalog, world=world.esper_world)


# ------------------------------------------------------------------ OwnWorld: a Sandbox in the game's own world

def test_own_world_reads_and_ticks_with_another_world_current(worlds: list[str]) -> None:
    worlds += ["dungeon", "menu"]
    esper.switch_world("dungeon")
    chest = esper.create_entity(Chest(30))
    world = OwnWorld(seed=3, model="severity")
    assert world.esper_world == "dungeon"
    duel(world)
    esper.switch_world("menu")
    assert sorted(c.name for c in world.creatures().values()) == ["Aldric", "Bertram"]
    assert world.readout("Aldric").alive
    world.step()
    assert world.tick == 1 and esper.current_world == "menu"
    with world.active():
        assert esper.component_for_entity(chest, Chest).gold == 30  # the game's entity is left alone
    world.close()
    with _in("dungeon"):
        assert list(esper.get_entities()) == [chest]  # closing took the sandbox's part out, nothing else
        assert not any(type(p).__module__.startswith("sandbox.") for p in esper._processors)


def _in(name: str) -> Any:
    from sandbox.systems.worlds import in_world

    return in_world(name)


@pytest.mark.parametrize("model", MODELS)
def test_own_world_gives_the_events_a_sandbox_gives(worlds: list[str], model: str) -> None:
    worlds.append("dungeon")
    own = OwnWorld(seed=5, model=model, world="dungeon")
    duel(own)
    with Sandbox(seed=5, model=model) as private:
        duel(private)
        own.run(max_ticks=20)
        private.run(max_ticks=20)
        assert [e.to_dict() for e in own.events] == [e.to_dict() for e in private.events]


# ------------------------------------------------------------------ the game's own entities in a save

def test_a_chest_then_a_spawn_saves_and_loads_with_the_chests_id_kept(worlds: list[str], tmp_path: Path) -> None:
    """The issue's case: a chest (entity 3) between creatures; the save loads, the chest's id is not reused."""
    with Sandbox(seed=2) as world:
        world.spawn("human", name="Aldric", team="Red")
        world.spawn("human", name="Bertram", team="Blue", position=(1, 0))
        with world.active():
            chest = esper.create_entity(Chest(12))
        late = world.spawn("human", name="Cuthbert", team="Blue", position=(2, 0))
        assert (chest, int(late)) == (3, 4)
        world.save(tmp_path / "s.json")
        loaded = Sandbox.load(tmp_path / "s.json")
    with loaded:
        assert {n: int(e) for e, n in loaded.names.items()} == {"Aldric": 1, "Bertram": 2, "Cuthbert": 4}
        with loaded.active():
            assert esper.entity_exists(chest) and esper.components_for_entity(chest) == ()  # there, empty
        fresh = loaded.spawn("human", name="Dunstan", team="Red", position=(3, 0))
        assert int(fresh) == 5  # never the chest's 3


def test_a_chest_without_a_later_spawn_is_not_reused_after_load(tmp_path: Path) -> None:
    with Sandbox(seed=2) as world:
        world.spawn("human", name="Aldric", team="Red")
        with world.active():
            chest = esper.create_entity(Chest(12))
        world.save(tmp_path / "s.json")
        doc = json.loads((tmp_path / "s.json").read_text())
        assert doc["reserved"] == [chest] and doc["next_entity"] == chest + 1
    with Sandbox.load(tmp_path / "s.json") as loaded:
        assert int(loaded.spawn("human", name="Bertram", team="Blue")) == chest + 1


def test_a_deleted_entitys_id_stays_unused_after_load(tmp_path: Path) -> None:
    with Sandbox(seed=2) as world:
        world.spawn("human", name="Aldric", team="Red")
        with world.active():
            gone = esper.create_entity(Chest(1))
            esper.delete_entity(gone, immediate=True)
        world.save(tmp_path / "s.json")
        after = int(world.spawn("human", name="Bertram", team="Blue"))
    with Sandbox.load(tmp_path / "s.json") as loaded:
        with loaded.active():
            assert gone not in list(esper.get_entities())
        assert int(loaded.spawn("human", name="Bertram", team="Blue")) == after


def test_a_save_hook_round_trips_the_games_components_in_the_same_file(worlds: list[str], tmp_path: Path) -> None:
    worlds += ["dungeon", "dungeon-2", "menu"]
    esper.switch_world("dungeon")
    chest = esper.create_entity(Chest(30))
    world = OwnWorld(seed=4, model="depth")
    duel(world)
    world.run(max_ticks=3)
    esper.switch_world("menu")
    world.save(tmp_path / "quick.json", hook=ChestHook())
    assert json.loads((tmp_path / "quick.json").read_text())["game"] == {str(chest): 30}
    assert not list(tmp_path.glob("*side*")) and len(list(tmp_path.iterdir())) == 1  # no sidecar file
    hook = ChestHook()
    loaded = OwnWorld.load(tmp_path / "quick.json", hook=hook, world="dungeon-2")
    assert hook.restored == {str(chest): 30}
    assert esper.current_world == "menu"
    with _in("dungeon-2"):
        assert esper.component_for_entity(chest, Chest).gold == 30
    assert loaded.tick == world.tick and loaded.names == world.names
    for _ in range(5):
        world.step()
        loaded.step()
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in world.events]


def test_sandbox_save_and_load_take_the_hook_too(tmp_path: Path) -> None:
    with Sandbox(seed=1) as world:
        duel(world)
        with world.active():
            esper.create_entity(Chest(7))
        world.save(tmp_path / "s.json", hook=ChestHook())
    hook = ChestHook()
    with Sandbox.load(tmp_path / "s.json", hook=hook) as loaded:
        assert hook.restored == {"3": 7}
        with loaded.active():
            assert esper.component_for_entity(3, Chest).gold == 7


def test_a_save_without_a_hook_restores_none_to_one(tmp_path: Path) -> None:
    with Sandbox(seed=1) as world:
        duel(world)
        world.save(tmp_path / "s.json")
    hook = ChestHook()
    Sandbox.load(tmp_path / "s.json", hook=hook).close()
    assert hook.restored is None


def test_a_hook_that_dumps_what_json_cannot_hold_writes_nothing(tmp_path: Path) -> None:
    class Bad:
        def dump(self) -> Any:
            return {"when": object()}

        def restore(self, data: Any) -> None:
            raise AssertionError("never")

    with Sandbox(seed=1) as world:
        duel(world)
        with pytest.raises(GameDataError, match="JSON save cannot hold"):
            world.save(tmp_path / "s.json", hook=Bad())
    assert not (tmp_path / "s.json").exists()


def test_a_hook_that_fails_to_restore_leaves_no_world_behind(worlds: list[str], tmp_path: Path) -> None:
    worlds.append("dungeon")
    with Sandbox(seed=1) as world:
        duel(world)
        world.save(tmp_path / "s.json")

    class Refuses:
        def dump(self) -> Any:
            return None

        def restore(self, data: Any) -> None:
            raise RuntimeError("the game's own data is bad")

    with pytest.raises(RuntimeError, match="own data"):
        OwnWorld.load(tmp_path / "s.json", hook=Refuses(), world="dungeon")
    with _in("dungeon"):
        assert not any(type(p).__module__.startswith("sandbox.") for p in esper._processors)
    OwnWorld(seed=1, world="dungeon").close()  # nothing left installed: a new install is allowed


def test_loading_into_a_world_that_holds_entities_is_refused(worlds: list[str], tmp_path: Path) -> None:
    worlds.append("dungeon")
    with Sandbox(seed=1) as world:
        duel(world)
        world.save(tmp_path / "s.json")
    with _in("dungeon"):
        esper.create_entity(Chest(1))
    with pytest.raises(OccupiedWorldError, match="holds entities"):
        OwnWorld.load(tmp_path / "s.json", world="dungeon")


def test_a_bad_save_leaves_the_games_world_untouched(worlds: list[str], tmp_path: Path) -> None:
    worlds.append("dungeon")
    with Sandbox(seed=1) as world:
        duel(world)
        world.save(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    doc["entities"][1]["position"] = ["far", 0]
    (tmp_path / "s.json").write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=r"entities#2\.position#1"):
        OwnWorld.load(tmp_path / "s.json", world="dungeon")
    with _in("dungeon"):
        assert list(esper.get_entities()) == []
        assert esper._processors == []


@pytest.mark.parametrize(("reserved", "upto", "message"), [
    (["3"], 4, "reserved: expected entity ids"),
    ([4, 3], 5, "reserved: expected entity ids"),
    ([3], 3, "next_entity: expected an entity id above every reserved one"),
    ([2], 4, r"entities#2\.id: expected an entity id below 4 \(the save's next_entity\) and not reserved"),
])
def test_tampered_reserved_ids_are_refused(tmp_path: Path, reserved: Any, upto: Any, message: str) -> None:
    with Sandbox(seed=1) as world:
        duel(world)
        world.save(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    doc["reserved"], doc["next_entity"] = reserved, upto
    (tmp_path / "s.json").write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=message):
        Sandbox.load(tmp_path / "s.json")


def test_a_save_from_before_reserved_ids_still_loads(tmp_path: Path) -> None:
    with Sandbox(seed=1) as world:
        duel(world)
        world.run(max_ticks=2)
        world.save(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    for key in ("reserved", "next_entity", "game"):
        del doc[key]
    (tmp_path / "s.json").write_text(json.dumps(doc))
    with Sandbox.load(tmp_path / "s.json") as loaded:
        assert int(loaded.spawn("human", name="Cuthbert")) == 3


def test_a_sandboxs_own_context_answers_from_its_world_with_another_current(worlds: list[str]) -> None:
    worlds.append("menu")
    with Sandbox(seed=1) as world:
        duel(world)
        esper.switch_world("menu")
        assert sorted(c.name for c in world.ctx.creatures().values()) == ["Aldric", "Bertram"]
        assert world.ctx.roster.get(int(world.entity("Aldric"))) is not None
        world.ctx.process()
        assert world.tick == 1 and esper.current_world == "menu"


def test_loading_into_an_emptied_world_recreates_the_saved_ids(worlds: list[str], tmp_path: Path) -> None:
    """A quickload: the game empties its world (its id counter has moved on), then loads into it."""
    worlds.append("dungeon")
    esper.switch_world("dungeon")
    chest = esper.create_entity(Chest(5))
    world = OwnWorld(seed=1)
    duel(world)
    world.save(tmp_path / "q.json", hook=ChestHook())
    world.close()
    esper.delete_entity(chest, immediate=True)
    loaded = OwnWorld.load(tmp_path / "q.json", hook=ChestHook())
    assert {n: int(e) for e, n in loaded.names.items()} == {"Aldric": 2, "Bertram": 3}
    assert esper.component_for_entity(chest, Chest).gold == 5
    assert int(loaded.spawn("human", name="Cuthbert")) == 4


def test_closing_a_world_whose_esper_world_was_replaced_leaves_the_new_one_alone() -> None:
    """A game deletes its level's esper world and makes the next level under the same name; the old level's
    OwnWorld, closed (or collected) afterwards, must not take the new level's creatures or processors."""
    from sandbox.own_world import OwnWorld

    esper.switch_world("level")
    old = OwnWorld(seed=1, world="level")
    old.spawn("human", name="Old", team="A")
    esper.switch_world("default")
    esper.delete_world("level")
    esper.switch_world("level")
    try:
        new = OwnWorld(seed=1, world="level")
        hero = new.spawn("human", name="Hero", team="A")
        old.close()
        assert new.readout(hero).alive
        assert new.step() is not None and new.tick == 1  # its processors are still there
        new.close()
    finally:
        esper.switch_world("default")
        esper.delete_world("level")
