"""The readable account of a run (``sandbox run``): a line per landed blow, and a closing table per creature."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from components.anatomy import ASPECTS
from components.events import BleederOpened, DamageDealt, Died, Event, FellProne, ItemDropped, Severed, ShockChanged
from components.rules import LEVEL_CODES
from sandbox.report import table
from sandbox.world import Outcome, Sandbox
from systems.combat import AttackRecord

_FOLLOWS = (BleederOpened, Severed, ShockChanged, ItemDropped, FellProne, Died)


def _consequence(event: Any, names: Mapping[int, str]) -> str:
    if isinstance(event, BleederOpened):
        return "bleeding"
    if isinstance(event, Severed):
        return f"{event.location} severed"
    if isinstance(event, ShockChanged):
        return f"now {event.after}"
    if isinstance(event, ItemDropped):
        return f"{'flings' if event.flung else 'drops'} the {event.item}"
    if isinstance(event, FellProne):
        return "falls prone" if event.cause == "stumble" else "goes down"
    if isinstance(event, Died):
        return f"DIES ({event.cause})"
    return ""


def blow_lines(log: Iterable[Any], names: Mapping[int, str], modes: Mapping[str, Any]) -> Iterator[str]:
    """One line per blow that landed on the body: who, where, what wound, what followed."""
    current: list[str] | None = None
    follows: list[str] = []
    for entry in log:
        other = entry.events() if not isinstance(entry, AttackRecord | Event) and hasattr(entry, "events") else (
            [entry] if isinstance(entry, DamageDealt) else None)
        if other is not None:  # another model's attack: a line per blow that did damage
            if current is not None:
                yield _finish(current, follows)
            current, follows = None, []
            for event in other:
                if isinstance(event, DamageDealt) and event.dealt > 0 and event.attacker >= 0:
                    yield (f"tick {event.tick:>3}  {names.get(event.attacker, '?')} -> {names.get(event.target, '?')}:"
                           f" {event.dealt} damage ({event.rolled} rolled): {event.detail}")
            continue
        if isinstance(entry, AttackRecord):
            if current is not None:
                yield _finish(current, follows)
            current, follows = None, []
            blow = entry.blow
            if blow is None or blow.missed:
                continue
            body = entry.body
            loc = body.locations[blow.location]
            mode = modes[entry.mode].name if entry.mode in modes else entry.mode
            # A negative protection is a vulnerability (natural protection below 0): "impact 8 + 6", not "8 - -6".
            sums = (f"impact {blow.impact} - {blow.protection}" if blow.protection >= 0
                    else f"impact {blow.impact} + {-blow.protection}")
            if blow.glancing:
                wound = f"glances off ({sums})"
            elif blow.level == 0:
                wound = f"no wound ({sums})"
            else:
                wound = f"{LEVEL_CODES[blow.level]} {ASPECTS[blow.aspect]} ({sums})"
                if blow.compound:
                    wound += ", compounds"
            shock = ""
            if blow.shock_index:
                test = blow.shock_test.name if blow.shock_test is not None else "no test"
                shock = f"; shock {blow.shock_index} {test} -> {blow.shock_state.label}"
            current = [f"tick {entry.tick:>3}  {names.get(entry.attacker, '?')} -> {names.get(entry.target, '?')}: "
                       f"{mode} hits the {loc.name}: {wound}{shock}"]
        elif current is not None and isinstance(entry, _FOLLOWS):
            text = _consequence(entry, names)
            if text:
                follows.append(text)
    if current is not None:
        yield _finish(current, follows)


def _finish(current: list[str], follows: list[str]) -> str:
    return current[0] + (f"; {', '.join(follows)}" if follows else "")


def closing_table(world: Sandbox) -> str:
    """Per creature: team, alive, health and band, shock state, wounds by location, conditions."""
    rows = []
    for entity, (ident, anat, wounds, *_rest) in world.creatures().items():
        r = world.readout(entity)
        by_loc: dict[str, list[str]] = {}
        for inj in wounds.injuries:
            if inj.level > 0:
                by_loc.setdefault(anat.body.locations[inj.location].name, []).append(
                    LEVEL_CODES[inj.level] + ("*" if inj.bleeder else ""))
        wound_text = _wounds_text(by_loc)
        team = world.components(entity)["Combatant"].team
        unit = "%" if world.model == "anatomy" else ""
        rows.append((ident.name, team, "yes" if r.alive else "no", f"{r.health}{unit} {r.band}", r.shock, wound_text,
                     ", ".join(r.conditions) or "-"))
    return table(["creature", "team", "alive", "health", "shock", "wounds (* bleeding)", "conditions"], rows)


def _wounds_text(by_loc: dict[str, list[str]], most: int = 4) -> str:
    """Wounds by location, worst first; past ``most`` locations, a count of the rest."""
    if not by_loc:
        return "-"
    ranked = sorted(by_loc.items(), key=lambda kv: (-max(LEVEL_CODES.index(c.rstrip("*")) for c in kv[1]), kv[0]))
    shown = [f"{loc} {' '.join(sorted(levels, reverse=True))}" for loc, levels in ranked[:most]]
    if len(ranked) > most:
        shown.append(f"+{len(ranked) - most} more locations")
    return "; ".join(shown)


def outcome_line(outcome: Outcome) -> str:
    """One line saying how the run ended."""
    if outcome.winner is not None:
        return f"{outcome.winner} wins after {outcome.ticks} ticks ({outcome.reason})."
    return f"No winner after {outcome.ticks} ticks ({outcome.reason})."


def aftermath_table(world: Sandbox, start: float) -> str:
    """Per creature: died (of what, on which day) or survived; days until every wound healed; permanent damage."""
    from sandbox.aftermath import report

    if world.model != "anatomy":  # the point-based models heal their own way: show where their readouts stand
        rows = []
        for entity, parts in world.creatures().items():
            r = world.readout(entity)
            fate = "survived" if r.alive else f"died of {parts[5].cause or 'its wounds'}"
            rows.append((parts[0].name, fate, r.label, str(r.health), ", ".join(r.conditions) or "-"))
        return table(["creature", "fate", "state", "health", "conditions"], rows)
    rows = []
    for row in report(world, start):
        if not row.alive:
            fate = f"died of {row.cause}" + (f" (day {row.died_day:.1f})" if row.died_day is not None else "")
        else:
            fate = "survived"
        if row.healed_day is not None:
            healed = f"all healed by day {row.healed_day:g}" if row.healed_day else "unhurt"
        else:
            healed = f"{row.open_wounds} open" if row.alive else "-"
        permanent = ", ".join(f"{part} {value}" for part, value in row.permanent.items()) or "-"
        rows.append((row.name, fate, healed, permanent, f"{row.health}%"))
    return table(["creature", "fate", "wounds", "permanent impairment", "health"], rows)


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
