"""The outcome preview of a world: what ``Sandbox.preview`` checks and asks its damage model.

``preview_of`` refuses what ``Sandbox.strike`` would refuse (an unknown mode or aim, a dead creature, a mode its
model has no numbers for) with a ``PreviewError``, and otherwise returns the model's exact odds
(``DamageModel.preview``), leaving the world as it was: no stream is drawn from and no state changes.
"""

from __future__ import annotations

from collections.abc import Mapping

from sandbox.components.gear import StrikeMode
from sandbox.components.preview import OutcomePreview
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import DamageModel, ModelError
from sandbox.systems.errors import SandboxError
from sandbox.systems.hit_location import called_target

__all__ = ["PreviewError", "preview_of"]


class PreviewError(SandboxError):
    """An outcome preview the world cannot give: an unknown creature, mode or aim, or a dead attacker or target.

    The message names the problem (and the valid names); the world is unchanged.
    """


def preview_of(model: DamageModel, ctx: TickContext, modes: Mapping[str, StrikeMode], target: Creature,
               mode: str, aim: str = "unaimed", attacker: Creature | None = None) -> OutcomePreview:
    """The exact odds of ``attacker`` striking ``target`` with ``mode`` at ``aim``, under ``model``.

    Args:
        model: The world's damage model.
        ctx: The world's context (its rules, skills and clock).
        modes: Every strike mode by id (the catalog's).
        target: Who would be struck.
        mode: The strike mode's id (``battleaxe.cut``).
        aim: ``unaimed``, or a part (or location) of the target's body.
        attacker: Who would strike, or ``None`` (a blow that lands, with no attack roll).

    Raises:
        PreviewError: An unknown mode or aim, a dead attacker or target, or a request the model refuses.
    """
    strike_mode = modes.get(mode)
    if strike_mode is None:
        raise PreviewError(f"unknown strike mode {mode!r}; known: {', '.join(sorted(modes))}")
    try:
        called_target(target.anatomy.body, aim)
    except ValueError as exc:
        raise PreviewError(f"{target.name}'s body: {exc}") from None
    for who in (attacker, target):
        if who is not None and who.condition.dead:
            raise PreviewError(f"{who.name} is dead: a preview needs a living attacker and target")
    try:
        return model.preview(target, strike_mode, aim, ctx, attacker)
    except ModelError as exc:
        raise PreviewError(str(exc)) from None
