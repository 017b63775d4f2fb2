"""The viewer in time: the timeline (back and forth to any tick played, by snapshots and ticks between them, the
same events as the uninterrupted run under every model), its marks, a saved world watched from its tick on, and a
world a developer built (``Viewer(world)``, or a function of seed and model)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from sandbox.components.events import AttackDeclared, D20AttackRolled
from sandbox.components.readout import Readout
from sandbox.models import available_models
from sandbox.viewer import Viewer
from sandbox.viewer.entries import EventAttack
from sandbox.viewer.feeds import LiveFeed
from sandbox.viewer.snapshots import MOST_TICKS, Snapshots
from sandbox.viewer.theme import LANDED, PANEL_DARK, fade
from sandbox.world import Sandbox
from tests.test_viewer import click, drag, press

pytestmark = pytest.mark.usefixtures("dummy_display")  # tests/conftest.py


def reference(scenario: str, seed: int, model: str, ticks: int) -> tuple[list[list[str]], list[dict[int, Readout]]]:
    """An uninterrupted run: each tick's log entries explained (entry by entry), and the readouts after each."""
    world = Sandbox.from_scenario(scenario, seed=seed, model=model)
    try:
        names = world.names
        explained: list[list[str]] = [[]]
        readouts = [{e: world.readout(e) for e in world.creatures()}]
        for _ in range(ticks):
            start = len(world.log)
            world.step()
            explained.append([" | ".join(e.explain(names)) for e in world.log[start:]])
            readouts.append({e: world.readout(e) for e in world.creatures()})
        return explained, readouts
    finally:
        world.close()


def shown_log(viewer: Viewer) -> list[list[str]]:
    """The log of the world on screen, explained, by tick."""
    world = viewer.world
    assert world is not None
    names = world.names
    by_tick: list[list[str]] = [[] for _ in range(world.tick + 1)]
    for entry in world.log:
        by_tick[entry.tick].append(" | ".join(entry.explain(names)))
    return by_tick


@pytest.mark.parametrize("model", list(available_models()))
def test_going_back_and_forth_gives_what_the_uninterrupted_run_gave(model: str) -> None:
    explained, readouts = reference("skirmish", 1, model, 26)
    viewer = Viewer("skirmish", seed=1, models=[model])
    try:
        played = 0
        for _ in range(20):
            viewer.tick_once()
            played = viewer.tick
        for tick in (3, 17, 9, min(20, played), 0, 12):
            viewer.seek(tick)
            target = min(tick, played)
            assert viewer.tick == target
            assert viewer.panes[0].shown.scene.readouts == readouts[target], (model, tick)
            assert shown_log(viewer) == explained[:target + 1], (model, tick)
            assert all(a.tick <= target for a in viewer.records)
        while viewer.tick < 26 and not viewer.finished:  # on past the ticks played, from a world restored
            viewer.tick_once()
        end = viewer.tick
        assert viewer.panes[0].shown.scene.readouts == readouts[end]
        assert shown_log(viewer) == explained[:end + 1]
    finally:
        viewer.close()


def test_a_scrub_restores_the_latest_snapshot_and_ticks_at_most_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    every = 8
    world = Sandbox.from_scenario("battle", seed=1)
    viewer = Viewer(LiveFeed(world, owned=True, snapshot_every=every))
    try:
        for _ in range(40):
            viewer.tick_once()
        feed = viewer.panes[0].feed
        assert isinstance(feed, LiveFeed)
        assert len(feed.fight.snapshots) == 40 // every + 1
        ticked: list[int] = []
        original = LiveFeed._tick

        def counting(self: LiveFeed) -> object:
            ticked.append(self.world.tick)
            return original(self)

        monkeypatch.setattr(LiveFeed, "_tick", counting)
        for tick in (37, 3, 16, 23, 40, 0):
            ticked.clear()
            viewer.seek(tick)
            assert viewer.tick == tick
            assert len(ticked) == tick % every, (tick, ticked)
    finally:
        viewer.close()


