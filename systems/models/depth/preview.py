"""The wound-depth model's outcome preview: the exact odds of one attack against a target as it is wounded now.

Each of the twenty faces of the d20 (with the attacker's modifiers: its wound penalty, a pending mishap, a called
shot, notches, the target's open guard) gives a margin; a hit lands on a location (the called one, by weight in a
called part, in the aimed zone, or anywhere, as ``rules.strike_location`` draws it), the margin and the weapon's
depth bonus less the target's depth reduction give the tier (a natural 20 one deeper, its worst result), and the
injury table the injury. Whether the target is down after it is ``rules.settle`` of a copy of its state with the new
wound. The procedure it mirrors is ``DepthModel.strike``.
"""

from __future__ import annotations

from dataclasses import replace

from sandbox.components.body import BodyStructure
from sandbox.components.gear import StrikeMode
from sandbox.components.models.depth import FAMILIES, TIERS, CreatureDepth, DepthInjury, DepthTables, DepthWound
from sandbox.components.preview import Chance, OutcomePreview
from sandbox.systems.creatures import Creature
from sandbox.systems.d20 import D20Roll
from sandbox.systems.distributions import add, chances, d20_rolls
from sandbox.systems.hit_location import MISS, HitTable, location_probabilities
from sandbox.systems.models.depth.rules import NAME, depth_state, injury_for, settle, wound_depth

__all__ = ["landing_odds", "preview_blow"]

_NOTES = ("a natural 1's mishap falls on the attacker, after the blow: not counted",
          "kill counts death by this blow; the dying (a death clock) are in the 'dying' table")


def landing_odds(body: BodyStructure, table: HitTable, called_part: int | None, called_location: int | None,
                 aim_zone: int) -> tuple[dict[int, float], float]:
    """Where a hit lands, exactly (``DepthModel._landing`` and ``rules.strike_location``): location -> chance, miss.

    The called location itself when it can be struck; else by weight within a called part that can be struck; else
    by the part x location weights of the aimed zone; else anywhere, as an unaimed blow of the anatomy model.
    """
    if called_location is not None and body.locations[called_location].weight > 0 \
            and body.part_hittable(body.locations[called_location].part):
        return {called_location: 1.0}, 0.0
    if called_part is not None and body.part_hittable(called_part):
        locs = [li for li in body.parts[called_part].locations if body.locations[li].weight > 0]
        total = sum(body.locations[li].weight for li in locs)
        return {li: body.locations[li].weight / total for li in locs}, 0.0
    zone = aim_zone if 0 < aim_zone <= table.max_zone_number and table.zone_by_number[aim_zone] != MISS else None
    probs, miss = location_probabilities(body, table, zone, 1)
    return {li: p for li, p in enumerate(probs) if p > 0}, miss


