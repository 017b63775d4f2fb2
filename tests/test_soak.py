"""A small soak (``benchmarks/soak.py``): 200 skirmishes over generated worlds (``tests/configgen.py``), 40 under
each damage model, in two worker processes, invariants checked every tick, every tenth run carried 30 days past
the fight: no exception, no invariant breach. And a short soak of the shipped scenarios, the same way."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # benchmarks/ is no package; the forked workers inherit the module
    try:
        import soak
    finally:
        sys.path.remove(str(BENCHMARKS))
    return soak


def test_soak_200_generated_skirmishes_without_exception_or_breach(soak: ModuleType) -> None:
    result = soak.soak(200, jobs=2, seed=0, chunk=10)
    assert result.runs == 200
    assert result.exceptions == []
    assert result.breaches == []
    assert result.breach_count == 0
    assert result.by_model == {"anatomy": 40, "depth": 40, "severity": 40, "status": 40, "strength": 40}
    assert result.slowest[1].startswith("generated/")
    assert sum(result.by_reason.values()) == 200 and "failed" not in result.by_reason


def test_soak_of_the_shipped_scenarios(soak: ModuleType) -> None:
    result = soak.soak(30, jobs=2, worlds="shipped", scenarios=("duel", "skirmish", "wolf_pack"), seed=0, chunk=5)
    assert result.runs == 30
    assert result.exceptions == [] and result.breaches == []
    assert set(result.by_model) == {"anatomy", "depth", "severity", "status", "strength"}


def test_a_run_replays_alone(soak: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert soak.main(["--index", "3", "--seed", "0", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "generated/status/seed 0/run 3:" in out  # run 3 of five models: the fourth, status
    assert (tmp_path / "scenarios" / "gen_scenario.toml").exists()
    assert (tmp_path / "models" / "status.toml").exists()
