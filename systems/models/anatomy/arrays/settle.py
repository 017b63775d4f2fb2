"""The DAMAGE phase over arrays (``sandbox.systems.models.anatomy.damage.refresh_status``).

What this tick's wounds did to each part's impairment (worst of, never additive; a grievous wound or a severed location
makes the part unusable), what an unusable part lets go of, and health (the lowest ceiling over the (critical, tier)
buckets, counted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.events import Event, HealthChanged, ImpairmentChanged
from sandbox.components.impairment import ImpairmentTier
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, IntArray
from sandbox.systems.models.anatomy.arrays.consequences import drop_held
from sandbox.systems.models.anatomy.health import band

if TYPE_CHECKING:
    from sandbox.systems.models.anatomy.arrays.model import AnatomyArrayModel

__all__ = ["ceiling_table", "settle"]

_TIERS: tuple[ImpairmentTier, ...] = (ImpairmentTier.MINOR, ImpairmentTier.SERIOUS, ImpairmentTier.GRIEVOUS,
                                     ImpairmentTier.UNUSABLE)


def ceiling_table(model: AnatomyArrayModel, parts: int) -> IntArray:
    """``[critical, tier, count]``.

    The health ceiling of ``count`` parts in that bucket (``health_ceiling``; count 0 reads 100).
    """
    rules = model.rules
    table = np.full((2, len(_TIERS), parts + 1), 100, dtype=np.int64)
    for c, columns in enumerate((rules.health_limb, rules.health_critical)):
        for k, tier in enumerate(_TIERS):
            column = columns[tier]
            for count in range(1, parts + 1):
                table[c, k, count] = column[min(count, len(column)) - 1]
    return table


def settle(model: AnatomyArrayModel) -> None:
    """Refresh the impairment and health of every creature wounded this tick, and the health of the newly dead."""
    engine, st, rules = model.engine, model.state, model.rules
    cr, bodies = engine.creatures, engine.bodies
    dirty = np.flatnonzero(st.dirty)
    if st.touched:
        w = np.concatenate(st.touched)
        st.touched.clear()
        table = np.asarray([0 if p is None else p for p in rules.impairment_by_level], dtype=np.int64)
        gone = np.asarray([p is None for p in rules.impairment_by_level], dtype=np.bool_)
        changed = np.empty((dirty.size, st.penalty.shape[1]), dtype=np.bool_)
        newly = np.empty_like(changed)
        told = np.empty(dirty.size, dtype=np.int64)
        count = _impair(w, st.wounds.level, st.wounds.owner, st.wounds.part, table, gone, st.penalty, st.unusable,
                        st.lost, dirty, engine.tracer.traced, cr.holding, changed, newly, told)
        _announce(model, dirty, changed, newly, told[:count])
    idx = np.flatnonzero(st.dirty | (cr.dead & (st.health > 0)))  # the wounded and the newly dead
    if idx.size:
        st.refresh_roles(idx, cr.body, bodies)
        _health(model, idx)
    st.dirty[:] = False


def _announce(model: AnatomyArrayModel, dirty: IntArray, changed_pen: BoolArray, newly: BoolArray, rows: IntArray
              ) -> None:
    """Impairment changes (``_impair``'s).

    An unusable part lets go of what it holds; traced creatures' changes are logged.
    """
    engine, st = model.engine, model.state
    cr = engine.creatures
    let_go = []
    for r in rows.tolist():
        i = int(dirty[r])
        traced = engine.tracer.traced[i]
        body = cr.anatomy[i].body
        for p in np.flatnonzero(changed_pen[r] | newly[r]).tolist():
            if p >= len(body.parts):
                continue
            if traced:
                engine.tracer.emit(ImpairmentChanged(engine.tick, engine.clock_time, i + 1, body.parts[p].name,
                                                     int(st.penalty[i, p]), bool(st.unusable[i, p])))
            if newly[r, p]:
                events: list[Event] | None = [] if traced else None
                if drop_held(engine, i, p, False, events):
                    let_go.append(i)
                if events:
                    engine.tracer.extend(events)
    engine.sync_hands(let_go)


@compiled
def _impair(w: IntArray, level: IntArray, owner: IntArray, part: IntArray, table: IntArray, gone: BoolArray,
            penalty: IntArray, unusable: BoolArray, lost: BoolArray, dirty: IntArray, traced: BoolArray,
            holding: IntArray, changed: BoolArray, newly: BoolArray, told: IntArray) -> int:
    """Settle wounds ``w`` into the parts (``refresh_status``).

    A part's penalty is the worst of its wounds' (never additive), a wound whose level has no penalty makes its part
    unusable, and so does a lost part.

    For the creatures wounded this tick (``dirty``): ``changed[r, p]`` part ``p``'s penalty changed, ``newly[r,
    p]`` it became unusable; ``told`` lists the rows with something to tell (a traced creature's change) or to do
    (a part that holds something became unusable). Returns how many.
    """
    before = np.empty(changed.shape, dtype=np.int64)
    for r in range(dirty.shape[0]):  # the parts as they were, to compare with
        i = dirty[r]
        for p in range(penalty.shape[1]):
            before[r, p] = penalty[i, p]
            newly[r, p] = unusable[i, p]
    last = table.shape[0] - 1
    for k in range(w.shape[0]):
        j = w[k]
        lv = min(max(level[j], 0), last)
        o, p = owner[j], part[j]
        penalty[o, p] = min(penalty[o, p], table[lv])
        if gone[lv]:
            unusable[o, p] = True
    for i in range(unusable.shape[0]):
        for p in range(unusable.shape[1]):
            if lost[i, p]:
                unusable[i, p] = True
    count = 0
    for r in range(dirty.shape[0]):
        i = dirty[r]
        tell = do = False
        for p in range(penalty.shape[1]):
            became = unusable[i, p] and not newly[r, p]
            newly[r, p] = became
            changed[r, p] = penalty[i, p] != before[r, p]
            if changed[r, p] or became:
                tell = tell or traced[i]
            if became and holding[i, p] >= 0:
                do = True
        if tell or do:
            told[count] = r
            count += 1
    return count


def _health(model: AnatomyArrayModel, idx: IntArray) -> None:
    """``sandbox.systems.models.anatomy.health.health_ceiling`` and ``health`` for creatures ``idx``."""
    engine, st, rules = model.engine, model.state, model.rules
    cr, bodies = engine.creatures, engine.bodies
    health = np.zeros(idx.shape[0], dtype=np.int64)
    _healths(idx, cr.body, cr.dead, st.penalty, st.unusable, bodies.part_exists, bodies.part_critical,
             model.ceilings, rules.impairment_tier_minor, rules.impairment_tier_serious, rules.health_floor_alive,
             health)
    old = st.health[idx]
    st.health[idx] = health
    for j in np.flatnonzero((health != old) & engine.tracer.traced[idx]).tolist():
        i = int(idx[j])
        engine.tracer.emit(HealthChanged(engine.tick, engine.clock_time, i + 1, int(old[j]), int(health[j]),
                                         band(int(health[j]), rules)))


@compiled
def _healths(idx: IntArray, body: IntArray, dead: BoolArray, penalty: IntArray, unusable: BoolArray,
             exists: BoolArray, critical: BoolArray, ceilings: IntArray, minor: int, serious: int, floor: int,
             out: IntArray) -> None:
    """Per creature ``idx[r]``.

    Its parts counted by (critical, tier), the lowest ceiling over the buckets, at least ``floor`` alive and 0 dead.
    """
    counts = np.zeros((2, len(_TIERS)), dtype=np.int64)
    for r in range(idx.shape[0]):
        i = idx[r]
        b = body[i]
        counts[:] = 0
        for p in range(penalty.shape[1]):
            if not exists[b, p]:
                continue
            pen = penalty[i, p]
            tier = 3 if unusable[i, p] else -1 if pen >= 0 else 0 if pen >= minor else 1 if pen >= serious else 2
            if tier >= 0:
                counts[1 if critical[b, p] else 0, tier] += 1
        ceiling = 100
        for c in range(2):
            for k in range(len(_TIERS)):
                ceiling = min(ceiling, ceilings[c, k, counts[c, k]])
        out[r] = 0 if dead[i] else max(ceiling, floor)
