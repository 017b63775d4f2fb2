"""The lab on the array engine: many runs of a scenario as one array world of independent fights, each run its
own fight (the same alone, in any chunk, on any worker or executor, after a resume), and what it refuses before
any work."""

from __future__ import annotations

import dataclasses
import html
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from sandbox.array_world import SHRINK_FROM, FightResult, end_fights, run_fights
from sandbox.cli import MAX_CHUNK, app
from sandbox.components.readout import Readout, Standing
from sandbox.config import default_catalog
from sandbox.config.scenarios import resolve_scenario
from sandbox.lab.plan import ARRAY_WORLD, ESPER_CHUNK
from sandbox.lab.records import run_chunk
from sandbox.lab.variants import Variant
from sandbox.systems.arrays.fight_streams import FightStreams
from sandbox.systems.creatures import Creature

runner = CliRunner()


def _seen(fight: FightResult) -> tuple[object, ...]:
    return (fight.run, fight.outcome, tuple(sorted(fight.blows.items())),
            tuple((c.name, r.label, r.health, r.alive, r.can_act, tuple((w.location, w.level) for w in r.wounds))
                  for c, r in fight.creatures))


@pytest.mark.parametrize("scenario", ["duel", "skirmish"])
def test_a_fight_is_the_same_alone_or_in_any_batch(scenario: str) -> None:
    catalog, spec = resolve_scenario(scenario, default_catalog())
    batch = {f.run: _seen(f) for f in run_fights(spec, catalog, 7, range(40))}
    for run in (0, 13, 39):
        alone = run_fights(spec, catalog, 7, [run])[0]
        assert _seen(alone) == batch[run]
    reordered = {f.run: _seen(f) for f in run_fights(spec, catalog, 7, [39, 2, 13, 0])}
    assert all(reordered[r] == batch[r] for r in reordered)
    assert len({b[1] for b in batch.values()}) > 1  # the runs are different fights


