"""The lab's plots, drawn with matplotlib's Agg canvas (no window, no global backend switch) into PNG bytes.

The lab's folder writes them whole (``LabFolder.write_file``) and the report embeds them.

Teams are drawn in their own colours (``colours.TEAM_COLOURS``, the viewer's), runs no team won in grey, and every
label on a filled box in black or white, whichever reads on that fill.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sandbox.components.body import BodyStructure

from .colours import NO_WINNER, label_colour, rgb, team_colour
from .runner import LabRun
from .stats import ModelTally

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["MAX_BODIES", "differences", "hit_locations", "injury_mix", "scale_factors", "solve", "time_to_out",
           "win_rates"]

MAX_BODIES = 4
"""Bodies drawn per model in the hit-location map (the most struck)."""


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _groups(lab: LabRun) -> list[tuple[str, str, ModelTally]]:
    """(variant, model, tally) of the compared variants, in the plan's order."""
    out = []
    for variant in lab.plan.variants:
        for model in lab.plan.models:
            tally = lab.tallies.get((variant.name, model))
            if tally is not None and tally.runs:
                out.append((variant.name, model, tally))
    return out


def _label(lab: LabRun, variant: str, model: str) -> str:
    several = len(lab.plan.models) > 1
    if len(lab.plan.variants) == 1:
        return model
    return f"{variant}\n{model}" if several else variant


