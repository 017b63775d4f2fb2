"""Cost bounded by the input's size, not its numbers (issue 14, point 2): every numeric config key and option has
bounds in its schema, the README's table of them is generated and current, and no algorithm grows with a
threshold's, a coordinate's or a die's magnitude (the level lookup, the spatial grid, the exact odds)."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sandbox.systems.spatial as spatial
from sandbox.components.body import BodyStructure
from sandbox.config import default_catalog
from sandbox.schemas import schema_documents
from sandbox.systems.dice import parse_dice
from sandbox.systems.models.anatomy.blow import compile_target, resolve_blow
from sandbox.systems.models.anatomy.exact_odds import ExactOdds, dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.injury import injury_level
from sandbox.systems.spatial import Grid

ROOT = Path(__file__).resolve().parents[1]


def _numbers(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") in ("integer", "number"):
            found.append((path, node))
        for key, child in node.items():
            found += _numbers(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            found += _numbers(child, f"{path}[{i}]")
    return found


@pytest.mark.parametrize("name", sorted(schema_documents()))
def test_every_numeric_key_of_every_schema_has_a_minimum_and_a_maximum(name: str) -> None:
    numbers = _numbers(json.loads(schema_documents()[name]))
    unbounded = [path for path, node in numbers if not ({"minimum", "exclusiveMinimum"} & set(node)
                                                        and {"maximum", "exclusiveMaximum"} & set(node))]
    assert unbounded == [], f"{name}: numbers without both bounds: {unbounded}"


def test_the_schemas_hold_hundreds_of_bounded_numbers() -> None:
    assert sum(len(_numbers(json.loads(text))) for text in schema_documents().values()) > 300


def test_every_range_checked_cli_option_has_both_bounds() -> None:
    import typer

    from sandbox.cli import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    for command in ("run", "blows"):
        for param in commands[command].params:
            if param.name in ("seed", "ticks", "aftermath", "impact", "strength", "shock_ml", "strength_ml", "n"):
                assert param.min is not None and param.max is not None, (command, param.name)


def test_the_readmes_bounds_table_is_generated_and_current() -> None:
    sys.path.insert(0, str(ROOT))
    from docs.bounds_table import END, START, current, table

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert START in text and END in text
    assert current(text) == text, "README.md's bounds table is stale: run python docs/bounds_table.py"
    generated = table()
    assert "`combat.grid_cell` | 0.5 to 1,000" in generated
    assert "`combat.tick_seconds` | 1 to 60" in generated
    assert "`aftercare.bleed_interval_minutes`, `aftercare.unconscious_retest_minutes` | 1 to" in generated
    assert "| `sandbox blows` | `--strength` | 0 to 1,000 |" in generated
    proc = subprocess.run([sys.executable, str(ROOT / "docs" / "bounds_table.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr


# ----------------------------------------------------------------------------------------------- the level


@settings(max_examples=200, deadline=None)
@given(steps=st.lists(st.floats(min_value=0.01, max_value=1e9, allow_nan=False), min_size=5, max_size=5),
       effective=st.integers(min_value=0, max_value=10**12))
def test_the_level_by_bisection_is_the_rules_level(steps: list[float], effective: int) -> None:
    thresholds = list(itertools.accumulate(steps))
    if any(b <= a for a, b in itertools.pairwise(thresholds)):
        return
    from bisect import bisect_right

    assert bisect_right(thresholds, effective) == injury_level(effective, thresholds)


def _giant(catalog: Any, thresholds: tuple[float, ...]) -> BodyStructure:
    from dataclasses import replace

    return replace(catalog.bodies["human"], thresholds=thresholds, scale=1.0)


def test_a_target_with_thresholds_in_the_billions_is_as_small_as_any() -> None:
    """The attack's body (thresholds 1e9 .. 5e9) built a table of five billion levels; the target now holds its
    five thresholds, and its blows read the rules' level."""
    catalog = default_catalog()
    thresholds = (1e9, 2e9, 3e9, 4e9, 5e9)
    target = compile_target(_giant(catalog, thresholds), catalog.rules, shock_ml=50, strength_ml=50, fumble_ml=50,
                            stumble_ml=50)
    sizes = {name: len(value) for name in target.__slots__ if isinstance(value := getattr(target, name), tuple)}
    assert max(sizes.values()) <= max(len(target.body.locations), 100), sizes
    assert target.thresholds == thresholds
    rng = random.Random(3)
    for impact in (0, 10**9 - 1, 10**9, 3 * 10**9 + 5, 10**10):
        blow = resolve_blow(target, impact, 1, rng, location=0)
        assert blow.level == (0 if blow.glancing else injury_level(impact, thresholds))


