"""Replaying a ``sandbox run --log`` file in the viewer: no simulation, the creatures' states folded from the
events alone, and the same fight on screen as the live run showed."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.eventlog import write_jsonl
from sandbox.viewer import ReplayError, Viewer
from sandbox.viewer.feeds import LiveFeed
from sandbox.world import Sandbox
from tests.test_viewer import drawn_text

pytestmark = pytest.mark.usefixtures("dummy_display")  # tests/conftest.py

runner = CliRunner()


def run_log(tmp_path: Path, scenario: str, seed: int, model: str) -> Path:
    """``sandbox run SCENARIO --log``, as a user writes one."""
    log = tmp_path / f"{scenario}-{model}.jsonl"
    result = runner.invoke(app, ["run", scenario, "--seed", str(seed), "--model", model, "--log", str(log), "-q"])
    assert result.exit_code == 0, result.output
    return log


def live_scenes(scenario: str, seed: int, model: str) -> LiveFeed:
    """The same fight, played live to its end."""
    feed = LiveFeed(Sandbox.from_scenario(scenario, seed=seed, model=model), owned=True)
    scenes = [feed.shown.scene]
    while not feed.shown.scene.finished:
        feed.step()
        scenes.append(feed.shown.scene)
    feed.scenes = scenes  # type: ignore[attr-defined]
    return feed


@pytest.mark.parametrize(("model", "seed"), [("anatomy", 1), ("severity", 2), ("depth", 3)])
def test_a_replay_shows_tick_by_tick_what_the_live_fight_showed(tmp_path: Path, model: str, seed: int) -> None:
    log = run_log(tmp_path, "skirmish", seed, model)
    live = live_scenes("skirmish", seed, model)
    viewer = Viewer.replay(log)
    try:
        feed = viewer.panes[0].feed
        assert viewer.world is None and feed.model == model and "Skirmish (replay of" in feed.title
        assert feed.names == live.names
        for tick, scene in enumerate(live.scenes):  # type: ignore[attr-defined]
            viewer.seek(tick)
            shown = viewer.panes[0].shown.scene
            assert shown.tick == tick
            for entity, expected in scene.readouts.items():
                got = shown.readouts[entity]
                assert (got.alive, got.can_act) == (expected.alive, expected.can_act), (tick, entity)
                if model == "anatomy":
                    assert (got.label, got.health, got.band, got.shock) == \
                        (expected.label, expected.health, expected.band, expected.shock), (tick, entity)
                    assert [(w.location, w.part, w.level, w.aspect, w.bleeding) for w in got.wounds] == \
                        [(w.location, w.part, w.level, w.aspect, w.bleeding) for w in expected.wounds], (tick, entity)
                    assert got.severed == expected.severed
                    assert [(p.name, p.penalty, p.unusable) for p in got.parts] == \
                        [(p.name, p.penalty, p.unusable) for p in expected.parts]
                elif not expected.alive:  # a point model logs a creature's state when it worsens, not always when
                    assert got.label == expected.label == "dead"  # it mends (a stun wearing off): death it logs
            assert [(f.x, f.y) for f in shown.figures.values()] == [
                (f.x, f.y) for f in live.scenes[0].figures.values()]  # type: ignore[attr-defined]
        assert viewer.panes[0].shown.scene.verdict == live.shown.scene.verdict
        names = feed.names
        assert [(a.tick, a.attacker, a.target, a.struck, a.label, a.after(names)) for a in viewer.records] == \
            [(a.tick, a.attacker, a.target, a.struck, a.label, a.after(names)) for a in live.shown.attacks]
    finally:
        viewer.close()
        live.close()


def test_a_replay_runs_no_simulation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = run_log(tmp_path, "duel", 1, "anatomy")

    def refuse(*_: object) -> None:
        raise AssertionError("a replay ticked a world")

    monkeypatch.setattr(Sandbox, "step", refuse)
    monkeypatch.setattr(Sandbox, "run", refuse)
    viewer = Viewer.replay(log)
    try:
        viewer.set_speed(32)
        for _ in range(120):
            viewer.update(1 / 30)
            viewer.draw()
        assert viewer.finished and viewer.tick == viewer.panes[0].shown.played > 0
        press_left = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0)
        viewer.handle(press_left)
        assert viewer.tick == viewer.panes[0].shown.played - 1
    finally:
        viewer.close()


def test_the_cast_is_found_named_or_refused(tmp_path: Path) -> None:
    log = run_log(tmp_path, "wolf_pack", 3, "anatomy")
    found = Viewer.replay(log)
    named = Viewer.replay(log, "wolf_pack")
    try:
        assert found.panes[0].feed.title.startswith("Wolf pack (replay of") and found.panes[0].feed.bounds is not None
        assert named.panes[0].shown.scene.figures.keys() == found.panes[0].shown.scene.figures.keys()
        assert all(f.body is not None for f in found.panes[0].shown.scene.figures.values())
    finally:
        found.close()
        named.close()
    with pytest.raises(ReplayError, match="not the scenario's"):
        Viewer.replay(log, "duel")


def test_a_replay_with_no_scenario_stands_its_creatures_in_a_ring(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    world = Sandbox(seed=2)
    world.spawn("human", name="Sir Kay", team="Camelot", position=(0, 0), weapons=["broadsword"])
    world.spawn("human", name="Sir Bors", team="Carbonek", position=(1, 0), weapons=["battleaxe"])
    world.run(15)
    log = tmp_path / "own.jsonl"
    with log.open("w", encoding="utf-8") as fh:
        write_jsonl(world.events, world.names, fh)
    live = {e: world.readout(e) for e in world.creatures()}
    world.close()
    viewer = Viewer.replay(log)
    try:
        feed = viewer.panes[0].feed
        assert feed.title == "replay of own.jsonl" and feed.bounds is None
        viewer.seek(15)
        scene = viewer.panes[0].shown.scene
        assert [f.name for f in scene.figures.values()] == ["Sir Kay", "Sir Bors"]
        assert all(f.body is None and f.team == "" for f in scene.figures.values())
        assert (scene.figures[1].x, scene.figures[1].y) != (scene.figures[2].x, scene.figures[2].y)
        for entity, expected in live.items():
            got = scene.readouts[entity]
            assert [(w.location, w.part, w.level) for w in got.wounds] == \
                [(w.location, w.part, w.level) for w in expected.wounds]
        viewer.select("Sir Bors")
        text = drawn_text(monkeypatch, viewer)
        viewer.draw()
        assert "body unknown (a replay with no scenario)" in text
    finally:
        viewer.close()


@pytest.mark.parametrize(("content", "message"), [
    ("", "no events"),
    ('{"type": "Died", "tick": 1}\n', "line 1"),
    ("not json\n", "line 1"),
])
def test_a_file_that_is_not_a_log_is_refused_with_its_line(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(ReplayError, match=message):
        Viewer.replay(bad)
    result = runner.invoke(app, ["view", "--replay", str(bad), "--frames", "3"])
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_view_replays_a_log_headless(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duel", 3, "anatomy")
    shot = tmp_path / "replay.png"
    result = runner.invoke(app, ["view", "--replay", str(log), "--frames", "90", "--speed", "8", "--screenshot",
                                 str(shot), "--select", "Bertram"])
    assert result.exit_code == 0, result.output
    assert "rendered 90 frames, tick 12" in result.stdout
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)
    result = runner.invoke(app, ["view", "duel", "--replay", str(log), "--frames", "3"])
    assert result.exit_code == 0, result.output
