"""Make the README's viewer screenshots, headless (the dummy video driver), from the shipped scenarios.

Run from the repository: ``python docs/screenshots/make.py [--out docs/screenshots]``. Each shot is a viewer driven
through its public API and its input events, as a designer would click: the same seeds give the same pictures.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # the drivers must be chosen first (above)

from sandbox.viewer import Viewer


def _play(viewer: Viewer, ticks: int) -> None:
    for _ in range(ticks):
        if viewer.finished:
            break
        viewer.tick_once()
    for _ in range(20):  # the last tick's labels fade in, as in a window
        viewer.update(1 / 60)
    viewer.paused = True


def _hover(viewer: Viewer, pos: tuple[int, int]) -> None:
    viewer.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def _location(viewer: Viewer, name: str) -> tuple[int, int]:
    pane = viewer.panes[0]
    figure = pane.shown.scene.figures[viewer.selected]  # type: ignore[index]
    assert figure.body is not None and pane.drawn_body is not None
    return pane.drawn_body.locations[figure.body.location_index(name)].center


def duel() -> Viewer:
    """The duel: Bertram's body and the last blow explained."""
    viewer = Viewer("duel", seed=3)
    _play(viewer, 9)
    viewer.select("Bertram")
    viewer.draw()
    viewer.panes[0].chosen = len(viewer.records) - 1 - next(
        k for k, a in enumerate(reversed(viewer.records)) if a.struck)
    return viewer


def skirmish() -> Viewer:
    """The skirmish, zoomed on the melee with the wheel, every name shown (N)."""
    viewer = Viewer("skirmish", seed=1)
    _play(viewer, 14)
    viewer.select("Blue Mace")
    viewer.all_names = True
    viewer.draw()
    pane = viewer.panes[0]
    assert pane.drawn_field is not None
    at = pane.drawn_field.positions[viewer.selected]  # type: ignore[index]
    _hover(viewer, at)
    viewer.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=8))
    _hover(viewer, (pane.rects.field.x + 5, pane.rects.field.y + 5))
    return viewer


def battle() -> Viewer:
    """The battle: a hundred a side; the most wounded creature's list scrolls."""
    viewer = Viewer("battle", seed=0)
    _play(viewer, 89)
    scene = viewer.panes[0].shown.scene
    viewer.select(scene.figures[max(scene.readouts, key=lambda e: len(scene.readouts[e].wounds))].name)
    return viewer


def bestiary() -> Viewer:
    """The bestiary: the dragon's body at location level, every creature named (N)."""
    viewer = Viewer("bestiary", seed=1)
    _play(viewer, 6)
    viewer.select("Dragon")
    viewer.all_names = True
    return viewer


def split() -> Viewer:
    """The skirmish under three models side by side."""
    viewer = Viewer("skirmish", seed=4, models=["anatomy", "severity", "depth"])
    _play(viewer, 8)
    viewer.select("Blue Mace")
    return viewer


def hover() -> Viewer:
    """The duel: Bertram's Skull hovered, with Aldric's exact odds there."""
    viewer = Viewer("duel", seed=3)
    _play(viewer, 6)
    viewer.select("Bertram")
    viewer.choose_attacker("Aldric")
    viewer.draw()
    _hover(viewer, _location(viewer, "Skull"))
    return viewer


def array() -> Viewer:
    """The duel on the array engine: Bertram's body panel and the log of every landed blow."""
    viewer = Viewer("duel", seed=3, engine="array")
    viewer.paused = True  # the shot's own ticks only
    for _ in range(31):  # a tick every half second, as a window plays it: the older blows' labels fade
        viewer.tick_once()
        for _ in range(30):
            viewer.update(1 / 60)
    _play(viewer, 1)
    viewer.select("Bertram")
    return viewer


SHOTS: dict[str, Callable[[], Viewer]] = {"duel": duel, "skirmish": skirmish, "battle": battle,
                                         "bestiary": bestiary, "split": split, "hover": hover, "array": array}


def main() -> None:
    """Make the shots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("shots", nargs="*", default=list(SHOTS))
    args = parser.parse_args()
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    for name in args.shots:
        viewer = SHOTS[name]()
        try:
            viewer.save(args.out / f"{name}.png")
            print(f"{args.out / name}.png: {viewer.panes[0].feed.title}, tick {viewer.tick}")
        finally:
            viewer.close()


if __name__ == "__main__":
    main()
