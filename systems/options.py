"""What a creature can do now: the actions the rules allow it this tick (``options_for``) and why one is refused.

The rules are the shared loop's, asked through the same functions the AI decides with (``sandbox.systems.ai``:
``mode_options``, ``can_walk``, ``rearm_action``, ``grip_parts_for``; ``combat.in_range``; ``movement.speed``; the
damage model's ``part_states``, ``turn_options``, ``turn_lost`` and ``can_be_struck``), so an option is exactly
what the loop would carry out, in the order the AI decides:

1. A dead creature, one taken out of the fight, or one that loses its turn (severity's stun) does nothing else.
2. A prone creature that can stand stands up before anything else (``StandUp``).
3. A creature with no weapon in hand that can take one up picks one up or draws one before anything else
   (``PickUp``, ``Draw``; a shield still held does not count as a weapon).
4. Else: ``Strike`` an enemy within a mode's reach or range (every mode it can wield now, every aim at the target),
   ``Approach`` an enemy out of reach, ``Move`` (toward any other creature, or to any point), the damage model's
   own turns (``FirstAid``, ``UseItem``, ``ModelTurn``).

``Wait`` is always among them while the creature is alive and in the fight. Enemies are the creatures of other
teams; a dead one, or one no blow can reach (an incorporeal spirit), is no target. An aim is ``unaimed``, a part of
the target's body that can be aimed at (what the AI's ``random`` aim picks from), or a location of such a part
(``aim_choices``).

``refusal`` answers for one action: "" when it is allowed, else why not, in words. ``Move(to=(x, y))`` is allowed to
any point whenever a ``Move`` is among the options (the options list a ``Move`` toward each other creature).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from sandbox.components.body import BodyStructure
from sandbox.components.gear import StrikeMode
from sandbox.components.impairment import Impairment
from sandbox.components.state import Equipment
from sandbox.systems.actions import (
    Action,
    Approach,
    Draw,
    FirstAid,
    ModelTurn,
    Move,
    PickUp,
    StandUp,
    Strike,
    UseItem,
    Wait,
)
from sandbox.systems.ai import aimable_parts, can_walk, grip_parts_for, mode_options, rearm_action
from sandbox.systems.combat import REACH_SLACK, in_range
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature
from sandbox.systems.movement import mobility_factor

__all__ = ["aim_choices", "canonical_aim", "model_turn", "options_for", "refusal", "strike_refusal", "turn_of"]

_WAIT = Wait()
_STAND_UP = StandUp()


def aim_choices(body: BodyStructure) -> tuple[str, ...]:
    """Every aim a strike at ``body`` may take: ``unaimed``, its aimable parts, then the locations of those parts.

    A location that shares its part's name is listed once (the name aims at the part). Memoised per body object.
    """
    entry = _AIMS.get(body.id)
    if entry is None or entry[0] is not body:
        parts = aimable_parts(body)
        # A location named like a part (a wolf's Head) is that part's name: an aim names the part first.
        spelled: dict[str, str] = {}
        for name in ("unaimed", *(body.parts[p].name for p in parts),
                     *(loc.name for loc in body.locations if loc.part in parts)):
            spelled.setdefault(name.casefold(), name)
        names = tuple(spelled.values())
        entry = _AIMS[body.id] = (body, names, spelled)
    return entry[1]


_AIMS: dict[str, tuple[BodyStructure, tuple[str, ...], dict[str, str]]] = {}


def canonical_aim(body: BodyStructure, aim: str) -> str | None:
    """The aim as ``aim_choices`` spells it (names are case-insensitive), or ``None`` when it is none of them."""
    aim_choices(body)
    return _AIMS[body.id][2].get(aim.casefold())


@lru_cache(maxsize=65536)
def _strikes(mode: str, target: int, aims: tuple[str, ...]) -> tuple[Strike, ...]:
    """The strikes of one mode at one target, one per aim (shared: an action is plain data)."""
    return tuple(Strike(mode, target, aim) for aim in aims)


@lru_cache(maxsize=65536)
def _row(target: int, modes: tuple[str, ...], reached: tuple[bool, ...], aims: tuple[str, ...]
         ) -> tuple[tuple[Strike, ...], tuple[Approach, ...]]:
    """The strikes at one target with the modes that reach it (each with every aim) and the approaches with the rest.

    Options are asked for often and change little between ticks, so the rows are kept (an action is plain data).
    """
    strikes = tuple(s for mode, near in zip(modes, reached, strict=True) if near for s in _strikes(mode, target, aims))
    return strikes, tuple(Approach(target, mode) for mode, near in zip(modes, reached, strict=True) if not near)


@lru_cache(maxsize=4096)
def _moves(me: int, entities: tuple[int, ...]) -> tuple[Move, ...]:
    """A move toward each creature but ``me``."""
    return tuple(Move(toward=e) for e in entities if e != me)


def turn_of(action: TurnAction) -> FirstAid | UseItem | ModelTurn:
    """The action that asks for a damage model's own turn ``action``."""
    if action.name == "first aid" and not action.item:
        return FirstAid(action.patient)
    if action.name == "healing item":
        return UseItem(action.item, action.patient)
    return ModelTurn(action.name, action.patient, action.item)


