"""Shock recovery (the RECOVERY phase): re-tests when due.

A Stunned or Incapacitated creature re-tests at the end of its next turn, an Unconscious one after 10 minutes
(``sandbox.systems.models.anatomy.aftercare.retest`` has the outcomes). A creature in Extended Shock or a Coma is locked
in its state: its course tests (``sandbox.systems.models.anatomy.aftercare``) decide how it ends.
"""

from __future__ import annotations

import esper

from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.rules import AnatomyRules, ShockState
from sandbox.systems.context import TickContext
from sandbox.systems.models.anatomy.aftercare import retest

__all__ = ["RecoveryProcessor"]


class RecoveryProcessor(esper.Processor):
    """RECOVERY phase: every creature whose Shock re-test is due makes it."""

    def __init__(self, ctx: TickContext, rules: AnatomyRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Make the due re-tests."""
        ctx, rules = self.ctx, self.rules
        if rules.aftercare is None:
            return
        now = ctx.clock.time
        creatures = ctx.current().creatures
        for entity, (injury, shock) in esper.get_components(Injury, Shock):
            if shock.state is ShockState.NONE or shock.state is ShockState.DEAD or shock.retest_at < 0:
                continue
            cond = creatures[entity].condition
            if cond.dead or cond.reeling or now < shock.retest_at:
                continue
            if injury.extended_shock_hr is not None or injury.coma_hr is not None:
                shock.retest_at = -1.0  # locked in its state: the course tests decide
                continue
            retest(entity, creatures[entity].anatomy, injury, shock, cond, rules, ctx)
