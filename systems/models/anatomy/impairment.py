"""Impairment: how wounds on a part hamper it, and what that costs the tests that depend on it.

A part takes the single worst penalty among its wounds and its permanent impairment (worst-of, never
additive). A grievous wound, a severed location or a permanently unusable part makes it unusable; a test whose
skill names a role held by an unusable part critically fails without a roll.
"""

from __future__ import annotations

from collections.abc import Iterable

from sandbox.components.body import BodyStructure
from sandbox.components.impairment import SOUND, Impairment, ImpairmentTier
from sandbox.components.models.anatomy import Injury
from sandbox.components.rules import AnatomyRules, InjuryLevel

__all__ = ["body_impairments", "injury_penalty", "part_impairment", "part_impairment_of", "permanent_impairment_for",
           "test_penalty", "tier"]


def injury_penalty(level: int, healing_rate: int | None, rules: AnatomyRules) -> int | None:
    """The impairment one wound imposes: a penalty (<= 0), or ``None`` for unusable (a grievous wound).

    A minor wound impairs only while slow to heal (Healing Rate at or under the rules' maximum, 5); an
    untreated minor wound counts as slow to heal.
    """
    if level <= 0:
        return 0
    penalty = rules.impairment_by_level[min(level, len(rules.impairment_by_level) - 1)]
    if level == InjuryLevel.M1 and healing_rate is not None and healing_rate > rules.minor_slow_healing_rate_max:
        return 0
    return penalty


def part_impairment(wounds: Iterable[tuple[int, int | None]], permanent: int = 0,
                    permanently_unusable: bool = False, *, rules: AnatomyRules) -> Impairment:
    """Worst-of impairment of one part.

    Args:
        wounds: ``(level, healing rate)`` of each wound on the part.
        permanent: Permanent impairment (<= 0), a floor the part can never rise above.
        permanently_unusable: The part is gone for good.
        rules: The rule tables.
    """
    if permanently_unusable:
        return Impairment(min(permanent, 0), True)
    worst = min(permanent, 0)
    for level, rate in wounds:
        penalty = injury_penalty(level, rate, rules)
        if penalty is None:
            return Impairment(worst, True)
        worst = min(worst, penalty)
    return Impairment(worst, False) if worst < 0 else SOUND


def body_impairments(body: BodyStructure, injury: Injury, rules: AnatomyRules) -> tuple[Impairment, ...]:
    """Impairment of every part of ``body`` given its wound state."""
    per_part: list[list[tuple[int, int | None]]] = [[] for _ in body.parts]
    for wound in injury.wounds:
        if wound.level > 0:
            per_part[body.locations[wound.location].part].append((wound.level, wound.healing_rate))
    severed_parts = {body.locations[li].part for li in injury.severed}
    return tuple(_of_part(body, injury, pi, per_part[pi], pi in severed_parts, rules) for pi in range(len(body.parts)))


def part_impairment_of(body: BodyStructure, injury: Injury, part: int, rules: AnatomyRules) -> Impairment:
    """Impairment of one part of ``body`` given its wound state (what changes when only that part was wounded)."""
    locations = body.locations
    wounds = [(w.level, w.healing_rate) for w in injury.wounds if w.level > 0 and locations[w.location].part == part]
    severed = any(locations[li].part == part for li in injury.severed)
    return _of_part(body, injury, part, wounds, severed, rules)


def _of_part(body: BodyStructure, injury: Injury, part: int, wounds: list[tuple[int, int | None]], severed: bool,
             rules: AnatomyRules) -> Impairment:
    p = body.parts[part]
    permanent = min(p.permanent_impairment, injury.permanent_impairment.get(part, 0))
    gone = p.permanently_unusable or part in injury.unusable_parts or severed
    return part_impairment(wounds, permanent, gone, rules=rules)


def test_penalty(body: BodyStructure, impairments: tuple[Impairment, ...], roles: Iterable[str]) -> int | None:
    """The impairment modifier on a test whose skill names ``roles``.

    Returns:
        The worst penalty among the parts holding any of the roles (0 if none is impaired), or ``None`` when
        one of them is unusable: the test then critically fails without a roll.
    """
    wanted = frozenset(roles)
    if not wanted:
        return 0
    worst = 0
    for part, imp in zip(body.parts, impairments, strict=True):
        if part.roles & wanted:
            if imp.unusable:
                return None
            worst = min(worst, imp.penalty)
    return worst


def tier(imp: Impairment, rules: AnatomyRules) -> ImpairmentTier:
    """The impairment tier the health ceiling reads: none, minor, serious, grievous or unusable.

    0 is none; down to the minor bound (-5) minor; down to the serious bound (-10) serious; worse is grievous
    (reached only through permanent impairment, since a grievous wound makes the part unusable instead).
    """
    if imp.unusable:
        return ImpairmentTier.UNUSABLE
    if imp.penalty >= 0:
        return ImpairmentTier.NONE
    if imp.penalty >= rules.impairment_tier_minor:
        return ImpairmentTier.MINOR
    if imp.penalty >= rules.impairment_tier_serious:
        return ImpairmentTier.SERIOUS
    return ImpairmentTier.GRIEVOUS


def permanent_impairment_for(days: float, rules: AnatomyRules) -> int:
    """Permanent impairment left by a wound that took ``days`` to heal: -5 per 20 days, floored at -25."""
    steps = int(max(days, 0) // rules.permanent_days_per_step)
    return max(steps * rules.permanent_step, rules.permanent_floor)
