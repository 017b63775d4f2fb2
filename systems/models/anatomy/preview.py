"""The anatomy model's outcome preview: the exact odds of one attack against a target as it is wounded now.

The opposed d100 test (``record.opposed``) is summed over both rolls, and the landed blow over its impact dice (the
mode's, plus the attacker's Strength Impact Modifier), every location, protection, level, glancing, compounding,
amputation, Shock and keep-control test (``exact_odds.exact_blow_odds``), against the target's compiled profile: its
test MLs as its wounds leave them, the wounds at each location, and the shock state a new result can only worsen.
The procedure it mirrors is ``AnatomyModel.strike``.
"""

from __future__ import annotations

from sandbox.components.gear import StrikeMode
from sandbox.components.preview import Chance, OutcomePreview
from sandbox.components.rules import LEVEL_CODES, AnatomyRules, ShockState, TestRules
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.distributions import test_results
from sandbox.systems.models.anatomy.exact_odds import dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.mastery import effective_ml
from sandbox.systems.models.anatomy.record import _drop_levels, attack_ml
from sandbox.systems.models.anatomy.state import anatomy_state
from sandbox.systems.models.anatomy.targets import CompiledTargets, target_profile
from sandbox.systems.strike import is_off_hand, strength_impact_modifier

__all__ = ["landing_chance", "preview_blow"]

_KILL_NOTE = "kill counts death by this blow (Shock, a Vital part severed); deaths of bleeding later are not counted"


def landing_chance(attack: int | None, defence: int | None, defends: bool, tests: TestRules, attack_drop: int = 0,
                   defence_drop: int = 0) -> float:
    """The exact chance an opposed test lands (``record.opposed``), over both d100 rolls.

    The attacker must succeed; a defender who rolls must then come out at a lower success level.
    """
    defended = test_results(defence, tests)
    total = 0.0
    for result, p in test_results(attack, tests).items():
        mine = _drop_levels(result, attack_drop)
        if not mine.success:
            continue
        if not defends:
            total += p
            continue
        total += p * sum(q for theirs, q in defended.items() if _drop_levels(theirs, defence_drop) < mine)
    return total


def preview_blow(rules: AnatomyRules, compiled: CompiledTargets, target: Creature, mode: StrikeMode, aim: str,
                 aim_zone: int, ctx: TickContext, attacker: Creature | None = None,
                 parts: tuple[int, ...] = ()) -> OutcomePreview:
    """The exact outcome of ``attacker``'s attack (or, without one, of a blow that lands) on ``target``.

    Args:
        rules: The anatomy rule tables.
        compiled: The model's compiled (body, armour) tables.
        target: Who is struck, as wounded now.
        mode: The strike mode.
        aim: ``unaimed`` or the part (or location) aimed at, as given.
        aim_zone: The zone number it aims at (0: unaimed).
        ctx: The world.
        attacker: Who strikes, or ``None`` for a blow struck directly (no attack roll, no Strength modifier).
        parts: The parts that wield ``mode`` (``combat.ready_parts``; their impairment is the attacker's).
    """
    foe = anatomy_state(target)
    combat = ctx.combat
    bonus = 0
    if attacker is None:
        hit = 1.0
    else:
        me = anatomy_state(attacker)
        cond = target.condition
        a_ml = attack_ml(attacker.anatomy, me.injury.impairments, mode, parts, me.injury.fatigue)
        defends = (not cond.dead and not cond.out) or combat.helpless_defence
        d_ml = effective_ml(target.anatomy, foe.injury, combat.defence_skill, ctx.skills, 0,
                            cond.immobilized) if defends else None
        drop_a = combat.stunned_level_drop if me.shock.state is ShockState.STUNNED else 0
        drop_d = combat.stunned_level_drop if foe.shock.state is ShockState.STUNNED else 0
        hit = landing_chance(a_ml, d_ml, defends, rules.tests, drop_a, drop_d)
        strength = attacker.anatomy.attributes.get("strength")
        if mode.strength_modifier and strength is not None:
            gripping = [p for p, item in attacker.equipment.holding.items() if item == mode.weapon]
            off = is_off_hand(attacker.anatomy.body, gripping, attacker.anatomy.kind.dominance)
            bonus = strength_impact_modifier(strength, rules.strength_impact, off_hand=off,
                                             thrown=mode.kind == "thrown")
    profile = target_profile(target.anatomy, foe.injury, target.armor, rules, ctx.skills, compiled)
    odds = exact_blow_odds(profile, dice_distribution(mode.impact, bonus), mode.aspect, aim_zone or None,
                           mode.spread, shock_now=foe.shock.state)
    body = target.anatomy.body
    land = hit * (1.0 - odds.missed)
    down_now = target.condition.dead or target.condition.out
    locations = tuple(Chance(body.locations[li].name, hit * p) for li, p in sorted(odds.location.items()) if p > 0)
    levels = tuple(Chance(code, hit * p) for code, p in zip(LEVEL_CODES, odds.level, strict=True) if p > 0)
    shock = tuple(Chance(s.label, hit * odds.after[s]) for s in ShockState if odds.after[s] > 0)
    wound = tuple(Chance(name, hit * p) for name, p in (("glancing", odds.glancing), ("bleeder", odds.bleeder),
                                                          ("compounds", odds.compound)) if p > 0)
    fumble = tuple(Chance(k, hit * p) for k, p in odds.fumble.items() if p > 0)
    stumble = tuple(Chance(k, hit * p) for k, p in odds.stumble.items() if p > 0)
    return OutcomePreview(
        model="anatomy", attacker="" if attacker is None else attacker.name, target=target.name, mode=mode.id,
        aim=aim, hit=hit, land=land, locations=locations, locations_note="", level_kind="injury level",
        levels=levels, sever=hit * odds.amputation.get("severed", 0.0), sever_note="", kill=hit * odds.dead,
        down=(1.0 - land) * down_now + hit * odds.down, down_now=down_now,
        tables=(("shock state after", shock), ("wound", wound), ("fumble", fumble), ("stumble", stumble)),
        notes=(_KILL_NOTE, "the wound table's rows may overlap (a glancing blow can bleed)"))
