"""What landed blows do to their targets, applied at once (``systems.damage.apply_blow`` over arrays): the wound
and compounding, bleeding, severing, dropped weapons, falls, the shock state, death.

A wave's blows have distinct targets, so each creature takes at most one blow here at a time. The rare steps
(a hand letting go, the cause of a death) run per creature in Python; the rest are array operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.events import BleederOpened, Died, Event, FellProne, ItemDropped, Severed, ShockChanged
from components.rules import InjuryLevel, ShockState
from systems.arrays.attack import Attacks
from systems.arrays.tables import BoolArray, IntArray
from systems.vector_blows import BlowArrays

if TYPE_CHECKING:
    from systems.arrays.anatomy.model import AnatomyArrayModel
    from systems.arrays.engine import ArrayEngine

STUNNED, INCAPACITATED, UNCONSCIOUS, DEAD = (int(s) for s in (ShockState.STUNNED, ShockState.INCAPACITATED,
                                                                  ShockState.UNCONSCIOUS, ShockState.DEAD))


def offered_states(current: IntArray, offered: IntArray) -> IntArray:
    """``systems.damage.offered_state`` per creature: a result only worsens the state; Stunned on Stunned is
    Incapacitated, Incapacitated on Incapacitated Unconscious."""
    again = (offered == current) & ((offered == STUNNED) | (offered == INCAPACITATED))
    return np.where(offered == 0, current, np.where(again, current + 1, np.maximum(offered, current)))


def apply_blows(model: AnatomyArrayModel, hits: Attacks, blows: BlowArrays
                ) -> tuple[BoolArray, BoolArray, dict[int, list[Event]]]:
    """Apply a wave's landed blows. Returns which targets reeled (a new shock state, a fall, death) and which
    were disarmed, per blow, and the events of what followed for the blows of traced creatures (by position)."""
    engine, st, rules = model.engine, model.state, model.rules
    cr = engine.creatures
    now, tick = engine.clock_time, engine.tick
    n = len(hits)
    t = hits.target
    traced = engine.tracer.involved(hits)
    follows: dict[int, list[Event]] = {int(k): [] for k in np.flatnonzero(traced)}
    hit = ~blows.missed
    loc = np.maximum(blows.location, 0)
    body = cr.body[t]
    part = engine.bodies.location_part[body, loc]
    level = blows.level

    # The wound, and compounding: the worst wound already there worsens by one level.
    compound = np.flatnonzero(hit & blows.compound)
    if compound.size:
        worst = st.worst[t[compound], loc[compound]]
        grow = compound[(worst >= 0) & (st.wounds.level[np.maximum(worst, 0)] < int(InjuryLevel.G5))]
        w = st.worst[t[grow], loc[grow]]
        st.wounds.level[w] += 1
        st.wounds.compounded[w] += 1
        st.totals[t[grow], loc[grow]] += 1
        st.touched.append(w)
    new = np.flatnonzero(hit & (level > 0))
    if new.size:
        interval = rules.aftercare.bleed_interval if rules.aftercare is not None else 0.0
        bleeds = blows.bleeder[new]
        idx = st.wounds.add(t[new], loc[new], part[new], level[new], engine.modes.aspect[hits.mode[new]], bleeds,
                            now, np.where(bleeds, now + interval, -1.0))
        tn, ln = t[new], loc[new]
        st.totals[tn, ln] += level[new]
        current = st.worst[tn, ln]
        better = (current < 0) | (level[new] > st.wounds.level[np.maximum(current, 0)])
        st.worst[tn[better], ln[better]] = idx[better]
        st.touched.append(idx)
        for k in new[bleeds].tolist():
            if k in follows:
                follows[k].append(BleederOpened(tick, now, int(t[k]) + 1, _loc_name(engine, int(t[k]), int(loc[k]))))
    st.dirty[t[hit & ((level > 0) | blows.compound)]] = True

    disarmed = np.zeros(n, dtype=np.bool_)
    for k in np.flatnonzero(hit & blows.severed).tolist():
        i, p = int(t[k]), int(part[k])
        st.severed[i, loc[k]] = True
        st.lost[i, p] = True
        st.dirty[i] = True
        if k in follows:
            follows[k].append(Severed(tick, now, i + 1, _loc_name(engine, i, int(loc[k])), _part_name(engine, i, p)))
        disarmed[k] |= drop_held(engine, i, p, False, follows.get(k))
    holds = ((cr.hold_mask[t] >> part) & 1).astype(np.bool_)  # a hand that holds nothing drops nothing
    for k in np.flatnonzero(hit & (blows.fumble_outcome >= 2) & holds).tolist():
        disarmed[k] |= drop_held(engine, int(t[k]), int(part[k]), bool(blows.fumble_outcome[k] == 3), follows.get(k))

    falls = hit & (blows.stumble_outcome == 2) & ~cr.prone[t]
    cr.prone[t[falls]] = True
    cr.reeling[t[falls]] = True
    for k in np.flatnonzero(falls).tolist():
        if k in follows:
            follows[k].append(FellProne(tick, now, int(t[k]) + 1, "stumble"))

    before = st.shock[t].copy()
    after = np.where(hit, offered_states(before, blows.shock_state), before)
    changed = after != before
    reeled = falls.copy()
    if changed.any():
        c = np.flatnonzero(changed)
        set_shock(model, t[c], after[c], "shock", follows, c)
        st.cause_location[t[c]] = loc[c]
        st.cause_level[t[c]] = np.maximum(level[c], 1)
        reeled[c] = True
    killed = np.flatnonzero(hit & blows.dead & ~cr.dead[t])
    for k in killed.tolist():
        cause = f"severed {_loc_name(engine, int(t[k]), int(loc[k]))}" if blows.severed[k] else "shock"
        kill(engine, int(t[k]), cause, follows.get(k))
    reeled[killed] = True
    return reeled, disarmed, follows


def set_shock(model: AnatomyArrayModel, who: IntArray, new: IntArray, cause: str,
              follows: dict[int, list[Event]] | None = None, keys: IntArray | None = None) -> None:
    """``systems.damage.set_shock`` for creatures ``who`` (each moving to a different state): the re-test time,
    reeling, prone from Incapacitated on, death (``cause``). ``follows[keys[j]]`` collects ``who[j]``'s events
    when it is traced."""
    engine, st, rules = model.engine, model.state, model.rules
    cr = engine.creatures
    now, tick = engine.clock_time, engine.tick
    old = st.shock[who].copy()
    st.shock[who] = new
    st.since[who] = tick
    cr.out[who] = new >= INCAPACITATED
    unconscious_after = rules.aftercare.unconscious_retest_after if rules.aftercare is not None else -1.0
    st.retest_at[who] = np.where((new == STUNNED) | (new == INCAPACITATED), now + engine.combat.tick_seconds,
                                 np.where(new == UNCONSCIOUS, now + unconscious_after, -1.0))
    cr.reeling[who] = True
    falls = (new >= INCAPACITATED) & (new < DEAD) & ~cr.prone[who]
    # Only a death or a change that is logged needs Python; everyone else who falls just lies down.
    told = engine.tracer.traced[who] | (new == DEAD)
    if follows and keys is not None:
        told |= np.isin(keys, np.fromiter(follows, dtype=np.int64, count=len(follows)))
    cr.prone[who[falls & ~told]] = True
    for j in np.flatnonzero(told).tolist():
        i = int(who[j])
        events = follows.get(int(keys[j])) if follows is not None and keys is not None else (
            [] if engine.tracer.traced[i] else None)
        if events is not None:
            events.append(ShockChanged(tick, now, i + 1, ShockState(int(old[j])).label, ShockState(int(new[j])).label))
        if new[j] == DEAD:
            kill(engine, i, cause, events)
        elif falls[j]:
            cr.prone[i] = True
            if events is not None:
                events.append(FellProne(tick, now, i + 1, "shock"))
        if events is not None and (follows is None or keys is None):
            engine.tracer.extend(events)


def kill(engine: ArrayEngine, i: int, cause: str, events: list[Event] | None) -> None:
    """``systems.conditions.kill``: dead, fallen, acting no more this tick."""
    cr = engine.creatures
    if cr.dead[i]:
        return
    cr.dead[i] = True
    cr.causes[i] = cause
    cr.reeling[i] = True
    cr.prone[i] = True
    if events is not None:
        events.append(Died(engine.tick, engine.clock_time, i + 1, cause))


def drop_held(engine: ArrayEngine, i: int, part: int, flung: bool, events: list[Event] | None) -> bool:
    """``systems.conditions.drop_held``: the part lets go of what it holds (every hand holding it); True when it
    held something."""
    equip = engine.creatures.equipment[i]
    item = equip.holding.get(part)
    if item is None:
        return False
    for p in [p for p, held in equip.holding.items() if held == item]:
        del equip.holding[p]
    (equip.lost if flung else equip.dropped).append(item)
    engine.sync_hands(i)
    if events is not None:
        events.append(ItemDropped(engine.tick, engine.clock_time, i + 1, item, _part_name(engine, i, part), flung))
    return True


def _loc_name(engine: ArrayEngine, i: int, loc: int) -> str:
    return engine.creatures.anatomy[i].body.locations[loc].name


def _part_name(engine: ArrayEngine, i: int, part: int) -> str:
    return engine.creatures.anatomy[i].body.parts[part].name
