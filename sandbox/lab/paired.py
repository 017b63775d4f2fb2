"""Paired comparisons: the difference between two variants' win rates (or fight lengths) over the same runs.

Run i of every variant uses the same seeds and streams (common random numbers), so two variants' run i differ
only by what the patches changed, and their outcomes are correlated. A paired interval uses that correlation;
an unpaired one (what two independent labs would give) ignores it. Both are given, so the summary can say how much
narrower pairing made the interval (and how many fewer runs it saved: the square of the ratio).

Win rates: Newcombe's hybrid score intervals built from Wilson intervals, method 10 for paired proportions (with
the phi correlation of the 2x2 table) and method 10's independent form for unpaired ones (R. G. Newcombe,
"Improved confidence intervals for the difference between binomial proportions based on paired data", Statistics
in Medicine 17, 1998). Means: the normal interval of the mean paired difference, and Welch's for unpaired.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import Z95, wilson

__all__ = ["Difference", "paired_means", "paired_proportions", "proportions_of"]


@dataclass(frozen=True, slots=True)
class Difference:
    """A variant minus the baseline, with its paired and unpaired 95% intervals.

    Attributes:
        estimate: The difference (variant - baseline).
        paired: The paired interval (low, high).
        unpaired: The interval two independent samples of the same size would give.
        runs: Paired runs.
    """

    estimate: float
    paired: tuple[float, float]
    unpaired: tuple[float, float]
    runs: int

    @property
    def narrower(self) -> float:
        """How much narrower the paired interval is than the unpaired one (0.4: 40% narrower)."""
        wide = self.unpaired[1] - self.unpaired[0]
        return 1.0 - (self.paired[1] - self.paired[0]) / wide if wide > 0 else 0.0

    @property
    def run_saving(self) -> float:
        """The share of runs pairing saves for the same precision (intervals narrow as one over root n)."""
        wide = self.unpaired[1] - self.unpaired[0]
        return 1.0 - ((self.paired[1] - self.paired[0]) / wide) ** 2 if wide > 0 else 0.0

    def as_json(self) -> dict[str, object]:
        """JSON-ready figures."""
        return {"difference": self.estimate, "ci95_paired": list(self.paired), "ci95_unpaired": list(self.unpaired),
                "paired_narrower_by": self.narrower, "runs_saved_by_pairing": self.run_saving, "runs": self.runs}


def paired_proportions(both: int, first_only: int, second_only: int, neither: int, z: float = Z95) -> Difference:
    """The difference of two paired proportions, first - second (Newcombe's method 10), and the unpaired interval.

    Args:
        both: Pairs where both succeed.
        first_only: Pairs where only the first succeeds.
        second_only: Pairs where only the second succeeds.
        neither: Pairs where neither does.
        z: Normal quantile (default: 95% two-sided).
    """
    n = both + first_only + second_only + neither
    if n == 0:
        return Difference(0.0, (-1.0, 1.0), (-1.0, 1.0), 0)
    p1, p2 = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson(both + first_only, n, z)
    l2, u2 = wilson(both + second_only, n, z)
    margins = (both + first_only) * (second_only + neither) * (both + second_only) * (first_only + neither)
    phi = 0.0
    if margins > 0:
        cross = both * neither - first_only * second_only
        # Newcombe's continuity correction of phi for a positive association.
        adjusted = max(cross - n / 2, 0.0) if cross > 0 else cross
        phi = adjusted / math.sqrt(margins)
    theta = p1 - p2

    def spread(a: float, b: float, rho: float) -> float:
        return math.sqrt(max(a * a - 2 * rho * a * b + b * b, 0.0))

    paired = (max(-1.0, theta - spread(p1 - l1, u2 - p2, phi)), min(1.0, theta + spread(u1 - p1, p2 - l2, phi)))
    unpaired = (max(-1.0, theta - spread(p1 - l1, u2 - p2, 0.0)), min(1.0, theta + spread(u1 - p1, p2 - l2, 0.0)))
    return Difference(theta, paired, unpaired, n)


def paired_means(first: Sequence[float], second: Sequence[float], z: float = Z95) -> Difference:
    """The difference of two paired samples' means, first - second.

    The normal interval of the mean paired difference, and Welch's unpaired interval.

    Raises:
        ValueError: The samples differ in length.
    """
    if len(first) != len(second):
        raise ValueError("paired samples of different lengths")
    n = len(first)
    if n < 2:
        estimate = (first[0] - second[0]) if n else 0.0
        return Difference(estimate, (-math.inf, math.inf), (-math.inf, math.inf), n)
    diffs = [a - b for a, b in zip(first, second, strict=True)]
    estimate = statistics.fmean(diffs)
    half = z * statistics.stdev(diffs) / math.sqrt(n)
    apart = z * math.sqrt(statistics.variance(first) / n + statistics.variance(second) / n)
    return Difference(estimate, (estimate - half, estimate + half), (estimate - apart, estimate + apart), n)


def proportions_of(first: Sequence[bool], second: Sequence[bool]) -> Difference:
    """``paired_proportions`` from two paired sequences of outcomes."""
    both = first_only = second_only = 0
    for a, b in zip(first, second, strict=True):
        if a and b:
            both += 1
        elif a:
            first_only += 1
        elif b:
            second_only += 1
    return paired_proportions(both, first_only, second_only, len(first) - both - first_only - second_only)
