"""Stopping cleanly: an interrupt that lands inside a finalizer still stops the command, and prints nothing."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

from sandbox import interrupts
from sandbox.interrupts import sigterm_as_interrupt


class _InterruptedWhileCollected:
    """Stands in for an object whose finalizer a Ctrl-C or SIGTERM happens to land in."""

    def __del__(self) -> None:
        raise KeyboardInterrupt


def _ordinary_code() -> int:
    """A few lines of ordinary code: calls and a backward jump, where the interpreter runs a pending signal."""
    total = 0
    for step in range(1_000):
        total += abs(step)
    return total


def test_an_interrupt_inside_a_finalizer_stops_the_code_that_follows(capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    timers: list[threading.Timer] = []
    schedule = interrupts._interrupt_main_soon
    monkeypatch.setattr(interrupts, "_interrupt_main_soon", lambda: timers.append(schedule()) or timers[-1])
    reached_the_end = False
    with pytest.raises(KeyboardInterrupt), sigterm_as_interrupt():
        _InterruptedWhileCollected()  # collected at once: its finalizer raises, Python cannot propagate it
        assert len(timers) == 1  # the hook took the dropped interrupt and scheduled it again
        timers[0].join()  # the event: the interrupt is pending in the main thread once the timer has run
        _ordinary_code()
        reached_the_end = True
    assert not reached_the_end
    assert "Exception ignored" not in capsys.readouterr().err


def test_other_unraisable_errors_still_reach_the_previous_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[type[BaseException] | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(unraisable.exc_type))

    class Broken:
        def __del__(self) -> None:
            raise ValueError("not an interrupt")

    with sigterm_as_interrupt():
        Broken()
        gc.collect()
    assert seen == [ValueError]
    assert sys.unraisablehook is not None


def test_the_hook_is_put_back_after_the_block() -> None:
    before = sys.unraisablehook
    with sigterm_as_interrupt():
        assert sys.unraisablehook is not before
    assert sys.unraisablehook is before
