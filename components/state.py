"""The ECS components every creature has, whatever its damage model.

Who it is, its body and kind, what it wears and carries, its conditions, its allegiance and intent, and where it stands.
A damage model adds its own state beside these (the anatomy model's ``Injury`` and ``Shock``:
``sandbox.components.models.anatomy``).

Every component is long-lived: a creature gets all of them when spawned and keeps them until the world closes,
so no component is added or removed in an ordinary tick (that would clear every esper query cache). What
changes is the data inside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece

__all__ = ["Anatomy", "Armor", "Combatant", "Condition", "Equipment", "Identity", "Position"]


@dataclass(slots=True)
class Identity:
    """Who a creature is.

    Attributes:
        name: Unique name in its world ("Aldric", "Wolf 2").
        creature: The creature config id.
    """

    name: str
    creature: str


@dataclass(slots=True)
class Anatomy:
    """The creature's body and kind: intrinsic, never changed in play.

    Attributes:
        body: The body structure.
        kind: The creature definition.
        mls: Mastery Level of every skill and attribute it can test (attributes at score x 5), with the
            scenario's overrides applied.
        attributes: Attribute scores (STR for the Strength impact modifier).
        speed: Walking speed in metres per tick, before impairment.
    """

    body: BodyStructure
    kind: CreatureDef
    mls: Mapping[str, int]
    attributes: Mapping[str, int]
    speed: float


@dataclass(slots=True)
class Armor:
    """What the creature wears: every piece, layered (protection adds).

    Attributes:
        pieces: The worn pieces.
    """

    pieces: tuple[ArmorPiece, ...] = ()


@dataclass(slots=True)
class Condition:
    """Conditions that decide what a creature can do.

    Attributes:
        dead: The creature has died (entities are never deleted: systems check this).
        cause: What killed it.
        prone: Lying down (standing costs a turn).
        immobilized: Parts held fast (netted, pinned, bound): they keep their grip but cannot strike or parry.
        busy: The action that takes this creature's turn ("stand up", "pick up"), or "".
        reeling: Took a shock result or died earlier this tick: it acts no more this tick.
        out: Taken out of the fight by its damage model's rules (incapacitated or unconscious, dying, passed
            out). The model keeps it current; it is how the shared loop asks whether a creature can act.
    """

    dead: bool = False
    cause: str = ""
    prone: bool = False
    immobilized: set[int] = field(default_factory=set)
    busy: str = ""
    reeling: bool = False
    out: bool = False


@dataclass(slots=True)
class Combatant:
    """A fighter's allegiance, policies and current intent.

    Attributes:
        team: Team name; creatures of other teams are enemies.
        policy: How it picks a target: ``nearest``, ``weakest`` or ``random``; or ``external``: the game chooses its
            actions (``Sandbox.submit``), and under it ``aim`` is the aim of its last strike.
        aim: How it aims: ``unaimed``, ``random`` (a random hittable part) or a part name.
        initiative: Turn order within a tick (higher first; ties by entity id).
        target: Entity it is fighting, or -1.
        mode: Qualified id of the strike mode it means to use, or "".
        aim_zone: Target zone number of its aim this tick (0: unaimed).
        action: What it means to do this tick: ``attack``, ``approach``, ``stand``, ``stand up``, ``pick up``,
            ``draw``, a damage model's own turn (``first aid``), or ``move`` (a creature the game drives).
    """

    team: str
    policy: str = "nearest"
    aim: str = "unaimed"
    initiative: int = 0
    target: int = -1
    mode: str = ""
    aim_zone: int = 0
    action: str = "stand"


@dataclass(slots=True)
class Position:
    """Where the creature stands on the field, in metres."""

    x: float
    y: float


@dataclass(slots=True)
class Equipment:
    """Weapons carried, held and dropped, and the items carried.

    Attributes:
        weapons: Ids of the (non-natural) weapons the creature owns, held or not (shields among them).
        natural: Ids of its natural weapons (fists, fangs): part of the body, never dropped.
        holding: Part index -> id of the weapon that part grips.
        dropped: Weapons lying at its feet (picking one up costs a turn).
        lost: Weapons flung out of reach for the rest of the fight.
        items: Ids of the items it still carries (healing items; one used up leaves the list).
    """

    weapons: list[str] = field(default_factory=list)
    natural: list[str] = field(default_factory=list)
    holding: dict[int, str] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
