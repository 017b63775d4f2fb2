"""Intent: each creature able to act picks a target, a strike mode it can wield and an aim (the INTENT phase).

Targets come from a spatial index (one grid per team, rebuilt each tick), never from a scan of every creature:
a creature keeps its target while the target can still act, and looks again only when it cannot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import esper

from components.events import ModeChanged
from components.gear import StrikeMode
from components.state import Anatomy, Combatant, Condition, Equipment, Position
from components.wounds import Wounds
from systems.combat import in_range, initiative_order, ready_parts
from systems.context import TickContext
from systems.creatures import Parts, can_act, ensure_status, query_creatures
from systems.dice import Rng
from systems.hit_location import target_zone_number
from systems.spatial import Grid
from systems.strike import wielding_parts

TARGET_POLICIES: tuple[str, ...] = ("nearest", "weakest", "random")


def mean_impact(mode: StrikeMode) -> float:
    """The average impact of a mode's dice."""
    return mode.impact.count * (mode.impact.sides + 1) / 2 + mode.impact.modifier


def mode_options(anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, ctx: TickContext
                 ) -> list[StrikeMode]:
    """Every mode the creature could strike with now: its held weapons' modes, then its natural weapons'."""
    weapons: list[str] = []
    for item in equip.holding.values():
        if item not in weapons:
            weapons.append(item)
    weapons.extend(equip.natural)
    options = []
    for weapon_id in weapons:
        weapon = ctx.weapons.get(weapon_id)
        if weapon is None:
            continue
        for mode in weapon.modes:
            if ready_parts(anat, wounds.impairments, cond, equip, mode) is not None:
                options.append(mode)
    return options


def choose_mode(options: Sequence[StrikeMode], distance: float) -> StrikeMode | None:
    """The mode to use at ``distance``: the hardest-hitting one that reaches; else the hardest-hitting melee mode
    to close in with; else the longest-ranged. Ties keep the earlier option (held weapons before natural ones)."""
    reaching = [m for m in options if in_range(m, distance)]
    if reaching:
        return max(reaching, key=mean_impact)
    melee = [m for m in options if m.kind == "melee"]
    if melee:
        return max(melee, key=mean_impact)
    return max(options, key=lambda m: m.range) if options else None


def choose_aim(policy: str, target: Anatomy, rng: Rng) -> int:
    """Target zone number for an aim policy against ``target`` (0: unaimed).

    ``unaimed``; ``random`` (a random part that can be aimed at); or a part name (unaimed when the target has
    no such part, or it cannot be aimed at).
    """
    body = target.body
    if policy == "unaimed" or not body.parts:
        return 0
    if policy == "random":
        aimable = [i for i, p in enumerate(body.parts) if body.zones[p.zone].weight > 0 and body.part_hittable(i)]
        if not aimable:
            return 0
        return target_zone_number(body, aimable[int(rng.random() * len(aimable))])
    try:
        part = body.part_index(policy)
    except KeyError:
        return 0
    return target_zone_number(body, part) if body.zones[body.parts[part].zone].weight > 0 else 0


def can_walk(anat: Anatomy, wounds: Wounds, cond: Condition) -> bool:
    """A creature with Locomotor parts walks only while one of them is usable and free."""
    locomotors = [i for i, p in enumerate(anat.body.parts) if "locomotor" in p.roles]
    if not locomotors:
        return True
    return any(not wounds.impairments[i].unusable and i not in cond.immobilized for i in locomotors)


def grip_parts_for(anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, weapon_id: str,
                   ctx: TickContext) -> tuple[int, ...] | None:
    """Free, usable hands to take up ``weapon_id`` with (as many as its most demanding grip mode needs)."""
    weapon = ctx.weapons.get(weapon_id)
    if weapon is None:
        return None
    for mode in sorted(weapon.modes, key=lambda m: -m.limbs):
        if mode.limb != "grip":
            continue
        parts = wielding_parts(anat.body, mode, wounds.impairments, dominance=anat.kind.dominance,
                               immobilized=cond.immobilized, holding=equip.holding)
        if parts is not None:
            return parts
    return None


