"""Shock recovery (the RECOVERY phase): the Stunned re-test.

decisions.md 000 #6: a Stunned victim re-tests Shock at -20 at the end of each of its turns; CS or MS clears the
stun, MF or CF leaves it Stunned until the next try. (The Incapacitated and Unconscious re-tests, Extended Shock
and Coma run on game-time schedules; they come with the wounds-over-time rules.)
"""

from __future__ import annotations

import esper

from components.events import ShockRetested
from components.rules import ShockState
from components.state import Anatomy, Condition, Shock
from systems.context import TickContext
from systems.dice import skill_test

RETEST_MODIFIER = -20
"""The Shock re-test modifier (document 000, Shock Re-Test)."""


class RecoveryProcessor(esper.Processor):
    """RECOVERY phase: stunned creatures whose re-test is due roll it."""

    def __init__(self, ctx: TickContext, retest_modifier: int = RETEST_MODIFIER) -> None:
        self.ctx = ctx
        self.retest_modifier = retest_modifier

    def process(self) -> None:
        """Make the due Stunned re-tests."""
        ctx = self.ctx
        tick = ctx.clock.tick
        for entity, (anat, shock, cond) in esper.get_components(Anatomy, Shock, Condition):
            if shock.state is not ShockState.STUNNED or cond.dead or cond.reeling or ctx.clock.time < shock.retest_at:
                continue
            base = anat.mls.get("shock")
            result = skill_test(None if base is None else base + self.retest_modifier, ctx.streams["shock"],
                                ctx.rules.tests)
            after = ShockState.NONE if result.success else ShockState.STUNNED
            ctx.emit(ShockRetested(tick, ctx.clock.time, entity, result.name, shock.state.label, after.label))
            if after is ShockState.NONE:
                shock.state = ShockState.NONE
                shock.since = tick
                shock.retest_at = -1.0
            else:
                shock.retest_at = ctx.clock.time + ctx.clock.seconds_per_tick
