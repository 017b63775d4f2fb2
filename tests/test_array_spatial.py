"""The array engine's enemy grid (``sandbox.systems.arrays.spatial.Finder``) against a brute-force search: the nearest
accepted enemy of each seeker (ties to the lower entity), and every accepted enemy within a radius, only ever in
the seeker's own fight."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.systems.arrays.spatial import Finder


class Creatures(SimpleNamespace):
    """What the finder reads of the creatures: positions, fights, teams."""

    def __len__(self) -> int:
        return len(self.x)


def creatures(n: int, fights: int, seed: int, *, spread: float = 30.0, lattice: bool = False) -> Creatures:
    """``n`` creatures over ``fights`` fights, two teams a fight (teams numbered across fights)."""
    rng = np.random.default_rng(seed)
    fight = rng.integers(0, fights, n)
    team = fight * 2 + rng.integers(0, 2, n)
    if lattice:  # whole metres: many equal distances, so the tie rule decides
        x, y = rng.integers(0, 12, n).astype(np.float64), rng.integers(0, 12, n).astype(np.float64)
    else:
        x, y = rng.uniform(0, spread, n), rng.uniform(0, spread / 7, n)  # a long, narrow field
    return Creatures(x=x, y=y, fight=fight.astype(np.int64), team=team.astype(np.int64))


def brute_nearest(cr: Any, candidates: np.ndarray, seekers: np.ndarray, accept: np.ndarray | None
                  ) -> tuple[list[int], list[float]]:
    best, dist = [], []
    for i in seekers.tolist():
        options = [(float(np.hypot(cr.x[j] - cr.x[i], cr.y[j] - cr.y[i])), j) for j in np.flatnonzero(candidates)
                   if cr.fight[j] == cr.fight[i] and cr.team[j] != cr.team[i] and (accept is None or accept[j])]
        d, j = min(options, default=(np.inf, -1))
        best.append(j)
        dist.append(d)
    return best, dist


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 120), fights=st.integers(1, 4), seed=st.integers(0, 10_000), lattice=st.booleans(),
       accepting=st.booleans())
def test_nearest_is_the_brute_force_nearest(n: int, fights: int, seed: int, lattice: bool, accepting: bool) -> None:
    cr = (creatures(n, fights, seed, lattice=lattice))
    rng = np.random.default_rng(seed + 1)
    candidates = rng.random(n) < 0.8
    accept = rng.random(n) < 0.3 if accepting else None
    seekers = np.flatnonzero(rng.random(n) < 0.5)
    found, dist = Finder(cr, candidates).nearest(seekers, accept)  # type: ignore[arg-type]
    best, best_d = brute_nearest(cr, candidates, seekers, accept)
    assert found.tolist() == best
    assert np.allclose(dist, best_d)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 120), fights=st.integers(1, 4), seed=st.integers(0, 10_000), radius=st.floats(0.5, 20.0))
def test_within_lists_every_enemy_in_the_radius_in_entity_order(n: int, fights: int, seed: int, radius: float
                                                                 ) -> None:
    cr = (creatures(n, fights, seed))
    rng = np.random.default_rng(seed + 2)
    candidates = rng.random(n) < 0.8
    accept = rng.random(n) < 0.6
    seekers = np.flatnonzero(rng.random(n) < 0.5)
    row, enemy, dist = Finder(cr, candidates).within(seekers, radius, accept)  # type: ignore[arg-type]
    expected = [(r, j) for r, i in enumerate(seekers.tolist()) for j in np.flatnonzero(candidates & accept).tolist()
                if cr.fight[j] == cr.fight[i] and cr.team[j] != cr.team[i]
                and np.hypot(cr.x[j] - cr.x[i], cr.y[j] - cr.y[i]) <= radius]
    assert list(zip(row.tolist(), enemy.tolist(), strict=True)) == expected
    assert np.allclose(dist, np.hypot(cr.x[enemy] - cr.x[seekers[row]], cr.y[enemy] - cr.y[seekers[row]]))


def test_a_seeker_with_no_accepted_enemy_left_finds_none() -> None:
    """Every enemy taken: the answer is none (and the search does not walk the field to find it out)."""
    cr = (creatures(4000, 1, 3, spread=4000.0))
    candidates = np.ones(4000, dtype=np.bool_)
    accept = cr.team == 0  # only team 0 is accepted: team 0's seekers have nobody to pick
    seekers = np.flatnonzero(cr.team == 0)
    found, dist = Finder(cr, candidates).nearest(seekers, accept)  # type: ignore[arg-type]
    assert (found == -1).all() and np.isinf(dist).all()
    others = np.flatnonzero(cr.team == 1)
    found, _ = Finder(cr, candidates).nearest(others, accept)  # type: ignore[arg-type]
    assert (cr.team[found] == 0).all()
