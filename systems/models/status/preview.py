"""The status-ladder model's outcome preview: the exact odds of one attack against a target as it is wounded now.

The d20 (with the attacker's status penalty) against Defense (with the target's), then the mode's damage dice (the
attacker's penalty on them too where the tables say so) less armour, the ladder's ``rules.take_damage`` from the
rung and minor injuries the target has now, and the passing-out test it may call (a d20 against Constitution and
the penalty of the rung it was hit on). The procedure it mirrors is ``StatusModel.strike``.
"""

from __future__ import annotations

from sandbox.components.gear import StrikeMode
from sandbox.components.models.status import DEAD, LEVELS, StatusTables, StatusWeapon
from sandbox.components.preview import OutcomePreview
from sandbox.systems.creatures import Creature
from sandbox.systems.distributions import Pmf, add, chances, d20_rolls, dice_pmf, die_pmf, push
from sandbox.systems.models.status.rules import (
    MODEL,
    damage_after_armor,
    passes_out,
    passing_out_called,
    penalty,
    status_state,
    take_damage,
)

__all__ = ["preview_blow"]

_NO_LOCATIONS = "the status model places no wound at a location (the ladder has no hit location)"
_NO_SEVERING = "the status model has no amputation"


def preview_blow(tables: StatusTables, target: Creature, mode: StrikeMode, aim: str, weapon: StatusWeapon,
                 attacker: Creature | None = None, *, strikable: bool = True) -> OutcomePreview:
    """The exact outcome of ``attacker``'s attack (or, without one, of a blow that lands) on ``target``.

    Args:
        tables: The model's tables.
        target: Who is struck, as wounded now.
        mode: The strike mode.
        aim: As declared (it changes nothing: the ladder has no hit location).
        weapon: The mode's numbers in the model's tables.
        attacker: Who strikes, or ``None`` (no attack roll, no penalty on the damage).
        strikable: A blow can reach the target (``DamageModel.can_be_struck``); else every hit misses off the body.
    """
    theirs = status_state(target)
    cond = target.condition
    damage_penalty = 0
    if attacker is None:
        hit = 1.0
    else:
        mine = status_state(attacker)
        pen = penalty(mine.level, mine.penalty_reduction, tables.penalties)
        guard = penalty(theirs.level, theirs.penalty_reduction, tables.penalties)
        rolls = d20_rolls(mine.attack_bonus + weapon.attack_bonus, theirs.defense + guard, pen)
        hit = sum(1 for r in rolls if r.hit) / len(rolls)
        damage_penalty = pen if tables.penalty_to_damage else 0
    land = hit if strikable else 0.0
    dealt: Pmf = push(dice_pmf(weapon.damage),
                      lambda rolled: damage_after_armor(max(0, rolled + damage_penalty), theirs.armor)) \
        if strikable else {}
    rungs: dict[str, float] = {}
    lost: dict[str, float] = {}
    kill = down = fainted = 0.0
    faint = die_pmf(tables.passing_out_die)
    for amount, p in dealt.items():
        p *= land
        wound = take_damage(theirs.level, theirs.minor, amount, theirs.endurance)
        add(rungs, LEVELS[wound.after], p)
        add(lost, "killed" if wound.killed else str(wound.levels), p)
        if wound.killed:
            kill += p
            down += p
        elif cond.out:
            down += p
        elif passing_out_called(wound):
            against = theirs.constitution + penalty(wound.before, theirs.penalty_reduction, tables.penalties)
            q = sum(chance for roll, chance in faint.items() if passes_out(roll, against))
            fainted += p * q
            down += p * q
    return OutcomePreview(
        model=MODEL, attacker="" if attacker is None else attacker.name, target=target.name, mode=mode.id, aim=aim,
        hit=hit, land=land, locations=None, locations_note=_NO_LOCATIONS, level_kind="status",
        levels=chances(rungs, LEVELS), sever=None, sever_note=_NO_SEVERING, kill=kill,
        down=(1.0 - land) * cond.out + down, down_now=cond.out,
        tables=(("rungs lost", chances(lost, sorted(lost, key=lambda k: (k == "killed", k.zfill(3))))),
                ("passes out", chances({"passes out": fainted}))),
        notes=(*(() if strikable else (f"{target.name} has no body a blow can strike: every hit misses",)),
               f"a {LEVELS[DEAD]} creature takes no more: kill counts the wound past mortally wounded, or any "
               "damage while mortally wounded"))
