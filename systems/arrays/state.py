"""The creatures of an array world as a struct of arrays.

One entry per creature, in spawn order (the entity of creature ``i`` is ``i + 1``, as esper numbers them).

What every model shares lives here (where a creature stands, whom it fights and with what, what it holds, its
conditions); a damage model keeps its own arrays beside these (``sandbox.systems.models.anatomy.arrays.state``). A fight
index per creature keeps independent fights apart in one world: targets are only ever chosen within a fight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TypeVar

import numpy as np

from sandbox.components.state import Anatomy
from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import BoolArray, FloatArray, IntArray

__all__ = ["ACTIONS", "AIM_POLICIES_CODES", "APPROACH", "ATTACK", "DEAD", "DOWN", "DRAW", "NAMED_AIM", "NEAREST",
           "NO_ML", "PICK_UP", "POLICIES", "RANDOM", "RANDOM_AIM", "STAND", "STAND_UP", "UNAIMED", "WEAKEST",
           "Creatures", "picked", "renumbered"]

_T = TypeVar("_T")

NO_ML = -(1 << 30)
"""A Mastery Level the creature does not have (a test it cannot make: a critical failure without a roll)."""

STAND, ATTACK, APPROACH, STAND_UP, PICK_UP, DRAW, DOWN, DEAD = range(8)
"""Action codes (``Combatant.action``)."""
ACTIONS: tuple[str, ...] = ("stand", "attack", "approach", "stand up", "pick up", "draw", "down", "dead")
"""Each action code's name."""
NEAREST, WEAKEST, RANDOM = range(3)
"""Target policy codes."""
POLICIES: tuple[str, ...] = ("nearest", "weakest", "random")
UNAIMED, RANDOM_AIM, NAMED_AIM = range(3)
"""Aim policy codes (a part or location name is ``NAMED_AIM``)."""
AIM_POLICIES_CODES: dict[str, int] = {"unaimed": UNAIMED, "random": RANDOM_AIM}


