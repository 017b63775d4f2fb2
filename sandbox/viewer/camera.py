"""The field's camera.

Which metres of the field a rectangle of pixels shows, zoomed with the wheel, panned by dragging, fitted to the fight,
or following one creature.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MAX_SCALE", "MIN_EXTENT", "MIN_SCALE", "MIN_SPAN", "Camera"]

MIN_SCALE = 2.0
"""Pixels per metre at the widest zoom."""
MAX_SCALE = 160.0
"""Pixels per metre at the closest zoom."""
MIN_SPAN = 7.0
"""The fewest metres a fit shows across the view's longer side (two duellists a metre apart are not drawn a screen
wide)."""
MIN_EXTENT = 1.0
"""The fewest metres a fit shows across either side (a creature is nearly a metre wide)."""


@dataclass(slots=True)
class Camera:
    """Metres to pixels: the field point at the centre of the view and the pixels per metre.

    Attributes:
        x: Field point (metres) at the centre of the view.
        y: Field point (metres) at the centre of the view.
        scale: Pixels per metre.
        follow: Keep the selected creature at the centre.
    """

    x: float = 0.0
    y: float = 0.0
    scale: float = 20.0
    follow: bool = False

    def to_screen(self, x: float, y: float, view: tuple[int, int, int, int]) -> tuple[int, int]:
        """A field point in pixels of ``view`` (x, y, width, height)."""
        vx, vy, vw, vh = view
        return (int(vx + vw / 2 + (x - self.x) * self.scale), int(vy + vh / 2 + (y - self.y) * self.scale))

    def to_field(self, px: float, py: float, view: tuple[int, int, int, int]) -> tuple[float, float]:
        """A pixel of ``view`` as a field point."""
        vx, vy, vw, vh = view
        return (self.x + (px - vx - vw / 2) / self.scale, self.y + (py - vy - vh / 2) / self.scale)

    def fit(self, points: Iterable[tuple[float, float]], view: tuple[int, int, int, int],
            margin: float = 0.1) -> None:
        """Show every point, with ``margin`` of the view to spare on each side.

        At least ``MIN_SPAN`` metres show across the view's longer side (a short wide pane zooms in on a fight that is
        wide but not deep).
        """
        pts = list(points) or [(0.0, 0.0)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        span_x = max(max(xs) - min(xs), MIN_EXTENT)
        span_y = max(max(ys) - min(ys), MIN_EXTENT)
        _, _, vw, vh = view
        usable = 1.0 - 2 * margin
        self.x, self.y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        self.scale = _clamp(min(vw * usable / span_x, vh * usable / span_y, max(vw, vh) * usable / MIN_SPAN))

    def zoom(self, factor: float, at: tuple[int, int], view: tuple[int, int, int, int]) -> None:
        """Zoom by ``factor`` keeping the field point under the pixel ``at`` where it is."""
        before = self.to_field(at[0], at[1], view)
        self.scale = _clamp(self.scale * factor)
        after = self.to_field(at[0], at[1], view)
        self.x += before[0] - after[0]
        self.y += before[1] - after[1]

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by a drag of ``(dx, dy)`` pixels (the field follows the pointer)."""
        self.x -= dx / self.scale
        self.y -= dy / self.scale

    def centre_on(self, x: float, y: float) -> None:
        """Put a field point at the centre."""
        self.x, self.y = x, y


def _clamp(scale: float) -> float:
    return min(max(scale, MIN_SCALE), MAX_SCALE)
