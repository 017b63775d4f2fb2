"""The viewer on the array engine, headless: ``sandbox view SCENARIO --engine array`` renders the array world's fight,
the scene at a tick is the array world's own state at that tick, going back and forth in time shows exactly what
playing straight through showed, a restart builds an array world with the next seed, the location card's odds work,
and what the array engine cannot run is refused before any work.

Everything runs on SDL's dummy drivers: no window, no sound.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from typer.testing import CliRunner

from sandbox.array_world import TRACE_ALL, ArrayWorld
from sandbox.cli import app
from sandbox.components.log import LogEntry
from sandbox.systems.models.anatomy.record import AttackRecord
from sandbox.viewer import Viewer, run_headless
from sandbox.viewer.entries import Attack
from sandbox.viewer.feeds import LiveFeed
from sandbox.viewer.odds import LocationOdds
from sandbox.viewer.scene import Scene
from sandbox.world import SandboxError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


pytestmark = pytest.mark.usefixtures("dummy_display")  # tests/conftest.py


def played_through(viewer: Viewer) -> list[Scene]:
    """Tick ``viewer`` to the end of its fight; the scene of every tick, from the first."""
    scenes = [viewer.panes[0].shown.scene]
    while not viewer.finished:
        viewer.tick_once()
        scenes.append(viewer.panes[0].shown.scene)
    return scenes


def entries(log: list[LogEntry]) -> list[str]:
    """A log as text, entry by entry: a record as its explanation in full (aim, rolls, location, wound, shock), an
    event as its fields (two logs are the same fight's when these are equal)."""
    names = {i: f"#{i}" for i in range(1, 300)}
    return ["\n".join(e.explain(names)) if isinstance(e, AttackRecord) else repr(e) for e in log]


def told(attacks: tuple[Attack, ...], names: dict[int, str]) -> list[tuple[object, ...]]:
    """Attacks as the log panel tells them: each record's explanation in full, what followed it, its label (a
    record compares by identity, so two runs' records are compared by what they say)."""
    return [(tuple(a.entry.explain(names)), repr(a.follows), a.label) for a in attacks]


def same_scene(shown: Scene, seen: Scene, names: dict[int, str]) -> bool:
    """Whether two scenes show the same: every figure and readout, the tick's attacks as told, the verdict."""
    return (shown.tick, shown.time, shown.figures, shown.readouts, shown.logged, shown.finished, shown.verdict) == (
        seen.tick, seen.time, seen.figures, seen.readouts, seen.logged, seen.finished, seen.verdict) and told(
        shown.attacks, names) == told(seen.attacks, names)


@pytest.fixture(scope="module")
def skirmish() -> Iterator[tuple[Viewer, list[Scene]]]:
    """The skirmish on the array engine (seed 0), played straight to its end, and its scene of every tick
    (read-only)."""
    viewer = Viewer("skirmish", seed=0, engine="array")
    scenes = played_through(viewer)
    viewer.draw()
    yield viewer, scenes
    viewer.close()


# ---------------------------------------------------------------------------------------------- the view command


@pytest.mark.parametrize("scenario", ["duel", "skirmish"])
def test_view_renders_the_array_engine_headless_and_saves_a_png(scenario: str, tmp_path: Path) -> None:
    shot = tmp_path / f"{scenario}.png"
    result = runner.invoke(app, ["view", scenario, "--engine", "array", "--frames", "60", "--speed", "8",
                                 "--screenshot", str(shot)])
    assert result.exit_code == 0, result.output
    assert "rendered 60 frames" in result.stdout and f"saved {shot}" in result.stdout
    assert shot.read_bytes().startswith(b"\x89PNG")
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 800)
    assert len({tuple(image.get_at((x, y))) for x in range(0, 1280, 16) for y in range(0, 800, 16)}) > 3


@pytest.mark.parametrize(("args", "words"), [
    (["--engine", "gpu"], "unknown engine 'gpu'"),
    (["--engine", "array", "--model", "severity"], "does not run the 'severity' damage model"),
    (["--engine", "array", "--model", "anatomy,depth"], "does not run the 'depth' damage model"),
    (["--engine", "array", "--model", "all"], "--model all (every model side by side) runs on the esper engine only"),
    (["--engine", "array", "--load", "duel.json"], "--load (it watches a saved esper world"),
    (["--engine", "array", "--replay", "duel.jsonl"], "--replay (it replays the log of an esper world)"),
])
def test_view_refuses_what_the_array_engine_cannot_run(args: list[str], words: str, tmp_path: Path) -> None:
    shot = tmp_path / "x.png"
    where = ["duel"] if "--load" not in args and "--replay" not in args else []
    result = runner.invoke(app, ["view", *where, *args, "--frames", "5", "--screenshot", str(shot)])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert not shot.exists() and result.stdout == ""


