"""Drawing the timeline.

A lane per pane with a bar per tick for the blows that landed and a red mark where creatures went down, the ticks played
shaded, and the tick shown as a handle to drag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from sandbox.viewer.budget import Budget
from sandbox.viewer.feeds import Shown
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.theme import DIM, DOWN, FAINT, HIGHLIGHT, LANDED, PANEL_DARK, RULE, TEXT, fade

__all__ = ["LABEL_WIDTH", "Span", "Timeline", "span_of"]

LABEL_WIDTH = 92
"""Pixels at the left of each lane for its name."""


@dataclass(frozen=True, slots=True)
class Span:
    """The ticks the timeline spans and the pixels it spans them over.

    Attributes:
        first: The first tick.
        last: The last tick.
        left: The pixel of the first tick.
        right: The pixel of the last tick.
    """

    first: int
    last: int
    left: int
    right: int

    def x(self, tick: float) -> int:
        """The pixel of ``tick``."""
        if self.last <= self.first:
            return self.left
        return int(self.left + (tick - self.first) * (self.right - self.left) / (self.last - self.first))

    def tick(self, x: float) -> int:
        """The tick at pixel ``x`` (clamped to the span)."""
        if self.right <= self.left:
            return self.first
        t = self.first + (x - self.left) * (self.last - self.first) / (self.right - self.left)
        return int(min(max(round(t), self.first), self.last))


def span_of(rect: pygame.Rect, shown: Sequence[Shown]) -> Span:
    """The span of a timeline in ``rect`` over the panes' ticks (at least 10 ticks, so a new fight has room)."""
    first = min(s.start for s in shown)
    last = max(max(s.played for s in shown), first + 10)
    return Span(first, last, rect.x + LABEL_WIDTH, rect.right - 12)


class Timeline:
    """The timeline of every pane, its lanes drawn once per change and its handle every frame."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] = ()
        self._lanes: pygame.Surface | None = None
        self._span = Span(0, 10, 0, 1)

    def invalidate(self) -> None:
        """Forget the lanes as last drawn."""
        self._key = ()
        self._lanes = None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, shown: Sequence[Shown], labels: Sequence[str],
             type_: Typeset, paused: bool, budget: Budget | None = None) -> Span:
        """Draw the timeline in ``rect``; returns its span (for turning a click into a tick).

        The lanes are drawn again when the marks changed and ``budget`` has a redraw left (see ``Pane.draw``).
        """
        key = (rect.size, tuple((s.played, s.start, len(s.marks)) for s in shown), tuple(labels))
        resized = self._lanes is None or self._lanes.get_size() != rect.size
        if key != self._key and (resized or budget is None or budget.spend()):
            self._span = span_of(rect, shown)
            self._lanes = self._draw_lanes(rect.size, self._span, shown, labels, type_, rect.x)
            self._key = key
        span = self._span
        assert self._lanes is not None
        surface.blit(self._lanes, rect.topleft)
        lane_h = (rect.height - 16) // max(len(shown), 1)
        for k, s in enumerate(shown):
            x = span.x(s.scene.tick)
            top = rect.y + 3 + k * lane_h
            pygame.draw.line(surface, HIGHLIGHT, (x, top), (x, top + lane_h - 2), 2)
        tick = shown[0].scene.tick
        x = span.x(tick)
        handle = pygame.Rect(x - 5, rect.bottom - 14, 10, 11)
        pygame.draw.rect(surface, HIGHLIGHT, handle, border_radius=2)
        text = f"tick {tick}" + (f" of {shown[0].played}" if shown[0].played else "") + ("  paused" if paused else "")
        label = type_.render(text, "small", TEXT)
        surface.blit(label, (rect.x + 6, rect.bottom - 15))
        return span

    @staticmethod
    def _draw_lanes(size: tuple[int, int], span: Span, shown: Sequence[Shown], labels: Sequence[str],
                    type_: Typeset, origin_x: int) -> pygame.Surface:
        lanes = pygame.Surface(size)
        lanes.fill(PANEL_DARK)
        local = Span(span.first, span.last, span.left - origin_x, span.right - origin_x)
        width, height = size
        lane_h = (height - 16) // max(len(shown), 1)
        step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000)
                    if (local.x(span.first + s) - local.x(span.first)) >= 40)
        for tick in range(span.first - span.first % step, span.last + 1, step):
            if tick < span.first:
                continue
            x = local.x(tick)
            pygame.draw.line(lanes, RULE, (x, height - 16), (x, height - 12))
            number = type_.render(str(tick), "tiny", FAINT)
            if x + number.get_width() // 2 < width - 2:
                lanes.blit(number, (x - number.get_width() // 2, height - 12))
        for k, s in enumerate(shown):
            top = 3 + k * lane_h
            played = pygame.Rect(local.x(s.start), top, max(1, local.x(s.played) - local.x(s.start)), lane_h - 2)
            pygame.draw.rect(lanes, (40, 44, 52), played)
            name = type_.render(type_.clip(labels[k], "small", LABEL_WIDTH - 10), "small", DIM)
            lanes.blit(name, (6, top + (lane_h - name.get_height()) // 2 - 1))
            most = max((m.landed for m in s.marks.values()), default=0) or 1
            bar_w = max(1, (local.right - local.left) // max(span.last - span.first, 1) - 1)
            for tick, marks in s.marks.items():
                x = local.x(tick)
                if marks.landed:
                    h = max(2, int((lane_h - 8) * marks.landed / most))
                    pygame.draw.rect(lanes, fade(LANDED, 0.75, PANEL_DARK),
                                     pygame.Rect(x - bar_w // 2, top + lane_h - 2 - h, bar_w, h))
                if marks.downs:  # a red mark, longer the more went down
                    tip = top + min(3 + 2 * len(marks.downs), lane_h // 2)
                    pygame.draw.polygon(lanes, DOWN, [(x - 3, top), (x + 3, top), (x, tip)])
        pygame.draw.line(lanes, RULE, (0, 0), (width, 0))
        return lanes
