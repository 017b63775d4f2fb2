"""Readouts that mean the same under every model (issue 32, problem 7): a health fraction, a maximum and a tier.

Each model's own number (``Readout.health``) stays its own; ``health_max`` is its unhurt maximum and
``health_fraction`` the one over the other, 1.0 unhurt and 0.0 dead under every model. The tier (unhurt, hurt, badly
hurt, down, dead) reads the fraction on thresholds each model's TOML sets (``[health_tiers]``), checked like every
other entry of that file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.components.health_tiers import BADLY_HURT, DEAD, DOWN, HEALTH_TIERS, HURT, UNHURT, TierTable
from sandbox.config import ConfigError, load_catalog
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.world import Sandbox

MODELS = ("anatomy", "severity", "depth", "strength", "status")


def tree_with(tmp_path: Path, model: str, table: str) -> Path:
    """A content tree whose ``models/<model>.toml`` holds ``table`` (laid over the shipped file key by key)."""
    tree = tmp_path / "tiers"
    (tree / "models").mkdir(parents=True)
    (tree / "content.toml").write_text('name = "tiers"\nversion = "1"\nextends = "sandbox"\n', encoding="utf-8")
    (tree / "models" / f"{model}.toml").write_text(table, encoding="utf-8")
    return tree


def readings(world: Sandbox) -> list[tuple[int, int, float, str]]:
    return [(r.health, r.health_max, round(r.health_fraction, 3), r.tier)
            for r in (world.readout(n) for n in world.names.values())]


# ------------------------------------------------------------------------------------------------ the rule


def test_grade_reads_dead_and_down_first_then_the_thresholds() -> None:
    table = TierTable(unhurt_at_least=0.9, badly_hurt_at_most=0.4)
    assert grade(1.0, table, alive=True, can_act=True, wounded=False) == UNHURT
    assert grade(0.9, table, alive=True, can_act=True, wounded=False) == UNHURT  # at the unhurt threshold
    assert grade(0.89, table, alive=True, can_act=True, wounded=False) == HURT
    assert grade(1.0, table, alive=True, can_act=True, wounded=True) == HURT  # an open wound is never unhurt
    assert grade(0.41, table, alive=True, can_act=True, wounded=True) == HURT
    assert grade(0.4, table, alive=True, can_act=True, wounded=False) == BADLY_HURT  # at the badly-hurt threshold
    assert grade(1.0, table, alive=True, can_act=False, wounded=False) == DOWN
    assert grade(0.0, table, alive=False, can_act=False, wounded=True) == DEAD
    assert HEALTH_TIERS == (UNHURT, HURT, BADLY_HURT, DOWN, DEAD)


def test_the_fraction_is_the_number_over_its_maximum_within_0_and_1() -> None:
    assert health_fraction(3, 4) == 0.75 and health_fraction(5, 4) == 1.0 and health_fraction(-2, 4) == 0.0
    assert health_fraction(4, 4, alive=False) == 0.0  # the dead read 0 whatever their number
    assert health_fraction(4, 0) == 0.0  # a model that gives no maximum


# ---------------------------------------------------------------------------------------- across the models


@pytest.mark.parametrize("model", MODELS)
def test_every_model_reads_unhurt_at_the_start_and_dead_at_the_end(model: str) -> None:
    with Sandbox(seed=5, model=model) as world:
        hero = world.spawn("human", name="Hero", weapons=["broadsword"])
        start = world.readout(hero)
        assert (start.health, start.health_fraction, start.tier) == (start.health_max, 1.0, UNHURT)
        assert start.health_max > 0
        fractions, tiers = [start.health_fraction], [start.tier]
        for _ in range(60):  # blows that always land, and time for the dying to die, until it is dead
            if model == "depth":  # a blow with no attacker opens a flesh wound only: an organ wound kills in time
                world.inflict(hero, level="organ", location="Thorax", aspect="piercing")
            else:
                world.strike(hero, "battleaxe.cut", aim="Head")
            if world.readout(hero).alive:
                world.step()
            r = world.readout(hero)
            assert 0.0 <= r.health_fraction <= 1.0 and r.tier in HEALTH_TIERS
            assert r.health_max == start.health_max or model == "strength"  # a lowered STR keeps the unhurt maximum
            fractions.append(r.health_fraction)
            tiers.append(r.tier)
            if not r.alive:
                break
        end = world.readout(hero)
        assert (end.alive, end.health_fraction, end.tier) == (False, 0.0, DEAD)
        assert HURT in tiers or BADLY_HURT in tiers or DOWN in tiers  # it went by way of being hurt
        assert min(fractions[:-1]) < 1.0 or model in ("severity", "status")  # point models may die in one blow


# Two ticks of the shipped duel (seed 3), where the issue found health 50, 3, 4, 0 and 5: each model's number, its
# maximum, the fraction and the tier, for Aldric and Bertram.
AFTER_TWO_TICKS = {
    "anatomy": [(20, 100, 0.2, BADLY_HURT), (50, 100, 0.5, BADLY_HURT)],
    "severity": [(4, 4, 1.0, HURT), (3, 4, 0.75, HURT)],
    "depth": [(5, 5, 1.0, UNHURT), (4, 5, 0.8, HURT)],
    "strength": [(10, 10, 1.0, UNHURT), (10, 10, 1.0, UNHURT)],
    "status": [(6, 6, 1.0, HURT), (6, 6, 1.0, HURT)],
}
AT_THE_END = {
    "anatomy": [(20, 100, 0.2, BADLY_HURT), (20, 100, 0.2, DOWN)],
    "severity": [(2, 4, 0.5, BADLY_HURT), (3, 4, 0.75, DOWN)],
    "depth": [(5, 5, 1.0, UNHURT), (0, 5, 0.0, DOWN)],
    "strength": [(6, 10, 0.6, HURT), (3, 10, 0.3, DOWN)],
    "status": [(2, 6, 0.333, DOWN), (4, 6, 0.667, HURT)],
}


@pytest.mark.parametrize("model", MODELS)
def test_the_duel_reads_these_exact_values_under_each_model(model: str) -> None:
    with Sandbox.from_scenario("duel", seed=3, model=model) as world:
        assert readings(world) == [(r[1], r[1], 1.0, UNHURT) for r in AFTER_TWO_TICKS[model]]
        world.step()
        world.step()
        assert readings(world) == AFTER_TWO_TICKS[model]
        world.run()
        assert readings(world) == AT_THE_END[model]


# ----------------------------------------------------------------------------------------------- the tables


# A first wound under each model, set up with no rolls: each leaves 0.75 to 0.83 of the model's number.
FIRST_WOUND: dict[str, dict[str, object]] = {
    "anatomy": {"location": "Left Forearm", "level": 1},  # health 80 of 100
    "severity": {"severity": 1, "effect": "bloody"},  # Threshold 3 of 4
    "depth": {"level": "flesh", "location": "Left Forearm", "aspect": "cutting"},  # a penalty of -1: 4 of 5
    "strength": {"damage": 2},  # health 8 of 10
    "status": {"damage": 8},  # slightly wounded: 5 rungs of 6
}


@pytest.mark.parametrize("model", MODELS)
def test_each_model_reads_its_tier_thresholds_from_its_toml(model: str, tmp_path: Path) -> None:
    """A tree that reads every fraction up to 0.9 as badly hurt: the same wound reads hurt, then badly hurt."""
    tree = tree_with(tmp_path, model, "[health_tiers]\nunhurt_at_least = 1.0\nbadly_hurt_at_most = 0.9\n")
    with Sandbox(seed=5, model=model) as shipped, Sandbox(seed=5, model=model, content=[tree]) as custom:
        for world in (shipped, custom):
            world.spawn("human", name="Hero")
            world.inflict("Hero", **FIRST_WOUND[model])
        ours, theirs = shipped.readout("Hero"), custom.readout("Hero")
        assert ours.health == theirs.health and 0.75 <= ours.health_fraction < 0.9
        assert (ours.tier, theirs.tier) == (HURT, BADLY_HURT)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("table", "wanted"), [
    ("badly_hurt_at_most = 0.6\nunhurt_at_least = 0.5\n",
     "health_tiers.badly_hurt_at_most: expected a fraction below unhurt_at_least (0.5), found 0.6"),
    ("badly_hurt_at_most = 1.5\n", "health_tiers.badly_hurt_at_most: expected less than or equal to 1, found 1.5"),
    ("unhurt_at_least = \"all\"\n", "health_tiers.unhurt_at_least: expected a valid number, found 'all'"),
    ("unhurt_at_leest = 1.0\n", "health_tiers.unhurt_at_leest: expected no such key"),
])
def test_a_bad_tier_table_is_a_config_error_naming_the_file_and_key(model: str, table: str, wanted: str,
                                                                    tmp_path: Path) -> None:
    tree = tree_with(tmp_path, model, "[health_tiers]\n" + table)
    with pytest.raises(ConfigError) as caught:
        catalog = load_catalog(content=[tree])
        Sandbox(model=model, catalog=catalog).close()
    text = str(caught.value)
    assert f"models/{model}.toml: {wanted}" in text, text


def test_one_fight_reads_the_same_way_under_every_model() -> None:
    """The duel under each model: whole at the start, only worse while it lasts, better (or dead) after rest."""
    for model in MODELS:
        with Sandbox.from_scenario("duel", seed=3, model=model) as world:
            names = list(world.names.values())
            before = {n: world.readout(n) for n in names}
            assert all((r.health_fraction, r.tier) == (1.0, UNHURT) for r in before.values()), model
            while len(world.able_teams()) > 1 and world.tick < 60:
                world.step()
                for n in names:
                    r = world.readout(n)
                    assert r.health_fraction <= before[n].health_fraction, (model, n, world.tick)
                    assert (r.tier == DEAD) == (not r.alive) and (r.tier == DOWN) == (r.alive and not r.can_act)
                    before[n] = r
            assert any(r.tier != UNHURT for r in before.values()), model  # somebody was hurt
            world.advance(days=10)
            for n in names:
                r = world.readout(n)
                if r.alive:
                    assert r.health_fraction >= before[n].health_fraction, (model, n)
                else:
                    assert (r.health_fraction, r.tier) == (0.0, DEAD)
