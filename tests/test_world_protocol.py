"""One ``World`` protocol for both engines (``sandbox.world_protocol``), built by one factory (``sandbox.engines``):
every member a caller reads works on a ``Sandbox`` and an ``ArrayWorld`` alike, copies and frozen worlds go on
exactly as the world they came from, and nothing outside the factory asks which engine or class a world is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandbox.components.readout import Readout, Standing
from sandbox.engines import DEFAULT_ENGINE, ENGINES, TRACE_ALL, engine_named, open_world
from sandbox.world import Outcome, Sandbox, SandboxError
from sandbox.world_protocol import World

ROOT = Path(__file__).resolve().parents[1]


def events_of(world: World, ticks: int) -> list[dict[str, object]]:
    return [e.to_dict() for _ in range(ticks) for e in world.step()]


@pytest.mark.parametrize("engine", list(ENGINES))
def test_every_member_a_caller_reads_works_on_either_engine(engine: str) -> None:
    with open_world("skirmish", engine, seed=3, trace=TRACE_ALL) as world:
        assert world.engine_name == engine and world.model == "anatomy" and world.seed == 3
        assert world.scenario is not None and world.scenario.id == "skirmish" and world.max_ticks > 0
        assert isinstance(world.log_note, str) and (world.log_note == "") == (not engine_named(engine).traces)
        assert world.catalog.scenarios["skirmish"] == world.scenario
        assert world.tick == 0 and world.time == 0.0 and world.log == [] and world.events == []
        names = world.names
        assert sorted(world.creatures()) == sorted(names) and len(world.able_teams()) == 2
        for entity, name in names.items():
            assert isinstance(world.readout(entity), Readout) and world.readout(name) == world.readout(entity)
            standing = world.standing(name)
            assert isinstance(standing, Standing) and standing.name == name and standing.alive
        stepped = world.step()
        assert world.tick == 1 and world.time > 0
        assert world.events[len(world.events) - len(stepped):] == stepped
        outcome = world.run()
        assert isinstance(outcome, Outcome) and outcome.ticks == world.tick and world.log


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_copy_and_a_frozen_world_go_on_as_the_world_would(engine: str) -> None:
    world = open_world("skirmish", engine, seed=5, trace=TRACE_ALL)
    events_of(world, 3)
    copy = world.copy()
    frozen = world.freeze()
    again = frozen.copy(world.log)
    assert copy.tick == again.tick == world.tick == 3 and len(copy.log) == len(again.log) == len(world.log)
    ahead = events_of(world, 6)
    assert ahead and events_of(copy, 6) == ahead and events_of(again, 6) == ahead
    assert events_of(frozen.copy(), 6) == ahead  # nothing ticked the frozen world: it makes the same copy again
    assert frozen.copy().log == [] and world.copy(log=()).log == []
    for w in (world, copy, again):
        w.close()


def test_a_sandbox_copy_keeps_its_scenario_checks_and_creatures() -> None:
    with Sandbox.from_scenario("duel", seed=2, check_invariants=True) as world:
        world.run(2)
        copy = world.copy()
        try:
            assert copy.scenario is world.scenario and copy.check_invariants and copy.catalog is world.catalog
            assert copy.log == world.log and copy.log is not world.log
            aldric = world.entity("Aldric")
            assert copy.readout(aldric) == world.readout(aldric)  # a copy takes the entities of its world
        finally:
            copy.close()


def test_the_factory_knows_each_engine_and_refuses_an_unknown_one() -> None:
    assert list(ENGINES) == ["esper", "array"] and DEFAULT_ENGINE == "esper"
    esper, array = engine_named("esper"), engine_named("array")
    assert esper.every_model and not esper.traces and not esper.batches
    assert not array.every_model and array.traces and array.batches
    assert set(esper.models()) == {"anatomy", "severity", "depth", "strength", "status"}
    assert array.models() == ("anatomy",)
    esper.refuse(["severity"], [(True, "--aftermath")])  # the esper engine runs every model and option
    with pytest.raises(SandboxError, match="--aftermath runs on the esper engine only, not with --engine array"):
        array.refuse([None], [(True, "--aftermath")])
    with pytest.raises(SandboxError, match="does not run the 'depth' damage model"):
        array.refuse(["depth"])
    with pytest.raises(SandboxError, match="unknown engine 'gpu'; known: esper, array"):
        engine_named("gpu")
    assert isinstance(open_world("duel"), Sandbox)


def test_no_caller_outside_the_factory_asks_which_engine_it_has() -> None:
    """The unions of the two world classes, isinstance checks on them and comparisons of engine names with a
    literal are the factory's (``sandbox/engines.py``) alone."""
    asks = re.compile(r"Sandbox \| ArrayWorld|ArrayWorld \| Sandbox|isinstance\([^)]*\b(Sandbox|ArrayWorld)\b"
                      r"|engine(_name)?\s*[!=]=\s*[\"']|[\"'](esper|array)[\"']\s*[!=]=")
    found = []
    for path in sorted(ROOT.glob("sandbox/**/*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "sandbox/engines.py" or rel.startswith(("sandbox/systems/", "sandbox/components/")):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if asks.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []
