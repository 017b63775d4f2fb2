"""Wounds named by location under the severity and status-ladder models (issue 32, problem 7).

Documents 001 and 004 decide a wound with no hit location; the sandbox places each landed blow's wound on the
location it struck (``sandbox.systems.placement``), from the world's ``location`` stream, which no rule draws from:
the fight's rolls and its log stay what they were (``tests/test_golden.py`` holds the logs). The place lives in the
model's state (``placed``), so a save carries it and a save from before it still loads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox.components.models.severity import SeverityState
from sandbox.components.readout import NO_LOCATIONS, UNPLACED
from sandbox.persistence import SaveError
from sandbox.world import Sandbox, SandboxError

PLACING = ("severity", "status")


def hero(model: str, seed: int = 4) -> Sandbox:
    world = Sandbox(seed=seed, model=model)
    world.spawn("human", name="Hero")
    return world


def wound_places(world: Sandbox) -> list[tuple[str, str]]:
    return [(w.location, w.part) for w in world.readout("Hero").wounds]


@pytest.mark.parametrize("model", PLACING)
def test_a_blow_is_placed_where_it_was_aimed(model: str) -> None:
    with hero(model) as world:
        placed: list[tuple[str, str]] = []
        for aim in ("Skull", "Left Leg", "unaimed"):
            for _ in range(20):  # light blows until one leaves a wound (a severity blow may roll Severity 0)
                world.strike("Hero", "dagger.cut", aim=aim)
                if wound_places(world) != placed:
                    break
            new = [w for w in wound_places(world) if w not in placed]
            assert new, aim
            placed = wound_places(world)
            if aim == "Skull":
                assert new == [("Skull", "Head")]
            elif aim == "Left Leg":
                assert all(part == "Left Leg" for _, part in new)
        r = world.readout("Hero")
        body = world.catalog.bodies["human"]
        assert r.wounds and all(w.placed for w in r.wounds)
        assert {w.location for w in r.wounds} <= {loc.name for loc in body.locations}


@pytest.mark.parametrize("model", PLACING)
def test_placing_draws_from_the_location_stream_only(model: str) -> None:
    """The same blows aimed and unaimed: every other stream ends where it would have, and the events are the same."""
    worlds = [hero(model), hero(model)]
    for world, aim in zip(worlds, ("Skull", "unaimed"), strict=True):
        for _ in range(4):
            world.strike("Hero", "broadsword.cut", aim=aim)
    (a, b) = worlds
    for purpose in a.ctx.streams:
        if purpose != "location":
            assert a.ctx.streams[purpose].getstate() == b.ctx.streams[purpose].getstate(), purpose
    assert [type(e).__name__ for e in a.events] == [type(e).__name__ for e in b.events]
    assert [getattr(e, "dealt", None) for e in a.events] == [getattr(e, "dealt", None) for e in b.events]
    for world in worlds:
        world.close()


def test_severity_heals_the_oldest_placed_wound_first() -> None:
    with hero("severity") as world:
        world.inflict("Hero", severity=1, effect="slow", location="Skull")
        world.inflict("Hero", severity=1, effect="slow", location="Left Forearm")
        world.inflict("Hero", severity=1, effect="slow", location="Left Forearm")
        assert [(w.location, w.level) for w in world.readout("Hero").wounds] == [
            ("Skull", "slow 1"), ("Left Forearm", "slow 2")]  # one reading a location
        for _ in range(24):  # first aid and rest take points off the counter, not off a place
            world.advance(hours=1)
            if world.get("Hero", SeverityState).slow < 3:
                break
        left = world.get("Hero", SeverityState).slow
        assert left in (1, 2)
        assert [(w.location, w.level) for w in world.readout("Hero").wounds] == [("Left Forearm", f"slow {left}")]


def test_the_status_ladder_heals_the_oldest_placed_wound_first() -> None:
    with hero("status") as world:
        world.inflict("Hero", damage=5, location="Skull")
        world.inflict("Hero", damage=5, location="Left Forearm")  # 10 HP: slightly wounded, 2 minor
        assert [(w.location, w.level) for w in world.readout("Hero").wounds] == [
            ("Skull", "5 HP"), ("Left Forearm", "5 HP")]
        world.advance(hours=9)  # the minor injuries fade: 8 HP (one rung) still count
        assert [(w.location, w.level) for w in world.readout("Hero").wounds] == [
            ("Skull", "3 HP"), ("Left Forearm", "5 HP")]


@pytest.mark.parametrize("model", PLACING)
def test_inflict_takes_a_location_or_part_and_refuses_another(model: str) -> None:
    wound: dict[str, object] = {"severity": 1, "effect": "stagger"} if model == "severity" else {"damage": 3}
    with hero(model) as world:
        world.inflict("Hero", location="Right Arm", **wound)
        assert wound_places(world)[-1][1] == "Right Arm"
        world.inflict("Hero", **wound)
        assert (UNPLACED, UNPLACED) in wound_places(world)
        assert not world.readout("Hero").wounds[-1].placed
        before = world.readout("Hero")
        with pytest.raises(SandboxError, match="no part or location 'Tail'"):
            world.inflict("Hero", location="Tail", **wound)
        with pytest.raises(SandboxError, match="location is the name of a location or part"):
            world.inflict("Hero", location=3, **wound)  # type: ignore[arg-type]
        assert world.readout("Hero") == before  # refused: nothing changed


def test_a_model_with_no_locations_says_so() -> None:
    with hero("strength") as world:
        world.inflict("Hero", damage=3)
        with world.active():
            model = world.damage_model
            model.roll_injury(world.creatures()[world.entity("Hero")], world.ctx, 4)  # type: ignore[attr-defined]
        wounds = world.readout("Hero").wounds
        assert wounds and all((w.location, w.part, w.placed) == (NO_LOCATIONS, NO_LOCATIONS, False) for w in wounds)


@pytest.mark.parametrize("model", PLACING)
def test_a_save_keeps_the_places_and_one_from_before_them_still_loads(model: str, tmp_path: Path) -> None:
    with hero(model) as world:
        world.inflict("Hero", location="Skull", **({"severity": 1, "effect": "stagger"} if model == "severity"
                                                   else {"damage": 3}))
        world.save(tmp_path / "new.json")
        with Sandbox.load(tmp_path / "new.json") as loaded:
            assert loaded.readout("Hero") == world.readout("Hero")
        doc = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
        state = next(iter(doc["entities"][0]["model_state"].values()))
        del state["placed"]  # a save written before wounds were placed
        (tmp_path / "old.json").write_text(json.dumps(doc), encoding="utf-8")
        with Sandbox.load(tmp_path / "old.json") as old:
            r = old.readout("Hero")
            assert r.wounds and all(w.location == UNPLACED for w in r.wounds)
            assert (r.health, r.tier) == (world.readout("Hero").health, world.readout("Hero").tier)
        state["placed"] = [{"tuple": ["bloody", 99, 1]} if model == "severity" else {"tuple": [99, 1]}]
        (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(SaveError, match=r"placed#1#(2|1): expected a location of the body"):
            Sandbox.load(tmp_path / "bad.json")
