"""The INTENT phase over arrays.

Every creature able to act keeps or picks a target (its policy, the engagement cap), a strike mode that reaches (else
one to close in with) and an aim, and an action: ``sandbox.systems.ai``'s rules.

The engagement cap is settled in rounds: every creature looking for a melee foe picks among the foes not yet
engaged by ``max_melee_attackers`` at once; where more picked one foe than it has places left, the first in
initiative order get them and the rest pick again. (The esper engine picks one creature at a time, so a later
creature there may also take a place freed by an earlier one's change of foe in the same tick.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.rearm import NOTHING
from sandbox.systems.arrays.spatial import Finder
from sandbox.systems.arrays.state import (
    APPROACH,
    ATTACK,
    DEAD,
    DOWN,
    NAMED_AIM,
    RANDOM,
    RANDOM_AIM,
    STAND,
    STAND_UP,
    WEAKEST,
)
from sandbox.systems.arrays.tables import MELEE, BoolArray, FloatArray, IntArray
from sandbox.systems.combat import REACH_SLACK

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["decide"]


def decide(engine: ArrayEngine) -> None:
    """Set every creature's target, mode, aim and action for this tick."""
    cr, modes, combat = engine.creatures, engine.modes, engine.combat
    n = len(cr)
    able = cr.able
    acting = np.empty(n, dtype=np.bool_)
    cr.walks = engine.model.walks()
    empty = np.empty(n, dtype=np.int64)
    empty = empty[:_begin(cr.dead, cr.out, cr.prone, cr.walks, cr.held, engine.gear.has_gear, cr.gear, cr.action,
                          acting, empty)]
    unusable = engine.model.unusable_mask()  # once a tick: nothing in this phase changes a part's use
    if empty.size:
        action = engine.rearming.actions(empty, unusable[empty])
        rearms = empty[action != NOTHING]
        cr.action[rearms] = action[action != NOTHING]
        acting[rearms] = False
    engaged = np.zeros(n, dtype=np.int64)
    seekers = np.empty(n, dtype=np.int64)
    seekers = seekers[:_seekers(cr.order, acting, able, cr.target, cr.mode, cr.x, cr.y, modes.kind, modes.limit,
                                combat.retarget_radius, engaged, seekers)]
    if seekers.size:
        _retarget(engine, seekers, engaged, able)
    idx, dist = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.float64)
    count = _engaging(acting, cr.target, cr.x, cr.y, cr.action, idx, dist)
    idx, dist = idx[:count], dist[:count]
    ts = cr.target[idx]
    engine.loadout.refresh(cr, engine.gear, unusable, modes, engine.reading)
    column, mode = engine.loadout.choose(idx, dist, modes)
    changed = mode != cr.mode[idx]
    if changed.any():
        engine.tracer.modes_changed(idx[changed], cr.mode[idx[changed]], mode[changed])
    cr.mode[idx] = mode
    engine.option[idx] = column
    none = mode < 0
    cr.action[idx[none]] = STAND
    _aim(engine, idx, ts)
    reach = modes.in_range(mode, dist)
    cr.action[idx[~none]] = np.where(reach[~none], ATTACK, APPROACH)


@compiled
def _begin(dead: BoolArray, out: BoolArray, prone: BoolArray, walks: BoolArray, held: IntArray, has_gear: BoolArray,
           gear: IntArray, action: IntArray, acting: BoolArray, empty: IntArray) -> int:
    """Each creature's first action (dead, down, or standing up if it lies prone and can walk) and whether it acts on.

    Into ``action`` and ``acting``; the acting ones with empty hands and gear to take up into ``empty``, and how many.
    """
    count = 0
    for i in range(dead.shape[0]):
        action[i] = DEAD if dead[i] else DOWN
        acting[i] = not dead[i] and not out[i]
        if acting[i] and prone[i] and walks[i]:
            action[i] = STAND_UP
            acting[i] = False
        if acting[i] and held[i] < 0 and has_gear[gear[i]]:
            empty[count] = i
            count += 1
    return count


@compiled
def _seekers(order: IntArray, acting: BoolArray, able: BoolArray, target: IntArray, mode: IntArray, x: FloatArray,
             y: FloatArray, kind: IntArray, limit: FloatArray, radius: float, engaged: IntArray,
             seekers: IntArray) -> int:
    """How many able creatures with a melee mode are on each foe as the tick began, into ``engaged``.

    And the acting creatures that look for a foe, in initiative order, into ``seekers`` (returns how many): those with
    none, and those whose foe is down within the retarget radius or within reach.
    """
    for i in range(target.shape[0]):
        if able[i] and target[i] >= 0 and mode[i] >= 0 and kind[mode[i]] == MELEE:
            engaged[target[i]] += 1
    count = 0
    for i in order:
        if not acting[i]:
            continue
        t = target[i]
        if t >= 0:
            if able[t]:
                continue
            dist = np.hypot(x[t] - x[i], y[t] - y[i])
            if dist > radius and dist > limit[mode[i]] + REACH_SLACK:  # ModeTables.in_range
                continue
        seekers[count] = i
        count += 1
    return count


@compiled
def _engaging(acting: BoolArray, target: IntArray, x: FloatArray, y: FloatArray, action: IntArray, idx: IntArray,
              dist: FloatArray) -> int:
    """The acting creatures with a foe, in entity order, and how far it is, into ``idx`` and ``dist``.

    Returns how many; the others stand.
    """
    count = 0
    for i in range(target.shape[0]):
        if not acting[i]:
            continue
        t = target[i]
        if t < 0:
            action[i] = STAND
            continue
        idx[count] = i
        dist[count] = np.hypot(x[t] - x[i], y[t] - y[i])
        count += 1
    return count


