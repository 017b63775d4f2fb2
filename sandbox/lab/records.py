"""One run of a lab -> its records.

A row of ``runs.csv``, a row of ``combatants.csv`` per creature, and a row of ``blows.csv`` per kind of landed blow
(tidy tables: one observation a row, the same columns whatever the cast).

A run depends only on (scenario, seed, run index, model, variant): run i of every variant uses the same seed and
streams (common random numbers), so what differs between two variants' run i is what the patches changed.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sandbox.components.events import DamageDealt
from sandbox.components.readout import Standing
from sandbox.config.content import ScenarioRef, scenario_ref
from sandbox.engines import DEFAULT_ENGINE, engine_named
from sandbox.world import Outcome, Sandbox

if TYPE_CHECKING:
    from sandbox.array_world import FightEndings
    from sandbox.world_protocol import World

from .variants import Variant, variant_content

__all__ = ["BLOWS_FILE", "BLOW_COLUMNS", "COMBATANTS_FILE", "COMBATANT_COLUMNS", "DAMAGE_BANDS", "KEYS", "RUNS_FILE",
           "RUN_COLUMNS", "RunRecord", "array_chunk", "collector_paused", "endings_records", "flatten", "landed_blows",
           "run_chunk", "run_one", "world_of"]

RUNS_FILE = "runs.csv"
COMBATANTS_FILE = "combatants.csv"
BLOWS_FILE = "blows.csv"
RUN_COLUMNS = ("variant", "model", "run", "seed", "winner", "reason", "ticks", "survivors", "deaths", "blows")
"""``runs.csv``: one row per run (``survivors`` and ``deaths`` count creatures; ``blows``: blows landed)."""
COMBATANT_COLUMNS = ("variant", "model", "run", "name", "creature", "team", "alive", "can_act", "label",
                     "blows_taken", "died")
"""``combatants.csv``: one row per run and creature."""
BLOW_COLUMNS = ("variant", "model", "run", "target", "body", "location", "wound", "blows")
"""``blows.csv``: landed blows of a run by target, location (empty under a model that places no blows on the
anatomy) and wound (an injury level code under anatomy, a depth tier under depth, a band of damage dealt under the
point models), counted."""
KEYS = 3
"""Every file's rows start with (variant, model, run): the key of the run."""
DAMAGE_BANDS = ((1, 2, "1-2"), (3, 4, "3-4"), (5, 8, "5-8"), (9, 10**9, "9+"))
"""How a point model's ``DamageDealt`` is banded (its own units)."""


@dataclass(frozen=True, slots=True)
class RunRecord:
    """What one run leaves: its rows in the three tables (values as written, in the columns' order).

    Attributes:
        run: The ``runs.csv`` row.
        combatants: The ``combatants.csv`` rows, in spawn order.
        blows: The ``blows.csv`` rows.
    """

    run: tuple[Any, ...]
    combatants: tuple[tuple[Any, ...], ...]
    blows: tuple[tuple[Any, ...], ...]


def _band(dealt: int) -> str:
    for low, high, label in DAMAGE_BANDS:
        if low <= dealt <= high:
            return f"dealt {label}"
    return "dealt 0"


def landed_blows(log: Iterable[Any]) -> Counter[tuple[int, str, str]]:
    """(target, location, wound) -> blows, from a world's raw log.

    An entry that places its blow on the target's anatomy (``sandbox.components.log.PlacedBlowEntry``: the anatomy and
    depth models' attack records) says where, without expanding into events; the other models' blows are their damage
    events (no location).
    """
    found: Counter[tuple[int, str, str]] = Counter()
    for entry in log:
        placed = getattr(entry, "placed_blow", None)  # a PlacedBlowEntry (faster than the protocol's isinstance)
        if placed is not None:
            where = placed()
            if where is not None:
                found[entry.target, where[0], where[1]] += 1
        else:
            for event in entry.events():
                if isinstance(event, DamageDealt) and event.dealt > 0 and event.attacker >= 0:
                    found[event.target, "", _band(event.dealt)] += 1
    return found


def run_one(scenario: str | Path | ScenarioRef, seed: int, model: str, run: int,
            variant: Variant | None = None) -> RunRecord:
    """Run one skirmish of a variant to its end and flatten it into its records.

    Args:
        scenario: The scenario, resolved (its content trees with it), or an id or path of the shipped content.
        seed: Root seed.
        model: Damage model.
        run: Run index under the seed.
        variant: The patches (default: none).
    """
    variant = variant or Variant("baseline")
    content = variant_content(variant, scenario)
    world = Sandbox.from_spec(content.scenario, seed, model, run=run, catalog=content.catalog)
    try:
        outcome = world.run()
        creatures = world.creatures()
        blows = landed_blows(world.log)
        return flatten((variant.name, model, run), seed, outcome, [(e, world.standing(e)) for e in creatures], blows)
    finally:
        world.close()