@pytest.mark.parametrize(("cost", "gap"), [(0.001, MOST_TICKS), (0.015, 3), (0.05, 1)])
def test_snapshots_come_as_often_as_the_ticks_cost(cost: float, gap: int) -> None:
    world = Sandbox.from_scenario("duel", seed=1)
    try:
        snapshots = Snapshots()
        assert snapshots.due(0)
        snapshots.keep(world)
        kept = []
        for _ in range(2 * MOST_TICKS):
            world.step()
            if snapshots.due(world.tick, cost):  # as if each tick took ``cost`` CPU seconds
                snapshots.keep(world)
                kept.append(world.tick)
        assert kept[:2] == [gap, 2 * gap]
        assert snapshots.latest(gap - 1) is not None and snapshots.latest(gap - 1).tick == 0  # type: ignore[union-attr]
    finally:
        world.close()


def test_the_timeline_marks_each_tick_s_landed_blows_and_who_went_down() -> None:
    viewer = Viewer("skirmish", seed=1)
    try:
        downs_seen: list[str] = []
        was_up = {name: True for name in viewer.panes[0].feed.names.values()}
        while not viewer.finished:
            viewer.tick_once()
            shown = viewer.panes[0].shown
            marks = shown.marks[viewer.tick]
            assert marks.landed == sum(1 for a in shown.scene.attacks if a.struck)
            went = sorted(f.name for f in shown.scene.figures.values()
                          if was_up[f.name] and not shown.scene.readouts[f.entity].can_act)
            assert sorted(marks.downs) == went
            downs_seen += went
            for f in shown.scene.figures.values():
                was_up[f.name] = shown.scene.readouts[f.entity].can_act
        assert downs_seen  # somebody went down
        marks = dict(viewer.panes[0].shown.marks)
        viewer.seek(2)
        assert dict(viewer.panes[0].shown.marks) == marks  # the marks of every tick played stay in view
    finally:
        viewer.close()


def test_clicking_and_dragging_the_timeline_scrubs(tmp_path: Path) -> None:
    viewer = Viewer("skirmish", seed=1)
    try:
        for _ in range(20):
            viewer.tick_once()
        viewer.draw()
        span = viewer._span
        assert span is not None
        y = viewer._timeline_rect().centery
        click(viewer, (span.x(5), y))
        assert viewer.tick == 5 and viewer.paused
        drag(viewer, (span.x(2), y), (span.x(14), y))
        assert viewer.tick == 14
        viewer.draw()
        busiest = max(viewer.panes[0].shown.marks.items(), key=lambda kv: kv[1].landed)[0]
        bar = (span.x(busiest), viewer._timeline_rect().y + 3 + (viewer._timeline_rect().height - 16) - 4)
        assert tuple(viewer.surface.get_at(bar))[:3] == fade(LANDED, 0.75, PANEL_DARK)
        press(viewer, pygame.K_END)
        assert viewer.tick == 20
    finally:
        viewer.close()


# ---------------------------------------------------------------------------------------------- a saved world


@pytest.fixture
def saved(tmp_path: Path) -> Iterator[Path]:
    """The skirmish under severity (seed 1: it lasts 14 ticks) saved at tick 4."""
    world = Sandbox.from_scenario("skirmish", seed=1, model="severity")
    try:
        for _ in range(4):
            world.step()
        world.save(tmp_path / "skirmish.json")
    finally:
        world.close()
    yield tmp_path / "skirmish.json"


def test_a_saved_world_opens_at_its_tick_and_goes_on_as_the_uninterrupted_run(saved: Path) -> None:
    explained, readouts = reference("skirmish", 1, "severity", 12)
    viewer = Viewer.saved(saved)
    try:
        assert viewer.tick == 4 and viewer.panes[0].shown.start == 4
        assert "Skirmish" in viewer.panes[0].feed.title and viewer.panes[0].feed.model == "severity"
        assert viewer.panes[0].shown.scene.readouts == readouts[4]
        for _ in range(8):
            viewer.tick_once()
        assert viewer.tick == 12
        assert viewer.panes[0].shown.scene.readouts == readouts[12]
        assert shown_log(viewer)[5:] == explained[5:13]
        viewer.seek(0)
        assert viewer.tick == 4  # the save is where its timeline starts
        viewer.seek(9)
        assert viewer.panes[0].shown.scene.readouts == readouts[9]
    finally:
        viewer.close()


