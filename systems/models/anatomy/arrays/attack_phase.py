"""The anatomy model's attack phase over arrays.

Opposed d100 tests, every blow that might land resolved at once, then the attacks walked one at a time in initiative
order (``landing``, compiled), so the outcome is the esper engine's turn order.

Every attack's two d100 rolls are drawn up front. An attack whose attacker's own test fails cannot land and
changes nothing, so only the others take part. Each of those is resolved as a blow in one compiled pass
(``blows.resolve_landed``: ``resolve_blow_batch``'s rules and numbers), against its target as the phase began:
nothing in the phase changes an ML, and the one thing a blow does that depends on the wounds already there,
compounding, is read again when it lands. Its numbers are drawn whether or not it lands, so a fight's draws do not
depend on which of its blows land.

The walk settles which land and applies them to the arrays; what it returns is then replayed here in order: the
hands that let go (each creature's gear state), the causes of deaths, a lab's tally of landed blows, and the
records and events of traced creatures' blows.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, cast

import numpy as np

from sandbox.components.events import BleederOpened, Died, Event, FellProne, ItemDropped, Severed, ShockChanged
from sandbox.components.rules import ShockState, TestResult
from sandbox.systems.arrays.attack import Attacks
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.state import NO_ML
from sandbox.systems.arrays.tables import IntArray
from sandbox.systems.models.anatomy.arrays import landing
from sandbox.systems.models.anatomy.arrays.blows import d100_test, resolve_landed
from sandbox.systems.models.anatomy.arrays.consequences import location_name, part_name
from sandbox.systems.models.anatomy.arrays.landing import FELL_SHOCKED, FELL_STUMBLING, KILLED_BY_BLOW, Landed
from sandbox.systems.models.anatomy.arrays.records import log_blows
from sandbox.systems.models.anatomy.vector_blows import BlowArrays

if TYPE_CHECKING:
    from sandbox.systems.models.anatomy.arrays.model import AnatomyArrayModel

__all__ = ["read_tests", "resolve"]


def read_tests(model: AnatomyArrayModel, ml: IntArray, rolls: IntArray) -> IntArray:
    """d100 results (``TestResult`` codes) of ``rolls`` against ``ml``.

    ``rolls`` are 0..99, a roll of 1..100 less one; an ``ml`` of ``NO_ML`` is a critical failure.
    """
    tests = model.rules.tests
    lut = model.engine.tables.test_lut
    row = np.clip(ml, tests.ml_min, tests.ml_max) - tests.ml_min
    return np.where(ml > NO_ML // 2, lut[row * 100 + rolls], _CF)


_CF, _MS = int(TestResult.CF), int(TestResult.MS)


def resolve(model: AnatomyArrayModel, attacks: Attacks) -> None:
    """Resolve and apply this tick's attacks (see the module docstring)."""
    engine, st = model.engine, model.state
    cr, combat = engine.creatures, engine.combat
    n = len(attacks)
    if not n:
        return
    fights = cr.fight[attacks.attacker]
    rolls = engine.streams.integer_rounds("attack", fights, 0, 100, 2)
    tests = model.rules.tests
    skills = np.asarray([model.skill[s] for s in _TEST_SKILLS], dtype=np.int64)
    found = np.empty(n, dtype=np.int64)
    attack_ml, result, defence_raw = (np.empty(n, dtype=np.int64) for _ in range(3))
    target_mls = np.empty((n, len(fields(_TestMLs))), dtype=np.int64)
    count = _opposed_tests(attacks.attacker, attacks.target, attacks.mode, attacks.parts, rolls[0], rolls[1],
                           engine.modes.skill, engine.modes.attack_modifier, cr.mls, st.penalty, st.fatigue,
                           st.role_penalty, skills, engine.skills.roles[np.maximum(skills, 0)],
                           engine.tables.test_lut, tests.ml_min, tests.ml_max, st.shock, int(ShockState.STUNNED),
                           combat.stunned_level_drop, found, attack_ml, result, target_mls, defence_raw)
    if not count:
        return
    attacks = attacks.take(found[:count])
    attack_ml, result, defence_raw = attack_ml[:count], result[:count], defence_raw[:count]
    mls = _TestMLs(*target_mls[:count].T)
    blows = _blows(model, attacks, mls)  # every blow that might land, as it would (see the module docstring)
    landed = _walk(model, attacks, blows, result, defence_raw)
    if not landed.blows.size:
        return
    k = landed.blows
    hits = attacks.take(k)
    blows = replace(blows.take(k), compound=landed.compound[k])
    engine.tracer.count(hits, blows)
    follows = _follow(model, hits, blows, landed)
    log_blows(engine.tracer, hits, blows, attack_ml[k], result[k], landed.defence[k], mls.defence[k], follows)


