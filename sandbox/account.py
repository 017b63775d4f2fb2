"""The readable account of a run (``sandbox run``): a line per landed blow, and a closing table per creature.

The account uses the rules' codes (``S3``, ``MF``, ``HR``) and ends with a one-line key to the ones it used
(``account_key``); ``plain=True`` spells every code out in words instead (``sandbox run --plain``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.components.log import LogEntry
from sandbox.components.readout import WoundReading
from sandbox.components.rules import LEVEL_CODES
from sandbox.config.content import ScenarioRef
from sandbox.glossary import BLEEDING_MARK, codes_in, key_line, spell_out
from sandbox.report import output_width, table, wrapped
from sandbox.world import Outcome, Sandbox

if TYPE_CHECKING:
    from sandbox.world_protocol import World

__all__ = [
    "ROWS_MOST",
    "WIDE",
    "ModelRun",
    "account_key",
    "aftermath_table",
    "blow_lines",
    "closing_table",
    "comparison_table",
    "outcome_line",
    "run_model",
    "team_table",
]


def blow_lines(log: Iterable[LogEntry], names: Mapping[int, str], plain: bool = False) -> Iterator[str]:
    """One line per blow that landed on the body: who, where, what wound, what followed.

    Each attack summarises itself (``LogEntry.summary``); the events after it until the next attack add what
    followed (a bleeder, a severed limb, a new shock state, a fall, death). ``plain``: codes in words.
    """
    current: str | None = None
    follows: list[str] = []
    for entry in log:
        if entry.headline:
            if current is not None:
                yield _finish(current, follows, plain)
            line = entry.summary(names)
            current = f"tick {entry.tick:>3}  {line}" if line else None  # a wrapped line continues under the text
            follows = []
        elif current is not None:
            text = entry.summary(names)
            if text:
                follows.append(text)
    if current is not None:
        yield _finish(current, follows, plain)


def account_key(printed: Iterable[str]) -> str:
    """The one-line key to the codes ``printed`` used (only those), or "" when it used none."""
    return key_line(codes_in(printed))


def _finish(current: str, follows: list[str], plain: bool = False) -> str:
    line = current + (f"; {', '.join(follows)}" if follows else "")
    return wrapped(spell_out(line) if plain else line, indent=len("tick 123  "))


def closing_table(world: World, plain: bool = False, *, every: bool = False) -> str:
    """Per creature.

    Team, alive, health and band, shock state, wounds by location, conditions (``plain``: in words).

    Below ``WIDE`` columns the wounds leave the table for a line per wounded creature under it, so the table's
    cells keep to one line in an 80-column terminal. A fight of more than ``ROWS_MOST`` creatures is summed up
    instead, a row per team and state (``team_table``), unless ``every``.
    """
    if not every and len(world.names) > ROWS_MOST:
        return team_table(world, plain)
    rows, wound_rows = [], []
    narrow = output_width()[0] < WIDE
    for entity, c in world.creatures().items():
        r = world.readout(entity)
        conditions = ", ".join(r.conditions) or "-"
        wounds = _wounds_text(r.wounds, plain=plain)
        row = [c.name, c.team, "yes" if r.alive else "no", f"{r.health}{r.health_unit} {r.band}", r.shock,
               wounds, spell_out(conditions) if plain else conditions]
        if narrow:
            del row[5]
            if wounds != "-":
                wound_rows.append((c.name, wounds))
        rows.append(row)
    wounds_header = "wounds" if plain else f"wounds ({BLEEDING_MARK} bleeding)"
    headers = ["creature", "team", "alive", "health", "shock", wounds_header, "conditions"]
    if not narrow:
        return table(headers, rows, wrap=[5, 6])
    headers.remove(wounds_header)
    below = [wrapped(f"  {name}: {text}", indent=4) for name, text in wound_rows]
    return "\n".join([table(headers, rows, wrap=[5]), "", wounds_header[0].upper() + wounds_header[1:] + ":",
                      *below] if below else [table(headers, rows, wrap=[5])])


WIDE = 100
"""From this many columns the closing table has a wounds column; below it, the wounds are listed under it."""

ROWS_MOST = 60
"""Past this many creatures the closing table sums the fight up by team and state (a row per creature of a battle
of thousands is unreadable, and would take longer to print than the battle takes to run)."""


def team_table(world: World, plain: bool = False) -> str:
    """Per team and state (the readout's label: "fair", "incapacitated", "dead").

    How many creatures, of which kinds; the teams in order of first appearance, each team's states most common first.
    """
    count: Counter[tuple[str, str]] = Counter()
    kinds: dict[tuple[str, str], set[str]] = {}
    for entity in world.names:
        s = world.standing(entity)
        count[s.team, s.label] += 1
        kinds.setdefault((s.team, s.label), set()).add(s.kind)
    team_order = {team: k for k, team in enumerate(dict.fromkeys(team for team, _ in count))}
    rows = [[team, spell_out(label) if plain else label, f"{n:,}", ", ".join(sorted(kinds[team, label]))]
            for (team, label), n in sorted(count.items(), key=lambda kv: (team_order[kv[0][0]], -kv[1], kv[0][1]))]
    note = (f"{len(world.names):,} creatures: a row per team and state (--every-creature lists each one; --trace "
            "NAME follows one's blows).")
    return "\n".join([table(["team", "state", "creatures", "kinds"], rows), wrapped(note)])


def _wounds_text(wounds: Iterable[WoundReading], most: int = 4, plain: bool = False) -> str:
    """Wounds by location, worst first.

    Past ``most`` locations, a count of the rest (a model that places no wound at a location lists its wounds by what
    they are). ``plain``: each wound in words, "bleeding" for the mark.
    """
    by_loc: dict[str, list[str]] = {}
    for w in wounds:
        by_loc.setdefault(w.location or w.level, []).append(w.level + (BLEEDING_MARK if w.bleeding else ""))
    if not by_loc:
        return "-"
    ranked = sorted(by_loc.items(), key=lambda kv: (-max(_rank(c.rstrip(BLEEDING_MARK)) for c in kv[1]), kv[0]))
    shown = []
    for loc, levels in ranked[:most]:
        ordered = sorted(levels, key=lambda code: _rank(code.rstrip(BLEEDING_MARK)), reverse=True)
        if loc in levels:
            shown.append(loc)
        elif plain:
            words = [spell_out(level.rstrip(BLEEDING_MARK)) + (" (bleeding)" if level.endswith(BLEEDING_MARK) else "")
                     for level in ordered]
            shown.append(f"{loc}: {' and '.join(words)}")
        else:
            shown.append(f"{loc} {' '.join(ordered)}")
    if len(ranked) > most:
        shown.append(f"+{len(ranked) - most} more")
    return "; ".join(shown)


def _rank(level: str) -> int:
    """Orders level codes (``G5`` worst) and a model's own words alike (their order of appearance)."""
    return LEVEL_CODES.index(level) if level in LEVEL_CODES else 0


def outcome_line(outcome: Outcome) -> str:
    """One line saying how the run ended."""
    if outcome.winner is not None:
        return f"{outcome.winner} wins after {outcome.ticks} ticks ({outcome.reason})."
    return f"No winner after {outcome.ticks} ticks ({outcome.reason})."


def aftermath_table(world: Sandbox, start: float, plain: bool = False) -> str:
    """Per creature.

    Died (of what, on which day) or survived; days until every wound healed; permanent damage; health and state now
    (each model reports it: ``DamageModel.aftermath_row``).
    """
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
        state = spell_out(row.state) if plain else row.state
        rows.append((row.name, fate, healed, permanent, f"{row.health}{row.health_unit}", state))
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


def run_model(scenario: str | Path | ScenarioRef, seed: int, model: str, max_ticks: int | None = None) -> ModelRun:
    """Run ``scenario`` under ``model`` tick by tick, counting the blows that land.

    Per creature: the landed blows it takes, and how many it had taken when it was first out of the fight.
    """
    from sandbox.components.events import BlowLanded, DamageDealt

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


def comparison_table(runs: list[ModelRun], plain: bool = False) -> str:
    """Models side by side.

    Winner and ticks, then per creature its final readout, blows taken, blows to take it out (``-``: never out), with a
    line under the table that says so. ``plain``: codes in words.
    """
    headers = ["", *[r.model for r in runs]]
    rows: list[list[str]] = [
        ["winner", *[r.outcome.winner or "none" for r in runs]],
        ["ticks", *[str(r.outcome.ticks) for r in runs]],
    ]
    names = list(runs[0].labels) if runs else []
    for name in names:
        rows.append([name, *[spell_out(r.labels[name]) if plain else r.labels[name] for r in runs]])
        rows.append(["  blows", *[
            f"{r.wounds[name]} / {r.out_after[name] if r.out_after[name] is not None else '-'}" for r in runs]])
    return table(headers, rows) + "\nblows: landed blows taken / taken when first out of the fight (-: never out)"
