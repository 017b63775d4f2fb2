"""The array engine against the esper engine, by distribution: for each shipped scenario the array engine runs,
``runs`` fights on each engine (run i: seed S, run index i) and two-sample tests of the win rate, the fight length,
the deaths and incapacitations per side, the injury-level mix and the hit-location mix (the fight as the unit).
Prints the p-values (small ones would say the engines differ; the suite's version, ``tests/test_engines_agree.py``,
asserts them above 1e-3).

Run: ``python benchmarks/engines_agree.py [--runs 2000] [--seed 0] [--only duel,skirmish]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy import stats

if TYPE_CHECKING:
    from sandbox.components.readout import Readout
    from sandbox.systems.creatures import Creature
    from sandbox.world import Outcome

SCENARIOS: tuple[str, ...] = ("duel", "skirmish", "wolf_pack", "bestiary", "battle")
"""The shipped scenarios the array engine runs."""


@dataclass(slots=True)
class Sample:
    """What many fights of one scenario on one engine came to.

    Attributes:
        winners: Per fight, the winning team ("" none).
        ticks: Per fight, its length.
        dead: Per team, per fight, how many of it died.
        out: Per team, per fight, how many of it ended alive but out of the fight.
        levels: Per fight, its wounds' level codes at the end.
        locations: Per fight, its wounds' locations at the end.
        cpu: CPU seconds the fights took.
    """

    winners: list[str] = field(default_factory=list)
    ticks: list[int] = field(default_factory=list)
    dead: dict[str, list[int]] = field(default_factory=dict)
    out: dict[str, list[int]] = field(default_factory=dict)
    levels: list[Counter[str]] = field(default_factory=list)
    locations: list[Counter[str]] = field(default_factory=list)
    cpu: float = 0.0


def _fights(scenario: str, engine: str, runs: int, seed: int) -> Iterator[tuple[Outcome, list[tuple[Creature,
                                                                                                 Readout]]]]:
    """Each fight's outcome and its creatures at the end: esper worlds one by one, or the array engine's batches
    of ``BATCH`` fights (``run_fights``, as the lab runs them; a fight is the same alone or in a batch)."""
    from sandbox.array_world import run_fights
    from sandbox.config.scenarios import resolve_scenario
    from sandbox.world import Sandbox

    if engine == "esper":
        for i in range(runs):
            world = Sandbox.from_scenario(scenario, seed=seed, run=i)
            outcome = world.run()
            yield outcome, [(c, world.readout(e)) for e, c in world.creatures().items()]
            world.close()
        return
    catalog, spec = resolve_scenario(scenario)
    for start in range(0, runs, BATCH):
        for fight in run_fights(spec, catalog, seed, range(start, min(start + BATCH, runs))):
            yield fight.outcome, list(fight.creatures)


BATCH = 500
"""Fights per array world."""


def sample(scenario: str, engine: str, runs: int, seed: int = 0) -> Sample:
    """``runs`` fights of ``scenario`` on ``engine`` (fight i: ``seed``, run index i)."""
    out = Sample()
    start = time.process_time()
    for outcome, creatures in _fights(scenario, engine, runs, seed):
        out.winners.append(outcome.winner or "")
        out.ticks.append(outcome.ticks)
        dead: Counter[str] = Counter()
        down: Counter[str] = Counter()
        teams = set()
        levels: Counter[str] = Counter()
        locations: Counter[str] = Counter()
        for c, r in creatures:
            teams.add(c.team)
            dead[c.team] += not r.alive
            down[c.team] += r.alive and not r.can_act
            for w in r.wounds:
                levels[w.level] += 1
                locations[w.location] += 1
        out.levels.append(levels)
        out.locations.append(locations)
        for team in teams:
            out.dead.setdefault(team, []).append(dead[team])
            out.out.setdefault(team, []).append(down[team])
    out.cpu = time.process_time() - start
    return out


def _categorical(a: Counter[str], b: Counter[str], least: int = 5) -> float:
    """Chi-square test of homogeneity of two counts over categories (rare categories pooled)."""
    keys = sorted(set(a) | set(b))
    common = [k for k in keys if a[k] + b[k] >= least]
    rare = [k for k in keys if k not in common]
    rows = [[a[k] for k in common], [b[k] for k in common]]
    if rare:
        rows[0].append(sum(a[k] for k in rare))
        rows[1].append(sum(b[k] for k in rare))
    table = np.asarray(rows, dtype=np.float64)
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2 or (table.sum(axis=1) == 0).any():
        return 1.0
    return float(stats.chi2_contingency(table).pvalue)


def _mix(a: list[Counter[str]], b: list[Counter[str]], least: int = 20) -> float:
    """Whether two sets of fights share one mix of categories, the fight as the unit (the wounds of one fight are
    not independent of one another): per category, a Mann-Whitney test of its share of each fight's wounds, the
    smallest p-value Bonferroni-corrected over the categories tested (rare ones pooled)."""
    total = Counter[str]()
    for c in (*a, *b):
        total.update(c)
    common = [k for k, v in total.items() if v >= least]
    if not common:
        return 1.0

    def shares(fights: list[Counter[str]], key: str | None) -> list[float]:
        out = []
        for c in fights:
            n = sum(c.values())
            if n:
                hits = c[key] if key is not None else sum(v for k, v in c.items() if k not in common)
                out.append(hits / n)
        return out

    keys: list[str | None] = [*common, None] if len(common) < len(total) else list(common)
    ps = [_numeric(shares(a, k), shares(b, k)) for k in keys]
    return min(1.0, min(ps) * len(ps))


def _numeric(a: list[int] | list[float], b: list[int] | list[float]) -> float:
    """Two-sided Mann-Whitney U test of two samples (1.0 when both are one constant)."""
    if len(set(a) | set(b)) < 2:
        return 1.0
    return float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)


def compare(esper: Sample, array: Sample) -> dict[str, float]:
    """The p-value of each figure's two-sample test (see the module docstring)."""
    p = {
        "win rate": _categorical(Counter(esper.winners), Counter(array.winners)),
        "fight length": _numeric(esper.ticks, array.ticks),
        "injury levels": _mix(esper.levels, array.levels),
        "hit locations": _mix(esper.locations, array.locations),
    }
    for team in sorted(esper.dead):
        p[f"deaths {team}"] = _numeric(esper.dead[team], array.dead.get(team, []))
        p[f"incapacitated {team}"] = _numeric(esper.out[team], array.out.get(team, []))
    return p


RUNS = {"duel": 1.0, "skirmish": 1.0, "wolf_pack": 1.0, "bestiary": 1.0, "battle": 0.05}
"""Share of ``--runs`` per scenario (the battle's fights are a hundred times longer)."""


def main() -> None:
    """Print every scenario's p-values."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=",".join(SCENARIOS))
    args = parser.parse_args()
    for scenario in args.only.split(","):
        runs = max(20, int(args.runs * RUNS.get(scenario, 1.0)))
        esper = sample(scenario, "esper", runs, args.seed)
        array = sample(scenario, "array", runs, args.seed + 1)
        print(f"{scenario}: {runs} fights each (esper {esper.cpu:.1f} s, array {array.cpu:.1f} s of CPU)")
        for name, value in compare(esper, array).items():
            print(f"  {name:<28} p = {value:.4f}")


if __name__ == "__main__":
    main()
