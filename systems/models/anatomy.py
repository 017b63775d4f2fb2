"""The anatomy model (document 000): hit location, injury, bleeding, shock, impairment and health.

Its rules live in the other ``systems`` modules; this class only plugs them into the damage-model interface.
Its state is the shared ``Wounds`` and ``Shock`` components every creature has.
"""

from __future__ import annotations

from typing import Any

import esper

from components.anatomy import Aspect
from components.gear import StrikeMode
from components.readout import Readout
from components.rules import LEVEL_CODES, ShockState
from systems.context import TickContext
from systems.creatures import Parts, can_act
from systems.health import band
from systems.models.base import DamageModel, register
from systems.phases import Phase


@register
class AnatomyModel(DamageModel):
    """Document 000: wounds at named locations, shock, bleeding, impairment, a health ceiling."""

    name = "anatomy"

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """Damage settling, bleeding and course tests, shock re-tests."""
        from systems.aftercare import BleedingProcessor
        from systems.damage import DamageProcessor
        from systems.recovery import RecoveryProcessor

        return [(Phase.DAMAGE, DamageProcessor(ctx)), (Phase.EFFECTS, BleedingProcessor(ctx)),
                (Phase.RECOVERY, RecoveryProcessor(ctx))]

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """The opposed d100 test and, when it lands, the blow resolved and applied (``systems.combat.attack``)."""
        from systems.combat import attack

        return attack(entity, me, foe_entity, foe, mode, ctx, parts)

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """``location=`` (a name), ``level=`` (1..5 or a code) and ``aspect=`` (a name): a wound recorded directly.

        Raises:
            ValueError: A missing or unknown location, level or aspect.
        """
        from systems.damage import inflict

        _, anat, wounds, _, _, cond, _, _, equip = me
        location, level, aspect = kwargs.get("location"), kwargs.get("level"), kwargs.get("aspect", "blunt")
        if location is None or level is None:
            raise ValueError("the anatomy model inflicts location=, level= and aspect=")
        try:
            loc = anat.body.location_index(str(location))
        except KeyError as exc:
            raise ValueError(str(exc.args[0])) from None
        lv = LEVEL_CODES.index(level) if isinstance(level, str) and level in LEVEL_CODES else level
        if not isinstance(lv, int) or isinstance(lv, bool) or not 1 <= lv <= 5:
            raise ValueError(f"level must be 1..5 or M1/S2/S3/G4/G5, not {level!r}")
        inflict(entity, anat, wounds, cond, equip, loc, lv, int(Aspect.parse(str(aspect))), ctx)

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """Health percent and band, shock state, and the conditions the wounds and gear leave."""
        _, anat, wounds, _, shock, cond, _, _, equip = me
        health_band = band(wounds.health, ctx.rules)
        conditions: list[str] = []
        if cond.prone and not cond.dead:
            conditions.append("prone")
        if equip.weapons and not equip.holding and not cond.dead:
            conditions.append("disarmed")
        conditions += [f"immobilized: {anat.body.parts[p].name}" for p in sorted(cond.immobilized)]
        conditions += [f"severed: {anat.body.locations[loc].name}" for loc in sorted(wounds.severed)]
        if not cond.dead:
            bleeders = [anat.body.locations[i.location].name for i in wounds.injuries if i.bleeder and i.level > 0]
            conditions += [f"bleeding: {loc}" for loc in bleeders]
        if wounds.extended_shock_hr is not None and not cond.dead:
            conditions.append(f"extended shock (HR {wounds.extended_shock_hr})")
        if wounds.coma_hr is not None and not cond.dead:
            conditions.append(f"coma (HR {wounds.coma_hr})")
        # The label is the model's own words, lower case (issue 5): the band, and the shock state when there is one.
        if cond.dead:
            label = "dead"
        elif shock.state is not ShockState.NONE:
            label = f"{health_band.lower()}, {shock.state.label}"
        else:
            label = health_band.lower()
        return Readout(not cond.dead, can_act(cond, shock), label, wounds.health, health_band, shock.state.label,
                       tuple(conditions))
