"""The array engine's compiled blow pass (``sandbox.systems.models.anatomy.arrays.blows``) gives what the vectorised
pipeline (``sandbox.systems.models.anatomy.vector_blows.resolve_blow_batch``) gives, number for number, whatever the
blows."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.array_world import ArrayWorld
from sandbox.systems.models.anatomy.arrays.blows import resolve_landed
from sandbox.systems.models.anatomy.vector_blows import BlowRules, resolve_blow_batch
from sandbox.systems.models.anatomy.vector_target import NO_ML


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    """A world of many bodies and armours (every kind of target the bestiary has)."""
    return ArrayWorld.from_scenario("bestiary", seed=0).engine


mls = st.one_of(st.just(NO_ML), st.integers(-20, 140))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(1, 300), st.integers(0, 2**32))
def test_the_compiled_pass_is_the_vectorised_pipeline(engine, data: st.DataObject, n: int,  # type: ignore[no-untyped-def]
                                                      seed: int) -> None:
    tables, modes = engine.tables, engine.modes
    kinds = len(tables.targets)
    kind = np.asarray(data.draw(st.lists(st.integers(0, kinds - 1), min_size=n, max_size=n)), dtype=np.int64)
    impacts = np.asarray(data.draw(st.lists(st.integers(-3, 60), min_size=n, max_size=n)), dtype=np.int64)
    mode = np.asarray(data.draw(st.lists(st.integers(0, len(modes.modes) - 1), min_size=n, max_size=n)),
                      dtype=np.int64)
    bodies = engine.bodies
    aimable = [[0, *bodies.aimable_zone[b, :bodies.aimable_count[b]].tolist()]
               for b in (bodies.index(t.body) for t in tables.targets)]  # per kind: unaimed, or a zone it has
    aim = np.asarray([data.draw(st.sampled_from(aimable[k])) for k in kind.tolist()], dtype=np.int64)
    locator = engine.locators(kind, aim, modes.spread[mode])
    tests = {name: np.asarray(data.draw(st.lists(mls, min_size=n, max_size=n)), dtype=np.int64)
             for name in ("shock_ml", "strength_ml", "fumble_ml", "stumble_ml")}
    batch = resolve_blow_batch(tables, kind, impacts, modes.aspect[mode], np.random.default_rng(seed),
                               locator=locator, **tests)
    compiled = resolve_landed(tables, BlowRules.of(engine.rules), kind, impacts, modes.aspect[mode],
                              np.random.default_rng(seed), locator, **tests)
    for f in fields(batch):
        assert np.array_equal(getattr(compiled, f.name), getattr(batch, f.name)), f.name


def test_the_pass_is_the_pipeline_on_blows_that_meet_every_rule(engine) -> None:  # type: ignore[no-untyped-def]
    """Many blows hard enough to do everything (glance, bleed, sever, kill, test Shock, fumble and stumble), so the
    two agree on every rule, not only on blows that do little."""
    tables, modes = engine.tables, engine.modes
    n = 20000
    rng = np.random.default_rng(5)
    kind = rng.integers(0, len(tables.targets), size=n)
    mode = rng.integers(0, len(modes.modes), size=n)
    locator = engine.locators(kind, np.zeros(n, dtype=np.int64), modes.spread[mode])
    ml = rng.integers(20, 90, size=n)
    impacts = rng.integers(0, 40, size=n)
    blows = resolve_landed(tables, BlowRules.of(engine.rules), kind, impacts, modes.aspect[mode],
                           np.random.default_rng(6), locator, ml, ml, ml, ml)
    batch = resolve_blow_batch(tables, kind, impacts, modes.aspect[mode], np.random.default_rng(6), locator=locator,
                               shock_ml=ml, strength_ml=ml, fumble_ml=ml, stumble_ml=ml)
    for f in fields(batch):
        assert np.array_equal(getattr(blows, f.name), getattr(batch, f.name)), f.name
    assert blows.missed.any() and blows.bleeder.any() and blows.severed.any() and blows.dead.any()
    assert (blows.glancing & (blows.shock_test >= 0)).sum() > 20 and (blows.amputation_test >= 0).any()
    assert {0, 1, 2, 3} <= set(blows.fumble_outcome.tolist()) and {0, 1, 2} <= set(blows.stumble_outcome.tolist())
    assert len(set(blows.level.tolist())) == 6 and len(set(blows.shock_state.tolist())) >= 4
