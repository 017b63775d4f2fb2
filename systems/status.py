"""Status and cleanup (the STATUS and CLEANUP phases) and the clock (first in INTENT)."""

from __future__ import annotations

from collections.abc import Mapping

import esper

from components.state import Condition, Equipment, Shock
from systems.context import TickContext
from systems.creatures import Parts, can_act, query_creatures


class ClockProcessor(esper.Processor):
    """First of the tick: advance the clock, so every event of a tick carries its number and the game time at its
    end (tick n of an uninterrupted fight: n x tick length)."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Begin the next tick."""
        clock = self.ctx.clock
        clock.tick += 1
        clock.seconds += clock.seconds_per_tick


def can_fight(cond: Condition, shock: Shock, equip: Equipment) -> bool:
    """Able to act and with some way to strike (a bystander with no weapon at all keeps no fight going)."""
    return can_act(cond, shock) and bool(equip.natural or any(w not in equip.lost for w in equip.weapons))


def fighting_teams(creatures: Mapping[int, Parts]) -> list[str]:
    """Teams that still have a creature able to fight, sorted."""
    teams = {p[6].team for p in creatures.values() if can_fight(p[5], p[4], p[8])}
    return sorted(teams)


class StatusProcessor(esper.Processor):
    """STATUS phase: which teams still have a creature able to fight (what ends a skirmish)."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Record the fighting teams in ``ctx.scratch['fighting_teams']``."""
        self.ctx.scratch["fighting_teams"] = fighting_teams(self.ctx.scratch.get("creatures") or query_creatures())


class CleanupProcessor(esper.Processor):
    """CLEANUP phase: clear the per-tick flags and working data."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """End the tick."""
        for _, cond in esper.get_component(Condition):
            cond.reeling = False
        self.ctx.scratch.pop("creatures", None)
