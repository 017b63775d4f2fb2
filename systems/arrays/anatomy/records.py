"""One creature of an array world as the per-event records (``Creature`` with ``Injury`` and ``Shock``), so the
anatomy model's own ``readout`` reads it exactly as it reads an esper creature."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.anatomy_state import Injury, Shock, Wound
from components.impairment import Impairment
from components.rules import ShockState
from components.state import Combatant, Condition, Equipment, Identity, Position
from systems.arrays.state import ACTIONS, POLICIES
from systems.creatures import Creature
from systems.models.anatomy_binding import AnatomyState

if TYPE_CHECKING:
    from systems.arrays.anatomy.model import AnatomyArrayModel


def impairments(model: AnatomyArrayModel, i: int) -> tuple[Impairment, ...]:
    """Creature ``i``'s part impairments."""
    st = model.state
    parts = len(model.engine.creatures.anatomy[i].body.parts)
    return tuple(Impairment(int(st.penalty[i, p]), bool(st.unusable[i, p])) for p in range(parts))


def creature_record(model: AnatomyArrayModel, i: int) -> Creature:
    """Creature ``i`` as a ``Creature`` record (fresh components: editing them changes nothing)."""
    engine, st = model.engine, model.state
    cr = engine.creatures
    w = st.wounds
    mine = np.flatnonzero(w.owner[:w.count] == i)
    wounds = [Wound(int(w.location[k]), int(w.level[k]), int(w.aspect[k]), None, bool(w.bleeder[k]),
                    int(w.compounded[k]), float(w.received[k]), next_bleed=float(w.next_bleed[k]),
                    initial_level=int(w.level[k]) - int(w.compounded[k])) for k in mine.tolist()]
    injury = Injury(
        wounds=wounds, severed={int(x) for x in np.flatnonzero(st.severed[i])},
        unusable_parts={int(x) for x in np.flatnonzero(st.lost[i])}, health=int(st.health[i]),
        blood_loss=int(st.blood_loss[i]), fatigue=int(st.fatigue[i]),
        shock_cause=None if st.cause_location[i] < 0 else (int(st.cause_location[i]), int(st.cause_level[i])),
        extended_shock_hr=None if st.extended_hr[i] < 0 else int(st.extended_hr[i]),
        coma_hr=None if st.coma_hr[i] < 0 else int(st.coma_hr[i]))
    injury.reindex()
    injury.impairments = impairments(model, i)
    injury.dirty = False
    shock = Shock(ShockState(int(st.shock[i])), int(st.since[i]), float(st.retest_at[i]))
    cond = Condition(dead=bool(cr.dead[i]), cause=cr.causes[i], prone=bool(cr.prone[i]), reeling=bool(cr.reeling[i]),
                     out=bool(cr.out[i]))
    anat = cr.anatomy[i]
    target = int(cr.target[i])
    mode = int(cr.mode[i])
    comb = Combatant(cr.team_names[int(cr.team[i])], POLICIES[int(cr.policy[i])],
                     cr.aim_names[int(cr.aim_name[i])] if cr.aim_name[i] >= 0 else ("unaimed", "random")[
                         min(int(cr.aim[i]), 1)], int(cr.initiative[i]), target + 1 if target >= 0 else -1,
                     engine.modes.modes[mode].id if mode >= 0 else "", int(cr.aim_zone[i]), ACTIONS[int(cr.action[i])])
    equip = cr.equipment[i]
    equipment = Equipment(list(equip.weapons), list(equip.natural), dict(equip.holding), list(equip.dropped),
                          list(equip.lost))
    return Creature(i + 1, Identity(cr.names[i], cr.kinds[i]), anat, engine.armor[i], cond, comb,
                    Position(float(cr.x[i]), float(cr.y[i])), equipment, AnatomyState(injury, shock))
