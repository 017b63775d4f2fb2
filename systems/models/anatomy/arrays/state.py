"""The anatomy model's arrays.

Per creature its shock, blood loss, fatigue and health, per part its impairment, per location what is severed and the
levels of its open wounds; and every wound in one growing table.

Impairment in a fight only ever worsens (no wound heals mid-fight), so the damage phase folds each new or
worsened wound into its part's impairment instead of recomputing it from every wound.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sandbox.components.body import ROLES
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.state import NO_ML, renumbered
from sandbox.systems.arrays.tables import BodyTables, BoolArray, FloatArray, IntArray, SkillTables

__all__ = ["UNUSABLE_PENALTY", "AnatomyArrays", "Wounds"]

UNUSABLE_PENALTY = NO_ML
"""The role penalty of a role one of whose parts is unusable (a test naming it critically fails)."""


@dataclass(slots=True)
class Wounds:
    """Every wound of the world, in the order received (the per-creature order ``Injury.wounds`` keeps).

    Attributes:
        count: How many wounds there are (the arrays have room for more).
        owner: The wounded creature.
        location: Location index on its body.
        part: Its part.
        level: Injury level (worsened in place by compounding).
        aspect: Damage aspect.
        bleeder: It bleeds.
        received: Game time it was received.
        next_bleed: When its next Blood Loss Advance test is due (-1: not bleeding).
        compounded: How many later wounds worsened it.
    """

    count: int = 0
    owner: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))
    location: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))
    part: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))
    level: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))
    aspect: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))
    bleeder: BoolArray = field(default_factory=lambda: np.zeros(1024, dtype=np.bool_))
    received: FloatArray = field(default_factory=lambda: np.zeros(1024, dtype=np.float64))
    next_bleed: FloatArray = field(default_factory=lambda: np.zeros(1024, dtype=np.float64))
    compounded: IntArray = field(default_factory=lambda: np.zeros(1024, dtype=np.int64))

    _FIELDS = ("owner", "location", "part", "level", "aspect", "bleeder", "received", "next_bleed", "compounded")

    def reserve(self, more: int) -> None:
        """Make room for ``more`` wounds past ``count`` (the attack phase's walk writes them in place)."""
        need = self.count + more
        if need > self.owner.shape[0]:
            size = max(need, 2 * self.owner.shape[0])
            for name in self._FIELDS:
                old = getattr(self, name)
                grown = np.zeros(size, dtype=old.dtype)
                grown[:self.count] = old[:self.count]
                setattr(self, name, grown)

    def keep(self, moved_to: IntArray) -> IntArray:
        """Keep the wounds of the creatures kept, in order, their owners renumbered.

        ``moved_to[i]`` is where creature ``i`` goes (-1: gone). Returns where each wound went (-1: gone).
        """
        owner = self.owner[:self.count]
        kept = np.flatnonzero(moved_to[owner] >= 0)
        went = np.full(self.count, -1, dtype=np.int64)
        went[kept] = np.arange(kept.size)
        for name in self._FIELDS:
            old = getattr(self, name)
            fresh = np.zeros(max(kept.size, 1024), dtype=old.dtype)
            fresh[:kept.size] = old[kept]
            setattr(self, name, fresh)
        self.owner[:kept.size] = moved_to[self.owner[:kept.size]]
        self.count = int(kept.size)
        return went


@dataclass(slots=True)
class AnatomyArrays:
    """The anatomy model's state for ``n`` creatures (``P`` parts, ``L`` locations wide).

    Attributes:
        shock: ``ShockState`` code.
        since: Tick the shock state began.
        retest_at: Game time of the next Shock re-test (-1: none due).
        extended_hr: Extended Shock's Healing Rate (-1: none).
        coma_hr: A Coma's Healing Rate (-1: none).
        cause_location: Location of the wound that opened the current shock (-1: none).
        cause_level: Its level.
        blood_loss: Blood Loss Points.
        fatigue: Fatigue (anemia): a penalty on every test.
        health: Health percent.
        penalty: ``[i, p]`` part penalty.
        unusable: ``[i, p]`` part out of action.
        lost: ``[i, p]`` part gone for good (a severed location).
        severed: ``[i, l]`` location severed.
        totals: ``[i, l]`` sum of the open wounds' levels at each location (a last column of zeros for misses).
        worst: ``[i, l]`` the worst wound there (-1: none).
        role_penalty: ``[i, r]`` worst penalty of the parts holding role ``r`` (``UNUSABLE_PENALTY``: one is
            unusable).
        wounds: Every wound.
        touched: Wounds added or worsened this tick (the damage phase settles them).
        dirty: Creatures wounded this tick.
    """

    shock: IntArray
    since: IntArray
    retest_at: FloatArray
    extended_hr: IntArray
    coma_hr: IntArray
    cause_location: IntArray
    cause_level: IntArray
    blood_loss: IntArray
    fatigue: IntArray
    health: IntArray
    penalty: IntArray
    unusable: BoolArray
    lost: BoolArray
    severed: BoolArray
    totals: IntArray
    worst: IntArray
    role_penalty: IntArray
    wounds: Wounds = field(default_factory=Wounds)
    touched: list[IntArray] = field(default_factory=list)
    dirty: BoolArray = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))

    @classmethod
    def spawn(cls, body: IntArray, health: IntArray, bodies: BodyTables) -> AnatomyArrays:
        """Unhurt creatures (each body's permanent impairments already on its parts; ``health`` as spawned)."""
        n = body.shape[0]
        P, L = bodies.parts, bodies.locations
        penalty = bodies.part_permanent[body].copy()
        unusable = bodies.part_gone[body].copy()
        state = cls(
            shock=np.zeros(n, dtype=np.int64), since=np.zeros(n, dtype=np.int64),
            retest_at=np.full(n, -1.0), extended_hr=np.full(n, -1, dtype=np.int64),
            coma_hr=np.full(n, -1, dtype=np.int64), cause_location=np.full(n, -1, dtype=np.int64),
            cause_level=np.zeros(n, dtype=np.int64), blood_loss=np.zeros(n, dtype=np.int64),
            fatigue=np.zeros(n, dtype=np.int64), health=health.astype(np.int64), penalty=penalty,
            unusable=unusable, lost=np.zeros((n, P), dtype=np.bool_), severed=np.zeros((n, L), dtype=np.bool_),
            totals=np.zeros((n, L + 1), dtype=np.int64), worst=np.full((n, L), -1, dtype=np.int64),
            role_penalty=np.zeros((n, len(ROLES)), dtype=np.int64), dirty=np.zeros(n, dtype=np.bool_))
        state.refresh_roles(np.arange(n), body, bodies)
        return state

    ROWS = ("shock", "since", "retest_at", "extended_hr", "coma_hr", "cause_location", "cause_level", "blood_loss",
            "fatigue", "health", "penalty", "unusable", "lost", "severed", "totals", "role_penalty", "dirty")
    """The per-creature arrays that keeping some creatures only selects (``worst`` names wounds: renumbered)."""

    def keep(self, rows: IntArray, moved_to: IntArray) -> None:
        """Keep creatures ``rows`` only (see ``Creatures.keep``), with their wounds."""
        assert not self.touched, "creatures are kept between ticks, when no wound waits to be settled"
        for name in self.ROWS:
            setattr(self, name, getattr(self, name)[rows])
        went = self.wounds.keep(moved_to)
        self.worst = renumbered(self.worst[rows], went)

    def refresh_roles(self, idx: IntArray, body: IntArray, bodies: BodyTables) -> None:
        """Recompute the role penalties of creatures ``idx`` from their parts (``impairment.test_penalty``)."""
        _role_penalties(idx, body, bodies.part_roles, self.penalty, self.unusable, self.role_penalty)

    def effective_ml(self, idx: IntArray | None, skill: int, mls: IntArray, skills: SkillTables, modifier: int = 0
                     ) -> IntArray:
        """``sandbox.systems.models.anatomy.mastery.effective_ml`` per creature of ``idx``.

        An ``idx`` of ``None`` is every creature, in order. The ML is base - fatigue + the worst penalty of the roles
        the skill names (``NO_ML``: no such skill, or one of those roles has an unusable part).
        """
        rows = np.arange(self.fatigue.shape[0]) if idx is None else idx
        out = np.full(rows.shape[0], NO_ML, dtype=np.int64)
        if skill >= 0:
            _effective_mls(rows, skill, int(skills.roles[skill]), modifier, mls, self.fatigue, self.role_penalty, out)
        return out


