"""Intent: each creature able to act picks a target, a strike mode it can wield and an aim (the INTENT phase).

Targets come from a spatial index (one grid per team, rebuilt each tick), never from a scan of every creature:
a creature keeps its target while the target can still act. When the target falls, a creature close to it (within
the retarget radius) looks for another at once; one still far off keeps heading for the spot and looks again
once it is near, which keeps a large battle from re-searching the whole field every tick.

What a creature can wield comes from its damage model's answer for each part (``DamageModel.part_states``):
unusable parts (a grievous wound, a broken limb) and parts held fast wield nothing.

A creature under ``external`` control (``sandbox.systems.actions.EXTERNAL``) does not decide here: the game does,
and the processor's ``external`` hook (``sandbox.systems.external.ExternalIntent``) sets its intent, in the same
initiative order.

A damage model may have turns of its own (``DamageModel.turn_action``: first aid, a healing item): a creature with
no enemy within its reach is asked whether it takes one instead of closing in, with its team-mates near it (the
downed too) to choose a patient from, and whether an enemy is within its reach.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.events import ModeChanged
from sandbox.components.gear import StrikeMode, Weapon
from sandbox.components.impairment import Impairment
from sandbox.components.state import Anatomy, Condition, Equipment, Position
from sandbox.systems.actions import EXTERNAL
from sandbox.systems.combat import in_range, ready_parts
from sandbox.systems.context import StrikeOptions, TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng
from sandbox.systems.hit_location import target_zone_number
from sandbox.systems.spatial import Grid
from sandbox.systems.strike import wielding_parts

__all__ = ["AIM_POLICIES", "TARGET_POLICIES", "IntentProcessor", "aimable_parts", "can_walk", "choose_aim",
           "choose_mode", "grip_parts_for", "mean_impact", "mode_options", "rearm_action"]

TARGET_POLICIES: tuple[str, ...] = ("nearest", "weakest", "random")
"""How a creature picks its target."""
AIM_POLICIES: tuple[str, ...] = ("unaimed", "random")
"""Aim policies besides a part's name."""


def mean_impact(mode: StrikeMode) -> float:
    """The average impact of a mode's dice."""
    return mode.impact.count * (mode.impact.sides + 1) / 2 + mode.impact.modifier


def mode_options(anat: Anatomy, states: tuple[Impairment, ...], cond: Condition, equip: Equipment,
                 ctx: TickContext, entity: int | None = None) -> list[StrikeMode]:
    """Every mode the creature could strike with now, hardest-hitting first.

    Ties go held weapons before natural ones, then in definition order.

    Args:
        anat: The creature's anatomy.
        states: What each part can do (``DamageModel.part_states``).
        cond: Its condition (parts held fast wield nothing).
        equip: What it holds and carries.
        ctx: The world.
        entity: With an entity, the list is cached in ``ctx.strike_options`` until what it depends on changes (the
            part states, what is held, the immobilised parts), since it is asked for every creature every tick.
    """
    if entity is not None:
        key = (states, tuple(equip.holding.items()), tuple(cond.immobilized))
        cached = ctx.strike_options.get(entity)
        if cached is not None and cached.key == key:
            return cached.modes
        options = mode_options(anat, states, cond, equip, ctx)
        parts = {m.id: ready_parts(anat, states, cond, equip, m) for m in options}
        ctx.strike_options[entity] = StrikeOptions(key, options, parts)
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
            if ready_parts(anat, states, cond, equip, mode) is not None:
                options.append(mode)
    options.sort(key=lambda m: -mean_impact(m))  # stable: equal impacts keep their order
    return options


def choose_mode(options: Sequence[StrikeMode], distance: float) -> StrikeMode | None:
    """The mode to use at ``distance`` from options ranked hardest-hitting first.

    The first that reaches; else the first melee mode, to close in with; else the longest-ranged.
    """
    melee = None
    for mode in options:
        if in_range(mode, distance):
            return mode
        if melee is None and mode.kind == "melee":
            melee = mode
    if melee is not None:
        return melee
    return max(options, key=lambda m: m.range) if options else None


def aimable_parts(body: BodyStructure) -> list[int]:
    """The parts an aim can name: hittable parts of zones that own zone numbers."""
    return [i for i, p in enumerate(body.parts) if body.zones[p.zone].weight > 0 and body.part_hittable(i)]


def choose_aim(policy: str, target: BodyStructure, rng: Rng) -> int:
    """Target zone number for an aim policy against ``target`` (0: unaimed).

    ``unaimed``; ``random`` (a random part that can be aimed at); or a part or location name (a location aims at
    its part's zone; unaimed when the target has no such part or location, or it cannot be aimed at: a creature
    aiming at the Head attacks a snake unaimed).
    """
    if policy == "unaimed" or not target.parts:
        return 0
    if policy == "random":
        aimable = aimable_parts(target)
        if not aimable:
            return 0
        return target_zone_number(target, aimable[int(rng.random() * len(aimable))])
    try:
        part = target.part_index(policy)
    except KeyError:
        try:
            part = target.locations[target.location_index(policy)].part
        except KeyError:
            return 0
    return target_zone_number(target, part) if target.zones[target.parts[part].zone].weight > 0 else 0


