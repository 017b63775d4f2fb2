"""The Pygame viewer, headless: frames and the fixed timestep, input, the field's labels and camera, the body panel
at location level, the wound list, the log explained, the layout, the ``view`` command and the pygame boundary.

Everything runs on SDL's dummy drivers: no window, no sound. No golden images: pixels are read only where a test
knows what must be there (a location's box away from its name, a part's outline).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.impairment import Impairment
from sandbox.components.models.anatomy import Injury
from sandbox.components.rules import LEVEL_CODES
from sandbox.components.state import Anatomy, Position
from sandbox.models import available_models
from sandbox.systems.models.anatomy.record import AttackRecord
from sandbox.viewer import SPEEDS, Viewer, run_headless
from sandbox.viewer.labels import Request, overlaps, place
from sandbox.viewer.theme import (
    GRIEVOUS,
    LEVEL_FILL,
    MINOR,
    SERIOUS,
    SEVERED,
    UNUSABLE,
    WHOLE,
    part_colour,
    wound_rank,
)
from sandbox.viewer.wounds import window, wound_rows
from sandbox.world import Sandbox
from tests.sources import module_name, source_files

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


# ---------------------------------------------------------------------------------------------- fixtures and helpers


pytestmark = pytest.mark.usefixtures("dummy_display")  # tests/conftest.py


@pytest.fixture
def duel() -> Iterator[Viewer]:
    """A fresh viewer on the duel (seed 2: Aldric and Bertram)."""
    viewer = Viewer("duel", seed=2)
    viewer.draw()
    yield viewer
    viewer.close()


@pytest.fixture
def skirmish() -> Iterator[Viewer]:
    """A fresh viewer on the skirmish (six humans, two teams)."""
    viewer = Viewer("skirmish", seed=0)
    viewer.draw()
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def watched() -> Iterator[Viewer]:
    """The skirmish rendered headless for 120 frames at 8 ticks/s (read-only for the tests that share it)."""
    viewer = run_headless("skirmish", seed=0, frames=120, size=(1024, 700), speed=8)
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def fought() -> Iterator[Viewer]:
    """The duel ticked until it is over (read-only): landed, defended and shocking blows in its log."""
    viewer = Viewer("duel", seed=2)
    while not viewer.finished:
        viewer.tick_once()
    viewer.draw()
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def battle() -> Iterator[Viewer]:
    """The battle ticked to tick 89 with its most wounded creature selected (read-only)."""
    viewer = Viewer("battle", seed=0)
    for _ in range(89):
        viewer.tick_once()
    scene = viewer.panes[0].shown.scene
    most = max(scene.readouts, key=lambda e: len(scene.readouts[e].wounds))
    viewer.select(scene.figures[most].name)
    viewer.draw()
    yield viewer
    viewer.close()


def press(viewer: Viewer, key: int, mod: int = 0) -> None:
    """A key press."""
    viewer.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod))


def click(viewer: Viewer, pos: tuple[int, int], button: int = 1) -> None:
    """A click (press and release) at ``pos``."""
    viewer.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    viewer.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=button, pos=pos))
    viewer.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=button, pos=pos))


def hover(viewer: Viewer, pos: tuple[int, int]) -> None:
    """The pointer moves to ``pos``."""
    viewer.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def wheel(viewer: Viewer, pos: tuple[int, int], clicks: int) -> None:
    """The wheel turned ``clicks`` (up: positive) with the pointer at ``pos``."""
    hover(viewer, pos)
    viewer.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=clicks))


def drag(viewer: Viewer, start: tuple[int, int], end: tuple[int, int], steps: int = 4) -> None:
    """Press at ``start``, move to ``end`` with the button held, release."""
    hover(viewer, start)
    viewer.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
    x, y = start
    for k in range(1, steps + 1):
        nx, ny = start[0] + (end[0] - start[0]) * k // steps, start[1] + (end[1] - start[1]) * k // steps
        viewer.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(nx, ny), rel=(nx - x, ny - y), buttons=(1, 0, 0)))
        x, y = nx, ny
    viewer.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))


def pixel(viewer: Viewer, pos: tuple[int, int]) -> tuple[int, int, int]:
    """The colour drawn at ``pos``."""
    return tuple(viewer.surface.get_at(pos))[:3]  # type: ignore[return-value]


def location_pixel(viewer: Viewer, name: str) -> tuple[int, int, int]:
    """The fill of the selected creature's location ``name``, read at the right of its box (its name is at the
    left, the bleeding dot at the top right)."""
    pane = viewer.panes[0]
    figure = pane.shown.scene.figures[viewer.selected]  # type: ignore[index]
    assert figure.body is not None and pane.drawn_body is not None
    rect = pane.drawn_body.locations[figure.body.location_index(name)]
    return pixel(viewer, (rect.right - 2, rect.y + rect.height // 2 + 1))


def part_outline(viewer: Viewer, name: str) -> tuple[int, int, int]:
    """The outline colour of the selected creature's part ``name`` (its left edge, half-way down)."""
    pane = viewer.panes[0]
    figure = pane.shown.scene.figures[viewer.selected]  # type: ignore[index]
    assert figure.body is not None and pane.drawn_body is not None
    rect = pane.drawn_body.parts[figure.body.part_index(name)]
    return pixel(viewer, (rect.x + 1, rect.centery))


def signature(records: list[object]) -> list[tuple[object, ...]]:
    """What identifies a fight: every attack and where its blow went."""
    out = []
    for r in records:
        assert isinstance(r, AttackRecord)
        out.append((r.tick, r.attacker, r.target, r.mode, r.attack, r.defence, r.landed,
                    None if r.blow is None else (r.blow.location, r.blow.level, r.blow.missed)))
    return out


