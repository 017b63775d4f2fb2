"""A small turn-based dungeon game on the sandbox's public surface alone.

The game owns its esper world (``dungeon``) and puts its own entity in it (a chest of gold, a component of its own);
the sandbox's systems and creatures join it through ``OwnWorld``. The hero is under ``external`` control: each turn
the game submits one action from ``options`` (the keys below) and ticks; three monsters of the game's own content
tree (``content/``) fight as the AI does. A paper-doll HUD is drawn from the hero's ``Readout``, the log from the
event stream (``on``); F5 saves (the chest kept through a ``SaveHook``), F9 loads, M starts the level again under
the next damage model.

Keys: arrows step, Space strikes the nearest enemy in reach, U stands up, G picks a weapon up, W waits,
F5 quicksave, F9 quickload, M next model, Esc quits.

Run it: ``python examples/dungeon/game.py`` (a window), or headless with scripted keys:
``SDL_VIDEODRIVER=dummy python examples/dungeon/game.py --keys "space space right space" --screenshot hud.png``.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import esper
import pygame

from sandbox.components.events import AttackDeclared, Lifecycle
from sandbox.components.readout import Readout
from sandbox.components.state import Position
from sandbox.own_world import OwnWorld
from sandbox.systems.actions import Action, Approach, Move, PickUp, StandUp, Strike, Wait

CONTENT = Path(__file__).resolve().parent / "content"
MODELS = ("anatomy", "severity", "depth", "strength", "status")
HERO = "Hero"
MONSTERS = (("goblin", "Goblin", (6.0, 2.0)), ("cave_wolf", "Cave Wolf", (9.0, 6.5)), ("orc", "Orc", (10.0, 3.0)))
ROOM = (12.0, 8.0)  # metres
SCALE = 40  # pixels a metre
SIZE = (int(ROOM[0] * SCALE) + 340, int(ROOM[1] * SCALE) + 170)
STEPS = {"right": (1.0, 0.0), "left": (-1.0, 0.0), "up": (0.0, -1.0), "down": (0.0, 1.0)}
KEYS = {pygame.K_RIGHT: "right", pygame.K_LEFT: "left", pygame.K_UP: "up", pygame.K_DOWN: "down",
        pygame.K_SPACE: "space", pygame.K_u: "u", pygame.K_g: "g", pygame.K_w: "w", pygame.K_F5: "f5",
        pygame.K_F9: "f9", pygame.K_m: "m", pygame.K_ESCAPE: "escape"}
TIER_COLOURS = {"unhurt": (90, 180, 90), "hurt": (220, 200, 80), "badly hurt": (230, 130, 50),
                "down": (200, 60, 60), "dead": (90, 90, 90)}
DOLL = {"Head": (1, 0), "Left Arm": (0, 1), "Torso": (1, 1), "Right Arm": (2, 1), "Left Leg": (0.5, 2),
        "Right Leg": (1.5, 2)}
"""Where the paper doll draws a human's parts (columns, rows); other bodies' parts are drawn in a grid."""


@dataclass
class Chest:
    """The game's own component: a chest of gold in the room (the sandbox never sees it)."""

    gold: int
    opened: bool = False


class ChestHook:
    """The game's part of a save: the chest, under the save's ``game`` key (a ``sandbox.saves.SaveHook``)."""

    def __init__(self, game: Dungeon) -> None:
        self.game = game

    def dump(self) -> Any:
        chest = esper.component_for_entity(self.game.chest, Chest)
        return {"entity": self.game.chest, "gold": chest.gold, "opened": chest.opened}

    def restore(self, data: Any) -> None:
        self.game.chest = int(data["entity"])
        esper.add_component(self.game.chest, Chest(int(data["gold"]), bool(data["opened"])))


def _aimed_at(option: Strike | Approach | Move) -> int | str:
    """The creature a strike, an approach or a move toward someone is aimed at (the hero: a move to a point)."""
    target = option.toward if isinstance(option, Move) else option.target
    return HERO if target is None else target


def _fresh_dungeon() -> None:
    """Make the game's esper world ``dungeon`` current and empty."""
    esper.switch_world("default")
    if "dungeon" in esper.list_worlds():
        esper.delete_world("dungeon")
    esper.switch_world("dungeon")


