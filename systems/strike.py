"""Wielding a strike mode: which limbs it needs, dominance and the off hand, and the Strength impact modifier."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.gear import StrikeMode
from sandbox.components.impairment import Impairment
from sandbox.components.rules import StrengthImpactRules

__all__ = ["dominance_from", "is_off_hand", "strength_impact_modifier", "wielding_parts"]


def dominance_from(left_dominance: bool, right_dominance: bool) -> str:
    """A being's favoured side from the characteristics it carries: both or neither is ambidextrous."""
    if left_dominance == right_dominance:
        return "ambidextrous"
    return "left" if left_dominance else "right"


def is_off_hand(body: BodyStructure, gripping: Sequence[int], dominance: str) -> bool:
    """A weapon is off-hand only when every limb gripping it is on the non-favoured side.

    An ambidextrous being has no off hand; a grip that includes the dominant hand (or a central part) is never
    off-hand.
    """
    if dominance == "ambidextrous" or not gripping:
        return False
    off_side = "left" if dominance == "right" else "right"
    return all(body.parts[p].side == off_side for p in gripping)


def strength_impact_modifier(strength: int, rules: StrengthImpactRules, *, off_hand: bool = False,
                             thrown: bool = False) -> int:
    """The Strength Impact Modifier for an attacker's STR (10-11: 0, 12-13: +1, 8-9: -1, 1: -10 ...).

    Args:
        strength: The attacker's Strength score.
        rules: The modifier table.
        off_hand: The weapon is wielded only by off-side limbs (one more -1).
        thrown: The weapon is thrown (one more -1).
    """
    if strength >= rules.step_from:
        modifier = rules.step_base + (strength - rules.step_from) // rules.step_every
    else:
        modifier = rules.table[0][1]
        for lowest, value in rules.table:
            if strength >= lowest:
                modifier = value
    if off_hand:
        modifier += rules.off_hand
    if thrown:
        modifier += rules.thrown
    return modifier


def _matches(body: BodyStructure, part: int, selector: str) -> bool:
    p = body.parts[part]
    return p.can_hold if selector == "grip" else selector in p.roles


_PREFERENCE: dict[tuple[int, str], tuple[BodyStructure, tuple[int, ...]]] = {}


def _preference(body: BodyStructure, dominance: str) -> tuple[int, ...]:
    """Parts in the order a creature reaches for them: dominant side, then the other side, then central ones.

    Memoised per body object (the entry keeps the body alive, so its id cannot be reused by another).
    """
    entry = _PREFERENCE.get((id(body), dominance))
    if entry is None or entry[0] is not body:
        order = tuple(sorted(range(len(body.parts)),
                             key=lambda p: (body.parts[p].side != dominance, body.parts[p].side == "center", p)))
        entry = _PREFERENCE[(id(body), dominance)] = (body, order)
    return entry[1]


def wielding_parts(body: BodyStructure, mode: StrikeMode, impairments: Sequence[Impairment], *,
                   dominance: str = "right", immobilized: Collection[int] = (),
                   holding: Mapping[int, str] | None = None) -> tuple[int, ...] | None:
    """The parts that would wield ``mode``, or ``None`` when the creature cannot use it now.

    A mode checks its own limbs, not the role at large: an unusable off hand does not spoil a one-handed
    strike with the good hand, but an unusable gripping hand fails it. A held weapon's mode uses the parts
    already holding it (all of them must be usable and free to move), topped up with free parts when the mode
    needs more hands; a natural ``grip`` mode (a punch) needs a free hand. Immobilised limbs keep their grip
    but cannot strike.

    Args:
        body: The wielder's body.
        mode: The strike mode.
        impairments: Current impairment of each part.
        dominance: The wielder's favoured side; dominant-side parts are preferred.
        immobilized: Parts held fast (netted, pinned, bound).
        holding: Part index -> id of the item it holds.
    """
    holding = holding or {}
    held_by = [p for p, item in holding.items() if item == mode.weapon]

    def ready(part: int) -> bool:
        return not impairments[part].unusable and part not in immobilized

    if any(not ready(p) for p in held_by):
        return None
    order = _preference(body, dominance)
    chosen = list(held_by)
    for part in order:
        if len(chosen) >= mode.limbs:
            break
        if part in chosen or not _matches(body, part, mode.limb) or not ready(part):
            continue
        if mode.limb == "grip" and part in holding:
            continue  # a hand already holding something else cannot take the grip
        chosen.append(part)
    return tuple(chosen) if len(chosen) >= mode.limbs else None
