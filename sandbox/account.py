"""The readable account of a run (``sandbox run``): a line per landed blow, and a closing table per creature."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from components.log import LogEntry
from components.readout import WoundReading
from sandbox.report import table
from sandbox.world import Outcome, Sandbox


def blow_lines(log: Iterable[LogEntry], names: Mapping[int, str]) -> Iterator[str]:
    """One line per blow that landed on the body: who, where, what wound, what followed.

    Each attack summarises itself (``LogEntry.summary``); the events after it until the next attack add what
    followed (a bleeder, a severed limb, a new shock state, a fall, death).
    """
    current: str | None = None
    follows: list[str] = []
    for entry in log:
        if entry.headline:
            if current is not None:
                yield _finish(current, follows)
            line = entry.summary(names)
            current = f"tick {entry.tick:>3}  {line}" if line else None
            follows = []
        elif current is not None:
            text = entry.summary(names)
            if text:
                follows.append(text)
    if current is not None:
        yield _finish(current, follows)


def _finish(current: str, follows: list[str]) -> str:
    return current + (f"; {', '.join(follows)}" if follows else "")


def closing_table(world: Sandbox) -> str:
    """Per creature: team, alive, health and band, shock state, wounds by location, conditions."""
    rows = []
    for entity, c in world.creatures().items():
        r = world.readout(entity)
        rows.append((c.name, c.team, "yes" if r.alive else "no", f"{r.health}{r.health_unit} {r.band}", r.shock,
                     _wounds_text(r.wounds), ", ".join(r.conditions) or "-"))
    return table(["creature", "team", "alive", "health", "shock", "wounds (* bleeding)", "conditions"], rows)


def _wounds_text(wounds: Iterable[WoundReading], most: int = 4) -> str:
    """Wounds by location, worst first; past ``most`` locations, a count of the rest (a model that places no
    wound at a location lists its wounds by what they are)."""
    by_loc: dict[str, list[str]] = {}
    for w in wounds:
        by_loc.setdefault(w.location or w.level, []).append(w.level + ("*" if w.bleeding else ""))
    if not by_loc:
        return "-"
    ranked = sorted(by_loc.items(), key=lambda kv: (-max(_rank(c.rstrip("*")) for c in kv[1]), kv[0]))
    shown = [f"{loc} {' '.join(sorted(levels, reverse=True))}" if loc not in levels else loc
             for loc, levels in ranked[:most]]
    if len(ranked) > most:
        shown.append(f"+{len(ranked) - most} more locations")
    return "; ".join(shown)


def _rank(level: str) -> int:
    """Orders level codes (``G5`` worst) and a model's own words alike (their order of appearance)."""
    codes = ("NA", "M1", "S2", "S3", "G4", "G5")
    return codes.index(level) if level in codes else 0


def outcome_line(outcome: Outcome) -> str:
    """One line saying how the run ended."""
    if outcome.winner is not None:
        return f"{outcome.winner} wins after {outcome.ticks} ticks ({outcome.reason})."
    return f"No winner after {outcome.ticks} ticks ({outcome.reason})."


def aftermath_table(world: Sandbox, start: float) -> str:
    """Per creature: died (of what, on which day) or survived; days until every wound healed; permanent damage;
    health and state now (each model reports it: ``DamageModel.aftermath_row``)."""
    rows = []
    for row in world.aftermath_report(start):
        if not row.alive:
            fate = f"died of {row.cause or 'its wounds'}" + (
                f" (day {row.died_day:.1f})" if row.died_day is not None else "")
        else:
            fate = "survived"
        if row.healed_day is not None:
            healed = f"all healed by day {row.healed_day:g}" if row.healed_day else "unhurt"
        else:
            healed = f"{row.open_wounds} open" if row.alive else "-"
        permanent = ", ".join(f"{part} {value}" for part, value in row.permanent.items()) or "-"
        rows.append((row.name, fate, healed, permanent, f"{row.health}{row.health_unit}", row.state))
    return table(["creature", "fate", "wounds", "permanent impairment", "health", "state"], rows)


@dataclass(frozen=True, slots=True)
class ModelRun:
    """One scenario run under one damage model, for the side-by-side comparison.

    Attributes:
        model: The model.
        outcome: How the run ended.
        labels: Creature name -> its final readout label.
        wounds: Creature name -> landed blows it took.
        out_after: Creature name -> landed blows it had taken when it first could not act (``None``: never).
    """

    model: str
    outcome: Outcome
    labels: dict[str, str]
    wounds: dict[str, int]
    out_after: dict[str, int | None]


def run_model(scenario: str, seed: int, model: str, max_ticks: int | None = None) -> ModelRun:
    """Run ``scenario`` under ``model`` tick by tick, counting the landed blows each creature takes and how many
    it had taken when it was first out of the fight."""
    from components.events import BlowLanded, DamageDealt

    world = Sandbox.from_scenario(scenario, seed=seed, model=model)
    try:
        names = world.names
        wounds = dict.fromkeys(names.values(), 0)
        out_after: dict[str, int | None] = dict.fromkeys(names.values())
        limit = max_ticks if max_ticks is not None else world.max_ticks
        while len(world.able_teams()) > 1 and world.tick < limit:
            for event in world.step():
                if isinstance(event, BlowLanded) or (isinstance(event, DamageDealt) and event.dealt > 0):
                    wounds[names[event.target]] += 1
            for entity, name in names.items():
                if out_after[name] is None and not world.readout(entity).can_act:
                    out_after[name] = wounds[name]
        outcome = world.run(0)
        labels = {name: world.readout(entity).label for entity, name in names.items()}
        return ModelRun(model, outcome, labels, wounds, out_after)
    finally:
        world.close()


def comparison_table(runs: list[ModelRun]) -> str:
    """Models side by side: winner and ticks, then per creature its final readout, blows taken, blows to take it
    out (``-``: never out)."""
    headers = ["", *[r.model for r in runs]]
    rows: list[list[str]] = [
        ["winner", *[r.outcome.winner or "none" for r in runs]],
        ["ticks", *[str(r.outcome.ticks) for r in runs]],
    ]
    names = list(runs[0].labels) if runs else []
    for name in names:
        rows.append([name, *[r.labels[name] for r in runs]])
        rows.append(["  blows taken / to take out", *[
            f"{r.wounds[name]} / {r.out_after[name] if r.out_after[name] is not None else '-'}" for r in runs]])
    return table(headers, rows)
