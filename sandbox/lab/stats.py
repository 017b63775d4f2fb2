"""The lab's statistics.

Wilson intervals for win rates, quantiles of fight lengths kept as tick counts, and the running tallies of a model's
runs (small and fixed in size, whatever the number of runs).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Z95", "ModelTally", "RunOutcome", "counted_quantile", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    Use it for win rates: unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or ``n``
    successes.

    Args:
        successes: Successes counted.
        trials: Trials run (0 gives the whole interval, (0, 1)).
        z: Normal quantile (default: 95% two-sided).

    Returns:
        (low, high).

    Raises:
        ValueError: ``successes`` outside 0..``trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def counted_quantile(counts: Mapping[int, int], q: float) -> float:
    """The ``q`` quantile (linear interpolation, as numpy's default) of values given as value -> count.

    Raises:
        ValueError: No values, or ``q`` outside [0, 1].
    """
    total = sum(counts.values())
    if total == 0:
        raise ValueError("no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} outside [0, 1]")
    position = (total - 1) * q
    lower, upper = math.floor(position), math.ceil(position)
    seen = 0
    low_value = high_value = None
    for value in sorted(counts):
        seen += counts[value]
        if low_value is None and seen > lower:
            low_value = value
        if seen > upper:
            high_value = value
            break
    assert low_value is not None and high_value is not None
    return low_value + (high_value - low_value) * (position - lower)


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What the paired comparisons keep of one run.

    Attributes:
        winner: The winning team ("" for none).
        ticks: Fight length.
        deaths: Team -> its creatures dead at the end.
    """

    winner: str
    ticks: int
    deaths: Mapping[str, int]


@dataclass(slots=True)
class ModelTally:
    """What the lab keeps of one variant's runs under one model.

    Counts, so memory stays flat however many runs, and (for paired comparisons) each run's outcome.

    Attributes:
        runs: Runs counted.
        wins: Team -> runs it won.
        reasons: How runs ended -> runs.
        ticks: Fight length in ticks -> runs.
        deaths: Team -> creatures dead at the end, over all runs.
        out: Team -> creatures alive but unable to act at the end, over all runs.
        hits: (body, location) -> landed blows there (the models that place blows on the anatomy).
        injuries: Injury level (anatomy), depth tier (depth) or damage band (point models) -> wounds.
        outcomes: Run index -> its outcome (``None``: not kept, a lab with nothing to pair).
    """

    runs: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    ticks: Counter[int] = field(default_factory=Counter)
    deaths: Counter[str] = field(default_factory=Counter)
    out: Counter[str] = field(default_factory=Counter)
    hits: Counter[tuple[str, str]] = field(default_factory=Counter)
    injuries: Counter[str] = field(default_factory=Counter)
    outcomes: dict[int, RunOutcome] | None = None

    def interval(self, team: str) -> tuple[float, float]:
        """The 95% Wilson interval of ``team``'s win rate."""
        return wilson(self.wins[team], self.runs)

    def rate(self, team: str) -> float:
        """``team``'s win rate (0 before any run)."""
        return self.wins[team] / self.runs if self.runs else 0.0

    @property
    def no_winner(self) -> int:
        """Runs no team won."""
        return self.runs - sum(self.wins.values())

    def widest_half_width(self, teams: Sequence[str]) -> float:
        """The largest half-width among the teams' win-rate intervals (1.0 before any run)."""
        if self.runs == 0:
            return 1.0
        return max((high - low) / 2 for low, high in (self.interval(t) for t in teams))

    def summary(self, teams: Sequence[str]) -> dict[str, object]:
        """These runs' figures as JSON-ready data."""
        wins = {}
        for team in teams:
            low, high = self.interval(team)
            wins[team] = {"wins": self.wins[team], "rate": self.wins[team] / self.runs if self.runs else None,
                          "ci95": [low, high]}
        length: dict[str, float | None] = dict.fromkeys(("median", "q1", "q3", "mean"))
        if self.runs:
            length = {"median": counted_quantile(self.ticks, 0.5), "q1": counted_quantile(self.ticks, 0.25),
                      "q3": counted_quantile(self.ticks, 0.75),
                      "mean": sum(t * c for t, c in self.ticks.items()) / self.runs}
        hits: dict[str, dict[str, int]] = {}
        for (body, location), count in sorted(self.hits.items()):
            hits.setdefault(body, {})[location] = count
        return {
            "runs": self.runs,
            "wins": wins,
            "no_winner": self.no_winner,
            "no_winner_rate": self.no_winner / self.runs if self.runs else None,
            "reasons": dict(sorted(self.reasons.items())),
            "ticks": length,
            "deaths": {t: self.deaths[t] for t in teams},
            "incapacitated": {t: self.out[t] for t in teams},
            "hit_locations": hits,
            "injury_mix": dict(sorted(self.injuries.items())),
        }
