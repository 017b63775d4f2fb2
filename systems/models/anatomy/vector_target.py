"""A compiled target's tables as numpy arrays: what the vectorised blow pipeline reads.

``vector_target`` turns a compiled ``TargetProfile`` (``sandbox.systems.models.anatomy.blow``) into arrays, one entry
per location; ``build_target_tables`` stacks the tables of every kind of target (``TargetTables``) for blows against
many targets at once (the array engine's landed blows). The location draw folds the zone-number roll and the
location draw into one draw over every ``(zone number, location)`` outcome (``joint_location_table``), which has
exactly the distribution of ``hit_location.locate``.

Arrays use a sentinel last row for the ``MISS`` location (index -1): a missed blow reads protection 0, no rigid
armour, Shock Value 0, no bleeding, no amputation and no mishap from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from sandbox.components.rules import AnatomyRules, TestResult
from sandbox.systems.dice import read_test
from sandbox.systems.hit_location import MISS, HitTable
from sandbox.systems.models.anatomy.blow import TargetProfile

__all__ = ["CACHE_SIZE", "DISPOSITIONS", "FUMBLE_OUTCOMES", "NO_ML", "NO_TEST", "STUMBLE_OUTCOMES", "BoolArray",
           "FloatArray", "IntArray", "TargetTables", "VectorTarget", "build_target_tables", "joint_location_table",
           "ml_code", "vector_target"]

IntArray = npt.NDArray[np.int64]
_SmallArray = npt.NDArray[np.int8]
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


def _build_vector_target(target: TargetProfile) -> VectorTarget:
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


CACHE_SIZE = 16
_CACHE: dict[int, VectorTarget] = {}


def vector_target(target: TargetProfile) -> VectorTarget:
    """The (cached) array form of ``target``; the cache keeps the profile alive, so its id stays unique."""
    cached = _CACHE.get(id(target))
    if cached is not None and cached.profile is target:
        return cached
    if len(_CACHE) >= CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    built = _build_vector_target(target)
    _CACHE[id(target)] = built
    return built


NO_ML = -(1 << 30)
"""Test ML code of a test the creature cannot make at all (``None`` in the per-event path): it critically fails
without a roll."""


def ml_code(ml: int | None) -> int:
    """A test ML as the arrays hold it: ``NO_ML`` for a test the creature cannot make (``None``)."""
    return NO_ML if ml is None else ml


@dataclass(frozen=True, slots=True)
class TargetTables:
    """The per-location tables of several compiled targets stacked into one set of arrays.

    Blows against different targets (bodies, armour) so resolve in one pass: target ``k``'s locations are rows
    ``offset[k]`` to ``offset[k] + count[k] - 1``, and the last row is the shared sentinel for ``MISS``.

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
        """The id of the joint ``(zone number, location)`` table of a blow on ``kind`` with this aim and Spread.

        ``locate_blows`` draws from any mix of them at once.
        """
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
        """Every locator's outcomes end to end, with cumulative probabilities shifted by the locator id.

        Table ``t`` spans ``(t, t + 1]``, so one ``searchsorted`` serves blows of every locator.
        """
        if not self._flat:
            zns = np.concatenate([j[0] for j in self._joint])
            rows = np.concatenate([j[1] for j in self._joint])
            cum = np.concatenate([j[2] + t for t, j in enumerate(self._joint)])
            sizes = np.asarray([len(j[2]) for j in self._joint], dtype=np.int64)
            self._flat.append((zns, rows, cum, sizes))
        return self._flat[0]

    def locate_blows(self, locator: IntArray, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        """Draw each blow's ``(zone number, row)`` from its locator's joint table.

        One uniform draw per blow; none when every table has a single outcome.
        """
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