class Dungeon:
    """The game: its esper world, the sandbox in it, the hero's turn, saves, and the log it shows."""

    def __init__(self, seed: int = 1, model: str = "anatomy", saves: Path | None = None) -> None:
        self.seed = seed
        self.model = model
        self.quicksave = (saves or Path(tempfile.mkdtemp())) / "quicksave.json"
        self.lines: list[str] = []
        self.world = self._new_level(model)

    def _new_level(self, model: str) -> OwnWorld:
        _fresh_dungeon()
        self.chest = esper.create_entity(Chest(gold=30))
        world = OwnWorld(seed=self.seed, model=model, world="dungeon", content=[CONTENT])
        world.spawn("human", name=HERO, team="Hero", position=(2.0, 4.0), weapons=["broadsword"],
                    armor=["mail_hauberk", "helm"], policy="external")
        for creature, name, position in MONSTERS:
            world.spawn(creature, name=name, team="Monsters", position=position)
        self._listen(world)
        self.say(f"A new level under the {model} model.")
        return world

    def _listen(self, world: OwnWorld) -> None:
        """Hear the fight as it happens: each attack explained (its first and last line), each fall and rise."""

        def attacked(event: AttackDeclared) -> None:
            lines = world.explain(event)
            self.say(lines[0] if len(lines) < 2 else f"{lines[0]}: {lines[-1].removeprefix('Then: ')}")

        def changed(event: Lifecycle) -> None:
            self.say(f"Tick {event.tick}: {world.names.get(event.entity, '?')} {event.summary(world.names) or ''}")

        world.on(AttackDeclared, attacked)
        world.on(Lifecycle, changed)

    def say(self, line: str) -> None:
        self.lines = [*self.lines, line][-7:]

    def press(self, key: str) -> bool:
        """Play one key; ``False`` when the game is over (Esc)."""
        if key == "escape":
            return False
        if key == "f5":
            self.world.save(self.quicksave, hook=ChestHook(self))
            self.say("Saved.")
        elif key == "f9" and self.quicksave.exists():
            self.world.close()
            _fresh_dungeon()  # a load recreates the sandbox's creatures and the chest's id; the hook its contents
            self.world = OwnWorld.load(self.quicksave, content=[CONTENT], hook=ChestHook(self), world="dungeon")
            self._listen(self.world)
            self.say(f"Loaded (tick {self.world.tick}).")
        elif key == "m":
            self.world.close()
            self.model = MODELS[(MODELS.index(self.model) + 1) % len(MODELS)]
            self.world = self._new_level(self.model)
        elif (action := self.action_for(key)) is not None:
            self.world.submit(HERO, action)
            self.world.step()
        return True

    def action_for(self, key: str) -> Action | None:
        """The hero's option a key chooses this turn (``None``: none fits, so the turn is not played)."""
        options = self.world.options(HERO)
        if key in STEPS:
            if not any(isinstance(option, Move) for option in options):
                return None
            x, y = self.position(HERO)
            dx, dy = STEPS[key]
            return Move(to=(min(max(x + dx, 0.0), ROOM[0]), min(max(y + dy, 0.0), ROOM[1])))
        if key == "w":
            return Wait()
        if key == "space":  # strike the nearest enemy in reach, else close in on the nearest, else walk to it
            hero = self.position(HERO)
            for kind in (Strike, Approach, Move):
                aimed = [option for option in options if isinstance(option, kind)]
                if aimed:
                    return min(aimed, key=lambda option: math.dist(hero, self.position(_aimed_at(option))))
            return None
        wanted = {"u": StandUp, "g": PickUp}.get(key)
        return next((option for option in options if wanted is not None and isinstance(option, wanted)), None)

    def position(self, creature: str | int) -> tuple[float, float]:
        where = self.world.get(creature, Position)
        return where.x, where.y


# ---------------------------------------------------------------------------------------------------- drawing


