"""The damage-model interface and its registry.

A model decides what a landed attack does and what state that leaves. It declares:

- the components it adds to a spawned creature (its own state, from the creature's config block);
- its attack procedure (whether a strike lands and what it does), applied at once;
- direct damage (``inflict``) for set-up and tests;
- its periodic processors (bleeding, recovery ...), by phase;
- the ``Readout`` of a creature's state;
- optionally, what happens out of combat when time jumps (``advance``).

The shared components (position, equipment, conditions) and the skirmish loop (intent, movement, the attack
phase's turn order) are the same for every model. A model marks a creature taken out of the fight with
``Condition.out`` and a dead one with ``Condition.dead`` (``systems.damage.kill``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import esper

from components.creature import CreatureDef
from components.gear import ArmorPiece, StrikeMode
from components.readout import Readout
from systems.context import TickContext
from systems.creatures import Parts
from systems.phases import Phase


class DamageModel:
    """Base of every damage model (subclass it and ``register`` the subclass).

    Attributes:
        name: The model's name (``anatomy``, ``severity`` ...).
        tables: The model's rule tables (from ``configs/models/<name>.toml``), or ``None``.
    """

    name: ClassVar[str] = ""

    def __init__(self, tables: Any = None) -> None:
        self.tables = tables

    def state_types(self) -> tuple[type, ...]:
        """The component types this model adds to every creature (saved and restored with the world)."""
        return ()

    def spawn_state(self, kind: CreatureDef, attributes: Mapping[str, int], armor: Sequence[ArmorPiece]
                    ) -> tuple[object, ...]:
        """The model's own components for a new creature of ``kind`` (``attributes`` override its config)."""
        return ()

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The model's processors besides the shared loop, with their phases."""
        return []

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """Resolve one attack and apply what it does at once; append a record to ``ctx.log``; return it."""
        raise NotImplementedError

    def disabled_parts(self, entity: int) -> frozenset[int]:
        """Parts the model's own state puts out of use (depth's broken limbs): the shared intent AI wields no
        strike mode with them, so the creature switches to what it can still use. Called inside the world.

        The default is none: the anatomy model's impairment lives in ``Wounds.impairments``, which the shared loop
        reads itself.
        """
        return frozenset()

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """Apply damage directly (scenario set-up and tests), as the model applies a landed blow."""
        raise NotImplementedError

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """What the creature's state reads as."""
        raise NotImplementedError

    def advance(self, ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any) -> None:
        """Move game time on by ``seconds`` out of combat (rest, first aid, healing, as the model has them).

        The default only moves the clock. ``care`` is the world's care policy
        (``sandbox.scenario_def.CarePolicy``: ``healers``, ``self_care``, ``first_aid_delay``).
        """
        ctx.clock.seconds += seconds


_REGISTRY: dict[str, type[DamageModel]] = {}


def register(cls: type[DamageModel]) -> type[DamageModel]:
    """Register a model class under its ``name`` (usable as a class decorator)."""
    if not cls.name:
        raise ValueError("a damage model needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove a model from the registry (an embedding game's or a test's own model)."""
    _REGISTRY.pop(name, None)


def model_names() -> tuple[str, ...]:
    """Every registered model's name, in registration order."""
    return tuple(_REGISTRY)


def get_model(name: str) -> type[DamageModel]:
    """The model class called ``name``; raises ``KeyError`` naming the known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown damage model {name!r}; known: {', '.join(_REGISTRY)}") from None
