"""Generated configs (``tests/strategies.py``): every valid body, weapon, armour piece and small scenario loads,
validates, draws, takes blows and fights to an end without an exception, with the invariants checked every tick.

The point models (severity, depth, strength, status) cannot take a generated weapon, armour piece or creature:
their tables (``configs/models/<name>.toml``) must have an entry for every strike mode, armour piece and creature
in the catalog, so building one against a catalog with generated entries is a ``ConfigError`` (asserted below).
Generated skirmishes therefore run under the anatomy model; the soak (``tests/test_soak.py``) covers the point
models on the shipped scenarios.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from sandbox.blows import BlowSetup
from sandbox.cli import app
from sandbox.config import Catalog, ConfigError, config_root, load_catalog
from sandbox.models import available_models
from sandbox.world import Sandbox
from tests.strategies import GenSet, gen_set

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load(gen: GenSet, folder: Path) -> tuple[Catalog, list[Path]]:
    paths = gen.write(folder)
    return load_catalog(config_root(), paths), paths


def _world(catalog: Catalog, seed: int, model: str) -> Sandbox:
    spec = catalog.scenarios["gen_scenario"]
    world = Sandbox(seed, model, catalog=catalog, check_invariants=True)
    world.scenario, world.care, world.max_ticks = spec, spec.care, spec.max_ticks
    for c in spec.combatants:
        world.spawn(c.creature, name=c.name, team=c.team, position=c.position, armor=c.armor, weapons=c.weapons,
                    attributes=c.attributes, skills=c.skills, policy=c.policy, aim=c.aim,
                    initiative=c.initiative, speed=c.speed, immobilized=c.immobilized)
    return world


@SETTINGS
@given(gen=gen_set())
def test_generated_configs_validate_draw_and_take_blows(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, paths = _load(gen, Path(tmp))
        body = catalog.bodies["gen_body"]
        runner = CliRunner()
        shown = runner.invoke(app, ["body", str(paths[0])])
        assert shown.exit_code == 0, shown.output
        as_json = runner.invoke(app, ["body", str(paths[0]), "--json"])
        assert as_json.exit_code == 0, as_json.output
        # A body alone validates; a generated weapon, armour piece or creature does not under ``validate``, which
        # also checks the point models' tables cover it (see the module docstring). load_catalog checked them all.
        checked = runner.invoke(app, ["validate", str(paths[0])])
        assert checked.exit_code == 0, checked.output
        rng = random.Random(0)
        for mode in sorted(m for m in catalog.modes if m.startswith("gen_weapon.")):
            setup = BlowSetup.build(catalog, body=body, mode=mode, armor=["gen_armor"])
            assert len(list(setup.blows(5, rng))) == 5
        aimable = [p.name for p in body.parts if body.zones[p.zone].weight > 0]
        for part in aimable[:3]:
            setup = BlowSetup.build(catalog, body=body, impact=12, aspect="edged", aim=part)
            assert len(list(setup.blows(5, rng))) == 5
        loc = body.locations[-1].name
        assert len(list(BlowSetup.build(catalog, body=body, impact=30, aspect="blunt", location=loc).blows(3, rng)))


@SETTINGS
@given(gen=gen_set())
def test_generated_skirmish_runs_to_an_end_with_invariants(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, _ = _load(gen, Path(tmp))
        for seed in (0, 1):
            world = _world(catalog, seed, "anatomy")
            try:
                outcome = world.run()
                assert outcome.reason in ("one team left", "no team left", "tick limit")
                if seed == 0:
                    world.advance(days=3)
            finally:
                world.close()


@pytest.mark.parametrize("model", [m for m in available_models() if m != "anatomy"])
def test_point_models_need_table_entries_for_generated_configs(tmp_path: Path, model: str) -> None:
    from hypothesis import find

    gen = find(gen_set(), lambda _: True)
    catalog, _ = _load(gen, tmp_path)
    with pytest.raises(ConfigError):
        Sandbox(0, model, catalog=catalog)
