"""Finding enemies.

The nearest one, and those within a radius, for many seekers at once, only ever within the seeker's own fight.

The candidates are sorted into a grid of square cells, fight by fight (a cell's members are one contiguous run of
the sorted candidates), and each query is a compiled walk over the cells around its seeker: the nearest widens
ring by ring until no unexamined cell could hold anything nearer, the radius query reads the cells the radius
covers. Both are exact (distances by ``hypot``, ties in distance to the lower entity), whatever the battle's size:
a duel's lab of thousands of fights and a battle of 100,000 are the same few cells a seeker.
"""

from __future__ import annotations

import math

import numpy as np

from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.state import Creatures
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray

__all__ = ["Finder"]

_PER_CELL = 2.0
"""About how many of a fight's candidates a cell holds (the cell's side follows from the fight's area)."""
_SLACK = 1e-9
"""Relative slack on a ring's distance bound: a position on a cell's edge may fall on either side by rounding."""


class Finder:
    """Enemy queries over this tick's candidates (creatures that can be targeted).

    Args:
        cr: The creatures (positions as they are now).
        candidates: Which creatures can be targeted.
    """

    def __init__(self, cr: Creatures, candidates: BoolArray) -> None:
        self.cr = cr
        members = np.flatnonzero(candidates)
        x, y = cr.x[members], cr.y[members]
        if members.size:
            self.x0, self.y0 = float(x.min()), float(y.min())
            width, height = float(x.max()) - self.x0, float(y.max()) - self.y0
        else:
            self.x0 = self.y0 = width = height = 0.0
        fights = int(cr.fight.max(initial=0)) + 1
        per_fight = max(members.size / fights, 1.0)
        area = max(width, 1.0) * max(height, 1.0)
        self.cell = max(math.sqrt(area * _PER_CELL / per_fight), 1e-3)
        self.nx = math.floor(width / self.cell) + 1
        self.ny = math.floor(height / self.cell) + 1
        # The members cell by cell (a counting sort: within a cell, by entity), and where each cell's run starts
        # (a cell per fight and grid square: about as many as there are candidates).
        self.members: IntArray = np.zeros(members.size, dtype=np.int64)
        self.starts: IntArray = np.zeros(fights * self.ny * self.nx + 1, dtype=np.int64)
        _sort_into_cells(members, cr.fight, cr.x, cr.y, self.x0, self.y0, self.cell, self.nx, self.ny, self.members,
                         self.starts)

    def _accept(self, accept: BoolArray | None) -> BoolArray:
        return np.ones(len(self.cr), dtype=np.bool_) if accept is None else accept

    def nearest(self, seekers: IntArray, accept: BoolArray | None = None) -> tuple[IntArray, FloatArray]:
        """Per seeker, the nearest accepted enemy and its distance (-1 and inf: none)."""
        n = len(seekers)
        best = np.full(n, -1, dtype=np.int64)
        best_d = np.full(n, np.inf)
        if n and self.members.size:
            cr = self.cr
            accepted = self._accept(accept)
            # Whether any accepted enemy is left in each seeker's fight (teams are numbered across fights): a seeker
            # without one is answered at once, not by a search of the whole field.
            taken = self.members[accepted[self.members]]
            per_fight = np.bincount(cr.fight[taken], minlength=int(cr.fight.max(initial=0)) + 1)
            per_team = np.bincount(cr.team[taken], minlength=int(cr.team.max(initial=0)) + 1)
            hopeful = per_fight[cr.fight[seekers]] > per_team[cr.team[seekers]]
            _nearest(seekers, hopeful, cr.x, cr.y, cr.fight, cr.team, accepted, self.starts, self.members,
                     self.x0, self.y0, self.cell, self.nx, self.ny, best, best_d)
        return best, best_d

    def within(self, seekers: IntArray, radius: float, accept: BoolArray | None = None
               ) -> tuple[IntArray, IntArray, FloatArray]:
        """Every accepted enemy within ``radius`` of each seeker.

        ``(seeker position, enemy, distance)`` triples, ordered by seeker position, then enemy.
        """
        if not len(seekers) or not self.members.size:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0)
        cr = self.cr
        counts = np.zeros(len(seekers), dtype=np.int64)
        args = (seekers, radius, cr.x, cr.y, cr.fight, cr.team, self._accept(accept), self.starts, self.members,
                self.x0, self.y0, self.cell, self.nx, self.ny)
        _within(*args, counts, np.zeros(0, dtype=np.int64), np.zeros(0), False)
        total = int(counts.sum())
        enemy = np.zeros(total, dtype=np.int64)
        dist = np.zeros(total)
        _within(*args, counts, enemy, dist, True)
        row = np.repeat(np.arange(len(seekers), dtype=np.int64), counts)
        return row, enemy, dist


@compiled
def _sort_into_cells(members: IntArray, fight: IntArray, x: FloatArray, y: FloatArray, x0: float, y0: float,
                     cell: float, nx: int, ny: int, out: IntArray, starts: IntArray) -> None:
    """``members`` (ascending) written to ``out`` cell by cell, in key order ``(fight, row, column)``.

    Each cell's first place goes in ``starts``, whose last entry is the count.
    """
    keys = np.empty(members.shape[0], dtype=np.int64)
    for k in range(members.shape[0]):
        i = members[k]
        # As the queries place a position (floor of the quotient), so that a candidate is where they look for it.
        cx = min(max(math.floor((x[i] - x0) / cell), 0), nx - 1)
        cy = min(max(math.floor((y[i] - y0) / cell), 0), ny - 1)
        keys[k] = (fight[i] * ny + cy) * nx + cx
        starts[keys[k] + 1] += 1
    for c in range(1, starts.shape[0]):
        starts[c] += starts[c - 1]
    filled = starts[:-1].copy()
    for k in range(members.shape[0]):
        out[filled[keys[k]]] = members[k]
        filled[keys[k]] += 1


