"""The Pygame viewer (issue 6), headless: rendering, input, the body panel's colours and wounds, body layouts,
blow explanations, the ``view`` command and the pygame import boundary.

Everything runs on SDL's dummy drivers: no window, no sound. No golden images: pixels are read only inside
a body part's rectangle, away from its label.
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
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from typer.testing import CliRunner

from components.anatomy import BodyStructure
from components.anatomy_state import Injury
from components.impairment import Impairment
from components.rules import LEVEL_CODES
from components.state import Anatomy, Position
from sandbox.bodymap import body_layout
from sandbox.cli import app
from sandbox.config import Catalog
from sandbox.models import available_models
from sandbox.viewer import Viewer, run_headless
from sandbox.viewer.app import (
    GRIEVOUS,
    MINOR,
    SERIOUS,
    SEVERED,
    SPEEDS,
    UNUSABLE,
    WHOLE,
    part_colour,
)
from systems.models.anatomy_attack import AttackRecord

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_BODIES = ("human", "wolf", "constrictor_snake", "eagle", "fire_dragon")
runner = CliRunner()


# ---------------------------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module", autouse=True)
def display() -> Iterator[None]:
    """The dummy display, initialised once for the module."""
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()


@pytest.fixture
def duel() -> Iterator[Viewer]:
    """A fresh viewer on the duel (seed 2: Aldric and Bertram)."""
    viewer = Viewer("duel", seed=2)
    yield viewer
    viewer.world.close()


@pytest.fixture
def skirmish() -> Iterator[Viewer]:
    """A fresh viewer on the skirmish (six humans, two teams)."""
    viewer = Viewer("skirmish", seed=0)
    yield viewer
    viewer.world.close()


@pytest.fixture(scope="module")
def watched() -> Iterator[Viewer]:
    """The skirmish rendered headless for 120 frames at 8 ticks/s (read-only for the tests that share it)."""
    viewer = run_headless("skirmish", seed=0, frames=120, size=(1024, 700), speed=8)
    yield viewer
    viewer.world.close()


@pytest.fixture(scope="module")
def fought() -> Iterator[Viewer]:
    """The duel ticked until it is over (read-only): landed, defended and shocking blows in its records."""
    viewer = Viewer("duel", seed=2)
    for _ in range(300):
        if viewer.finished:
            break
        viewer.tick()
    yield viewer
    viewer.world.close()


def press(viewer: Viewer, key: int) -> None:
    viewer.handle(pygame.event.Event(pygame.KEYDOWN, key=key))


def click(viewer: Viewer, pos: tuple[int, int]) -> None:
    viewer.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))


def drawn_text(viewer: Viewer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on every string the viewer draws from now on; returns the (growing) list."""
    seen: list[str] = []
    original = viewer._text

    def spy(text: str, *args: object, **kwargs: object) -> pygame.Rect:
        seen.append(text)
        return original(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(viewer, "_text", spy)
    return seen


def signature(records: list[AttackRecord]) -> list[tuple[object, ...]]:
    """What identifies a fight: every attack and where its blow went."""
    return [(r.tick, r.attacker, r.target, r.mode, r.attack, r.defence, r.landed,
             None if r.blow is None else (r.blow.location, r.blow.level, r.blow.missed)) for r in records]


def colour_at(viewer: Viewer, part: int) -> list[tuple[int, int, int]]:
    """The drawn colour of ``part`` at its centre and low in its rectangle (away from the label at top left)."""
    rect = viewer.part_rects[part]
    return [tuple(viewer.surface.get_at(p))[:3] for p in (rect.center, (rect.centerx, rect.bottom - 8))]


# ---------------------------------------------------------------------------------------------- headless rendering


def test_headless_skirmish_advances_ticks_collects_records_and_draws_the_requested_size(watched: Viewer) -> None:
    assert watched.speed_index == SPEEDS.index(8.0)
    # 120 frames of 1/60 s are 2 s of wall time: 16 ticks at 8 ticks/s (one may still sit in the accumulator)
    assert 15 <= watched.world.tick <= 16
    assert watched.records and all(isinstance(r, AttackRecord) for r in watched.records)
    assert all(1 <= r.tick <= watched.world.tick for r in watched.records)
    surface = watched.draw()
    assert isinstance(surface, pygame.Surface)
    assert surface.get_size() == (1024, 700)
    assert watched.creature_pos.keys() == watched.world.creatures().keys()


def test_the_viewer_picks_up_every_attack_of_the_log_exactly_once(watched: Viewer) -> None:
    logged = [e for e in watched.world.ctx.log if isinstance(e, AttackRecord)]
    assert signature(watched.records) == signature(logged)


def test_run_headless_saves_the_last_frame_and_feeds_events_before_the_first(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE)
    viewer = run_headless("duel", seed=1, frames=30, screenshot=shot, size=(800, 600), select="Bertram",
                          events=[space])
    try:
        assert viewer.paused and viewer.world.tick == 0  # paused before the first frame: nothing ran
        assert viewer.selected == viewer.world.entity("Bertram")
        assert pygame.image.load(str(shot)).get_size() == (800, 600)
    finally:
        viewer.world.close()


def test_the_simulation_runs_on_a_fixed_timestep_decoupled_from_frames(duel: Viewer) -> None:
    duel.speed_index = SPEEDS.index(2.0)  # one tick every 0.5 s of wall time
    duel.update(0.3)
    assert duel.world.tick == 0
    duel.update(0.3)
    assert duel.world.tick == 1
    duel.speed_index = SPEEDS.index(32.0)
    duel.update(10.0)  # 320 ticks due: at most 8 a frame, and the backlog is dropped
    assert duel.world.tick == 9
    duel.update(0.0)
    assert duel.world.tick == 9


def test_a_finished_fight_stops_ticking(fought: Viewer) -> None:
    assert fought.finished
    assert len(fought.world.able_teams()) <= 1
    tick, count = fought.world.tick, len(fought.records)
    fought.tick()
    assert (fought.world.tick, len(fought.records)) == (tick, count)


def test_every_shipped_scenario_draws_with_every_fighter_in_the_field() -> None:
    for scenario in ("duel", "skirmish", "wolf_pack", "bestiary", "battle"):
        viewer = Viewer(scenario, seed=1, size=(960, 640))
        try:
            for _ in range(3):
                viewer.tick()
            assert viewer.draw().get_size() == (960, 640)
            field = viewer.layout()[0]
            creatures = viewer.world.creatures()
            assert viewer.creature_pos.keys() == creatures.keys()
            fighters = [e for e, c in creatures.items() if c.anatomy.body.locations and not c.condition.dead]
            assert fighters, scenario
            assert all(field.collidepoint(viewer.creature_pos[e]) for e in fighters), scenario
        finally:
            viewer.world.close()


# ---------------------------------------------------------------------------------------------- input


def test_clicking_a_creature_selects_it(skirmish: Viewer) -> None:
    skirmish.draw()
    entities = list(skirmish.world.creatures())
    assert skirmish.selected == entities[0]
    for entity in reversed(entities):  # the last first, so every click changes the selection
        x, y = skirmish.creature_pos[entity]
        click(skirmish, (x + 5, y - 5))
        assert skirmish.selected == entity


def test_clicking_empty_ground_or_with_another_button_keeps_the_selection(skirmish: Viewer) -> None:
    skirmish.draw()
    last = list(skirmish.world.creatures())[-1]
    click(skirmish, skirmish.creature_pos[last])
    assert skirmish.selected == last
    field = skirmish.layout()[0]
    empty = (field.x + 3, field.bottom - 3)
    assert all(abs(x - empty[0]) + abs(y - empty[1]) > 40 for x, y in skirmish.creature_pos.values())
    click(skirmish, empty)
    assert skirmish.selected == last
    first = next(iter(skirmish.world.creatures()))
    skirmish.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=skirmish.creature_pos[first]))
    assert skirmish.selected == last


