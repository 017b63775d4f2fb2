"""Many blows at once: the ``resolve_blow`` pipeline over numpy arrays, and its exact odds.

``resolve_blows`` applies the same rules as ``sandbox.systems.models.anatomy.blow.resolve_blow`` to N blows at a time,
with every per-location table of the compiled ``TargetProfile`` turned into a numpy array (``vector_target``). It draws
from a numpy ``Generator`` in whole arrays, so it gives the same distributions as the per-event path but not the same
random numbers. The location draw folds the zone-number roll and the location draw into one draw over every ``(zone
number, location)`` outcome, which has exactly the distribution of ``hit_location.locate``.

``resolve_blow_batch`` is the same pipeline for blows against many targets at once (the array engine's landed
blows, ``sandbox.systems.arrays``): the tables of every kind of target stacked (``TargetTables``), and the aim, the
aspect, the target's test MLs and its wounds given per blow.

``exact_blow_odds`` sums over the impact distribution (``dice_distribution`` convolves the dice, never enumerating
their rolls), the locations and every d100 test of a blow (amputation, Shock, keep-grip, keep-footing) and returns
the exact probabilities the sampler estimates.

Arrays use a sentinel last row for the ``MISS`` location (index -1): a missed blow reads protection 0, no
rigid armour, Shock Value 0, no bleeding, no amputation and no mishap from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from sandbox.components.body import ASPECTS
from sandbox.components.gear import Dice, StrikeMode
from sandbox.components.rules import AnatomyRules, ShockState, TestResult
from sandbox.systems.dice import read_test, success_probabilities
from sandbox.systems.hit_location import MISS, HitTable, location_probabilities
from sandbox.systems.models.anatomy.blow import TargetProfile
from sandbox.systems.models.anatomy.mishaps import fumble_outcome, stumble_outcome
from sandbox.systems.strike import strength_impact_modifier

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

DISPOSITIONS: tuple[str, ...] = ("none", "roll", "auto")
"""Mishap disposition codes: index in this tuple."""
FUMBLE_OUTCOMES: tuple[str, ...] = ("none", "kept", "dropped", "flung")
"""Keep-grip outcome codes."""
STUMBLE_OUTCOMES: tuple[str, ...] = ("none", "kept", "prone")
"""Keep-footing outcome codes."""
NO_TEST = -1
"""Test result code of a test that was not made (else ``TestResult`` 0..3, CF..CS)."""


@dataclass(frozen=True, slots=True)
class VectorTarget:
    """A ``TargetProfile``'s tables as numpy arrays (one extra sentinel row for ``MISS``).

    Attributes:
        profile: The compiled target the arrays come from.
        zone_first: Per location, the first zone number of its zone (a forced location's zone number).
        protection: Per location and aspect, total protection.
        rigid: Per location, rigid armour covers it.
        shock_value: Per location, its Shock Value.
        bleeds: Per location and level, the bitmask of aspects that bleed.
        amp_mod: Per location, the Strength test modifier of an amputation check.
        amp_ok: Per location, an amputation check can happen at all.
        amp_bleed: Per location and test result, a severing bleeds.
        fumble: Per location and level, the fumble disposition code.
        stumble: Per location and level, the stumble disposition code.
        vital: Per location, its part is Vital.
        thresholds: The target's scaled injury thresholds (an effective impact's level: how many it reaches).
        state_by_index: Shock state by final index, clipped to the table.
        test_lut: d100 result by (clamped ML - ``ml_min``) and roll - 1, flattened (100 rolls per ML).
        levels: How many levels (5 thresholds: 6).
    """

    profile: TargetProfile
    zone_first: IntArray
    protection: IntArray
    rigid: BoolArray
    shock_value: IntArray
    bleeds: IntArray
    amp_mod: IntArray
    amp_ok: BoolArray
    amp_bleed: BoolArray
    fumble: IntArray
    stumble: IntArray
    vital: BoolArray
    thresholds: FloatArray
    state_by_index: IntArray
    test_lut: IntArray
    levels: int
    _locators: dict[tuple[int | None, int], tuple[IntArray, IntArray, FloatArray]] = field(default_factory=dict)

    def locator(self, aim: int | None, spread: int) -> tuple[IntArray, IntArray, FloatArray]:
        """The joint ``(zone number, location)`` outcomes of a blow and their cumulative probabilities."""
        key = (aim, spread)
        table = self._locators.get(key)
        if table is None:
            table = joint_location_table(self.profile.hit, aim, spread)
            self._locators[key] = table
        return table


def joint_location_table(table: HitTable, aim: int | None, spread: int) -> tuple[IntArray, IntArray, FloatArray]:
    """Every ``(zone number, location)`` a blow can end at, with cumulative probabilities (the last is 1).

    The zone-number roll (uniform over the hittable numbers, or ``aim - 1 + d(spread)``) and the weighted
    location draw are folded into one categorical draw; a missing number keeps its zone number with ``MISS``.

    Args:
        table: The body's hit table.
        aim: Target zone number, or ``None`` for an unaimed blow.
        spread: The Spread of an aimed blow (below 1 counts as 1).

    Returns:
        ``(zone numbers, locations, cumulative probabilities)``.
    """
    if aim is None:
        numbers = table.hittable_numbers
        outcomes = [(zn, 1 / len(numbers)) for zn in numbers]
    else:
        s = max(spread, 1)
        outcomes = [(aim - 1 + roll, 1 / s) for roll in range(1, s + 1)]
    zns: list[int] = []
    locs: list[int] = []
    probs: list[float] = []
    for zn, p in outcomes:
        zone = table.zone_by_number[zn] if 1 <= zn <= table.max_zone_number else MISS
        if zone == MISS:
            zns.append(zn)
            locs.append(MISS)
            probs.append(p)
            continue
        prev = 0.0
        for li, cum in zip(table.zone_locations[zone], table.zone_cumulative[zone], strict=True):
            zns.append(zn)
            locs.append(li)
            probs.append(p * (cum - prev))
            prev = cum
    if not zns:  # nothing can be struck: every blow misses at zone number 0
        zns, locs, probs = [0], [MISS], [1.0]
    cumulative = np.cumsum(np.asarray(probs, dtype=np.float64))
    cumulative[-1] = 1.0
    return np.asarray(zns, dtype=np.int64), np.asarray(locs, dtype=np.int64), cumulative


def _test_lut(rules: AnatomyRules) -> IntArray:
    tests = rules.tests
    rows = [[int(read_test(roll, ml, tests)) for roll in range(1, 101)] for ml in range(tests.ml_min,
                                                                                        tests.ml_max + 1)]
    return np.asarray(rows, dtype=np.int64).reshape(-1)


def build_vector_target(target: TargetProfile) -> VectorTarget:
    """Turn a compiled target's tables into arrays (each with a sentinel ``MISS`` row at the end)."""
    body = target.body
    rules = target.rules
    levels = len(target.bleeds[0]) if target.bleeds else 1

    def pad(rows: list[list[int]], width: int) -> IntArray:
        return np.asarray([*rows, [0] * width], dtype=np.int64)

    zone_first = [body.zones[body.parts[loc.part].zone].first for loc in body.locations]
    disp = {name: code for code, name in enumerate(DISPOSITIONS)}
    return VectorTarget(
        profile=target,
        zone_first=np.asarray([*zone_first, 0], dtype=np.int64),
        protection=pad([list(p) for p in target.protection], 4),
        rigid=np.asarray([*target.rigid, False], dtype=np.bool_),
        shock_value=np.asarray([*target.shock_value, 0], dtype=np.int64),
        bleeds=pad([list(row) for row in target.bleeds], levels),
        amp_mod=np.asarray([*(m or 0 for m in target.amputation), 0], dtype=np.int64),
        amp_ok=np.asarray([*(m is not None for m in target.amputation), False], dtype=np.bool_),
        amp_bleed=np.asarray([*(list(row) for row in target.amputation_bleed), [False] * len(TestResult)],
                             dtype=np.bool_),
        fumble=pad([[disp[d] for d in row] for row in target.fumble], levels),
        stumble=pad([[disp[d] for d in row] for row in target.stumble], levels),
        vital=np.asarray([*target.vital_location, False], dtype=np.bool_),
        thresholds=np.asarray(target.thresholds, dtype=np.float64),
        state_by_index=np.asarray([int(s) for s in target.state_by_index], dtype=np.int64),
        test_lut=_test_lut(rules),
        levels=levels,
    )