def can_walk(body: BodyStructure, states: tuple[Impairment, ...], cond: Condition) -> bool:
    """A creature with Locomotor parts walks only while one of them is usable and free."""
    locomotors = [i for i, p in enumerate(body.parts) if "locomotor" in p.roles]
    if not locomotors:
        return True
    return any(not states[i].unusable and i not in cond.immobilized for i in locomotors)


def grip_parts_for(anat: Anatomy, states: tuple[Impairment, ...], cond: Condition, equip: Equipment,
                   weapon_id: str, weapons: Mapping[str, Weapon]) -> tuple[int, ...] | None:
    """Free, usable hands to take up ``weapon_id`` with (as many as its most demanding grip mode needs)."""
    weapon = weapons.get(weapon_id)
    if weapon is None:
        return None
    for mode in sorted(weapon.modes, key=lambda m: -m.limbs):
        if mode.limb != "grip":
            continue
        parts = wielding_parts(anat.body, mode, states, dominance=anat.kind.dominance,
                               immobilized=cond.immobilized, holding=equip.holding)
        if parts is not None:
            return parts
    return None


def _is_shield(item: str, weapons: Mapping[str, Weapon]) -> bool:
    """Whether ``item`` is a shield (held besides a weapon, never instead of one)."""
    weapon = weapons.get(item)
    return weapon is not None and weapon.shield


def _holds_a_weapon(equip: Equipment, weapons: Mapping[str, Weapon]) -> bool:
    """Whether a hand holds a weapon (a shield is not one)."""
    return any(not _is_shield(item, weapons) for item in equip.holding.values())


def rearm_action(anat: Anatomy, states: tuple[Impairment, ...], cond: Condition, equip: Equipment,
                 ctx: TickContext) -> str:
    """``pick up`` a dropped weapon or ``draw`` a carried one when no hand holds a weapon (a shield may still be held).

    Else "".
    """
    weapons = ctx.weapons
    if equip.holding and _holds_a_weapon(equip, weapons):
        return ""
    for item in equip.dropped:
        if not _is_shield(item, weapons) and grip_parts_for(anat, states, cond, equip, item, weapons) is not None:
            return "pick up"
    for item in equip.weapons:
        if item not in equip.dropped and item not in equip.lost and item not in equip.holding.values() \
                and not _is_shield(item, weapons) and grip_parts_for(anat, states, cond, equip, item,
                                                                    weapons) is not None:
            return "draw"
    return ""


def _down(c: Creature) -> bool:
    cond = c.condition
    return cond.dead or cond.out


