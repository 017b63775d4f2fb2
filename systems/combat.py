"""Attacks: the opposed d100 test, the landed blow, and the attack record that explains it step by step.

The sandbox rule (decisions.md): the attacker tests its weapon skill (+ the mode's modifier, + the impairment of
the roles the skill names), the defender its defence skill; the blow lands when the attacker succeeds and the
defender's success level is lower. A stunned creature's tests drop a success level. A defender that cannot act
makes no defence roll (the attack is Ignored).

An attack leaves one compact ``AttackRecord`` in the log; ``expand`` turns it into the typed step events
(declared, rolled, missed or landed, protection, injury, amputation, shock, mishaps) when the log is read. Ten
thousand fighters attack every tick, and building a dozen event objects per attack that nobody may read would
cost more than resolving the attack.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import esper

from components.anatomy import ASPECTS, BodyStructure
from components.events import (
    AmputationTested,
    AttackDeclared,
    AttackRolled,
    BlowLanded,
    Event,
    Injured,
    MishapTested,
    Missed,
    ProtectionApplied,
    ShockTested,
)
from components.gear import StrikeMode
from components.rules import LEVEL_CODES, TestResult, TestRules
from components.state import Anatomy, Condition, Equipment, Position
from components.wounds import Impairment
from systems.blow import BlowResult, resolve_blow, roll_impact
from systems.context import TickContext
from systems.creatures import Parts, can_act, effective_ml, query_creatures, target_profile
from systems.damage import apply_blow
from systems.dice import Rng, skill_test
from systems.strike import is_off_hand, wielding_parts


@dataclass(slots=True)
class AttackRecord:
    """One attack, compactly: who, with what, the opposed test, and the blow if it landed.

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: Attacking entity.
        target: Defending entity.
        mode: Qualified strike mode id.
        aim: The part aimed at, or "unaimed".
        attack_ml: Attacker's effective ML (``None``: it could not succeed).
        attack: Attack test result.
        defence_ml: Defender's effective ML (``None``: it could not succeed or made no roll).
        defence: Defence test result, or ``None`` when the defender made no roll.
        landed: The attack won the opposed test.
        blow: The resolved blow when it landed (it may still have missed the body).
        body: The defender's body (for location names).
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    aim: str
    attack_ml: int | None
    attack: TestResult
    defence_ml: int | None
    defence: TestResult | None
    landed: bool
    blow: BlowResult | None
    body: BodyStructure

    def events(self) -> list[Event]:
        """The typed step events of this attack (``expand``)."""
        return list(expand(self))


def drop_levels(result: TestResult, levels: int) -> TestResult:
    """Drop a test result by ``levels`` success levels (CS -> MS -> MF -> CF)."""
    return TestResult(max(int(result) - levels, 0)) if levels else result


def opposed(attack_ml: int | None, defence_ml: int | None, defends: bool, rng: Rng, tests: TestRules, *,
            attack_drop: int = 0, defence_drop: int = 0) -> tuple[TestResult, TestResult | None, bool]:
    """The opposed test: ``(attack result, defence result or None, landed)``.

    Args:
        attack_ml: Attacker's effective ML (``None``: automatic critical failure).
        defence_ml: Defender's effective ML (``None``: automatic critical failure).
        defends: Whether the defender rolls at all (a helpless defender does not).
        rng: Generator.
        tests: How tests read.
        attack_drop: Success levels the attacker's result drops (stunned).
        defence_drop: Success levels the defender's result drops (stunned).
    """
    attack = drop_levels(skill_test(attack_ml, rng, tests), attack_drop)
    if not attack.success:
        defence = drop_levels(skill_test(defence_ml, rng, tests), defence_drop) if defends else None
        return attack, defence, False
    if not defends:
        return attack, None, True
    defence = drop_levels(skill_test(defence_ml, rng, tests), defence_drop)
    return attack, defence, defence < attack


