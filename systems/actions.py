"""What a creature can do in one tick, as data: the actions a game submits for a creature it drives.

Each action is one whole turn, as the shared loop takes it (the AI's own intents, spelled as a player would):

- ``Strike(mode, target, aim)``: attack a creature within the mode's reach or range (the ATTACK phase);
- ``Approach(target, mode)``: close in at walking speed, then strike (unaimed) if it is within reach after the move
  (what the AI does every time it walks up to a foe);
- ``Move(to=(x, y))`` or ``Move(toward=creature, within=m)``: walk there as far as the walking speed allows, no strike;
- ``StandUp()``, ``PickUp(weapon)``, ``Draw(weapon)``: the turn-costing actions of the MOVE phase;
- ``FirstAid(patient)``, ``UseItem(item, patient)``: a damage model's own turns (severity's first aid, strength's
  healing items; ``ModelTurn`` for any other model's), taken in initiative order in the ATTACK phase;
- ``Wait()``: do nothing this tick (what a creature the game drives does when nothing was submitted).

There is no "rest" in a fight: resting is a rule of time out of combat (``Sandbox.advance``), and combat interrupts it.

Which of them a creature may take now is ``sandbox.systems.options``; the errors a bad request raises are here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.systems.errors import SandboxError

__all__ = ["ACTION_TYPES", "EXTERNAL", "Action", "ActionError", "ActionRefused", "AlreadySubmitted", "Approach",
           "Draw", "FirstAid", "ModelTurn", "Move", "NotExternal", "PickUp", "StandUp", "Strike", "UnknownAction",
           "UseItem", "Wait"]

EXTERNAL = "external"
"""The policy of a creature the game drives (``Sandbox.spawn(..., policy="external")``): its turn is what the game
submits (``Sandbox.submit``), and it waits when nothing was."""

CreatureId = int | str
"""A creature in an action: its entity (what ``options`` gives), or its name (``Sandbox.submit`` resolves it)."""


@dataclass(frozen=True, slots=True)
class Strike:
    """Strike ``target`` with ``mode``, aimed or not: the creature's attack, as the fight makes it (it may miss).

    Attributes:
        mode: The strike mode, ``weapon.mode`` (``broadsword.cut``), of a weapon in hand or of the creature's body.
        target: The creature struck (an enemy within the mode's reach or range).
        aim: ``unaimed``, or a part of the target's body that can be aimed at, or a location of such a part.
    """

    mode: str
    target: CreatureId
    aim: str = "unaimed"


@dataclass(frozen=True, slots=True)
class Approach:
    """Close in on ``target`` at walking speed and strike it unaimed with ``mode`` if it is within reach after the move.

    The AI's own turn against a foe out of reach: it stops a little inside the mode's reach or range.

    Attributes:
        target: The enemy closed in on.
        mode: The strike mode to close in with (and strike with if the move brings it within reach).
    """

    target: CreatureId
    mode: str


@dataclass(frozen=True, slots=True)
class Move:
    """Walk toward a point, or toward a creature, as far as the walking speed allows this tick (and no strike).

    Give exactly one of ``to`` and ``toward``.

    Attributes:
        to: The point (x, y) in metres to walk to.
        toward: The creature to walk toward (where it stands when the move is made).
        within: Stop this many metres short of the point or the creature (0: walk right up to it).
    """

    to: tuple[float, float] | None = None
    toward: CreatureId | None = None
    within: float = 0.0


@dataclass(frozen=True, slots=True)
class StandUp:
    """Get up off the ground (it costs the turn): a prone creature that can stand does so before anything else."""


@dataclass(frozen=True, slots=True)
class PickUp:
    """Pick up a weapon lying at its feet (it costs the turn), when no hand holds a weapon.

    Attributes:
        weapon: The weapon id (one of ``Equipment.dropped``; a shield is not taken up instead of a weapon).
    """

    weapon: str


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw a carried weapon (it costs the turn), when no hand holds a weapon.

    Attributes:
        weapon: The weapon id (carried, not dropped, lost or held; not a shield).
    """

    weapon: str


@dataclass(frozen=True, slots=True)
class FirstAid:
    """Give first aid in the fight (a damage model's own turn: severity's), to a team-mate within reach or itself.

    Attributes:
        patient: Who is tended.
    """

    patient: CreatureId


@dataclass(frozen=True, slots=True)
class UseItem:
    """Use a carried healing item on a team-mate within reach or on itself (a damage model's own turn: strength's).

    Attributes:
        item: The item id (``configs/items/``).
        patient: Who it is used on.
    """

    item: str
    patient: CreatureId


@dataclass(frozen=True, slots=True)
class ModelTurn:
    """Any other turn of the damage model's own (``DamageModel.turn_options`` names it), for a model of your own.

    Attributes:
        name: The turn, as the model names it (``TurnAction.name``).
        patient: Who it is for.
        item: The item it uses ("" for none).
    """

    name: str
    patient: CreatureId
    item: str = ""


@dataclass(frozen=True, slots=True)
class Wait:
    """Do nothing this tick (``Combatant.action`` reads ``stand``)."""


Action = Strike | Approach | Move | StandUp | PickUp | Draw | FirstAid | UseItem | ModelTurn | Wait
"""Any action."""

ACTION_TYPES: tuple[type, ...] = (Strike, Approach, Move, StandUp, PickUp, Draw, FirstAid, UseItem, ModelTurn, Wait)
"""Every action type, in the order ``options`` lists them."""


class ActionError(SandboxError):
    """A bad action request (the subclasses say which); nothing in the world changed."""


class ActionRefused(ActionError):
    """The rules do not allow the action now (out of reach, a weapon not held, an attacker who cannot act ...).

    Attributes:
        reason: Why, in words (also the message).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotExternal(ActionError):
    """An action submitted for a creature the game does not drive (its policy is not ``external``)."""


class AlreadySubmitted(ActionError):
    """A second action for the same creature before the tick that takes the first has run."""


class UnknownAction(ActionError):
    """Something that is not one of the action types (``ACTION_TYPES``)."""