def flatten(key: tuple[str, str, int], seed: int, outcome: Outcome, creatures: Sequence[tuple[int, Standing]],
            blows: Counter[tuple[int, str, str]]) -> RunRecord:
    """A finished run's records.

    Its key, outcome, ``(entity, standing)`` per creature in spawn order and ``(target entity, location, wound) ->
    blows``.
    """
    taken: Counter[int] = Counter()
    for (target, _, _), count in blows.items():
        taken[target] += count
    combatants = []
    deaths = 0
    for entity, c in creatures:
        deaths += c.dead
        combatants.append((*key, c.name, c.kind, c.team, int(c.alive), int(c.can_act), c.label, taken[entity],
                           c.cause))
    names = {e: c.name for e, c in creatures}
    bodies = {e: c.body for e, c in creatures}
    blow_rows = tuple((*key, names.get(target, str(target)), bodies.get(target, ""), location, wound, count)
                      for (target, location, wound), count in sorted(
                          blows.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])))
    row = (*key, seed, outcome.winner or "", outcome.reason, outcome.ticks, len(outcome.survivors), deaths,
           sum(taken.values()))
    return RunRecord(row, tuple(combatants), blow_rows)


def array_chunk(scenario: str | Path | ScenarioRef, seed: int, model: str, runs: Sequence[int],
                variant: Variant) -> list[RunRecord]:
    """A chunk of runs on the array engine.

    One array world of independent fights (``end_fights``; run ``i`` is the same fight in any chunk, so the records are
    those of any other chunking, worker count or executor).
    """
    from sandbox.array_world import end_fights

    content = variant_content(variant, scenario)
    with collector_paused():
        return endings_records(variant.name, model, seed, end_fights(content.scenario, content.catalog, seed, runs,
                                                                     model))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for a block.

    A chunk's batch and records make hundreds of thousands of small objects and no cycles, and each collection walks the
    whole heap (a sixth of a duel lab's time).

    At the end the objects the block made are moved straight to the oldest generation (``gc.freeze`` then
    ``gc.unfreeze``) instead of being walked by the first young collection, which found nothing to free and cost
    a twentieth of a chunk: they are the records, which live until written, and a full collection still sees
    them (nothing is kept from the collector, only its walk of the young deferred).
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was_on:
            gc.enable()


def endings_records(variant: str, model: str, seed: int, ends: FightEndings) -> list[RunRecord]:
    """Each run's records, read from a batch's columns.

    What ``flatten`` makes of each run's result (``tests/ test_array_lab.py`` checks they are the same), built a column
    at a time.
    """
    size, runs = ends.size, len(ends.runs)
    # Every row is zipped from whole columns (a row built field by field in Python cost more than its fight).
    taken = np.bincount(ends.blow_run * size + ends.blow_target, weights=ends.blow_count,
                        minlength=runs * size).astype(np.int64)
    landed = taken.reshape(runs, size).sum(axis=1).tolist()
    deaths = ends.dead.reshape(runs, size).sum(axis=1).tolist()
    survivors = ends.alive.reshape(runs, size).sum(axis=1).tolist()
    # Columns of names, bodies and run numbers taken from object arrays share their objects (none made a row).
    run_numbers = np.asarray(ends.runs, dtype=object)
    # Tuples of rows, so that a run's slice of each is its tuple of rows (no list in between).
    combatants = tuple(zip(repeat(variant), repeat(model), np.repeat(run_numbers, size).tolist(), ends.names * runs,
                           ends.kinds * runs, ends.teams * runs, ends.alive.astype(np.int64).tolist(),
                           ends.can_act.astype(np.int64).tolist(), ends.labels, taken.tolist(), ends.causes))
    blows = tuple(zip(repeat(variant), repeat(model), run_numbers[ends.blow_run].tolist(),
                      np.asarray(ends.names, dtype=object)[ends.blow_target].tolist(),
                      np.asarray(ends.bodies, dtype=object)[ends.blow_target].tolist(), ends.blow_location,
                      ends.blow_level, ends.blow_count.tolist()))
    bounds = np.searchsorted(ends.blow_run, np.arange(runs + 1)).tolist()  # each run's blows (sorted by run)
    rows = zip(repeat(variant), repeat(model), ends.runs, repeat(seed), [w or "" for w in ends.winners],
               ends.reasons, ends.ticks, survivors, deaths, landed)
    return [RunRecord(row, combatants[k * size:(k + 1) * size], blows[bounds[k]:bounds[k + 1]])
            for k, row in enumerate(rows)]


def run_chunk(scenario: str | Path | ScenarioRef, seed: int, model: str, runs: Iterable[int], variant: Variant,
              engine: str = DEFAULT_ENGINE) -> list[RunRecord]:
    """Run a chunk of run indices of one variant under one model on ``engine``.

    This is what a worker is sent: the scenario travels resolved, with its content trees, so the worker builds the
    content the lab was given. One world of the chunk's fights on an engine that runs batches, else a world per run.
    """
    if engine_named(engine).batches:
        return array_chunk(scenario, seed, model, list(runs), variant)
    return [run_one(scenario, seed, model, i, variant) for i in runs]


def world_of(scenario: str | Path | ScenarioRef, seed: int, model: str, run: int,
             patches: Iterable[tuple[str, Any]] = (), name: str = "variant", engine: str = DEFAULT_ENGINE,
             content: Sequence[str | Path] = ()) -> World:
    """The world of one run of a lab, to replay or inspect it.

    Run ``run`` of the variant with ``patches`` (from ``summary.json``'s ``variants``) under ``model`` on ``engine``
    (the lab's ``plan.engine``), over the content trees the lab was given (``content``), before its first tick.
    ``world.run()`` then gives the run's records (an array lab's run is the same fight alone as in its chunk).
    """
    chosen = engine_named(engine)
    ref = scenario_ref(scenario, content)
    built = variant_content(Variant(name, tuple((k, v) for k, v in patches)), ref)
    return chosen.world(built.scenario, built.catalog, seed, model, run=run)