@compiled
def _role_penalties(idx: IntArray, body: IntArray, part_roles: IntArray, penalty: IntArray, unusable: BoolArray,
                    out: IntArray) -> None:
    """Per creature ``idx[r]`` and role.

    The worst penalty of the parts holding it (``UNUSABLE_PENALTY`` when one is unusable).
    """
    for r in range(idx.shape[0]):
        i = idx[r]
        b = body[i]
        for role in range(out.shape[1]):
            bit = 1 << role  # ROLE_BITS: role k is bit k
            worst = 0
            gone = False
            for p in range(penalty.shape[1]):
                if part_roles[b, p] & bit:
                    worst = min(worst, penalty[i, p])
                    gone = gone or unusable[i, p]
            out[i, role] = UNUSABLE_PENALTY if gone else worst


@compiled
def _effective_mls(rows: IntArray, skill: int, roles: int, modifier: int, mls: IntArray, fatigue: IntArray,
                   role_penalty: IntArray, out: IntArray) -> None:
    """``AnatomyArrays.effective_ml`` per creature ``rows[k]`` (``roles``: the skill's role bits, role ``r`` bit ``r``).

    ``out`` holds ``NO_ML`` where the skill is missing or a role's part is unusable.
    """
    for k in range(rows.shape[0]):
        i = rows[k]
        base = mls[i, skill]
        penalty = 0
        for r in range(role_penalty.shape[1]):
            if roles >> r & 1:
                penalty = min(penalty, role_penalty[i, r])
        if base > NO_ML // 2 and penalty > NO_ML // 2:
            out[k] = base - fatigue[i] + modifier + penalty
