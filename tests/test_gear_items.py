"""Healing items and shields as gear in data (issue 15: points 7 and 8, and its bad input).

Items live in ``configs/items/`` (what each model does with one is its tables' ``[items.<id>]``); a creature carries
them (its file's ``items``, a scenario's or ``spawn(items=)``). A shield is a weapon file with ``shield = true``,
gripped by a free hand besides the weapon taken in hand. An item or a shield that names nothing is the usual config
error (file, key, entry, expected, found; exit 2); an item under a model that has no use for it is refused at load
with a clear message, never silently ignored.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.events import ItemDropped
from sandbox.components.state import Equipment
from sandbox.config import ConfigError, config_root, default_catalog, load_catalog
from sandbox.models import build_model
from sandbox.systems.conditions import drop_held
from sandbox.systems.models.strength.model import StrengthModel
from sandbox.world import Sandbox, SandboxError
from tests.conftest import QueuedRng

SCENARIO = """#:schema ../schemas/scenario.schema.json
name = "Gear"
model = "{model}"
field = {{ width = 20.0, height = 10.0 }}

[[combatants]]
name = "Medic"
creature = "human"
team = "Red"
position = [7.0, 5.0]
weapons = {weapons}
items = {items}

[[combatants]]
name = "Foe"
creature = "human"
team = "Blue"
position = [13.0, 5.0]
"""


def _scenario(tmp_path: Path, *, model: str = "strength", weapons: str = '["broadsword", "round_shield"]',
              items: str = '["healing_draught"]') -> Path:
    path = tmp_path / "gear.toml"
    path.write_text(SCENARIO.format(model=model, weapons=weapons, items=items), encoding="utf-8")
    return path


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    return root


def test_the_shipped_gear() -> None:
    catalog = default_catalog()
    draught = catalog.items["healing_draught"]
    assert (draught.name, draught.consumable) == ("Healing draught", True)
    shield = catalog.weapons["round_shield"]
    assert shield.shield and not shield.natural and [m.id for m in shield.modes] == ["round_shield.bash"]
    assert not any(w.shield for wid, w in catalog.weapons.items() if wid != "round_shield")
    for model in ("anatomy", "depth", "status"):
        assert "healing_draught" not in build_model(model, catalog).items()
    for model in ("strength", "severity"):
        assert "healing_draught" in build_model(model, catalog).items()
    spec = catalog.scenarios["shield_and_draught"]
    assert spec.model == "strength"
    assert any("round_shield" in (c.weapons or ()) for c in spec.combatants)
    assert any(c.items for c in spec.combatants)


def test_a_scenario_carries_items_and_a_shield_under_the_models_that_use_them(tmp_path: Path) -> None:
    for model in ("strength", "severity"):
        with Sandbox.from_scenario(_scenario(tmp_path), seed=1, model=model) as world:
            medic = world.creatures()[world.entity("Medic")]
            assert medic.equipment.items == ["healing_draught"]
            assert sorted(medic.equipment.holding.values()) == ["broadsword", "round_shield"]
            assert world.run().reason in ("one team left", "no team left")


@pytest.mark.parametrize("model", ["anatomy", "depth", "status"])
def test_an_item_under_a_model_that_has_none_is_refused_at_load(tmp_path: Path, model: str) -> None:
    """Not a silent ignore: the world is not built, and the message names the creature, the item and the model."""
    with pytest.raises(SandboxError, match=f"Medic carries 'healing_draught', which the {model} model has no use"):
        Sandbox.from_scenario(_scenario(tmp_path), seed=1, model=model)
    result = CliRunner().invoke(app, ["run", str(_scenario(tmp_path)), "--model", model])
    assert result.exit_code == 2 and "has no use for" in result.stderr and "Traceback" not in result.stderr
    result = CliRunner().invoke(app, ["run", str(_scenario(tmp_path)), "--model", "all"])
    assert result.exit_code == 2 and "has no use for" in result.stderr and "Traceback" not in result.stderr
    with Sandbox(model=model) as world, pytest.raises(SandboxError, match="has no use for"):
        world.spawn("human", items=["healing_draught"])
    with Sandbox(model=model) as world:  # a shield is a weapon to every model: it spawns
        bearer = world.spawn("human", weapons=["broadsword", "round_shield"])
        held = world.creatures()[bearer].equipment.holding
        assert sorted(held.values()) == ["broadsword", "round_shield"]


@pytest.mark.parametrize(("field", "value", "key", "expected"), [
    ("items", '["healing_potion"]', "combatants#1.items#1", "an item in items/"),
    ("weapons", '["broadsword", "tower_shield"]', "combatants#1.weapons#2", "a weapon in weapons/"),
])
def test_an_item_or_a_shield_that_names_nothing_is_a_config_error(tmp_path: Path, field: str, value: str, key: str,
                                                                  expected: str) -> None:
    path = _scenario(tmp_path, **{field: value})
    with pytest.raises(ConfigError) as info:
        Sandbox.from_scenario(path)
    (problem,) = info.value.problems
    assert (problem.file, problem.key, problem.entry, problem.expected) == (str(path), key, "Medic", expected)
    assert problem.found == repr(value.strip('[]"').split('", "')[-1])
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and key in result.stderr and "Traceback" not in result.stderr


def test_spawn_refuses_an_item_that_names_nothing() -> None:
    with Sandbox(model="strength") as world, pytest.raises(SandboxError, match="unknown item 'potion'"):
        world.spawn("human", items=["potion"])


def test_a_creature_file_carries_items_and_its_own_checks_them(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    human = root / "creatures" / "human.toml"
    text = human.read_text(encoding="utf-8").replace('armor = []', 'armor = []\nitems = ["healing_draught"]')
    (root / "creatures" / "medic.toml").write_text(text.replace('name = "Human"', 'name = "Medic"'), encoding="utf-8")
    catalog = load_catalog(root)
    assert catalog.creatures["medic"].items == ("healing_draught",)
    with Sandbox(model="strength", catalog=catalog) as world:
        own, bare = world.spawn("medic"), world.spawn("medic", items=[])  # the spawn's items replace the file's
        assert world.creatures()[own].equipment.items == ["healing_draught"]
        assert world.creatures()[bare].equipment.items == []
    (root / "creatures" / "medic.toml").write_text(text.replace('"healing_draught"', '"elixir"'), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_catalog(root)
    (problem,) = info.value.problems
    assert (problem.key, problem.expected, problem.found) == ("items#1", "an item in items/", "'elixir'")


def test_a_shield_must_be_held_by_a_hand(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    path = root / "weapons" / "round_shield.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('reach = 0.8', 'reach = 0.8\nlimb = "vital"'),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_catalog(root)
    (problem,) = info.value.problems
    assert (problem.key, problem.found) == ("shield", "no grip mode")


def test_the_models_item_and_shield_entries_must_name_what_the_content_defines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    strength = root / "models" / "strength.toml"
    strength.write_text(strength.read_text(encoding="utf-8")
                        .replace("[items.healing_draught]", "[items.healing_potion]")
                        .replace("[shields.round_shield]", "[shields.broadsword]"), encoding="utf-8")
    severity = root / "models" / "severity.toml"
    severity.write_text(severity.read_text(encoding="utf-8").replace("[items.healing_draught]", "[items.salve]"),
                        encoding="utf-8")
    catalog = load_catalog(root)
    with pytest.raises(ConfigError) as info:
        build_model("strength", catalog, root)
    found = {(p.key, p.expected.split(" (")[0]) for p in info.value.problems}
    assert found == {("items.healing_potion", "an item the content defines"),
                     ("shields.broadsword", "a shield the content defines")}
    with pytest.raises(ConfigError) as info:
        build_model("severity", catalog, root)
    assert {p.key for p in info.value.problems} == {"items.salve"}


def test_a_shield_with_no_strength_entry_is_derived(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "weapons" / "buckler.toml").write_text((root / "weapons" / "round_shield.toml").read_text(
        encoding="utf-8").replace('name = "Round Shield"', 'name = "Buckler"'), encoding="utf-8")
    model = build_model("strength", load_catalog(root), root)
    assert model.tables.shields["buckler"] == 1  # [derive.shields]


def test_an_item_used_up_stays_used_up_after_a_save(tmp_path: Path) -> None:
    with Sandbox(seed=2, model="strength") as world:
        medic = world.spawn("human", name="Medic", team="A", items=["healing_draught", "healing_draught"])
        fallen = world.spawn("human", name="Fallen", team="A", attributes={"STR": 9})
        world.inflict(fallen, damage=4)
        world.inflict(fallen, damage=5)
        world.advance(seconds=1)
        assert world.get(medic, Equipment).items == ["healing_draught"]
        world.save(tmp_path / "save.json")
    with Sandbox.load(tmp_path / "save.json") as loaded:
        assert loaded.get(loaded.entity("Medic"), Equipment).items == ["healing_draught"]
        assert loaded.readout("Fallen").alive


def test_a_shield_falls_with_a_fumble() -> None:
    """A shield "drops with a fumble" (issue 15): the depth model's natural 1 that rolls document 002's "the sword
    rings off stone" on a shield bash lets go of the shield (an ``ItemDropped``); the sword stays in the other hand,
    and the AI takes up no shield instead of a weapon."""
    with Sandbox(seed=2, model="depth") as world:
        bearer = world.spawn("human", name="Bearer", team="A", weapons=["broadsword", "round_shield"])
        foe = world.spawn("human", name="Foe", team="B", position=(0.5, 0.0))
        world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(1, 20), QueuedRng.die(1, 3))  # natural 1, mishap 1
        events = world.strike(foe, "round_shield.bash", attacker=bearer)
        dropped = [e for e in events if isinstance(e, ItemDropped)]
        assert [(e.entity, e.item, e.part) for e in dropped] == [(bearer, "round_shield", "Left Arm")]
        equip = world.get(bearer, Equipment)
        assert list(equip.holding.values()) == ["broadsword"] and equip.dropped == ["round_shield"]


def test_a_dropped_shield_no_longer_counts_under_the_strength_model() -> None:
    """Document 003: the Armour value "is increased by ... holding shields": one at the creature's feet is not held."""
    with Sandbox(seed=2, model="strength") as world:
        bearer = world.spawn("human", name="Bearer", team="A", weapons=["broadsword", "round_shield"])
        with world.active():
            model = world.damage_model
            assert isinstance(model, StrengthModel)
            me = world.creatures()[bearer]
            assert model.armor_of(me, world.ctx) == (1, 1)
            shield_hand = next(p for p, w in me.equipment.holding.items() if w == "round_shield")
            drop_held(bearer, me.equipment, shield_hand, "Left Arm", False, world.ctx)
            assert model.armor_of(me, world.ctx) == (0, 0)
