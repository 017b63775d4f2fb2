"""Which of a tick's blows land, and what each does at once, one attack at a time in initiative order.

The esper engine's turn order (``sandbox.systems.combat.AttackProcessor`` with
``sandbox.systems.models.anatomy.damage.apply_blow``), compiled.

Each attack here already passed its own test and has its blow resolved (``attack_phase``: every number a blow
draws is drawn before the walk, so the order of the walk draws nothing). When its turn comes, its attacker must
not have been felled, shocked or disarmed earlier in the tick, its target must still live, and the target defends
as it is then (a Stunned defender's result drops). A blow that lands is applied before the next attack's turn:

1. compounding (the worst open wound at its location worsens one level, when the open wounds there sum to at most
   the new level) and the new wound, with the location's sum and worst wound;
2. severing (the location and its part gone; the part lets go of what it holds);
3. a fumble (a hand that holds something drops or flings it);
4. a stumble (a creature on its feet falls);
5. the shock state the blow offers (``offered_state``), entered as ``set_shock`` enters it (``enter_shock``: the
   re-test time, reeling, a fall, death);
6. death, when the blow kills (a severed vital location) and its target was not dead already.

What needs Python objects is returned as records, in order, and replayed by the caller: the drops (a creature's
``Equipment``), the causes of deaths, and the events of traced creatures' blows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sandbox.components.rules import InjuryLevel, ShockState, TestResult
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray

__all__ = ["FELL_SHOCKED", "FELL_STUMBLING", "KILLED_BY_BLOW", "KILLED_BY_SHOCK", "Landed", "enter_shock",
           "enter_shocks", "walk_attacks"]

_STUNNED = int(ShockState.STUNNED)
_INCAPACITATED = int(ShockState.INCAPACITATED)
_UNCONSCIOUS = int(ShockState.UNCONSCIOUS)
_DEAD = int(ShockState.DEAD)
_WORST_LEVEL = int(InjuryLevel.G5)
_SUCCESS = int(TestResult.MS)

FELL_STUMBLING = 1
"""``Landed.fell`` bit: the blow's stumble put its target down."""
FELL_SHOCKED = 2
"""``Landed.fell`` bit: the shock state it offered put its target down (Incapacitated or worse, not dead)."""
KILLED_BY_SHOCK = 1
"""``Landed.killed``: the shock state it offered was Dead."""
KILLED_BY_BLOW = 2
"""``Landed.killed``: the blow itself killed (``BlowArrays.dead``)."""


@dataclass(frozen=True, slots=True)
class Landed:
    """The walk's records, each list in the order of the walk.

    Attributes:
        blows: Positions (in the attacks walked) of the blows that landed, in initiative order.
        defence: Per attack walked, its defender's result (-1: no defence: the target could not defend).
        compound: Per attack walked, the blow compounded the wounds there (read when it landed).
        shock_before: Per attack walked, its target's shock state before the blow.
        shock_after: Per attack walked, after it.
        fell: Per attack walked, ``FELL_STUMBLING`` | ``FELL_SHOCKED`` bits.
        killed: Per attack walked, ``KILLED_BY_SHOCK``, ``KILLED_BY_BLOW`` or 0.
        touched: Wounds added or worsened, in order.
        drops: ``[k, (attack walked, part, flung)]``: the hands that let go, in order.
    """

    blows: IntArray
    defence: IntArray
    compound: BoolArray
    shock_before: IntArray
    shock_after: IntArray
    fell: IntArray
    killed: IntArray
    touched: IntArray
    drops: IntArray


@compiled
def enter_shock(i: int, new: int, tick: int, now: float, tick_seconds: float, unconscious_after: float,
                shock: IntArray, since: IntArray, out: BoolArray, retest_at: FloatArray, reeling: BoolArray,
                prone: BoolArray, dead: BoolArray) -> int:
    """``sandbox.systems.models.anatomy.damage.set_shock`` on the arrays.

    Creature ``i`` enters shock state ``new`` (not its state now): its re-test time, out of the fight from Incapacitated
    on, reeling; Dead kills it (when it was not dead already), Incapacitated or worse puts it down. Returns
    ``KILLED_BY_SHOCK``, ``FELL_SHOCKED`` or 0.
    """
    shock[i] = new
    since[i] = tick
    out[i] = new >= _INCAPACITATED
    if new in (_STUNNED, _INCAPACITATED):
        retest_at[i] = now + tick_seconds
    elif new == _UNCONSCIOUS:
        retest_at[i] = now + unconscious_after
    else:
        retest_at[i] = -1.0
    reeling[i] = True
    if new == _DEAD:
        if dead[i]:
            return 0
        dead[i] = True
        prone[i] = True
        return KILLED_BY_SHOCK
    if new >= _INCAPACITATED and not prone[i]:
        prone[i] = True
        return FELL_SHOCKED
    return 0


@compiled
def enter_shocks(who: IntArray, new: IntArray, tick: int, now: float, tick_seconds: float, unconscious_after: float,
                 shock: IntArray, since: IntArray, out: BoolArray, retest_at: FloatArray, reeling: BoolArray,
                 prone: BoolArray, dead: BoolArray, outcome: IntArray) -> None:
    """``enter_shock`` for creatures ``who`` (distinct), each its ``new`` state; ``outcome`` gets what each did."""
    for j in range(who.shape[0]):
        outcome[j] = enter_shock(who[j], new[j], tick, now, tick_seconds, unconscious_after, shock, since, out,
                                 retest_at, reeling, prone, dead)


