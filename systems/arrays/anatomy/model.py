"""The anatomy model's array implementation, registered with the array engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.impairment import Impairment
from components.readout import Readout
from components.rules import AnatomyRules, ShockState
from systems.arrays.anatomy import attack_phase, over_time, settle
from systems.arrays.anatomy.records import creature_record, impairments
from systems.arrays.anatomy.state import AnatomyArrays
from systems.arrays.attack import Attacks
from systems.arrays.models import ArrayModel, register_array_model
from systems.arrays.state import NO_ML
from systems.arrays.tables import BoolArray, FloatArray, IntArray
from systems.creatures import Creature
from systems.health import band
from systems.models.anatomy import AnatomyModel, state_label

if TYPE_CHECKING:
    from systems.arrays.engine import ArrayEngine

SKILLS = ("shock", "strength", "dexterity", "legerdemain", "agility", "acrobatics")
"""The skills the anatomy rules test besides attack and defence."""


@register_array_model
class AnatomyArrayModel(ArrayModel):
    """Document 000 over arrays (``systems.arrays.anatomy``); the per-event ``AnatomyModel`` reads its creatures."""

    name = "anatomy"

    def __init__(self, engine: ArrayEngine) -> None:
        super().__init__(engine)
        per_event = engine.per_event_model
        assert isinstance(per_event, AnatomyModel)
        self.per_event: AnatomyModel = per_event
        self.rules: AnatomyRules = per_event.rules
        index = engine.skills.index
        self.skill = {s: index.get(s, -1) for s in SKILLS} | {"defence": index.get(engine.combat.defence_skill, -1)}
        health = np.asarray([b.state[0].health for b in engine.builds], dtype=np.int64)  # type: ignore[attr-defined]
        self.state = AnatomyArrays.spawn(engine.creatures.body, health, engine.bodies)
        self.ceilings = settle.ceiling_table(self, engine.bodies.parts)
        self._bits = (1 << np.arange(engine.bodies.parts, dtype=np.int64))

    # ------------------------------------------------------------------ the loop's questions

    def part_penalty(self) -> IntArray:
        """Each part's penalty."""
        return self.state.penalty

    def part_unusable(self) -> BoolArray:
        """Each part out of action."""
        return self.state.unusable

    def unusable_mask(self) -> IntArray:
        """Unusable parts as a mask per creature."""
        mask: IntArray = (self.state.unusable * self._bits).sum(axis=1)
        return mask

    def part_states(self, i: int) -> tuple[Impairment, ...]:
        """Creature ``i``'s impairments."""
        return impairments(self, i)

    def walks(self) -> BoolArray:
        """``systems.ai.can_walk``: a usable Locomotor part, or a body with none."""
        bodies = self.engine.bodies
        body = self.engine.creatures.body
        usable = bodies.part_locomotor[body] & ~self.state.unusable
        return ~bodies.has_locomotor[body] | usable.any(axis=1)

    def speed_factor(self, idx: IntArray) -> FloatArray:
        """Stunned: the stunned factor (movement is Difficult)."""
        return np.where(self.state.shock[idx] == int(ShockState.STUNNED), self.engine.combat.stunned_speed_factor,
                        1.0)

    def health(self) -> IntArray:
        """Health percent."""
        return self.state.health

    def attack_ml(self, attacks: Attacks) -> IntArray:
        """``anatomy_attack.attack_ml`` per attack: skill + the mode's modifier + the worst impairment of the parts
        wielding it - fatigue (``NO_ML``: no such skill)."""
        engine = self.engine
        cr, modes = engine.creatures, engine.modes
        skill = modes.skill[attacks.mode]
        base = np.where(skill >= 0, cr.mls[attacks.attacker, np.maximum(skill, 0)], NO_ML)
        wielding = ((attacks.parts[:, None] >> np.arange(engine.bodies.parts)) & 1).astype(np.bool_)
        penalty = np.where(wielding, self.state.penalty[attacks.attacker], 0).min(axis=1, initial=0)
        ml = base + modes.attack_modifier[attacks.mode] + penalty - self.state.fatigue[attacks.attacker]
        return np.where(base <= NO_ML // 2, NO_ML, ml)

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
        cr = self.engine.creatures
        dead = bool(cr.dead[i])
        label = state_label(dead, band(int(self.state.health[i]), self.rules), ShockState(int(self.state.shock[i])))
        return not dead, not dead and not bool(cr.out[i]), label
