"""Status and cleanup (the STATUS and CLEANUP phases) and the clock (first in INTENT)."""

from __future__ import annotations

from collections.abc import Iterable

import esper

from sandbox.components.state import Condition, Equipment
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature

__all__ = ["CleanupProcessor", "ClockProcessor", "StatusProcessor", "can_fight", "fighting_teams"]


class ClockProcessor(esper.Processor):
    """First of the tick.

    Advance the clock and begin the tick's working state, so every event of a tick carries its number and the game time
    at its end (tick n of an uninterrupted fight: n x tick length).
    """

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Begin the next tick."""
        if self.ctx.stream.subscribed:
            self.ctx.stream.flush()  # what a game's own calls logged since the last tick, before this one begins
        clock = self.ctx.clock
        clock.tick += 1
        clock.seconds += clock.seconds_per_tick
        self.ctx.begin_tick()


def can_fight(cond: Condition, equip: Equipment) -> bool:
    """Able to act and with some way to strike (a bystander with no weapon at all keeps no fight going)."""
    return (not cond.dead and not cond.out
            and bool(equip.natural or any(w not in equip.lost for w in equip.weapons)))


def fighting_teams(creatures: Iterable[Creature]) -> list[str]:
    """Teams that still have a creature able to fight, sorted."""
    return sorted({c.combatant.team for c in creatures if can_fight(c.condition, c.equipment)})


class StatusProcessor(esper.Processor):
    """STATUS phase: which teams still have a creature able to fight (what ends a skirmish)."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Record the fighting teams in the tick's state."""
        tick = self.ctx.current()
        tick.fighting_teams = fighting_teams(tick.creatures.values())


class CleanupProcessor(esper.Processor):
    """CLEANUP phase: clear the per-tick flags."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """End the tick, and deliver its events to the subscribers (``sandbox.systems.stream``)."""
        for c in self.ctx.current().creatures.values():
            c.condition.reeling = False
        if self.ctx.stream.subscribed:
            self.ctx.stream.flush(whole=True)