def test_a_click_in_the_side_panels_never_selects_a_creature_hidden_behind_them() -> None:
    viewer = Viewer("bestiary", seed=1)
    try:
        viewer.draw()
        field, panel, _ = viewer.layout()
        knight, wolf = viewer.world.entity("Knight"), viewer.world.entity("Wolf")
        pos = {e: viewer.world.get(e, Position) for e in (knight, wolf)}
        (kx, _), (wx, _) = viewer.creature_pos[knight], viewer.creature_pos[wolf]
        scale = (kx - wx) / (pos[knight].x - pos[wolf].x)
        ox = kx - pos[knight].x * scale
        oy = viewer.creature_pos[knight][1] - pos[knight].y * scale
        # the spirit (no body) is left out of the camera's fit: put it where it projects into the body panel
        spirit = viewer.world.entity("Spirit")
        at = viewer.world.get(spirit, Position)
        at.x, at.y = (panel.centerx - ox) / scale, (panel.bottom - 40 - oy) / scale
        viewer.draw()
        x, y = viewer.creature_pos[spirit]
        assert not field.collidepoint((x, y)) and panel.collidepoint((x, y))  # not drawn: clipped to the field
        selected = viewer.selected
        click(viewer, (x, y))
        assert viewer.selected == selected, "a click on the body panel selected a creature not shown there"
    finally:
        viewer.world.close()


