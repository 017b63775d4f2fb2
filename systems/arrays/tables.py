"""The content as the array engine reads it.

Every body, strike mode and skill of a world turned into numpy tables once, so the tick only gathers from them.

Bodies are padded to the most parts (``P``) and locations (``L``) of any body in the world; a padding part has no
roles and never counts. Roles are bits (``ROLE_BITS``); a part set is a bitmask over part indices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sandbox.components.body import ROLES, BodyStructure
from sandbox.components.creature import SkillDef
from sandbox.components.gear import StrikeMode
from sandbox.systems.ai import aimable_parts, mean_impact
from sandbox.systems.combat import REACH_SLACK
from sandbox.systems.hit_location import target_zone_number

if TYPE_CHECKING:
    from sandbox.systems.arrays.fight_streams import FightStreams

__all__ = ["MAX_PARTS", "MELEE", "MISSILE", "ROLE_BITS", "THROWN", "BodyTables", "BoolArray", "FloatArray", "IntArray",
           "ModeTables", "SkillTables", "body_tables", "mode_tables", "skill_tables"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

ROLE_BITS: dict[str, int] = {role: 1 << i for i, role in enumerate(ROLES)}
"""Each role's bit in a role mask."""
MELEE, THROWN, MISSILE = 0, 1, 2
"""Strike mode kinds as codes."""
_MODE_KINDS: dict[str, int] = {"melee": MELEE, "thrown": THROWN, "missile": MISSILE}
MAX_PARTS = 62
"""The most parts a body may have here (part sets are 64-bit masks)."""


@dataclass(frozen=True, slots=True)
class BodyTables:
    """Per body (index ``b``) and part or location, padded.

    Attributes:
        bodies: The bodies, by index.
        parts: ``P``, the most parts of any body.
        locations: ``L``, the most locations of any body.
        part_roles: ``[b, p]`` role mask.
        part_exists: ``[b, p]`` a real part (not padding).
        part_critical: ``[b, p]`` Vital or Core (the harsher health column).
        part_mobility: ``[b, p]`` Vital, Core or Locomotor (slows the walk).
        part_locomotor: ``[b, p]`` a Locomotor part.
        part_permanent: ``[b, p]`` the part's permanent impairment (<= 0).
        part_gone: ``[b, p]`` permanently unusable.
        location_part: ``[b, l]`` the part of each location (0 for padding).
        location_exists: ``[b, l]`` a real location.
        has_locomotor: ``[b]`` the body has Locomotor parts at all (else it walks whatever happens).
        targetable: ``[b]`` the body has locations to strike.
        aimable_zone: ``[b, k]`` the zone number of the ``k``-th part an aim can name (random aims).
        aimable_count: ``[b]`` how many parts an aim can name.
    """

    bodies: tuple[BodyStructure, ...]
    parts: int
    locations: int
    part_roles: IntArray
    part_exists: BoolArray
    part_critical: BoolArray
    part_mobility: BoolArray
    part_locomotor: BoolArray
    part_permanent: IntArray
    part_gone: BoolArray
    location_part: IntArray
    location_exists: BoolArray
    has_locomotor: BoolArray
    targetable: BoolArray
    aimable_zone: IntArray
    aimable_count: IntArray

    def index(self, body: BodyStructure) -> int:
        """The index of ``body``."""
        return next(i for i, b in enumerate(self.bodies) if b is body)


def body_tables(bodies: Sequence[BodyStructure]) -> BodyTables:
    """Compile ``bodies`` (each at most ``MAX_PARTS`` parts)."""
    n = len(bodies)
    P = max([1, *(len(b.parts) for b in bodies)])
    L = max([1, *(len(b.locations) for b in bodies)])
    aimable = [aimable_parts(b) for b in bodies]
    A = max([1, *(len(a) for a in aimable)])
    roles = np.zeros((n, P), dtype=np.int64)
    exists = np.zeros((n, P), dtype=np.bool_)
    critical = np.zeros((n, P), dtype=np.bool_)
    mobility = np.zeros((n, P), dtype=np.bool_)
    locomotor = np.zeros((n, P), dtype=np.bool_)
    permanent = np.zeros((n, P), dtype=np.int64)
    gone = np.zeros((n, P), dtype=np.bool_)
    loc_part = np.zeros((n, L), dtype=np.int64)
    loc_exists = np.zeros((n, L), dtype=np.bool_)
    zones = np.zeros((n, A), dtype=np.int64)
    for b, body in enumerate(bodies):
        for p, part in enumerate(body.parts):
            roles[b, p] = sum(ROLE_BITS[r] for r in part.roles)
            exists[b, p] = True
            critical[b, p] = part.critical
            mobility[b, p] = part.affects_mobility
            locomotor[b, p] = "locomotor" in part.roles
            permanent[b, p] = min(part.permanent_impairment, 0)
            gone[b, p] = part.permanently_unusable
        for li, loc in enumerate(body.locations):
            loc_part[b, li] = loc.part
            loc_exists[b, li] = True
        for k, p in enumerate(aimable[b]):
            zones[b, k] = target_zone_number(body, p)
    return BodyTables(tuple(bodies), P, L, roles, exists, critical, mobility, locomotor, permanent, gone, loc_part,
                      loc_exists, np.asarray(locomotor.any(axis=1), dtype=np.bool_),
                      np.asarray(loc_exists.any(axis=1), dtype=np.bool_) & np.asarray(
                          [not b.incorporeal for b in bodies], dtype=np.bool_), zones,
                      np.asarray([len(a) for a in aimable], dtype=np.int64))


