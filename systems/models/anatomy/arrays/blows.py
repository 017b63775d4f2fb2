"""The attack phase's blows through the ``resolve_blow`` pipeline in one compiled pass.

Location, protection, injury level, glancing, bleeding, amputation, the Shock test and the keep-grip and keep-footing
tests of each blow.

It is ``sandbox.systems.models.anatomy.vector_blows.resolve_blow_batch`` (the per-event rules over arrays) as one loop
over the blows: the random numbers are drawn first, whole arrays in the batch's order (each blow's location, then its
four d100 rolls), so it gives what the batch gives, number for number (``tests/test_array_blows.py``); the loop then
reads each blow's tables once, where the batch makes some forty passes over whole arrays.
"""

from __future__ import annotations

import numpy as np

from sandbox.components.rules import ShockState, TestResult
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy.vector_blows import BlowArrays, BlowRules
from sandbox.systems.models.anatomy.vector_target import NO_ML, NO_TEST, TargetTables

__all__ = ["d100_test", "resolve_landed"]

_FLUNG, _DROPPED, _KEPT = 3, 2, 1
"""Keep-grip outcome codes (``FUMBLE_OUTCOMES``)."""
_PRONE = 2
"""The keep-footing outcome code of a fall (``STUMBLE_OUTCOMES``)."""
_ROLL, _AUTO = 1, 2
"""Mishap disposition codes (``DISPOSITIONS``)."""
_DEAD, _NO_SHOCK, _CRITICAL_FAILURE = int(ShockState.DEAD), int(ShockState.NONE), int(TestResult.CF)


def resolve_landed(tables: TargetTables, rules: BlowRules, kind: IntArray, impacts: IntArray, aspect: IntArray,
                   rng: np.random.Generator, locator: IntArray, shock_ml: IntArray, strength_ml: IntArray,
                   fumble_ml: IntArray, stumble_ml: IntArray) -> BlowArrays:
    """``resolve_blow_batch`` of blows with no wounds given (compounding is the walk's), in one compiled pass.

    Args:
        tables: The stacked tables of every kind of target.
        rules: The rules' numbers (``BlowRules.of``).
        kind: Per blow, the kind of its target.
        impacts: Per blow, its final impact.
        aspect: Per blow, its damage aspect index.
        rng: What the numbers are drawn from (a ``Generator``'s calls).
        locator: Per blow, its location table (``TargetTables.locator``).
        shock_ml: Per blow, the target's Shock ML (``NO_ML``: it cannot test).
        strength_ml: Per blow, the target's Strength ML for an amputation check.
        fumble_ml: Per blow, the target's keep-grip ML.
        stumble_ml: Per blow, the target's keep-footing ML.
    """
    n = impacts.shape[0]
    zone_number, row = tables.locate_blows(locator, rng)
    rolls = rng.integers(0, 100, size=(4, n), dtype=np.int64)  # four rounds, as the batch draws them
    ints = np.empty((15, n), dtype=np.int64)
    flags = np.empty((6, n), dtype=np.bool_)
    _resolve(row, kind, np.asarray(impacts, dtype=np.int64), aspect, rolls, shock_ml, strength_ml, fumble_ml,
             stumble_ml, tables.miss_row, tables.offset, tables.protection, tables.rigid, tables.thresholds,
             tables.bleeds, tables.amp_ok, tables.amp_mod, tables.amp_bleed, tables.shock_value,
             tables.state_by_index, tables.fumble, tables.stumble, tables.vital, tables.test_lut,
             rules.glancing_aspect, rules.glancing_max_level, rules.glancing_shock_roll, rules.glancing_shock_index,
             rules.amputation_aspect, rules.amputation_level, rules.amputation_severs, rules.amputation_shock_roll,
             rules.shock_no_test_max, rules.shock_death_above, rules.shock_change, rules.ml_min, rules.ml_max,
             ints, flags)
    (location, protection, effective, level, amputation_test, shock_index, shock_test, final_index, shock_state,
     fumble, fumble_test, fumble_outcome, stumble, stumble_test, stumble_outcome) = ints
    missed, glancing, bleeder, severed, dead, compound = flags
    return BlowArrays(
        missed=missed, zone_number=zone_number, location=location, impact=np.asarray(impacts, dtype=np.int64),
        protection=protection, effective_impact=effective, level=level, glancing=glancing, compound=compound,
        bleeder=bleeder, amputation_test=amputation_test, severed=severed, shock_index=shock_index,
        shock_test=shock_test, final_index=final_index, shock_state=shock_state, fumble=fumble,
        fumble_test=fumble_test, fumble_outcome=fumble_outcome, stumble=stumble, stumble_test=stumble_test,
        stumble_outcome=stumble_outcome, dead=dead)


@compiled
def d100_test(ml: int, roll: int, lut: IntArray, ml_min: int, ml_max: int) -> int:
    """A d100 test against ``ml`` (``NO_ML``: a critical failure without a roll), read through the table."""
    if ml <= NO_ML // 2:
        return _CRITICAL_FAILURE
    return int(lut[(min(max(ml, ml_min), ml_max) - ml_min) * 100 + roll])