def test_tab_cycles_the_selection_through_every_creature_in_entity_order(skirmish: Viewer) -> None:
    entities = list(skirmish.world.creatures())
    assert entities == sorted(entities) and len(entities) == 6
    seen = []
    for _ in range(len(entities)):
        press(skirmish, pygame.K_TAB)
        seen.append(skirmish.selected)
    assert seen == entities[1:] + entities[:1]


def test_space_pauses_and_resumes(duel: Viewer) -> None:
    press(duel, pygame.K_SPACE)
    assert duel.paused
    for _ in range(5):
        duel.update(1.0)
    assert duel.world.tick == 0
    press(duel, pygame.K_SPACE)
    assert not duel.paused
    duel.update(1.0)  # 2 ticks/s by default
    assert duel.world.tick == 2


def test_right_arrow_runs_exactly_one_tick_and_leaves_the_viewer_paused(duel: Viewer) -> None:
    press(duel, pygame.K_SPACE)
    press(duel, pygame.K_RIGHT)
    assert duel.world.tick == 1 and duel.paused
    duel.update(1.0)
    assert duel.world.tick == 1
    press(duel, pygame.K_RIGHT)
    assert duel.world.tick == 2
    assert all(r.tick <= 2 for r in duel.records)
    assert {r.tick for r in duel.recent} <= {2}  # the last tick's attacks


def test_right_arrow_while_running_pauses_after_one_tick(duel: Viewer) -> None:
    assert not duel.paused
    press(duel, pygame.K_RIGHT)
    assert duel.paused and duel.world.tick == 1


def test_plus_and_minus_change_the_speed_within_bounds(duel: Viewer) -> None:
    start = duel.speed_index
    press(duel, pygame.K_PLUS)
    assert duel.speed_index == start + 1
    press(duel, pygame.K_MINUS)
    assert duel.speed_index == start
    for _ in range(len(SPEEDS) + 3):
        press(duel, pygame.K_EQUALS)  # the unshifted + key
    assert duel.speed_index == len(SPEEDS) - 1
    press(duel, pygame.K_KP_PLUS)
    assert duel.speed_index == len(SPEEDS) - 1
    for _ in range(len(SPEEDS) + 3):
        press(duel, pygame.K_KP_MINUS)
    assert duel.speed_index == 0
    press(duel, pygame.K_MINUS)
    assert duel.speed_index == 0


def test_r_restarts_with_the_next_seed_at_tick_zero(duel: Viewer) -> None:
    old_world = duel.world
    for _ in range(4):
        duel.tick()
    duel.draw()
    click(duel, duel.trace_rows[0][0].center)
    assert duel.records and duel.trace_index is not None
    press(duel, pygame.K_r)
    assert duel.seed == 3
    assert duel.world is not old_world and duel.world.tick == 0
    assert duel.records == [] and duel.trace_index is None and not duel.finished
    assert duel.selected == next(iter(duel.world.creatures()))
    for _ in range(6):
        duel.tick()
    fresh = Viewer("duel", seed=3)
    try:
        for _ in range(6):
            fresh.tick()
        assert signature(duel.records) == signature(fresh.records)
    finally:
        fresh.world.close()