# ------------------------------------------------------------------------------------------ the spatial grid


def _points(seed: int, n: int, scale: float) -> list[tuple[int, float, float, str]]:
    rng = random.Random(seed)
    return [(i, rng.uniform(0, scale), rng.uniform(0, scale), rng.choice("AB")) for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 40), scale=st.sampled_from([5.0, 20.0, 50.0]),
       cell=st.sampled_from([0.5, 1.0, 2.5, 7.0]), x=st.floats(-1.0, 2.0), y=st.floats(-1.0, 2.0),
       radius=st.floats(0, 2.0))
def test_ranking_the_occupied_cells_answers_as_walking_the_rings(seed: int, n: int, scale: float, cell: float,
                                                                 x: float, y: float, radius: float) -> None:
    # The query is placed relative to the field (x, y and radius in field widths), and the field is at most a few
    # hundred cells across: walking the rings, the reference answer, costs the square of the cells to the nearest
    # creature, which a query kilometres away at a half-metre cell makes hours (the next test covers that case).
    x, y, radius = x * scale, y * scale, radius * scale
    points = _points(seed, n, scale)
    answers = []
    for limit in (10**18, 0):  # always walk the rings; always rank the occupied cells
        old = spatial.WALK_LIMIT
        spatial.WALK_LIMIT = limit
        try:
            grid = Grid(cell, points)
            answers.append((grid.nearest(x, y, lambda e, t: t == "A"), grid.nearest(x, y),
                            grid.within(x, y, radius, lambda e, t: t == "B"), grid.within(x, y, radius)))
        finally:
            spatial.WALK_LIMIT = old
    assert answers[0] == answers[1]