@dataclass(slots=True)
class Creatures:
    """Every creature's shared state (``n`` entries each; ``P`` parts wide where per part).

    Attributes:
        names: Creature names.
        kinds: Creature config ids.
        anatomy: Per creature, its ``Anatomy`` (shared by every creature spawned from the same recruit).
        anatomy_code: Per creature, a number per distinct ``Anatomy`` (what the memos of rearming and strike
            options are keyed by).
        gear: Per creature, its gear state: what it carries, holds, dropped and lost (``sandbox.systems.arrays.gear``;
            changed only when a hand lets go or takes up: rare; ``held``, ``hold_mask``, ``holding`` and ``armed``
            mirror the state's tables for the vector phases).
        fight: The independent fight it belongs to.
        team: Team index (unique across fights).
        team_names: Team index -> name.
        body: Body index (``BodyTables``).
        target_kind: Index of its (body, armour) compiled target (``TargetTables``).
        x: Position.
        y: Position.
        initiative: Turn order (higher first).
        order: Creature indices in initiative order (ties by entity).
        rank: Each creature's place in ``order``.
        speed: Walking speed in metres per tick, before impairment.
        mls: ``[i, s]`` Mastery Level of skill ``s`` (``NO_ML``: none).
        strength: STR score for the Strength Impact Modifier (``NO_ML``: none).
        policy: Target policy code.
        aim: Aim policy code.
        aim_name: The part or location name a ``NAMED_AIM`` names (index into ``aim_names``), else -1.
        aim_names: The aim names used.
        held: Weapon index of what it holds (-1: nothing).
        hold_mask: Part mask of the parts holding it.
        holding: ``[i, p]`` weapon index of what part ``p`` holds (-1: nothing).
        armed: It has some way to strike (a natural weapon or a weapon not lost): ``status.can_fight``.
        dead: Dead.
        out: Out of the fight (its model says).
        prone: Lying down.
        reeling: Took a shock result, fell or died this tick: acts no more this tick.
        causes: Per creature, what killed it ("" alive).
        target: The creature it fights (-1: none).
        mode: Its strike mode's index (-1: none).
        aim_zone: Its aim's target zone number this tick (0: unaimed).
        action: This tick's action code.
        walks: It has a usable Locomotor part, or none at all (can stand and walk).
    """

    names: list[str]
    kinds: list[str]
    anatomy: list[Anatomy]
    anatomy_code: IntArray
    gear: IntArray
    fight: IntArray
    team: IntArray
    team_names: list[str]
    body: IntArray
    target_kind: IntArray
    x: FloatArray
    y: FloatArray
    initiative: IntArray
    order: IntArray
    rank: IntArray
    speed: FloatArray
    mls: IntArray
    strength: IntArray
    policy: IntArray
    aim: IntArray
    aim_name: IntArray
    aim_names: list[str]
    held: IntArray
    hold_mask: IntArray
    holding: IntArray
    armed: BoolArray
    dead: BoolArray = field(init=False)
    out: BoolArray = field(init=False)
    prone: BoolArray = field(init=False)
    reeling: BoolArray = field(init=False)
    causes: list[str] = field(init=False)
    target: IntArray = field(init=False)
    mode: IntArray = field(init=False)
    aim_zone: IntArray = field(init=False)
    action: IntArray = field(init=False)
    walks: BoolArray = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        self.dead = np.zeros(n, dtype=np.bool_)
        self.out = np.zeros(n, dtype=np.bool_)
        self.prone = np.zeros(n, dtype=np.bool_)
        self.reeling = np.zeros(n, dtype=np.bool_)
        self.causes = [""] * n
        self.target = np.full(n, -1, dtype=np.int64)
        self.mode = np.full(n, -1, dtype=np.int64)
        self.aim_zone = np.zeros(n, dtype=np.int64)
        self.action = np.zeros(n, dtype=np.int64)
        self.walks = np.ones(n, dtype=np.bool_)

    def __len__(self) -> int:
        return len(self.names)

    ROWS = ("team", "body", "target_kind", "x", "y", "initiative", "speed", "mls", "strength", "policy", "aim",
            "aim_name", "held", "hold_mask", "holding", "armed", "dead", "out", "prone", "reeling", "mode", "aim_zone",
            "action", "walks", "names", "kinds", "anatomy", "anatomy_code", "gear", "causes")
    """The fields with one entry per creature that keeping some of them only selects."""

    def keep(self, rows: IntArray, moved_to: IntArray, fight_of: IntArray) -> None:
        """Keep creatures ``rows`` only (in that order).

        ``moved_to[i]`` is where creature ``i`` goes (-1: gone), ``fight_of[f]`` fight ``f``'s new index; targets, the
        fights and the initiative order follow.
        """
        listed = rows.tolist()
        for name in self.ROWS:
            value = getattr(self, name)
            setattr(self, name, picked(value, listed) if isinstance(value, list) else value[rows])
        self.fight = fight_of[self.fight[rows]]
        target = self.target[rows]
        self.target = renumbered(target, moved_to)
        order = moved_to[self.order]
        self.order = order[order >= 0]
        self.rank = np.empty(len(listed), dtype=np.int64)
        self.rank[self.order] = np.arange(len(listed))

    @property
    def able(self) -> BoolArray:
        """Alive and not out of the fight (``sandbox.systems.creatures.can_act``)."""
        return ~self.dead & ~self.out


def picked(values: list[_T], rows: list[int]) -> list[_T]:
    """``[values[i] for i in rows]``, by ``operator.itemgetter``.

    One C loop: keeping a lab's fights copies lists of tens of thousands.
    """
    if len(rows) < 2:
        return [values[i] for i in rows]
    return list(itemgetter(*rows)(values))


def renumbered(ids: IntArray, new_of: IntArray) -> IntArray:
    """``new_of[ids]`` where an id is given, -1 where it is not (-1), in ``ids``' shape.

    References to rows that were kept some of (``new_of[i]``: where row ``i`` went, -1: gone).
    """
    out = np.empty(ids.shape, dtype=np.int64)
    _renumber(ids.reshape(-1), new_of, out.reshape(-1))
    return out


@compiled
def _renumber(ids: IntArray, new_of: IntArray, out: IntArray) -> None:
    for j in range(ids.shape[0]):
        out[j] = new_of[ids[j]] if ids[j] >= 0 else -1
