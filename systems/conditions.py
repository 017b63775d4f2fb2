"""What any damage model does to a creature's shared condition and gear: death, and a part letting go."""

from __future__ import annotations

from components.events import Died, ItemDropped
from components.state import Condition, Equipment
from systems.context import TickContext


def kill(entity: int, cond: Condition, cause: str, ctx: TickContext) -> None:
    """Mark a creature dead (entities are never deleted mid-run: systems check the flag); it falls and acts no
    more this tick."""
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
