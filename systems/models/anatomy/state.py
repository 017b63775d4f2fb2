"""How the anatomy model's state travels in a ``Creature`` record.

``AnatomyState`` (its ``Injury`` and ``Shock`` components together) and the typed accessor every anatomy module reads it
through.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from sandbox.components.models.anatomy import Injury, Shock
from sandbox.systems.creatures import Creature

__all__ = ["AnatomyState", "anatomy_state"]


class AnatomyState(NamedTuple):
    """A creature's state under the anatomy model, as its ``Creature`` record carries it.

    Attributes:
        injury: Its wounds and what they did to its parts.
        shock: Its shock state.
    """

    injury: Injury
    shock: Shock


def anatomy_state(creature: Creature) -> AnatomyState:
    """The anatomy state a creature of an anatomy-model world carries."""
    return cast(AnatomyState, creature.state)
