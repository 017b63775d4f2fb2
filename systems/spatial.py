"""A two-level grid spatial index: nearest-enemy and within-radius queries without scanning every creature.

The grid is rebuilt once per tick from the positions of the creatures that can be targeted (one pass, a dict of
cell -> entries, and a coarse dict of blocks of cells). A nearest query walks rings of fine cells outward from
the seeker and stops once no unvisited ring can hold anything closer than the best found, so its cost follows
local density, not the world's size. Past ``fine_rings`` rings (a seeker far from every candidate) it switches
to the coarse blocks and takes the nearest entry of the nearest occupied ring of blocks: approximate (off by at
most a block's diagonal), and cheap where exactness would mean walking hundreds of empty cells.

No query costs more than a pass over the occupied cells, whatever the coordinates or the cell size: where walking
rings outward would visit more (empty) cells than there are occupied ones (a seeker kilometres from the rest, a
radius of thousands of cells), the query ranks the occupied cells by the ring they lie in, in the order the walk
would have met them, and gives the walk's own answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator

__all__ = ["WALK_LIMIT", "Grid"]

WALK_LIMIT = 4
"""A query walks rings of cells while they hold at most this many cells per occupied cell; past that it ranks the
occupied cells instead (the same answer)."""


class Grid:
    """Entries ``(entity, x, y, team)`` bucketed by square cells of ``cell`` metres."""

    __slots__ = ("_blocks", "_bounds", "_cells", "block", "cell", "count", "fine_rings")

    def __init__(self, cell: float, entries: Iterable[tuple[int, float, float, str]] = (), *, block: int = 4,
                 fine_rings: int = 6) -> None:
        self.cell = cell
        self.block = block
        self.fine_rings = fine_rings
        cells: dict[tuple[int, int], list[tuple[int, float, float, str]]] = {}
        self._cells = cells
        self._blocks: dict[tuple[int, int], list[tuple[int, float, float, str]]] | None = None  # built on demand
        inv = 1.0 / cell
        floor = math.floor
        # One tight pass (rebuilt every tick for every targetable creature): the bounds come from the cell keys
        # afterwards, and the coarse blocks only when a far-off seeker first needs them.
        for entry in entries:
            key = (floor(entry[1] * inv), floor(entry[2] * inv))
            bucket = cells.get(key)
            if bucket is None:
                cells[key] = [entry]
            else:
                bucket.append(entry)
        self.count = sum(len(b) for b in cells.values())
        if cells:
            xs = [k[0] for k in cells]
            ys = [k[1] for k in cells]
            self._bounds = (min(xs), min(ys), max(xs), max(ys))
        else:
            self._bounds = (0, 0, 0, 0)

    def _coarse(self) -> dict[tuple[int, int], list[tuple[int, float, float, str]]]:
        """Blocks of ``block`` x ``block`` cells, their entries grouped by cell (a deterministic order)."""
        if self._blocks is None:
            block = self.block
            blocks: dict[tuple[int, int], list[tuple[int, float, float, str]]] = {}
            for key, bucket in self._cells.items():
                blocks.setdefault((key[0] // block, key[1] // block), []).extend(bucket)
            self._blocks = blocks
        return self._blocks

    def _max_ring(self, cx: int, cy: int) -> int:
        """The ring that reaches every occupied cell from cell (cx, cy)."""
        lo_x, lo_y, hi_x, hi_y = self._bounds
        return max(abs(cx - lo_x), abs(cx - hi_x), abs(cy - lo_y), abs(cy - hi_y))

    def _ring(self, cx: int, cy: int, r: int, cells: dict[tuple[int, int], list[tuple[int, float, float, str]]]
              | None = None) -> Iterator[list[tuple[int, float, float, str]]]:
        cells = self._cells if cells is None else cells
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

    def nearest(self, x: float, y: float, accept: Callable[[int, str], bool] | None = None) -> tuple[int, float]:
        """The nearest accepted entry to (x, y): ``(entity, distance)``, or ``(-1, inf)`` when there is none.

        Args:
            x: Seeker position.
            y: Seeker position.
            accept: ``accept(entity, team)`` filters candidates (default: every entry).
        """
        if not self.count:
            return -1, math.inf
        inv = 1.0 / self.cell
        cx, cy = math.floor(x * inv), math.floor(y * inv)
        best, best_d2 = -1, math.inf
        last = self._max_ring(cx, cy)
        for r in range(last + 1):
            # Anything in ring r is at least (r - 1) cells away; stop when that cannot beat the best.
            if best >= 0 and ((r - 1) * self.cell) ** 2 > best_d2:
                break
            if best < 0 and r > self.fine_rings:
                return self._coarse_nearest(x, y, cx // self.block, cy // self.block, accept)
            for bucket in self._ring(cx, cy, r):
                for entity, ex, ey, team in bucket:
                    dx, dy = ex - x, ey - y
                    d2 = dx * dx + dy * dy
                    if d2 < best_d2 and (accept is None or accept(entity, team)):
                        best, best_d2 = entity, d2
        return best, math.sqrt(best_d2) if best >= 0 else math.inf

    def _coarse_nearest(self, x: float, y: float, bx: int, by: int,
                        accept: Callable[[int, str], bool] | None) -> tuple[int, float]:
        """Nearest accepted entry of the block whose centre is nearest, in the nearest ring of blocks holding one."""
        span = self.cell * self.block
        reach = self._max_ring(bx * self.block, by * self.block) // self.block + 2
        cells = self._coarse()

        def rank(key: tuple[int, int]) -> tuple[float, tuple[int, int]]:
            dx, dy = (key[0] + 0.5) * span - x, (key[1] + 0.5) * span - y
            return dx * dx + dy * dy, key

        if (2 * reach + 1) ** 2 > WALK_LIMIT * len(cells):
            # Walking the rings would visit mostly empty blocks: rank the occupied ones by ring, then as each ring
            # is ranked (the same answer, at the cost of the occupied blocks alone).
            rings: dict[int, list[tuple[int, int]]] = {}
            for key in cells:
                rings.setdefault(self._walk_order(bx, by, key)[0], []).append(key)
            order: Iterable[list[tuple[int, int]]] = (rings[r] for r in sorted(rings))
        else:
            order = ([key for key in self._ring_keys(bx, by, r) if cells.get(key)] for r in range(reach + 1))
        for ring in order:
            ranked = sorted(((*rank(key), cells[key]) for key in ring), key=lambda item: (item[0], item[1]))
            for _, _, bucket in ranked:
                best, best_d2 = -1, math.inf
                for entity, ex, ey, team in bucket:
                    dx, dy = ex - x, ey - y
                    d2 = dx * dx + dy * dy
                    if d2 < best_d2 and (accept is None or accept(entity, team)):
                        best, best_d2 = entity, d2
                if best >= 0:
                    return best, math.sqrt(best_d2)
        return -1, math.inf

    @staticmethod
    def _walk_order(cx: int, cy: int, key: tuple[int, int]) -> tuple[int, int]:
        """``(ring, index within the ring)`` of cell ``key`` in the order ``_ring`` and ``_ring_keys`` visit cells.

        They visit the cells around (cx, cy): the rows ``cy - r`` and ``cy + r`` cell by cell from ``cx - r``, then the
        columns ``cx - r`` and ``cx + r`` from ``cy - r + 1``.
        """
        dx, dy = key[0] - cx, key[1] - cy
        r = max(abs(dx), abs(dy))
        if r == 0:
            return 0, 0
        if abs(dy) == r:
            return r, 2 * (dx + r) + (dy > 0)
        return r, 2 * (2 * r + 1) + 2 * (dy + r - 1) + (dx > 0)

    @staticmethod
    def _ring_keys(cx: int, cy: int, r: int) -> Iterator[tuple[int, int]]:
        if r == 0:
            yield (cx, cy)
            return
        for dx in range(-r, r + 1):
            yield (cx + dx, cy - r)
            yield (cx + dx, cy + r)
        for dy in range(-r + 1, r):
            yield (cx - r, cy + dy)
            yield (cx + r, cy + dy)

    def within(self, x: float, y: float, radius: float, accept: Callable[[int, str], bool] | None = None
               ) -> list[int]:
        """Accepted entities within ``radius`` of (x, y), in cell order (deterministic)."""
        if not self.count:
            return []
        inv = 1.0 / self.cell
        cx, cy = math.floor(x * inv), math.floor(y * inv)
        rings = min(math.ceil(radius * inv) + 1, self._max_ring(cx, cy))
        r2 = radius * radius
        if (2 * rings + 1) ** 2 > WALK_LIMIT * len(self._cells):
            # More cells in the radius than occupied ones: the occupied cells in the walk's order instead.
            ordered = sorted((self._walk_order(cx, cy, key), key) for key in self._cells)
            buckets: Iterable[list[tuple[int, float, float, str]]] = (
                self._cells[key] for (r, _), key in ordered if r <= rings)
        else:
            buckets = (bucket for r in range(rings + 1) for bucket in self._ring(cx, cy, r))
        out = []
        for bucket in buckets:
            for entity, ex, ey, team in bucket:
                if (ex - x) ** 2 + (ey - y) ** 2 <= r2 and (accept is None or accept(entity, team)):
                    out.append(entity)
        return out