def _walk(model: AnatomyArrayModel, attacks: Attacks, blows: BlowArrays, result: IntArray, defence_roll: IntArray
         ) -> Landed:
    """Walk ``attacks`` (each with its blow and its attacker's result) in order.

    Which land, applied to the arrays as they land (``landing``).
    """
    engine, st, rules = model.engine, model.state, model.rules
    cr, combat = engine.creatures, engine.combat
    n = len(attacks)
    wounds = st.wounds
    wounds.reserve(n)
    aftercare = rules.aftercare
    records = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_),
               np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
               np.zeros(n, dtype=np.int64), np.zeros(2 * n, dtype=np.int64), np.zeros((2 * n, 3), dtype=np.int64))
    count_landed, wounds.count, count_touched, count_drops = landing.walk_attacks(
        attacks.attacker, attacks.target, attacks.natural, result, defence_roll,
        blows.missed, blows.location, blows.level, blows.bleeder, blows.severed, blows.fumble_outcome,
        blows.stumble_outcome, blows.shock_state, blows.dead, engine.modes.aspect[attacks.mode],
        cr.body, engine.bodies.location_part,
        st.shock, st.since, st.retest_at, st.cause_location, st.cause_level,
        cr.out, cr.dead, cr.prone, cr.reeling, cr.holding,
        st.totals, st.worst, st.severed, st.lost, st.dirty,
        wounds.owner, wounds.location, wounds.part, wounds.level, wounds.aspect, wounds.bleeder, wounds.received,
        wounds.next_bleed, wounds.compounded, wounds.count,
        engine.tick, engine.clock_time, combat.tick_seconds, aftercare.bleed_interval if aftercare else 0.0,
        aftercare.unconscious_retest_after if aftercare else -1.0, combat.stunned_level_drop,
        combat.helpless_defence, *records)
    landed_at, defence, compound, before, after, fell, killed, touched, drops = records
    st.touched.append(touched[:count_touched])
    return Landed(landed_at[:count_landed], defence, compound, before, after, fell, killed, touched[:count_touched],
                  drops[:count_drops])


def _follow(model: AnatomyArrayModel, hits: Attacks, blows: BlowArrays, landed: Landed) -> dict[int, list[Event]]:
    """What the walk left to Python, in its order.

    The hands that let go of their items (each creature's ``Equipment``), the causes of deaths, and per landed blow of a
    traced creature (by position in ``hits``) the events of what followed, as
    ``sandbox.systems.models.anatomy.damage.apply_blow`` orders them.
    """
    engine = model.engine
    cr = engine.creatures
    at = np.full(int(landed.blows.max()) + 1, -1, dtype=np.int64)
    at[landed.blows] = np.arange(landed.blows.size)  # attack walked -> its place among the landed blows
    traced = engine.tracer.involved(hits)
    follows: dict[int, list[Event]] = {int(k): [] for k in np.flatnonzero(traced)}
    dropped: dict[int, list[Event]] = {k: [] for k in follows}
    blow = at[landed.drops[:, 0]]
    let_go = hits.target[blow]
    hand, flung = landed.drops[:, 1], landed.drops[:, 2]
    items = engine.gear.let_go_in_order(cr.gear, let_go, hand, flung)
    assert (items >= 0).all(), "the walk lets go only of what a hand holds"
    for d in np.flatnonzero(traced[blow]).tolist():  # the drops of the traced creatures' blows, told in order
        k, i = int(blow[d]), int(let_go[d])
        dropped[k].append(ItemDropped(engine.tick, engine.clock_time, i + 1, engine.gear.weapon_names[items[d]],
                                      part_name(engine, i, int(hand[d])), bool(flung[d])))
    engine.sync_hands(let_go)
    loc = np.maximum(blows.location, 0)
    killed = landed.killed[landed.blows]
    for k in np.flatnonzero(killed).tolist():
        cr.causes[int(hits.target[k])] = (
            f"severed {location_name(engine, int(hits.target[k]), int(loc[k]))}"
            if killed[k] == KILLED_BY_BLOW and blows.severed[k] else "shock")
    tick, now = engine.tick, engine.clock_time
    for k, events in follows.items():
        j, t = int(landed.blows[k]), int(hits.target[k])
        who = t + 1
        if blows.missed[k]:
            continue
        if blows.level[k] > 0 and blows.bleeder[k]:
            events.append(BleederOpened(tick, now, who, location_name(engine, t, int(loc[k]))))
        if blows.severed[k]:
            part = int(engine.bodies.location_part[cr.body[t], loc[k]])
            events.append(Severed(tick, now, who, location_name(engine, t, int(loc[k])), part_name(engine, t, part)))
        events.extend(dropped[k])
        if landed.fell[j] & FELL_STUMBLING:
            events.append(FellProne(tick, now, who, "stumble"))
        before, after = int(landed.shock_before[j]), int(landed.shock_after[j])
        if after != before:
            events.append(ShockChanged(tick, now, who, ShockState(before).label, ShockState(after).label))
        if landed.fell[j] & FELL_SHOCKED:
            events.append(FellProne(tick, now, who, "shock"))
        if landed.killed[j]:
            events.append(Died(tick, now, who, cr.causes[t]))
    return follows