class IntentProcessor(esper.Processor):
    """INTENT phase: targets, modes, aims and actions for every creature able to act.

    Args:
        ctx: The world.
        external: Sets the intent of a creature under ``external`` control (``ExternalIntent``); without it, such a
            creature waits.
    """

    def __init__(self, ctx: TickContext, external: Callable[[Creature], None] | None = None) -> None:
        self.ctx = ctx
        self.external = external
        self.engaged: dict[int, int] = {}
        self.allies: dict[str, Grid] | None = None

    def process(self) -> None:
        """Decide what every creature means to do this tick."""
        ctx = self.ctx
        tick = ctx.current()
        creatures = tick.creatures
        entries: dict[str, list[tuple[int, float, float, str]]] = {}
        engaged: dict[int, int] = {}
        melee_modes = ctx.melee_modes
        for entity, c in creatures.items():
            cond, comb, pos = c.condition, c.combatant, c.position
            if not cond.dead and not cond.out:
                if c.anatomy.body.locations:  # an incorporeal creature is no target
                    entries.setdefault(comb.team, []).append((entity, pos.x, pos.y, comb.team))
                if comb.target >= 0 and comb.mode in melee_modes:
                    engaged[comb.target] = engaged.get(comb.target, 0) + 1
        self.engaged = engaged
        grids = {team: Grid(ctx.combat.grid_cell, items) for team, items in entries.items()}
        self.allies = None
        if ctx.model.own_turns:  # the living of each team, the downed too: who a turn of the model's own may be for
            living: dict[str, list[tuple[int, float, float, str]]] = {}
            for entity, c in creatures.items():
                if not c.condition.dead:
                    team = c.combatant.team
                    living.setdefault(team, []).append((entity, c.position.x, c.position.y, team))
            self.allies = {team: Grid(ctx.combat.grid_cell, items) for team, items in living.items()}
        for entity in tick.order:
            self.decide(creatures[entity], creatures, grids)

    def decide(self, me: Creature, creatures: dict[int, Creature], grids: dict[str, Grid]) -> None:
        """Set one creature's target, mode, aim and action."""
        ctx = self.ctx
        cond, comb, pos, equip, anat = me.condition, me.combatant, me.position, me.equipment, me.anatomy
        if cond.dead or cond.out:
            comb.action = "dead" if cond.dead else "down"
            return
        if comb.policy == EXTERNAL:  # the game decides for it
            if self.external is not None:
                self.external(me)
            else:
                comb.action = "stand"
            return
        states = ctx.model.part_states(me)
        if cond.prone and can_walk(anat.body, states, cond):
            comb.action = "stand up"
            return
        if (equip.dropped or equip.weapons) and not _holds_a_weapon(equip, ctx.weapons):
            rearm = rearm_action(anat, states, cond, equip, ctx)
            if rearm:
                comb.action = rearm
                return
        foe = creatures.get(comb.target)
        dist = math.inf
        if foe is not None:
            fpos = foe.position
            dist = math.hypot(fpos.x - pos.x, fpos.y - pos.y)
            if _down(foe):
                current = ctx.modes.get(comb.mode)
                # Fallen: look for another when close by, or when it would not move on anyway (a bow in range).
                if dist <= ctx.combat.retarget_radius or (current is not None and in_range(current, dist)):
                    foe = None
        if foe is None:
            self.retarget(me, creatures, grids)
            foe = creatures.get(comb.target)
            if foe is None:
                comb.action = "stand"
                return
            dist = math.hypot(foe.position.x - pos.x, foe.position.y - pos.y)
        options = mode_options(anat, states, cond, equip, ctx, me.entity)
        mode = choose_mode(options, dist)
        new_mode = mode.id if mode is not None else ""
        if new_mode != comb.mode:
            ctx.emit(ModeChanged(ctx.clock.tick, ctx.clock.time, me.entity, comb.mode, new_mode))
            comb.mode = new_mode
        if self.allies is not None:
            action = ctx.model.turn_action(me, self._near(me, creatures), ctx,
                                           threatened=self.enemy_in_reach(me, options, grids))
            if action is not None:
                comb.action = action.name
                ctx.current().actions[me.entity] = action
                return
        if mode is None:
            comb.action = "stand"
            return
        if comb.aim != "unaimed":
            comb.aim_zone = choose_aim(comb.aim, foe.anatomy.body, ctx.streams["ai"])
        comb.action = "attack" if in_range(mode, dist) else "approach"

    def enemy_in_reach(self, me: Creature, options: Sequence[StrikeMode], grids: dict[str, Grid]) -> bool:
        """Whether an enemy able to act is within reach of one of the creature's strike modes now.

        It looks at the nearest enemy, by the grids of the able.
        """
        pos = me.position
        nearest = math.inf
        for team, grid in grids.items():
            if team != me.combatant.team:
                found, d = grid.nearest(pos.x, pos.y)
                if found >= 0:
                    nearest = min(nearest, d)
        return any(in_range(mode, nearest) for mode in options)

    def _near(self, me: Creature, creatures: dict[int, Creature]) -> Callable[[float], list[Creature]]:
        """``near(radius)``.

        The creature's living team-mates within ``radius`` metres (itself, the downed too), by entity.
        """
        grid = self.allies.get(me.combatant.team) if self.allies is not None else None
        pos = me.position

        def near(radius: float) -> list[Creature]:
            found = grid.within(pos.x, pos.y, radius) if grid is not None else []
            return [creatures[e] for e in sorted(found)]

        return near

    def retarget(self, me: Creature, creatures: dict[int, Creature], grids: dict[str, Grid]) -> None:
        """Pick a new target and keep the engagement counts current."""
        comb = me.combatant
        old = comb.target
        melee = _melee(self.ctx.modes.get(comb.mode)) or not comb.mode
        new = self.pick_target(me, creatures, grids, melee)
        if melee:
            if old >= 0 and self.engaged.get(old):
                self.engaged[old] -= 1
            if new >= 0:
                self.engaged[new] = self.engaged.get(new, 0) + 1
        comb.target = new

    def pick_target(self, me: Creature, creatures: dict[int, Creature], grids: dict[str, Grid],
                    melee: bool = True) -> int:
        """A new target by the creature's policy (-1 when no enemy can act).

        A melee fighter passes over enemies already engaged by the most melee attackers one can have
        (``max_melee_attackers``) while any other is to be had. The ``weakest`` policy compares the damage model's
        ``health``.
        """
        ctx = self.ctx
        comb, pos = me.combatant, me.position
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
                model = ctx.model
                return min(near, key=lambda e: (model.health(creatures[e], ctx), _dist(pos, creatures[e].position),
                                                e))
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

