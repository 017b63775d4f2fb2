"""A uniform grid spatial index: nearest-enemy and within-radius queries without scanning every creature.

The grid is rebuilt once per tick from the positions of the creatures that can be targeted (one pass, a dict of
cell -> entries). A nearest query walks rings of cells outward from the seeker and stops once no unvisited ring
can hold anything closer than the best found, so its cost follows local density, not the world's size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator


class Grid:
    """Entries ``(entity, x, y, team)`` bucketed by square cells of ``cell`` metres."""

    __slots__ = ("_bounds", "_cells", "cell", "count")

    def __init__(self, cell: float, entries: Iterable[tuple[int, float, float, str]] = ()) -> None:
        self.cell = cell
        self._cells: dict[tuple[int, int], list[tuple[int, float, float, str]]] = {}
        self.count = 0
        lo_x = lo_y = math.inf
        hi_x = hi_y = -math.inf
        inv = 1.0 / cell
        cells = self._cells
        for entry in entries:
            _, x, y, _ = entry
            key = (math.floor(x * inv), math.floor(y * inv))
            bucket = cells.get(key)
            if bucket is None:
                cells[key] = [entry]
            else:
                bucket.append(entry)
            self.count += 1
            lo_x, hi_x, lo_y, hi_y = min(lo_x, x), max(hi_x, x), min(lo_y, y), max(hi_y, y)
        self._bounds = (math.floor(lo_x * inv), math.floor(lo_y * inv), math.floor(hi_x * inv),
                        math.floor(hi_y * inv)) if self.count else (0, 0, 0, 0)

    def _max_ring(self, cx: int, cy: int) -> int:
        """The ring that reaches every occupied cell from cell (cx, cy)."""
        lo_x, lo_y, hi_x, hi_y = self._bounds
        return max(abs(cx - lo_x), abs(cx - hi_x), abs(cy - lo_y), abs(cy - hi_y))

    def _ring(self, cx: int, cy: int, r: int) -> Iterator[list[tuple[int, float, float, str]]]:
        cells = self._cells
        if r == 0:
            bucket = cells.get((cx, cy))
            if bucket:
                yield bucket
            return
        for dx in range(-r, r + 1):
            for key in ((cx + dx, cy - r), (cx + dx, cy + r)):
                bucket = cells.get(key)
                if bucket:
                    yield bucket
        for dy in range(-r + 1, r):
            for key in ((cx - r, cy + dy), (cx + r, cy + dy)):
                bucket = cells.get(key)
                if bucket:
                    yield bucket

    def nearest(self, x: float, y: float, accept: Callable[[int, str], bool]) -> tuple[int, float]:
        """The nearest accepted entry to (x, y): ``(entity, distance)``, or ``(-1, inf)`` when there is none.

        Args:
            x: Seeker position.
            y: Seeker position.
            accept: ``accept(entity, team)`` filters candidates (other teams, not the seeker itself).
        """
        if not self.count:
            return -1, math.inf
        inv = 1.0 / self.cell
        cx, cy = math.floor(x * inv), math.floor(y * inv)
        best, best_d2 = -1, math.inf
        for r in range(self._max_ring(cx, cy) + 1):
            # Anything in ring r is at least (r - 1) cells away; stop when that cannot beat the best.
            if best >= 0 and ((r - 1) * self.cell) ** 2 > best_d2:
                break
            for bucket in self._ring(cx, cy, r):
                for entity, ex, ey, team in bucket:
                    d2 = (ex - x) ** 2 + (ey - y) ** 2
                    if d2 < best_d2 and accept(entity, team):
                        best, best_d2 = entity, d2
        return best, math.sqrt(best_d2) if best >= 0 else math.inf

    def within(self, x: float, y: float, radius: float, accept: Callable[[int, str], bool]) -> list[int]:
        """Accepted entities within ``radius`` of (x, y), in cell order (deterministic)."""
        inv = 1.0 / self.cell
        cx, cy = math.floor(x * inv), math.floor(y * inv)
        rings = math.ceil(radius * inv) + 1
        r2 = radius * radius
        out = []
        for r in range(rings + 1):
            for bucket in self._ring(cx, cy, r):
                for entity, ex, ey, team in bucket:
                    if (ex - x) ** 2 + (ey - y) ** 2 <= r2 and accept(entity, team):
                        out.append(entity)
        return out
