"""What a shock change, a death and a hand letting go do to creatures of the array world, outside the attack
phase's compiled walk (``landing``, which does the same to the arrays as each blow lands): bleeding's and the
re-tests' shock changes (``set_shock``), deaths (``kill``), and the ``Equipment`` a hand lets go from
(``drop_held``), with the events of traced creatures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.events import Died, Event, FellProne, ItemDropped, ShockChanged
from components.rules import ShockState
from systems.arrays.tables import IntArray

if TYPE_CHECKING:
    from systems.arrays.anatomy.model import AnatomyArrayModel
    from systems.arrays.engine import ArrayEngine

STUNNED, INCAPACITATED, UNCONSCIOUS, DEAD = (int(s) for s in (ShockState.STUNNED, ShockState.INCAPACITATED,
                                                                  ShockState.UNCONSCIOUS, ShockState.DEAD))


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
    held something. Its ``Equipment`` only: the caller mirrors the hands into the arrays (``sync_hands``)."""
    equip = engine.creatures.equipment[i]
    item = equip.holding.get(part)
    if item is None:
        return False
    for p in [p for p, held in equip.holding.items() if held == item]:
        del equip.holding[p]
    (equip.lost if flung else equip.dropped).append(item)
    if events is not None:
        events.append(ItemDropped(engine.tick, engine.clock_time, i + 1, item, part_name(engine, i, part), flung))
    return True


def location_name(engine: ArrayEngine, i: int, loc: int) -> str:
    """The name of location ``loc`` of creature ``i``'s body."""
    return engine.creatures.anatomy[i].body.locations[loc].name


def part_name(engine: ArrayEngine, i: int, part: int) -> str:
    """The name of part ``part`` of creature ``i``'s body."""
    return engine.creatures.anatomy[i].body.parts[part].name
