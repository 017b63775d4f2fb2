"""From a blow at a location to an injury: protection, level, glancing, compounding, bleeding, amputation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.gear import ArmorPiece
from sandbox.components.rules import AmputationOutcome, AnatomyRules, TestResult

__all__ = ["amputation_bleeds", "amputation_modifier", "amputation_outcome", "amputation_possible", "compounds",
           "effective_impact", "injury_level", "is_bleeder", "is_glancing", "location_protection", "scaled_thresholds"]


def location_protection(body: BodyStructure, armor: Iterable[ArmorPiece]
                        ) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[bool, ...]]:
    """Total protection per location and aspect (natural plus every worn layer), and rigid coverage.

    Layers add: a gambeson under mail gives both pieces' protection where both cover.

    Returns:
        ``(protection, rigid)``: per location, a (blunt, edged, piercing, fire) tuple, and whether any rigid
        piece covers it.
    """
    pieces = list(armor)
    protection: list[tuple[int, int, int, int]] = []
    rigid: list[bool] = []
    for loc in body.locations:
        totals = list(loc.protection)
        covered_rigid = False
        key = loc.name.casefold()
        for piece in pieces:
            if key in piece.covers:
                for a in range(4):
                    totals[a] += piece.protection[a]
                covered_rigid = covered_rigid or piece.rigid
        protection.append((totals[0], totals[1], totals[2], totals[3]))
        rigid.append(covered_rigid)
    return tuple(protection), tuple(rigid)


def effective_impact(impact: int, protection: int) -> int:
    """The blow's impact less the location's protection for its aspect, floored at zero.

    A blow of no impact (0 or less) stays at 0 whatever the protection: a vulnerability (negative natural
    protection) worsens a blow, it does not make one.
    """
    return impact - protection if impact > protection and impact > 0 else 0


def scaled_thresholds(body: BodyStructure, rules: AnatomyRules) -> tuple[float, ...]:
    """The body's injury thresholds: its own (or the rules') times its scale, the scale clamped to the rules."""
    base = body.thresholds or rules.thresholds
    scale = min(max(body.scale, rules.scale_min), rules.scale_max)
    return tuple(t * scale for t in base)


def injury_level(effective: float, thresholds: Sequence[float]) -> int:
    """Injury level 0..5 (none, M1, S2, S3, G4, G5): how many thresholds the effective impact reaches."""
    level = 0
    for threshold in thresholds:
        if effective >= threshold:
            level += 1
        else:
            break
    return level


def is_glancing(aspect: int, level: int, rigid: bool, rules: AnatomyRules) -> bool:
    """An edged or piercing blow that would deal only a minor wound glances off rigid armour."""
    return rigid and 0 < level <= rules.glancing_max_level and aspect in rules.glancing_aspects


def compounds(new_level: int, existing_levels: Sequence[int]) -> bool:
    """Whether a new injury worsens the worst wound already at its location.

    It does when the location already bears wounds and the new level meets or exceeds their total.
    """
    return bool(existing_levels) and new_level > 0 and new_level >= sum(existing_levels)


def is_bleeder(bleeding_tier: str, level: int, aspect: int, rules: AnatomyRules) -> bool:
    """The bleeding grid: does a wound of ``level`` and ``aspect`` at a location of this tier bleed?"""
    return aspect in rules.bleeding[bleeding_tier][level]


def amputation_possible(amputability: str, level: int, aspect: int, rules: AnatomyRules) -> bool:
    """An amputation check happens only on a G5 edged wound at a location whose tier is not none."""
    return level >= rules.amputation_level and aspect in rules.amputation_aspects and amputability != "none"


def amputation_modifier(amputability: str, rules: AnatomyRules) -> int:
    """The Strength test modifier for a tier (low +20, medium 0, high -20)."""
    return rules.amputation_modifiers[amputability]


def amputation_outcome(result: TestResult, rules: AnatomyRules) -> AmputationOutcome:
    """What a Strength test result on an amputation check does."""
    return rules.amputation_outcomes[result]


def amputation_bleeds(outcome: AmputationOutcome, bleeding_tier: str) -> bool:
    """Whether a severing makes a bleeder: always on CF, on MF only where the location bleeds at all."""
    if outcome.bleeder == "always":
        return True
    if outcome.bleeder == "if_susceptible":
        return bleeding_tier != "none"
    return False