def drawn_text(monkeypatch: pytest.MonkeyPatch, viewer: Viewer) -> list[str]:
    """Spy on every line the viewer renders from now on; returns the (growing) list."""
    seen: list[str] = []
    original = viewer.type_.render

    def spy(text: str, *args: object, **kwargs: object) -> pygame.Surface:
        seen.append(text)
        return original(text, *args, **kwargs)  # type: ignore[arg-type]

    viewer.type_._cache.clear()
    monkeypatch.setattr(viewer.type_, "render", spy)
    viewer.invalidate()
    return seen


# ---------------------------------------------------------------------------------------------- frames and time


def test_headless_skirmish_advances_ticks_and_draws_the_requested_size(watched: Viewer) -> None:
    assert watched.speed == 8
    # 120 frames of 1/60 s are 2 s of wall time: 16 ticks at 8 ticks/s (one may still sit in the accumulator)
    assert 15 <= watched.tick <= 16
    assert watched.records and all(1 <= r.tick <= watched.tick for r in watched.records)
    surface = watched.draw()
    assert surface.get_size() == (1024, 700)
    drawn = watched.panes[0].drawn_field
    assert drawn is not None and drawn.positions.keys() == watched.panes[0].shown.scene.figures.keys()


def test_the_viewer_lists_every_attack_of_the_log_exactly_once(watched: Viewer) -> None:
    world = watched.world
    assert world is not None
    logged = [e for e in world.log if isinstance(e, AttackRecord)]
    assert signature([a.entry for a in watched.records]) == signature(logged)


def test_run_headless_saves_the_last_frame_and_feeds_events_before_the_first(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0)
    viewer = run_headless("duel", seed=1, frames=30, screenshot=shot, size=(800, 600), select="Bertram",
                          events=[space])
    try:
        assert viewer.paused and viewer.tick == 0  # paused before the first frame: nothing ran
        assert viewer.selected_name == "Bertram"
        assert pygame.image.load(str(shot)).get_size() == (800, 600)
    finally:
        viewer.close()


def test_the_simulation_runs_on_a_fixed_timestep_decoupled_from_frames(duel: Viewer) -> None:
    duel.set_speed(2.0)  # one tick every 0.5 s of wall time
    duel.update(0.3)
    assert duel.tick == 0
    duel.update(0.3)
    assert duel.tick == 1
    duel.set_speed(32.0)
    duel.update(10.0)  # 320 ticks due: at most 8 a frame, and the backlog is dropped
    assert duel.tick == 9
    duel.update(0.0)
    assert duel.tick == 9


def test_a_speed_out_of_range_is_refused(duel: Viewer) -> None:
    for bad in (0.25, 33.0, 100.0):
        with pytest.raises(ValueError, match=r"0\.5 to 32"):
            duel.set_speed(bad)
        with pytest.raises(ValueError, match=r"0\.5 to 32"):
            Viewer("duel", speed=bad)
    duel.set_speed(3.0)  # any speed in range, not only the steps
    assert duel.speed == 3.0


def test_a_finished_fight_stops_ticking(fought: Viewer) -> None:
    assert fought.finished and fought.panes[0].shown.scene.verdict.endswith("wins")
    tick, count = fought.tick, len(fought.records)
    fought.tick_once()
    assert (fought.tick, len(fought.records)) == (tick, count)


def test_every_shipped_scenario_draws_with_every_fighter_in_the_field() -> None:
    for scenario in ("duel", "skirmish", "wolf_pack", "bestiary", "battle"):
        viewer = Viewer(scenario, seed=1, size=(960, 640))
        try:
            for _ in range(3):
                viewer.tick_once()
            assert viewer.draw().get_size() == (960, 640)
            pane = viewer.panes[0]
            scene = pane.shown.scene
            assert pane.drawn_field is not None
            fighters = [e for e, f in scene.figures.items() if f.has_body and not f.dead]
            assert fighters, scenario
            assert all(pane.rects.field.collidepoint(pane.drawn_field.positions[e]) for e in fighters), scenario
        finally:
            viewer.close()


# ---------------------------------------------------------------------------------------------- input


def test_clicking_a_creature_selects_it(skirmish: Viewer) -> None:
    pane = skirmish.panes[0]
    names = list(pane.feed.names.values())
    assert skirmish.selected_name == names[0]
    for entity, name in reversed(list(pane.feed.names.items())):  # the last first: every click changes it
        assert pane.drawn_field is not None
        x, y = pane.drawn_field.positions[entity]
        click(skirmish, (x + 3, y - 3))
        skirmish.draw()
        assert skirmish.selected_name == name


def test_clicking_empty_ground_or_with_another_button_keeps_the_selection(skirmish: Viewer) -> None:
    pane = skirmish.panes[0]
    assert pane.drawn_field is not None
    last = list(pane.feed.names)[-1]
    click(skirmish, pane.drawn_field.positions[last])
    assert skirmish.selected == last
    field = pane.rects.field
    empty = (field.x + 3, field.bottom - 3)
    assert all(abs(x - empty[0]) + abs(y - empty[1]) > 40 for x, y in pane.drawn_field.positions.values())
    click(skirmish, empty)
    assert skirmish.selected == last
    first = next(iter(pane.feed.names))
    click(skirmish, pane.drawn_field.positions[first], button=2)
    assert skirmish.selected == last


