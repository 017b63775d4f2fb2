"""The vectorised blow pipeline against the per-event one, both against the exact odds, and the CLI wiring.

The two paths draw different random numbers, so they are compared as distributions: chi-square tests with fixed
seeds (two-sample against the per-event path, goodness of fit against the exact table). A threshold of p < 1e-4
keeps the fixed seeds far from a flaky edge while still catching any rule the vectorised path gets wrong (a
wrong table entry moves a category by far more than the sampling noise of 10^5 blows).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

import numpy as np
import pytest
from typer.testing import CliRunner

import sandbox.vector_odds
from sandbox.blows import BlowSetup, Odds, seeded_blows
from sandbox.cli import app
from sandbox.components.body import Aspect
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.config import Catalog
from sandbox.systems.dice import roll_dice
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy.blow import resolve_blow, with_tests
from sandbox.systems.models.anatomy.exact_odds import ExactOdds, dice_distribution
from sandbox.systems.models.anatomy.vector_blows import resolve_blows, roll_dice_array
from sandbox.vector_odds import exact_odds, numpy_stream, resolve_chunk, vector_odds

P_MIN = 1e-4
EVENT_N = 40_000
VECTOR_N = 200_000

SETUPS: dict[str, dict[str, object]] = {
    "broadsword vs mail+helm": {"mode": "broadsword.cut", "armor": ["mail_hauberk", "helm"]},
    "battleaxe at the head": {"mode": "battleaxe.cut", "aim": "Head"},
    "forced forearm G5": {"impact": 22, "aspect": "edged", "location": "Left Forearm", "strength_ml": 50},
    "forced skull S3": {"impact": 12, "aspect": "edged", "location": "Skull"},
    "dragon claw vs dragon": {"body": "fire_dragon", "mode": "dragon.claw", "strength": 48},
    "battleaxe at the right leg, spread 8": {"mode": "battleaxe.cut", "armor": ["helm"],
                                              "aim": "Right Leg"},
}


def build(catalog: Catalog, name: str) -> BlowSetup:
    options = dict(SETUPS[name])
    body = catalog.bodies[str(options.pop("body", "human"))]
    return BlowSetup.build(catalog, body=body, **options)  # type: ignore[arg-type]


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty; ample for a 1e-4 threshold)."""
    if df <= 0:
        return 1.0
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def two_sample_p(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Chi-square test that two samples of counts share one distribution (sparse cells pooled)."""
    na, nb = sum(a.values()), sum(b.values())
    keys = sorted(set(a) | set(b))
    rows: list[tuple[float, float]] = []
    pooled = [0.0, 0.0]
    for k in keys:
        ca, cb = a.get(k, 0), b.get(k, 0)
        if (ca + cb) * min(na, nb) / (na + nb) < 10:
            pooled[0] += ca
            pooled[1] += cb
        else:
            rows.append((ca, cb))
    if sum(pooled) > 0:
        rows.append((pooled[0], pooled[1]))
    if len(rows) < 2:
        return 1.0
    stat = 0.0
    for ca, cb in rows:
        total = ca + cb
        for observed, n in ((ca, na), (cb, nb)):
            expected = total * n / (na + nb)
            stat += (observed - expected) ** 2 / expected
    return chi2_sf(stat, len(rows) - 1)


def fit_p(counts: Mapping[str, float], probs: Mapping[str, float], n: int) -> float:
    """Chi-square goodness of fit of counts to exact probabilities (no count where the chance is 0)."""
    for k, c in counts.items():
        if c and probs.get(k, 0.0) <= 0:
            return 0.0
    stat, cells, pooled_o, pooled_e = 0.0, 0, 0.0, 0.0
    for k, p in probs.items():
        expected = n * p
        if expected <= 0:
            continue
        if expected < 10:
            pooled_o += counts.get(k, 0)
            pooled_e += expected
            continue
        stat += (counts.get(k, 0) - expected) ** 2 / expected
        cells += 1
    if pooled_e > 0:
        stat += (pooled_o - pooled_e) ** 2 / pooled_e
        cells += 1
    return chi2_sf(stat, cells - 1)


def distributions(odds: Odds) -> dict[str, dict[str, float]]:
    """The compared distributions of an ``Odds``, each over all blows."""
    landed = odds.n - odds.missed
    return {
        "location": {**odds.location, "(missed)": odds.missed},
        "level": {**odds.level, "(missed)": odds.missed},
        "bleeder": {"yes": odds.bleeder, "no": odds.n - odds.bleeder},
        "glancing": {"yes": odds.glancing, "no": odds.n - odds.glancing},
        "amputation": {**odds.amputation, "(missed)": odds.missed},
        "shock": {**odds.shock, "(missed)": odds.missed},
        "fumble": {**odds.fumble, "(missed)": odds.missed},
        "stumble": {**odds.stumble, "(missed)": odds.missed},
        "dead": {"yes": odds.dead, "no": odds.n - odds.dead},
        "landed": {"yes": landed, "no": odds.missed},
    }


def exact_distributions(exact: ExactOdds, setup: BlowSetup) -> dict[str, dict[str, float]]:
    """The same distributions from the exact table."""
    names = setup.body.locations
    return {
        "location": {**{names[li].name: p for li, p in exact.location.items()}, "(missed)": exact.missed},
        "level": {**dict(zip(LEVEL_CODES, exact.level, strict=True)), "(missed)": exact.missed},
        "bleeder": {"yes": exact.bleeder, "no": 1 - exact.bleeder},
        "glancing": {"yes": exact.glancing, "no": 1 - exact.glancing},
        "amputation": {**exact.amputation, "(missed)": exact.missed},
        "shock": {**{s.label: exact.shock[s] for s in ShockState}, "(missed)": exact.missed},
        "fumble": {**exact.fumble, "(missed)": exact.missed},
        "stumble": {**exact.stumble, "(missed)": exact.missed},
        "dead": {"yes": exact.dead, "no": 1 - exact.dead},
        "landed": {"yes": 1 - exact.missed, "no": exact.missed},
    }


@pytest.fixture(scope="module")
def runs(catalog: Catalog) -> dict[str, tuple[BlowSetup, Odds, Odds]]:
    """Per setup: the setup, per-event odds and vectorised odds, from fixed seeds."""
    out = {}
    for name in SETUPS:
        setup = build(catalog, name)
        per_event = Odds()
        for result in seeded_blows(setup, EVENT_N, 11):
            per_event.add(result, setup.body)
        out[name] = (setup, per_event, vector_odds(setup, VECTOR_N, 12))
    return out


@pytest.mark.parametrize("name", list(SETUPS))
def test_vectorised_matches_per_event(runs: dict[str, tuple[BlowSetup, Odds, Odds]], name: str) -> None:
    _, per_event, vector = runs[name]
    a, b = distributions(per_event), distributions(vector)
    for key in a:
        p = two_sample_p(a[key], b[key])
        assert p > P_MIN, f"{name}: {key} differs (p={p:.2g}): per-event {a[key]} vs vectorised {b[key]}"


@pytest.mark.parametrize("name", list(SETUPS))
def test_simulation_matches_the_exact_table(runs: dict[str, tuple[BlowSetup, Odds, Odds]], name: str) -> None:
    setup, per_event, vector = runs[name]
    expected = exact_distributions(exact_odds(setup), setup)
    for key, probs in expected.items():
        assert sum(probs.values()) == pytest.approx(1.0), key
        for label, odds in (("vectorised", vector), ("per-event", per_event)):
            observed = distributions(odds)[key]
            p = fit_p(observed, probs, odds.n)
            assert p > P_MIN, f"{name}: {label} {key} off the exact odds (p={p:.2g}): {observed} vs {probs}"


def test_setups_exercise_every_branch(runs: dict[str, tuple[BlowSetup, Odds, Odds]]) -> None:
    seen: Counter[str] = Counter()
    for _, _, vector in runs.values():
        seen.update(k for k, v in vector.amputation.items() if v)
        seen.update(k for k, v in vector.shock.items() if v)
        seen.update(k for k, v in vector.fumble.items() if v)
        seen.update(k for k, v in vector.stumble.items() if v)
        seen["glancing"] += vector.glancing
        seen["missed"] += vector.missed
    for key in ("kept", "severed", "stunned", "incapacitated", "unconscious", "dead", "roll -> flung",
                "auto -> prone", "roll -> kept", "glancing", "missed"):
        assert seen[key], key


def test_forced_location_fixed_impact_is_deterministic_but_for_the_tests(catalog: Catalog) -> None:
    setup = build(catalog, "forced skull S3")
    blows = resolve_chunk(setup, 5000, np.random.default_rng(3))
    skull = setup.body.location_index("Skull")
    assert set(blows.location.tolist()) == {skull} and not blows.missed.any()
    assert set(blows.level.tolist()) == {3} and set(blows.shock_index.tolist()) == {8}
    by_test = dict(zip(blows.shock_test.tolist(), blows.shock_state.tolist(), strict=True))
    assert by_test == {0: ShockState.DEAD, 1: ShockState.UNCONSCIOUS, 2: ShockState.INCAPACITATED,
                       3: ShockState.STUNNED}
    assert (blows.dead == (blows.shock_state == ShockState.DEAD)).all()


def test_every_field_agrees_with_resolve_blow_for_a_forced_blow(catalog: Catalog) -> None:
    """Where the d100 tests are fixed (ML 5 or 95 leaves no doubt about the test bands the rolls fall in), the
    vectorised record and the per-event one agree field by field at every location."""
    body = catalog.bodies["human"]
    for aspect in Aspect:
        for impact in (3, 9, 14, 18, 26):
            setup = BlowSetup.build(catalog, body=body, impact=impact, aspect=aspect.name.lower(),
                                    armor=["mail_hauberk", "helm"])
            target = setup.target
            for loc in range(len(body.locations)):
                single = resolve_blow(target, impact, int(aspect), np.random.default_rng(0), location=loc)
                arrays = resolve_blows(target, np.array([impact]), int(aspect), np.random.default_rng(0),
                                       location=loc)
                assert arrays.protection[0] == single.protection
                assert arrays.effective_impact[0] == single.effective_impact
                assert arrays.level[0] == single.level and bool(arrays.glancing[0]) == single.glancing
                assert arrays.shock_index[0] == single.shock_index
                assert (arrays.amputation_test[0] >= 0) == (single.amputation_test is not None)
                assert ["none", "roll", "auto"][arrays.fumble[0]] == single.fumble
                assert ["none", "roll", "auto"][arrays.stumble[0]] == single.stumble
                if single.amputation_test is None:
                    assert bool(arrays.bleeder[0]) == single.bleeder


def test_compounding_against_existing_wounds(catalog: Catalog) -> None:
    setup = build(catalog, "forced skull S3")
    skull = setup.body.location_index("Skull")
    for existing, compound in (([2], True), ([3], True), ([2, 2], False)):
        target = with_tests(setup.target, shock_ml=50, strength_ml=50, fumble_ml=50, stumble_ml=50,
                            existing_levels={skull: existing})
        blows = resolve_blows(target, np.full(100, 12), int(Aspect.EDGED), np.random.default_rng(1),
                              location=skull)
        assert set(blows.compound.tolist()) == {compound}


def test_spirit_always_misses(catalog: Catalog) -> None:
    setup = BlowSetup.build(catalog, body=catalog.bodies["spirit"], mode="unarmed.punch")
    blows = resolve_chunk(setup, 1000, np.random.default_rng(0))
    assert blows.missed.all() and (blows.location == MISS).all() and (blows.zone_number == 0).all()
    assert not blows.dead.any() and (blows.level == 0).all()
    assert exact_odds(setup).missed == 1.0


def test_impact_roll_matches_the_dice(catalog: Catalog) -> None:
    mode = catalog.modes["dragon.claw"]
    rolled = roll_dice_array(mode.impact, 200_000, np.random.default_rng(5))
    exact = dice_distribution(mode.impact)
    assert set(np.unique(rolled).tolist()) == set(exact)
    counts = Counter(rolled.tolist())
    assert fit_p({str(k): v for k, v in counts.items()}, {str(k): p for k, p in exact.items()}, 200_000) > P_MIN
    import random

    rng = random.Random(5)
    scalar = Counter(roll_dice(mode.impact, rng) for _ in range(20_000))
    assert two_sample_p({str(k): v for k, v in scalar.items()}, {str(k): v for k, v in counts.items()}) > P_MIN


def test_same_seed_same_vector_odds(catalog: Catalog) -> None:
    setup = build(catalog, "broadsword vs mail+helm")
    assert vector_odds(setup, 50_000, 4) == vector_odds(setup, 50_000, 4)
    assert vector_odds(setup, 50_000, 4) != vector_odds(setup, 50_000, 5)
    assert numpy_stream(4).random() != numpy_stream(5).random()


# ------------------------------------------------------------------------------------------------------ CLI

runner = CliRunner()


def test_cli_exact_table() -> None:
    result = runner.invoke(app, ["blows", "--impact", "12", "--aspect", "edged", "--location", "Skull", "--exact"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Exact odds per blow" in out and "sampl" not in out
    for heading in ("Location", "Level", "Shock state", "Amputation", "Mishap (fumble)"):
        assert heading in out
    assert "Skull" in out and "100.00%" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert lines["S3"][1] == "1.000000"
    assert float(lines["stunned"][1]) + float(lines["incapacitated"][1]) + float(lines["unconscious"][1]) \
        + float(lines["dead"][1]) == pytest.approx(1.0)


def test_cli_exact_refuses_jsonl() -> None:
    result = runner.invoke(app, ["blows", "--mode", "broadsword.cut", "--exact", "--format", "jsonl"])
    assert result.exit_code == 2 and "--exact" in result.stderr


def test_cli_large_table_runs_vectorised(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def spy(setup: BlowSetup, n: int, seed: int) -> Odds:
        calls.append(n)
        return vector_odds(setup, n, seed)

    monkeypatch.setattr(sandbox.vector_odds, "vector_odds", spy)  # the command imports it when it runs
    result = runner.invoke(app, ["blows", "--mode", "broadsword.cut", "-n", "100000", "--seed", "2"])
    assert result.exit_code == 0, result.stderr
    assert calls == [100_000] and "100000 blows" in result.stdout and "Shock state" in result.stdout
    result = runner.invoke(app, ["blows", "--mode", "broadsword.cut", "-n", "5000"])
    assert result.exit_code == 0 and calls == [100_000]
