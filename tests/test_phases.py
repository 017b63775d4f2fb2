"""Tick phases and processor order; the shock state ladder (``offered_state``) and the Stunned re-test."""

from __future__ import annotations

from collections.abc import Callable

import esper
import pytest

from sandbox.components.events import ShockRetested
from sandbox.components.models.anatomy import Shock
from sandbox.components.rules import ShockState
from sandbox.systems.ai import IntentProcessor
from sandbox.systems.combat import AttackProcessor
from sandbox.systems.ending import CleanupProcessor, ClockProcessor, StatusProcessor
from sandbox.systems.models.anatomy.aftercare import BleedingProcessor
from sandbox.systems.models.anatomy.damage import DamageProcessor, offered_state
from sandbox.systems.models.anatomy.recovery import RecoveryProcessor
from sandbox.systems.movement import MoveProcessor
from sandbox.systems.phases import Phase, phase_of, priority
from sandbox.world import Sandbox, processors_for

ORDER = ["intent", "move", "attack", "damage", "effects", "recovery", "status", "cleanup"]

# ---------------------------------------------------------------------------------------------- phases


def test_phases_are_named_in_tick_order() -> None:
    assert [p.name.lower() for p in sorted(Phase)] == ORDER


def test_priorities_run_earlier_phases_first_and_keep_registration_order() -> None:
    # esper runs higher priorities first.
    sequence = [(phase, order) for phase in sorted(Phase) for order in (0, 1, 2, 99)]
    prios = [priority(phase, order) for phase, order in sequence]
    assert prios == sorted(prios, reverse=True)
    assert len(set(prios)) == len(prios)
    assert all(p > 0 for p in prios)
    for phase, order in sequence:
        assert phase_of(priority(phase, order)) is phase


@pytest.mark.parametrize("order", [-1, 100])
def test_priority_rejects_orders_outside_a_phase(order: int) -> None:
    with pytest.raises(ValueError):
        priority(Phase.MOVE, order)


def test_sandbox_registers_processors_sorted_by_phase() -> None:
    w = Sandbox(seed=0)
    try:
        with w._active():
            registered = list(esper._processors)
        phases = [phase_of(p.priority) for p in registered]
        assert phases == sorted(phases)
        assert [type(p) for p in registered] == [ClockProcessor, IntentProcessor, MoveProcessor, AttackProcessor,
                                                 DamageProcessor, BleedingProcessor, RecoveryProcessor,
                                                 StatusProcessor, CleanupProcessor]
        assert [ph.name.lower() for ph in phases] == [
            "intent", "intent", "move", "attack", "damage", "effects", "recovery", "status", "cleanup"]
        expected = [(phase, type(proc)) for phase, proc in processors_for(w.ctx)]
        assert [(phase_of(p.priority), type(p)) for p in registered] == expected
        # The clock comes first within INTENT, so every event of a tick carries that tick.
        assert registered[0].priority > registered[1].priority
    finally:
        w.close()


def _recording(proc: esper.Processor, ran: list[Phase]) -> Callable[..., None]:
    """``proc.process``, noting the processor's phase in ``ran`` before it runs."""
    original = proc.process
    phase = phase_of(proc.priority)

    def process(*args: object) -> None:
        ran.append(phase)
        original(*args)

    return process


def test_processors_run_in_phase_order_every_tick() -> None:
    w = Sandbox.from_scenario("duel", seed=1)
    ran: list[Phase] = []
    try:
        with w._active():
            for proc in esper._processors:
                proc.process = _recording(proc, ran)  # type: ignore[method-assign]
        w.step()
        w.step()
        one_tick = [Phase.INTENT, Phase.INTENT, Phase.MOVE, Phase.ATTACK, Phase.DAMAGE, Phase.EFFECTS, Phase.RECOVERY,
                    Phase.STATUS, Phase.CLEANUP]
        assert ran == one_tick * 2
    finally:
        w.close()


