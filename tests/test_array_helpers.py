"""The array engine's small helpers: draws in rounds are the draws of as many calls, distinct objects numbered in
order of first appearance, references renumbered after rows are kept, and wounds settled into the parts."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.systems.arrays.fight_streams import FightStreams
from sandbox.systems.arrays.spawn import by_identity, first_seen, per_object
from sandbox.systems.arrays.state import renumbered
from sandbox.systems.models.anatomy.arrays.over_time import _due_to_bleed
from sandbox.systems.models.anatomy.arrays.settle import _impair

FIGHTS = st.lists(st.integers(0, 4), min_size=1, max_size=40)


@settings(deadline=None)  # the first call compiles the kernel
@given(FIGHTS, st.integers(1, 5), st.integers(-3, 3), st.integers(1, 120))
def test_rounds_of_draws_are_the_draws_of_as_many_calls(fights: list[int], rounds: int, low: int, span: int) -> None:
    rows = np.asarray(fights, dtype=np.int64)
    one, other = FightStreams(7, [10, 11, 12, 13, 14], ["a", "b"]), FightStreams(7, [10, 11, 12, 13, 14], ["a", "b"])
    one.integers("b", rows, 0, 9)  # streams already drawn from
    other.integers("b", rows, 0, 9)
    called = np.stack([one.integers("b", rows, low, low + span) for _ in range(rounds)])
    at_once = other.integer_rounds("b", rows, low, low + span, rounds)
    assert at_once.shape == (rounds, len(fights))
    assert (at_once == called).all()
    assert (other.counters == one.counters).all()  # and the streams go on from the same place
    assert (one.integers("a", rows, 0, 100) == other.integers("a", rows, 0, 100)).all()


def test_a_bound_stream_draws_rounds_as_a_generator_fills_them() -> None:
    streams = FightStreams(3, [0, 1], ["injury"])
    rows = np.asarray([0, 1, 1, 0], dtype=np.int64)
    bound = streams.bound("injury", rows)
    twin = FightStreams(3, [0, 1], ["injury"]).bound("injury", rows)
    assert (bound.integers(0, 100, size=(4, 4)) == np.stack([twin.integers(0, 100, size=4) for _ in range(4)])).all()


@given(st.lists(st.integers(0, 6), max_size=60))
def test_keys_are_numbered_in_order_of_first_appearance(keys: list[int]) -> None:
    first, codes = first_seen(np.asarray(keys, dtype=np.int64))
    order = list(dict.fromkeys(keys))
    assert first.tolist() == [keys.index(k) for k in order]
    assert codes.tolist() == [order.index(k) for k in keys]


def test_objects_are_told_apart_by_identity_not_equality() -> None:
    a, b = [1], [1]  # equal, not the same
    distinct, which = by_identity([a, b, a, a, b])
    assert distinct[0] is a and distinct[1] is b and len(distinct) == 2
    assert which.tolist() == [0, 1, 0, 0, 1]
    asked: list[object] = []

    def value(o: object) -> int:
        asked.append(o)
        return len(asked)

    values = per_object([a, b, a], value)
    assert values.tolist() == [1, 2, 1] and len(asked) == 2  # once per distinct object


@settings(deadline=None)
@given(st.lists(st.integers(-1, 9), max_size=30), st.lists(st.integers(-1, 20), min_size=10, max_size=10))
def test_references_follow_their_rows_and_none_stays_none(ids: list[int], new_of: list[int]) -> None:
    refs = np.asarray(ids, dtype=np.int64).reshape(-1, 1) if ids else np.zeros((0, 1), dtype=np.int64)
    out = renumbered(refs, np.asarray(new_of, dtype=np.int64))
    assert out.shape == refs.shape
    assert out.ravel().tolist() == [new_of[i] if i >= 0 else -1 for i in ids]


def test_the_wounds_due_to_bleed_are_the_bleeding_due_ones_of_the_living() -> None:
    bleeder = np.asarray([True, True, False, True, True, True])
    next_bleed = np.asarray([5.0, 20.0, 1.0, -1.0, 10.0, 2.0])
    owner = np.asarray([0, 0, 1, 1, 2, 1], dtype=np.int64)
    dead = np.asarray([False, False, True])
    out = np.empty(6, dtype=np.int64)
    found = _due_to_bleed(bleeder, next_bleed, owner, dead, 10.0, 6, out)
    assert out[:found].tolist() == [0, 5]  # not: too early, not bleeding, not due (-1), a dead owner's
    assert _due_to_bleed(bleeder, next_bleed, owner, dead, 10.0, 1, out) == 1  # only the first ``count`` wounds


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(-1, 6)), max_size=12),
       st.lists(st.booleans(), min_size=3, max_size=3), st.lists(st.booleans(), min_size=9, max_size=9))
def test_wounds_settle_as_the_worst_of_each_part_and_say_what_changed(
        wounds: list[tuple[int, int, int]], traced: list[bool], holds: list[bool]) -> None:
    table = np.asarray([0, -5, -10, -20, -40, 0], dtype=np.int64)  # level 5's penalty is None: the part is gone
    gone = np.asarray([False, False, False, False, False, True])
    penalty = np.zeros((3, 3), dtype=np.int64)
    penalty[1, 2] = -10
    unusable = np.zeros((3, 3), dtype=np.bool_)
    lost = np.zeros((3, 3), dtype=np.bool_)
    lost[2, 0] = True
    holding = np.where(np.asarray(holds).reshape(3, 3), 4, -1).astype(np.int64)
    owner = np.asarray([o for o, _, _ in wounds], dtype=np.int64)
    part = np.asarray([p for _, p, _ in wounds], dtype=np.int64)
    level = np.asarray([lv for _, _, lv in wounds], dtype=np.int64)
    dirty = np.asarray(sorted({0, 2} | set(owner.tolist())), dtype=np.int64)
    before_pen, before_unusable = penalty.copy(), unusable.copy()
    expected_pen = penalty.copy()
    for o, p, lv in wounds:
        expected_pen[o, p] = min(expected_pen[o, p], table[min(max(lv, 0), 5)])
    expected_unusable = lost | np.zeros_like(unusable)
    for o, p, lv in wounds:
        expected_unusable[o, p] |= bool(gone[min(max(lv, 0), 5)])
    changed = np.empty((dirty.size, 3), dtype=np.bool_)
    newly = np.empty_like(changed)
    told = np.empty(dirty.size, dtype=np.int64)
    count = _impair(np.arange(len(wounds), dtype=np.int64), level, owner, part, table, gone, penalty, unusable, lost,
                    dirty, np.asarray(traced), holding, changed, newly, told)
    assert (penalty == expected_pen).all() and (unusable == expected_unusable).all()
    assert (changed == (penalty[dirty] != before_pen[dirty])).all()
    assert (newly == (unusable[dirty] & ~before_unusable[dirty])).all()
    tell = ((changed | newly).any(axis=1) & np.asarray(traced)[dirty]) | (newly & (holding[dirty] >= 0)).any(axis=1)
    assert told[:count].tolist() == np.flatnonzero(tell).tolist()
