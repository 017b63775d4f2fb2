"""A tick collects the young generation less often, and always gives the caller its own GC thresholds back."""

from __future__ import annotations

import gc

import pytest

from sandbox import world as world_module
from sandbox.world import GC_GEN0_THRESHOLD, Sandbox


def test_tick_raises_the_young_threshold_only_while_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    seen: list[tuple[int, int, int]] = []
    try:
        with Sandbox.from_scenario("duel", 0) as world:
            original = world_module.esper.process

            def spy() -> None:
                seen.append(gc.get_threshold())
                original()

            monkeypatch.setattr(world_module.esper, "process", spy)
            world.step()
        assert seen == [(GC_GEN0_THRESHOLD, 10, 10)]
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*old)


def test_thresholds_come_back_when_a_tick_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        with Sandbox.from_scenario("duel", 0) as world:
            def boom() -> None:
                raise RuntimeError("tick failed")

            monkeypatch.setattr(world_module.esper, "process", boom)
            with pytest.raises(RuntimeError):
                world.step()
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*old)


def test_a_caller_with_higher_thresholds_or_gc_off_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    old, enabled = gc.get_threshold(), gc.isenabled()
    seen: list[tuple[int, int, int]] = []
    try:
        with Sandbox.from_scenario("duel", 0) as world:
            original = world_module.esper.process

            def spy() -> None:
                seen.append(gc.get_threshold())
                original()

            monkeypatch.setattr(world_module.esper, "process", spy)
            gc.set_threshold(50_000, 5, 5)
            world.step()
            gc.set_threshold(700, 10, 10)
            gc.disable()
            world.step()
        assert seen == [(50_000, 5, 5), (700, 10, 10)]
    finally:
        gc.set_threshold(*old)
        if enabled:
            gc.enable()
