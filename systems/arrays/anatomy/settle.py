"""The DAMAGE phase over arrays (``systems.damage.refresh_status``): what this tick's wounds did to each part's
impairment (worst of, never additive; a grievous wound or a severed location makes the part unusable), what an
unusable part lets go of, and health (the lowest ceiling over the (critical, tier) buckets, counted)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.events import Event, HealthChanged, ImpairmentChanged
from components.impairment import ImpairmentTier
from systems.arrays.anatomy.consequences import drop_held
from systems.arrays.compiled import compiled
from systems.arrays.tables import BoolArray, IntArray
from systems.health import band

if TYPE_CHECKING:
    from systems.arrays.anatomy.model import AnatomyArrayModel

TIERS: tuple[ImpairmentTier, ...] = (ImpairmentTier.MINOR, ImpairmentTier.SERIOUS, ImpairmentTier.GRIEVOUS,
                                     ImpairmentTier.UNUSABLE)


def ceiling_table(model: AnatomyArrayModel, parts: int) -> IntArray:
    """``[critical, tier, count]``: the health ceiling of ``count`` parts in that bucket (``health_ceiling``;
    count 0 reads 100)."""
    rules = model.rules
    table = np.full((2, len(TIERS), parts + 1), 100, dtype=np.int64)
    for c, columns in enumerate((rules.health_limb, rules.health_critical)):
        for k, tier in enumerate(TIERS):
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
        lv = np.minimum(np.maximum(st.wounds.level[w], 0), len(table) - 1)
        owner, part = st.wounds.owner[w], st.wounds.part[w]
        before_pen, before_unusable = st.penalty[dirty].copy(), st.unusable[dirty].copy()
        np.minimum.at(st.penalty, (owner, part), table[lv])
        st.unusable[owner[gone[lv]], part[gone[lv]]] = True
        st.unusable |= st.lost
        _announce(model, dirty, before_pen, before_unusable)
    idx = np.flatnonzero(st.dirty | (cr.dead & (st.health > 0)))  # the wounded and the newly dead
    if idx.size:
        st.refresh_roles(idx, cr.body, bodies)
        _health(model, idx)
    st.dirty[:] = False


def _announce(model: AnatomyArrayModel, dirty: IntArray, before_pen: IntArray, before_unusable: np.ndarray) -> None:
    """Impairment changes: an unusable part lets go of what it holds; traced creatures' changes are logged."""
    engine, st = model.engine, model.state
    cr = engine.creatures
    changed_pen = st.penalty[dirty] != before_pen
    newly = st.unusable[dirty] & ~before_unusable
    traced = engine.tracer.traced[dirty]
    # Only a traced creature's changes are told, and only a hand that holds something has anything to let go of.
    lets_go = (newly & (cr.holding[dirty] >= 0)).any(axis=1)
    rows = np.flatnonzero(((changed_pen | newly).any(axis=1) & traced) | lets_go)
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


def _health(model: AnatomyArrayModel, idx: IntArray) -> None:
    """``systems.health.health_ceiling`` and ``health`` for creatures ``idx``."""
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
    """Per creature ``idx[r]``: its parts counted by (critical, tier), the lowest ceiling over the buckets, at
    least ``floor`` alive and 0 dead."""
    counts = np.zeros((2, len(TIERS)), dtype=np.int64)
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
            for k in range(len(TIERS)):
                ceiling = min(ceiling, ceilings[c, k, counts[c, k]])
        out[r] = 0 if dead[i] else max(ceiling, floor)