@compiled
def _resolve(row: IntArray, kind: IntArray, impacts: IntArray, aspect: IntArray, rolls: IntArray,
             shock_ml: IntArray, strength_ml: IntArray, fumble_ml: IntArray, stumble_ml: IntArray, miss_row: int,
             offset: IntArray, protection: IntArray, rigid: BoolArray, thresholds: FloatArray, bleeds: IntArray,
             amp_ok: BoolArray, amp_mod: IntArray, amp_bleed: BoolArray, shock_value: IntArray,
             state_by_index: IntArray, fumble_of: IntArray, stumble_of: IntArray, vital: BoolArray, lut: IntArray,
             glancing_aspect: BoolArray, glancing_max_level: int, glancing_shock_roll: int,
             glancing_shock_index: int, amputation_aspect: BoolArray, amputation_level: int,
             amputation_severs: BoolArray, amputation_shock_roll: IntArray, shock_no_test_max: int,
             shock_death_above: int, shock_change: IntArray, ml_min: int, ml_max: int, ints: IntArray,
             flags: BoolArray) -> None:
    """Each blow through the pipeline, in ``resolve_blow_batch``'s order of rules.

    Its results into ``ints`` (location, protection, effective impact, level, amputation test, shock index, shock test,
    final index, shock state, fumble disposition, test and outcome, stumble disposition, test and outcome) and ``flags``
    (missed, glancing, bleeder, severed, dead, compound).
    """
    for i in range(row.shape[0]):
        r, k, a, impact = row[i], kind[i], aspect[i], impacts[i]
        missed = r == miss_row
        prot = protection[r, a]
        effective = max(impact - prot, 0)
        if missed or impact <= 0:
            effective = 0  # no impact, no wound, even on a vulnerability
        level = 0
        for j in range(thresholds.shape[1]):
            if thresholds[k, j] <= effective:
                level += 1
        glancing = glancing_aspect[a] and rigid[r] and 0 < level <= glancing_max_level
        if glancing:
            level = 0
        bleeder = ((bleeds[r, level] >> a) & 1) == 1
        amputation_test = NO_TEST
        severed = False
        roll_mod = glancing_shock_roll if glancing else 0
        if amp_ok[r] and level >= amputation_level and amputation_aspect[a]:
            ml = strength_ml[i]
            result = d100_test(ml + amp_mod[r] if ml > NO_ML // 2 else NO_ML, rolls[0, i], lut, ml_min, ml_max)
            amputation_test = result
            severed = amputation_severs[result]
            roll_mod += amputation_shock_roll[result]
            bleeder = bleeder or (severed and amp_bleed[r, result])
        sv = shock_value[r]
        index = sv + glancing_shock_index if glancing else (sv + level if level > 0 else 0)
        shock_test = NO_TEST
        final = index
        if shock_no_test_max < index <= shock_death_above:
            ml = shock_ml[i]
            result = d100_test(ml + roll_mod if ml > NO_ML // 2 else NO_ML, rolls[1, i], lut, ml_min, ml_max)
            shock_test = result
            final += shock_change[result]
        state = state_by_index[min(max(final, 0), state_by_index.shape[0] - 1)]
        if index > shock_death_above:
            state = _DEAD
        if index <= shock_no_test_max:
            state = _NO_SHOCK
        fumble = fumble_of[r, level]
        fumble_test = d100_test(fumble_ml[i], rolls[2, i], lut, ml_min, ml_max) if fumble == _ROLL else NO_TEST
        fumbled = 0 if fumble == 0 else _DROPPED if fumble == _AUTO else (
            _FLUNG if fumble_test <= 0 else _DROPPED if fumble_test == 1 else _KEPT)
        stumble = stumble_of[r, level]
        stumble_test = d100_test(stumble_ml[i], rolls[3, i], lut, ml_min, ml_max) if stumble == _ROLL else NO_TEST
        stumbled = 0 if stumble == 0 else _PRONE if stumble == _AUTO else (_PRONE if stumble_test <= 1 else _KEPT)
        ints[0, i] = MISS if missed else r - offset[k]
        ints[1, i] = prot
        ints[2, i] = effective
        ints[3, i] = level
        ints[4, i] = amputation_test
        ints[5, i] = index
        ints[6, i] = shock_test
        ints[7, i] = final
        ints[8, i] = state
        ints[9, i] = fumble
        ints[10, i] = fumble_test
        ints[11, i] = fumbled
        ints[12, i] = stumble
        ints[13, i] = stumble_test
        ints[14, i] = stumbled
        flags[0, i] = missed
        flags[1, i] = glancing
        flags[2, i] = bleeder
        flags[3, i] = severed
        flags[4, i] = state == _DEAD or (severed and vital[r])
        flags[5, i] = False  # compounding reads the wounds as each blow lands: the walk's
