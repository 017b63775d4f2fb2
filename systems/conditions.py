"""What any damage model does to a creature's shared condition and gear.

Death, a part letting go, and the shields it holds ready.
"""

from __future__ import annotations

from collections.abc import Mapping

from sandbox.components.events import Died, ItemDropped
from sandbox.components.gear import Weapon
from sandbox.components.impairment import Impairment
from sandbox.components.state import Condition, Equipment
from sandbox.systems.context import TickContext

__all__ = ["drop_held", "kill", "shields_held"]


def kill(entity: int, cond: Condition, cause: str, ctx: TickContext) -> None:
    """Mark a creature dead (entities are never deleted mid-run: systems check the flag).

    It falls and acts no more this tick.
    """
    if cond.dead:
        return
    cond.dead = True
    cond.cause = cause
    cond.reeling = True
    cond.prone = True
    ctx.emit(Died(ctx.clock.tick, ctx.clock.time, entity, cause))


def drop_held(entity: int, equip: Equipment, part: int, part_name: str, flung: bool, ctx: TickContext) -> None:
    """The part lets go of what it holds; a two-handed grip loses the weapon from every hand."""
    item = equip.holding.get(part)
    if item is None:
        return
    for p in [p for p, held in equip.holding.items() if held == item]:
        del equip.holding[p]
    (equip.lost if flung else equip.dropped).append(item)
    ctx.emit(ItemDropped(ctx.clock.tick, ctx.clock.time, entity, item, part_name, flung))


def shields_held(equip: Equipment, states: tuple[Impairment, ...], cond: Condition,
                 weapons: Mapping[str, Weapon]) -> tuple[str, ...]:
    """The shields a creature holds ready.

    Each gripped by a hand that is usable (``states``, the damage model's ``part_states``) and not held fast; none while
    it cannot act (out of the fight, dead). Each shield counts once, whatever number of hands grip it.
    """
    if cond.dead or cond.out:
        return ()
    ready: list[str] = []
    for part, item in sorted(equip.holding.items()):
        weapon = weapons.get(item)
        if weapon is not None and weapon.shield and item not in ready and not states[part].unusable \
                and part not in cond.immobilized:
            ready.append(item)
    return tuple(ready)
