"""The example game (examples/dungeon): a player-driven hero, monsters of its own content, the HUD, the log from the
event stream, quicksave and quickload with the game's own chest, and a model switch, played headless by keys."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import esper
import pytest

GAME = Path(__file__).resolve().parents[1] / "examples" / "dungeon" / "game.py"


@pytest.fixture()
def game_module(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    spec = importlib.util.spec_from_file_location("dungeon_game", GAME)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dungeon_game"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("dungeon_game", None)
    esper.switch_world("default")
    if "dungeon" in esper.list_worlds():
        esper.delete_world("dungeon")


def test_the_example_is_short() -> None:
    assert len(GAME.read_text(encoding="utf-8").splitlines()) < 400


def test_a_played_game_saves_loads_and_switches_model(game_module: ModuleType, tmp_path: Path) -> None:
    shot = tmp_path / "hud.png"
    game = game_module.main(["--keys", "right space space f5 space f9 space m w", "--seed", "1",
                             "--screenshot", str(shot)])
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert game.model == "severity"  # M moved on from anatomy: a new level
    lines = game.lines
    assert any(line.startswith("A new level under the severity model") for line in lines)
    esper.switch_world("dungeon")
    assert esper.has_component(game.chest, game_module.Chest)  # the game's own entity, in its own world


def test_quickload_restores_the_world_and_the_chest(game_module: ModuleType, tmp_path: Path) -> None:
    game = game_module.Dungeon(seed=2, saves=tmp_path)
    game.press("right")
    chest = game.chest
    esper.component_for_entity(chest, game_module.Chest).gold = 99
    game.press("f5")
    saved_tick, saved = game.world.tick, game.world.readout("Hero")
    game.press("w")  # waiting is always an option: the monsters come on
    game.press("w")
    assert game.world.tick > saved_tick
    game.press("f9")
    assert game.world.tick == saved_tick
    assert game.world.readout("Hero") == saved
    assert game.chest == chest and esper.component_for_entity(chest, game_module.Chest).gold == 99
    assert game.lines[-1] == f"Loaded (tick {saved_tick})."


def test_the_hero_waits_for_its_player_and_the_log_hears_the_fight(game_module: ModuleType, tmp_path: Path) -> None:
    game = game_module.Dungeon(seed=3, saves=tmp_path)
    assert game.action_for("u") is None  # standing: nothing to stand up from, so the key plays no turn
    game.press("u")
    assert game.world.tick == 0
    for _ in range(4):  # strike (or close in) when the hero can, stand up when it fell, else wait
        key = next(k for k in ("space", "u", "w") if game.action_for(k) is not None)
        game.press(key)
    assert game.world.tick == 4
    assert any(" attacks " in line for line in game.lines)  # attacks explained, from the event stream
    assert any(line.startswith("Tick ") and "Hero attacks" in line for line in game.lines)


def test_the_same_keys_give_the_same_game(game_module: ModuleType, tmp_path: Path) -> None:
    def play(folder: Path) -> list[str]:
        game = game_module.Dungeon(seed=5, saves=folder)
        for key in ["right", "space", "space", "w", "space"]:
            game.press(key)
        game.world.close()  # the next game builds its own dungeon world
        return list(game.lines)

    assert play(tmp_path / "a") == play(tmp_path / "b")


def test_the_example_is_strictly_typed_against_the_package() -> None:
    mypy = pytest.importorskip("mypy.api")
    out, err, status = mypy.run(["--strict", "--no-incremental", str(GAME)])
    assert status == 0, out + err
