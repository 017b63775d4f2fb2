"""The wound-depth model's pure rules: numbers in, numbers or records out, every draw from an explicit rng.

One d20 roll answers whether the blow landed and how deep it went:

- **Attack**: d20 + Strength modifier (melee) or Dexterity modifier (missile and thrown) against the target's
  Defense (10 + Dexterity modifier + the armour rating of every piece worn; a hostile's entry may carry a fixed
  Defense instead of 10 + Dexterity). The creature's untreated-wound penalty, a pending mishap, a notched weapon
  and the target's open guard apply.
- **Margin** = total - Defense; a margin <= 0 misses, a margin >= 1 hits, whatever the die shows (decisions.md).
- **Depth margin** = margin + the weapon's depth bonus - the target's depth reduction for the damage type (its
  anatomy note: a fire dragon's scales turn cuts). 1-3 skin, 4-7 flesh, 8-11 bone, 12+ organ; <= 0 no wound.
- **Natural 20**: a hit goes one tier deeper, to the worst result at that depth. **Natural 1**: a mishap, one of
  document 002's three by the mishap die (the weapon rings off stone and falls or is notched, a muscle pulls: a
  penalty on the next roll, the guard is left open: a bonus to the next attack against the fumbler).
- **Called shot**: -5 to hit; the blow lands on the called location, or on a called part (the location within it
  by weight). Otherwise the location is drawn from the target's anatomy exactly as the anatomy model draws an
  unaimed blow.
- **Injury**: depth x damage type (blunt, cutting, piercing, fire) picks the injury from the tables; organ
  wounds split by whether the part is Vital/Core or a limb. An injury may carry a roll penalty while untreated
  (bleeding), break its part (it stops working until set), lose the part for good, put the creature down, start
  a death clock (rounds), or kill outright.
- Untreated wound penalties apply to the creature's own rolls; when they reach the collapse limit the creature
  goes down (blood loss, a sandbox rule).

What it holds: the model's ``NAME``; the attack's numbers (``ability_modifier``, ``defense_of``, ``depth_tier``,
``wound_depth`` and its ``Depth``, ``outcome_probabilities``); where a hit lands (``strike_location``); the injury
a wound opens (``cell_of``, ``injury_for``); what a mishap does (``mishap_effect``); and the state a creature's
wounds make (``depth_state``, ``wounds_of``, ``settle``, ``open_wounds``). Treatment is in ``care``, the words of
the log in ``record``, the readout in ``readout``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from sandbox.components.body import BodyStructure
from sandbox.components.models.depth import CELLS, TIERS, DepthInjury, DepthState, DepthTables, DepthWound, Mishap
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng
from sandbox.systems.hit_location import MISS, HitTable, locate, location_in_zone

__all__ = ["NAME", "Depth", "ability_modifier", "cell_of", "defense_of", "depth_state", "depth_tier", "injury_for",
           "mishap_effect", "open_wounds", "outcome_probabilities", "settle", "strike_location", "wound_depth",
           "wounds_of"]

NAME = "depth"
"""The model's name: its key in the registry and the ``model`` of the events it emits."""


# -------------------------------------------------------------------------------------------------- the attack


def ability_modifier(score: int, base: int = 10, step: int = 2) -> int:
    """The d20 modifier of an attribute score: ``(score - base) // step`` (14 -> +2, 10 -> 0, 7 -> -2)."""
    return (score - base) // step


def defense_of(dexterity_modifier: int, armor_ratings: Iterable[int], base: int = 10,
               fixed: int | None = None) -> int:
    """Defense: ``base`` (or a fixed Defense) + Dexterity modifier + the rating of every armour piece worn.

    A hostile's ``fixed`` Defense replaces ``base`` and the Dexterity modifier; armour still adds (leather 2 and
    Dexterity +2: 14).
    """
    start = fixed if fixed is not None else base + dexterity_modifier
    return start + sum(armor_ratings)


