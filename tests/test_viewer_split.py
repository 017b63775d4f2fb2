"""Models side by side (split panes in lockstep from one seed) and the location card's exact odds."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sandbox.blows import BlowSetup
from sandbox.components.rules import LEVEL_CODES
from sandbox.config import default_catalog
from sandbox.models import available_models
from sandbox.vector_odds import exact_odds
from sandbox.viewer import Viewer
from sandbox.viewer.app import SPLIT_SIZE
from sandbox.viewer.odds import LocationOdds, PreviewOdds
from tests.test_viewer import click, drawn_text, hover

pytestmark = pytest.mark.usefixtures("dummy_display")  # tests/conftest.py

runner = CliRunner()


def test_models_side_by_side_run_in_lockstep_each_with_its_own_body_panel_and_log() -> None:
    viewer = Viewer("skirmish", seed=4, models=["anatomy", "severity", "depth"])
    try:
        assert [p.feed.model for p in viewer.panes] == ["anatomy", "severity", "depth"]
        assert viewer.size == SPLIT_SIZE
        viewer.select("Blue Mace")
        for _ in range(5):
            viewer.tick_once()
        surface = viewer.draw()
        assert surface.get_size() == SPLIT_SIZE
        assert [p.shown.scene.tick for p in viewer.panes] == [5, 5, 5]
        whole = [p.rects.whole for p in viewer.panes]
        assert not any(a.colliderect(b) for i, a in enumerate(whole) for b in whole[i + 1:])
        for pane in viewer.panes:
            assert surface.get_rect().contains(pane.rects.whole)
            assert pane.drawn_body is not None and pane.drawn_log is not None and pane.drawn_field is not None
            figure = pane.shown.scene.figures[pane.entity("Blue Mace")]  # type: ignore[index]
            assert figure.body is not None and len(pane.drawn_body.locations) == len(figure.body.locations)
        # one seed: the same creatures, and the same first attacks (who attacks whom) before the models differ
        firsts = [[(a.attacker, a.target) for a in p.shown.attacks if a.tick == 1] for p in viewer.panes]
        assert firsts[0] and firsts[0] == firsts[1] == firsts[2]
        logs = [[type(a.entry).__name__ for a in p.shown.attacks] for p in viewer.panes]
        assert len({tuple(log) for log in logs}) == 3  # each pane its own model's records
        viewer.seek(2)
        assert [p.shown.scene.tick for p in viewer.panes] == [2, 2, 2]
    finally:
        viewer.close()


def test_each_pane_s_body_names_every_location_under_every_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # the point models' longer headers must not squeeze the drawing until its locations go unnamed
    viewer = Viewer("skirmish", seed=4, models=["anatomy", "severity", "depth"])
    try:
        viewer.select("Blue Mace")
        for _ in range(8):
            viewer.tick_once()
        seen = drawn_text(monkeypatch, viewer)
        viewer.draw()
        for pane in viewer.panes:
            assert pane.drawn_body is not None
            figure = pane.shown.scene.figures[pane.entity("Blue Mace")]  # type: ignore[index]
            assert figure.body is not None
            for location in figure.body.locations:
                forms = {location.name, location.name.replace("Right ", "R ").replace("Left ", "L "),
                         location.name.replace("Right ", "").replace("Left ", "")}
                assert forms & set(seen), (pane.feed.model, location.name)
        assert seen.count("Skull") == 3  # once in each pane
    finally:
        viewer.close()


def test_a_narrow_pane_wraps_a_long_wound_instead_of_cutting_it() -> None:
    viewer = Viewer("skirmish", seed=4, models=["anatomy", "severity", "depth"])
    try:
        viewer.select("Blue Mace")
        for _ in range(8):
            viewer.tick_once()
        viewer.draw()
        pane = viewer.panes[2]  # the depth model's wounds read long (severity's are short, listed under each part)
        assert pane.feed.model == "depth"
        drawn = pane.drawn_body
        assert drawn is not None
        readout = pane.shown.scene.readouts[pane.entity("Blue Mace")]  # type: ignore[index]
        shown = drawn.window.rows
        assert sum(1 for r in shown if r.counted) == len(readout.wounds) >= 1  # continuations are not wounds
        assert any(r.continued for r in shown)
        counted = [k for k, r in enumerate(shown) if r.counted]
        for wound, start in zip(readout.wounds, counted, strict=True):  # each wound's words shown over its rows
            end = next((k for k in range(start + 1, len(shown)) if not shown[k].continued), len(shown))
            joined = " ".join(r.text.strip() for r in shown[start:end])
            assert wound.location in joined and wound.level in joined, (joined, wound)
            assert "bleeding" in joined or not wound.bleeding
        for r in shown:
            assert viewer.type_.width(r.text, "small") <= drawn.wounds.width - 14
    finally:
        viewer.close()


def test_a_pane_whose_fight_ended_holds_while_the_others_go_on() -> None:
    viewer = Viewer("skirmish", seed=1, models=["anatomy", "strength"])  # strength ends at tick 7, anatomy at 32
    try:
        while not viewer.finished:
            viewer.tick_once()
        anatomy, strength = (p.shown.scene for p in viewer.panes)
        assert strength.finished and strength.tick < anatomy.tick and anatomy.finished
        viewer.draw()
    finally:
        viewer.close()


def test_all_is_every_model_and_more_than_five_is_refused() -> None:
    viewer = Viewer("duel", models=list(available_models()))
    try:
        assert len(viewer.panes) == 5
        viewer.draw()
    finally:
        viewer.close()
    with pytest.raises(ValueError, match="at most 5"):
        Viewer("duel", models=["anatomy"] * 6)
    result = runner.invoke(__import__("sandbox.cli", fromlist=["app"]).app,
                           ["view", "duel", "--model", "all", "--frames", "2"])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------------------------- exact odds


@pytest.mark.parametrize(("attacker", "defender", "aim"), [("Aldric", "Bertram", None), ("Bertram", "Aldric", "Head")])
def test_the_card_s_odds_are_the_exact_engine_s_for_the_attacker_s_current_mode(
        attacker: str, defender: str, aim: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    viewer = Viewer("duel", seed=2)
    try:
        viewer.select(defender)
        viewer.choose_attacker(attacker)
        viewer.tick_once()
        viewer.draw()
        pane = viewer.panes[0]
        world = viewer.world
        assert world is not None and pane.drawn_body is not None
        striker = world.creatures()[world.entity(attacker)]
        mode = striker.combatant.mode
        assert mode, "the attacker has chosen its strike mode by tick 1"
        catalog = default_catalog()
        body = catalog.bodies["human"]
        armor = [p.id for p in world.creatures()[world.entity(defender)].armor.pieces]
        setup = BlowSetup.build(catalog, body=body, mode=mode, armor=armor, aim=aim,
                                strength=striker.anatomy.attributes["strength"])
        whole = exact_odds(setup)
        for name in ("Skull", "Thorax", "Left Hand"):
            li = body.location_index(name)
            text = drawn_text(monkeypatch, viewer)
            hover(viewer, pane.drawn_body.locations[li].center)
            viewer.draw()
            odds = pane.feed.odds[(world.entity(attacker), world.entity(defender), li, 1)]
            assert isinstance(odds, LocationOdds)
            assert odds.struck == pytest.approx(whole.location.get(li, 0.0), abs=1e-12)
            assert odds.off_body == pytest.approx(whole.missed, abs=1e-12)
            there = exact_odds(BlowSetup.build(catalog, body=body, mode=mode, armor=armor, location=name,
                                               strength=striker.anatomy.attributes["strength"]))
            assert odds.levels == pytest.approx(there.level, abs=1e-12)
            assert sum(odds.levels) == pytest.approx(1.0)
            assert odds.severed == pytest.approx(there.amputation.get("severed", 0.0), abs=1e-12)
            assert odds.dead == pytest.approx(there.dead, abs=1e-12)
            shown = " ".join(" ".join(text).split())  # the card wraps long lines
            assert f"a landed blow strikes the {name} {100 * odds.struck:.1f}%" in shown
            for line in odds.lines(name):
                assert " ".join(line.split()) in shown
            for code, p in zip(LEVEL_CODES[1:], odds.levels[1:], strict=True):
                assert (f"{code} {100 * p:.1f}%" in shown) == (p > 0.0005)
            assert f"glances {100 * odds.glancing:.1f}%" in shown or odds.glancing <= 0.0005
            assert ("aimed at the Head" in shown) == (aim is not None)
    finally:
        viewer.close()


@pytest.mark.parametrize("model", ["severity", "depth"])
def test_the_card_says_why_there_are_no_odds_and_shows_a_point_model_s_own(
        model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    viewer = Viewer("duel", seed=2, models=[model])
    try:
        viewer.select("Bertram")
        viewer.choose_attacker("Aldric")
        viewer.draw()
        pane = viewer.panes[0]
        assert pane.drawn_body is not None
        text = drawn_text(monkeypatch, viewer)
        location, spot = next(iter(pane.drawn_body.locations.items()))
        click(viewer, spot.center)
        viewer.draw()
        assert any("No exact odds: Aldric has no strike mode it can use now" in line for line in text)
        viewer.tick_once()  # the card stays pinned: the new tick's odds are asked for
        viewer.invalidate()
        viewer.draw()
        world = viewer.world
        assert world is not None
        odds = pane.feed.odds[(world.entity("Aldric"), world.entity("Bertram"), location, 1)]
        assert isinstance(odds, PreviewOdds)  # the model's own exact odds, from the world's preview
        striker = world.creatures()[world.entity("Aldric")]
        assert odds.preview == world.preview("Aldric", "Bertram", striker.combatant.mode)
        shown = " ".join(" ".join(text).split())
        assert f"Exact odds ({model} model, the whole attack):" in shown
        name = world.catalog.bodies["human"].locations[location].name
        for line in odds.lines(name):
            assert " ".join(line.split()) in shown
        assert f"lands {100 * odds.preview.land:.1f}%" in shown
    finally:
        viewer.close()
