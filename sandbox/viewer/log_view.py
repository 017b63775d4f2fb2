"""Drawing the combat log.

A line per attack up to the tick shown (the newest at the bottom, or scrolled back with the wheel), and above it the
chosen attack explained step by step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from sandbox.viewer.entries import Attack
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.theme import DIM, EXPLAIN, FAINT, HIGHLIGHT, PANEL_DARK, RULE, TEXT

__all__ = ["EXPLAIN_SHARE", "LogDrawn", "draw_log"]

EXPLAIN_SHARE = 0.55
"""The most of the log's height an explanation takes."""


@dataclass(frozen=True, slots=True)
class LogDrawn:
    """What a drawn log leaves for hit tests.

    Attributes:
        rows: (row box, index of its attack) for every line shown.
        first: The index of the first attack shown.
        room: How many lines fit.
    """

    rows: list[tuple[pygame.Rect, int]]
    first: int
    room: int

    def moved(self, offset: tuple[int, int]) -> LogDrawn:
        """The same, drawn ``offset`` pixels further right and down (a panel drawn apart, then blitted)."""
        return LogDrawn([(rect.move(*offset), index) for rect, index in self.rows], self.first, self.room)


_LANDED: list[tuple[int, int, int]] = [(0, 0, 0)]  # (id of the attacks, their count, how many landed)


def _landed(attacks: Sequence[Attack]) -> int:
    """How many of ``attacks`` reached the body.

    The answer is remembered for the last sequence asked about: a frame asks again about the same one.
    """
    key, count, landed = _LANDED[0]
    if key != id(attacks) or count != len(attacks):
        landed = sum(1 for a in attacks if a.struck)
        _LANDED[0] = (id(attacks), len(attacks), landed)
    return landed


def draw_log(surface: pygame.Surface, rect: pygame.Rect, attacks: Sequence[Attack], names: Mapping[int, str],
             type_: Typeset, *, chosen: int | None, first: int | None) -> LogDrawn:
    """The log in ``rect``.

    ``chosen`` is the attack explained, ``first`` the first line shown (``None``: the newest lines).
    """
    surface.fill(PANEL_DARK, rect)
    x, y, width = rect.x + 10, rect.y + 6, rect.width - 20
    if chosen is not None and 0 <= chosen < len(attacks):
        surface.blit(type_.render("Attack explained (Up/Down to walk the log, click a line)", "heading", TEXT),
                     (x, y))
        y += type_.line_height["heading"]
        limit = rect.y + int(rect.height * EXPLAIN_SHARE)
        for line in attacks[chosen].explain(names):
            for piece in type_.wrap(line, "small", width):
                if y + type_.line_height["small"] > limit:
                    break
                surface.blit(type_.render(piece, "small", EXPLAIN), (x, y))
                y += type_.line_height["small"]
        y += 3
        pygame.draw.line(surface, RULE, (x, y), (x + width, y))
        y += 4
    landed = _landed(attacks)
    surface.blit(type_.render(f"Combat log: {len(attacks)} attacks, {landed} reached the body", "heading", TEXT),
                 (x, y))
    y += type_.line_height["heading"] + 1
    row_h = type_.line_height["small"]
    room = max(1, (rect.bottom - y - 2) // row_h)
    start = max(0, len(attacks) - room) if first is None else min(max(first, 0), max(0, len(attacks) - room))
    rows: list[tuple[pygame.Rect, int]] = []
    if not attacks:
        surface.blit(type_.render("no attacks yet", "small", FAINT), (x, y))
    for index in range(start, min(len(attacks), start + room)):
        attack = attacks[index]
        colour = HIGHLIGHT if index == chosen else (TEXT if attack.struck else DIM)
        line = type_.clip(f"{attack.tick:>3}  {attack.line(names)}", "small", width)
        surface.blit(type_.render(line, "small", colour), (x, y))
        rows.append((pygame.Rect(rect.x, y, rect.width, row_h), index))
        y += row_h
    if first is not None and start + room < len(attacks):
        more = type_.render(f"▼ {len(attacks) - start - room} newer (wheel down, or End)", "small", EXPLAIN)
        surface.blit(more, (rect.right - more.get_width() - 10, rect.bottom - row_h))
    return LogDrawn(rows, start, room)
