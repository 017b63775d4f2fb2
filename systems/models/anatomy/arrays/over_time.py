"""Wounds over time within a fight, over arrays.

Bleeding (the EFFECTS phase, ``sandbox.systems.models.anatomy.aftercare.bleed`` with no one tending the wounds) and
Shock re-tests (the RECOVERY phase, ``sandbox.systems.models.anatomy.aftercare.retest``).

A creature's wounds bleed in the order received, each round of one wound per creature at once, since a round's
blood loss (its anemia fatigue, its shock step) weighs on the next wound's test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.events import BloodLost, ShockRetested
from sandbox.components.rules import ShockState, TestResult
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray
from sandbox.systems.models.anatomy.arrays.attack_phase import read_tests
from sandbox.systems.models.anatomy.arrays.consequences import DEAD, STUNNED, UNCONSCIOUS, set_shock
from sandbox.systems.models.anatomy.arrays.settle import _health

if TYPE_CHECKING:
    from sandbox.systems.models.anatomy.arrays.model import AnatomyArrayModel

__all__ = ["bleed", "retest"]


@compiled
def _due_to_bleed(bleeder: BoolArray, next_bleed: FloatArray, owner: IntArray, dead: BoolArray, now: float,
                  count: int, out: IntArray) -> int:
    """The wounds due a Blood Loss Advance test by ``now``, into ``out`` in order; returns how many.

    Of the first ``count`` wounds, those that bleed and whose owner lives.
    """
    found = 0
    for j in range(count):
        if bleeder[j] and 0 <= next_bleed[j] <= now and not dead[owner[j]]:
            out[found] = j
            found += 1
    return found


def bleed(model: AnatomyArrayModel) -> None:
    """Every bleeding wound whose Blood Loss Advance test is due makes it."""
    engine, st, rules = model.engine, model.state, model.rules
    aftercare = rules.aftercare
    if aftercare is None:
        return
    cr, wounds = engine.creatures, st.wounds
    now = engine.clock_time
    count = wounds.count
    due = np.empty(count, dtype=np.int64)
    due = due[:_due_to_bleed(wounds.bleeder, wounds.next_bleed, wounds.owner, cr.dead, now, count, due)]
    if not due.size:
        return
    owner = wounds.owner[due]
    order = np.lexsort((due, owner))
    due, owner = due[order], owner[order]
    first = np.concatenate(([True], owner[1:] != owner[:-1]))
    start = np.maximum.accumulate(np.where(first, np.arange(len(owner)), 0))
    turn = np.arange(len(owner)) - start
    points_of = np.asarray([aftercare.blood_loss[r] for r in TestResult], dtype=np.int64)
    rng = engine.streams
    died = []
    for r in range(int(turn.max()) + 1):
        sel = turn == r
        w, who = due[sel], owner[sel]
        alive = ~cr.dead[who]
        w, who = w[alive], who[alive]
        if not w.size:
            continue
        ml = st.effective_ml(who, model.skill["strength"], cr.mls, engine.skills)
        result = read_tests(model, ml, rng.integers("bleeding", cr.fight[who], 0, 100))
        points = points_of[result]
        st.blood_loss[who] += points
        st.fatigue[who] = st.blood_loss[who] * aftercare.anemia_per_point
        wounds.next_bleed[w] += aftercare.bleed_interval
        for j in np.flatnonzero(engine.tracer.traced[who]).tolist():
            i = int(who[j])
            engine.tracer.emit(BloodLost(engine.tick, now, i + 1, cr.anatomy[i].body.locations[
                int(wounds.location[w[j]])].name, TestResult(int(result[j])).name, int(points[j]),
                int(st.blood_loss[i])))
        new = np.minimum(st.shock[who] + points, DEAD)
        step = (points > 0) & (new != st.shock[who])
        if step.any():
            s = np.flatnonzero(step)
            st.cause_location[who[s]] = wounds.location[w[s]]
            st.cause_level[who[s]] = np.maximum(wounds.level[w[s]], 1)
            set_shock(model, who[s], new[s], "blood loss")
            died.append(who[s][cr.dead[who[s]]])
    if died:
        _health(model, np.unique(np.concatenate(died)))


def retest(model: AnatomyArrayModel) -> None:
    """Every creature whose Shock re-test is due makes it (at -20; fatigue applies, impairment does not).

    Stunned clears on a success; Incapacitated or Unconscious clears on a CS, eases to Stunned on an MS, and otherwise
    starts Extended Shock (or a Coma, a CF while Unconscious), locking the state.
    """
    engine, st, rules = model.engine, model.state, model.rules
    aftercare = rules.aftercare
    if aftercare is None:
        return
    cr = engine.creatures
    now, tick = engine.clock_time, engine.tick
    shocked = (st.shock > 0) & (st.shock < DEAD) & (st.retest_at >= 0) & ~cr.dead & ~cr.reeling
    due = np.flatnonzero(shocked & (now >= st.retest_at))
    locked = due[(st.extended_hr[due] >= 0) | (st.coma_hr[due] >= 0)]
    st.retest_at[locked] = -1.0
    due = due[(st.extended_hr[due] < 0) & (st.coma_hr[due] < 0)]
    if not due.size:
        return
    ml = st.effective_ml(due, model.skill["shock"], cr.mls, engine.skills, aftercare.retest_modifier)
    result = read_tests(model, ml, engine.streams.integers("shock", cr.fight[due], 0, 100))
    before = st.shock[due].copy()
    success = result >= int(TestResult.MS)
    cs, ms, cf = result == int(TestResult.CS), result == int(TestResult.MS), result == int(TestResult.CF)
    stunned = before == STUNNED
    after = np.where(stunned, np.where(success, 0, STUNNED), np.where(cs, 0, np.where(ms, STUNNED, before)))
    st.retest_at[due] = np.where(after == STUNNED, now + engine.combat.tick_seconds, -1.0)
    coma = ~stunned & cf & (before == UNCONSCIOUS)
    extended = ~stunned & ~success & ~coma
    if coma.any():
        c = due[coma]
        shock_value = np.asarray([cr.anatomy[i].body.locations[int(st.cause_location[i])].shock_value
                                  if st.cause_location[i] >= 0 else 5 for i in c.tolist()], dtype=np.int64)
        level = np.where(st.cause_location[c] >= 0, st.cause_level[c], 1)
        st.coma_hr[c] = aftercare.coma_hr_base - shock_value - level
    if extended.any():
        # By result code: only failures enter Extended Shock, and the rules give each failure its Healing Rate.
        by_result = np.asarray([aftercare.extended_shock_hr.get(r, -1) for r in TestResult], dtype=np.int64)
        st.extended_hr[due[extended]] = by_result[result[extended]]
    for j in np.flatnonzero(engine.tracer.traced[due]).tolist():
        engine.tracer.emit(ShockRetested(tick, now, int(due[j]) + 1, TestResult(int(result[j])).name,
                                         ShockState(int(before[j])).label, ShockState(int(after[j])).label))
    moved = after != before
    who = due[moved]
    st.shock[who] = after[moved]
    st.since[who] = tick
    cr.out[who] = after[moved] >= int(ShockState.INCAPACITATED)
