"""The anatomy model's array implementation, registered with the array engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sandbox.components.impairment import Impairment
from sandbox.components.readout import Readout
from sandbox.components.rules import AnatomyRules, ShockState
from sandbox.systems.arrays.attack import Attacks
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.models import ArrayModel, register_array_model
from sandbox.systems.arrays.spawn import per_object
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray
from sandbox.systems.creatures import Creature
from sandbox.systems.models.anatomy.arrays import attack_phase, over_time, settle
from sandbox.systems.models.anatomy.arrays.records import creature_record, impairments
from sandbox.systems.models.anatomy.arrays.state import AnatomyArrays
from sandbox.systems.models.anatomy.model import AnatomyModel, state_label
from sandbox.systems.models.anatomy.vector_blows import BlowRules

if TYPE_CHECKING:
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["AnatomyArrayModel"]

_SKILLS = ("shock", "strength", "dexterity", "legerdemain", "agility", "acrobatics")
"""The skills the anatomy rules test besides attack and defence."""


@compiled
def _part_masks(parts: BoolArray, out: IntArray) -> None:
    """Per row, the mask of its true parts."""
    for i in range(parts.shape[0]):
        mask = 0
        for p in range(parts.shape[1]):
            if parts[i, p]:
                mask |= 1 << p
        out[i] = mask


@compiled
def _walking(body: IntArray, locomotor: BoolArray, has_locomotor: BoolArray, unusable: BoolArray,
             out: BoolArray) -> None:
    """Per creature, a usable Locomotor part, or a body with none."""
    for i in range(body.shape[0]):
        b = body[i]
        walks = not has_locomotor[b]
        for p in range(unusable.shape[1]):
            if walks:
                break
            walks = locomotor[b, p] and not unusable[i, p]
        out[i] = walks


@register_array_model
class AnatomyArrayModel(ArrayModel):
    """Document 000 over arrays (``sandbox.systems.models.anatomy.arrays``).

    The per-event ``AnatomyModel`` reads its creatures.
    """

    name = "anatomy"

    def __init__(self, engine: ArrayEngine) -> None:
        super().__init__(engine)
        per_event = engine.per_event_model
        assert isinstance(per_event, AnatomyModel)
        self.per_event: AnatomyModel = per_event
        self.rules: AnatomyRules = per_event.rules
        self.blow_rules = BlowRules.of(self.rules)
        index = engine.skills.index
        self.skill = {s: index.get(s, -1) for s in _SKILLS} | {"defence": index.get(engine.combat.defence_skill, -1)}
        health = per_object(engine.builds, lambda b: b.state[0].health)  # type: ignore[attr-defined]
        self.state = AnatomyArrays.spawn(engine.creatures.body, health, engine.bodies)
        self.ceilings = settle.ceiling_table(self, engine.bodies.parts)
        bands = self.rules.health_bands
        self._band_floors = np.asarray([least for _, least in bands], dtype=np.int64)
        shocks = [ShockState(v) for v in range(max(ShockState) + 1)]  # indexed by value
        self._shock_states = len(shocks)
        self._labels = np.asarray([state_label(False, name, s) for name, _ in bands for s in shocks] + ["dead"],
                                  dtype=object)
        """Every (health band, shock state) label, band-major, then "dead" (what ``standings`` picks from)."""

    # ------------------------------------------------------------------ the loop's questions

    def part_penalty(self) -> IntArray:
        """Each part's penalty."""
        return self.state.penalty

    def part_unusable(self) -> BoolArray:
        """Each part out of action."""
        return self.state.unusable

    def unusable_mask(self) -> IntArray:
        """Unusable parts as a mask per creature."""
        mask = np.zeros(self.state.unusable.shape[0], dtype=np.int64)
        _part_masks(self.state.unusable, mask)
        return mask

    def part_states(self, i: int) -> tuple[Impairment, ...]:
        """Creature ``i``'s impairments."""
        return impairments(self, i)

    def walks(self) -> BoolArray:
        """``sandbox.systems.ai.can_walk``: a usable Locomotor part, or a body with none."""
        bodies = self.engine.bodies
        out = np.zeros(self.state.unusable.shape[0], dtype=np.bool_)
        _walking(self.engine.creatures.body, bodies.part_locomotor, bodies.has_locomotor, self.state.unusable, out)
        return out

    def speed_factor(self, idx: IntArray) -> FloatArray:
        """Stunned: the stunned factor (movement is Difficult)."""
        return np.where(self.state.shock[idx] == int(ShockState.STUNNED), self.engine.combat.stunned_speed_factor,
                        1.0)

    def health(self) -> IntArray:
        """Health percent."""
        return self.state.health

    # ------------------------------------------------------------------ the tick

    def attack(self, attacks: Attacks) -> None:
        """Opposed d100 tests and the landed blows, one attack at a time in initiative order (``attack_phase``)."""
        attack_phase.resolve(self, attacks)

    def keep(self, rows: IntArray, moved_to: IntArray) -> None:
        """Keep creatures ``rows`` only, with their wounds."""
        self.state.keep(rows, moved_to)

    def settle(self) -> None:
        """Impairment and health of the wounded."""
        settle.settle(self)

    def effects(self) -> None:
        """Bleeding."""
        over_time.bleed(self)

    def recovery(self) -> None:
        """Shock re-tests."""
        over_time.retest(self)

    # ------------------------------------------------------------------ reading

    def record(self, i: int) -> Creature:
        """Creature ``i`` as per-event records."""
        return creature_record(self, i)

    def readout(self, i: int, record: Creature | None = None) -> Readout:
        """The anatomy model's own readout of creature ``i`` (of ``record``, its record now, when given)."""
        return self.per_event.readout(record or self.record(i), self.engine.reading)

    def standing(self, i: int) -> tuple[bool, bool, str]:
        """(alive, can act, label) as ``readout`` gives them, read from the arrays (no records built)."""
        alive, can_act, labels = self.standings(np.asarray([i], dtype=np.int64))
        return bool(alive[0]), bool(can_act[0]), labels[0]

    def standings(self, rows: IntArray) -> tuple[BoolArray, BoolArray, list[str]]:
        """``standing`` of each creature of ``rows`` at once.

        Its health band and shock state pick its label from the table of every (band, shock state) label.
        """
        cr = self.engine.creatures
        dead = cr.dead[rows]
        floors, labels = self._band_floors, self._labels
        reaches = self.state.health[rows][:, None] >= floors
        band_of = np.where(reaches.any(axis=1), reaches.argmax(axis=1), len(floors) - 1)  # ``band``: the first reached
        code = np.where(dead, len(labels) - 1, band_of * self._shock_states + self.state.shock[rows])
        return ~dead, ~dead & ~cr.out[rows], labels[code].tolist()
