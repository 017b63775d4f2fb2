"""Paired comparisons of a lab's variants.

Each variant minus the baseline, and the scale factors (the change per unit of a parameter, SimulationCraft's stat
weights for a combat rule), over the runs both sides have.
"""

from __future__ import annotations

import functools
from typing import Any

from .paired import Difference, paired_means, proportions_of
from .runner import LabRun
from .stats import RunOutcome

__all__ = ["compare", "difference_of", "differences", "scale_factors"]


def _common(lab: LabRun, first: str, second: str, model: str) -> tuple[list[RunOutcome], list[RunOutcome]]:
    a = lab.tallies.get((first, model))
    b = lab.tallies.get((second, model))
    if a is None or b is None or a.outcomes is None or b.outcomes is None:
        return [], []
    runs = sorted(set(a.outcomes) & set(b.outcomes))
    return [a.outcomes[r] for r in runs], [b.outcomes[r] for r in runs]


def compare(lab: LabRun, first: str, second: str, model: str) -> dict[str, Any]:
    """``first`` minus ``second`` under ``model``, paired run by run.

    Each team's win rate, the no-winner rate, the fight length and each team's deaths, each with its paired and unpaired
    95% intervals.
    """
    xs, ys = _common(lab, first, second, model)
    out: dict[str, Any] = {"runs": len(xs), "wins": {}, "deaths": {}}
    if not xs:
        return out
    for team in lab.teams:
        out["wins"][team] = proportions_of([o.winner == team for o in xs], [o.winner == team for o in ys]).as_json()
        out["deaths"][team] = paired_means([float(o.deaths.get(team, 0)) for o in xs],
                                           [float(o.deaths.get(team, 0)) for o in ys]).as_json()
    out["no_winner"] = proportions_of([not o.winner for o in xs], [not o.winner for o in ys]).as_json()
    out["ticks"] = paired_means([float(o.ticks) for o in xs], [float(o.ticks) for o in ys]).as_json()
    return out


def differences(lab: LabRun) -> dict[str, dict[str, Any]]:
    """Every variant (but the baseline) minus the baseline, by variant and model."""
    plan = lab.plan
    base = plan.baseline.name
    return {v.name: {m: compare(lab, v.name, base, m) for m in plan.models} for v in plan.variants[1:]}


def _per_unit(diff: dict[str, Any], span: float) -> dict[str, Any]:
    return {"per_unit": diff["difference"] / span,
            "ci95": [diff["ci95_paired"][0] / span, diff["ci95_paired"][1] / span],
            "ci95_unpaired": [diff["ci95_unpaired"][0] / span, diff["ci95_unpaired"][1] / span],
            "runs": diff["runs"]}


def scale_factors(lab: LabRun) -> dict[str, list[dict[str, Any]]]:
    """Per model, how much each ``--scale`` parameter changes the outcome per unit.

    The measures are each team's win rate, the fight length and each team's deaths, as paired central differences (the
    point above minus the point below, over the distance between them). The parameters are ranked by the size of the
    first team's win-rate change.
    """
    plan = lab.plan
    out: dict[str, list[dict[str, Any]]] = {}
    for model in plan.models:
        rows = []
        for key in plan.scale:
            diff = compare(lab, key.high.name, key.low.name, model)
            if not diff["runs"]:
                continue
            rows.append({
                "key": key.key, "value": key.value, "step": key.step, "span": key.span,
                "central": bool(key.low.patches), "low": key.low.name, "high": key.high.name,
                "wins": {t: _per_unit(d, key.span) for t, d in diff["wins"].items()},
                "ticks": _per_unit(diff["ticks"], key.span),
                "deaths": {t: _per_unit(d, key.span) for t, d in diff["deaths"].items()},
            })
        first = lab.teams[0] if lab.teams else ""
        rows.sort(key=functools.partial(_size, team=first))
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        out[model] = rows
    return out


def _size(row: dict[str, Any], team: str) -> float:
    wins: dict[str, dict[str, float]] = row["wins"]
    return -abs(wins[team]["per_unit"]) if team in wins else 0.0


def difference_of(data: dict[str, Any]) -> Difference:
    """A difference back from its JSON form."""
    paired, unpaired = data["ci95_paired"], data["ci95_unpaired"]
    return Difference(data["difference"], (paired[0], paired[1]), (unpaired[0], unpaired[1]), data["runs"])