def test_a_query_far_from_everything_visits_the_occupied_cells_not_the_empty_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack's ``grid_cell = 1e-300`` spun in the coarse search, and a field of 1e5 x 1e5 took 79 s a tick:
    walking rings out to a seeker kilometres away visits millions of empty cells. Each query now looks at no more
    cells than a few times the occupied ones."""
    visited = [0]
    real = Grid._ring_keys

    def counting(cx: int, cy: int, r: int) -> Any:
        for key in real(cx, cy, r):
            visited[0] += 1
            yield key

    monkeypatch.setattr(Grid, "_ring_keys", staticmethod(counting))
    points = [(i, 90_000.0 + i, 90_000.0, "A") for i in range(20)]
    grid = Grid(0.5, points)
    for seeker in ((0.0, 0.0), (45_000.0, 100.0), (-10.0, 99_999.0)):
        entity, distance = grid.nearest(*seeker)
        assert entity >= 0 and math.isfinite(distance)
        assert len(grid.within(*seeker, 200_000.0)) == 20
    assert visited[0] <= 20 * spatial.WALK_LIMIT * 4


def test_a_battle_on_the_largest_field_with_the_smallest_cell_still_fights() -> None:
    from sandbox.world import Sandbox

    with Sandbox(seed=1) as world:
        world.spawn("human", name="A", team="A", position=(0.0, 0.0), weapons=["longbow"])
        world.spawn("human", name="B", team="B", position=(99_999.0, 99_999.0))
        world.spawn("human", name="C", team="B", position=(3.0, 0.0))
        world.run(max_ticks=5)
        assert world.tick == 5
        assert {e.to_dict()["type"] for e in world.events} >= {"AttackDeclared", "BlowLanded"}


# ------------------------------------------------------------------------------------------- the exact odds


@pytest.mark.parametrize("expression", ["1d6", "2d6+1", "3d4-2", "4", "1d1+2", "2d10-30"])
def test_convolved_dice_equal_the_enumerated_rolls(expression: str) -> None:
    dice = parse_dice(expression)
    counts: dict[int, Fraction] = {}
    faces = range(1, dice.sides + 1)
    for rolls in itertools.product(faces, repeat=dice.count):
        total = sum(rolls) + dice.modifier + 3
        counts[total] = counts.get(total, Fraction(0)) + Fraction(1, dice.sides ** dice.count)
    got = dice_distribution(dice, bonus=3)
    assert set(got) == set(counts)
    for total, p in counts.items():
        assert got[total] == pytest.approx(float(p), abs=1e-12)


def test_the_largest_dice_the_schema_allows_have_their_mean_and_spread() -> None:
    dice = parse_dice("100d1000+1000")
    dist = dice_distribution(dice)
    mean = sum(v * p for v, p in dist.items())
    variance = sum((v - mean) ** 2 * p for v, p in dist.items())
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-9)
    assert mean == pytest.approx(100 * 1001 / 2 + 1000, rel=1e-9)
    assert variance == pytest.approx(100 * (1000**2 - 1) / 12, rel=1e-6)
    assert min(dist) >= 1100 and max(dist) <= 101_000


def _weighted(odds: list[tuple[float, ExactOdds]]) -> dict[str, Any]:
    total: dict[str, Any] = {}
    for weight, o in odds:
        for name in ("missed", "dead", "glancing", "bleeder"):
            total[name] = total.get(name, 0.0) + weight * getattr(o, name)
        for name in ("level", "shock"):
            row = total.setdefault(name, [0.0] * len(getattr(o, name)))
            for i, p in enumerate(getattr(o, name)):
                row[i] += weight * p
        for name in ("location", "amputation", "fumble", "stumble"):
            table = total.setdefault(name, {})
            for k, p in getattr(o, name).items():
                table[k] = table.get(k, 0.0) + weight * p
    return total


@pytest.mark.parametrize(("mode", "armor"), [("broadsword.cut", ("mail_hauberk", "helm")),
                                             ("battleaxe.cut", ()), ("mace.crush", ("plate_cuirass",))])
def test_the_odds_summed_by_level_are_the_odds_summed_by_impact(mode: str, armor: tuple[str, ...]) -> None:
    catalog = default_catalog()
    target = compile_target(catalog.bodies["human"], catalog.rules, [catalog.armor[a] for a in armor], shock_ml=45,
                            strength_ml=50, fumble_ml=40, stumble_ml=40)
    strike = catalog.modes[mode]
    dist = dice_distribution(strike.impact, 2)
    whole = exact_blow_odds(target, dist, int(strike.aspect))
    per_impact = [(p, exact_blow_odds(target, {impact: 1.0}, int(strike.aspect))) for impact, p in dist.items()]
    expected = _weighted(per_impact)
    got = _weighted([(1.0, whole)])
    for name, value in expected.items():
        if isinstance(value, list):
            assert got[name] == pytest.approx(value, abs=1e-12), name
        elif isinstance(value, dict):
            assert set(got[name]) == {k for k, p in value.items() if p > 0} | set(got[name]), name
            for k, p in value.items():
                assert got[name].get(k, 0.0) == pytest.approx(p, abs=1e-12), (name, k)
        else:
            assert got[name] == pytest.approx(value, abs=1e-12), name


def test_blows_exact_of_the_largest_dice_answers(tmp_path: Path) -> None:
    """The attack's ``impact = "100d1000+1000"`` (inside the dice bound) ran ``blows --exact`` for over 580 s;
    it is a convolution now (``benchmarks/bounds.py`` measures it: a fraction of a second)."""
    tree = tmp_path / "big"
    (tree / "weapons").mkdir(parents=True)
    (tree / "content.toml").write_text('name = "big"\nversion = "1"\nextends = "sandbox"\n', encoding="utf-8")
    sword = (ROOT / "configs" / "weapons" / "broadsword.toml").read_text(encoding="utf-8")
    (tree / "weapons" / "broadsword.toml").write_text(sword.replace('"1d10+3"', '"100d1000+1000"'), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "sandbox", "blows", "--exact", "--mode", "broadsword.cut",
                           "--content", str(tree)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "100d1000+1000" in proc.stdout and "G5" in proc.stdout
