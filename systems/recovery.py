"""Shock recovery (the RECOVERY phase): re-tests when due.

A Stunned or Incapacitated creature re-tests at the end of its next turn, an Unconscious one after 10 minutes
(``systems.aftercare.retest`` has the outcomes). A creature in Extended Shock or a Coma is locked in its state:
its course tests (``systems.aftercare``) decide how it ends.
"""

from __future__ import annotations

import esper

from components.rules import ShockState
from systems.aftercare import retest
from systems.context import TickContext
from systems.creatures import query_creatures


class RecoveryProcessor(esper.Processor):
    """RECOVERY phase: every creature whose Shock re-test is due makes it."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Make the due re-tests."""
        ctx = self.ctx
        if ctx.rules.aftercare is None:
            return
        now = ctx.clock.time
        for entity, (_, anat, wounds, _, shock, cond, _, _, _) in (
                ctx.scratch.get("creatures") or query_creatures()).items():
            if (shock.state is ShockState.NONE or shock.state is ShockState.DEAD or cond.dead or cond.reeling
                    or shock.retest_at < 0 or now < shock.retest_at):
                continue
            if wounds.extended_shock_hr is not None or wounds.coma_hr is not None:
                shock.retest_at = -1.0  # locked in its state: the course tests decide
                continue
            retest(entity, anat, wounds, shock, cond, ctx)
