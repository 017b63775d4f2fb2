"""The array engine plays by the esper engine's rules: for every shipped scenario it runs, the win rate, the fight
length, deaths and incapacitations per side, the injury-level mix and the hit-location mix agree by two-sample
tests (alpha 1e-3, fixed seeds: a correct engine never fails them). ``benchmarks/engines_agree.py`` is the
2,000-fight version.

The engines draw from different streams (each its own layout), so the fights differ one by one; only the
distributions must agree. The sizes keep the whole check near a minute of CPU.
"""

from __future__ import annotations

import pytest

from benchmarks.engines_agree import compare, sample

ALPHA = 1e-3
RUNS = {"duel": 120, "skirmish": 60, "wolf_pack": 50, "bestiary": 30, "battle": 4}


@pytest.mark.parametrize("scenario", list(RUNS))
def test_array_engine_agrees_with_esper(scenario: str) -> None:
    runs = RUNS[scenario]
    esper = sample(scenario, "esper", runs, seed=11)
    array = sample(scenario, "array", runs, seed=12)
    p = compare(esper, array)
    assert min(p.values()) > ALPHA, p


def test_a_different_engine_would_be_caught() -> None:
    """The check has teeth: the duel against a duel with a stronger swordsman differs in the win rate."""
    from collections import Counter

    from benchmarks.engines_agree import _categorical

    even = Counter({"Red": 60, "Blue": 60})
    lopsided = Counter({"Red": 100, "Blue": 20})
    assert _categorical(even, lopsided) < ALPHA