# ---------------------------------------------------------------------------------------------- shock ladder


@pytest.mark.parametrize(("current", "offered", "expected"), [
    (ShockState.NONE, ShockState.NONE, ShockState.NONE),
    (ShockState.NONE, ShockState.STUNNED, ShockState.STUNNED),
    (ShockState.STUNNED, ShockState.STUNNED, ShockState.INCAPACITATED),
    (ShockState.INCAPACITATED, ShockState.INCAPACITATED, ShockState.UNCONSCIOUS),
    (ShockState.STUNNED, ShockState.INCAPACITATED, ShockState.INCAPACITATED),
    (ShockState.NONE, ShockState.DEAD, ShockState.DEAD),
    (ShockState.UNCONSCIOUS, ShockState.DEAD, ShockState.DEAD),
])
def test_offered_state_worsens(current: ShockState, offered: ShockState, expected: ShockState) -> None:
    assert offered_state(current, offered) is expected


@pytest.mark.parametrize("current", list(ShockState))
def test_offered_state_never_improves(current: ShockState) -> None:
    for offered in ShockState:
        result = offered_state(current, offered)
        assert result >= current
        assert result >= offered or offered is ShockState.NONE
        if offered < current:
            assert result is current


# ---------------------------------------------------------------------------------------------- stunned re-test


def stunned_world(seed: int, retest_in: int = 1) -> tuple[Sandbox, int]:
    """A lone human with Shock ML 95, stunned now, due to re-test ``retest_in`` ticks (of game time) from now."""
    w = Sandbox(seed=seed)
    e = w.spawn("human", name="A", skills={"shock": 95})
    shock = w.get(e, Shock)
    shock.state = ShockState.STUNNED
    shock.since = w.tick
    shock.retest_at = w.ctx.clock.time + retest_in * w.ctx.clock.seconds_per_tick  # game seconds
    return w, e


def test_stunned_creature_retests_each_tick_until_it_clears() -> None:
    outcomes = set()
    for seed in range(25):
        w, e = stunned_world(seed)
        try:
            for _ in range(20):
                events = w.step()
                retests = [ev for ev in events if isinstance(ev, ShockRetested)]
                assert len(retests) == 1, "a stunned creature re-tests once every tick"
                ev = retests[0]
                assert (ev.entity, ev.tick, ev.before) == (e, w.tick, "stunned")
                outcomes.add(ev.test)
                if ev.test in ("CS", "MS"):
                    assert ev.after == "none"
                    assert w.readout(e).shock == "none"
                    assert w.get(e, Shock).state is ShockState.NONE
                    break
                assert ev.test in ("MF", "CF") and ev.after == "stunned"
                assert w.readout(e).shock == "stunned"
            else:
                pytest.fail(f"seed {seed}: still stunned after 20 re-tests at ML 75")
            # Cleared: no more re-tests.
            assert not [ev for ev in w.step() if isinstance(ev, ShockRetested)]
        finally:
            w.close()
    assert {"MS", "MF"} <= outcomes


def test_stunned_retest_is_at_minus_twenty() -> None:
    cleared = 0
    n = 200
    for seed in range(n):
        w, _ = stunned_world(seed)
        (ev,) = [ev for ev in w.step() if isinstance(ev, ShockRetested)]
        cleared += ev.after == "none"
        w.close()
    # Shock ML 95 - 20 = 75: about three in four clear at the first try (95 % would mean no modifier).
    assert 0.62 <= cleared / n <= 0.88


def test_stunned_retest_waits_until_due() -> None:
    w, _ = stunned_world(seed=3, retest_in=3)
    try:
        assert not [ev for ev in w.step() if isinstance(ev, ShockRetested)]
        assert not [ev for ev in w.step() if isinstance(ev, ShockRetested)]
        assert [ev.tick for ev in w.step() if isinstance(ev, ShockRetested)] == [3]
    finally:
        w.close()