@dataclass(frozen=True, slots=True)
class ModeTables:
    """Per strike mode (index ``m``, in the catalog's order).

    Attributes:
        modes: The modes, by index.
        index: Mode id -> index.
        kind: ``MELEE``, ``THROWN`` or ``MISSILE``.
        reach: Melee reach.
        range: Missile or thrown range.
        skill: The skill index it tests.
        aspect: Damage aspect index.
        spread: Spread.
        attack_modifier: Added to the attack ML.
        strength_modifier: The Strength Impact Modifier applies.
        dice_count: Impact dice: how many.
        dice_sides: Impact dice: faces.
        dice_modifier: Impact dice: the modifier.
        mean_impact: The average impact (what mode choice ranks by).
        limit: How far it strikes: reach for a melee mode, else range; a last entry of -inf for no mode (-1).
    """

    modes: tuple[StrikeMode, ...]
    index: Mapping[str, int]
    kind: IntArray
    reach: FloatArray
    range: FloatArray
    skill: IntArray
    aspect: IntArray
    spread: IntArray
    attack_modifier: IntArray
    strength_modifier: BoolArray
    dice_count: IntArray
    dice_sides: IntArray
    dice_modifier: IntArray
    mean_impact: FloatArray
    limit: FloatArray

    def in_range(self, mode: IntArray, distance: FloatArray) -> BoolArray:
        """``sandbox.systems.combat.in_range`` per entry (a mode of -1 reaches nothing)."""
        out: BoolArray = distance <= self.limit[mode] + REACH_SLACK
        return out

    def roll_impacts(self, mode: IntArray, streams: FightStreams, fights: IntArray) -> IntArray:
        """One roll of each entry's impact dice, from the ``injury`` stream of each entry's fight.

        The dice are ``NdX+M``; a one-faced die counts 1. An entry's ``N`` dice are ``N`` consecutive draws of its
        fight's stream.
        """
        total = self.dice_modifier[mode].copy()
        count = self.dice_count[mode]
        sides = np.maximum(self.dice_sides[mode], 1)
        die = np.repeat(np.arange(mode.shape[0]), count)
        if die.size:
            faces = streams.integers("injury", fights[die], 1, sides[die] + 1)
            # Summed by a weighted count (exact for dice: far below 2**53), several times np.add.at's speed.
            total += np.bincount(die, weights=faces, minlength=mode.shape[0]).astype(np.int64)
        return total


def mode_tables(modes: Mapping[str, StrikeMode], skills: Mapping[str, int]) -> ModeTables:
    """Compile every strike mode (``skills``: skill id -> index)."""
    ordered = tuple(modes.values())
    return ModeTables(
        ordered, {m.id: i for i, m in enumerate(ordered)},
        np.asarray([_MODE_KINDS[m.kind] for m in ordered], dtype=np.int64),
        np.asarray([m.reach for m in ordered], dtype=np.float64),
        np.asarray([m.range for m in ordered], dtype=np.float64),
        np.asarray([skills.get(m.skill, -1) for m in ordered], dtype=np.int64),
        np.asarray([m.aspect for m in ordered], dtype=np.int64),
        np.asarray([m.spread for m in ordered], dtype=np.int64),
        np.asarray([m.attack_modifier for m in ordered], dtype=np.int64),
        np.asarray([m.strength_modifier for m in ordered], dtype=np.bool_),
        np.asarray([m.impact.count for m in ordered], dtype=np.int64),
        np.asarray([m.impact.sides for m in ordered], dtype=np.int64),
        np.asarray([m.impact.modifier for m in ordered], dtype=np.int64),
        np.asarray([mean_impact(m) for m in ordered], dtype=np.float64),
        np.asarray([m.reach if _MODE_KINDS[m.kind] == MELEE else m.range for m in ordered] + [-np.inf],
                   dtype=np.float64),
    )


@dataclass(frozen=True, slots=True)
class SkillTables:
    """Per skill (index ``s``).

    Attributes:
        ids: Skill ids, by index.
        index: Skill id -> index.
        roles: The role mask of the parts that impair it (0: none, or not impairable).
    """

    ids: tuple[str, ...]
    index: Mapping[str, int]
    roles: IntArray


def skill_tables(skills: Mapping[str, SkillDef], extra: Sequence[str] = ()) -> SkillTables:
    """Compile the skill definitions.

    ``extra`` names further ids creatures test, such as attributes with no definition (never impaired).
    """
    ids = tuple(dict.fromkeys([*skills, *extra]))
    roles = []
    for sid in ids:
        d = skills.get(sid)
        mask = sum(ROLE_BITS[r] for r in d.roles) if d is not None and d.impairable else 0
        roles.append(mask)
    return SkillTables(ids, {s: i for i, s in enumerate(ids)}, np.asarray(roles, dtype=np.int64))
