"""``fork()``: a cheap copy for "what if" previews that continues exactly as the original does."""

from __future__ import annotations

import esper
import pytest

from sandbox.components.state import Position
from sandbox.own_world import OwnWorld
from sandbox.saves import ClosedWorldError
from sandbox.world import Sandbox, SandboxError

MODELS = ("anatomy", "severity", "depth", "strength", "status")


def dicts(world: Sandbox, start: int = 0) -> list[dict[str, object]]:
    return [e.to_dict() for e in world.events[start:]]


@pytest.mark.parametrize("model", MODELS)
def test_a_fork_and_its_original_continue_with_identical_events(model: str) -> None:
    with Sandbox.from_scenario("skirmish", seed=3, model=model) as world:
        world.run(max_ticks=3)
        with world.fork() as fork:
            assert fork.tick == world.tick and dicts(fork) == dicts(world)
            start = len(world.events)
            for _ in range(6):
                world.step()
                fork.step()
            assert dicts(fork, start) == dicts(world, start)
            assert dicts(world, start)  # the fight went on: something to compare
            assert [fork.readout(e) for e in fork.creatures()] == [world.readout(e) for e in world.creatures()]


def test_a_fork_is_independent_of_its_original() -> None:
    with Sandbox.from_scenario("duel", seed=1) as world, world.fork() as fork:
        names = list(world.names.values())
        fork.inflict(names[0], location="Skull", level=5, aspect="edged")
        assert fork.readout(names[0]) != world.readout(names[0])
        fork.spawn("human", name="Newcomer")
        assert "Newcomer" not in world.names.values()


def test_a_strike_in_the_fork_draws_from_the_forks_streams_only() -> None:
    with Sandbox.from_scenario("duel", seed=4) as world:
        first, second = list(world.names.values())[:2]
        world.get(first, Position).x = world.get(second, Position).x - 0.5  # within the broadsword's reach
        preview = world.fork()
        what_if = preview.strike(second, "broadsword.cut", aim="Head", attacker=first)
        preview.close()
        with world.fork() as again:
            assert [e.to_dict() for e in again.strike(second, "broadsword.cut", aim="Head", attacker=first)] == \
                [e.to_dict() for e in what_if]  # the original's streams were untouched by the preview


def test_a_fork_of_a_closed_world_is_refused() -> None:
    world = Sandbox(seed=1)
    world.close()
    with pytest.raises(ClosedWorldError, match="closed"):
        world.fork()
    assert issubclass(ClosedWorldError, SandboxError)


def test_a_fork_of_an_own_world_is_a_private_sandbox() -> None:
    own = OwnWorld(seed=2, world="fork-test")
    try:
        own.spawn("human", name="Aldric", team="Red")
        own.spawn("human", name="Bertram", team="Blue", position=(1, 0))
        with own.fork() as fork:
            assert type(fork) is Sandbox and fork.esper_world != "fork-test"
            assert fork.step() == own.step()
        own.close()
        with pytest.raises(ClosedWorldError):
            own.fork()
    finally:
        esper.switch_world("default")
        esper.delete_world("fork-test")
