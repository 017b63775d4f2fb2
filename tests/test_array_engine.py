"""The array engine on its own: deterministic for a seed, refusing what it cannot run before any work, tracing
the named creatures' landed blows in full, and its batched blow pipeline."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from sandbox.array_world import ArrayWorld
from sandbox.cli import app
from sandbox.components.body import Aspect
from sandbox.config import Catalog
from sandbox.systems.arrays import array_model_names, engines_for
from sandbox.systems.models.anatomy.blow import compile_target
from sandbox.systems.models.anatomy.record import AttackRecord
from sandbox.systems.models.anatomy.vector_blows import resolve_blow_batch, resolve_blows
from sandbox.systems.models.anatomy.vector_target import NO_ML, build_target_tables
from sandbox.world import SandboxError


def _final(world: ArrayWorld) -> list[tuple[object, ...]]:
    return [(r.label, r.health, tuple(w.location for w in r.wounds))
            for r in (world.readout(e) for e in world.names)]


def test_same_seed_same_fight() -> None:
    a = ArrayWorld.from_scenario("skirmish", seed=4)
    b = ArrayWorld.from_scenario("skirmish", seed=4)
    assert a.run() == b.run()
    assert _final(a) == _final(b)
    runs = {ArrayWorld.from_scenario("skirmish", seed=4, run=i).run().ticks for i in range(6)}
    assert len(runs) > 1  # the run index draws other streams


def test_the_engine_factory_builds_an_array_world() -> None:
    from sandbox.engines import open_world

    world = open_world("duel", "array", seed=1, trace="all")
    assert isinstance(world, ArrayWorld)
    outcome = world.run()
    assert outcome.winner in ("Red", "Blue", None)
    records = [e for e in world.log if isinstance(e, AttackRecord)]
    assert records and all(r.landed and r.blow is not None for r in records)
    assert all(r.explain(world.names)[0].startswith(f"Tick {r.tick}:") for r in records)
    assert world.events  # the records expand into typed events


def test_trace_names_only_the_traced() -> None:
    world = ArrayWorld.from_scenario("skirmish", seed=2, trace=["Red Axe"])
    world.run()
    axe = world.entity("Red Axe")
    records = [e for e in world.log if isinstance(e, AttackRecord)]
    assert records and all(axe in (r.attacker, r.target) for r in records)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"engine": "gpu"}, "unknown engine 'gpu'"),
    ({"engine": "array", "model": "severity"}, "does not run the 'severity' damage model"),
    ({"engine": "array", "trace": ["Nobody"]}, "no creature called 'Nobody'"),
])
def test_bad_requests_are_refused(kwargs: dict[str, object], words: str) -> None:
    from sandbox.engines import open_world

    with pytest.raises(SandboxError, match=words):
        open_world("duel", **kwargs)  # type: ignore[arg-type]


def test_engines_per_model() -> None:
    assert array_model_names() == ("anatomy",)
    assert engines_for("anatomy") == ("esper", "array")
    assert engines_for("severity") == ("esper",)


@pytest.mark.parametrize(("args", "words"), [
    (["--engine", "gpu"], "unknown engine"),
    (["--engine", "array", "--model", "depth"], "runs on the esper engine"),
    (["--engine", "array", "--model", "all"], "--model all"),
    (["--engine", "array", "--aftermath", "3"], "--aftermath"),
    (["--engine", "array", "--trace", "Nobody"], "no creature called 'Nobody'"),
    (["--engine", "array", "--ticks", "5000"], "at most 1439 ticks"),
    (["--trace", "Aldric"], "--trace goes with --engine array"),
])
def test_cli_refuses_before_any_work(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["run", "duel", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_cli_run_on_the_array_engine_accounts_for_the_traced() -> None:
    result = CliRunner().invoke(app, ["run", "duel", "--engine", "array", "--trace", "Aldric", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "engine array" in result.output
    assert "wins after" in result.output or "No winner" in result.output
    blows = [line for line in result.output.splitlines() if line.startswith("tick ")]
    assert blows and all("Aldric" in line for line in blows)


def test_batch_matches_one_target_pipeline(catalog: Catalog) -> None:
    """Blows against two kinds of target in one batch read the same tables as each target alone (forced
    locations, so only the d100 tests are random)."""
    rules = catalog.rules
    human, wolf = catalog.bodies["human"], catalog.bodies["wolf"]
    mail = [catalog.armor["mail_hauberk"], catalog.armor["helm"]]
    a = compile_target(human, rules, mail, shock_ml=50, strength_ml=50, fumble_ml=50, stumble_ml=50)
    b = compile_target(wolf, rules, (), shock_ml=50, strength_ml=50, fumble_ml=50, stumble_ml=50)
    tables = build_target_tables((a, b))
    for kind, target in enumerate((a, b)):
        locs = np.arange(len(target.body.locations))
        n = len(locs)
        impacts = np.full(n, 14)
        batch = resolve_blow_batch(tables, np.full(n, kind), impacts, np.full(n, int(Aspect.EDGED)),
                                   np.random.default_rng(0), location=locs, shock_ml=np.full(n, 50),
                                   strength_ml=np.full(n, 50), fumble_ml=np.full(n, 50), stumble_ml=np.full(n, NO_ML))
        for loc in locs.tolist():
            one = resolve_blows(target, np.array([14]), int(Aspect.EDGED), np.random.default_rng(0), location=loc)
            assert batch.level[loc] == one.level[0] and batch.protection[loc] == one.protection[0]
            assert batch.shock_index[loc] == one.shock_index[0] and batch.glancing[loc] == one.glancing[0]
        rolled = batch.stumble == 1
        assert (batch.stumble_test[rolled] == 0).all()  # no keep-footing ML: a critical failure, no roll


def test_a_world_is_built_per_distinct_recruit_with_its_own_teams_and_names_per_fight() -> None:
    """A batch repeats the scenario's recruits fight after fight: each fight gets its own teams (numbered in the
    order they first appear), a name may repeat across fights but not within one."""
    from dataclasses import replace

    from sandbox.config import default_catalog
    from sandbox.config.scenarios import resolve_scenario
    from sandbox.models import build_model
    from sandbox.systems.arrays.engine import ArrayEngine
    from sandbox.systems.arrays.errors import EngineError

    catalog, spec = resolve_scenario("skirmish", default_catalog())
    model = build_model("anatomy", catalog)
    recruits = list(spec.combatants)
    engine = ArrayEngine(catalog, [(f, r) for f in range(3) for r in recruits], model, runs=[0, 1, 2])
    cr = engine.creatures
    teams = list(dict.fromkeys(r.team for r in recruits))
    assert cr.team_names == teams * 3
    assert cr.team.tolist() == [len(teams) * f + teams.index(r.team) for f in range(3) for r in recruits]
    assert cr.names == [r.name for r in recruits] * 3 and cr.fight.tolist() == [f for f in range(3) for _ in recruits]
    alone = ArrayEngine(catalog, recruits, model)
    assert np.array_equal(cr.mls[:len(recruits)], alone.creatures.mls)
    assert np.array_equal(cr.mls[len(recruits):2 * len(recruits)], alone.creatures.mls)
    twin = replace(recruits[1], name=recruits[0].name)
    with pytest.raises(EngineError, match=f"a creature called {recruits[0].name!r} already exists"):
        ArrayEngine(catalog, [(0, recruits[0]), (1, twin), (1, recruits[2]), (1, recruits[0])], model, runs=[0, 1])
