"""Splitting an ``advance`` never changes its events, under every model (issue 14, point 8): a world advanced by
``a``, then ``b``, then ``c`` seconds logs what the same world advanced by ``a + b + c`` at once logs, wherever the
span is cut, for wounded creatures of every kind (bleeding, in shock, dying, mortally wounded, passed out)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.models import available_models
from sandbox.world import Sandbox

SPAN = 12 * 86400
SCENARIOS = ("wolf_pack", "skirmish")


def _wounded(scenario: str, model: str, seed: int) -> Sandbox:
    """A world whose fight has left wounds of every kind the model has (stopped mid-fight: some creatures dying,
    bleeding, down), plus, for the status model, a creature hit to mortally wounded outright."""
    world = Sandbox.from_scenario(scenario, seed=seed, model=model)
    world.run(12)
    if model == "status":
        world.inflict(world.spawn("human", name="Mortal", team="Blue", position=(1.0, 1.0)), damage=40)
    return world


def _log(world: Sandbox) -> list[dict[str, object]]:
    return [event.to_dict() for event in world.events]


_WHOLE: dict[tuple[str, str, int], tuple[list[dict[str, object]], list[object]]] = {}
"""(scenario, model, seed) -> the log and readouts of its wounded world advanced by ``SPAN`` at once."""


def _advanced_whole(scenario: str, model: str, seed: int) -> tuple[list[dict[str, object]], list[object]]:
    """What the uncut advance logs and reads: the same for every cut of a world, so it is computed once per world
    (at most 8 per model: 2 scenarios, 4 seeds, against 12 examples)."""
    key = (scenario, model, seed)
    if key not in _WHOLE:
        with _wounded(scenario, model, seed) as whole:
            whole.advance(seconds=SPAN)
            _WHOLE[key] = (_log(whole), [whole.readout(name) for name in whole.names.values()])
    return _WHOLE[key]


@pytest.mark.parametrize("model", available_models())
@settings(max_examples=12, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=SPAN), min_size=1, max_size=3),
       seed=st.integers(min_value=0, max_value=3), scenario=st.sampled_from(SCENARIOS))
def test_a_cut_advance_logs_what_one_advance_logs(model: str, cuts: list[int], seed: int, scenario: str) -> None:
    points = sorted(cuts)
    spans = [b - a for a, b in zip([0, *points], [*points, SPAN], strict=True)]
    log, readouts = _advanced_whole(scenario, model, seed)
    with _wounded(scenario, model, seed) as cut:
        for span in spans:
            cut.advance(seconds=span)
        assert _log(cut) == log
        assert [cut.readout(name) for name in cut.names.values()] == readouts


def test_the_status_case_of_the_attack_now_matches() -> None:
    """The attack's case: a day then nineteen days gave 255 events, twenty days at once 253 (an extra "untended ->
    tended by itself" at the cut)."""
    def events(*days: float) -> list[dict[str, object]]:
        with Sandbox(seed=1, model="status") as world:
            world.inflict(world.spawn("human", name="A"), damage=40)
            for span in days:
                world.advance(days=span)
            return _log(world)

    split, once = events(1, 19), events(20)
    assert split == once
    assert sum(1 for e in once if e.get("after") == "tended by itself") == 1