def test_right_clicking_a_creature_chooses_the_attacker_and_again_clears_it(skirmish: Viewer) -> None:
    pane = skirmish.panes[0]
    assert pane.drawn_field is not None
    foe = list(pane.feed.names)[-1]
    click(skirmish, pane.drawn_field.positions[foe], button=3)
    assert skirmish.attacker_name == pane.feed.names[foe]
    assert skirmish.selected_name == next(iter(pane.feed.names.values()))  # the selection stays
    click(skirmish, pane.drawn_field.positions[foe], button=3)
    assert skirmish.attacker_name is None


def test_a_click_in_the_side_panels_never_selects_a_creature_hidden_behind_them() -> None:
    viewer = Viewer("bestiary", seed=1)
    try:
        viewer.draw()
        pane = viewer.panes[0]
        panel = pane.rects.body
        spirit = next(e for e, n in pane.feed.names.items() if n == "Spirit")
        world = viewer.world
        assert world is not None
        at = world.get(spirit, Position)
        view = pane.rects.field
        at.x, at.y = viewer.camera.to_field(panel.centerx, panel.bottom - 40, (view.x, view.y, view.w, view.h))
        viewer.tick_once()  # the scene is built from the world (the spirit neither moves nor is struck)
        viewer.draw()
        assert pane.drawn_field is not None
        x, y = pane.drawn_field.positions[spirit]
        assert not view.collidepoint((x, y)) and panel.collidepoint((x, y))
        selected = viewer.selected_name
        click(viewer, (x, y))
        assert viewer.selected_name == selected, "a click on the body panel selected a creature not shown there"
    finally:
        viewer.close()


def test_tab_and_shift_tab_cycle_the_selection_in_entity_order(skirmish: Viewer) -> None:
    names = list(skirmish.panes[0].feed.names.values())
    seen = []
    for _ in range(len(names)):
        press(skirmish, pygame.K_TAB)
        seen.append(skirmish.selected_name)
    assert seen == names[1:] + names[:1]
    press(skirmish, pygame.K_TAB, pygame.KMOD_SHIFT)
    assert skirmish.selected_name == names[-1]


def test_a_cycles_the_attacker_through_those_fighting_the_selected_creature_first(skirmish: Viewer) -> None:
    for _ in range(3):
        skirmish.tick_once()
    scene = skirmish.panes[0].shown.scene
    me = skirmish.selected
    foes = [f.name for f in scene.figures.values() if f.target == me and f.entity != me]
    assert foes
    press(skirmish, pygame.K_a)
    assert skirmish.attacker_name == foes[0]


def test_space_pauses_and_resumes(duel: Viewer) -> None:
    press(duel, pygame.K_SPACE)
    assert duel.paused
    for _ in range(5):
        duel.update(1.0)
    assert duel.tick == 0
    press(duel, pygame.K_SPACE)
    assert not duel.paused
    duel.update(1.0)  # 2 ticks/s by default
    assert duel.tick == 2


def test_right_arrow_runs_one_tick_and_left_arrow_goes_one_back_both_pausing(skirmish: Viewer) -> None:
    press(skirmish, pygame.K_RIGHT)
    assert skirmish.tick == 1 and skirmish.paused
    skirmish.update(1.0)
    assert skirmish.tick == 1
    press(skirmish, pygame.K_RIGHT, pygame.KMOD_SHIFT)
    assert skirmish.tick == 11
    press(skirmish, pygame.K_LEFT)
    assert skirmish.tick == 10 and skirmish.paused
    assert all(r.tick <= 10 for r in skirmish.records)
    press(skirmish, pygame.K_LEFT, pygame.KMOD_SHIFT)
    assert skirmish.tick == 0 and skirmish.records == []
    press(skirmish, pygame.K_END)
    assert skirmish.tick == 11
    press(skirmish, pygame.K_HOME)
    assert skirmish.tick == 0


def test_plus_and_minus_step_the_speed_within_bounds(duel: Viewer) -> None:
    assert duel.speed == 2.0
    press(duel, pygame.K_PLUS)
    assert duel.speed == 4.0
    press(duel, pygame.K_MINUS)
    assert duel.speed == 2.0
    for _ in range(len(SPEEDS) + 3):
        press(duel, pygame.K_EQUALS)  # the unshifted + key
    assert duel.speed == SPEEDS[-1]
    press(duel, pygame.K_KP_PLUS)
    assert duel.speed == SPEEDS[-1]
    for _ in range(len(SPEEDS) + 3):
        press(duel, pygame.K_KP_MINUS)
    assert duel.speed == SPEEDS[0]


def test_r_restarts_with_the_next_seed_at_tick_zero(duel: Viewer) -> None:
    old_world = duel.world
    for _ in range(4):
        duel.tick_once()
    duel.draw()
    log = duel.panes[0].drawn_log
    assert log is not None and log.rows
    click(duel, log.rows[0][0].center)
    assert duel.panes[0].chosen is not None
    press(duel, pygame.K_r)
    assert duel.seed == 3
    assert duel.world is not old_world and duel.tick == 0
    assert duel.records == [] and duel.panes[0].chosen is None and not duel.finished
    for _ in range(6):
        duel.tick_once()
    fresh = Viewer("duel", seed=3)
    try:
        for _ in range(6):
            fresh.tick_once()
        assert signature([a.entry for a in duel.records]) == signature([a.entry for a in fresh.records])
    finally:
        fresh.close()


def test_m_cycles_the_model_and_rebuilds_the_world_at_tick_zero(duel: Viewer) -> None:
    for _ in range(3):
        duel.tick_once()
    models = list(available_models())
    press(duel, pygame.K_m)
    expected = models[(models.index("anatomy") + 1) % len(models)]
    assert duel.world is not None and duel.world.model == expected and duel.tick == 0
    assert duel.seed == 2 and duel.records == [] and expected in duel.status
    for _ in range(len(models) - 1):  # round the cycle back to anatomy
        press(duel, pygame.K_m)
    assert duel.world.model == "anatomy"


