"""The lab's summary: ``summary.json`` (rewritten as runs finish) and the tables printed at the end."""

from __future__ import annotations

from typing import Any

from .compare import differences, scale_factors
from .runner import LabRun

__all__ = ["differences_table", "scale_table", "solve_lines", "summary_data", "summary_table", "table"]


def summary_data(lab: LabRun, jobs: int, *, final: bool = False) -> dict[str, Any]:
    """Everything ``summary.json`` holds.

    The plan (what ``--resume`` compares), how the lab went, each variant's figures per model, the paired differences,
    the scale factors and the solve.
    """
    plan = lab.plan
    teams = lab.teams
    by_variant: dict[str, dict[str, Any]] = {}
    for name in sorted(lab.order, key=lambda n: lab.order[n]):
        models = {m: lab.tallies[(name, m)].summary(teams) for m in plan.models if (name, m) in lab.tallies}
        if models:
            by_variant[name] = models
    paired = len(plan.points) > 1
    base = plan.baseline.name
    return {
        "plan": plan.as_json(),
        "scenario": plan.scenario.name,
        "seed": plan.seed,
        "models": list(plan.models),
        "runs_requested": plan.runs,
        "jobs": jobs,
        "final": final,
        "stopped_early": lab.stopped_early,
        "interrupted": lab.interrupted,
        "stopped": lab.stopped,
        "runs_done": lab.runs_done,
        "elapsed_seconds": round(lab.elapsed, 3),
        "teams": list(teams),
        "reproduce": (f"run i of variant V under model M is Sandbox.from_spec(scenario, seed={plan.seed}, model=M, "
                      "run=i) over V's patched content: sandbox.lab.world_of("
                      f"{plan.scenario.name!r}, {plan.seed}, M, i, patches)"),
        "variants": {v.name: [[k, val] for k, val in v.patches] for v in lab.variants.values()},
        "baseline": base,
        "by_variant": by_variant,
        "by_model": by_variant.get(base, {}),
        "differences": differences(lab) if paired and len(plan.variants) > 1 else {},
        "scale_factors": scale_factors(lab) if plan.scale else {},
        "solve": lab.solve,
        "notes": list(lab.notes),
        "files": list(lab.files),
    }


def _rate(w: dict[str, Any]) -> str:
    if w["rate"] is None:
        return "-"
    low, high = w["ci95"]
    return f"{w['rate']:.1%} [{low:.1%}, {high:.1%}]"


def summary_table(data: dict[str, Any]) -> str:
    """Variants and models side by side.

    Win rate per team with its 95% Wilson interval, no-winner runs, fight length (median, IQR), deaths and
    incapacitations per side.
    """
    columns = [(v, m) for v, by_model in data["by_variant"].items() if not v.startswith(("scale:", "solve:"))
               for m in by_model]
    several = len({v for v, _ in columns}) > 1
    headers = ["", *[f"{v} {m}" if several and len(data["models"]) > 1 else (v if several else m)
                     for v, m in columns]]
    cell = [data["by_variant"][v][m] for v, m in columns]
    rows: list[list[str]] = [["runs", *[str(c["runs"]) for c in cell]]]
    for team in data["teams"]:
        rows.append([f"{team} wins (95% CI)", *[_rate(c["wins"][team]) if team in c["wins"] else "-" for c in cell]])
    rows.append(["no winner", *[str(c["no_winner"]) for c in cell]])
    rows.append(["ticks median (IQR)", *["-" if c["ticks"]["median"] is None else
                                         f"{c['ticks']['median']:g} ({c['ticks']['q1']:g}-{c['ticks']['q3']:g})"
                                         for c in cell]])
    for team in data["teams"]:
        rows.append([f"{team} deaths / out", *[f"{c['deaths'].get(team, 0)} / {c['incapacitated'].get(team, 0)}"
                                               for c in cell]])
    return table(headers, rows)


def differences_table(data: dict[str, Any]) -> str:
    """Each variant minus the baseline.

    Per team the paired difference with its 95% interval, and how much narrower the paired interval is than an unpaired
    one.
    """
    rows = []
    several = len(data["models"]) > 1
    for variant, by_model in data["differences"].items():
        for model, d in by_model.items():
            for team, w in d.get("wins", {}).items():
                lo, hi = w["ci95_paired"]
                ulo, uhi = w["ci95_unpaired"]
                rows.append([variant + (f" ({model})" if several else ""), team, f"{w['difference']:+.1%}",
                             f"[{lo:+.1%},{hi:+.1%}]", f"[{ulo:+.1%},{uhi:+.1%}]",
                             f"{w['paired_narrower_by']:.0%}", str(w["runs"])])
    return table([f"vs {data['baseline']}", "team", "difference", "paired 95% CI", "unpaired 95% CI",
                  "narrower", "runs"], rows)


def scale_table(data: dict[str, Any]) -> str:
    """The scale factors, ranked.

    Per parameter and team the change in win rate per unit, with its interval, and the change in fight length per unit.
    """
    rows = []
    for model, factors in data["scale_factors"].items():
        for f in factors:
            for team, w in f["wins"].items():
                lo, hi = w["ci95"]
                rows.append([str(f["rank"]), f["key"] + (f" ({model})" if len(data["models"]) > 1 else ""),
                             f"{f['value']:g} +/- {f['step']:g}" if f["central"] else f"{f['value']:g} + {f['step']:g}",
                             team, f"{w['per_unit']:+.2%}", f"[{lo:+.2%},{hi:+.2%}]",
                             f"{f['ticks']['per_unit']:+.2f}"])
    return table(["rank", "parameter", "at", "team", "win rate / unit", "95% CI", "ticks / unit"], rows)


def solve_lines(data: dict[str, Any]) -> list[str]:
    """One line per solve: the value, its interval, the runs it took and why it stopped."""
    solve = data.get("solve") or {}
    lines = []
    for result in solve.get("results", []):
        head = f"solve {result['key']} for {result['target']} under {result['model']}: "
        if result["value"] is None:
            lines.append(f"{head}no value, {result['runs']:,} runs; {result['stopped']}")
            continue
        lo, hi = result["ci95"]
        lines.append(f"{head}{result['value']:.3g} (95% CI {lo:.3g} to {hi:.3g}; {result['value_as_content']}), "
                     f"{result['runs']:,} runs, {result['runs_per_probe']:,} per probe; {result['stopped']}")
    return lines


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A table of the lab's figures, drawn as every CLI table is (rich, fitted to the output's width)."""
    from sandbox.report import table as drawn

    return drawn(headers, rows)
