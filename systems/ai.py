"""Intent: each creature able to act picks a target, a strike mode it can wield and an aim (the INTENT phase).

Targets come from a spatial index (one grid per team, rebuilt each tick), never from a scan of every creature:
a creature keeps its target while the target can still act. When the target falls, a creature close to it (within
the retarget radius) looks for another at once; one still far off keeps heading for the spot and looks again
once it is near, which keeps a large battle from re-searching the whole field every tick.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import esper

from components.events import ModeChanged
from components.gear import StrikeMode
from components.state import Anatomy, Combatant, Condition, Equipment, Position
from components.wounds import Wounds
from systems.combat import in_range, initiative_order, ready_parts
from systems.context import TickContext
from systems.creatures import Parts, ensure_status, query_creatures
from systems.dice import Rng
from systems.hit_location import target_zone_number
from systems.models.base import DamageModel
from systems.spatial import Grid
from systems.strike import wielding_parts

TARGET_POLICIES: tuple[str, ...] = ("nearest", "weakest", "random")


def mean_impact(mode: StrikeMode) -> float:
    """The average impact of a mode's dice."""
    return mode.impact.count * (mode.impact.sides + 1) / 2 + mode.impact.modifier


def mode_options(anat: Anatomy, wounds: Wounds, cond: Condition, equip: Equipment, ctx: TickContext,
                 entity: int | None = None, disabled: frozenset[int] = frozenset()) -> list[StrikeMode]:
    """Every mode the creature could strike with now, hardest-hitting first (ties: held weapons before natural
    ones, then definition order).

    With ``entity`` given, the list is cached in ``ctx.cache`` until what it depends on changes (the part
    impairments, what is held, the immobilised parts, the parts the damage model has ``disabled``), since it is
    asked for every creature every tick.
    """
    if entity is not None:
        key = (wounds.impairments, tuple(equip.holding.items()), tuple(cond.immobilized), disabled)
        cached = ctx.cache.get(("modes", entity))
        if cached is not None and cached[0] == key:
            return cached[1]  # type: ignore[no-any-return]
        options = mode_options(anat, wounds, cond, equip, ctx, disabled=disabled)
        parts = {m.id: ready_parts(anat, wounds.impairments, cond, equip, m, disabled) for m in options}
        ctx.cache[("modes", entity)] = (key, options, parts)
        return options
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
            if ready_parts(anat, wounds.impairments, cond, equip, mode, disabled) is not None:
                options.append(mode)
    options.sort(key=lambda m: -mean_impact(m))  # stable: equal impacts keep their order
    return options


