"""The anatomy model's attack phase over arrays: opposed d100 tests, every blow that might land resolved at once,
then those that do land applied in initiative waves, so the outcome is the esper engine's one-attack-at-a-time
turn order.

Every attack's two d100 rolls are drawn up front. An attack whose attacker's own test fails cannot land and
changes nothing, so only the others take part. Each of those is resolved as a blow in one batch
(``resolve_blow_batch``), against its target as the phase began: nothing in the phase changes an ML, and the one
thing a blow does that depends on the wounds already there, compounding, is read again when it lands
(``BlowArrays.on_wounds``). Its numbers are drawn whether or not it lands, so a fight's draws do not depend on
the order its blows land in.

A wave is every remaining attack with no earlier remaining attack (in initiative order) on its target or on its
attacker: all it depends on has been settled, and no two attacks of a wave share a target, so the wave's blows
apply at once. When an attack's turn comes, its attacker must not have been felled, shocked or disarmed by an
earlier one (the order of the first blow that did is kept per creature), its target must still live, and the
target defends as it is then. The waves of a tick are as few as the longest chain of attacks that wait on one
another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from components.rules import ShockState, TestResult
from systems.arrays.attack import Attacks
from systems.arrays.state import NO_ML
from systems.arrays.tables import IntArray
from systems.vector_blows import BlowArrays, resolve_blow_batch

if TYPE_CHECKING:
    from systems.arrays.anatomy.model import AnatomyArrayModel

LATER = np.iinfo(np.int64).max
"""The order of a blow that never came."""


def read_tests(model: AnatomyArrayModel, ml: IntArray, rolls: IntArray) -> IntArray:
    """d100 results (``TestResult`` codes) of ``rolls`` (0..99, a roll of 1..100 less one) against ``ml``
    (``NO_ML``: a critical failure)."""
    tests = model.rules.tests
    lut = model.engine.tables.test_lut
    row = np.clip(ml, tests.ml_min, tests.ml_max) - tests.ml_min
    return np.where(ml > NO_ML // 2, lut[row * 100 + rolls], int(TestResult.CF))


def resolve(model: AnatomyArrayModel, attacks: Attacks) -> None:
    """Resolve and apply this tick's attacks (see the module docstring)."""
    from systems.arrays.anatomy.consequences import apply_blows
    from systems.arrays.anatomy.records import log_blows

    engine, st = model.engine, model.state
    cr, combat = engine.creatures, engine.combat
    n = len(attacks)
    if not n:
        return
    fights = cr.fight[attacks.attacker]
    rolls = [engine.streams.integers("attack", fights, 0, 100) for _ in range(2)]
    attack_ml = model.attack_ml(attacks)
    attack_raw = read_tests(model, attack_ml, rolls[0])
    potential = attack_raw >= int(TestResult.MS)
    attacks = attacks.take(potential)
    attack_raw, attack_ml = attack_raw[potential], attack_ml[potential]
    if not len(attacks):
        return
    mls = TestMLs.of(model, attacks.target)
    defence_raw = read_tests(model, mls.defence, rolls[1][potential])
    drop = combat.stunned_level_drop
    stunned_before = st.shock == int(ShockState.STUNNED)  # an attacker that still acts has not changed state
    result_of = np.maximum(attack_raw - np.where(stunned_before[attacks.attacker], drop, 0), 0)
    blows_of = _blows(model, attacks, mls)  # every blow that might land, as it would (see the module docstring)
    reeled_at = np.full(len(cr), LATER, dtype=np.int64)
    disarmed_at = np.full(len(cr), LATER, dtype=np.int64)
    remaining = np.arange(len(attacks))
    while remaining.size:
        att, tgt, rank = attacks.attacker[remaining], attacks.target[remaining], attacks.rank[remaining]
        first = np.full(len(cr), LATER, dtype=np.int64)
        np.minimum.at(first, tgt, rank)
        ready = (first[att] > rank) & (first[tgt] >= rank)
        wave = remaining[ready]
        remaining = remaining[~ready]
        a, t, r = attacks.attacker[wave], attacks.target[wave], attacks.rank[wave]
        acts = (reeled_at[a] > r) & (attacks.natural[wave] | (disarmed_at[a] > r)) & ~cr.dead[t]
        result = result_of[wave]
        defends = (~cr.dead[t] & ~cr.out[t]) | combat.helpless_defence
        defence = np.maximum(defence_raw[wave] - np.where(st.shock[t] == int(ShockState.STUNNED), drop, 0), 0)
        landed = acts & (result >= int(TestResult.MS)) & (~defends | (defence < result))
        if not landed.any():
            continue
        hits = attacks.take(wave[landed])
        blows = blows_of.take(wave[landed]).on_wounds(st.totals, hits.target)
        engine.tracer.count(hits, blows)
        reeled, disarmed, follows = apply_blows(model, hits, blows)
        np.minimum.at(reeled_at, hits.target[reeled], hits.rank[reeled])
        np.minimum.at(disarmed_at, hits.target[disarmed], hits.rank[disarmed])
        log_blows(engine.tracer, hits, blows, attack_ml[wave[landed]], result[landed],
                  np.where(defends[landed], defence[landed], -1), mls.defence[wave[landed]], follows)


@dataclass(frozen=True, slots=True)
class TestMLs:
    """The MLs of the tests a blow makes of its target, per attack, read as the attack phase begins: nothing in
    the phase changes an ML (impairment and fatigue settle after it).

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

    @classmethod
    def of(cls, model: AnatomyArrayModel, targets: IntArray) -> TestMLs:
        """Read them from the model's state, for attacks on ``targets``."""
        engine, st = model.engine, model.state

        def ml(skill: str) -> IntArray:
            return st.effective_ml(targets, model.skill[skill], engine.creatures.mls, engine.skills)

        return cls(ml("defence"), ml("shock"), ml("strength"), np.maximum(ml("dexterity"), ml("legerdemain")),
                   np.maximum(ml("agility"), ml("acrobatics")))


def _blows(model: AnatomyArrayModel, hits: Attacks, mls: TestMLs) -> BlowArrays:
    """Resolve ``hits`` as blows that land (``mls``: their targets' test MLs), each against its own target as
    the attack phase began (its wounds then: ``BlowArrays.on_wounds`` reads them again when the blow lands)."""
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
    return resolve_blow_batch(
        engine.tables, kind, impacts, modes.aspect[hits.mode], rng, locator=locator, shock_ml=mls.shock,
        strength_ml=mls.strength, fumble_ml=mls.fumble, stumble_ml=mls.stumble, existing=(model.state.totals, t))
