"""The exact odds of a blow: what the vectorised sampler estimates, summed instead of drawn.

``exact_blow_odds`` sums over the impact distribution (``dice_distribution`` convolves the dice, never enumerating
their rolls), the locations and every d100 test of a blow (amputation, Shock, keep-grip, keep-footing) and returns
the exact probabilities ``sandbox.systems.models.anatomy.vector_blows.resolve_blows`` estimates. Against a target's
current wounds (the profile carries them) it also sums what the blow leaves: compounding, and the shock state the
new result leaves on the one the target is in (``shock_now``), so whether it is down after the blow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from sandbox.components.gear import Dice
from sandbox.components.rules import AnatomyRules, ShockState, TestResult
from sandbox.systems.dice import success_probabilities
from sandbox.systems.hit_location import location_probabilities
from sandbox.systems.models.anatomy.blow import TargetProfile
from sandbox.systems.models.anatomy.damage import offered_state
from sandbox.systems.models.anatomy.injury import compounds
from sandbox.systems.models.anatomy.mishaps import fumble_outcome, stumble_outcome

__all__ = ["ExactOdds", "dice_distribution", "exact_blow_odds"]


@dataclass(slots=True)
class ExactOdds:
    """Exact probabilities of what one blow does; every probability is of all blows (as ``Odds`` counts).

    Attributes:
        missed: The blow finds nothing to strike.
        dead: The blow kills.
        location: Per location index, the chance it is struck.
        level: Per injury level 0..5, the chance of a landed blow at that level.
        glancing: The blow glances.
        bleeder: The wound bleeds.
        amputation: ``none``, ``kept``, ``severed``.
        shock: Per ``ShockState``, the chance of a landed blow offering it.
        fumble: ``none`` or ``<disposition> -> <outcome>``.
        stumble: Likewise for keep-footing.
        compound: The new wound compounds the worst wound already at its location.
        after: Per ``ShockState``, the chance of the state a landed blow leaves the target in (what it offers only
            ever worsens the state it is in, ``shock_now``; a blow that kills by severing leaves it dead).
        down: The target is dead or out of the fight (Incapacitated on) after a landed blow.
    """

    missed: float = 0.0
    dead: float = 0.0
    location: dict[int, float] = field(default_factory=dict)
    level: list[float] = field(default_factory=lambda: [0.0] * 6)
    glancing: float = 0.0
    bleeder: float = 0.0
    amputation: dict[str, float] = field(default_factory=dict)
    shock: list[float] = field(default_factory=lambda: [0.0] * len(ShockState))
    fumble: dict[str, float] = field(default_factory=dict)
    stumble: dict[str, float] = field(default_factory=dict)
    compound: float = 0.0
    after: list[float] = field(default_factory=lambda: [0.0] * len(ShockState))
    down: float = 0.0


def dice_distribution(dice: Dice, bonus: int = 0) -> dict[int, float]:
    """The exact distribution of a dice expression's total plus ``bonus``.

    The dice are convolved one at a time, each convolution a sliding sum over the distribution so far (a running
    total, differenced ``sides`` apart), so ``N`` dice of ``X`` faces cost about ``N x N x X`` additions in numpy,
    never the ``X ** N`` roll sequences: 100d1000 takes a fraction of a second.
    """
    sides = max(dice.sides, 1)
    dist = np.ones(1, dtype=np.float64)  # the distribution of the dice's total less their count
    for _ in range(dice.count):
        running = np.concatenate(([0.0], np.cumsum(dist)))  # running[i] = P(total < i)
        size = len(dist) + sides - 1
        upper = np.minimum(np.arange(1, size + 1), len(dist))
        lower = np.maximum(np.arange(1, size + 1) - sides, 0)
        dist = np.maximum((running[upper] - running[lower]) / sides, 0.0)  # a difference can dip below 0 by 1e-17
    low = dice.count + dice.modifier + bonus
    return {low + i: float(p) for i, p in enumerate(dist) if p > 0}


def _test_odds(ml: int | None, rules: AnatomyRules,
               seen: dict[int | None, dict[TestResult, float]] | None = None) -> dict[TestResult, float]:
    """The results of a d100 test against ``ml``, from ``seen`` when already worked out.

    A blow's walk asks for the same few MLs at every location and level, and each costs a hundred test readings.
    """
    if seen is not None and ml in seen:
        return seen[ml]
    odds = {TestResult.CF: 1.0} if ml is None else {
        r: p for r, p in success_probabilities(ml, rules.tests).items() if p > 0}
    if seen is not None:
        seen[ml] = odds
    return odds


def _add(bucket: dict[str, float], key: str, p: float) -> None:
    bucket[key] = bucket.get(key, 0.0) + p


def exact_blow_odds(target: TargetProfile, impacts: Mapping[int, float], aspect: int, aim: int | None = None,
                    spread: int = 1, *, location: int | None = None,
                    shock_now: ShockState = ShockState.NONE) -> ExactOdds:
    """The exact odds of one blow against ``target``: every location, impact and d100 test.

    The target's test MLs and the wounds already at each location come from its profile; ``shock_now`` is the
    shock state it is in (what a new result worsens).

    Args:
        target: The compiled target.
        impacts: The impact distribution (``dice_distribution``, or ``{impact: 1.0}``); its cost is one numpy pass
            over it per location, then per location and level the tests.
        aspect: Damage aspect index.
        aim: Target zone number, or ``None`` for unaimed.
        spread: Spread of an aimed blow.
        location: A forced location.
        shock_now: The target's shock state before the blow.

    Returns:
        Probabilities of all blows, per location, level, amputation, shock state and mishap.
    """
    rules = target.rules
    if location is None:
        probs, miss = location_probabilities(target.body, target.hit, aim, spread)
    else:
        probs, miss = [0.0] * len(target.body.locations), 0.0
        probs[location] = 1.0
    odds = ExactOdds(missed=miss)
    seen: dict[int | None, dict[TestResult, float]] = {}
    values = np.fromiter(impacts.keys(), dtype=np.int64, count=len(impacts))
    weights = np.fromiter(impacts.values(), dtype=np.float64, count=len(impacts))
    thresholds = np.asarray(target.thresholds, dtype=np.float64)
    for loc, p_loc in enumerate(probs):
        if p_loc <= 0:
            continue
        odds.location[loc] = odds.location.get(loc, 0.0) + p_loc
        # Everything after the location depends on the impact only through its level: the impacts are summed by
        # level first (a hundred thousand impacts of 100d1000 make six levels).
        prot = target.protection[loc][aspect]
        eff = np.where((values > prot) & (values > 0), values - prot, 0)  # injury.effective_impact
        by_level = np.bincount(np.searchsorted(thresholds, eff, side="right"), weights=weights,
                               minlength=len(thresholds) + 1)
        for level, p_level in enumerate(by_level.tolist()):
            if p_level <= 0:
                continue
            p = p_loc * p_level
            glancing = (level > 0 and target.rigid[loc] and aspect in rules.glancing_aspects
                        and level <= rules.glancing_max_level)
            if glancing:
                level = 0
            odds.level[level] += p
            odds.glancing += p * glancing
            existing = target.existing_levels.get(loc)
            if existing and compounds(level, existing):
                odds.compound += p
            base_bleeder = bool(target.bleeds[loc][level] >> aspect & 1)
            branches: list[tuple[float, str, bool, bool, int]] = []  # p, amputation, severed, bleeder, roll mod
            roll0 = rules.glancing_shock_roll if glancing else 0
            amp_mod = target.amputation[loc]
            if amp_mod is not None and level >= rules.amputation_level and aspect in rules.amputation_aspects:
                ml = target.strength_ml
                for result, q in _test_odds(None if ml is None else ml + amp_mod, rules, seen).items():
                    out = rules.amputation_outcomes[result]
                    bleeds = base_bleeder or (out.severed and target.amputation_bleed[loc][result])
                    branches.append((q, "severed" if out.severed else "kept", out.severed, bleeds,
                                     roll0 + out.shock_roll_modifier))
            else:
                branches.append((1.0, "none", False, base_bleeder, roll0))
            if glancing:
                index = target.shock_value[loc] + rules.glancing_shock_index
            else:
                index = target.shock_value[loc] + level if level > 0 else 0
            for q, amp, severed, bleeds, roll_mod in branches:
                pq = p * q
                _add(odds.amputation, amp, pq)
                odds.bleeder += pq * bleeds
                if index > rules.shock_death_above:
                    shock = [(1.0, ShockState.DEAD)]
                elif index > rules.shock_no_test_max:
                    ml = target.shock_ml
                    shock = []
                    for result, r in _test_odds(None if ml is None else ml + roll_mod, rules, seen).items():
                        final = index + rules.shock_index_change[result]
                        states = target.state_by_index
                        shock.append((r, states[min(max(final, 0), len(states) - 1)]))
                else:
                    shock = [(1.0, ShockState.NONE)]
                for r, state in shock:
                    odds.shock[state] += pq * r
                    if state is ShockState.DEAD or (severed and target.vital_location[loc]):
                        odds.dead += pq * r
                        odds.down += pq * r
                        odds.after[ShockState.DEAD] += pq * r
                        continue
                    left = offered_state(shock_now, state)
                    odds.after[left] += pq * r
                    if left >= ShockState.INCAPACITATED:
                        odds.down += pq * r
            for name, disposition, ml, outcome in (
                    ("fumble", target.fumble[loc][level], target.fumble_ml, fumble_outcome),
                    ("stumble", target.stumble[loc][level], target.stumble_ml, stumble_outcome)):
                bucket = odds.fumble if name == "fumble" else odds.stumble
                if disposition == "none":
                    _add(bucket, "none", p)
                elif disposition == "auto":
                    _add(bucket, f"auto -> {outcome('auto', None)}", p)
                else:
                    for result, r in _test_odds(ml, rules, seen).items():
                        _add(bucket, f"roll -> {outcome('roll', result)}", p * r)
    return odds
