"""What a part can still do: its impairment (a test penalty, or unusable), and the tiers the health rules read.

Every damage model answers "what can each part do" with a tuple of ``Impairment`` (``DamageModel.part_states``):
the anatomy model from its wounds, the wound-depth model from broken and lost limbs, the others with every part
sound. The shared loop (which limbs can wield a strike mode, how fast the creature walks) reads only that answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["SOUND", "UNUSABLE", "Impairment", "ImpairmentTier"]


@dataclass(frozen=True, slots=True)
class Impairment:
    """A part's impairment.

    Attributes:
        penalty: Test penalty (0, -5, -10, ... down to the permanent floor).
        unusable: The part is out of action altogether.
    """

    penalty: int = 0
    unusable: bool = False

    @property
    def impaired(self) -> bool:
        """True when the part is hampered at all."""
        return self.unusable or self.penalty < 0


SOUND = Impairment()
"""An unimpaired part."""

UNUSABLE = Impairment(0, True)
"""A part out of action (broken, lost, held by a model's own state)."""


class ImpairmentTier(StrEnum):
    """The impairment tier of a part, as the health ceiling reads it (document 000)."""

    NONE = "none"
    MINOR = "minor"
    SERIOUS = "serious"
    GRIEVOUS = "grievous"
    UNUSABLE = "unusable"