def in_range(mode: StrikeMode, distance: float) -> bool:
    """Whether a mode reaches a target at ``distance`` metres (melee: reach; missile and thrown: range)."""
    if mode.kind == "melee":
        return distance <= mode.reach + 1e-9
    return distance <= mode.range + 1e-9


def distance(a: Position, b: Position) -> float:
    """Metres between two positions."""
    return math.hypot(a.x - b.x, a.y - b.y)


def ready_parts(anat: Anatomy, impairments: tuple[Impairment, ...], cond: Condition, equip: Equipment,
                mode: StrikeMode, disabled: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
    """The parts that would wield ``mode`` now, or ``None`` when it cannot be used (a held weapon no longer in
    hand, an unusable or immobilised gripping limb, or a part the damage model has put out of use: ``disabled``,
    see ``DamageModel.disabled_parts``)."""
    weapon_held = mode.weapon in equip.holding.values()
    natural = mode.weapon in equip.natural
    if not weapon_held and not natural:
        return None
    return wielding_parts(anat.body, mode, impairments, dominance=anat.kind.dominance,
                          immobilized=cond.immobilized | disabled if disabled else cond.immobilized,
                          holding=equip.holding)


def expand(record: AttackRecord) -> Iterator[Event]:
    """The typed step events of one attack, in the order the rules decide them."""
    t, time, a, d = record.tick, record.time, record.attacker, record.target
    yield AttackDeclared(t, time, a, d, record.mode, record.aim)
    yield AttackRolled(t, time, a, d, record.attack_ml, record.attack.name, record.defence_ml,
                       record.defence.name if record.defence is not None else "none", record.landed)
    if not record.landed:
        yield Missed(t, time, a, d, "defended")
        return
    blow = record.blow
    assert blow is not None
    if blow.missed:
        yield Missed(t, time, a, d, "off the body")
        return
    body = record.body
    loc = body.locations[blow.location]
    part = body.parts[loc.part]
    aspect = ASPECTS[blow.aspect]
    yield BlowLanded(t, time, a, d, blow.zone_number, body.zones[part.zone].name, part.name, loc.name, blow.impact,
                     aspect)
    yield ProtectionApplied(t, time, d, loc.name, blow.protection, blow.effective_impact)
    yield Injured(t, time, d, loc.name, blow.level, LEVEL_CODES[blow.level], aspect, blow.glancing, blow.compound)
    if blow.amputation_test is not None:
        yield AmputationTested(t, time, d, loc.name, blow.amputation_test.name, blow.severed)
    if blow.shock_index:
        yield ShockTested(t, time, d, blow.shock_index, blow.shock_test.name if blow.shock_test is not None else "none",
                          blow.final_index, blow.shock_state.label)
    if blow.fumble != "none":
        test = blow.fumble_test.name if blow.fumble_test is not None else "none"
        yield MishapTested(t, time, d, "fumble", blow.fumble, test, blow.fumble_outcome)
    if blow.stumble != "none":
        test = blow.stumble_test.name if blow.stumble_test is not None else "none"
        yield MishapTested(t, time, d, "stumble", blow.stumble, test, blow.stumble_outcome)


def attack_ml(anat: Anatomy, impairments: tuple[Impairment, ...], mode: StrikeMode, parts: tuple[int, ...],
              fatigue: int = 0) -> int | None:
    """The attacker's ML: skill + the mode's modifier + the worst impairment of the parts wielding the mode -
    fatigue.

    A strike mode checks its own limbs, not the role at large (document 000): an impaired off hand does not
    hamper a one-handed blow with the good hand. ``None`` when the creature lacks the skill.
    """
    base = anat.mls.get(mode.skill)
    if base is None:
        return None
    penalty = min((impairments[p].penalty for p in parts), default=0)
    return base + mode.attack_modifier + min(penalty, 0) - fatigue


def attack(entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
           parts: tuple[int, ...] | None = None) -> AttackRecord:
    """Resolve one attack of ``me`` on ``foe`` with ``mode`` (wielded by ``parts``; found when not given) and
    apply a landed blow at once."""
    _, anat, wounds, _, shock, cond, comb, _, equip = me
    _, f_anat, f_wounds, f_armor, f_shock, f_cond, _, _, f_equip = foe
    combat = ctx.combat
    tests = ctx.rules.tests
    clock = ctx.clock
    if parts is None:
        parts = ready_parts(anat, wounds.impairments, cond, equip, mode) or ()
    a_ml = attack_ml(anat, wounds.impairments, mode, parts, wounds.fatigue)
    defends = can_act(f_cond, f_shock) or combat.helpless_defence
    defence_ml = effective_ml(f_anat, f_wounds, combat.defence_skill, ctx, 0, f_cond.immobilized) if defends else None
    attack_drop = combat.stunned_level_drop if shock.state == 1 else 0
    defence_drop = combat.stunned_level_drop if f_shock.state == 1 else 0
    result, defence, landed = opposed(a_ml, defence_ml, defends, ctx.streams["attack"], tests,
                                      attack_drop=attack_drop, defence_drop=defence_drop)
    aim_name = "unaimed" if not comb.aim_zone else comb.aim
    blow = None
    if landed:
        gripping = [p for p, item in equip.holding.items() if item == mode.weapon]
        off = is_off_hand(anat.body, gripping, anat.kind.dominance)
        impact = roll_impact(mode, anat.attributes.get("strength"), ctx.rules, ctx.streams["injury"], off_hand=off)
        profile = target_profile(f_anat, f_wounds, f_armor, ctx)
        blow = resolve_blow(profile, impact, mode.aspect, ctx.streams["injury"], aim=comb.aim_zone or None,
                            spread=mode.spread)
    record = AttackRecord(clock.tick, clock.time, entity, foe_entity, mode.id, aim_name, a_ml, result,
                          defence_ml, defence, landed, blow, f_anat.body)
    ctx.log.append(record)
    if blow is not None and not blow.missed:
        apply_blow(foe_entity, f_anat, f_wounds, f_shock, f_cond, f_equip, blow, ctx)
    return record


def initiative_order(creatures: dict[int, Parts]) -> list[int]:
    """Entities by initiative, highest first; ties by entity id (deterministic)."""
    return sorted(creatures, key=lambda e: (-creatures[e][6].initiative, e))


class AttackProcessor(esper.Processor):
    """ATTACK phase: every creature that means to attack does, in initiative order.

    A creature killed, shocked or felled earlier in the tick (``Condition.reeling``) acts no more this tick; the
    mode must still be wieldable and the target still within reach or range.
    """

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Resolve this tick's attacks."""
        ctx = self.ctx
        creatures: dict[int, Parts] = ctx.scratch.get("creatures") or query_creatures()
        order = ctx.scratch.get("order") or initiative_order(creatures)
        for entity in order:
            me = creatures[entity]
            _, anat, wounds, _, shock, cond, comb, pos, equip = me
            if comb.action != "attack" or cond.reeling or not can_act(cond, shock) or comb.target < 0:
                continue
            foe = creatures.get(comb.target)
            mode = ctx.modes.get(comb.mode)
            if foe is None or mode is None or foe[5].dead:
                continue
            if not in_range(mode, distance(pos, foe[7])):
                continue
            # Impairment settles in the damage phase, so within the attack phase only a weapon dropped earlier
            # this tick can spoil what intent found usable: reuse its limbs unless the hands changed.
            cached = ctx.cache.get(("modes", entity))
            if cached is not None and cached[0][1] == tuple(equip.holding.items()) and mode.id in cached[2]:
                parts = cached[2][mode.id]
            else:
                parts = ready_parts(anat, wounds.impairments, cond, equip, mode)
            if parts is None:
                continue  # a dropped weapon or a limb lost earlier this tick
            if ctx.model is not None:
                ctx.model.attack(entity, me, comb.target, foe, mode, ctx, parts)
            else:
                attack(entity, me, comb.target, foe, mode, ctx, parts)