_CACHE: dict[int, VectorTarget] = {}
_CACHE_SIZE = 16


def vector_target(target: TargetProfile) -> VectorTarget:
    """The (cached) array form of ``target``; the cache keeps the profile alive, so its id stays unique."""
    cached = _CACHE.get(id(target))
    if cached is not None and cached.profile is target:
        return cached
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    built = build_vector_target(target)
    _CACHE[id(target)] = built
    return built


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


def compounds(level: IntArray, missed: BoolArray, location: IntArray, totals: IntArray, owner: IntArray
              ) -> BoolArray:
    """``sandbox.systems.models.anatomy.injury.compounds`` per blow: the sum of the levels of the open wounds at its
    location (``totals[owner]``, with a last column of zeros for a miss) is above 0 and at most the new level."""
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


NO_ML = -(1 << 30)
"""Test ML code of a test the creature cannot make at all (``None`` in the per-event path): it critically fails
without a roll."""


def _ml_code(ml: int | None) -> int:
    return NO_ML if ml is None else ml


@dataclass(frozen=True, slots=True)
class TargetTables:
    """The per-location tables of several compiled targets stacked into one set of arrays, so blows against
    different targets (bodies, armour) resolve in one pass: target ``k``'s locations are rows ``offset[k]`` to
    ``offset[k] + count[k] - 1``, and the last row is the shared sentinel for ``MISS``.

    Every target must share one rule set (the test table and the shock states are read from the first).

    Attributes:
        targets: The compiled targets, by kind index.
        offset: Per kind, its first row.
        count: Per kind, how many locations it has.
        zone_first: Per row, the first zone number of its location's zone.
        protection: Per row and aspect, total protection.
        rigid: Per row, rigid armour covers it.
        shock_value: Per row, its Shock Value.
        bleeds: Per row and level, the bitmask of aspects that bleed.
        amp_mod: Per row, the Strength test modifier of an amputation check.
        amp_ok: Per row, an amputation check can happen at all.
        amp_bleed: Per row and test result, a severing bleeds.
        fumble: Per row and level, the fumble disposition code.
        stumble: Per row and level, the stumble disposition code.
        vital: Per row, its part is Vital.
        thresholds: Per kind, its scaled injury thresholds (padded with infinity: a level no impact reaches).
        state_by_index: Shock state by final index, clipped to the table.
        test_lut: d100 result by (clamped ML - ``ml_min``) and roll - 1, flattened.
        levels: How many levels (5 thresholds: 6).
    """

    targets: tuple[TargetProfile, ...]
    offset: IntArray
    count: IntArray
    zone_first: IntArray
    protection: IntArray
    rigid: BoolArray
    shock_value: IntArray
    bleeds: IntArray
    amp_mod: IntArray
    amp_ok: BoolArray
    amp_bleed: BoolArray
    fumble: IntArray
    stumble: IntArray
    vital: BoolArray
    thresholds: FloatArray
    state_by_index: IntArray
    test_lut: IntArray
    levels: int
    _locators: dict[tuple[int, int | None, int], int] = field(default_factory=dict)
    _joint: list[tuple[IntArray, IntArray, FloatArray]] = field(default_factory=list)
    _flat: list[tuple[IntArray, IntArray, FloatArray, IntArray]] = field(default_factory=list)

    @property
    def miss_row(self) -> int:
        """The sentinel row of a blow that finds nothing to strike."""
        return int(self.rigid.shape[0]) - 1

    def locator(self, kind: int, aim: int | None, spread: int) -> int:
        """The id of the joint ``(zone number, location)`` table of a blow on ``kind`` with this aim and Spread
        (``locate_blows`` draws from any mix of them at once)."""
        key = (kind, aim, spread)
        found = self._locators.get(key)
        if found is None:
            found = len(self._joint)
            zns, locs, cum = joint_location_table(self.targets[kind].hit, aim, spread)
            rows = np.where(locs == MISS, self.miss_row, locs + self.offset[kind])
            self._joint.append((zns, rows, cum))
            self._locators[key] = found
            self._flat.clear()
        return found

    def _flattened(self) -> tuple[IntArray, IntArray, FloatArray, IntArray]:
        """Every locator's outcomes end to end, with cumulative probabilities shifted by the locator id (table
        ``t`` spans ``(t, t + 1]``), so one ``searchsorted`` serves blows of every locator."""
        if not self._flat:
            zns = np.concatenate([j[0] for j in self._joint])
            rows = np.concatenate([j[1] for j in self._joint])
            cum = np.concatenate([j[2] + t for t, j in enumerate(self._joint)])
            sizes = np.asarray([len(j[2]) for j in self._joint], dtype=np.int64)
            self._flat.append((zns, rows, cum, sizes))
        return self._flat[0]

    def locate_blows(self, locator: IntArray, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        """Draw each blow's ``(zone number, row)`` from its locator's joint table (one uniform draw per blow; none
        when every table has a single outcome)."""
        zns, rows, cum, sizes = self._flattened()
        n = locator.shape[0]
        u = rng.random(n)  # drawn even when unused: a blow's draws never depend on the other blows' tables
        if int(sizes[locator].max(initial=1)) <= 1:
            first = np.concatenate(([0], np.cumsum(sizes)[:-1]))[locator]
            return zns[first], rows[first]
        pick = np.searchsorted(cum, locator + u, side="right")  # in table t: cum[t] < t + u < t + 1
        return zns[pick], rows[pick]


def build_target_tables(targets: tuple[TargetProfile, ...]) -> TargetTables:
    """Stack compiled targets' tables (``VectorTarget`` each, one sentinel ``MISS`` row at the end)."""
    vts = [vector_target(t) for t in targets]
    levels = max(vt.levels for vt in vts)
    counts = np.asarray([len(t.body.locations) for t in targets], dtype=np.int64)
    offset = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)

    def stack(name: str) -> npt.NDArray[Any]:
        parts = [getattr(vt, name)[:-1] for vt in vts]  # without each one's own sentinel row
        sentinel = getattr(vts[0], name)[-1:]
        return np.concatenate([*parts, sentinel])

    def stack_levels(name: str) -> IntArray:
        rows = [np.pad(getattr(vt, name), ((0, 0), (0, levels - vt.levels))) for vt in vts]
        return np.concatenate([r[:-1] for r in rows] + [rows[0][-1:]]).astype(np.int64)

    width = max(len(vt.thresholds) for vt in vts)
    thresholds = np.full((len(vts), width), np.inf)
    for i, vt in enumerate(vts):
        thresholds[i, :len(vt.thresholds)] = vt.thresholds
    return TargetTables(
        targets=targets, offset=offset, count=counts, zone_first=stack("zone_first"), protection=stack("protection"),
        rigid=stack("rigid"), shock_value=stack("shock_value"), bleeds=stack_levels("bleeds"),
        amp_mod=stack("amp_mod"), amp_ok=stack("amp_ok"), amp_bleed=stack("amp_bleed"), fumble=stack_levels("fumble"),
        stumble=stack_levels("stumble"), vital=stack("vital"), thresholds=thresholds,
        state_by_index=vts[0].state_by_index, test_lut=vts[0].test_lut, levels=levels,
    )


