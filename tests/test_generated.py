"""Generated configs (``tests/configgen.py`` through ``tests/strategies.py``): every valid body, weapon, armour
piece, creature and small scenario, with every point model's entries for them, validates as a whole config tree,
is drawn by ``sandbox body``, takes blows through ``sandbox blows`` (per blow, vectorised and exact), is told blow
by blow by ``sandbox run``, and fights to an end under every damage model with the invariants checked every tick,
then moves on a few days.

A point model's table that lacks the generated weapon derives its entries from the anatomy data (the last tests);
the generator writes each model's entries too, so both paths run.
"""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.config import load_catalog
from sandbox.models import available_models, load_model
from sandbox.world import Sandbox
from tests.configgen import (
    ARMOR,
    BODY,
    MODEL_ENTRIES,
    SCENARIO,
    WEAPON,
    RandomDraw,
    gen_set_for_run,
    merged_tables,
    shipped_model_tables,
    to_toml,
)
from tests.strategies import GenSet, gen_set

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIGHTS = settings(SETTINGS, max_examples=30)
POINT_MODELS = sorted(MODEL_ENTRIES)


@SETTINGS
@given(gen=gen_set())
def test_generated_configs_validate_draw_and_take_blows(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, written = gen.load(Path(tmp))
        runner = CliRunner()
        checked = runner.invoke(app, ["validate", str(written.root)])  # the whole tree, every model's tables
        assert checked.exit_code == 0, checked.output
        for extra in ([], ["--json"]):
            shown = runner.invoke(app, ["body", str(written.body), *extra])
            assert shown.exit_code == 0, shown.output
        # `sandbox blows` and `run` read the generated body, weapon and armour as a content tree over the shipped
        # content (the generated folder's copies of shipped files replace them with themselves).
        (written.root / "content.toml").write_text('name = "generated"\nversion = "1"\nextends = "sandbox"\n',
                                                   encoding="utf-8")
        env = {"SANDBOX_CONTENT": str(written.root)}

        def blows(*args: str) -> None:
            result = runner.invoke(app, ["blows", "--body", BODY, *args], env=env)
            assert result.exit_code == 0, (args, result.output)

        body = catalog.bodies[BODY]
        modes = sorted(m for m in catalog.modes if m.startswith(f"{WEAPON}."))
        blows("--mode", modes[0], "--armor", ARMOR, "-n", "20", "--format", "jsonl")
        blows("--mode", modes[-1], "--armor", ARMOR, "-n", "100000")  # the vectorised pipeline
        blows("--mode", modes[0], "--exact")
        aimable = [p.name for p in body.parts if body.zones[p.zone].weight > 0]
        if aimable:
            blows("--impact", "12", "--aspect", "edged", "--aim", aimable[0], "-n", "50")
            blows("--impact", "30", "--aspect", "fire", "--aim", aimable[-1], "--exact")
        blows("--impact", "25", "--aspect", "blunt", "--location", body.locations[-1].name, "-n", "10",
              "--format", "jsonl")
        fought = runner.invoke(app, ["run", str(written.scenario), "--aftermath", "2"], env=env)  # the account
        assert fought.exit_code == 0, fought.output


@FIGHTS
@given(gen=gen_set())
def test_generated_skirmishes_run_under_every_model_with_invariants(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, _ = gen.load(Path(tmp))
        spec = catalog.scenarios[SCENARIO]
        for model in available_models():
            world = Sandbox.from_spec(spec, 0, model, catalog=catalog, check_invariants=True)
            try:
                outcome = world.run()
                assert outcome.reason in ("one team left", "no team left", "tick limit"), (model, outcome)
                world.advance(days=2)
            finally:
                world.close()


def test_the_same_run_generates_the_same_set() -> None:
    a, b, c = gen_set_for_run(7, 3), gen_set_for_run(7, 3), gen_set_for_run(7, 4)
    assert a == b
    assert a != c


@pytest.mark.parametrize("model", POINT_MODELS)
def test_merged_model_tables_round_trip_through_toml(model: str) -> None:
    for run in range(5):
        gen = gen_set_for_run(0, run)
        tables = merged_tables(model, gen.models[model])
        assert tomllib.loads(to_toml(tables)) == tables
        assert set(shipped_model_tables(model)["creatures"]) < set(tables["creatures"])


def test_generated_sets_cover_what_the_issue_lists() -> None:
    # Over a few hundred seeded sets the generator reaches each case the robustness issue names.
    seen: set[str] = set()
    for run in range(300):
        gen = gen_set_for_run(0, run)
        body = gen.body
        zones = body["zones"]
        seen.add(f"zones {len(zones)}")
        if any(z["weight"] == 0 for z in zones):
            seen.add("zone of weight 0")
        if all(z["weight"] == 0 for z in zones):
            seen.add("every zone of weight 0")
        parts = body["parts"]
        names = {p["name"] for p in parts}
        if any(not p["roles"] for p in parts):
            seen.add("part with no roles")
        if any(len(p["locations"]) == 1 for p in parts):
            seen.add("one-location part")
        if any(n.startswith("Left ") and "Right " + n[5:] not in names for n in names):
            seen.add("missing side")
        if any(v < 0 for v in body["natural_protection"].values()):
            seen.add("negative natural protection")
        scale = body["scale"]
        seen.add("scale < 0.1" if scale < 0.1 else "scale > 2.5" if scale > 2.5 else "scale")
    for case in ("zones 1", "zones 30", "zone of weight 0", "every zone of weight 0", "part with no roles",
                 "one-location part", "missing side", "negative natural protection", "scale < 0.1", "scale > 2.5"):
        assert case in seen, case


@pytest.mark.parametrize("model", POINT_MODELS)
def test_a_point_model_derives_a_weapon_missing_from_its_table(tmp_path: Path, model: str) -> None:
    gen = gen_set_for_run(0, 0)
    entries = {table: dict(values) for table, values in gen.models[model].items()}
    entries["weapons"] = {}  # the generated weapon's modes left out of this model's table
    gen.models[model] = entries
    written = gen.write(tmp_path)
    catalog = load_catalog(written.root)  # the anatomy configs themselves are whole
    assert catalog.root == written.root  # worlds over it read its tables, not the shipped ones
    for other in POINT_MODELS:
        if other != model:
            assert not load_model(other, catalog).derived  # the generated tables cover everything
    loaded = load_model(model, catalog)
    modes = {f"{WEAPON}.{m['id']}" for m in gen.weapon["modes"]}
    assert loaded.derived == {"weapons": loaded.derived["weapons"]} and set(loaded.derived["weapons"]) == modes
    world = Sandbox(0, model, catalog=catalog)  # and a world runs on the derived entries
    world.close()


def test_generated_draws_replay_from_the_seed() -> None:
    first = RandomDraw.for_run(3, 9)
    again = RandomDraw.for_run(3, 9)
    assert [first.integer(0, 10**6) for _ in range(5)] == [again.integer(0, 10**6) for _ in range(5)]
