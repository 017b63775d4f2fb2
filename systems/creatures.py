"""The creature record every processor passes around, and the roster that keeps one per creature.

A creature is an esper entity with the shared components (``SHARED``) and its damage model's own state. The
``Roster`` reads them once and keeps a ``Creature`` record per entity, rebuilt only when the world's entities
change (esper hands back the same cached query list until then), so a tick never re-queries or re-packs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

import esper

from sandbox.components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position
from sandbox.systems.worlds import in_world

if TYPE_CHECKING:
    from sandbox.systems.damage_model import DamageModel

__all__ = ["SHARED", "Creature", "Roster", "able", "alive", "can_act"]

SHARED: tuple[type, ...] = (Identity, Anatomy, Armor, Condition, Combatant, Position, Equipment)
"""The components every creature has, whatever its damage model."""


class Creature(NamedTuple):
    """One creature of a world: its entity, its shared components and its damage model's state.

    Attributes:
        entity: The esper entity.
        identity: Who it is.
        anatomy: Its body, kind, Mastery Levels and attributes.
        armor: What it wears.
        condition: Dead, prone, held fast, taken out (kept by its model) ...
        combatant: Its team, policies and this tick's intent.
        position: Where it stands.
        equipment: What it carries, holds and has dropped.
        state: The damage model's own state (``DamageModel.bind``: the anatomy model's ``AnatomyState``,
            severity's ``SeverityState`` ...); read it through the model's accessor.
    """

    entity: int
    identity: Identity
    anatomy: Anatomy
    armor: Armor
    condition: Condition
    combatant: Combatant
    position: Position
    equipment: Equipment
    state: object

    @property
    def name(self) -> str:
        """The creature's name."""
        return self.identity.name

    @property
    def team(self) -> str:
        """The creature's team."""
        return self.combatant.team


def alive(cond: Condition) -> bool:
    """Not dead."""
    return not cond.dead


def can_act(cond: Condition) -> bool:
    """Alive and not taken out of the fight by its damage model.

    Taken out means ``Condition.out``, which every model keeps current: the anatomy model sets it from Incapacitated on;
    a stunned creature still acts.
    """
    return not cond.dead and not cond.out


def able(creature: Creature) -> bool:
    """The creature can act (``can_act`` of its condition)."""
    cond = creature.condition
    return not cond.dead and not cond.out


class Roster:
    """Every creature of one esper world under one damage model, as ``Creature`` records.

    Args:
        model: The world's damage model (it names its state components and binds them into the record).
        world: The esper world's name: reads switch to it when another world is current. ``""``: whatever world is
            current at each call (a context a game builds by hand).
    """

    def __init__(self, model: DamageModel, world: str = "") -> None:
        self.model = model
        self.world = world
        self._types: tuple[type, ...] = SHARED + tuple(model.state_types())
        self._rows: object = None
        self._creatures: dict[int, Creature] = {}

    def creatures(self) -> dict[int, Creature]:
        """Entity -> record, in ascending entity order.

        Read the records' components; do not add or remove entries. Rebuilt only when the world's entities or components
        changed.
        """
        world = self.world
        if world and esper.current_world != world:  # a read between ticks, with the game's other world current
            with in_world(world):
                return self._read()
        return self._read()

    def _read(self) -> dict[int, Creature]:
        # esper types its query by the component types named; ours are a run-time tuple.
        rows = cast("list[tuple[int, Sequence[object]]]", esper.get_components(*self._types))
        if rows is not self._rows:
            bind = self.model.bind
            built: list[tuple[int, Creature]] = []
            for entity, c in rows:
                built.append((entity, Creature(entity, c[0], c[1], c[2], c[3], c[4], c[5], c[6],  # type: ignore[arg-type]
                                               bind(c[7:]))))
            built.sort(key=lambda pair: pair[0])
            self._creatures = dict(built)
            self._rows = rows
        return self._creatures

    def get(self, entity: int) -> Creature | None:
        """The record of ``entity``, or ``None`` when it is no creature of this world."""
        return self.creatures().get(entity)