def test_m_cycles_the_model_and_rebuilds_the_world_at_tick_zero(duel: Viewer) -> None:
    old_world = duel.world
    for _ in range(3):
        duel.tick()
    models = list(available_models())
    press(duel, pygame.K_m)
    expected = models[(models.index("anatomy") + 1) % len(models)]  # the next model, on the same seed
    assert duel.model == expected
    assert duel.world is not old_world and duel.world.tick == 0 and duel.world.model == expected
    assert duel.seed == 2 and duel.records == []
    assert expected in duel.status
    for _ in range(len(models) - 1):  # round the cycle back to anatomy
        press(duel, pygame.K_m)
    assert duel.model == "anatomy" and duel.world.model == "anatomy"


def test_escape_and_closing_the_window_quit(duel: Viewer) -> None:
    press(duel, pygame.K_a)
    assert not duel.quit
    press(duel, pygame.K_ESCAPE)
    assert duel.quit
    other = Viewer("duel", seed=2)
    try:
        other.handle(pygame.event.Event(pygame.QUIT))
        assert other.quit
    finally:
        other.world.close()


def test_s_saves_a_screenshot_named_by_scenario_and_tick(duel: Viewer, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    duel.tick()
    press(duel, pygame.K_s)
    shot = tmp_path / "screenshot-duel-0001.png"
    assert shot.is_file()
    assert pygame.image.load(str(shot)).get_size() == duel.size
    assert "screenshot-duel-0001.png" in duel.status


def test_clicking_a_trace_row_explains_that_blow(fought: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    fought.draw()
    assert fought.trace_rows
    rect, index = fought.trace_rows[len(fought.trace_rows) // 2]
    try:
        click(fought, (rect.x + 40, rect.centery))
        assert fought.trace_index == index
        text = drawn_text(fought, monkeypatch)
        fought.draw()
        record = fought.records[index]
        lines = record.explain(fought.world.names)
        shown = " ".join(" ".join(text).split())  # long lines may wrap onto several drawn rows
        for line in lines:
            assert " ".join(line.split()) in shown
        assert [i for _, i in fought.trace_rows] == sorted(i for _, i in fought.trace_rows)
    finally:
        fought.trace_index = None


def test_up_and_down_walk_the_trace_within_bounds(duel: Viewer) -> None:
    press(duel, pygame.K_UP)
    assert duel.trace_index is None  # nothing to explain yet
    for _ in range(4):
        duel.tick()
    last = len(duel.records) - 1
    press(duel, pygame.K_DOWN)
    assert duel.trace_index is None
    press(duel, pygame.K_UP)
    assert duel.trace_index == last
    press(duel, pygame.K_UP)
    assert duel.trace_index == last - 1
    press(duel, pygame.K_DOWN)
    press(duel, pygame.K_DOWN)
    assert duel.trace_index == last
    for _ in range(len(duel.records) + 2):
        press(duel, pygame.K_UP)
    assert duel.trace_index == 0


# ---------------------------------------------------------------------------------------------- explanations


def _explained(viewer: Viewer) -> list[tuple[AttackRecord, list[str]]]:
    world = viewer.world
    out = []
    for record in viewer.records:
        assert isinstance(record, AttackRecord)
        out.append((record, record.explain(world.names)))
    return out


def test_a_landed_blow_is_explained_from_location_to_shock(fought: Viewer) -> None:
    landed = [(r, lines) for r, lines in _explained(fought) if r.landed and r.blow and not r.blow.missed]
    assert landed
    assert any(r.blow.shock_index for r, _ in landed)  # type: ignore[union-attr]
    for record, lines in landed:
        blow = record.blow
        assert blow is not None
        text = "\n".join(lines)
        assert record.body.locations[blow.location].name in text
        assert "protection" in text and "effective" in text
        level_line = next(line for line in lines if line.startswith("Level against"))
        if blow.glancing:
            assert "glances" in level_line
        else:
            assert level_line.split(": ", 1)[1].startswith(LEVEL_CODES[blow.level])
        shock_lines = [line for line in lines if line.startswith(("Shock index", "No shock"))]
        assert len(shock_lines) == 1
        assert shock_lines[0].startswith("Shock index" if blow.shock_index else "No shock")
        if blow.shock_index:
            assert blow.shock_state.label in shock_lines[0]


def test_a_defended_attack_is_explained_in_two_lines(fought: Viewer) -> None:
    defended = [(r, lines) for r, lines in _explained(fought) if not r.landed]
    assert defended
    for record, lines in defended:
        assert len(lines) == 2
        assert lines[0].startswith(f"Tick {record.tick}: ")
        assert lines[1].endswith("-> defended")
        assert "protection" not in "\n".join(lines)


# ---------------------------------------------------------------------------------------------- the body panel


def test_wound_lines_list_level_aspect_and_treatment(duel: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    aldric = duel.world.entity("Aldric")
    assert duel.wound_lines(aldric) == []
    duel.world.inflict(aldric, "Right Forearm", "S3", "edged")
    duel.world.inflict(aldric, "Left Thigh", "G4", "blunt")
    lines = duel.wound_lines(aldric)
    assert lines == ["Right Forearm: S3 edged, untreated", "Left Thigh: G4 blunt, untreated"]
    duel.selected = aldric
    text = drawn_text(duel, monkeypatch)
    duel.draw()
    assert all(line in text for line in lines)  # the panel shows them


def test_a_bleeder_and_a_severed_location_show_in_the_wound_lines(duel: Viewer) -> None:
    bertram = duel.world.entity("Bertram")
    duel.world.inflict(bertram, "Left Thigh", "S3", "edged")
    wounds = duel.world.get(bertram, Injury)
    wounds.wounds[0].bleeder = True
    lines = duel.wound_lines(bertram)
    assert len(lines) == 1 and lines[0].startswith("Left Thigh: S3") and "bleeding" in lines[0]
    body = duel.world.get(bertram, Anatomy).body
    wounds.severed.add(body.location_index("Left Hand"))
    duel.world.refresh(bertram)
    assert duel.wound_lines(bertram)[-1] == "Left Hand: SEVERED"


def test_part_colour_by_state() -> None:
    assert part_colour(Impairment(), False) == WHOLE
    assert part_colour(Impairment(-5), False) == MINOR
    assert part_colour(Impairment(-10), False) == SERIOUS
    assert part_colour(Impairment(-15), False) == GRIEVOUS
    assert part_colour(Impairment(0, unusable=True), False) == UNUSABLE
    assert part_colour(Impairment(-10, unusable=True), True) == SEVERED
    assert len({WHOLE, MINOR, SERIOUS, GRIEVOUS, UNUSABLE, SEVERED}) == 6


def test_the_body_drawing_colours_each_part_by_its_state(duel: Viewer) -> None:
    world = duel.world
    bertram = world.entity("Bertram")
    body = world.get(bertram, Anatomy).body
    world.inflict(bertram, "Right Forearm", "G4", "edged")  # Right Arm: unusable
    world.inflict(bertram, "Left Thigh", "S2", "edged")  # Left Leg: -10
    world.inflict(bertram, "Right Thigh", "M1", "blunt")  # Right Leg: -5
    wounds = world.get(bertram, Injury)
    wounds.severed.add(body.location_index("Left Hand"))  # Left Arm: severed
    world.refresh(bertram)
    duel.selected = bertram
    duel.draw()
    assert sorted(duel.part_rects) == list(range(len(body.parts)))
    expected = {"Left Arm": SEVERED, "Right Arm": UNUSABLE, "Left Leg": SERIOUS, "Right Leg": MINOR,
                "Torso": WHOLE, "Head": WHOLE}
    for name, colour in expected.items():
        assert colour_at(duel, body.part_index(name)) == [colour, colour], name


def test_the_body_drawing_follows_the_selection(duel: Viewer) -> None:
    world = duel.world
    aldric, bertram = world.entity("Aldric"), world.entity("Bertram")
    arm = world.get(aldric, Anatomy).body.part_index("Right Arm")
    world.inflict(aldric, "Right Forearm", "G4", "edged")
    duel.selected = bertram
    duel.draw()
    assert colour_at(duel, arm) == [WHOLE, WHOLE]
    duel.draw()
    click(duel, duel.creature_pos[aldric])
    duel.draw()
    assert colour_at(duel, arm) == [UNUSABLE, UNUSABLE]


def test_drawn_parts_lie_in_the_panel_without_overlapping(duel: Viewer) -> None:
    duel.draw()
    panel = duel.layout()[1]
    rects = list(duel.part_rects.values())
    assert rects and all(panel.contains(r) for r in rects)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.colliderect(b)


def test_a_bodiless_creature_draws_no_parts() -> None:
    viewer = Viewer("bestiary", seed=1)
    try:
        spirit = viewer.world.entity("Spirit")
        viewer.selected = spirit
        viewer.draw()
        assert viewer.part_rects == {}
        assert viewer.wound_lines(spirit) == []
    finally:
        viewer.world.close()


# ---------------------------------------------------------------------------------------------- body layouts


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    eps = 1e-9
    return a[0] < b[0] + b[2] - eps and b[0] < a[0] + a[2] - eps and a[1] < b[1] + b[3] - eps and \
        b[1] < a[1] + a[3] - eps


def _check_layout(body: BodyStructure) -> dict[int, tuple[float, float, float, float]]:
    rects = body_layout(body)
    assert sorted(rects) == list(range(len(body.parts))), body.id
    for x, y, w, h in rects.values():
        assert w > 0 and h > 0
        assert x >= 0 and y >= 0 and x + w <= 1 + 1e-9 and y + h <= 1 + 1e-9, body.id
    items = list(rects.items())
    for i, (p, a) in enumerate(items):
        for q, b in items[i + 1:]:
            assert not _overlap(a, b), (body.id, body.parts[p].name, body.parts[q].name)
    return rects


@pytest.mark.parametrize("body_id", SHIPPED_BODIES)
def test_body_layout_gives_every_part_its_own_rectangle_in_the_unit_square(catalog: Catalog, body_id: str) -> None:
    _check_layout(catalog.bodies[body_id])


def test_a_spirit_has_no_body_to_lay_out(catalog: Catalog) -> None:
    assert body_layout(catalog.bodies["spirit"]) == {}


@pytest.mark.parametrize("body_id", SHIPPED_BODIES)
def test_layout_hints_are_honoured(catalog: Catalog, body_id: str) -> None:
    body = catalog.bodies[body_id]
    rects = body_layout(body)
    hinted = [(pi, p.layout) for pi, p in enumerate(body.parts) if p.layout is not None]
    for i, (p, (row_p, col_p)) in enumerate(hinted):
        for q, (row_q, col_q) in hinted[i + 1:]:
            dy, dx = rects[p][1] - rects[q][1], rects[p][0] - rects[q][0]
            assert (row_p > row_q) - (row_p < row_q) == (dy > 1e-9) - (dy < -1e-9), (body.parts[p], body.parts[q])
            assert (col_p > col_q) - (col_p < col_q) == (dx > 1e-9) - (dx < -1e-9), (body.parts[p], body.parts[q])


def test_the_human_head_sits_above_the_torso_between_the_arms(catalog: Catalog) -> None:
    body = catalog.bodies["human"]
    r = {body.parts[pi].name: rect for pi, rect in body_layout(body).items()}
    head, torso = r["Head"], r["Torso"]
    assert head[1] + head[3] <= torso[1]
    assert head[0] == pytest.approx(torso[0])
    assert r["Right Arm"][1] == r["Left Arm"][1] == torso[1]
    assert r["Right Arm"][0] < torso[0] < r["Left Arm"][0]  # a figure facing the viewer
    assert r["Right Leg"][1] == r["Left Leg"][1] >= torso[1] + torso[3]


def test_the_dragon_wings_flank_the_torso_in_its_row(catalog: Catalog) -> None:
    body = catalog.bodies["fire_dragon"]
    r = {body.parts[pi].name: rect for pi, rect in body_layout(body).items()}
    torso = r["Torso"]
    assert r["Right Wing"][1] == pytest.approx(torso[1]), "the right wing is not in the torso's row"
    assert r["Left Wing"][1] == pytest.approx(torso[1]), "the left wing is not in the torso's row"
    assert r["Right Wing"][0] < torso[0] < r["Left Wing"][0]


@pytest.mark.parametrize("body_id", SHIPPED_BODIES)
def test_unhinted_rows_put_the_right_side_first(catalog: Catalog, body_id: str) -> None:
    body = catalog.bodies[body_id]
    rects = body_layout(body)
    for pi, p in enumerate(body.parts):
        for qi, q in enumerate(body.parts):
            if p.layout is None and q.layout is None and rects[pi][1] == rects[qi][1] \
                    and (p.side, q.side) in (("right", "center"), ("center", "left"), ("right", "left")):
                assert rects[pi][0] < rects[qi][0], (body_id, p.name, q.name)


def test_unhinted_zones_go_in_rows_below_the_hinted_ones(catalog: Catalog) -> None:
    human = catalog.bodies["human"]
    parts = tuple(p if p.name == "Head" else replace(p, layout=None) for p in human.parts)
    body = replace(human, parts=parts)
    rects = _check_layout(body)
    names = {p.name: rects[pi] for pi, p in enumerate(body.parts)}
    assert names["Head"][1] < names["Right Arm"][1] == names["Left Arm"][1] < names["Torso"][1] < \
        names["Right Leg"][1]


# ---------------------------------------------------------------------------------------------- the view command


def test_view_renders_headless_and_saves_a_full_size_png(tmp_path: Path) -> None:
    shot = tmp_path / "tmp" / "x.png"
    shot.parent.mkdir()
    result = runner.invoke(app, ["view", "duel", "--frames", "30", "--screenshot", str(shot), "--seed", "3",
                                 "--speed", "4", "--select", "Bertram"])
    assert result.exit_code == 0, result.output
    assert "rendered 30 frames" in result.stdout
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 800)
    assert len({tuple(image.get_at((x, y))) for x in range(0, 1280, 16) for y in range(0, 800, 16)}) > 3


@pytest.fixture
def no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window, if one opens, gets only QUIT events: it closes after one frame instead of running until Esc."""
    monkeypatch.setattr(pygame.event, "get", lambda *_, **__: [pygame.event.Event(pygame.QUIT)])


def test_view_screenshot_without_frames_is_a_usage_error(tmp_path: Path, no_window: None) -> None:
    result = runner.invoke(app, ["view", "duel", "--screenshot", str(tmp_path / "x.png")])
    assert result.exit_code == 2, result.output
    assert "--frames" in result.stderr
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("args", [
    ["view", "no_such_scenario", "--frames", "5"],
    ["view", "no_such_scenario"],
    ["view", "duel", "--frames", "5", "--select", "Nobody"],
    ["view", "duel", "--frames", "5", "--model", "no_such_model"],
])
def test_view_bad_input_exits_2_without_a_traceback(args: list[str], no_window: None) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr.strip()
    bad = {"no_such_scenario", "Nobody", "no_such_model"} & set(args)
    assert bad and all(word in result.stderr for word in bad)


# ---------------------------------------------------------------------------------------------- the pygame boundary


def _imports_pygame(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pygame" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "pygame":
            return True
    return False


def test_only_the_viewer_package_imports_pygame() -> None:
    importers = {path.relative_to(ROOT).as_posix() for package in ("components", "systems", "sandbox")
                 for path in (ROOT / package).rglob("*.py") if _imports_pygame(path)}
    assert "sandbox/viewer/app.py" in importers
    assert all(name.startswith("sandbox/viewer/") for name in importers), importers


def test_importing_the_world_and_the_cli_does_not_import_pygame() -> None:
    code = ("import sys, sandbox.world, sandbox.cli, sandbox.account, sandbox.persistence; "
            "print('pygame' in sys.modules); import sandbox.viewer; print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}).stdout
    assert out.split() == ["False", "True"]


def test_the_viewer_package_is_packaged() -> None:
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    found = sorted(".".join(p.parent.relative_to(ROOT).parts) for package in ("components", "systems", "sandbox")
                   for p in (ROOT / package).rglob("__init__.py"))
    missing = [name for name in found if name not in packages]
    assert missing == [], f"pyproject [tool.setuptools] packages leaves out {missing}: a built wheel has no viewer"