def win_rates(lab: LabRun) -> bytes:
    """Win rate per team and the share of runs no team won, per variant and model.

    Each team is drawn in its own colour and no team in grey, with 95% Wilson intervals.
    """
    from .stats import wilson

    groups = _groups(lab)
    teams = lab.teams
    fig = _figure(2.2 + 1.2 * max(1, len(groups)) * (len(teams) + 1) / 3, 4.4)
    ax = fig.add_subplot()
    bars = [*teams, ""]
    width = 0.8 / len(bars)
    for k, team in enumerate(bars):
        xs, rates, below, above = [], [], [], []
        for i, (_, _, t) in enumerate(groups):
            count = t.wins[team] if team else t.no_winner
            rate = count / t.runs
            low, high = wilson(count, t.runs)
            xs.append(i - 0.4 + width * (k + 0.5))
            rates.append(rate)
            below.append(max(0.0, rate - low))
            above.append(max(0.0, high - rate))
        colour = team_colour(k) if team else rgb(NO_WINNER)
        ax.bar(xs, rates, width, yerr=[below, above], capsize=3, color=colour, label=team or "no winner",
               edgecolor="black", linewidth=0.4)
    ax.set_xticks(range(len(groups)), [_label(lab, v, m) for v, m, _ in groups], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of runs (95% Wilson interval)")
    ax.legend(fontsize=8)
    ax.set_title(f"{lab.plan.scenario.name}: who wins", fontsize=10)
    fig.tight_layout()
    return _png(fig)


def differences(lab: LabRun, diffs: dict[str, dict[str, Any]]) -> bytes:
    """Each variant's win rate minus the baseline's, per team.

    Each comes with the paired 95% interval (thick) and the unpaired one two independent labs would give (thin).
    """
    rows = [(v, m, team, d["wins"][team]) for v, by_model in diffs.items() for m, d in by_model.items()
            for team in lab.teams if team in d.get("wins", {})]
    fig = _figure(7.5, 1.2 + 0.32 * max(1, len(rows)))
    ax = fig.add_subplot()
    for i, (_variant, _model, team, d) in enumerate(rows):
        colour = team_colour(lab.teams.index(team))
        lo, hi = d["ci95_unpaired"]
        ax.plot([lo, hi], [i, i], color="0.55", linewidth=1.2)
        lo, hi = d["ci95_paired"]
        ax.plot([lo, hi], [i, i], color=colour, linewidth=5, solid_capstyle="butt")
        ax.plot([d["difference"]], [i], "o", color="black", markersize=4)
    ax.axvline(0, color="black", linewidth=0.6)
    several = len(lab.plan.models) > 1
    ax.set_yticks(range(len(rows)), [f"{v}{f' ({m})' if several else ''}: {t}" for v, m, t, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"win rate minus {lab.plan.baseline.name}'s (thick: paired 95% interval; thin: unpaired)")
    ax.set_title("Paired differences to the baseline (common random numbers)", fontsize=10)
    fig.tight_layout()
    return _png(fig)


def scale_factors(lab: LabRun, factors: dict[str, list[dict[str, Any]]]) -> bytes:
    """Each parameter's change in each team's win rate per unit, ranked, with paired 95% intervals."""
    rows = [(m, r) for m, rs in factors.items() for r in rs]
    teams = lab.teams
    fig = _figure(7.5, 1.4 + 0.45 * max(1, len(rows)) * len(teams))
    ax = fig.add_subplot()
    height = 0.8 / max(1, len(teams))
    labels = []
    for i, (model, row) in enumerate(rows):
        labels.append(f"{row['key']}" + (f" ({model})" if len(factors) > 1 else ""))
        for k, team in enumerate(teams):
            w = row["wins"].get(team)
            if w is None:
                continue
            y = i - 0.4 + height * (k + 0.5)
            lo, hi = w["ci95"]
            ax.barh(y, w["per_unit"], height, color=team_colour(k), edgecolor="black", linewidth=0.4,
                    xerr=[[w["per_unit"] - lo], [hi - w["per_unit"]]], capsize=3, label=team if i == 0 else None)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("change in win rate per unit of the parameter (paired 95% interval)")
    ax.set_title("Scale factors, ranked", fontsize=10)
    if rows:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def solve(lab: LabRun, results: Sequence[dict[str, Any]]) -> bytes:
    """The solver's probes, the target, and the value found with its interval.

    A probe is the team's win rate at a value tried, with its 95% interval.
    """
    fig = _figure(7, 4.2)
    ax = fig.add_subplot()
    for result in results:
        probes = [p for p in result["probes"] if p["runs"] == result["runs_per_probe"]] or result["probes"]
        team = result["target"].split("=")[0]
        colour = team_colour(lab.teams.index(team)) if team in lab.teams else "black"
        xs = [p["x"] for p in probes]
        gaps = [p["gap"] for p in probes]
        lows = [p["gap"] - p["ci95"][0] for p in probes]
        highs = [p["ci95"][1] - p["gap"] for p in probes]
        ax.errorbar(xs, gaps, yerr=[lows, highs], fmt="o", color=colour, capsize=3,
                    label=f"{result['model']}: {result['target']}")
        if result["value"] is not None:  # an out-of-reach solve has its probes and no value
            lo, hi = result["ci95"]
            ax.axvspan(lo, hi, color=colour, alpha=0.2)
            ax.axvline(result["value"], color=colour, linestyle="--", linewidth=1)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xlabel(results[0]["key"] if results else "value")
    ax.set_ylabel("gap to the target (95% interval)")
    ax.set_title("Solving for the target: probes, the value found and its 95% interval", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def time_to_out(lab: LabRun) -> bytes:
    """Share of fights still going by tick, per variant and model.

    Fights stopped by the tick limit count as going on.
    """
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    for variant, model, t in _groups(lab):
        last = max(t.ticks)
        ticks = list(range(last + 1))
        unfinished = t.reasons.get("tick limit", 0)
        going, ended = [], 0
        for tick in ticks:
            ended += t.ticks.get(tick, 0)
            going.append(1 - (ended - (unfinished if tick == last else 0)) / t.runs)
        ax.step(ticks, going, where="post", label=_label(lab, variant, model).replace("\n", " "))
    ax.set_xlabel("tick")
    ax.set_ylabel("share of fights still going")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def hit_locations(lab: LabRun, bodies: dict[str, BodyStructure]) -> bytes | None:
    """Landed blows by location, on the body map (``sandbox.bodymap.location_layout``).

    It draws a row for every model that places blows on the anatomy, from the baseline's runs, the most struck bodies
    side by side; each box is coloured by its share of that body's blows, with a colour bar. ``None`` when no model
    placed a blow.
    """
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle
    from matplotlib.ticker import PercentFormatter

    from sandbox.bodymap import location_layout

    base = lab.plan.baseline.name
    rows = [(m, lab.tallies[(base, m)]) for m in lab.plan.models
            if (base, m) in lab.tallies and lab.tallies[(base, m)].hits]
    if not rows:
        return None
    per_row: list[tuple[str, ModelTally, list[tuple[str, dict[str, int]]]]] = []
    for model, tally in rows:
        by_body: dict[str, dict[str, int]] = {}
        for (body, location), count in tally.hits.items():
            if body in bodies:
                by_body.setdefault(body, {})[location] = by_body.get(body, {}).get(location, 0) + count
        most = sorted(by_body, key=lambda b: -sum(by_body[b].values()))[:MAX_BODIES]
        per_row.append((model, tally, [(b, by_body[b]) for b in most]))
    columns = max(len(r[2]) for r in per_row)
    vmax = max(max(h.values()) / sum(h.values()) for _, _, row in per_row for _, h in row)
    norm = Normalize(0.0, vmax)
    cmap = colormaps["viridis"]
    row_height = 8.0
    fig = _figure(2.0 + 4.6 * columns, 0.6 + row_height * len(per_row))
    axes = []
    for r, (model, tally, panels) in enumerate(per_row):
        for c, (body_id, hits) in enumerate(panels):
            ax = fig.add_subplot(len(per_row), columns, r * columns + c + 1)
            axes.append(ax)
            drawn = bodies[body_id]
            total = sum(hits.values())
            for li, (x, y, w, h) in location_layout(drawn).items():
                name = drawn.locations[li].name
                share = hits.get(name, 0) / total
                fill = cmap(norm(share))
                ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor="black", linewidth=0.4))
                tall = h * row_height * 72 * 0.85  # the box's height in points
                if tall >= 16:
                    ax.text(x + w / 2, y + h / 2, f"{name}\n{share:.1%}", ha="center", va="center", fontsize=5.5,
                            color=label_colour(fill))
                elif tall >= 5:
                    ax.text(x + w / 2, y + h / 2, f"{name} {share:.1%}", ha="center", va="center",
                            fontsize=min(5.0, tall * 0.8), color=label_colour(fill))
            ax.set_xlim(0, 1)
            ax.set_ylim(1, 0)
            ax.axis("off")
            ax.set_title(f"{drawn.name} ({model}): {total:,} blows over {tally.runs:,} runs", fontsize=8)
    colorbar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=axes, fraction=0.04, pad=0.04, shrink=0.5)
    colorbar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    colorbar.set_label("share of the body's landed blows", fontsize=8)
    return _png(fig)


def injury_mix(lab: LabRun) -> bytes:
    """Per model, the share of each injury level, depth tier or band of damage dealt.

    From the baseline's runs: injury levels for the anatomy model, depth tiers for depth, bands of damage dealt for the
    point models.
    """
    base = lab.plan.baseline.name
    models = [m for m in lab.plan.models if (base, m) in lab.tallies and lab.tallies[(base, m)].injuries]
    fig = _figure(3 + 2.2 * max(1, len(models)), 3.5)
    if not models:
        fig.text(0.5, 0.5, "no injuries recorded", ha="center")
    for i, model in enumerate(models, start=1):
        ax = fig.add_subplot(1, len(models), i)
        mix = lab.tallies[(base, model)].injuries
        total = sum(mix.values())
        labels = sorted(mix)
        ax.bar(range(len(labels)), [mix[k] / total for k in labels], color=rgb((120, 120, 160)))
        ax.set_xticks(range(len(labels)), labels, rotation=45, fontsize=7)
        ax.set_title(model, fontsize=9)
        ax.set_ylim(0, 1)
        if i == 1:
            ax.set_ylabel("share of wounds")
    fig.tight_layout()
    return _png(fig)