def model_turn(action: FirstAid | UseItem | ModelTurn) -> TurnAction:
    """The damage model's own turn an action asks for (``turn_of`` the other way)."""
    if isinstance(action, FirstAid):
        return TurnAction("first aid", int(action.patient))
    if isinstance(action, UseItem):
        return TurnAction("healing item", int(action.patient), action.item)
    return TurnAction(action.name, int(action.patient), action.item)


class _Now:
    """What the rules ask of one creature now, each computed once."""

    __slots__ = ("blocked", "ctx", "down", "me", "rearm", "stage", "states", "walks")

    def __init__(self, me: Creature, ctx: TickContext) -> None:
        self.me = me
        self.ctx = ctx
        cond = me.condition
        name = me.name
        self.states: tuple[Impairment, ...] = ()
        self.rearm = ""
        self.walks = False
        self.down = f"{name} is dead" if cond.dead else \
            f"{name} is down (taken out of the fight): it cannot act" if cond.out else ""
        lost = ctx.model.turn_lost(me) if not self.down else ""
        self.blocked = self.down or (f"{name} loses its turn: {lost}" if lost else "")
        if self.blocked:
            self.stage = "none"
            return
        anat, equip = me.anatomy, me.equipment
        self.states = states = ctx.model.part_states(me)
        legs = can_walk(anat.body, states, cond)
        # movement.speed is above 0 exactly then (impairment slows a walker to min_speed_factor at worst)
        self.walks = legs and not cond.prone and anat.speed > 0 and ctx.model.speed_factor(me, ctx) > 0 and (
            ctx.combat.min_speed_factor > 0 or mobility_factor(anat, states, ctx.combat) > 0)
        if cond.prone and legs:
            self.stage = "stand"
        else:
            self.rearm = rearm_action(anat, states, cond, equip, ctx) if equip.dropped or equip.weapons else ""
            self.stage = "rearm" if self.rearm else "free"

    def modes(self) -> list[StrikeMode]:
        me = self.me
        return mode_options(me.anatomy, self.states, me.condition, me.equipment, self.ctx, me.entity)

    def gate(self) -> str:
        """Why a free action is refused at this stage ("" when the creature is free to choose)."""
        name = self.me.name
        if self.stage == "stand":
            return f"{name} is prone: it stands up before anything else (StandUp)"
        if self.stage == "rearm":
            return (f"{name} holds no weapon and can take one up: it picks one up or draws one before anything else "
                    "(PickUp, Draw)")
        return ""


