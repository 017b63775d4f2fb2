"""The lab's plots, PNG files drawn with matplotlib's Agg canvas (no window, no global backend switch)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from components.anatomy import BodyStructure

from .stats import ModelTally

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def win_rates(path: Path, tallies: dict[str, ModelTally], teams: tuple[str, ...]) -> Path:
    """Win rate per team by model, with 95% Wilson intervals as error bars."""
    fig = _figure(1.6 + 1.3 * len(tallies), 4)
    ax = fig.add_subplot()
    models = list(tallies)
    width = 0.8 / max(1, len(teams))
    for k, team in enumerate(teams):
        xs, rates, below, above = [], [], [], []
        for i, m in enumerate(models):
            t = tallies[m]
            rate = t.wins[team] / t.runs if t.runs else 0.0
            low, high = t.interval(team)
            xs.append(i - 0.4 + width * (k + 0.5))
            rates.append(rate)
            below.append(max(0.0, rate - low))
            above.append(max(0.0, high - rate))
        ax.bar(xs, rates, width, yerr=[below, above], capsize=3, label=team)
    ax.set_xticks(range(len(models)), models)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return path


def time_to_out(path: Path, tallies: dict[str, ModelTally]) -> Path:
    """Share of fights still going by tick, per model (fights stopped by the tick limit count as going on)."""
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    for model, t in tallies.items():
        if not t.runs:
            continue
        last = max(t.ticks)
        ticks = list(range(last + 1))
        unfinished = t.reasons.get("tick limit", 0)  # these all stopped at the last tick, still fighting
        going, ended = [], 0
        for tick in ticks:
            ended += t.ticks.get(tick, 0)
            going.append(1 - (ended - (unfinished if tick == last else 0)) / t.runs)
        ax.step(ticks, going, where="post", label=model)
    ax.set_xlabel("tick")
    ax.set_ylabel("share of fights still going")
    ax.set_ylim(0, 1.02)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return path


def hit_map(path: Path, body: BodyStructure, hits: dict[str, int], title: str) -> Path:
    """The body's parts (``body_layout``) coloured by their share of the landed blows."""
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    # body_layout needs no pygame, but its package imports it: keep pygame's banner off the lab's stdout.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sandbox.bodymap import body_layout

    total = sum(hits.values())
    peak = max(hits.values(), default=0)
    cmap = colormaps["Reds"]
    fig = _figure(5, 6)
    ax = fig.add_subplot()
    for index, (x, y, w, h) in body_layout(body).items():
        name = body.parts[index].name
        count = hits.get(name, 0)
        share = count / total if total else 0.0
        ax.add_patch(Rectangle((x, y), w, h, facecolor=cmap(0.08 + 0.92 * count / peak if peak else 0.0),
                               edgecolor="black", linewidth=0.6))
        ax.text(x + w / 2, y + h / 2, f"{name}\n{share:.0%}", ha="center", va="center", fontsize=6)
    ax.set_xlim(0, 1)
    ax.set_ylim(1, 0)
    ax.set_aspect("auto")
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    return path


def injury_mix(path: Path, tallies: dict[str, ModelTally]) -> Path:
    """Per model, the share of each injury level (anatomy: Injured levels; point models: their DamageDealt,
    banded in their own units)."""
    models = [m for m, t in tallies.items() if t.injuries]
    fig = _figure(3 + 2.2 * max(1, len(models)), 3.5)
    if not models:
        fig.text(0.5, 0.5, "no injuries recorded", ha="center")
    for i, model in enumerate(models, start=1):
        ax = fig.add_subplot(1, len(models), i)
        mix = tallies[model].injuries
        total = sum(mix.values())
        labels = sorted(mix)
        ax.bar(range(len(labels)), [mix[k] / total for k in labels])
        ax.set_xticks(range(len(labels)), labels, rotation=45, fontsize=7)
        ax.set_title(model, fontsize=9)
        ax.set_ylim(0, 1)
        if i == 1:
            ax.set_ylabel("share of wounds")
    fig.tight_layout()
    fig.savefig(path)
    return path


def draw_all(out: Path, tallies: dict[str, ModelTally], teams: tuple[str, ...], body: BodyStructure) -> list[Path]:
    """Every lab plot into ``out``; the hit map for the first model whose blows landed on the body's parts."""
    written = [win_rates(out / "win_rates.png", tallies, teams), time_to_out(out / "time_to_out.png", tallies)]
    placed = next(((name, t) for name, t in tallies.items() if t.hits), None)
    if placed is not None:
        name, tally = placed
        written.append(hit_map(out / "hit_locations.png", body, dict(tally.hits),
                               f"{body.name}: landed blows by part ({name}, {tally.runs} runs)"))
    written.append(injury_mix(out / "injury_levels.png", tallies))
    return written