def rearm_action(anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, ctx: TickContext) -> str:
    """``pick up`` a dropped weapon or ``draw`` a carried one when the hands are empty; else ""."""
    if equip.holding:
        return ""
    for item in equip.dropped:
        if grip_parts_for(anat, wounds, cond, equip, item, ctx) is not None:
            return "pick up"
    for item in equip.weapons:
        if item not in equip.dropped and item not in equip.lost and grip_parts_for(
                anat, wounds, cond, equip, item, ctx) is not None:
            return "draw"
    return ""


class IntentProcessor(esper.Processor):
    """INTENT phase: targets, modes, aims and actions for every creature able to act."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Decide what every creature means to do this tick."""
        ctx = self.ctx
        creatures = query_creatures()
        ctx.scratch["creatures"] = creatures
        if ctx.scratch.get("order_size") != len(creatures):
            ctx.scratch["order"] = initiative_order(creatures)
            ctx.scratch["order_size"] = len(creatures)
        entries: dict[str, list[tuple[int, float, float, str]]] = {}
        for entity, (_, anat, wounds, _, shock, cond, comb, pos, _) in creatures.items():
            ensure_status(anat, wounds, ctx)
            if can_act(cond, shock) and anat.body.locations:  # an incorporeal creature is no target
                entries.setdefault(comb.team, []).append((entity, pos.x, pos.y, comb.team))
        grids = {team: Grid(ctx.combat.grid_cell, items) for team, items in entries.items()}
        for entity in ctx.scratch["order"]:
            self.decide(entity, creatures[entity], creatures, grids)

    def decide(self, entity: int, me: Parts, creatures: dict[int, Parts], grids: dict[str, Grid]) -> None:
        """Set one creature's target, mode, aim and action."""
        ctx = self.ctx
        _, anat, wounds, _, shock, cond, comb, pos, equip = me
        if not can_act(cond, shock):
            comb.action = "down" if not cond.dead else "dead"
            return
        if cond.prone and can_walk(anat, wounds, cond):
            comb.action = "stand up"
            return
        rearm = rearm_action(anat, wounds, cond, equip, ctx)
        if rearm:
            comb.action = rearm
            return
        target = comb.target
        foe = creatures.get(target)
        if foe is None or not can_act(foe[5], foe[4]):
            target = self.pick_target(entity, comb, pos, creatures, grids)
            comb.target = target
            foe = creatures.get(target)
        if foe is None:
            comb.action = "stand"
            return
        fpos = foe[7]
        dist = math.hypot(fpos.x - pos.x, fpos.y - pos.y)
        mode = choose_mode(mode_options(anat, wounds, cond, equip, ctx), dist)
        new_mode = mode.id if mode is not None else ""
        if new_mode != comb.mode:
            ctx.emit(ModeChanged(ctx.clock.tick, ctx.clock.time, entity, comb.mode, new_mode))
            comb.mode = new_mode
        if mode is None:
            comb.action = "stand"
            return
        comb.aim_zone = choose_aim(comb.aim, foe[1], ctx.streams["ai"])
        comb.action = "attack" if in_range(mode, dist) else "approach"

    def pick_target(self, entity: int, comb: Combatant, pos: Position, creatures: dict[int, Parts],
                    grids: dict[str, Grid]) -> int:
        """A new target by the creature's policy (-1 when no enemy can act)."""
        ctx = self.ctx
        enemy_grids = [g for team, g in grids.items() if team != comb.team]
        if not enemy_grids:
            return -1
        if comb.policy in ("weakest", "random"):
            near: list[int] = []
            for grid in enemy_grids:
                near.extend(grid.within(pos.x, pos.y, ctx.combat.retarget_radius, _any))
            if near:
                if comb.policy == "random":
                    return sorted(near)[int(ctx.streams["ai"].random() * len(near))]
                return min(near, key=lambda e: (creatures[e][2].health, _dist(pos, creatures[e][7]), e))
        best, best_d = -1, math.inf
        for grid in enemy_grids:
            found, d = grid.nearest(pos.x, pos.y, _any)
            if found >= 0 and (d < best_d or (d == best_d and found < best)):
                best, best_d = found, d
        return best


def _any(entity: int, team: str) -> bool:
    return True


def _dist(a: Position, b: Position) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