def preview_blow(tables: DepthTables, table: HitTable, target: Creature, mode: StrikeMode, aim: str,
                 called_part: int | None, called_location: int | None, aim_zone: int,
                 attacker: Creature | None = None, parts: tuple[int, ...] = ()) -> OutcomePreview:
    """The exact outcome of ``attacker``'s attack (or, without one, of a blow that hits with margin 1) on ``target``.

    Args:
        tables: The model's tables.
        table: The target body's hit table.
        target: Who is struck, as wounded now.
        mode: The strike mode (it has an entry in ``tables.weapons``).
        aim: ``unaimed`` or the part (or location) aimed at, as given.
        called_part: The part a called shot lands in, or ``None``.
        called_location: The location a called shot lands on, or ``None``.
        aim_zone: The zone number aimed at (0: unaimed; with an attacker, a called shot).
        attacker: Who strikes, or ``None``.
        parts: The parts that wield ``mode``.
    """
    weapon = tables.weapons[mode.id]
    foe = depth_state(target)
    body = target.anatomy.body
    if attacker is None:
        rolls: tuple[D20Roll | None, ...] = (None,)
    else:
        me = depth_state(attacker)
        if me.broken and any(p in me.broken for p in parts):
            rolls = ()  # a mode wielded by a broken limb makes no attack at all
        else:
            ability = me.strength_mod if mode.kind == "melee" else me.dexterity_mod
            called = tables.called_shot_modifier if aim_zone > 0 else 0
            modifier = me.penalty + me.mishap + called + me.notches.get(mode.weapon, 0) + foe.open_guard
            rolls = d20_rolls(ability, foe.defense, modifier)
    where, miss = landing_odds(body, table, called_part, called_location, aim_zone)
    reduction = tables.creatures.get(target.anatomy.kind.id, CreatureDepth()).reduction[FAMILIES.index(weapon.family)]
    down_now = target.condition.out
    each = 1.0 / len(rolls) if rolls else 0.0
    hits = 0
    located: dict[int, float] = {}
    depths: dict[str, float] = {}
    injuries: dict[str, float] = {}
    dying = kill = down = sever = 0.0
    verdicts: dict[tuple[int, bool, bool], tuple[DepthInjury | None, bool]] = {}
    for roll in rolls:
        if roll is not None and not roll.hit:
            continue
        margin, natural_20 = (1, False) if roll is None else (roll.margin, roll.natural == 20)
        hits += 1
        depth = wound_depth(margin, weapon.depth_bonus, reduction, natural_20, tables.tiers)
        for li, p_loc in where.items():
            p = each * p_loc
            add(located, li, p)
            add(depths, TIERS[depth.tier], p)
            critical = body.parts[body.locations[li].part].critical
            key = (depth.tier, critical, depth.worst)
            verdict = verdicts.get(key)
            if verdict is None:
                injury = injury_for(tables, depth.tier, weapon.family, critical, depth.worst)
                verdict = verdicts[key] = (injury, _down_after(tables, target, li, depth.tier, weapon.family,
                                                               depth.worst, injury))
            injury, fell = verdict
            down += p if fell else 0.0
            if injury is None:
                continue
            add(injuries, injury.name, p)
            kill += p if injury.kills else 0.0
            sever += p if injury.lost else 0.0
            dying += p if injury.dies_after and not injury.kills else 0.0
    hit = hits * each
    land = hit * (1.0 - miss)
    return OutcomePreview(
        model=NAME, attacker="" if attacker is None else attacker.name, target=target.name, mode=mode.id, aim=aim,
        hit=hit, land=land,
        locations=tuple(Chance(body.locations[li].name, p) for li, p in sorted(located.items())),
        locations_note="", level_kind="depth", levels=chances(depths, TIERS), sever=sever, sever_note="", kill=kill,
        down=(1.0 - land) * down_now + down, down_now=down_now,
        tables=(("injury", chances(injuries)), ("dying", chances({"a death clock starts": dying}))),
        notes=_NOTES)


def _down_after(tables: DepthTables, target: Creature, location: int, tier: int, family: str, worst: bool,
                injury: DepthInjury | None) -> bool:
    """Whether the target is dead or out of the fight after a wound opening ``injury`` (``DepthModel._wound``).

    A wound with no lasting effect changes nothing; a lasting one settles the state with it (on a copy) and the
    creature is out exactly while that state is down.
    """
    cond = target.condition
    if injury is None or not injury.lasting:
        return cond.out
    if injury.kills:
        return True
    state = depth_state(target)
    part = target.anatomy.body.locations[location].part
    wound = DepthWound(location, part, tier, family, injury.name, injury.penalty, injury.breaks, injury.lost,
                       injury.down, 0.0 if injury.dies_after else -1.0, injury.kills, injury.treat_dc, 0.0, worst)
    after = replace(state, wounds=[*state.wounds, wound.as_tuple()], broken=set(state.broken), lost=set(state.lost))
    settle(after, tables.collapse_at)
    return after.down