def test_a_point_model_s_attack_read_back_from_events_never_mixes_two_attacks(saved: Path) -> None:
    viewer = Viewer.saved(saved)
    try:
        names = viewer.panes[0].feed.names
        before = [a for a in viewer.records if a.tick <= 4]
        assert before and all(isinstance(a.entry, EventAttack) for a in before)
        for attack in before:
            entry = attack.entry
            assert isinstance(entry, EventAttack)
            declared = [e for e in entry.steps if isinstance(e, AttackDeclared)]
            assert declared == [entry.steps[0]]
            rolls = [e for e in entry.steps if isinstance(e, D20AttackRolled)]
            assert all(r.mode == declared[0].mode and r.attacker == entry.attacker for r in rolls)
            lines = attack.explain(names)
            assert lines[0].startswith(f"Tick {attack.tick}: {names[entry.attacker]} attacks {names[entry.target]}")
            assert not any("D20AttackRolled:" in line or "AttackDeclared:" in line for line in lines)
        assert any(a.struck for a in before) and any(not a.struck for a in before)
    finally:
        viewer.close()


# ---------------------------------------------------------------------------------------------- a world of your own


def test_a_world_a_developer_built_is_watched_and_ticked_as_it_is() -> None:
    world = Sandbox(seed=3)
    world.spawn("human", name="Gawain", team="Round Table", position=(0, 0), weapons=["broadsword"])
    world.spawn("human", name="Green Knight", team="Green Chapel", position=(2, 0), weapons=["battleaxe"])
    world.spawn("wolf", name="Hound", team="Green Chapel", position=(3, 1))
    viewer = Viewer(world, title="The Green Chapel")
    try:
        viewer.draw()
        assert viewer.world is world and viewer.panes[0].feed.title == "The Green Chapel"
        assert list(viewer.teams) == ["Round Table", "Green Chapel"]
        assert viewer.teams["Round Table"] != viewer.teams["Green Chapel"]
        for _ in range(4):
            viewer.tick_once()
        assert world.tick == 4 and viewer.world is world  # your world, ticked in place
        assert [a.entry for a in viewer.records] == [e for e in world.log if e.headline]
        press(viewer, pygame.K_m)
        assert "keeps its model" in viewer.status and viewer.world is world
        press(viewer, pygame.K_r)
        assert viewer.tick == 0 and "start" in viewer.status
        assert world.tick == 4  # going back restored a copy; your world is as you left it
        with pytest.raises(ValueError, match="function of"):
            Viewer(world, models=["anatomy", "severity"])
    finally:
        viewer.close()
        world.close()


def test_a_function_of_seed_and_model_builds_the_world_again_on_restart_and_per_model() -> None:
    built: list[tuple[int, str | None]] = []

    def build(seed: int, model: str | None) -> Sandbox:
        built.append((seed, model))
        world = Sandbox(seed=seed, model=model)
        world.spawn("human", name="Aldric", team="Red", position=(0, 0), weapons=["battleaxe"])
        world.spawn("human", name="Bertram", team="Blue", position=(1, 0), weapons=["broadsword"])
        return world

    viewer = Viewer(build, seed=7, models=["anatomy", "status"])
    try:
        assert built == [(7, "anatomy"), (7, "status")]
        assert [p.feed.model for p in viewer.panes] == ["anatomy", "status"]
        viewer.tick_once()
        press(viewer, pygame.K_r)
        assert built[2:] == [(8, "anatomy"), (8, "status")] and viewer.tick == 0
    finally:
        viewer.close()