def choose_mode(options: Sequence[StrikeMode], distance: float) -> StrikeMode | None:
    """The mode to use at ``distance`` from options ranked hardest-hitting first: the first that reaches; else
    the first melee mode, to close in with; else the longest-ranged."""
    melee = None
    for mode in options:
        if in_range(mode, distance):
            return mode
        if melee is None and mode.kind == "melee":
            melee = mode
    if melee is not None:
        return melee
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
        self.engaged: dict[int, int] = {}
        self.disabled: Callable[[int], frozenset[int]] | None = None

    def process(self) -> None:
        """Decide what every creature means to do this tick."""
        ctx = self.ctx
        # A damage model that puts parts out of use by its own state (depth's broken limbs) says which; the
        # others (most) cost nothing here.
        model = ctx.model
        self.disabled = (model.disabled_parts if model is not None
                         and type(model).disabled_parts is not DamageModel.disabled_parts else None)
        creatures = query_creatures()
        ctx.scratch["creatures"] = creatures
        if ctx.scratch.get("order_size") != len(creatures):
            ctx.scratch["order"] = initiative_order(creatures)
            ctx.scratch["order_size"] = len(creatures)
        entries: dict[str, list[tuple[int, float, float, str]]] = {}
        engaged: dict[int, int] = {}
        melee_modes = ctx.cache.get("melee modes")
        if melee_modes is None:
            melee_modes = ctx.cache["melee modes"] = {m.id for m in ctx.modes.values() if m.kind == "melee"}
        for entity, (_, anat, wounds, _, shock, cond, comb, pos, _) in creatures.items():
            if not wounds.impairments:
                ensure_status(anat, wounds, ctx)
            if not cond.dead and not cond.out and shock.state < 2:
                if anat.body.locations:  # an incorporeal creature is no target
                    entries.setdefault(comb.team, []).append((entity, pos.x, pos.y, comb.team))
                if comb.target >= 0 and comb.mode in melee_modes:
                    engaged[comb.target] = engaged.get(comb.target, 0) + 1
        self.engaged = engaged
        grids = {team: Grid(ctx.combat.grid_cell, items) for team, items in entries.items()}
        for entity in ctx.scratch["order"]:
            self.decide(entity, creatures[entity], creatures, grids)

    def decide(self, entity: int, me: Parts, creatures: dict[int, Parts], grids: dict[str, Grid]) -> None:
        """Set one creature's target, mode, aim and action."""
        ctx = self.ctx
        _, anat, wounds, _, shock, cond, comb, pos, equip = me
        if cond.dead or cond.out or shock.state >= 2:
            comb.action = "dead" if cond.dead else "down"
            return
        if cond.prone and can_walk(anat, wounds, cond):
            comb.action = "stand up"
            return
        if not equip.holding and (equip.dropped or equip.weapons):
            rearm = rearm_action(anat, wounds, cond, equip, ctx)
            if rearm:
                comb.action = rearm
                return
        foe = creatures.get(comb.target)
        dist = math.inf
        if foe is not None:
            fpos = foe[7]
            dist = math.hypot(fpos.x - pos.x, fpos.y - pos.y)
            if foe[5].dead or foe[5].out or foe[4].state >= 2:
                current = ctx.modes.get(comb.mode)
                # Fallen: look for another when close by, or when it would not move on anyway (a bow in range).
                if dist <= ctx.combat.retarget_radius or (current is not None and in_range(current, dist)):
                    foe = None
        if foe is None:
            self.retarget(entity, comb, pos, creatures, grids)
            foe = creatures.get(comb.target)
            if foe is None:
                comb.action = "stand"
                return
            dist = math.hypot(foe[7].x - pos.x, foe[7].y - pos.y)
        disabled = self.disabled(entity) if self.disabled is not None else frozenset()
        mode = choose_mode(mode_options(anat, wounds, cond, equip, ctx, entity, disabled), dist)
        new_mode = mode.id if mode is not None else ""
        if new_mode != comb.mode:
            ctx.emit(ModeChanged(ctx.clock.tick, ctx.clock.time, entity, comb.mode, new_mode))
            comb.mode = new_mode
        if mode is None:
            comb.action = "stand"
            return
        if comb.aim != "unaimed":
            comb.aim_zone = choose_aim(comb.aim, foe[1], ctx.streams["ai"])
        comb.action = "attack" if in_range(mode, dist) else "approach"

    def health_of(self, entity: int, creatures: dict[int, Parts]) -> int:
        """How hale a creature reads under the world's damage model (what ``weakest`` compares)."""
        model = self.ctx.model
        if model is None:
            return creatures[entity][2].health
        return int(model.readout(entity, creatures[entity], self.ctx).health)

    def retarget(self, entity: int, comb: Combatant, pos: Position, creatures: dict[int, Parts],
                 grids: dict[str, Grid]) -> None:
        """Pick a new target and keep the engagement counts current."""
        old = comb.target
        melee = _melee(self.ctx.modes.get(comb.mode)) or not comb.mode
        new = self.pick_target(entity, comb, pos, creatures, grids, melee)
        if melee:
            if old >= 0 and self.engaged.get(old):
                self.engaged[old] -= 1
            if new >= 0:
                self.engaged[new] = self.engaged.get(new, 0) + 1
        comb.target = new

    def pick_target(self, entity: int, comb: Combatant, pos: Position, creatures: dict[int, Parts],
                    grids: dict[str, Grid], melee: bool = True) -> int:
        """A new target by the creature's policy (-1 when no enemy can act).

        A melee fighter passes over enemies already engaged by the most melee attackers one can have
        (``max_melee_attackers``) while any other is to be had.
        """
        ctx = self.ctx
        enemy_grids = [g for team, g in grids.items() if team != comb.team]
        if not enemy_grids:
            return -1
        cap = ctx.combat.max_melee_attackers
        engaged = self.engaged

        def free(e: int, _team: str) -> bool:
            return engaged.get(e, 0) < cap

        accept = free if melee and cap > 0 else None
        if comb.policy in ("weakest", "random"):
            near: list[int] = []
            for grid in enemy_grids:
                near.extend(grid.within(pos.x, pos.y, ctx.combat.retarget_radius, accept))
            if near:
                if comb.policy == "random":
                    return sorted(near)[int(ctx.streams["ai"].random() * len(near))]
                return min(near, key=lambda e: (self.health_of(e, creatures), _dist(pos, creatures[e][7]), e))
        for condition in ((accept, None) if accept is not None else (None,)):
            best, best_d = -1, math.inf
            for grid in enemy_grids:
                found, d = grid.nearest(pos.x, pos.y, condition)
                if found >= 0 and (d < best_d or (d == best_d and found < best)):
                    best, best_d = found, d
            if best >= 0:
                return best
        return -1


def _melee(mode: StrikeMode | None) -> bool:
    return mode is not None and mode.kind == "melee"


def _dist(a: Position, b: Position) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
