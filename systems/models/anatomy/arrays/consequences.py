"""What a shock change and a hand letting go do outside the attack phase's compiled walk (``landing``).

To creatures of the array world: bleeding's shock changes and the deaths they bring (``set_shock``, entering each state
as the walk does), and the ``Equipment`` a hand lets go from (``drop_held``), with the events of traced creatures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.events import Died, Event, FellProne, ItemDropped, ShockChanged
from sandbox.components.rules import ShockState
from sandbox.systems.arrays.tables import IntArray
from sandbox.systems.models.anatomy.arrays.landing import FELL_SHOCKED, KILLED_BY_SHOCK, enter_shocks

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine
    from sandbox.systems.models.anatomy.arrays.model import AnatomyArrayModel

__all__ = ["DEAD", "INCAPACITATED", "STUNNED", "UNCONSCIOUS", "drop_held", "location_name", "part_name", "set_shock"]

STUNNED, INCAPACITATED, UNCONSCIOUS, DEAD = (int(s) for s in (ShockState.STUNNED, ShockState.INCAPACITATED,
                                                                  ShockState.UNCONSCIOUS, ShockState.DEAD))


def set_shock(model: AnatomyArrayModel, who: IntArray, new: IntArray, cause: str) -> None:
    """``sandbox.systems.models.anatomy.damage.set_shock`` for creatures ``who`` (each moving to a different state).

    The arrays as the attack phase's walk sets them (``landing.enter_shock``), then the causes of the deaths (``cause``)
    and the traced creatures' events.
    """
    engine, st, rules = model.engine, model.state, model.rules
    cr = engine.creatures
    now, tick = engine.clock_time, engine.tick
    old = st.shock[who].copy()
    outcome = np.zeros(who.shape[0], dtype=np.int64)
    unconscious_after = rules.aftercare.unconscious_retest_after if rules.aftercare is not None else -1.0
    enter_shocks(who, new, tick, now, engine.combat.tick_seconds, unconscious_after, st.shock, st.since, cr.out,
                 st.retest_at, cr.reeling, cr.prone, cr.dead, outcome)
    for j in np.flatnonzero(engine.tracer.traced[who] | (outcome == KILLED_BY_SHOCK)).tolist():
        i = int(who[j])
        if outcome[j] == KILLED_BY_SHOCK:
            cr.causes[i] = cause
        if not engine.tracer.traced[i]:
            continue
        events: list[Event] = [ShockChanged(tick, now, i + 1, ShockState(int(old[j])).label,
                                            ShockState(int(new[j])).label)]
        if outcome[j] == KILLED_BY_SHOCK:
            events.append(Died(tick, now, i + 1, cause))
        elif outcome[j] == FELL_SHOCKED:
            events.append(FellProne(tick, now, i + 1, "shock"))
        engine.tracer.extend(events)


def drop_held(engine: ArrayEngine, i: int, part: int, flung: bool, events: list[Event] | None) -> bool:
    """``sandbox.systems.conditions.drop_held``.

    The part lets go of what it holds (every hand holding it); True when it held something. Its gear state only: the
    caller mirrors the hands into the arrays (``sync_hands``).
    """
    cr = engine.creatures
    cr.gear[i], item = engine.gear.let_go(int(cr.gear[i]), part, flung)
    if item is None:
        return False
    if events is not None:
        events.append(ItemDropped(engine.tick, engine.clock_time, i + 1, item, part_name(engine, i, part), flung))
    return True


def location_name(engine: ArrayEngine, i: int, loc: int) -> str:
    """The name of location ``loc`` of creature ``i``'s body."""
    return engine.creatures.anatomy[i].body.locations[loc].name


def part_name(engine: ArrayEngine, i: int, part: int) -> str:
    """The name of part ``part`` of creature ``i``'s body."""
    return engine.creatures.anatomy[i].body.parts[part].name