def fit(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut after a whole word, with an ellipsis, to fit ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    words = text.split()
    while words and font.size(" ".join(words) + " ...")[0] > width:
        words.pop()
    return " ".join(words) + " ..."


def draw(screen: pygame.Surface, game: Dungeon, font: pygame.font.Font) -> None:
    """The room, the creatures, the hero's paper doll and the log."""
    screen.fill((24, 22, 28))
    room = pygame.Rect(10, 10, int(ROOM[0] * SCALE), int(ROOM[1] * SCALE))
    pygame.draw.rect(screen, (52, 48, 44), room)
    for column in range(0, room.width, SCALE):
        pygame.draw.line(screen, (62, 58, 54), (room.x + column, room.y), (room.x + column, room.bottom))
    chest = esper.try_component(game.chest, Chest) if esper.entity_exists(game.chest) else None
    if chest is not None:
        pygame.draw.rect(screen, (170, 120, 40), (room.x + 11 * SCALE, room.y + 7 * SCALE, 24, 18))
    placed: list[tuple[int, int]] = []
    for entity, name in game.world.names.items():
        reading = game.world.readout(entity)
        x, y = game.position(entity)
        centre = (room.x + int(x * SCALE), room.y + int(y * SCALE))
        while any(math.dist(centre, other) < 26 for other in placed):  # drawn apart, never moved in the world
            centre = (centre[0], centre[1] + 30)
        placed.append(centre)
        colour = (80, 140, 230) if name == HERO else (200, 70, 70)
        pygame.draw.circle(screen, colour if reading.alive else (90, 90, 90), centre, 12)
        pygame.draw.circle(screen, TIER_COLOURS.get(reading.tier, (255, 255, 255)), centre, 12, 3)
        screen.blit(font.render(name, True, (230, 230, 230)), (centre[0] + 14, centre[1] - 6))
    draw_hud(screen, game.world.readout(HERO), pygame.Rect(room.right + 20, 10, 300, room.height), font, game)
    for row, line in enumerate(game.lines):
        shown = font.render(fit(font, line, SIZE[0] - 20), True, (210, 210, 200))
        screen.blit(shown, (10, room.bottom + 10 + row * 20))


def draw_hud(screen: pygame.Surface, hero: Readout, area: pygame.Rect, font: pygame.font.Font,
             game: Dungeon) -> None:
    """The hero's paper doll (each part by what it can do now), health bar, tier and wounds."""
    white = (235, 235, 235)
    screen.blit(font.render(f"{HERO} - {game.model} - tick {game.world.tick}", True, white), area.topleft)
    bar = pygame.Rect(area.x, area.y + 24, area.width - 20, 14)
    pygame.draw.rect(screen, (60, 60, 60), bar)
    pygame.draw.rect(screen, TIER_COLOURS.get(hero.tier, white),
                     (bar.x, bar.y, int(bar.width * hero.health_fraction), bar.height))
    screen.blit(font.render(f"{hero.tier}: {hero.label}", True, white), (area.x, area.y + 42))
    for index, part in enumerate(hero.parts):
        column, row = DOLL.get(part.name, (index % 3, 3 + index // 3))
        box = pygame.Rect(area.x + 30 + int(column * 70), area.y + 70 + int(row * 52), 64, 46)
        colour = ((20, 20, 20) if part.severed else (170, 50, 50) if part.unusable else
                  (200, 170, 60) if part.penalty else (70, 150, 80))
        pygame.draw.rect(screen, colour, box, border_radius=6)
        screen.blit(font.render(part.name.replace("Left ", "L ").replace("Right ", "R "), True, white),
                    (box.x + 3, box.y + 4))
        if part.penalty:
            screen.blit(font.render(str(part.penalty), True, white), (box.x + 3, box.y + 24))
    for row, wound in enumerate(hero.wounds[:5]):
        where = wound.location or "(no location)"
        screen.blit(font.render(f"{where}: {wound.level}"[:40], True, (230, 190, 190)),
                    (area.x, area.y + 240 + row * 18))


def main(argv: list[str] | None = None) -> Dungeon:
    """Play (a window), or play scripted ``--keys`` headless and save a ``--screenshot``."""
    parser = argparse.ArgumentParser(description="A small dungeon on the combat sandbox.")
    parser.add_argument("--keys", default=None, help="keys to play, separated by spaces (then quit)")
    parser.add_argument("--model", default="anatomy", choices=MODELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--screenshot", type=Path, default=None, help="PNG of the last frame")
    args = parser.parse_args(argv)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(SIZE)
    pygame.display.set_caption("Dungeon")
    font = pygame.font.Font(None, 20)
    game = Dungeon(seed=args.seed, model=args.model)
    playing = True
    scripted = args.keys.split() if args.keys is not None else None
    while playing:
        if scripted is not None:
            playing = bool(scripted) and game.press(scripted.pop(0))
        else:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    playing = False
                elif event.type == pygame.KEYDOWN and event.key in KEYS:
                    playing = game.press(KEYS[event.key])
        draw(screen, game, font)
        pygame.display.flip()
    if args.screenshot is not None:
        pygame.image.save(screen, str(args.screenshot))
    pygame.quit()
    return game


if __name__ == "__main__":
    main()