@pytest.mark.parametrize("scenario", ["duel", "skirmish"])
def test_a_large_batch_drops_its_ended_fights_and_goes_on_with_the_same_fights(
        scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``SHRINK_FROM`` fights, a world whose fights mostly ended drops them and ticks on with the rest (their
    creatures, wounds and streams moved): every fight's records are still those of the fight alone."""
    from sandbox.array_world import SHRINK_FROM
    from sandbox.systems.arrays.engine import ArrayEngine

    kept: list[int] = []
    keep_fights = ArrayEngine.keep_fights

    def spied(engine: ArrayEngine, fights: np.ndarray) -> None:
        kept.append(len(fights))
        keep_fights(engine, fights)

    monkeypatch.setattr(ArrayEngine, "keep_fights", spied)
    catalog, spec = resolve_scenario(scenario, default_catalog())
    runs = range(SHRINK_FROM + 44)
    batch = {f.run: _seen(f) for f in run_fights(spec, catalog, 2, runs)}
    assert kept and kept == sorted(kept, reverse=True) and kept[0] < len(runs)  # it did drop fights, more and more
    longest = sorted(batch, key=lambda r: batch[r][1].ticks)[-3:]  # type: ignore[attr-defined]
    for run in [*longest, 0, 50]:
        assert _seen(run_fights(spec, catalog, 2, [run])[0]) == batch[run]


def test_records_are_those_of_any_chunking() -> None:
    baseline = Variant("baseline")
    whole = run_chunk("duel", 3, "anatomy", range(30), baseline, "array")
    pieces = [r for start in range(0, 30, 7)
              for r in run_chunk("duel", 3, "anatomy", range(start, min(start + 7, 30)), baseline, "array")]
    assert whole == pieces
    assert [r.run[2] for r in whole] == list(range(30))
    assert all(r.run[1] == "anatomy" for r in whole)


def test_records_count_the_landed_blows_of_each_creature() -> None:
    records = run_chunk("duel", 1, "anatomy", range(20), Variant("baseline"), "array")
    for record in records:
        per_target = Counter[str]()
        for row in record.blows:
            per_target[row[3]] += row[-1]
        assert {c[3]: c[9] for c in record.combatants} == {c[3]: per_target[c[3]] for c in record.combatants}
        assert record.run[-1] == sum(per_target.values())


def test_cli_lab_on_the_array_engine_gives_the_same_files_for_any_jobs_and_chunk(tmp_path: Path) -> None:
    base = ["lab", "duel", "--runs", "40", "--engine", "array", "--seed", "4", "--odds-blows", "0"]
    one = runner.invoke(app, [*base, "--jobs", "1", "--chunk", "40", "--out", str(tmp_path / "one")])
    two = runner.invoke(app, [*base, "--jobs", "2", "--chunk", "9", "--out", str(tmp_path / "two")])
    default = runner.invoke(app, [*base, "--jobs", "1", "--out", str(tmp_path / "default")])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert default.exit_code == 0, default.output
    for name in ("runs.csv", "combatants.csv", "blows.csv"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text(), name
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "default" / name).read_text(), name
    assert len((tmp_path / "one" / "runs.csv").read_text().splitlines()) == 41
    # With no --chunk, an array lab ships a duel's runs in chunks of 20,000 (one array world of 40,000 creatures each).
    assert json.loads((tmp_path / "default" / "summary.json").read_text())["plan"]["chunk"] == ARRAY_WORLD // 2


def test_an_array_labs_default_chunk_is_a_world_of_as_many_creatures_whatever_the_fight(tmp_path: Path) -> None:
    """With no chunk, an array lab's chunk is one world of ``ARRAY_WORLD`` creatures: 20,000 duels, but 200 battles
    of 200 combatants (a world's memory grows with its creatures: 4,000 battles would be about 3 GB a worker); an
    esper lab's stays 25 runs whatever the fight."""
    from sandbox.lab import run

    duel = run("duel", runs=3, engine="array", out=tmp_path / "duel")
    battle = run("battle", runs=1, engine="array", out=tmp_path / "battle")
    esper = run("battle", runs=1, models="anatomy", out=tmp_path / "esper")
    assert duel.summary["plan"]["chunk"] == ARRAY_WORLD // 2 == 20_000
    assert battle.summary["plan"]["chunk"] == ARRAY_WORLD // 200 == 200
    assert esper.summary["plan"]["chunk"] == ESPER_CHUNK == 25
    assert len(duel.runs) == 3 and len(battle.runs) == len(esper.runs) == 1


def test_cli_lab_takes_the_large_chunks_the_docs_advise_and_refuses_past_its_bound(tmp_path: Path) -> None:
    """``--chunk 20000`` (what the README advises for a large array lab) is taken; past ``MAX_CHUNK``: exit 2."""
    base = ["lab", "duel", "--runs", "5", "--engine", "array", "--seed", "4", "--odds-blows", "0"]
    large = runner.invoke(app, [*base, "--chunk", "20000", "--out", str(tmp_path / "large")])
    assert large.exit_code == 0, large.output
    assert json.loads((tmp_path / "large" / "summary.json").read_text())["plan"]["chunk"] == 20000
    assert len((tmp_path / "large" / "runs.csv").read_text().splitlines()) == 6
    past = runner.invoke(app, [*base, "--chunk", str(MAX_CHUNK + 1), "--out", str(tmp_path / "past")])
    assert past.exit_code == 2
    assert "--chunk" in past.output and f"{MAX_CHUNK}" in past.output
    assert not (tmp_path / "past").exists()


def test_cli_lab_on_the_array_engine_on_dask_gives_the_same_records(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")  # any free port: 8787 may be another run's
    base = ["lab", "duel", "--runs", "24", "--engine", "array", "--seed", "6", "--chunk", "8", "--odds-blows", "0"]
    try:
        dask_run = runner.invoke(app, [*base, "--scheduler", cluster.scheduler_address, "--out",
                                       str(tmp_path / "dask")])
    finally:
        cluster.close()
    local = runner.invoke(app, [*base, "--jobs", "1", "--out", str(tmp_path / "local")])
    assert dask_run.exit_code == 0, dask_run.output
    assert local.exit_code == 0, local.output
    assert (tmp_path / "dask" / "runs.csv").read_text() == (tmp_path / "local" / "runs.csv").read_text()


IMMOBILIZED = """name = "Held"
description = "One of them is held fast."
model = "anatomy"
max_ticks = 50
field = { width = 10.0, height = 10.0 }

[[combatants]]
name = "Aldric"
creature = "human"
team = "Red"
position = [0.0, 0.0]
immobilized = ["Left Leg"]

[[combatants]]
name = "Bertram"
creature = "human"
team = "Blue"
position = [2.0, 0.0]
"""


@pytest.mark.parametrize(("args", "words"), [
    (["--engine", "gpu"], "unknown engine 'gpu'"),
    (["--engine", "array", "--models", "severity"], "does not run the 'severity' damage model"),
    (["--engine", "array", "--models", "all"], "runs on the esper engine"),
    (["--engine", "array", "SCENARIO"], "immobilized"),
])
def test_cli_lab_refuses_what_the_engine_cannot_run_before_any_work(tmp_path: Path, args: list[str],
                                                                    words: str) -> None:
    scenario = "duel"
    if "SCENARIO" in args:
        args = [a for a in args if a != "SCENARIO"]
        path = tmp_path / "held.toml"
        path.write_text(IMMOBILIZED)
        scenario = str(path)
    out = tmp_path / "lab"
    result = runner.invoke(app, ["lab", scenario, "--runs", "5", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_fight_streams_are_uniform_and_independent_of_the_other_fights() -> None:
    streams = FightStreams(0, range(50), ("attack",))
    fights = np.repeat(np.arange(50), 400)
    rolls = streams.integers("attack", fights, 0, 100)
    counts = np.bincount(rolls, minlength=100)
    assert stats.chisquare(counts).pvalue > 1e-3
    alone = FightStreams(0, [17], ("attack",))
    assert np.array_equal(alone.integers("attack", np.zeros(400, dtype=np.int64), 0, 100), rolls[fights == 17])
    again = FightStreams(0, range(50), ("attack",)).integers("attack", fights[::-1].copy(), 0, 100)
    assert not np.array_equal(again, rolls)  # rows take their fight's counters in row order
    assert sorted(again.tolist()) == sorted(rolls.tolist())


@pytest.mark.parametrize("scenario", ["duel", "skirmish"])
def test_a_fight_in_brief_reads_as_its_records_and_readouts(scenario: str) -> None:
    """The lab reads each creature in brief from the arrays; it is what the full record and readout say."""
    catalog, spec = resolve_scenario(scenario, default_catalog())
    runs = range(400 if scenario == "duel" else 60)  # a duel rarely ends in a death
    fights = run_fights(spec, catalog, 5, runs)
    labels = set()
    for fight in fights:
        assert fight.standings == tuple(standing_of(c, r) for c, r in fight.creatures)
        labels |= {s.label for s in fight.standings}
    assert "dead" in labels and any("," in label for label in labels)  # deaths and shock states were read
    brief = run_fights(spec, catalog, 5, runs, records=False)
    assert [(f.outcome, f.standings, f.blows) for f in brief] == [(f.outcome, f.standings, f.blows) for f in fights]
    assert all(f.creatures == () for f in brief)


def standing_of(creature: Creature, readout: Readout) -> Standing:
    """What a creature's record and full readout say of it in brief (the oracle of the brief readings)."""
    cond = creature.condition
    cause = (cond.cause or "died") if cond.dead else ""
    return Standing(creature.name, creature.identity.creature, creature.team, creature.anatomy.body.id,
                    readout.alive, readout.can_act, readout.label, cond.dead, cause)


@pytest.mark.parametrize("model", ["anatomy", "strength", "depth", "severity", "status"])
def test_an_esper_worlds_creature_in_brief_reads_as_its_record_and_readout(model: str) -> None:
    from sandbox.world import Sandbox

    labels = set()
    for run in range(12):
        with Sandbox.from_scenario("skirmish", seed=3, model=model, run=run) as world:
            for tick in range(60):
                if tick % 15 == 0 or not world.able_teams()[1:]:
                    for entity, creature in world.creatures().items():
                        brief = world.standing(entity)
                        assert brief == standing_of(creature, world.readout(entity))
                        labels.add(brief.label)
                if not world.able_teams()[1:]:
                    break
                world.step()
    assert len(labels) > 3  # more than one state was read


def test_world_of_rebuilds_any_run_of_an_array_lab_and_the_report_says_how(tmp_path: Path) -> None:
    from sandbox.lab import run, world_of
    from sandbox.lab.report import report_html

    patches = (("scenario.combatants.Aldric.skills.sword", 65),)
    result = run("duel", runs=12, seed=4, engine="array", variants={"keen": dict(patches)}, out=tmp_path / "lab")
    rows = {(r.variant, int(r.run)): r for r in result.runs.itertuples()}
    for variant, given in (("baseline", ()), ("keen", patches)):
        for i in (0, 5, 11):
            outcome = world_of("duel", 4, "anatomy", i, given, engine="array").run()
            row = rows[variant, i]
            assert (outcome.winner or "", outcome.ticks) == (row.winner, int(row.ticks)), (variant, i)
    shown = html.unescape(report_html(result.summary, {}))
    assert "world_of('duel', 4, model, i, patches, engine='array')" in shown


@pytest.mark.parametrize("scenario", ["duel", "skirmish", "wolf_pack"])
def test_a_chunks_records_built_from_columns_are_those_of_each_runs_result(scenario: str) -> None:
    """The lab builds a chunk's records from the batch's columns (``endings_records``); they are what ``flatten``
    makes of each run's own result, run by run (wins, draws at the tick limit, deaths, every kind of blow)."""
    from sandbox.lab.records import endings_records, flatten

    catalog, spec = resolve_scenario(scenario, default_catalog())
    runs = [300, *reversed(range(SHRINK_FROM + 40))]  # past SHRINK_FROM: the world drops ended fights as it goes
    short = dataclasses.replace(spec, max_ticks=40)  # some runs stop at the tick limit
    for scene in (spec, short):
        ends = end_fights(scene, catalog, 9, runs, "anatomy")
        from_columns = endings_records("v", "anatomy", 9, ends)
        from_results = [flatten(("v", "anatomy", f.run), 9, f.outcome, list(enumerate(f.standings, start=1)),
                                Counter({(t + 1, loc, wound): n for (t, loc, wound), n in f.blows.items()}))
                        for f in ends.results()]
        assert from_columns == from_results
        assert [r.run[2] for r in from_columns] == runs
        assert {r.run[5] for r in from_columns} >= ({"one team left", "tick limit"} if scene is short
                                                    else {"one team left"})
        assert sum(len(r.blows) for r in from_columns) > len(runs)


def test_the_collector_paused_for_a_chunk_is_on_again_after_and_still_frees_its_cycles() -> None:
    """A chunk pauses the cycle collector and moves what it made to the oldest generation unwalked: the
    collector is as it was after, and a cycle made in the block is still collected (nothing stays frozen)."""
    import gc
    import weakref

    from sandbox.lab.records import collector_paused

    class Node:
        me: object = None

    was_on = gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        node = Node()
        node.me = node
        ref = weakref.ref(node)
        del node
    assert gc.isenabled() == was_on
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert ref() is None
