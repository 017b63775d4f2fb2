"""The INTENT phase over arrays: every creature able to act keeps or picks a target (its policy, the engagement
cap), a strike mode that reaches (else one to close in with) and an aim, and an action: ``systems.ai``'s rules.

The engagement cap is settled in rounds: every creature looking for a melee foe picks among the foes not yet
engaged by ``max_melee_attackers`` at once; where more picked one foe than it has places left, the first in
initiative order get them and the rest pick again. (The esper engine picks one creature at a time, so a later
creature there may also take a place freed by an earlier one's change of foe in the same tick.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from systems.arrays.rearm import NOTHING
from systems.arrays.spatial import Finder
from systems.arrays.state import (
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
from systems.arrays.tables import MELEE, BoolArray, IntArray

if TYPE_CHECKING:
    from systems.arrays.engine import ArrayEngine


def decide(engine: ArrayEngine) -> None:
    """Set every creature's target, mode, aim and action for this tick."""
    cr, modes, combat = engine.creatures, engine.modes, engine.combat
    able = cr.able
    cr.action[:] = np.where(cr.dead, DEAD, DOWN)
    acting = able.copy()
    cr.walks = engine.model.walks()
    stand = acting & cr.prone & cr.walks
    cr.action[stand] = STAND_UP
    acting &= ~stand
    unusable = engine.model.unusable_mask()  # once a tick: nothing in this phase changes a part's use
    empty = np.flatnonzero(acting & (cr.held < 0) & engine.has_gear())
    if empty.size:
        action = engine.rearming.actions(empty, unusable[empty])
        rearms = empty[action != NOTHING]
        cr.action[rearms] = action[action != NOTHING]
        acting[rearms] = False

    # Engagement: how many able creatures are on each foe with a melee mode (as the tick began).
    engaged = np.bincount(cr.target[able & (cr.target >= 0) & _is_melee(engine, cr.mode)],
                          minlength=len(cr)).astype(np.int64)
    t = cr.target
    has = (t >= 0) & acting
    ts = np.maximum(t, 0)
    dist = np.where(has, np.hypot(cr.x[ts] - cr.x, cr.y[ts] - cr.y), np.inf)
    down = has & ~able[ts]
    drop = down & ((dist <= combat.retarget_radius) | modes.in_range(cr.mode, dist))
    seekers = np.flatnonzero(acting & (~has | drop))
    if seekers.size:
        seekers = seekers[np.argsort(cr.rank[seekers], kind="stable")]
        _retarget(engine, seekers, engaged, able)
    t = cr.target
    has = (t >= 0) & acting
    cr.action[acting & ~has] = STAND
    idx = np.flatnonzero(has)
    ts = t[idx]
    dist = np.hypot(cr.x[ts] - cr.x[idx], cr.y[ts] - cr.y[idx])
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


def _is_melee(engine: ArrayEngine, mode: IntArray) -> BoolArray:
    out: BoolArray = (mode >= 0) & (engine.modes.kind[np.maximum(mode, 0)] == MELEE)
    return out


def _aim(engine: ArrayEngine, idx: IntArray, foes: IntArray) -> None:
    """This tick's aim zone per attacker (``systems.ai.choose_aim``): a random aimable part of the foe's body, or
    the named part's zone (0 where the foe's body has none)."""
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
    """``IntentProcessor.pick_target`` for many seekers: ``(target, found among the accepted)``; -1 when no enemy
    can act."""
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
