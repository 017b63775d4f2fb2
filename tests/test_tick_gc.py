"""A tick collects the young generation less often, and always gives the caller its own GC thresholds back."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from sandbox import world as world_module
from sandbox.world import GC_GEN0_THRESHOLD, Sandbox


@pytest.fixture
def thresholds() -> Iterator[None]:
    """Start from Python's default thresholds with the collector on; put the caller's back afterwards."""
    old, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(700, 10, 10)
    gc.enable()
    yield
    gc.set_threshold(*old)
    if not enabled:
        gc.disable()


def spied_world(monkeypatch: pytest.MonkeyPatch, seen: list[tuple[int, int, int]]) -> Sandbox:
    """The duel, with every tick's processing recording the GC thresholds it runs under."""
    world = Sandbox.from_scenario("duel", 0)
    original = world_module.esper.process

    def spy() -> None:
        seen.append(gc.get_threshold())
        original()

    monkeypatch.setattr(world_module.esper, "process", spy)
    return world


@pytest.mark.usefixtures("thresholds")
def test_tick_raises_the_young_threshold_only_while_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    with spied_world(monkeypatch, seen) as world:
        world.step()
    assert seen == [(GC_GEN0_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.usefixtures("thresholds")
def test_thresholds_come_back_when_a_tick_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    with Sandbox.from_scenario("duel", 0) as world:
        def boom() -> None:
            raise RuntimeError("tick failed")

        monkeypatch.setattr(world_module.esper, "process", boom)
        with pytest.raises(RuntimeError):
            world.step()
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.usefixtures("thresholds")
def test_a_caller_with_higher_thresholds_or_gc_off_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    with spied_world(monkeypatch, seen) as world:
        gc.set_threshold(50_000, 5, 5)
        world.step()
        gc.set_threshold(700, 10, 10)
        gc.disable()
        world.step()
        assert not gc.isenabled()
    assert seen == [(50_000, 5, 5), (700, 10, 10)]
