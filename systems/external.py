"""A creature the game drives: the ``external`` policy's intent, taken from the action the game submitted.

The game submits at most one action per creature per tick (``Sandbox.submit``: it is checked against the rules,
``sandbox.systems.options.refusal``, and kept in ``TickContext.submitted``). In the next tick's INTENT phase the
``IntentProcessor`` asks ``ExternalIntent`` for such a creature's intent, in initiative order like everyone's: the
submitted action (checked again, in case the world changed since) becomes the creature's intent, exactly as the AI
sets its own: target, mode, aim and ``Combatant.action``. The MOVE and ATTACK phases then carry it out as they
carry out the AI's: a strike in the creature's place in the initiative order, a model's own turn in the same order,
a move or a turn-costing action in the MOVE phase. With nothing submitted (or an action the rules no longer allow),
the creature waits (``stand``).

Under external control ``Combatant.aim`` is the aim of the creature's last strike (its aim policy is the game's).
"""

from __future__ import annotations

from sandbox.components.events import ModeChanged
from sandbox.systems.actions import Approach, Draw, FirstAid, ModelTurn, Move, PickUp, StandUp, Strike, UseItem
from sandbox.systems.ai import choose_aim
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.options import model_turn, refusal

__all__ = ["ExternalIntent"]

_WORDS: dict[type, str] = {Move: "move", StandUp: "stand up", PickUp: "pick up", Draw: "draw"}
"""``Combatant.action`` for the actions the MOVE phase carries out."""


class ExternalIntent:
    """The INTENT phase's answer for a creature under ``external`` control (called by ``IntentProcessor``).

    Args:
        ctx: The world.
    """

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def __call__(self, me: Creature) -> None:
        """Set the creature's intent for this tick from the action submitted for it, or make it wait."""
        ctx = self.ctx
        comb = me.combatant
        action = ctx.submitted.pop(me.entity, None)
        if action is None or refusal(me, action, ctx):
            comb.action = "stand"
            comb.target = -1
            return
        ctx.current().orders[me.entity] = action
        if isinstance(action, Strike | Approach):
            foe = ctx.creatures()[int(action.target)]
            if action.mode != comb.mode:
                ctx.emit(ModeChanged(ctx.clock.tick, ctx.clock.time, me.entity, comb.mode, action.mode))
                comb.mode = action.mode
            comb.target = foe.entity
            aim = action.aim if isinstance(action, Strike) else "unaimed"
            comb.aim = aim
            # A named aim draws nothing (only the AI's "random" does): the zone its part owns, 0 for unaimed.
            comb.aim_zone = choose_aim(aim, foe.anatomy.body, ctx.streams["ai"])
            comb.action = "attack" if isinstance(action, Strike) else "approach"
            return
        comb.target = -1
        if isinstance(action, FirstAid | UseItem | ModelTurn):
            turn = model_turn(action)
            comb.action = turn.name
            ctx.current().actions[me.entity] = turn
            return
        comb.action = _WORDS.get(type(action), "stand")
