"""Solving for a target.

The parameter value at which a team's win rate reaches a target (``Red=0.5``), or two teams' win rates are equal
(``Red=Blue``).

The method: **bisection on common random numbers** (sample-average approximation). Every probe of the parameter
uses the same runs 0..n-1 (the same seeds and streams), so the estimated gap G_n(x) (the win rate less the target,
or one team's win rate less the other's) is one fixed, nearly monotone function of x, and bisection finds where it
crosses zero without the noise of independent samples tripping it. The 95% interval is found by inverting the test
of G(x) = 0: it holds the values x whose gap is not significantly different from zero (a Wilson interval of the win
rate that holds the target; for an even target, the normal interval of the paired gap), its ends found by bisection
too. When that interval is wider than ``--target-error`` the runs per probe double (the earlier runs are kept:
common random numbers across stages too) until it is narrow enough or ``--runs`` is reached. A whole-number key
(a skill, a protection, a dice modifier) is probed at whole numbers, and the crossing is interpolated between the
two that bracket it.

Two answers are not values. A key that changes none of the fights (every run ends the same at both ends of the
range: the scenario does not use it, or a combatant's own value overrides it) is refused before anything is
written. A target that the first stage's wide intervals could not rule out, but a later stage's narrower ones do
(the gap significantly on one side of zero at both ends), ends the solve as out of reach, with the win rates at
both ends at that stage, and no value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import LabError
from .plan import SolveSpec
from .runner import Engine, LabRun
from .stats import Z95, wilson
from .variants import Variant

__all__ = ["FIRST_RUNS", "Probe", "Solver", "probes_json"]

FIRST_RUNS = 200
"""Runs per probe in the first stage (fewer when ``--runs`` is smaller)."""


@dataclass(frozen=True, slots=True)
class Probe:
    """The gap at one parameter value over runs 0..n-1.

    Attributes:
        x: The parameter value.
        runs: Runs.
        gap: The estimated gap (win rate - target, or team - other team).
        low: The lower end of the gap's 95% interval.
        high: The upper end.
        rate: The team's win rate.
    """

    x: float
    runs: int
    gap: float
    low: float
    high: float
    rate: float


class Solver:
    """One solve under one model (see the module docstring).

    Args:
        lab: The lab (its tallies hold every probe's runs).
        engine: Runs the probes.
        spec: What to solve.
        model: The damage model.
        max_runs: The most runs per probe.
    """

    def __init__(self, lab: LabRun, engine: Engine, spec: SolveSpec, model: str, max_runs: int) -> None:
        self.lab = lab
        self.engine = engine
        self.spec = spec
        self.model = model
        self.max_runs = max_runs
        self.probes: list[Probe] = []
        self._variants: dict[float, Variant] = {}
        self._range: tuple[float, float, float] | None = None

    def variant(self, x: float) -> Variant:
        """The variant of the parameter at ``x``."""
        found = self._variants.get(x)
        if found is None:
            found = self._variants[x] = self.spec.numeric.variant(x, "solve:", self.spec.base)
        return found

    def probe(self, x: float, runs: int) -> Probe:
        """The gap at ``x`` over runs 0..runs-1 (running the ones not run yet)."""
        x = float(round(x)) if self.spec.numeric.integral else x
        variant = self.variant(x)
        chunk = self.lab.plan.chunk
        self.engine.evaluate((variant, self.model, range(s, min(s + chunk, runs))) for s in range(0, runs, chunk))
        tally = self.lab.tally(variant.name, self.model)
        assert tally.outcomes is not None
        outcomes = [tally.outcomes[r] for r in range(runs)]
        target = self.spec.target
        wins = sum(o.winner == target.team for o in outcomes)
        rate = wins / runs
        if target.versus is None:
            assert target.rate is not None
            low, high = wilson(wins, runs)
            probe = Probe(x, runs, rate - target.rate, low - target.rate, high - target.rate, rate)
        else:
            gaps = [(o.winner == target.team) - (o.winner == target.versus) for o in outcomes]
            mean = sum(gaps) / runs
            var = sum((g - mean) ** 2 for g in gaps) / max(1, runs - 1)
            half = Z95 * math.sqrt(var / runs) if var > 0 else 1.0 / runs
            probe = Probe(x, runs, mean, mean - half, mean + half, rate)
        self.probes.append(probe)
        return probe

    def _crossing(self, runs: int, a: float, b: float, value: Callable[[Probe], float], sign: float,
                  side: str = "root") -> float:
        """Where ``sign * value(probe)`` goes from below zero (at ``a``) to zero or above (at ``b``).

        Found by bisection on the probes over ``runs`` runs: interpolated between the last two (``side="root"``, and any
        side of a key that takes any number), else, for a whole-number key, the last value below (``"low"``) or the
        first at or above (``"high"``): the interval then claims nothing between the values it has seen.
        """
        pa, pb = self.probe(a, runs), self.probe(b, runs)
        va, vb = sign * value(pa), sign * value(pb)
        if va >= 0:
            return a
        if vb < 0:
            return b
        integral = self.spec.numeric.integral
        resolution = max(self.spec.error / 8, (self.spec.high - self.spec.low) * 1e-6)
        while (b - a > 1) if integral else (b - a > resolution):
            mid = math.floor((a + b) / 2) if integral else (a + b) / 2
            vm = sign * value(self.probe(mid, runs))
            if vm < 0:
                a, va = mid, vm
            else:
                b, vb = mid, vm
        if integral and side == "low":
            return a
        if integral and side == "high":
            return b
        return a + (b - a) * (-va) / (vb - va) if vb != va else (a + b) / 2

    def check_ends(self) -> None:
        """Probe both ends of the range (the first stage's runs) and check that the target lies between them.

        Raises:
            LabError: The range cannot reach the target (the win rates at both ends are in the message).
        """
        spec = self.spec
        runs = min(self.max_runs, FIRST_RUNS)
        lo, hi = spec.low, spec.high
        if spec.numeric.integral:
            lo, hi = float(math.ceil(lo)), float(math.floor(hi))
        ends = self.probe(lo, runs), self.probe(hi, runs)
        if self._same_fights(lo, hi, runs):
            raise LabError(f"--solve {spec.key} changes none of the fights over --between {spec.low:g} {spec.high:g} "
                           f"under {self.model}: each of the {runs} runs ends the same at both ends (does the "
                           "scenario use it? a combatant's own value in the scenario overrides its creature's)")
        sign = 1.0 if ends[1].gap >= ends[0].gap else -1.0
        if self._out_of_reach(ends, sign):
            raise LabError(f"--target {spec.target.describe()} is out of reach over --between {spec.low:g} "
                           f"{spec.high:g} under {self.model}: {self._ends(ends, lo, hi)} ({runs} runs each)")
        self._range = (lo, hi, sign)

    def _same_fights(self, lo: float, hi: float, runs: int) -> bool:
        """Whether every one of runs 0..runs-1 ends the same at ``lo`` as at ``hi``.

        On common random numbers, the parameter then changed nothing in them.
        """
        ends = [self.lab.tally(self.variant(x).name, self.model).outcomes for x in (lo, hi)]
        assert ends[0] is not None and ends[1] is not None
        return all(ends[0][r] == ends[1][r] for r in range(runs))

    @staticmethod
    def _out_of_reach(ends: tuple[Probe, Probe], sign: float) -> bool:
        """The gap is significantly on one side of zero at both ends of the range."""
        return sign * ends[0].low > 0 or sign * ends[1].high < 0

    def _ends(self, ends: tuple[Probe, Probe], lo: float, hi: float) -> str:
        target = self.spec.target
        what = f"{target.team} wins" if target.versus is None else f"{target.team} - {target.versus}"
        return f"{self._at(ends[0], what)} at {lo:g}, {self._at(ends[1], what)} at {hi:g}"

    def solve(self) -> dict[str, Any]:
        """Run the solve (after ``check_ends``)."""
        spec = self.spec
        if self._range is None:
            self.check_ends()
        assert self._range is not None
        lo, hi, sign = self._range
        runs = min(self.max_runs, FIRST_RUNS)
        stages: list[dict[str, Any]] = []
        value: float | None
        interval: list[float] | None
        while True:
            ends = self.probe(lo, runs), self.probe(hi, runs)
            if self._out_of_reach(ends, sign):  # the narrower intervals of a later stage rule the target out
                value, interval, half = None, None, math.inf
                reason = f"out of reach at {runs:,} runs per probe: {self._ends(ends, lo, hi)}"
                stages.append({"runs_per_probe": runs, "value": None, "ci95": None})
                break
            root = self._crossing(runs, lo, hi, lambda p: p.gap, sign)
            low = self._crossing(runs, lo, hi, lambda p: p.high if sign > 0 else p.low, sign, "low")
            high = self._crossing(runs, lo, hi, lambda p: p.low if sign > 0 else p.high, sign, "high")
            low, high = min(low, root), max(high, root)
            value, interval = root, [low, high]
            stages.append({"runs_per_probe": runs, "value": root, "ci95": interval})
            half = (high - low) / 2
            if half <= spec.error:
                reason = "target error met"
                break
            if runs >= self.max_runs:
                reason = "--runs reached before the target error"
                break
            runs = min(2 * runs, self.max_runs)
        total = sum(t.runs for (name, model), t in self.lab.tallies.items()
                    if model == self.model and name.startswith("solve:"))
        return {
            "model": self.model, "key": spec.key, "between": [spec.low, spec.high], "target": spec.target.describe(),
            "value": value, "ci95": interval, "half_width": half if value is not None else None,
            "target_error": spec.error, "value_as_content": self._as_content(value),
            "runs": total, "runs_per_probe": runs, "stopped": reason, "stages": stages,
            "probes": sorted({(p.x, p.runs): p for p in self.probes}.values(), key=lambda p: (p.runs, p.x)),
            "method": "bisection on common random numbers, interval by test inversion",
        }

    def _as_content(self, value: float | None) -> Any:
        """The value as the content writes it (a whole-number key: the two whole values around it)."""
        numeric = self.spec.numeric
        if value is None:
            return None
        if not numeric.integral:
            return numeric.patch(value)
        return f"between {numeric.patch(math.floor(value))} and {numeric.patch(math.ceil(value))}"

    def _at(self, probe: Probe, what: str) -> str:
        if self.spec.target.versus is None:
            return f"{what} {probe.rate:.1%} [{probe.low + (self.spec.target.rate or 0):.1%}, " \
                   f"{probe.high + (self.spec.target.rate or 0):.1%}]"
        return f"{what} {probe.gap:+.1%} [{probe.low:+.1%}, {probe.high:+.1%}]"


def probes_json(result: dict[str, Any]) -> dict[str, Any]:
    """The solve result with its probes as JSON-ready rows."""
    out = dict(result)
    out["probes"] = [{"x": p.x, "runs": p.runs, "gap": p.gap, "ci95": [p.low, p.high], "rate": p.rate}
                     for p in result["probes"]]
    return out
