"""Healing items in a fight under the strength-health model: when a creature spends its turn using one.

Sandbox rules (``[item_use]`` of ``configs/models/strength.toml``): a creature able to act, carrying a healing item,
with no enemy within its reach, uses one on a dying team-mate within ``reach`` (the soonest to die first), else on
itself when its health is at most ``self_at`` of its STR (that one even with an enemy in reach, when
``self_in_melee``). ``turn_action`` chooses the turn, ``act`` takes it; the item itself works as ``care.use_item``
says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sandbox.components.models.strength import StrengthTables
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature
from sandbox.systems.models.strength.care import usable_items, use_item
from sandbox.systems.models.strength.rules import strength_state

__all__ = ["act", "turn_action", "turn_options"]


def turn_action(tables: StrengthTables, creature: Creature, near: Callable[[float], Sequence[Creature]], *,
                threatened: bool = False) -> TurnAction | None:
    """The creature's turn with a healing item, or ``None`` when it carries none or nobody needs one.

    On a dying team-mate within reach (the soonest to die first) when no enemy is within the creature's reach, else
    on itself when its health is at most ``item_use.self_at`` of its STR (with an enemy in reach too, when
    ``item_use.self_in_melee``).

    Args:
        tables: The model's tables.
        creature: The creature deciding.
        near: ``near(radius)``: its living team-mates within ``radius`` metres, itself and the downed included.
        threatened: An enemy able to act is within the creature's reach.
    """
    mine = usable_items(tables, creature)
    if not mine:
        return None
    use = tables.item_use
    if threatened and not use.self_in_melee:
        return None
    dying = [] if threatened else [c for c in near(use.reach)
                                   if c.entity != creature.entity and _needs_item(tables, c, False)]
    if dying:
        patient = min(dying, key=lambda c: (strength_state(c).dying_at, c.entity))
        return TurnAction("healing item", patient.entity, mine[0])
    if _needs_item(tables, creature, True):
        return TurnAction("healing item", creature.entity, mine[0])
    return None


def turn_options(tables: StrengthTables, creature: Creature, near: Callable[[float], Sequence[Creature]], *,
                 threatened: bool = False) -> list[TurnAction]:
    """Every healing-item turn ``turn_action``'s rules allow the creature now: each item it carries on each patient.

    The patients: every dying team-mate within reach (by entity) when no enemy is within its reach, then itself when
    it is low enough (with an enemy in reach too, when ``item_use.self_in_melee``); the items the most healing first.
    """
    mine = usable_items(tables, creature)
    use = tables.item_use
    if not mine or (threatened and not use.self_in_melee):
        return []
    patients = [] if threatened else [c.entity for c in near(use.reach)
                                      if c.entity != creature.entity and _needs_item(tables, c, False)]
    if _needs_item(tables, creature, True):
        patients.append(creature.entity)
    return [TurnAction("healing item", patient, item) for item in mine for patient in patients]


def _needs_item(tables: StrengthTables, c: Creature, on_self: bool) -> bool:
    state = strength_state(c)
    if c.condition.dead:
        return False
    if not on_self:
        return state.dying
    return state.health < state.max_health and state.health <= tables.item_use.self_at * state.max_health


def act(tables: StrengthTables, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
    """Use the healing item chosen on the patient (within reach when the turn began), if both are still so.

    Only if the patient still needs it and the item is still carried (a team-mate saved earlier this tick is not
    given another).
    """
    patient = ctx.creatures().get(action.patient)
    if patient is None or action.item not in creature.equipment.items:
        return
    if _needs_item(tables, patient, patient.entity == creature.entity):
        use_item(tables, creature, patient, action.item, ctx)