@compiled
def walk_attacks(attacker: IntArray, target: IntArray, natural: BoolArray, result: IntArray, defence_roll: IntArray,
          missed: BoolArray, location: IntArray, level: IntArray, bleeder: BoolArray, severs: BoolArray,
          fumble: IntArray, stumble: IntArray, offered: IntArray, kills: BoolArray, aspect: IntArray,
          body: IntArray, location_part: IntArray,
          shock: IntArray, since: IntArray, retest_at: FloatArray, cause_location: IntArray, cause_level: IntArray,
          out: BoolArray, dead: BoolArray, prone: BoolArray, reeling: BoolArray, holding: IntArray,
          totals: IntArray, worst: IntArray, severed: BoolArray, lost: BoolArray, dirty: BoolArray,
          w_owner: IntArray, w_location: IntArray, w_part: IntArray, w_level: IntArray, w_aspect: IntArray,
          w_bleeder: BoolArray, w_received: FloatArray, w_next_bleed: FloatArray, w_compounded: IntArray,
          wound_count: int, tick: int, now: float, tick_seconds: float, bleed_interval: float,
          unconscious_after: float, stunned_drop: int, helpless_defence: bool,
          landed: IntArray, defence: IntArray, compound: BoolArray, shock_before: IntArray, shock_after: IntArray,
          fell: IntArray, killed: IntArray, touched: IntArray, drops: IntArray) -> tuple[int, int, int, int]:
    """The walk (see the module docstring) over arrays.

    The state arrays are updated in place and the records written to the last nine. Returns how many blows landed, the
    wound count, and how many wounds were touched and hands let go.
    """
    creatures = shock.shape[0]
    parts = holding.shape[1]
    miss_column = totals.shape[1] - 1
    reeled = np.zeros(creatures, dtype=np.bool_)
    disarmed = np.zeros(creatures, dtype=np.bool_)
    n_landed = 0
    n_touched = 0
    n_drops = 0
    for j in range(attacker.shape[0]):
        a = attacker[j]
        t = target[j]
        defence[j] = -1
        if reeled[a] or (disarmed[a] and not natural[j]) or dead[t]:
            continue
        defends = not out[t] or helpless_defence
        if defends:
            defence[j] = max(defence_roll[j] - (stunned_drop if shock[t] == _STUNNED else 0), 0)
        if result[j] < _SUCCESS or (defends and defence[j] >= result[j]):
            continue
        landed[n_landed] = j
        n_landed += 1
        hit = not missed[j]
        loc = max(location[j], 0)
        part = location_part[body[t], loc]
        new_level = level[j]
        total = totals[t, miss_column if missed[j] else loc]
        compound[j] = total > 0 and new_level > 0 and new_level >= total
        shock_before[j] = shock[t]
        shock_after[j] = shock[t]
        if not hit:
            continue
        # 1. Compounding, then the new wound.
        if compound[j]:
            w = worst[t, loc]
            if w >= 0 and w_level[w] < _WORST_LEVEL:
                w_level[w] += 1
                w_compounded[w] += 1
                totals[t, loc] += 1
                touched[n_touched] = w
                n_touched += 1
        if new_level > 0:
            w = wound_count
            wound_count += 1
            w_owner[w] = t
            w_location[w] = loc
            w_part[w] = part
            w_level[w] = new_level
            w_aspect[w] = aspect[j]
            w_bleeder[w] = bleeder[j]
            w_received[w] = now
            w_next_bleed[w] = now + bleed_interval if bleeder[j] else -1.0
            w_compounded[w] = 0
            totals[t, loc] += new_level
            current = worst[t, loc]
            if current < 0 or new_level > w_level[current]:
                worst[t, loc] = w
            touched[n_touched] = w
            n_touched += 1
        if new_level > 0 or compound[j]:
            dirty[t] = True
        # 2. Severing, and 3. a fumble: a hand lets go of what it holds (every hand holding the same item).
        for cause in range(2):
            if cause == 0:
                if not severs[j]:
                    continue
                severed[t, loc] = True
                lost[t, part] = True
                dirty[t] = True
            elif fumble[j] < 2:
                continue
            item = holding[t, part]
            if item < 0:
                continue
            for p in range(parts):
                if holding[t, p] == item:
                    holding[t, p] = -1
            drops[n_drops, 0] = j
            drops[n_drops, 1] = part
            drops[n_drops, 2] = 1 if cause == 1 and fumble[j] == 3 else 0
            n_drops += 1
            disarmed[t] = True
        # 4. A stumble.
        if stumble[j] == 2 and not prone[t]:
            prone[t] = True
            reeling[t] = True
            reeled[t] = True
            fell[j] |= FELL_STUMBLING
        # 5. The shock state offered: only worse; Stunned on Stunned is Incapacitated, that again Unconscious.
        before = shock[t]
        after = before
        if offered[j] != 0:
            if offered[j] == before and (before in (_STUNNED, _INCAPACITATED)):
                after = before + 1
            else:
                after = max(offered[j], before)
        if after != before:
            shock_after[j] = after
            outcome = enter_shock(t, after, tick, now, tick_seconds, unconscious_after, shock, since, out,
                                  retest_at, reeling, prone, dead)
            if outcome == KILLED_BY_SHOCK:
                killed[j] = KILLED_BY_SHOCK
            elif outcome == FELL_SHOCKED:
                fell[j] |= FELL_SHOCKED
            cause_location[t] = loc
            cause_level[t] = max(new_level, 1)
            reeled[t] = True
        # 6. Death.
        if kills[j] and not dead[t]:
            dead[t] = True
            reeling[t] = True
            prone[t] = True
            killed[j] = KILLED_BY_BLOW
            reeled[t] = True
    return n_landed, wound_count, n_touched, n_drops