def test_view_refuses_a_scenario_the_array_engine_cannot_run(tmp_path: Path) -> None:
    long = tmp_path / "long_duel.toml"
    long.write_text((ROOT / "configs/scenarios/duel.toml").read_text(encoding="utf-8").replace(
        "max_ticks = 200", "max_ticks = 5000").replace("#:schema ../schemas/", "#:schema "), encoding="utf-8")
    shot = tmp_path / "x.png"
    for scenario, words in (("shield_and_draught", "does not run the 'strength' damage model"),
                            (str(long), "at most 1439 ticks")):
        result = runner.invoke(app, ["view", scenario, "--engine", "array", "--frames", "5", "--screenshot",
                                     str(shot)])
        assert result.exit_code == 2, result.output
        assert words in result.stderr and "Traceback" not in result.output
        assert not shot.exists()


def test_run_keeps_its_refusals_through_the_shared_check() -> None:
    for args, words in ((["--engine", "gpu"], "unknown engine 'gpu'"),
                        (["--engine", "array", "--model", "depth"], "does not run the 'depth' damage model"),
                        (["--engine", "array", "--aftermath", "3"], "--aftermath runs on the esper engine only")):
        result = runner.invoke(app, ["run", "duel", *args])
        assert result.exit_code == 2, result.output
        assert words in result.stderr


# ---------------------------------------------------------------------------------------------- what is shown


def test_the_viewer_watches_an_array_world_traced_in_full(skirmish: tuple[Viewer, list[Scene]]) -> None:
    viewer, _ = skirmish
    world = viewer.world
    assert isinstance(world, ArrayWorld) and world.engine_name == "array"
    records = [e for e in world.log if isinstance(e, AttackRecord)]
    assert records and len(viewer.records) == len(records)  # every landed blow, as its explained record
    attackers = {r.attacker for r in records}
    assert len(attackers) > 2  # not one traced creature: all of them
    assert all(a.struck for a in viewer.records)
    assert viewer.panes[0].feed.note == "the array engine: the log lists the blows that landed"


@pytest.mark.parametrize("tick", [0, 1, 4, 7])
def test_the_scene_at_a_tick_is_the_array_worlds_own_state_at_that_tick(
        skirmish: tuple[Viewer, list[Scene]], tick: int) -> None:
    _, scenes = skirmish
    world = ArrayWorld.from_scenario("skirmish", seed=0, trace=TRACE_ALL)
    for _ in range(tick):
        world.step()
    scene = scenes[tick]
    assert scene.tick == world.tick == tick and scene.time == pytest.approx(world.time)
    creatures = world.creatures()
    assert set(scene.figures) == set(creatures)
    for entity, c in creatures.items():
        figure = scene.figures[entity]
        assert (figure.name, figure.team) == (c.identity.name, c.combatant.team)
        assert (figure.x, figure.y) == (c.position.x, c.position.y)
        assert (figure.dead, figure.out, figure.prone) == (c.condition.dead, c.condition.out, c.condition.prone)
        assert scene.readouts[entity] == world.readout(entity)
    assert scene.logged == sum(isinstance(e, AttackRecord) for e in world.log)


def test_the_body_panel_and_log_draw_an_array_world_with_wounds(skirmish: tuple[Viewer, list[Scene]]) -> None:
    viewer, scenes = skirmish
    wounded = max(scenes[-1].readouts, key=lambda e: len(scenes[-1].readouts[e].wounds))
    assert scenes[-1].readouts[wounded].wounds
    viewer.select(scenes[-1].figures[wounded].name)
    viewer.draw()
    pane = viewer.panes[0]
    assert pane.drawn_body is not None and pane.drawn_log is not None
    assert scenes[-1].finished and scenes[-1].verdict


# ---------------------------------------------------------------------------------------------- time


def test_an_array_worlds_copy_goes_on_exactly_as_the_world_does() -> None:
    world = ArrayWorld.from_scenario("skirmish", seed=5, trace=TRACE_ALL)
    for _ in range(3):
        world.step()
    twin = world.copy(log=())
    assert twin.tick == world.tick and twin.log == [] and twin.engine is not world.engine
    start = len(world.log)
    for _ in range(12):
        world.step()
        twin.step()
    assert entries(twin.log) == entries(world.log[start:])
    assert [twin.readout(e) for e in twin.names] == [world.readout(e) for e in world.names]