def _tests(tables: TargetTables, rules: AnatomyRules, ml: IntArray | int, rolls: IntArray) -> IntArray:
    """``n`` d100 tests against ``ml`` (one ML, or one per test; ``NO_ML``: a critical failure with no roll, as
    ``skill_test(None)``), read through the lookup table. Only the tests that can succeed draw a roll."""
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
        if len(_SINGLE) >= _CACHE_SIZE:
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
        shock_ml=np.full(n, _ml_code(target.shock_ml), dtype=np.int64),
        strength_ml=np.full(n, _ml_code(target.strength_ml), dtype=np.int64),
        fumble_ml=np.full(n, _ml_code(target.fumble_ml), dtype=np.int64),
        stumble_ml=np.full(n, _ml_code(target.stumble_ml), dtype=np.int64),
        existing=(totals, zeros) if existing else None)


@dataclass(frozen=True, slots=True)
class BlowRules:
    """The numbers of the anatomy rules a blow reads, as arrays by aspect and by ``TestResult`` (what
    ``resolve_blow_batch`` and the array engine's compiled pass, ``sandbox.systems.models.anatomy.arrays.blows``, read).

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
    compound = compounds(level, missed, loc, *existing) if existing is not None else np.zeros(n, dtype=np.bool_)
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


# --------------------------------------------------------------------------------------------- exact odds


@dataclass(slots=True)
class ExactOdds:
    """Exact probabilities of what one blow does; every probability is of all blows (as ``Odds`` counts).

    Attributes:
        missed: The blow finds nothing to strike.
        dead: The blow kills.
        location: Per location index, the chance it is struck.
        level: Per injury level 0..5, the chance of a landed blow at that level.
        glancing: The blow glances.
        bleeder: The wound bleeds.
        amputation: ``none``, ``kept``, ``severed``.
        shock: Per ``ShockState``, the chance of a landed blow offering it.
        fumble: ``none`` or ``<disposition> -> <outcome>``.
        stumble: Likewise for keep-footing.
    """

    missed: float = 0.0
    dead: float = 0.0
    location: dict[int, float] = field(default_factory=dict)
    level: list[float] = field(default_factory=lambda: [0.0] * 6)
    glancing: float = 0.0
    bleeder: float = 0.0
    amputation: dict[str, float] = field(default_factory=dict)
    shock: list[float] = field(default_factory=lambda: [0.0] * len(ShockState))
    fumble: dict[str, float] = field(default_factory=dict)
    stumble: dict[str, float] = field(default_factory=dict)


def dice_distribution(dice: Dice, bonus: int = 0) -> dict[int, float]:
    """The exact distribution of a dice expression's total plus ``bonus``.

    The dice are convolved one at a time, each convolution a sliding sum over the distribution so far (a running
    total, differenced ``sides`` apart), so ``N`` dice of ``X`` faces cost about ``N x N x X`` additions in numpy,
    never the ``X ** N`` roll sequences: 100d1000 takes a fraction of a second.
    """
    sides = max(dice.sides, 1)
    dist = np.ones(1, dtype=np.float64)  # the distribution of the dice's total less their count
    for _ in range(dice.count):
        running = np.concatenate(([0.0], np.cumsum(dist)))  # running[i] = P(total < i)
        size = len(dist) + sides - 1
        upper = np.minimum(np.arange(1, size + 1), len(dist))
        lower = np.maximum(np.arange(1, size + 1) - sides, 0)
        dist = np.maximum((running[upper] - running[lower]) / sides, 0.0)  # a difference can dip below 0 by 1e-17
    low = dice.count + dice.modifier + bonus
    return {low + i: float(p) for i, p in enumerate(dist) if p > 0}


def _test_odds(ml: int | None, rules: AnatomyRules) -> dict[TestResult, float]:
    if ml is None:
        return {TestResult.CF: 1.0}
    return {r: p for r, p in success_probabilities(ml, rules.tests).items() if p > 0}


def _add(bucket: dict[str, float], key: str, p: float) -> None:
    bucket[key] = bucket.get(key, 0.0) + p


def exact_blow_odds(target: TargetProfile, impacts: Mapping[int, float], aspect: int, aim: int | None = None,
                    spread: int = 1, *, location: int | None = None) -> ExactOdds:
    """The exact odds of one blow against an unwounded ``target``: every location, impact and d100 test.

    Args:
        target: The compiled target.
        impacts: The impact distribution (``dice_distribution``, or ``{impact: 1.0}``); its cost is one numpy pass
            over it per location, then per location and level the tests.
        aspect: Damage aspect index.
        aim: Target zone number, or ``None`` for unaimed.
        spread: Spread of an aimed blow.
        location: A forced location.

    Returns:
        Probabilities of all blows, per location, level, amputation, shock state and mishap.
    """
    rules = target.rules
    if location is None:
        probs, miss = location_probabilities(target.body, target.hit, aim, spread)
    else:
        probs, miss = [0.0] * len(target.body.locations), 0.0
        probs[location] = 1.0
    odds = ExactOdds(missed=miss)
    values = np.fromiter(impacts.keys(), dtype=np.int64, count=len(impacts))
    weights = np.fromiter(impacts.values(), dtype=np.float64, count=len(impacts))
    thresholds = np.asarray(target.thresholds, dtype=np.float64)
    for loc, p_loc in enumerate(probs):
        if p_loc <= 0:
            continue
        odds.location[loc] = odds.location.get(loc, 0.0) + p_loc
        # Everything after the location depends on the impact only through its level: the impacts are summed by
        # level first (a hundred thousand impacts of 100d1000 make six levels).
        prot = target.protection[loc][aspect]
        eff = np.where((values > prot) & (values > 0), values - prot, 0)  # injury.effective_impact
        by_level = np.bincount(np.searchsorted(thresholds, eff, side="right"), weights=weights,
                               minlength=len(thresholds) + 1)
        for level, p_level in enumerate(by_level.tolist()):
            if p_level <= 0:
                continue
            p = p_loc * p_level
            glancing = (level > 0 and target.rigid[loc] and aspect in rules.glancing_aspects
                        and level <= rules.glancing_max_level)
            if glancing:
                level = 0
            odds.level[level] += p
            odds.glancing += p * glancing
            base_bleeder = bool(target.bleeds[loc][level] >> aspect & 1)
            branches: list[tuple[float, str, bool, bool, int]] = []  # p, amputation, severed, bleeder, roll mod
            roll0 = rules.glancing_shock_roll if glancing else 0
            amp_mod = target.amputation[loc]
            if amp_mod is not None and level >= rules.amputation_level and aspect in rules.amputation_aspects:
                ml = target.strength_ml
                for result, q in _test_odds(None if ml is None else ml + amp_mod, rules).items():
                    out = rules.amputation_outcomes[result]
                    bleeds = base_bleeder or (out.severed and target.amputation_bleed[loc][result])
                    branches.append((q, "severed" if out.severed else "kept", out.severed, bleeds,
                                     roll0 + out.shock_roll_modifier))
            else:
                branches.append((1.0, "none", False, base_bleeder, roll0))
            if glancing:
                index = target.shock_value[loc] + rules.glancing_shock_index
            else:
                index = target.shock_value[loc] + level if level > 0 else 0
            for q, amp, severed, bleeds, roll_mod in branches:
                pq = p * q
                _add(odds.amputation, amp, pq)
                odds.bleeder += pq * bleeds
                if index > rules.shock_death_above:
                    shock = [(1.0, ShockState.DEAD)]
                elif index > rules.shock_no_test_max:
                    ml = target.shock_ml
                    shock = []
                    for result, r in _test_odds(None if ml is None else ml + roll_mod, rules).items():
                        final = index + rules.shock_index_change[result]
                        states = target.state_by_index
                        shock.append((r, states[min(max(final, 0), len(states) - 1)]))
                else:
                    shock = [(1.0, ShockState.NONE)]
                for r, state in shock:
                    odds.shock[state] += pq * r
                    if state is ShockState.DEAD or (severed and target.vital_location[loc]):
                        odds.dead += pq * r
            for name, disposition, ml, outcome in (
                    ("fumble", target.fumble[loc][level], target.fumble_ml, fumble_outcome),
                    ("stumble", target.stumble[loc][level], target.stumble_ml, stumble_outcome)):
                bucket = odds.fumble if name == "fumble" else odds.stumble
                if disposition == "none":
                    _add(bucket, "none", p)
                elif disposition == "auto":
                    _add(bucket, f"auto -> {outcome('auto', None)}", p)
                else:
                    for result, r in _test_odds(ml, rules).items():
                        _add(bucket, f"roll -> {outcome('roll', result)}", p * r)
    return odds