@compiled
def _cell_run(starts: IntArray, fight: int, row: int, first: int, last: int, nx: int, ny: int) -> tuple[int, int]:
    """The members of cells ``first..last`` of grid row ``row`` of ``fight``: one run of the sorted members."""
    base = (fight * ny + row) * nx
    return starts[base + first], starts[base + last + 1]


@compiled
def _nearest_in(starts: IntArray, members: IntArray, f: int, row: int, first: int, last: int, nx: int, ny: int,
                i: int, team: IntArray, accept: BoolArray, x: FloatArray, y: FloatArray, b: int, bd: float
                ) -> tuple[int, float]:
    """The nearest so far (``b`` at squared distance ``bd``) after the cells ``first..last`` of ``row``."""
    lo, hi = _cell_run(starts, f, row, first, last, nx, ny)
    for k in range(lo, hi):
        j = members[k]
        if team[j] == team[i] or not accept[j]:
            continue
        dx, dy = x[j] - x[i], y[j] - y[i]
        d = dx * dx + dy * dy  # squared: the order is the distance's, a root only for the best
        if d < bd or (d == bd and j < b):
            b = j
            bd = d
    return b, bd


@compiled
def _nearest(seekers: IntArray, hopeful: BoolArray, x: FloatArray, y: FloatArray, fight: IntArray,
             team: IntArray, accept: BoolArray, starts: IntArray, members: IntArray, x0: float, y0: float,
             cell: float, nx: int, ny: int, best: IntArray, best_d: FloatArray) -> None:
    """Per seeker, ring by ring from its cell: the nearest accepted member of another team of its fight.

    After ring ``r`` every unexamined cell is at least ``r`` cells away, so a best distance below ``r`` cells is
    final (equal is not: a lower entity may tie beyond).
    """
    for s in range(seekers.shape[0]):
        i = seekers[s]
        f = fight[i]
        cx = math.floor((x[i] - x0) / cell)
        cy = math.floor((y[i] - y0) / cell)
        last_ring = max(cx, nx - 1 - cx, cy, ny - 1 - cy, 0)
        b = -1
        bd = np.inf
        if not hopeful[s]:
            last_ring = -1  # no accepted enemy anywhere in its fight: nothing to look for
        for r in range(last_ring + 1):
            # Ring r: its top and bottom rows whole, and its two side columns between them where they are on the
            # grid (a long, narrow battle has no side columns past its width: a ring costs two rows there).
            first, last = max(cx - r, 0), min(cx + r, nx - 1)
            for side in range(2 if r > 0 else 1):
                row = cy - r if side == 0 else cy + r
                if 0 <= row < ny and first <= last:
                    b, bd = _nearest_in(starts, members, f, row, first, last, nx, ny, i, team, accept, x, y, b, bd)
            for column in (cx - r, cx + r):
                if r == 0 or not 0 <= column < nx:
                    continue
                for row in range(max(cy - r + 1, 0), min(cy + r - 1, ny - 1) + 1):
                    b, bd = _nearest_in(starts, members, f, row, column, column, nx, ny, i, team, accept, x, y, b, bd)
            if b >= 0 and bd < (r * cell * (1.0 - _SLACK)) ** 2:
                break
        best[s] = b
        best_d[s] = math.hypot(x[b] - x[i], y[b] - y[i]) if b >= 0 else np.inf


@compiled
def _within(seekers: IntArray, radius: float, x: FloatArray, y: FloatArray, fight: IntArray, team: IntArray,
            accept: BoolArray, starts: IntArray, members: IntArray, x0: float, y0: float, cell: float, nx: int,
            ny: int, counts: IntArray, enemy: IntArray, dist: FloatArray, fill: bool) -> None:
    """Per seeker, the accepted members of other teams of its fight within ``radius``.

    Counted (``fill`` false), or written in entity order at each seeker's place (``fill`` true, ``counts`` from the
    first pass).
    """
    at = 0
    for s in range(seekers.shape[0]):
        i = seekers[s]
        f = fight[i]
        reach = radius * (1.0 + _SLACK)  # the box of cells a little wider than the radius: rounding never hides one
        first = max(math.floor((x[i] - reach - x0) / cell), 0)
        last = min(math.floor((x[i] + reach - x0) / cell), nx - 1)
        bottom = max(math.floor((y[i] - reach - y0) / cell), 0)
        top = min(math.floor((y[i] + reach - y0) / cell), ny - 1)
        start = at
        found = 0
        if first <= last:
            for gy in range(bottom, top + 1):
                lo, hi = _cell_run(starts, f, gy, first, last, nx, ny)
                for k in range(lo, hi):
                    j = members[k]
                    if team[j] == team[i] or not accept[j]:
                        continue
                    d = math.hypot(x[j] - x[i], y[j] - y[i])
                    if d > radius:
                        continue
                    if fill:
                        # Insertion into this seeker's run, kept in entity order.
                        p = start + found
                        while p > start and enemy[p - 1] > j:
                            enemy[p] = enemy[p - 1]
                            dist[p] = dist[p - 1]
                            p -= 1
                        enemy[p] = j
                        dist[p] = d
                    found += 1
        if fill:
            at += counts[s]
        else:
            counts[s] = found
