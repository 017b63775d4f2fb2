"""Finding enemies: the nearest one, and those within a radius, for many seekers at once, only ever within the
seeker's own fight.

Small fights (every fight at most ``DENSE_MAX`` candidates: a duel, a skirmish, a batch of thousands of duels)
measure every seeker against every candidate of its fight in one padded matrix. Large fights build a k-d tree
(``scipy.spatial.cKDTree``) per team over its candidates. Both are exact; ties in distance go to the lower
entity.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from systems.arrays.state import Creatures
from systems.arrays.tables import BoolArray, FloatArray, IntArray

DENSE_MAX = 512
"""Fights with at most this many candidates are searched by the padded distance matrix."""
NEAREST_FIRST = 8
"""How many nearest members a tree is first asked for (most seekers find an accepted foe among them)."""
NEAREST_GROWTH = 8
"""How much more is asked, each time, of the seekers that did not."""


class Finder:
    """Enemy queries over this tick's candidates (creatures that can be targeted).

    Args:
        cr: The creatures (positions as they are now).
        candidates: Which creatures can be targeted.
    """

    def __init__(self, cr: Creatures, candidates: BoolArray) -> None:
        self.cr = cr
        self.candidates = np.flatnonzero(candidates)
        fights = cr.fight[self.candidates]
        counts = np.bincount(fights, minlength=int(cr.fight.max(initial=0)) + 1)
        self.dense = int(counts.max(initial=0)) <= DENSE_MAX
        if self.dense:
            order = np.argsort(fights, kind="stable")
            ordered = self.candidates[order]
            starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
            width = max(int(counts.max(initial=0)), 1)
            slot = np.arange(len(ordered)) - starts[fights[order]]
            self.slots = np.full((len(counts), width), -1, dtype=np.int64)
            self.slots[fights[order], slot] = ordered
        self._trees: dict[int, tuple[cKDTree, IntArray]] = {}
        teams, first = np.unique(cr.team[self.candidates], return_index=True)
        self._team_fights = list(zip(teams.tolist(), cr.fight[self.candidates[first]].tolist(), strict=True))
        """Each candidate team and its fight (a team fights in one fight)."""

    # ------------------------------------------------------------------ dense

    def _dense(self, seekers: IntArray, accept: BoolArray | None) -> tuple[IntArray, FloatArray]:
        cr = self.cr
        rows = self.slots[cr.fight[seekers]]
        valid = rows >= 0
        safe = np.maximum(rows, 0)
        ok = valid & (cr.team[safe] != cr.team[seekers][:, None])
        if accept is not None:
            ok &= accept[safe]
        dist = np.hypot(cr.x[safe] - cr.x[seekers][:, None], cr.y[safe] - cr.y[seekers][:, None])
        return np.where(ok, safe, -1), np.where(ok, dist, np.inf)

    # ------------------------------------------------------------------ trees

    def _team_tree(self, team: int) -> tuple[cKDTree, IntArray] | None:
        """The k-d tree of a team's candidates and their entities, built once per ``Finder`` (a query that
        accepts only some filters what the tree returns)."""
        found = self._trees.get(team)
        if found is None:
            cr = self.cr
            members = self.candidates[cr.team[self.candidates] == team]
            if not members.size:
                return None
            found = self._trees[team] = (cKDTree(np.column_stack([cr.x[members], cr.y[members]])), members)
        return found

    def _tree_nearest(self, tree: cKDTree, members: IntArray, points: FloatArray, accept: BoolArray | None
                      ) -> tuple[IntArray, FloatArray]:
        """Per point, the nearest accepted member (ties to the lower entity) and its distance (-1, inf: none).

        The tree is asked for the ``k`` nearest, ``k`` growing for the points whose answer is not settled among
        them: none accepted, or the best tied with the farthest returned (a tie may lie beyond)."""
        n = len(points)
        best = np.full(n, -1, dtype=np.int64)
        best_d = np.full(n, np.inf)
        rows = np.arange(n)
        k = NEAREST_FIRST
        while rows.size:
            k = min(k, len(members))
            d, j = tree.query(points[rows], k=[*range(1, k + 1)])
            who = members[np.minimum(j, len(members) - 1)]
            ok = np.isfinite(d) if accept is None else np.isfinite(d) & accept[who]
            score = np.where(ok, d, np.inf)
            near = score.min(axis=1)
            pick = np.where(ok & (score == near[:, None]), who, np.iinfo(np.int64).max).min(axis=1)
            settled = (k == len(members)) | (np.isfinite(near) & (near < d[:, -1]))
            done = rows[settled]
            best[done] = np.where(np.isfinite(near[settled]), pick[settled], -1)
            best_d[done] = near[settled]
            rows = rows[~settled]
            k *= NEAREST_GROWTH
        return best, best_d

    def _enemy_teams(self, seekers: IntArray) -> dict[int, IntArray]:
        """Per candidate team, which of ``seekers`` (positions into it) are its enemies (same fight, other team)."""
        cr = self.cr
        out: dict[int, IntArray] = {}
        fight, team_of = cr.fight[seekers], cr.team[seekers]
        for team, its_fight in self._team_fights:
            mask = (fight == its_fight) & (team_of != team)
            if mask.any():
                out[team] = np.flatnonzero(mask)
        return out

    # ------------------------------------------------------------------ queries

    def nearest(self, seekers: IntArray, accept: BoolArray | None = None) -> tuple[IntArray, FloatArray]:
        """Per seeker, the nearest accepted enemy and its distance (-1 and inf: none)."""
        n = len(seekers)
        if not n or not self.candidates.size:
            return np.full(n, -1, dtype=np.int64), np.full(n, np.inf)
        if self.dense:
            found, dist = self._dense(seekers, accept)
            col = dist.argmin(axis=1)
            at = np.arange(n)
            best = found[at, col]
            return best, np.where(best >= 0, dist[at, col], np.inf)
        best = np.full(n, -1, dtype=np.int64)
        best_d = np.full(n, np.inf)
        cr = self.cr
        for team, pos in self._enemy_teams(seekers).items():
            tree = self._team_tree(team)
            if tree is None:
                continue
            who, d = self._tree_nearest(*tree, np.column_stack([cr.x[seekers[pos]], cr.y[seekers[pos]]]), accept)
            better = (who >= 0) & ((d < best_d[pos]) | ((d == best_d[pos]) & (who < best[pos])))
            best[pos[better]] = who[better]
            best_d[pos[better]] = d[better]
        return best, best_d

    def within(self, seekers: IntArray, radius: float, accept: BoolArray | None = None
               ) -> tuple[IntArray, IntArray, FloatArray]:
        """Every accepted enemy within ``radius`` of each seeker: ``(seeker position, enemy, distance)`` triples,
        ordered by seeker position, then enemy."""
        cr = self.cr
        if not len(seekers) or not self.candidates.size:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0)
        if self.dense:
            found, dist = self._dense(seekers, accept)
            row, col = np.nonzero((dist <= radius) & (found >= 0))
            enemy = found[row, col]
            order = np.lexsort((enemy, row))
            return row[order], enemy[order], dist[row, col][order]
        rows: list[IntArray] = []
        enemies: list[IntArray] = []
        for team, pos in self._enemy_teams(seekers).items():
            tree = self._team_tree(team)
            if tree is None:
                continue
            # Every (seeker, member) pair within the radius at once, from a tree of the seekers against the team's.
            near = cKDTree(np.column_stack([cr.x[seekers[pos]], cr.y[seekers[pos]]])).sparse_distance_matrix(
                tree[0], radius, output_type="ndarray")
            row, enemy = pos[near["i"]], tree[1][near["j"]]
            if accept is not None:
                row, enemy = row[accept[enemy]], enemy[accept[enemy]]
            rows.append(row)
            enemies.append(enemy)
        if not rows:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0)
        row = np.concatenate(rows)
        enemy = np.concatenate(enemies)
        order = np.lexsort((enemy, row))
        row, enemy = row[order], enemy[order]
        dist = np.hypot(cr.x[enemy] - cr.x[seekers[row]], cr.y[enemy] - cr.y[seekers[row]])
        return row, enemy, dist
