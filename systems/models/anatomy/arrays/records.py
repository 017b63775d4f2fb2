"""One creature of an array world as the per-event records, and a traced creature's landed blows.

The records are a ``Creature`` with ``Injury`` and ``Shock``, so the anatomy model's own ``readout`` reads it exactly as
it reads an esper creature. The blows are the anatomy model's own ``AttackRecord`` (which explains itself from aim to
shock state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.events import Event
from sandbox.components.impairment import Impairment
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.rules import ShockState, TestResult
from sandbox.components.state import Combatant, Condition, Identity, Position
from sandbox.systems.arrays.attack import Attacks
from sandbox.systems.arrays.state import ACTIONS, NO_ML, POLICIES
from sandbox.systems.arrays.tables import IntArray
from sandbox.systems.creatures import Creature
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy.blow import BlowResult
from sandbox.systems.models.anatomy.record import AttackRecord
from sandbox.systems.models.anatomy.state import AnatomyState
from sandbox.systems.models.anatomy.vector_blows import BlowArrays
from sandbox.systems.models.anatomy.vector_target import DISPOSITIONS, FUMBLE_OUTCOMES, NO_TEST, STUMBLE_OUTCOMES

if TYPE_CHECKING:
    from sandbox.systems.arrays.trace import Tracer
    from sandbox.systems.models.anatomy.arrays.model import AnatomyArrayModel

__all__ = ["creature_record", "impairments", "log_blows"]


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
    equipment = engine.equipment(i)
    return Creature(i + 1, Identity(cr.names[i], cr.kinds[i]), anat, engine.armor[i], cond, comb,
                    Position(float(cr.x[i]), float(cr.y[i])), equipment, AnatomyState(injury, shock))


def _blow_result(blows: BlowArrays, k: int, aspect: int) -> BlowResult:
    """Blow ``k`` of ``blows`` (of damage aspect ``aspect``) as the per-event ``BlowResult``."""

    def test(code: int) -> TestResult | None:
        return None if code == NO_TEST else TestResult(code)

    missed = bool(blows.missed[k])
    return BlowResult(
        missed, int(blows.zone_number[k]), MISS if missed else int(blows.location[k]), int(blows.impact[k]),
        aspect, int(blows.protection[k]),
        int(blows.effective_impact[k]), int(blows.level[k]), bool(blows.glancing[k]), bool(blows.compound[k]),
        bool(blows.bleeder[k]), test(int(blows.amputation_test[k])), bool(blows.severed[k]),
        int(blows.shock_index[k]), test(int(blows.shock_test[k])), int(blows.final_index[k]),
        ShockState(int(blows.shock_state[k])), DISPOSITIONS[int(blows.fumble[k])], test(int(blows.fumble_test[k])),
        FUMBLE_OUTCOMES[int(blows.fumble_outcome[k])], DISPOSITIONS[int(blows.stumble[k])],
        test(int(blows.stumble_test[k])), STUMBLE_OUTCOMES[int(blows.stumble_outcome[k])], bool(blows.dead[k]))


def log_blows(tracer: Tracer, hits: Attacks, blows: BlowArrays, attack_ml: IntArray, attack: IntArray,
              defence: IntArray, defence_ml: IntArray, follows: Mapping[int, list[Event]]) -> None:
    """Log each traced landed blow as an ``AttackRecord`` followed by the events of what it did."""
    if not follows:
        return
    engine = tracer.engine
    cr, modes = engine.creatures, engine.modes
    for k in sorted(follows):
        a, t = int(hits.attacker[k]), int(hits.target[k])
        zone = int(hits.aim_zone[k])
        aim = cr.aim_names[int(cr.aim_name[a])] if cr.aim_name[a] >= 0 else "random"
        defends = int(defence[k]) >= 0
        blow = _blow_result(blows, k, int(modes.aspect[int(hits.mode[k])]))
        tracer.log.append(AttackRecord(
            engine.tick, engine.clock_time, a + 1, t + 1, modes.modes[int(hits.mode[k])],
            aim if zone else "unaimed", zone, None if attack_ml[k] <= NO_ML // 2 else int(attack_ml[k]),
            TestResult(int(attack[k])),
            int(defence_ml[k]) if defends and defence_ml[k] > NO_ML // 2 else None,
            TestResult(int(defence[k])) if defends else None, True, blow, cr.anatomy[t].body,
            engine.armor[t].pieces, engine.per_event_model.tables))  # type: ignore[arg-type]
        tracer.log.extend(follows[k])