def _enemy_refusal(me: Creature, foe: Creature, ctx: TickContext) -> str:
    """Why ``foe`` is no target for ``me`` ("" when it is one)."""
    if foe.entity == me.entity:
        return f"{me.name} cannot strike itself"
    if foe.condition.dead:
        return f"{foe.name} is dead: no blow is struck at the dead"
    if foe.combatant.team == me.combatant.team:
        return f"{foe.name} is on {me.name}'s own team ({me.combatant.team}): only enemies are struck"
    if not ctx.model.can_be_struck(foe):
        return f"no blow can reach {foe.name}: it has no body to strike"
    return ""


def _mode_refusal(now: _Now, mode: StrikeMode) -> str:
    """Why the creature cannot strike with ``mode`` now ("" when it can), whatever the target."""
    me, ctx = now.me, now.ctx
    equip, name = me.equipment, me.name
    weapon = ctx.weapons.get(mode.weapon)
    what = weapon.name if weapon is not None else mode.weapon
    if mode.weapon in equip.natural or mode.weapon in equip.holding.values():
        if any(m.id == mode.id for m in now.modes()):
            return ""
        return f"{name} cannot strike with {mode.id} now: the limbs it needs are unusable or held fast"
    if mode.weapon in equip.dropped:
        return f"{name}'s {what} lies at its feet: it is not in hand (PickUp)"
    if mode.weapon in equip.lost:
        return f"{name}'s {what} was flung out of reach for the rest of the fight"
    if mode.weapon in equip.weapons:
        return f"{name} carries the {what} but does not hold it (Draw)"
    if weapon is not None and weapon.natural:
        own = ", ".join(equip.natural) or "none"
        return f"{mode.id} is a strike of another creature's body: {name}'s natural weapons are {own}"
    return f"{name} does not carry a {what}"


def _reach_words(mode: StrikeMode) -> str:
    return f"{mode.reach:g} m reach" if mode.kind == "melee" else f"{mode.range:g} m range"


def _distance(a: Creature, b: Creature) -> float:
    pa, pb = a.position, b.position
    return math.hypot(pa.x - pb.x, pa.y - pb.y)


def strike_refusal(me: Creature, foe: Creature, mode: StrikeMode, aim: str, ctx: TickContext) -> str:
    """Why ``me`` may not strike ``foe`` with ``mode`` at ``aim`` now, in words ("" when the rules allow it).

    What ``Sandbox.strike(attacker=)`` and a submitted ``Strike`` are checked against.
    """
    now = _Now(me, ctx)
    if now.blocked:
        return now.blocked
    why = _enemy_refusal(me, foe, ctx) or _mode_refusal(now, mode) or now.gate()
    if why:
        return why
    dist = _distance(me, foe)
    if not in_range(mode, dist):
        return f"{foe.name} is {dist:.1f} m away, out of {mode.id}'s {_reach_words(mode)}"
    if canonical_aim(foe.anatomy.body, aim) is None:
        return f"{aim!r} is no aim at {foe.name}; its aims: {', '.join(aim_choices(foe.anatomy.body))}"
    return ""


def _near_and_threat(me: Creature, modes: Sequence[StrikeMode], ctx: TickContext
                     ) -> tuple[Callable[[float], list[Creature]], bool]:
    """``near(radius)`` and whether an enemy is within reach, as the AI asks a model's ``turn_action``.

    ``near``: its living team-mates within ``radius`` (itself and the downed too, by entity); threatened: an enemy
    able to act, with a body, within reach of one of its modes (the nearest such enemy, as the AI's grids find it).
    """
    creatures = ctx.creatures()
    pos, team = me.position, me.combatant.team
    nearest = math.inf
    mates: list[tuple[float, Creature]] = []
    for c in creatures.values():
        cond = c.condition
        if cond.dead:
            continue
        d = math.hypot(c.position.x - pos.x, c.position.y - pos.y)
        if c.combatant.team == team:
            mates.append((d, c))
        elif not cond.out and c.anatomy.body.locations and d < nearest:
            nearest = d
    threatened = any(in_range(m, nearest) for m in modes)

    def near(radius: float) -> list[Creature]:
        return [c for d, c in mates if d <= radius]

    return near, threatened


