"""Many blows at once: the ``resolve_blow`` pipeline over numpy arrays.

``resolve_blows`` applies the same rules as ``sandbox.systems.models.anatomy.blow.resolve_blow`` to N blows at a time
against one compiled target, its tables as arrays (``sandbox.systems.models.anatomy.vector_target``). It draws from a
numpy ``Generator`` in whole arrays, so it gives the same distributions as the per-event path but not the same random
numbers. ``resolve_blow_batch`` is the same pipeline for blows against many targets at once (the array engine's
landed blows, ``sandbox.systems.arrays``): the tables of every kind of target stacked (``TargetTables``), and the
aim, the aspect, the target's test MLs and its wounds given per blow. Their exact odds are
``sandbox.systems.models.anatomy.exact_odds``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from sandbox.components.body import ASPECTS
from sandbox.components.gear import Dice, StrikeMode
from sandbox.components.rules import AnatomyRules, ShockState, TestResult
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy.blow import TargetProfile
from sandbox.systems.models.anatomy.vector_target import (
    CACHE_SIZE,
    NO_ML,
    NO_TEST,
    BoolArray,
    IntArray,
    TargetTables,
    build_target_tables,
    ml_code,
    vector_target,
)
from sandbox.systems.strike import strength_impact_modifier

__all__ = ["BlowArrays", "BlowRules", "resolve_blow_batch", "resolve_blows", "roll_dice_array", "roll_impacts"]


@dataclass(frozen=True, slots=True)
class BlowArrays:
    """What N blows did, one array entry per blow (the fields of ``sandbox.systems.models.anatomy.blow.BlowResult``).

    Test results are ``NO_TEST`` (-1) when no test was made, else ``TestResult`` codes 0..3 (CF, MF, MS, CS);
    dispositions index ``DISPOSITIONS``, outcomes ``FUMBLE_OUTCOMES`` / ``STUMBLE_OUTCOMES``, shock states
    ``ShockState``.
    """

    missed: BoolArray
    zone_number: IntArray
    location: IntArray
    impact: IntArray
    protection: IntArray
    effective_impact: IntArray
    level: IntArray
    glancing: BoolArray
    compound: BoolArray
    bleeder: BoolArray
    amputation_test: IntArray
    severed: BoolArray
    shock_index: IntArray
    shock_test: IntArray
    final_index: IntArray
    shock_state: IntArray
    fumble: IntArray
    fumble_test: IntArray
    fumble_outcome: IntArray
    stumble: IntArray
    stumble_test: IntArray
    stumble_outcome: IntArray
    dead: BoolArray

    def __len__(self) -> int:
        return int(self.missed.shape[0])

    def take(self, sel: IntArray | BoolArray) -> BlowArrays:
        """The blows at ``sel``."""
        return BlowArrays(*(getattr(self, f.name)[sel] for f in fields(self)))


def _compounds(level: IntArray, missed: BoolArray, location: IntArray, totals: IntArray, owner: IntArray
              ) -> BoolArray:
    """``sandbox.systems.models.anatomy.injury.compounds`` per blow.

    The sum of the levels of the open wounds at its location (``totals[owner]``, with a last column of zeros for a miss)
    is above 0 and at most the new level.
    """
    total = totals[owner, np.where(missed, totals.shape[1] - 1, location)]
    out: BoolArray = (total > 0) & (level > 0) & (level >= total)
    return out


def roll_dice_array(dice: Dice, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` rolls of a dice expression (``NdX+M``), as ``sandbox.systems.dice.roll_dice`` makes one."""
    total = np.full(n, dice.modifier, dtype=np.int64)
    for _ in range(dice.count):
        total += rng.integers(1, dice.sides + 1, size=n, dtype=np.int64) if dice.sides > 1 else 1
    return total


def roll_impacts(mode: StrikeMode, strength: int | None, rules: AnatomyRules, n: int, rng: np.random.Generator,
                 *, off_hand: bool = False) -> IntArray:
    """``n`` impacts of a strike mode, plus the Strength Impact Modifier where the mode takes it.

    The array form of ``sandbox.systems.models.anatomy.blow.roll_impact``.
    """
    impacts = roll_dice_array(mode.impact, n, rng)
    if mode.strength_modifier and strength is not None:
        impacts += strength_impact_modifier(strength, rules.strength_impact, off_hand=off_hand,
                                            thrown=mode.kind == "thrown")
    return impacts