def depth_tier(depth_margin: int, tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> int:
    """The tier a depth margin reaches: 0 none, 1 skin (1-3), 2 flesh (4-7), 3 bone (8-11), 4 organ (12+)."""
    tier = 0
    for i, lowest in enumerate(tiers, start=1):
        if depth_margin >= lowest:
            tier = i
    return tier


@dataclass(frozen=True, slots=True)
class Depth:
    """How deep a landed blow went.

    Attributes:
        raw: Margin + weapon depth bonus.
        margin: ``raw`` - the target's depth reduction for the blow's family.
        tier: Tier of ``margin`` (0..4), one deeper on a natural 20 (at most organ).
        worst: The natural 20 bumped the tier: the worst result at that depth.
    """

    raw: int
    margin: int
    tier: int
    worst: bool


def wound_depth(margin: int, depth_bonus: int, reduction: int, natural_20: bool,
                tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> Depth:
    """The depth of a blow that hit with ``margin``.

    A natural 20 bumps the tier one deeper (a blow the hide turned entirely becomes a skin wound) and asks for
    the worst result at the new depth; organ is the deepest tier.
    """
    raw = margin + depth_bonus
    reduced = raw - reduction
    tier = depth_tier(reduced, tiers)
    if natural_20:
        tier = min(tier + 1, 4)
    return Depth(raw, reduced, tier, natural_20)


def outcome_probabilities(bonus: int, defense: int, depth_bonus: int, reduction: int = 0, *,
                          tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> dict[str, float]:
    """The exact chance of each outcome of one attack, over the twenty faces of the d20.

    The margin alone decides a hit (a natural 20 short of Defense misses, a natural 1 beating it hits); a natural 20
    that hits goes one tier deeper.

    Args:
        bonus: Everything added to the die (ability modifier, called shot, wound penalty, mishap).
        defense: The target's Defense.
        depth_bonus: The weapon's depth bonus.
        reduction: The target's depth reduction for the weapon's damage type.
        tiers: Lowest depth margin of skin, flesh, bone and organ.

    Returns:
        ``miss`` and each of ``TIERS`` (``none``: it hit but went no deeper) -> probability.
    """
    out = dict.fromkeys(("miss", *TIERS), 0.0)
    for natural in range(1, 21):
        margin = natural + bonus - defense
        if margin < 1:
            out["miss"] += 1 / 20
            continue
        out[TIERS[wound_depth(margin, depth_bonus, reduction, natural == 20, tiers).tier]] += 1 / 20
    return out


def strike_location(body: BodyStructure, table: HitTable, called_part: int | None, aim_zone: int,
                    rng: Rng) -> int:
    """Where a hit lands: in the called part, in the aimed zone, or anywhere; ``MISS`` when nothing can be hit.

    On a called part the location is drawn by weight within it; at an aimed zone, by the anatomy's part x location
    weights; otherwise by the anatomy model's unaimed draw.
    """
    if called_part is not None and body.part_hittable(called_part):
        part = body.parts[called_part]
        locs = [li for li in part.locations if body.locations[li].weight > 0]
        if len(locs) == 1:
            return locs[0]
        total = sum(body.locations[li].weight for li in locs)
        draw = rng.random() * total
        running = 0.0
        for li in locs:
            running += body.locations[li].weight
            if draw < running:
                return li
        return locs[-1]
    if 0 < aim_zone <= table.max_zone_number and table.zone_by_number[aim_zone] != MISS:
        return location_in_zone(table, table.zone_by_number[aim_zone], rng)
    return locate(table, None, 1, rng)[1]


def mishap_effect(mishap: Mishap, natural_weapon: bool) -> tuple[str, int]:
    """What a mishap does to its fumbler: ``(effect, amount)``.

    A weapon mishap (``drop``, ``notch``) with a natural weapon, which can neither fall nor be notched, becomes
    ``next_roll`` with its ``natural_penalty``.
    """
    if mishap.effect in ("drop", "notch") and natural_weapon:
        return "next_roll", mishap.natural_penalty
    amount = mishap.bonus if mishap.effect == "open_guard" else mishap.penalty
    return mishap.effect, amount


# -------------------------------------------------------------------------------------------------- the injury


def cell_of(tier: int, critical_part: bool) -> str:
    """The injury-table row of a tier (1..4): organ wounds split by a Vital/Core part or a limb."""
    if tier >= 4:
        return "organ_core" if critical_part else "organ_limb"
    return CELLS[tier - 1]


def injury_for(tables: DepthTables, tier: int, family: str, critical_part: bool,
               worst: bool) -> DepthInjury | None:
    """The injury a wound of ``tier`` and ``family`` opens on a (Vital/Core or limb) part; ``None`` for tier 0."""
    if tier <= 0:
        return None
    ordinary, worst_injury = tables.injuries[(cell_of(tier, critical_part), family)]
    return worst_injury if worst else ordinary


# --------------------------------------------------------------------------------------------------- the state


def depth_state(creature: Creature) -> DepthState:
    """The wound-depth state a creature of a depth-model world carries."""
    return cast(DepthState, creature.state)


def wounds_of(state: DepthState) -> list[DepthWound]:
    """The creature's wounds."""
    return [DepthWound.of(row) for row in state.wounds]


def settle(state: DepthState, collapse_at: int) -> None:
    """Recompute the derived fields (penalty, broken and lost parts, down, death clock) from the wounds."""
    penalty = 0
    broken: set[int] = set()
    lost: set[int] = set()
    down = False
    dies_at = -1.0
    for w in wounds_of(state):
        if w.lost:
            lost.add(w.part)
            broken.add(w.part)
        if w.treated:
            continue
        penalty += w.penalty
        if w.breaks:
            broken.add(w.part)
        down = down or w.down
        if w.dies_at >= 0 and (dies_at < 0 or w.dies_at < dies_at):
            dies_at = w.dies_at
    state.penalty = penalty
    state.broken = broken
    state.lost = lost
    state.down = down or (collapse_at > 0 and -penalty >= collapse_at)
    state.dies_at = dies_at


def open_wounds(state: DepthState) -> int:
    """How many wounds still need treatment."""
    return sum(1 for w in wounds_of(state) if w.open)