def test_escape_and_closing_the_window_quit(duel: Viewer) -> None:
    press(duel, pygame.K_q)
    assert not duel.quit
    press(duel, pygame.K_ESCAPE)
    assert duel.quit
    other = Viewer("duel", seed=2)
    try:
        other.handle(pygame.event.Event(pygame.QUIT))
        assert other.quit
    finally:
        other.close()


def test_s_saves_a_screenshot_named_by_fight_and_tick(duel: Viewer, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    duel.tick_once()
    press(duel, pygame.K_s)
    shot = tmp_path / "screenshot-duel-0001.png"
    assert shot.is_file()
    assert pygame.image.load(str(shot)).get_size() == duel.size
    assert "screenshot-duel-0001.png" in duel.status


def test_the_echo_says_what_the_viewer_does() -> None:
    said: list[str] = []
    viewer = Viewer("duel", seed=2, echo=said.append)
    try:
        viewer.draw()
        assert "drawn" in said and any(line.startswith("at Aldric ") for line in said)
        press(viewer, pygame.K_TAB)
        viewer.tick_once()
        press(viewer, pygame.K_LEFT)
        press(viewer, pygame.K_ESCAPE)
        for line in ("select Bertram", "tick 1", "seek 0", "tick 0", "quit"):
            assert line in said, line
    finally:
        viewer.close()


# ---------------------------------------------------------------------------------------------- the log explained


def test_clicking_a_log_line_explains_that_attack(fought: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    pane = fought.panes[0]
    assert pane.drawn_log is not None and pane.drawn_log.rows
    rect, index = pane.drawn_log.rows[len(pane.drawn_log.rows) // 2]
    try:
        click(fought, (rect.x + 40, rect.centery))
        assert pane.chosen == index
        text = drawn_text(monkeypatch, fought)
        fought.draw()
        shown = " ".join(" ".join(text).split())  # long lines wrap onto several drawn rows
        for line in fought.records[index].explain(fought.panes[0].feed.names):
            assert " ".join(line.split()) in shown
    finally:
        pane.chosen = None


def test_up_and_down_walk_the_log_within_bounds(duel: Viewer) -> None:
    pane = duel.panes[0]
    press(duel, pygame.K_UP)
    assert pane.chosen is None  # nothing to explain yet
    for _ in range(4):
        duel.tick_once()
    last = len(duel.records) - 1
    press(duel, pygame.K_DOWN)
    assert pane.chosen is None
    press(duel, pygame.K_UP)
    assert pane.chosen == last
    press(duel, pygame.K_UP)
    assert pane.chosen == last - 1
    press(duel, pygame.K_DOWN)
    press(duel, pygame.K_DOWN)
    assert pane.chosen == last
    for _ in range(len(duel.records) + 2):
        press(duel, pygame.K_UP)
    assert pane.chosen == 0


def test_a_landed_blow_is_explained_from_location_to_shock_and_what_followed(fought: Viewer) -> None:
    names = fought.panes[0].feed.names
    landed = [a for a in fought.records if a.struck]
    assert landed
    for attack in landed:
        record = attack.entry
        assert isinstance(record, AttackRecord) and record.blow is not None
        lines = attack.explain(names)
        text = "\n".join(lines)
        assert record.body.locations[record.blow.location].name in text
        assert "protection" in text and "effective" in text
        level_line = next(line for line in lines if line.startswith("Level against"))
        if record.blow.glancing:
            assert "glances" in level_line
        else:
            assert level_line.split(": ", 1)[1].startswith(LEVEL_CODES[record.blow.level])
        after = attack.after(names)
        assert (lines[-1] == "Then: " + ", ".join(after)) if after else not lines[-1].startswith("Then")
    assert any(a.after(names) for a in landed)


def test_a_defended_attack_is_explained_in_two_lines(fought: Viewer) -> None:
    defended = [a for a in fought.records if not a.entry.landed]  # type: ignore[attr-defined]
    assert defended
    for attack in defended:
        lines = attack.explain(fought.panes[0].feed.names)
        assert len(lines) == 2 and lines[0].startswith(f"Tick {attack.tick}: ") and lines[1].endswith("-> defended")


def test_the_log_scrolls_back_with_the_wheel_and_down_returns_to_the_newest(battle: Viewer) -> None:
    pane = battle.panes[0]
    assert pane.drawn_log is not None
    newest = pane.drawn_log.rows[-1][1]
    assert newest == len(battle.records) - 1 and len(battle.records) > pane.drawn_log.room
    try:
        wheel(battle, pane.rects.lower.center, 2)
        battle.draw()
        assert pane.drawn_log is not None and pane.drawn_log.rows[-1][1] == newest - 6
        wheel(battle, pane.rects.lower.center, -5)
        battle.draw()
        assert pane.log_first is None and pane.drawn_log is not None and pane.drawn_log.rows[-1][1] == newest
    finally:
        pane.log_first = None


# ---------------------------------------------------------------------------------------------- the body panel


def test_part_colour_by_state() -> None:
    assert part_colour(Impairment(), False) == WHOLE
    assert part_colour(Impairment(-5), False) == MINOR
    assert part_colour(Impairment(-10), False) == SERIOUS
    assert part_colour(Impairment(-15), False) == GRIEVOUS
    assert part_colour(Impairment(0, unusable=True), False) == UNUSABLE
    assert part_colour(Impairment(-10, unusable=True), True) == SEVERED
    assert len({WHOLE, MINOR, SERIOUS, GRIEVOUS, UNUSABLE, SEVERED}) == 6


def test_wound_rank_reads_every_models_level_words() -> None:
    assert [wound_rank(code) for code in LEVEL_CODES[1:]] == [1, 2, 3, 4, 5]
    assert [wound_rank(t) for t in ("skin", "flesh", "bone", "organ")] == [1, 2, 3, 4]
    assert wound_rank("weaken 2") == 1


def test_every_location_of_every_shipped_body_is_drawn_inside_its_part() -> None:
    viewer = Viewer("bestiary", seed=1)
    try:
        pane = viewer.panes[0]
        for entity, figure in pane.shown.scene.figures.items():
            viewer.select(figure.name)
            viewer.draw()
            body = figure.body
            assert body is not None
            if not body.parts:
                assert pane.drawn_body is not None and pane.drawn_body.locations == {}
                continue
            drawn = pane.drawn_body
            assert drawn is not None
            assert sorted(drawn.locations) == list(range(len(body.locations))), body.id
            assert sorted(drawn.parts) == list(range(len(body.parts)))
            for li, rect in drawn.locations.items():
                assert drawn.parts[body.locations[li].part].contains(rect), (body.id, body.locations[li].name)
                assert drawn.figure.contains(rect)
                assert location_pixel(viewer, body.locations[li].name) == LEVEL_FILL[0]  # unhurt
            rects = list(drawn.locations.values())
            assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:]), body.id
            assert pane.rects.body.contains(drawn.figure)
            del entity
    finally:
        viewer.close()


def test_locations_are_filled_by_their_worst_wound_and_parts_outlined_by_impairment(duel: Viewer) -> None:
    world = duel.world
    assert world is not None
    world.inflict("Bertram", "Right Forearm", "G4", "edged")  # Right Arm: unusable
    world.inflict("Bertram", "Left Thigh", "S2", "edged")  # Left Leg: -10
    world.inflict("Bertram", "Left Thigh", "M1", "blunt")  # the worst wound there fills it
    world.inflict("Bertram", "Right Thigh", "M1", "blunt")  # Right Leg: -5
    wounds = world.get("Bertram", Injury)
    body = world.get("Bertram", Anatomy).body
    wounds.severed.add(body.location_index("Left Hand"))  # Left Arm: severed
    world.refresh("Bertram")
    duel.refresh()
    duel.select("Bertram")
    duel.draw()
    assert location_pixel(duel, "Right Forearm") == LEVEL_FILL[4]
    assert location_pixel(duel, "Left Thigh") == LEVEL_FILL[2]
    assert location_pixel(duel, "Right Thigh") == LEVEL_FILL[1]
    assert location_pixel(duel, "Skull") == LEVEL_FILL[0]
    pane = duel.panes[0]
    assert pane.drawn_body is not None
    hand = pane.drawn_body.locations[body.location_index("Left Hand")]
    assert pixel(duel, (hand.right - 4, hand.y + 3)) == SEVERED
    expected = {"Left Arm": SEVERED, "Right Arm": UNUSABLE, "Left Leg": SERIOUS, "Right Leg": MINOR,
                "Torso": WHOLE, "Head": WHOLE}
    for name, colour in expected.items():
        assert part_outline(duel, name) == colour, name


def test_the_wound_list_groups_by_part_worst_first_and_lists_severed_locations(duel: Viewer) -> None:
    world = duel.world
    assert world is not None
    world.inflict("Aldric", "Left Calf", "M1", "blunt")
    world.inflict("Aldric", "Skull", "S3", "edged")
    world.inflict("Aldric", "Left Thigh", "G4", "edged")
    world.inflict("Aldric", "Right Forearm", "S2", "piercing")
    world.inflict("Aldric", "Left Knee", "S2", "blunt")
    wounds = world.get("Aldric", Injury)
    wounds.wounds[0].bleeder = True
    wounds.severed.add(world.get("Aldric", Anatomy).body.location_index("Left Hand"))
    world.refresh("Aldric")
    rows = wound_rows(world.readout("Aldric"), world.get("Aldric", Anatomy).body)
    headings = [r.text.split("  ")[0] for r in rows if r.heading]
    assert headings == ["Left Arm", "Left Leg", "Head", "Right Arm"]  # severed first, then by the worst wound
    start = next(k for k, r in enumerate(rows) if r.heading and r.text.startswith("Left Leg"))
    leg = rows[start + 1:start + 4]
    assert [r.text.split("  ")[:2] for r in leg] == [["G4 edged", "Left Thigh"], ["S2 blunt", "Left Knee"],
                                                     ["M1 blunt", "Left Calf"]]
    assert leg[-1].bleeding and leg[-1].text.endswith("(bleeding)")  # an untreated wound says no more
    wounds.wounds[1].healing_rate, wounds.wounds[1].infection_hr = 4, 2  # the skull: treated, infected
    rows = wound_rows(world.readout("Aldric"), world.get("Aldric", Anatomy).body)
    assert any(r.text == "S3 edged  Skull  (HR 4, infected HR 2)" for r in rows)
    assert any(r.severed and r.text == "Left Hand: SEVERED" for r in rows)
    leg = next(r for r in rows if r.heading and r.text.startswith("Left Leg"))
    assert leg.text.endswith("(3)")


def test_the_wound_list_window_counts_what_is_off_screen() -> None:
    from sandbox.viewer.wounds import WoundRow

    rows = [WoundRow(f"part {p}", 0, heading=True) if k == 0 else WoundRow(f"wound {p}.{k}", 1)
            for p in range(5) for k in range(5)]  # 5 headings, 20 wounds
    assert window(rows, 0, 30) == window(rows, 7, 30)  # it all fits: nothing scrolls
    top = window(rows, 0, 10)
    assert top.offset == 0 and top.above == 0 and len(top.rows) == 8
    assert top.below == 20 - sum(1 for r in top.rows if r.counted)
    middle = window(rows, 9, 10)
    assert middle.above + middle.below + sum(1 for r in middle.rows if r.counted) == 20
    bottom = window(rows, 999, 10)
    assert bottom.offset == len(rows) - 8 and bottom.below == 0


def test_a_long_wound_list_scrolls_with_the_wheel_its_counts_and_state_in_view(
        battle: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    pane = battle.panes[0]
    drawn = pane.drawn_body
    assert drawn is not None
    wounds = sum(1 for r in drawn.rows if r.counted)
    assert wounds >= 20, "the battle's most wounded creature should overflow the list"
    shown = sum(1 for r in drawn.window.rows if r.counted)
    assert drawn.window.above == 0 and drawn.window.below == wounds - shown > 0
    text = drawn_text(monkeypatch, battle)
    battle.draw()
    assert f"▼ {drawn.window.below} more below (wheel to scroll)" in text
    readout = pane.shown.scene.readouts[battle.selected]  # type: ignore[index]
    try:
        wheel(battle, drawn.wounds.center, -3)  # down
        battle.draw()
        after = pane.drawn_body
        assert after is not None and after.window.offset == 9 and after.window.above > 0
        assert after.window.above + after.window.below + sum(1 for r in after.window.rows if r.counted) == wounds
        assert any(line.startswith(f"▲ {after.window.above} more above") for line in text)
        assert any(readout.label in line and "health" in line for line in text)  # the state stays in view
        assert any(line.startswith("Conditions:") for line in text)
    finally:
        wheel(battle, drawn.wounds.center, 50)
        battle.draw()
    assert pane.wound_scroll == 0


def test_a_bodiless_creature_draws_no_locations() -> None:
    viewer = Viewer("bestiary", seed=1)
    try:
        viewer.select("Spirit")
        viewer.draw()
        drawn = viewer.panes[0].drawn_body
        assert drawn is not None and drawn.locations == {} and drawn.rows == ()
    finally:
        viewer.close()


# ---------------------------------------------------------------------------------------------- the location card


def test_hovering_a_location_shows_its_card_and_clicking_pins_it(duel: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    world = duel.world
    assert world is not None
    world.inflict("Aldric", "Skull", "S3", "edged")
    duel.refresh()
    duel.draw()
    pane = duel.panes[0]
    assert pane.drawn_body is not None
    body = world.get("Aldric", Anatomy).body
    skull = pane.drawn_body.locations[body.location_index("Skull")]
    text = drawn_text(monkeypatch, duel)
    hover(duel, skull.center)
    duel.draw()
    assert duel.hover is not None and duel.hover[2] == body.location_index("Skull")
    assert pane.drawn_log is None  # the card took the log's place
    joined = "\n".join(text)
    assert "Skull  (Head; zone Head" in joined and "Wound: S3 edged  Skull" in joined
    assert "Protection per aspect, layer by layer" in joined and "Helm" in joined and "total" in joined
    assert "choose an attacker" in joined
    click(duel, skull.center)
    hover(duel, pane.rects.field.center)
    duel.draw()
    assert duel.pinned == (0, body.location_index("Skull")) and pane.drawn_log is None
    click(duel, skull.center)
    hover(duel, pane.rects.field.center)
    duel.draw()
    assert duel.pinned is None and pane.drawn_log is not None


def test_the_protection_table_adds_the_layers_per_aspect() -> None:
    from sandbox.config import default_catalog
    from sandbox.viewer.card import protection_rows

    catalog = default_catalog()
    human = catalog.bodies["human"]
    worn = tuple(catalog.armor[a] for a in ("gambeson", "mail_hauberk", "helm"))
    rows = protection_rows(human, human.location_index("Thorax"), worn)
    names = [r[0] for r in rows]
    assert names[0] == "natural" and names[-1] == "total"
    assert "Helm" not in " ".join(names)  # the helm does not cover the thorax
    layers = [catalog.armor[a] for a in ("gambeson", "mail_hauberk") if "thorax" in catalog.armor[a].covers]
    loc = human.locations[human.location_index("Thorax")]
    assert rows[-1][1:] == tuple(str(loc.protection[k] + sum(p.protection[k] for p in layers)) for k in range(4))


# ---------------------------------------------------------------------------------------------- the field


def test_no_two_labels_overlap_nor_leave_the_field_in_a_busy_battle_frame(battle: Viewer) -> None:
    battle.all_names = True
    try:
        battle.tick_once()
        battle.draw()
        pane = battle.panes[0]
        drawn = pane.drawn_field
        assert drawn is not None
        boxes = [box for _, box in drawn.labels]
        names = [key for key, _ in drawn.labels if key[0] == "name"]  # type: ignore[index]
        blows = [key for key, _ in drawn.labels if key[0] == "blow"]  # type: ignore[index]
        assert len(names) > 20 and blows, "a busy frame: many names and blow labels"
        field = pane.rects.field
        for box in boxes:
            assert field.contains(pygame.Rect(box)), box
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlaps(a, b), (a, b)
        assert ("name", battle.selected) in names
    finally:
        battle.all_names = False


def test_names_show_for_the_selected_and_the_hovered_creature(skirmish: Viewer) -> None:
    pane = skirmish.panes[0]
    assert pane.drawn_field is not None
    other = list(pane.feed.names)[3]
    hover(skirmish, pane.drawn_field.positions[other])
    skirmish.draw()
    keys = {key for key, _ in pane.drawn_field.labels}
    assert keys == {("name", skirmish.selected), ("name", other)}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 300), st.integers(4, 120), st.integers(6, 20)),
                max_size=60))
