"""The array engine's damage-model interface and its registry (``sandbox.systems.damage_model`` is the esper one's).

An array model keeps its state as arrays beside the shared ``Creatures`` and answers the shared loop's questions
for every creature at once (what each part can do, how much it slows the walk, how hale it is); it resolves the
attack phase's attacks and runs the damage, effects and recovery phases; and it turns one creature back into the
per-event records (``Creature``, ``Readout``) for reading. Adding the array implementation of a model is a module
that subclasses ``ArrayModel`` and registers it (``sandbox.systems.models.anatomy.arrays.model`` registers ``anatomy``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from sandbox.components.impairment import Impairment
from sandbox.components.readout import Readout
from sandbox.systems.arrays.errors import EngineError
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import model_names

if TYPE_CHECKING:
    from sandbox.systems.arrays.attack import Attacks
    from sandbox.systems.arrays.engine import ArrayEngine

__all__ = ["ENGINES", "ArrayModel", "array_model_names", "engines_for", "get_array_model", "register_array_model"]

ENGINES: tuple[str, ...] = ("esper", "array")
"""The engines a world can run on: ``esper`` (per event, every registered damage model) and ``array``."""


class ArrayModel:
    """Base of every array damage model (subclass it and ``register_array_model`` the subclass).

    Args:
        engine: The world whose creatures it keeps state for (``engine.creatures`` is built).
    """

    name: ClassVar[str] = ""

    def __init__(self, engine: ArrayEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ the shared loop's questions

    def part_penalty(self) -> IntArray:
        """``[i, p]`` each part's test penalty (<= 0)."""
        raise NotImplementedError

    def part_unusable(self) -> BoolArray:
        """``[i, p]`` whether each part is out of action."""
        raise NotImplementedError

    def unusable_mask(self) -> IntArray:
        """Per creature, its unusable parts as a mask."""
        raise NotImplementedError

    def part_states(self, i: int) -> tuple[Impairment, ...]:
        """Creature ``i``'s part states as the per-event rules read them (``DamageModel.part_states``)."""
        raise NotImplementedError

    def walks(self) -> BoolArray:
        """Per creature, it can stand and walk (a usable Locomotor part, or none at all)."""
        raise NotImplementedError

    def speed_factor(self, idx: IntArray) -> FloatArray:
        """The model's own slowing of each creature's walk (1.0: none)."""
        raise NotImplementedError

    def health(self) -> IntArray:
        """Per creature, how hale it is (what the ``weakest`` policy compares)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the tick

    def attack(self, attacks: Attacks) -> None:
        """Resolve the attack phase's attacks and apply what they do at once.

        They go in initiative order, a creature felled earlier acting no more.
        """
        raise NotImplementedError

    def keep(self, rows: IntArray, moved_to: IntArray) -> None:
        """Keep creatures ``rows`` only, in that order (``moved_to[i]``: where creature ``i`` goes, -1: gone).

        The world drops fights that ended (``ArrayEngine.keep_fights``), between ticks.
        """
        raise NotImplementedError

    def settle(self) -> None:
        """DAMAGE phase: what this tick's wounds did to impairment and health."""

    def effects(self) -> None:
        """EFFECTS phase: wounds over time (bleeding)."""

    def recovery(self) -> None:
        """RECOVERY phase: re-tests that fall due."""

    def end_tick(self) -> None:
        """CLEANUP phase: clear per-tick working state."""

    # ------------------------------------------------------------------ reading

    def record(self, i: int) -> Creature:
        """Creature ``i`` as a per-event ``Creature`` record (fresh components, for reading)."""
        raise NotImplementedError

    def readout(self, i: int, record: Creature | None = None) -> Readout:
        """What creature ``i``'s state reads as (``DamageModel.readout``).

        ``record``: its ``record(i)``, when the caller has it already.
        """
        raise NotImplementedError

    def standing(self, i: int) -> tuple[bool, bool, str]:
        """Creature ``i``'s ``readout`` in brief: (alive, can act, label), as its readout gives them.

        A model can read them straight from its arrays (the lab asks for them at the end of every fight); this one
        builds the whole readout.
        """
        reading = self.readout(i)
        return reading.alive, reading.can_act, reading.label

    def standings(self, rows: IntArray) -> tuple[BoolArray, BoolArray, list[str]]:
        """``standing`` of each creature of ``rows``, as columns.

        Alive, can act, label (a model can read them all at once; this one asks ``standing`` of each).
        """
        brief = [self.standing(i) for i in rows.tolist()]
        return (np.asarray([b[0] for b in brief], dtype=np.bool_), np.asarray([b[1] for b in brief], dtype=np.bool_),
                [b[2] for b in brief])


_REGISTRY: dict[str, type[ArrayModel]] = {}


def register_array_model(cls: type[ArrayModel]) -> type[ArrayModel]:
    """Register an array model under its ``name`` (a class decorator)."""
    if not cls.name:
        raise ValueError("an array model needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def array_model_names() -> tuple[str, ...]:
    """The damage models the array engine runs (``sandbox.systems.arrays`` registers the shipped ones on import)."""
    return tuple(_REGISTRY)


def engines_for(model: str) -> tuple[str, ...]:
    """The engines that run ``model``."""
    return tuple(e for e in ENGINES if (e == "esper" and model in model_names())
                 or (e == "array" and model in array_model_names()))


def get_array_model(name: str) -> type[ArrayModel]:
    """The array model called ``name``.

    Raises:
        EngineError: The array engine does not run it; the message names the models it runs and the engines
            that run ``name``.
    """
    runs = array_model_names()
    if name not in _REGISTRY:
        others = [e for e in engines_for(name) if e != "array"]
        where = (f"the {name!r} model runs on the {' and '.join(others)} engine" if others
                 else f"no engine runs a model called {name!r}")
        raise EngineError(f"the array engine does not run the {name!r} damage model (it runs: {', '.join(runs)}); "
                          f"{where}")
    return _REGISTRY[name]
