"""Gear states (``sandbox.systems.arrays.gear``): a creature's ``Equipment`` as one of a few numbered states, moved on
by letting go and taking up as the esper engine's rules change an ``Equipment``."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.state import Equipment
from sandbox.systems.arrays.gear import Gear, GearState
from sandbox.systems.conditions import drop_held

WEAPONS = ("sword", "dagger", "shield", "axe")
INDEX = {w: i for i, w in enumerate(WEAPONS)}
PARTS = 6


class _Emitted:
    """The context ``drop_held`` emits its event into."""

    def __init__(self) -> None:
        self.clock = SimpleNamespace(tick=1, time=0.5)
        self.events: list[object] = []

    def emit(self, event: object) -> None:
        self.events.append(event)


@st.composite
def equipment(draw: st.DrawFn) -> Equipment:
    weapons = draw(st.lists(st.sampled_from(WEAPONS), unique=True, max_size=4))
    holding = {}
    for item in weapons:
        for part in draw(st.lists(st.integers(0, PARTS - 1), unique=True, max_size=2)):
            holding.setdefault(part, item)
    natural = draw(st.lists(st.sampled_from(("fist", "bite")), unique=True, max_size=1))
    return Equipment(weapons, natural, holding)


@given(equipment(), st.lists(st.tuples(st.integers(0, PARTS - 1), st.booleans()), max_size=6))
def test_letting_go_is_the_esper_rule(start: Equipment, drops: list[tuple[int, bool]]) -> None:
    """A run of hands letting go (to the ground or flung) leaves the state the esper ``drop_held`` leaves the
    ``Equipment`` in, hand order and all, and names the weapon it let go of."""
    gear = Gear(INDEX, PARTS)
    s = gear.number(GearState.of(start))
    equip = GearState.of(start).equipment()
    for part, flung in drops:
        ctx = _Emitted()
        drop_held(1, equip, part, "part", flung, ctx)  # type: ignore[arg-type]
        s, item = gear.let_go(s, part, flung)
        assert gear.states[s] == GearState.of(equip)
        assert item == (ctx.events[0].item if ctx.events else None)  # type: ignore[attr-defined]


@given(equipment(), st.data())
def test_taking_up_grips_with_every_part_named_and_picks_it_off_the_ground(start: Equipment,
                                                                          data: st.DataObject) -> None:
    gear = Gear(INDEX, PARTS)
    s = gear.number(GearState.of(start))
    s, dropped = gear.let_go(s, next(iter(start.holding), 0), False)
    state = gear.states[s]
    item = dropped or data.draw(st.sampled_from(WEAPONS))
    parts = tuple(data.draw(st.lists(st.integers(0, PARTS - 1), unique=True, min_size=1, max_size=2)))
    pick_up = dropped is not None
    after = gear.states[gear.take_up(s, item, parts, pick_up)]
    expected = state.equipment()
    if pick_up:
        expected.dropped.remove(item)
    for p in parts:
        expected.holding[p] = item
    assert after == GearState.of(expected)
    assert gear.take_up(s, item, parts, pick_up) == gear.number(after)  # worked out once, numbered once


@given(st.lists(equipment(), min_size=1, max_size=8))
def test_each_state_is_numbered_once_and_its_table_rows_say_what_it_holds(equips: list[Equipment]) -> None:
    gear = Gear(INDEX, PARTS)
    numbers = [gear.number(GearState.of(e)) for e in equips]
    assert [gear.number(GearState.of(e)) for e in equips] == numbers
    assert len(gear.states) == len(set(map(GearState.of, equips)))
    for e, s in zip(equips, numbers, strict=True):
        assert gear.equipment(s) == e and gear.equipment(s) is not gear.equipment(s)
        assert gear.held[s] == (INDEX[next(iter(e.holding.values()))] if e.holding else -1)
        assert gear.hold_mask[s] == sum(1 << p for p in e.holding)
        assert gear.holding[s].tolist() == [INDEX[e.holding[p]] if p in e.holding else -1 for p in range(PARTS)]
        assert gear.armed[s] == bool(e.natural or e.weapons)
        assert gear.has_gear[s] == bool(e.weapons)


@settings(deadline=None)  # its first example loads the compiled walk
@given(st.lists(equipment(), min_size=1, max_size=4), st.data())
def test_hands_let_go_in_order_as_one_at_a_time(starts: list[Equipment], data: st.DataObject) -> None:
    """A column of hands letting go (some creatures twice or more, in any order) ends each creature in the state
    ``let_go`` one hand at a time leaves it in, and names the same weapons; a move met for the first time midway
    is worked out and the walk goes on from it."""
    drops = data.draw(st.lists(st.tuples(st.integers(0, len(starts) - 1), st.integers(0, PARTS - 1), st.booleans()),
                               max_size=12))
    gear, by_hand = Gear(INDEX, PARTS), Gear(INDEX, PARTS)
    column = np.asarray([gear.number(GearState.of(e)) for e in starts], dtype=np.int64)
    one_by_one = [by_hand.number(GearState.of(e)) for e in starts]
    who, part, flung = (np.asarray([d[k] for d in drops], dtype=np.int64) for k in range(3))
    items = gear.let_go_in_order(column, who, part, flung)
    expected = []
    for i, p, f in drops:
        one_by_one[i], item = by_hand.let_go(one_by_one[i], p, f)
        expected.append(-1 if item is None else INDEX[item])
    assert items.tolist() == expected
    assert [gear.states[s] for s in column.tolist()] == [by_hand.states[s] for s in one_by_one]