def _is_melee(engine: ArrayEngine, mode: IntArray) -> BoolArray:
    out: BoolArray = (mode >= 0) & (engine.modes.kind[np.maximum(mode, 0)] == MELEE)
    return out


def _aim(engine: ArrayEngine, idx: IntArray, foes: IntArray) -> None:
    """This tick's aim zone per attacker (``sandbox.systems.ai.choose_aim``).

    A random aimable part of the foe's body, or the named part's zone (0 where the foe's body has none).
    """
    cr, bodies = engine.creatures, engine.bodies
    aim = cr.aim[idx]
    body = cr.body[foes]
    rnd = np.flatnonzero(aim == RANDOM_AIM)
    if rnd.size:
        count = bodies.aimable_count[body[rnd]]
        u = engine.streams.random("ai", cr.fight[idx[rnd]])
        pick = np.minimum((u * count).astype(np.int64), np.maximum(count - 1, 0))
        zone = bodies.aimable_zone[body[rnd], pick]
        cr.aim_zone[idx[rnd]] = np.where(count > 0, zone, 0)
    named = np.flatnonzero(aim == NAMED_AIM)
    if named.size:
        cr.aim_zone[idx[named]] = engine.aim_zones[cr.aim_name[idx[named]], body[named]]


def _retarget(engine: ArrayEngine, seekers: IntArray, engaged: IntArray, able: BoolArray) -> None:
    """New targets for ``seekers`` (in initiative order), keeping the engagement counts current."""
    cr, combat = engine.creatures, engine.combat
    candidates = able & engine.bodies.targetable[cr.body]
    finder = Finder(cr, candidates)
    melee = _is_melee(engine, cr.mode[seekers]) | (cr.mode[seekers] < 0)
    old = cr.target[seekers]
    leaving = melee & (old >= 0)
    np.subtract.at(engaged, old[leaving], (engaged[old[leaving]] > 0).astype(np.int64))
    cap = combat.max_melee_attackers
    capped = melee & (cap > 0)
    free_of_cap = seekers[~capped]
    if free_of_cap.size:
        cr.target[free_of_cap] = _pick(engine, finder, free_of_cap, None)[0]
    remaining = seekers[capped]
    while remaining.size:
        accept = engaged < cap
        chosen, by_cap = _pick(engine, finder, remaining, accept)
        # The first takers of a foe (initiative order) fill its places; the rest pick again.
        taken = by_cap & (chosen >= 0)
        order = np.argsort(np.where(taken, chosen, -1), kind="stable")
        keys = np.where(taken, chosen, -1)[order]
        first = np.concatenate(([True], keys[1:] != keys[:-1]))
        start = np.maximum.accumulate(np.where(first, np.arange(len(keys)), 0))
        place = np.empty(len(keys), dtype=np.int64)
        place[order] = np.arange(len(keys)) - start
        ok = ~taken | (place < cap - engaged[np.maximum(chosen, 0)])
        done = remaining[ok]
        cr.target[done] = chosen[ok]
        counted = chosen[ok]
        np.add.at(engaged, counted[counted >= 0], 1)
        remaining = remaining[~ok]


def _pick(engine: ArrayEngine, finder: Finder, seekers: IntArray, accept: BoolArray | None
          ) -> tuple[IntArray, BoolArray]:
    """``IntentProcessor.pick_target`` for many seekers.

    ``(target, found among the accepted)``; -1 when no enemy can act.
    """
    cr, combat = engine.creatures, engine.combat
    n = len(seekers)
    chosen = np.full(n, -1, dtype=np.int64)
    accepted = np.zeros(n, dtype=np.bool_)
    policies = cr.policy[seekers]
    looking = np.flatnonzero((policies == WEAKEST) | (policies == RANDOM))  # np.isin sorts: far slower
    if looking.size:
        row, enemy, dist = finder.within(seekers[looking], combat.retarget_radius, accept)
        if row.size:
            counts = np.bincount(row, minlength=looking.size)
            starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
            policy = cr.policy[seekers[looking]]
            rnd = np.flatnonzero((policy == RANDOM) & (counts > 0))
            if rnd.size:
                u = engine.streams.random("ai", cr.fight[seekers[looking[rnd]]])
                k = np.minimum((u * counts[rnd]).astype(np.int64), counts[rnd] - 1)
                chosen[looking[rnd]] = enemy[starts[rnd] + k]
            weak = np.flatnonzero((policy == WEAKEST) & (counts > 0))
            if weak.size:
                health = engine.model.health()
                order = np.lexsort((enemy, dist, health[enemy], row))
                firsts = order[np.searchsorted(row[order], weak)]
                chosen[looking[weak]] = enemy[firsts]
            accepted[looking[counts > 0]] = accept is not None
    rest = np.flatnonzero(chosen < 0)
    if rest.size:
        found, _ = finder.nearest(seekers[rest], accept)
        chosen[rest] = found
        accepted[rest] = (found >= 0) & (accept is not None)
        if accept is not None:
            again = rest[found < 0]
            if again.size:
                chosen[again] = finder.nearest(seekers[again], None)[0]
    return chosen, accepted