def _turns(now: _Now, modes: Sequence[StrikeMode]) -> list[TurnAction]:
    model = now.ctx.model
    if not model.own_turns:
        return []
    near, threatened = _near_and_threat(now.me, modes, now.ctx)
    return model.turn_options(now.me, near, now.ctx, threatened=threatened)


def _take_up_refusal(now: _Now, action: PickUp | Draw) -> str:
    me, ctx = now.me, now.ctx
    equip, name, item = me.equipment, me.name, action.weapon
    if now.stage == "stand":
        return now.gate()
    if now.stage == "free" and any(not _is_shield(w, ctx) for w in equip.holding.values()):
        return f"{name} holds a weapon already: it takes up another only with empty hands"
    weapon = ctx.weapons.get(item)
    if isinstance(action, PickUp):
        if item not in equip.dropped:
            return f"no {item} lies at {name}'s feet; there: {', '.join(equip.dropped) or 'nothing'}"
    elif item not in _drawable(equip):
        return f"{name} has no {item} to draw; it carries: {', '.join(_drawable(equip)) or 'nothing'}"
    if weapon is not None and weapon.shield:
        return f"the {weapon.name} is a shield: it is held besides a weapon, never taken up instead of one"
    if grip_parts_for(me.anatomy, now.states, me.condition, equip, item, ctx.weapons) is None:
        return f"{name} has no free, usable hand to hold the {weapon.name if weapon else item}"
    return ""


def _is_shield(item: str, ctx: TickContext) -> bool:
    weapon = ctx.weapons.get(item)
    return weapon is not None and weapon.shield


def _drawable(equip: Equipment) -> list[str]:
    """The weapons the creature carries and could draw: not dropped, lost or held (shields among them)."""
    held = set(equip.holding.values())
    return [w for w in equip.weapons if w not in equip.dropped and w not in equip.lost and w not in held]


def refusal(me: Creature, action: Action, ctx: TickContext) -> str:
    """Why the rules do not allow ``me`` to take ``action`` this tick, in words ("" when they do).

    Creatures in ``action`` are entities (``Sandbox.submit`` resolves names first); one that is no creature of the
    world is refused.
    """
    now = _Now(me, ctx)
    if isinstance(action, Wait):
        return now.down
    if now.blocked:
        return now.blocked
    creatures = ctx.creatures()
    if isinstance(action, StandUp):
        if not me.condition.prone:
            return f"{me.name} is not prone"
        if now.stage != "stand":
            return f"{me.name} cannot stand: no usable, free Locomotor part"
        return ""
    if isinstance(action, PickUp | Draw):
        return _take_up_refusal(now, action)
    if isinstance(action, Strike | Approach):
        foe = creatures.get(action.target) if isinstance(action.target, int) else None
        if foe is None:
            return f"no creature with entity {action.target!r} to strike"
        mode = ctx.modes.get(action.mode)
        if mode is None:
            return f"unknown strike mode {action.mode!r}"
        if isinstance(action, Strike):
            return strike_refusal(me, foe, mode, action.aim, ctx)
        why = _enemy_refusal(me, foe, ctx) or _mode_refusal(now, mode) or now.gate()
        if why:
            return why
        if not now.walks:
            return f"{me.name} cannot walk: it cannot close in"
        if in_range(mode, _distance(me, foe)):
            return f"{foe.name} is within {mode.id}'s {_reach_words(mode)} already: strike it (Strike)"
        return ""
    if isinstance(action, Move):
        return now.gate() or _move_refusal(me, action, creatures, now.walks)
    if isinstance(action, FirstAid | UseItem | ModelTurn):
        why = now.gate()
        if why:
            return why
        if not ctx.model.own_turns:
            return f"the {ctx.model.name} model has no turns of its own (first aid, items) in a fight"
        turns = _turns(now, now.modes())
        if model_turn(action) in turns:
            return ""
        return (f"the {ctx.model.name} model's rules allow {me.name} no such turn now; its turns: "
                f"{', '.join(repr(turn_of(t)) for t in turns) or 'none'}")
    return f"{action!r} is not an action"