def test_placed_labels_never_overlap_and_stay_inside(items: list[tuple[int, int, int, int]]) -> None:
    bounds = (10, 10, 380, 280)
    taken = [(200, 150, 30, 12)]
    requests = [Request(k, (x, y), (w, h)) for k, (x, y, w, h) in enumerate(items)]
    placed = place(requests, bounds, taken)
    boxes = [box for _, box in placed] + taken
    for _, (x, y, w, h) in placed:
        assert x >= 10 and y >= 10 and x + w <= 390 and y + h <= 290
    assert not any(overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert [r.key for r, _ in placed] == sorted(r.key for r, _ in placed)  # in priority order


def test_labels_of_one_creature_stack_instead_of_covering_each_other() -> None:
    requests = [Request(k, (100, 100), (60, 12), gap=8) for k in range(6)]
    placed = place(requests, (0, 0, 300, 300))
    assert [r.key for r, _ in placed] == list(range(6))  # all six find a place around the creature
    boxes = [box for _, box in placed]
    assert not any(overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert all(abs(x + w / 2 - 100) < 120 and abs(y + h / 2 - 100) < 60 for x, y, w, h in boxes)  # near it
    edge = place([Request(0, (298, 2), (60, 12))], (0, 0, 300, 300))
    assert edge and pygame.Rect(0, 0, 300, 300).contains(pygame.Rect(edge[0][1]))  # moved in, never clipped


def test_the_camera_fits_the_fight_at_start(duel: Viewer) -> None:
    pane = duel.panes[0]
    assert pane.drawn_field is not None
    field = pane.rects.field
    xs = [x for x, _ in pane.drawn_field.positions.values()]
    assert all(field.collidepoint(p) for p in pane.drawn_field.positions.values())
    assert max(xs) - min(xs) > field.width * 0.08  # two duellists a metre apart are not a dot in an empty field
    assert duel.camera.scale >= 40


def test_a_fit_in_a_short_wide_pane_zooms_in_on_a_wide_shallow_fight() -> None:
    from sandbox.viewer.camera import MIN_SPAN, Camera

    camera = Camera()
    points = [(6.0, 3.0), (14.0, 5.0)]  # 8 m wide, 2 m deep
    view = (0, 0, 800, 200)
    camera.fit(points, view)
    assert camera.scale == pytest.approx(min(800 * 0.8 / 8, 200 * 0.8 / 2))  # the fight fills the pane's width
    assert all(0 <= px < 800 and 0 <= py < 200 for px, py in (camera.to_screen(x, y, view) for x, y in points))
    camera.fit([(0.0, 0.0), (1.0, 0.0)], (0, 0, 700, 700))
    assert camera.scale == pytest.approx(700 * 0.8 / MIN_SPAN)  # two duellists a metre apart: 7 m across
    camera.fit([(0.0, 0.0), (1.0, 0.0)], (0, 0, 800, 200))
    assert camera.scale == pytest.approx(800 * 0.8 / MIN_SPAN)  # 7 m across the longer side, whichever it is


def test_the_wheel_zooms_about_the_pointer_and_a_drag_pans(skirmish: Viewer) -> None:
    pane = skirmish.panes[0]
    field = pane.rects.field
    view = (field.x, field.y, field.width, field.height)
    at = (field.x + field.width // 3, field.y + field.height // 3)
    under = skirmish.camera.to_field(*at, view)
    scale = skirmish.camera.scale
    wheel(skirmish, at, 2)
    assert skirmish.camera.scale == pytest.approx(scale * 1.44)
    assert skirmish.camera.to_field(*at, view) == pytest.approx(under)
    before = skirmish.camera.to_field(*field.center, view)
    drag(skirmish, field.center, (field.centerx + 80, field.centery - 40))
    after = skirmish.camera.to_field(*field.center, view)
    assert after == pytest.approx((before[0] - 80 / skirmish.camera.scale, before[1] + 40 / skirmish.camera.scale))
    press(skirmish, pygame.K_c)
    assert skirmish.camera.scale == pytest.approx(scale)


def test_f_follows_the_selected_creature(skirmish: Viewer) -> None:
    press(skirmish, pygame.K_f)
    for _ in range(6):
        skirmish.tick_once()
    skirmish.draw()
    pane = skirmish.panes[0]
    assert pane.drawn_field is not None
    x, y = pane.drawn_field.positions[skirmish.selected]  # type: ignore[index]
    assert abs(x - pane.rects.field.centerx) <= 1 and abs(y - pane.rects.field.centery) <= 1
    press(skirmish, pygame.K_f)
    assert not skirmish.camera.follow


def test_the_layout_follows_a_resize(skirmish: Viewer) -> None:
    for size in ((1600, 1000), (900, 620), (500, 300)):
        skirmish.handle(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
        surface = skirmish.draw()
        expected = (max(size[0], 720), max(size[1], 480))
        assert surface.get_size() == expected
        pane = skirmish.panes[0]
        whole = pygame.Rect(0, 0, *expected)
        for rect in (pane.rects.field, pane.rects.body, pane.rects.lower):
            assert whole.contains(rect) and rect.width > 100 and rect.height > 60
        assert not pane.rects.field.colliderect(pane.rects.body)
        assert pane.drawn_field is not None
        fighters = [e for e, f in pane.shown.scene.figures.items() if f.has_body]
        assert all(pane.rects.field.collidepoint(pane.drawn_field.positions[e]) for e in fighters)


# ---------------------------------------------------------------------------------------------- the view command


def test_view_renders_headless_and_saves_a_full_size_png(tmp_path: Path) -> None:
    shot = tmp_path / "tmp" / "x.png"
    shot.parent.mkdir()
    result = runner.invoke(app, ["view", "duel", "--frames", "30", "--screenshot", str(shot), "--seed", "3",
                                 "--speed", "4", "--select", "Bertram", "--attacker", "Aldric"])
    assert result.exit_code == 0, result.output
    assert "rendered 30 frames, tick 2" in result.stdout  # 0.5 s at 4 ticks/s
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 800)
    assert len({tuple(image.get_at((x, y))) for x in range(0, 1280, 16) for y in range(0, 800, 16)}) > 3


def test_view_size_models_side_by_side_and_a_save(tmp_path: Path) -> None:
    shot = tmp_path / "split.png"
    result = runner.invoke(app, ["view", "duel", "--model", "anatomy,severity", "--frames", "5", "--screenshot",
                                 str(shot), "--size", "1000x700"])
    assert result.exit_code == 0, result.output
    assert pygame.image.load(str(shot)).get_size() == (1000, 700)
    world = Sandbox.from_scenario("duel", seed=4)
    try:
        for _ in range(5):
            world.step()
        world.save(tmp_path / "duel.json")
    finally:
        world.close()
    result = runner.invoke(app, ["view", "--load", str(tmp_path / "duel.json"), "--frames", "60"])
    assert result.exit_code == 0, result.output
    assert "tick 7" in result.stdout  # from tick 5, one second at 2 ticks/s


@pytest.fixture
def no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window, if one opens, gets only QUIT events: it closes after one frame instead of running until Esc."""
    monkeypatch.setattr(pygame.event, "get", lambda *_, **__: [pygame.event.Event(pygame.QUIT)])


def test_view_screenshot_without_frames_is_a_usage_error(tmp_path: Path, no_window: None) -> None:
    result = runner.invoke(app, ["view", "duel", "--screenshot", str(tmp_path / "x.png")])
    assert result.exit_code == 2, result.output
    assert "--frames" in result.stderr
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(("args", "words"), [
    (["view", "no_such_scenario", "--frames", "5"], ["no_such_scenario"]),
    (["view", "no_such_scenario"], ["no_such_scenario"]),
    (["view", "duel", "--frames", "5", "--select", "Nobody"], ["Nobody"]),
    (["view", "duel", "--frames", "5", "--attacker", "Nobody"], ["Nobody"]),
    (["view", "duel", "--frames", "5", "--model", "no_such_model"], ["no_such_model"]),
    (["view", "duel", "--frames", "5", "--model", "anatomy,anatomy"], ["each model once"]),
    (["view", "duel", "--frames", "5", "--speed", "100"], ["--speed"]),
    (["view", "duel", "--frames", "5", "--speed", "0.1"], ["--speed"]),
    (["view", "duel", "--frames", "5", "--size", "big"], ["WIDTHxHEIGHT"]),
    (["view", "duel", "--frames", "5", "--size", "100x100"], ["720x480"]),
    (["view", "--frames", "5"], ["SCENARIO"]),
    (["view", "duel", "--load", "x.json", "--frames", "5"], ["--load"]),
    (["view", "--load", "no_such_save.json", "--frames", "5"], ["no_such_save.json"]),
    (["view", "--load", "no_such_save.json", "--model", "severity"], ["--model"]),
    (["view", "--replay", "no_such_log.jsonl", "--seed", "3"], ["--seed"]),
    (["view", "--replay", "no_such_log.jsonl", "--frames", "5"], ["no_such_log.jsonl"]),
])
def test_view_bad_input_exits_2_with_a_clear_message(args: list[str], words: list[str], no_window: None) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, (word, result.stderr)


# ---------------------------------------------------------------------------------------------- the pygame boundary


def _imports_pygame(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pygame" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "pygame":
            return True
    return False


def test_only_the_viewer_package_imports_pygame() -> None:
    importers = {path.relative_to(ROOT).as_posix() for path in source_files() if _imports_pygame(path)}
    assert "sandbox/viewer/app.py" in importers
    assert all(name.startswith("sandbox/viewer/") for name in importers), importers


def test_importing_the_world_and_the_cli_does_not_import_pygame() -> None:
    code = ("import sys, sandbox.world, sandbox.cli, sandbox.account, sandbox.persistence; "
            "print('pygame' in sys.modules); import sandbox.viewer; print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]  # and no pygame banner: the viewer hides it


def test_the_viewer_and_its_assets_are_packaged() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = sorted(module_name(p) for p in source_files("__init__.py"))
    missing = [name for name in found if name not in config["packages"]]
    assert missing == [], f"pyproject [tool.setuptools] packages leaves out {missing}: a built wheel has no viewer"
    assert "sandbox.assets" in config["packages"] and config["package-dir"]["sandbox.assets"] == "assets"
    data = config["package-data"]["sandbox.assets"]
    fonts = sorted((ROOT / "assets" / "fonts").glob("*.ttf"))
    assert fonts and "fonts/*.ttf" in data and "fonts/*.txt" in data
    licence = (ROOT / "assets" / "fonts" / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "Permission is hereby granted" in licence
    from sandbox.viewer.fonts import STYLES, font_path

    assert {font_path(file).name for file, _ in STYLES.values()} <= {f.name for f in fonts}
