"""A small soak (``benchmarks/soak.py``): 200 skirmishes of the duel, the skirmish and the wolf pack across every
damage model and a few run indices, in two worker processes, invariants checked every tick, every tenth run carried
30 days past the fight: no exception, no invariant breach."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_soak_200_skirmishes_without_exception_or_breach() -> None:
    sys.path.insert(0, str(BENCHMARKS))  # benchmarks/ is no package; the forked workers inherit the module
    try:
        import soak
    finally:
        sys.path.remove(str(BENCHMARKS))
    result = soak.soak(200, jobs=2, scenarios=("duel", "skirmish", "wolf_pack"), seed=0, chunk=10)
    assert result.runs == 200
    assert result.exceptions == []
    assert result.breaches == []
    assert result.breach_count == 0
    assert result.slowest[1]