@dataclass(frozen=True, slots=True)
class _TestMLs:
    """The MLs of the tests a blow makes of its target, per attack.

    Read as the attack phase begins (``_opposed_tests``): nothing in the phase changes an ML (impairment and fatigue
    settle after it).

    Attributes:
        defence: The defence skill.
        shock: Shock.
        strength: Strength (amputation).
        fumble: Keeping a grip: the better of Dexterity and Legerdemain.
        stumble: Keeping one's footing: the better of Agility and Acrobatics.
    """

    defence: IntArray
    shock: IntArray
    strength: IntArray
    fumble: IntArray
    stumble: IntArray


_TEST_SKILLS = ("defence", "shock", "strength", "dexterity", "legerdemain", "agility", "acrobatics")
"""The skills of a target's tests (``AnatomyArrayModel.skill`` names): the last four in pairs, the better of each
pair counting (``_TestMLs``)."""


@compiled
def _opposed_tests(attacker: IntArray, target: IntArray, mode: IntArray, parts: IntArray, attack_roll: IntArray,
                   defence_roll: IntArray, mode_skill: IntArray, mode_modifier: IntArray, mls: IntArray,
                   penalty: IntArray, fatigue: IntArray, role_penalty: IntArray, test_skill: IntArray,
                   test_roles: IntArray, lut: IntArray, ml_min: int, ml_max: int, shock: IntArray, stunned: int,
                   stunned_drop: int, found: IntArray, attack_ml: IntArray, result: IntArray, target_mls: IntArray,
                   defence_raw: IntArray) -> int:
    """The attacks whose attacker's own test succeeds, in order, written to ``found``; returns how many.

    The others cannot land and change nothing. Per such attack: the attacker's ML (``anatomy_attack.attack_ml``: skill +
    the mode's modifier + the worst impairment of the wielding parts - fatigue) and result (less the stunned drop, not
    below CF), its target's test MLs (``_TestMLs``'s fields, from ``test_skill``'s skills:
    ``AnatomyArrays.effective_ml``) and the target's defence result.
    """
    count = 0
    for k in range(attacker.shape[0]):
        a, m, t = attacker[k], mode[k], target[k]
        s = mode_skill[m]
        ml = NO_ML
        if s >= 0 and mls[a, s] > NO_ML // 2:
            worst, bits, p = 0, parts[k], 0
            while bits:  # the wielding parts' bits only, lowest first (a mask is at most ``MAX_PARTS`` wide)
                if bits & 1:
                    worst = min(worst, penalty[a, p])
                bits >>= 1
                p += 1
            ml = mls[a, s] + mode_modifier[m] + worst - fatigue[a]
        raw = d100_test(ml, attack_roll[k], lut, ml_min, ml_max)
        if raw < _MS:
            continue
        found[count], attack_ml[count] = k, ml
        result[count] = max(raw - (stunned_drop if shock[a] == stunned else 0), 0)
        for j in range(test_skill.shape[0]):
            # ``anatomy.state._effective_mls``'s rule, written into the loop (a compiled call per skill, even
            # inlined, doubled this pass).
            skill, base, worst = test_skill[j], NO_ML, 0
            if skill >= 0:
                base = mls[t, skill]
                bits, r = test_roles[j], 0
                while bits:  # the skill's roles' bits only
                    if bits & 1:
                        worst = min(worst, role_penalty[t, r])
                    bits >>= 1
                    r += 1
            value = base - fatigue[t] + worst if base > NO_ML // 2 and worst > NO_ML // 2 else NO_ML
            # The pairs' better one: dexterity/legerdemain (fumble) and agility/acrobatics (stumble).
            column = j if j < 3 else 3 + (j - 3) // 2
            target_mls[count, column] = value if j < 3 or (j - 3) % 2 == 0 else max(target_mls[count, column], value)
        defence_raw[count] = d100_test(target_mls[count, 0], defence_roll[k], lut, ml_min, ml_max)
        count += 1
    return count


def _blows(model: AnatomyArrayModel, hits: Attacks, mls: _TestMLs) -> BlowArrays:
    """Resolve ``hits`` as blows that land, each against its own target as the attack phase began.

    ``mls`` are their targets' test MLs. Compounding, which reads the wounds already there, is left to the walk (it
    reads them as each blow lands).
    """
    engine = model.engine
    cr, modes = engine.creatures, engine.modes
    fights = cr.fight[hits.target]
    impacts = modes.roll_impacts(hits.mode, engine.streams, fights)
    rng = cast(np.random.Generator, engine.streams.bound("injury", fights))  # a Generator's calls, per fight
    takes = modes.strength_modifier[hits.mode] & (cr.strength[hits.attacker] > NO_ML // 2)
    thrown = modes.kind[hits.mode] == 1
    bonus = engine.strength_bonus[hits.attacker, hits.off_hand.astype(np.int64), thrown.astype(np.int64)]
    impacts = impacts + np.where(takes, bonus, 0)
    t = hits.target
    kind = cr.target_kind[t]
    locator = engine.locators(kind, hits.aim_zone, modes.spread[hits.mode])
    return resolve_landed(engine.tables, model.blow_rules, kind, impacts, modes.aspect[hits.mode], rng, locator,
                          mls.shock, mls.strength, mls.fumble, mls.stumble)