def _tests(tables: TargetTables, rules: AnatomyRules, ml: IntArray | int, rolls: IntArray) -> IntArray:
    """``n`` d100 tests against ``ml``, read through the lookup table.

    ``ml`` is one ML, or one per test; ``NO_ML`` is a critical failure with no roll, as ``skill_test(None)``. Only the
    tests that can succeed draw a roll.
    """
    tests = rules.tests
    n = rolls.shape[0]
    mls = np.broadcast_to(np.asarray(ml, dtype=np.int64), (n,))
    results = np.full(n, int(TestResult.CF), dtype=np.int64)
    rolling = np.flatnonzero(mls > NO_ML // 2)
    if rolling.size:
        row = np.clip(mls[rolling], tests.ml_min, tests.ml_max) - tests.ml_min
        results[rolling] = tables.test_lut[row * 100 + rolls[rolling]]
    return results


def _d100(rng: np.random.Generator, n: int) -> IntArray:
    """``n`` d100 rolls, 0..99."""
    rolls: IntArray = rng.integers(0, 100, size=n, dtype=np.int64)
    return rolls


def _keep_control(tables: TargetTables, rules: AnatomyRules, disposition: IntArray, ml: IntArray,
                  rolls: IntArray) -> IntArray:
    result = np.full(disposition.shape[0], NO_TEST, dtype=np.int64)
    rolling = np.flatnonzero(disposition == 1)
    if rolling.size:
        result[rolling] = _tests(tables, rules, ml[rolling], rolls[rolling])
    return result


_SINGLE: dict[int, TargetTables] = {}


def _single_tables(target: TargetProfile) -> TargetTables:
    """The one-target tables of ``target`` (cached with its ``VectorTarget``)."""
    vt = vector_target(target)
    cached = _SINGLE.get(id(vt))
    if cached is None or cached.targets[0] is not target:
        if len(_SINGLE) >= CACHE_SIZE:
            _SINGLE.pop(next(iter(_SINGLE)))
        cached = _SINGLE[id(vt)] = build_target_tables((target,))
    return cached


def resolve_blows(target: TargetProfile, impacts: IntArray, aspect: int, rng: np.random.Generator,
                  aim: int | None = None, spread: int = 1, *, location: int | None = None) -> BlowArrays:
    """Resolve ``len(impacts)`` landed blows against a compiled target at once.

    The same rules, and the same distributions, as ``resolve_blow`` for each blow; the draws come from
    ``rng`` in whole arrays (call it in chunks of 10,000-100,000 blows). ``resolve_blow_batch`` is the same
    pipeline for blows against many targets, each with its own aim, test MLs and wounds.

    Args:
        target: The compiled target (every blow strikes it as it is: no blow sees another's wound).
        impacts: Each blow's final impact.
        aspect: Damage aspect index (one for every blow).
        rng: The numpy generator.
        aim: Target zone number, or ``None`` for unaimed blows.
        spread: The strike mode's Spread.
        location: Force the location (skips the location draw).

    Returns:
        One entry per blow.
    """
    tables = _single_tables(target)
    impacts = np.asarray(impacts, dtype=np.int64)
    n = impacts.shape[0]
    existing = target.existing_levels
    totals = np.zeros((1, tables.miss_row + 1), dtype=np.int64)
    for li, levels in existing.items():
        totals[0, li] = sum(levels) if levels else 0
    zeros = np.zeros(n, dtype=np.int64)
    return resolve_blow_batch(
        tables, zeros, impacts, np.full(n, aspect, dtype=np.int64), rng,
        locator=None if location is not None else np.full(n, tables.locator(0, aim, spread), dtype=np.int64),
        location=None if location is None else np.full(n, location, dtype=np.int64),
        shock_ml=np.full(n, ml_code(target.shock_ml), dtype=np.int64),
        strength_ml=np.full(n, ml_code(target.strength_ml), dtype=np.int64),
        fumble_ml=np.full(n, ml_code(target.fumble_ml), dtype=np.int64),
        stumble_ml=np.full(n, ml_code(target.stumble_ml), dtype=np.int64),
        existing=(totals, zeros) if existing else None)


@dataclass(frozen=True, slots=True)
class BlowRules:
    """The numbers of the anatomy rules a blow reads, as arrays by aspect and by ``TestResult``.

    What ``resolve_blow_batch`` and the array engine's compiled pass, ``sandbox.systems.models.anatomy.arrays.blows``,
    read.

    Attributes:
        glancing_aspect: Per aspect index, a blow of it can glance off rigid armour.
        glancing_max_level: The highest level a glancing blow loses.
        glancing_shock_roll: A glancing blow's Shock roll modifier.
        glancing_shock_index: A glancing blow's Shock index over the location's Shock Value.
        amputation_aspect: Per aspect index, a blow of it can sever.
        amputation_level: The lowest level that tests for amputation.
        amputation_severs: Per ``TestResult`` of the Strength test, the part is severed.
        amputation_shock_roll: Per ``TestResult``, the Shock roll modifier it gives.
        shock_no_test_max: Shock indexes up to this need no test (no shock).
        shock_death_above: Shock indexes above this kill.
        shock_change: Per ``TestResult`` of the Shock test, the change to the index.
        ml_min: The lowest ML the test table reads (lower ones are clamped).
        ml_max: The highest.
    """

    glancing_aspect: BoolArray
    glancing_max_level: int
    glancing_shock_roll: int
    glancing_shock_index: int
    amputation_aspect: BoolArray
    amputation_level: int
    amputation_severs: BoolArray
    amputation_shock_roll: IntArray
    shock_no_test_max: int
    shock_death_above: int
    shock_change: IntArray
    ml_min: int
    ml_max: int

    @classmethod
    def of(cls, rules: AnatomyRules) -> BlowRules:
        """Read them from the anatomy rules."""
        outcomes = [rules.amputation_outcomes[r] for r in TestResult]
        return cls(
            glancing_aspect=np.asarray([a in rules.glancing_aspects for a in range(len(ASPECTS))], dtype=np.bool_),
            glancing_max_level=rules.glancing_max_level, glancing_shock_roll=rules.glancing_shock_roll,
            glancing_shock_index=rules.glancing_shock_index,
            amputation_aspect=np.asarray([a in rules.amputation_aspects for a in range(len(ASPECTS))],
                                         dtype=np.bool_),
            amputation_level=rules.amputation_level,
            amputation_severs=np.asarray([o.severed for o in outcomes], dtype=np.bool_),
            amputation_shock_roll=np.asarray([o.shock_roll_modifier for o in outcomes], dtype=np.int64),
            shock_no_test_max=rules.shock_no_test_max, shock_death_above=rules.shock_death_above,
            shock_change=np.asarray([rules.shock_index_change[r] for r in TestResult], dtype=np.int64),
            ml_min=rules.tests.ml_min, ml_max=rules.tests.ml_max)


def resolve_blow_batch(tables: TargetTables, kind: IntArray, impacts: IntArray, aspect: IntArray,
                       rng: np.random.Generator, *, locator: IntArray | None = None, location: IntArray | None = None,
                       shock_ml: IntArray, strength_ml: IntArray, fumble_ml: IntArray, stumble_ml: IntArray,
                       existing: tuple[IntArray, IntArray] | None = None) -> BlowArrays:
    """Resolve landed blows against many targets at once: the ``resolve_blow`` rules with every input per blow.

    Args:
        tables: The stacked tables of every kind of target (``build_target_tables``).
        kind: Per blow, the kind of its target (an index into ``tables.targets``).
        impacts: Per blow, its final impact.
        aspect: Per blow, its damage aspect index.
        rng: The numpy generator.
        locator: Per blow, its location table (``TargetTables.locator``: kind, aim and Spread); or
        location: Per blow, a forced location index on its target's body.
        shock_ml: Per blow, the target's Shock ML (``NO_ML``: it cannot test).
        strength_ml: Per blow, the target's Strength ML for an amputation check.
        fumble_ml: Per blow, the target's keep-grip ML.
        stumble_ml: Per blow, the target's keep-footing ML.
        existing: ``(totals, row)``: per blow, ``totals[row]`` holds the sum of the levels of the open wounds
            already at each of its target's locations (a last column of zeros for a miss); ``None``: no wounds.

    Returns:
        One entry per blow; ``location`` is the location index on the target's own body (``MISS``: -1).
    """
    rules = tables.targets[0].rules
    numbers = BlowRules.of(rules)
    impacts = np.asarray(impacts, dtype=np.int64)
    n = impacts.shape[0]
    if location is None:
        assert locator is not None, "give each blow a locator or a location"
        zone_number, row = tables.locate_blows(locator, rng)
        missed = row == tables.miss_row
    else:
        row = tables.offset[kind] + location
        zone_number = tables.zone_first[row]
        missed = np.zeros(n, dtype=np.bool_)
    # Every blow's four d100 rolls (amputation, shock, keep grip, keep footing) drawn whole, used where a test is
    # made: what one blow draws never depends on the other blows of the batch.
    amp_rolls, shock_rolls, fumble_rolls, stumble_rolls = (_d100(rng, n) for _ in range(4))
    loc = np.where(missed, MISS, row - tables.offset[kind])

    prot = tables.protection[row, aspect]
    eff = np.maximum(impacts - prot, 0)
    eff[missed | (impacts <= 0)] = 0  # no impact, no wound, even on a vulnerability (injury.effective_impact)
    # An effective impact's level: how many of its target's thresholds it reaches (never a table the size of the
    # top threshold: the thresholds' magnitudes cost nothing).
    level = (tables.thresholds[kind] <= eff[:, None]).sum(axis=1).astype(np.int64)
    glancing = (numbers.glancing_aspect[aspect] & tables.rigid[row] & (level > 0)
                & (level <= rules.glancing_max_level))
    level[glancing] = 0
    compound = _compounds(level, missed, loc, *existing) if existing is not None else np.zeros(n, dtype=np.bool_)
    cell = row * tables.levels + level
    bleeder = ((tables.bleeds.reshape(-1)[cell] >> aspect) & 1).astype(np.bool_)

    amp_test = np.full(n, NO_TEST, dtype=np.int64)
    severed = np.zeros(n, dtype=np.bool_)
    roll_mod = np.where(glancing, rules.glancing_shock_roll, 0)
    checked = np.flatnonzero(tables.amp_ok[row] & (level >= rules.amputation_level)
                             & numbers.amputation_aspect[aspect])
    if checked.size:
        at = row[checked]
        ml = strength_ml[checked]
        results = _tests(tables, rules, np.where(ml > NO_ML // 2, ml + tables.amp_mod[at], NO_ML), amp_rolls[checked])
        amp_test[checked] = results
        cut = numbers.amputation_severs[results]
        severed[checked] = cut
        roll_mod[checked] += numbers.amputation_shock_roll[results]
        bleeder[checked] |= cut & tables.amp_bleed[at, results]

    sv = tables.shock_value[row]
    index = np.where(glancing, sv + rules.glancing_shock_index, np.where(level > 0, sv + level, 0))
    shock_test = np.full(n, NO_TEST, dtype=np.int64)
    final = index.copy()
    tested = np.flatnonzero((index > rules.shock_no_test_max) & (index <= rules.shock_death_above))
    if tested.size:
        ml = shock_ml[tested]
        results = _tests(tables, rules, np.where(ml > NO_ML // 2, ml + roll_mod[tested], NO_ML), shock_rolls[tested])
        shock_test[tested] = results
        final[tested] += numbers.shock_change[results]
    states = tables.state_by_index
    state = states[np.clip(final, 0, len(states) - 1)]
    state[index > rules.shock_death_above] = int(ShockState.DEAD)
    state[index <= rules.shock_no_test_max] = int(ShockState.NONE)

    fumble = tables.fumble.reshape(-1)[cell]
    fumble_test = _keep_control(tables, rules, fumble, fumble_ml, fumble_rolls)
    stumble = tables.stumble.reshape(-1)[cell]
    stumble_test = _keep_control(tables, rules, stumble, stumble_ml, stumble_rolls)
    # fumble: none -> none, auto -> dropped, roll -> kept (MS/CS), dropped (MF), flung (CF)
    f_out = np.asarray([3, 2, 1, 1], dtype=np.int64)[np.maximum(fumble_test, 0)]
    f_out = np.where(fumble == 0, 0, np.where(fumble == 2, 2, f_out))
    s_out = np.asarray([2, 2, 1, 1], dtype=np.int64)[np.maximum(stumble_test, 0)]
    s_out = np.where(stumble == 0, 0, np.where(stumble == 2, 2, s_out))

    dead = (state == int(ShockState.DEAD)) | (severed & tables.vital[row])
    return BlowArrays(
        missed=missed, zone_number=zone_number, location=loc, impact=impacts, protection=prot,
        effective_impact=eff, level=level, glancing=glancing, compound=compound, bleeder=bleeder,
        amputation_test=amp_test, severed=severed, shock_index=index, shock_test=shock_test, final_index=final,
        shock_state=state, fumble=fumble, fumble_test=fumble_test, fumble_outcome=f_out, stumble=stumble,
        stumble_test=stumble_test, stumble_outcome=s_out, dead=dead,
    )
