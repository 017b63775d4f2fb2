"""The lab's summary: ``summary.json`` (written atomically) and the side-by-side table printed at the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sandbox.files import atomic_text

from .runner import SUMMARY_FILE, Cast, LabPlan, LabResult


def summary_data(plan: LabPlan, cast: Cast, result: LabResult, jobs: int) -> dict[str, Any]:
    """Everything ``summary.json`` holds."""
    return {
        "scenario": plan.scenario,
        "seed": plan.seed,
        "models": list(plan.models),
        "runs_requested": plan.runs,
        "chunk": plan.chunk,
        "jobs": jobs,
        "target_error": plan.target_error,
        "stopped_early": result.stopped_early,
        "interrupted": result.interrupted,
        "runs_done": result.runs_done,
        "elapsed_seconds": round(result.elapsed, 3),
        "teams": list(cast.team_order),
        "creatures": {name: cast.teams[name] for name in cast.names},
        "hit_body": cast.first_body,
        "by_model": {m: t.summary(cast.team_order) for m, t in result.tallies.items()},
        "files": list(result.files),
    }


def write_summary(path: Path, data: dict[str, Any]) -> None:
    """Write ``summary.json`` whole or not at all (``sandbox.files.atomic_text``)."""
    with atomic_text(path) as fh:
        fh.write(json.dumps(data, indent=2) + "\n")


def summary_path(out: Path) -> Path:
    """Where ``summary.json`` goes."""
    return out / SUMMARY_FILE


def summary_table(data: dict[str, Any]) -> str:
    """Models side by side: win rate per team with its 95% Wilson interval, fight length (median, IQR), deaths
    and incapacitations per side."""
    models = data["models"]
    by_model = data["by_model"]
    rows: list[list[str]] = [["runs", *[str(by_model[m]["runs"]) for m in models]]]
    for team in data["teams"]:
        cells = []
        for m in models:
            w = by_model[m]["wins"][team]
            low, high = w["ci95"]
            cells.append("-" if w["rate"] is None else f"{w['rate']:.1%} [{low:.1%}, {high:.1%}]")
        rows.append([f"{team} wins (95% CI)", *cells])
    rows.append(["no winner", *[str(by_model[m]["no_winner"]) for m in models]])
    cells = []
    for m in models:
        t = by_model[m]["ticks"]
        cells.append("-" if t["median"] is None else f"{t['median']:g} ({t['q1']:g}-{t['q3']:g})")
    rows.append(["ticks median (IQR)", *cells])
    for team in data["teams"]:
        rows.append([f"{team} deaths / out", *[
            f"{by_model[m]['deaths'][team]} / {by_model[m]['incapacitated'][team]}" for m in models]])
    return _table(["", *models], rows)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    from sandbox.report import table

    return table(headers, rows)
