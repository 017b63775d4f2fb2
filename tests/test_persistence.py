"""Saving and loading a world: a loaded world continues exactly; saves are atomic; bad files raise ``SaveError``."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import esper
import pytest

from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.rules import ShockState
from sandbox.components.state import Combatant, Condition, Equipment, Identity, Position
from sandbox.persistence import SaveError
from sandbox.world import Sandbox

SCENARIOS = ("duel", "skirmish", "wolf_pack", "bestiary")


def dicts(world: Sandbox) -> list[dict[str, Any]]:
    return [e.to_dict() for e in world.events]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize(("seed", "k"), [(0, 0), (1, 4), (7, -1)])
def test_save_at_a_tick_and_continue_identically(tmp_path: Path, scenario: str, seed: int, k: int) -> None:
    """Save at tick k (-1: the last tick before the end), load, continue: the log is the uninterrupted one."""
    n = 30
    a = Sandbox.from_scenario(scenario, seed=seed)
    out_a = a.run(max_ticks=n)
    if k < 0:
        k = out_a.ticks - 1
    assert out_a.ticks > k
    b = Sandbox.from_scenario(scenario, seed=seed)
    for _ in range(k):
        b.step()
    path = tmp_path / "save.json"
    b.save(path)
    c = Sandbox.load(path)
    try:
        assert c.tick == k and dicts(c) == dicts(b)
        assert c.names == b.names and c.seed == seed and c.model == b.model
        while c.tick < out_a.ticks:
            c.step()
        assert dicts(c) == dicts(a)
        for e in a.creatures():
            assert c.readout(e) == a.readout(e)
            assert c.get(e, Equipment) == a.get(e, Equipment)
        assert c.able_teams() == a.able_teams()
    finally:
        for w in (a, b, c):
            w.close()


def test_loaded_world_runs_to_the_same_outcome(tmp_path: Path) -> None:
    a = Sandbox.from_scenario("skirmish", seed=3)
    out_a = a.run()
    b = Sandbox.from_scenario("skirmish", seed=3)
    for _ in range(out_a.ticks // 2):
        b.step()
    b.save(tmp_path / "half.json")
    c = Sandbox.load(tmp_path / "half.json")
    out_c = c.run(max_ticks=200 - c.tick)
    assert out_c == out_a
    assert dicts(c) == dicts(a)
    assert c.max_ticks == a.max_ticks and c.scenario is not None and c.scenario.id == "skirmish"
    for w in (a, b, c):
        w.close()


def test_save_keeps_hand_made_state(tmp_path: Path) -> None:
    """Injury, dropped weapons, immobilised parts and shock set by hand all survive a save."""
    w = Sandbox(seed=9)
    a = w.spawn("human", name="A", team="Red", weapons=["broadsword"], skills={"shock": 95})
    b = w.spawn("human", name="B", team="Blue", position=(1.0, 0.0), weapons=["mace"])
    w.inflict(a, location="Right Forearm", level="G4")
    w.inflict(b, location="Left Thigh", level="S2")
    w.inflict(b, location="Left Thigh", level="S2")
    w.immobilize(b, "Left Arm")
    shock = w.get(b, Shock)
    shock.state, shock.retest_at = ShockState.STUNNED, w.tick + 1
    w.save(tmp_path / "w.json")
    v = Sandbox.load(tmp_path / "w.json")
    try:
        for e in (a, b):
            assert v.readout(e) == w.readout(e)
            assert v.get(e, Injury).wounds == w.get(e, Injury).wounds
            assert v.get(e, Injury).health == w.get(e, Injury).health
            assert v.get(e, Injury).impairments == w.get(e, Injury).impairments
            for kind in (Equipment, Condition, Shock, Combatant, Position, Identity):
                assert v.get(e, kind) == w.get(e, kind), kind.__name__
        for _ in range(6):
            assert [x.to_dict() for x in v.step()] == [x.to_dict() for x in w.step()]
    finally:
        w.close()
        v.close()


def test_save_is_atomic_json(tmp_path: Path) -> None:
    w = Sandbox.from_scenario("duel", seed=2)
    folder = tmp_path / "saves"
    path = folder / "duel.json"
    for _ in range(3):
        w.step()
        w.save(path)  # writes the folder, then replaces the file
        assert [p.name for p in folder.iterdir()] == ["duel.json"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "combat-sandbox-save"
    assert doc["version"] == 2
    assert doc["clock"]["tick"] == 3
    assert len(doc["events"]) == len(w.events)
    w.close()


# ---------------------------------------------------------------------------------------------- bad saves




def _edit(field: str, value: Any) -> Callable[[str], str]:
    def edit(text: str) -> str:
        doc = json.loads(text)
        if field == "creature":
            doc["entities"][1]["identity"]["creature"] = value
        else:
            doc[field] = value
        return json.dumps(doc)
    return edit


BAD_SAVES: dict[str, tuple[Callable[[str], str], str]] = {
    "garbage": (lambda text: "this is not a save \x00{{{", "corrupt"),
    "truncated": (lambda text: text[: len(text) // 2], "truncated"),
    "wrong version": (_edit("version", 99), "99"),
    "unknown creature": (_edit("creature", "unicorn"), "unicorn"),
    "not a save": (lambda text: json.dumps({"hello": "world"}), "not a sandbox save"),
    "missing clock": (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "clock"}), "clock"),
}


@pytest.mark.parametrize("case", list(BAD_SAVES))
def test_bad_save_raises_save_error_and_leaves_no_world(good_save: Path, case: str) -> None:
    edit, words = BAD_SAVES[case]
    bad = good_save.with_name("bad.json")
    bad.write_text(edit(good_save.read_text(encoding="utf-8")), encoding="utf-8")
    gc.collect()
    worlds = list(esper.list_worlds())
    current = esper.current_world
    with pytest.raises(SaveError) as info:
        Sandbox.load(bad)
    message = str(info.value)
    assert words in message
    assert "\n" not in message and len(message) < 300
    assert not set(esper.list_worlds()) - set(worlds)
    assert esper.current_world == current
    # The good file still loads.
    Sandbox.load(good_save).close()


def test_missing_or_binary_save_raises_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot read"):
        Sandbox.load(tmp_path / "nowhere.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(SaveError):
        Sandbox.load(binary)


@pytest.mark.parametrize("model", ["anatomy", "severity", "depth", "strength", "status"])
def test_every_state_a_fight_passes_through_is_a_save_that_loads(model: str, tmp_path: Path) -> None:
    """The meaning checks refuse only what the world could not have reached: a save after every tick of a real
    fight loads (a severity stun, a creature down, a weapon being picked up are all states the rules reach)."""
    from sandbox import Sandbox

    path = tmp_path / "w.json"
    with Sandbox.from_scenario("skirmish", seed=4, model=model) as world:
        for _ in range(40):
            world.step()
            world.save(path)
            with Sandbox.load(path) as loaded:
                assert loaded.tick == world.tick