def test_seeking_back_and_forth_shows_exactly_what_playing_straight_showed(
        skirmish: tuple[Viewer, list[Scene]]) -> None:
    straight, scenes = skirmish
    viewer = Viewer("skirmish", seed=0, engine="array")
    try:
        played_through(viewer)
        names = viewer.panes[0].feed.names
        last = len(scenes) - 1
        for tick in (last - 1, 2, last, 0, 5, 1, last):  # back, further back, forward, to the start and on
            viewer.seek(tick)
            viewer.worker.drain()
            shown = viewer.panes[0].shown
            assert same_scene(shown.scene, scenes[tick], names), tick
            assert told(shown.attacks, names) == told(straight.panes[0].shown.attacks[:scenes[tick].logged], names)
        viewer.seek(3)
        viewer.worker.drain()
        while viewer.panes[0].shown.scene.tick < last:  # replayed from the world restored at tick 3
            viewer.step()
            viewer.worker.drain()
            assert same_scene(viewer.panes[0].shown.scene, scenes[viewer.tick], names)
        world, first = viewer.world, straight.world
        assert world is not None and first is not None and world is not first
        assert entries(world.log) == entries(first.log)
    finally:
        viewer.close()


def long_duel_seed(ticks: int) -> int:
    """The first seed whose duel on the array engine is still going after ``ticks`` ticks."""
    for seed in range(100):
        if ArrayWorld.from_scenario("duel", seed=seed).run(ticks).reason == "tick limit":
            return seed
    raise AssertionError(f"no duel of the first 100 seeds lasts {ticks} ticks")


def test_a_feed_restores_an_array_world_from_its_snapshots() -> None:
    seed = long_duel_seed(10)  # the fight must go on for every tick the test seeks
    straight = ArrayWorld.from_scenario("duel", seed=seed, trace=TRACE_ALL)
    feed = LiveFeed(ArrayWorld.from_scenario("duel", seed=seed, trace=TRACE_ALL), snapshot_every=2, owned=True)
    scenes = [feed.shown.scene]
    for _ in range(9):
        feed.step()
        scenes.append(feed.shown.scene)
    for _ in range(9):
        straight.step()
    assert len(feed.fight.snapshots) >= 4
    for tick in (8, 3, 6, 1, 9):
        feed.seek(tick)
        assert same_scene(feed.shown.scene, scenes[tick], feed.names) and feed.world.tick == tick
        assert entries(feed.world.log) == entries(straight.log[:len(feed.world.log)])
    assert entries(feed.world.log) == entries(straight.log)
    feed.close()


def test_restarting_builds_an_array_world_with_the_next_seed_and_another_fight(
        skirmish: tuple[Viewer, list[Scene]]) -> None:
    first, _ = skirmish
    viewer = Viewer("skirmish", seed=0, engine="array")
    try:
        viewer.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0))
        assert viewer.seed == 1 and viewer.tick == 0 and "seed 1" in viewer.status
        world = viewer.world
        assert isinstance(world, ArrayWorld) and world.seed == 1
        played_through(viewer)
        assert first.world is not None and viewer.world is not None
        assert entries(viewer.world.log) != entries(first.world.log)
        viewer.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0))
        assert "runs only the anatomy model" in viewer.status  # M keeps to the models the array engine runs
    finally:
        viewer.close()


# ---------------------------------------------------------------------------------------------- the Python API


def test_the_location_card_computes_exact_odds_on_an_array_world(skirmish: tuple[Viewer, list[Scene]]) -> None:
    viewer, _ = skirmish
    feed = viewer.panes[0].feed
    scene = feed.shown.scene
    attacker = next(f for f in scene.figures.values() if f.mode and not f.dead)
    defender = next(f for f in scene.figures.values() if f.team != attacker.team and f.has_body)
    feed.compute_odds(attacker.entity, defender.entity, 0)
    odds = feed.odds[(attacker.entity, defender.entity, 0, scene.tick)]
    assert isinstance(odds, LocationOdds), odds
    assert 0.0 <= odds.struck <= 1.0 and sum(odds.levels) == pytest.approx(1.0)


def test_a_viewer_watches_an_array_world_handed_in() -> None:
    world = ArrayWorld.from_scenario("duel", seed=2, trace=TRACE_ALL)
    viewer = run_headless(world, frames=30, speed=8)
    try:
        assert viewer.world is world and viewer.tick == 4 and world.tick == 4  # your world, ticked in place
        assert viewer.engine == "array"
    finally:
        viewer.close()


def test_an_engine_goes_with_a_scenario_only() -> None:
    with pytest.raises(ValueError, match="brings its own engine"):
        Viewer(lambda seed, model: ArrayWorld.from_scenario("duel", seed, model), engine="array")
    with pytest.raises(SandboxError, match="unknown engine 'gpu'"):
        Viewer("duel", engine="gpu")