def _move_refusal(me: Creature, action: Move, creatures: dict[int, Creature], walks: bool) -> str:
    if (action.to is None) == (action.toward is None):
        return "a Move goes to a point (to=) or toward a creature (toward=): exactly one of them"
    if action.to is not None:
        point = action.to
        if len(point) != 2 or not all(isinstance(v, int | float) and math.isfinite(v) for v in point):
            return f"a Move's point is (x, y) in metres, finite numbers, not {point!r}"
    elif not isinstance(action.toward, int) or action.toward not in creatures or action.toward == me.entity:
        return f"a Move goes toward another creature of the world, not {action.toward!r}"
    if not isinstance(action.within, int | float) or not math.isfinite(action.within) or action.within < 0:
        return f"a Move stops within 0 metres or more, not {action.within!r}"
    if not walks:
        return f"{me.name} cannot walk now"
    return ""


def options_for(me: Creature, ctx: TickContext) -> list[Action]:
    """Every action the rules allow ``me`` this tick (see the module docstring), ``Wait`` last.

    Strikes by target (nearest first, then by entity), then mode (hardest-hitting first), then aim; approaches by
    target, then mode; a move toward each other creature by entity; picking up and drawing in the creature's own
    order; the model's turns in its order.
    """
    now = _Now(me, ctx)
    if now.stage == "none":
        return [] if now.down else [_WAIT]
    if now.stage == "stand":
        return [_STAND_UP, _WAIT]
    out: list[Action] = []
    equip = me.equipment
    if now.stage == "rearm":
        for item in dict.fromkeys(equip.dropped):
            if not _take_up_refusal(now, PickUp(item)):
                out.append(PickUp(item))
        for item in dict.fromkeys(_drawable(equip)):
            if not _take_up_refusal(now, Draw(item)):
                out.append(Draw(item))
        out.append(_WAIT)
        return out
    modes = now.modes()
    walks = now.walks
    creatures = ctx.creatures()
    me_entity, team = me.entity, me.combatant.team
    pos = me.position
    model = ctx.model
    ids = tuple(m.id for m in modes)
    limits = tuple((m.reach if m.kind == "melee" else m.range) + REACH_SLACK for m in modes)  # combat.in_range's
    foes: list[tuple[float, int, Creature]] = []
    for entity, c in creatures.items():
        if entity != me_entity and c.combatant.team != team and not c.condition.dead and model.can_be_struck(c):
            foes.append((math.hypot(c.position.x - pos.x, c.position.y - pos.y), entity, c))
    foes.sort(key=lambda f: (f[0], f[1]))
    approaches: list[Action] = []
    nearest, furthest = min(limits, default=0.0), max(limits, default=0.0)
    none, every = (False,) * len(limits), (True,) * len(limits)
    for dist, entity, foe in foes:
        if dist > furthest:  # most foes are out of every reach: no aims to list
            strikes, closing = _row(entity, ids, none, ())
        else:
            reached = every if dist <= nearest else tuple(dist <= limit for limit in limits)
            strikes, closing = _row(entity, ids, reached, aim_choices(foe.anatomy.body))
        out.extend(strikes)
        if walks:
            approaches.extend(closing)
    out.extend(approaches)
    if walks:
        out.extend(_moves(me_entity, tuple(creatures)))
    out.extend(turn_of(t) for t in _turns(now, modes))
    out.append(_WAIT)
    return out
