"""The tick's named phases, in order, and the esper priorities derived from them.

Processors register by phase, never by a magic priority number: esper runs higher priorities first, so the
first phase gets the highest. Within a phase, processors keep their registration order.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Phase", "phase_of", "priority"]


class Phase(IntEnum):
    """Tick phases in the order they run."""

    INTENT = 0
    MOVE = 1
    ATTACK = 2
    DAMAGE = 3
    EFFECTS = 4
    RECOVERY = 5
    STATUS = 6
    CLEANUP = 7


_STRIDE = 100


def priority(phase: Phase, order: int = 0) -> int:
    """The esper priority of the ``order``-th processor registered in ``phase`` (0 <= order < 100)."""
    if not 0 <= order < _STRIDE:
        raise ValueError(f"at most {_STRIDE} processors per phase")
    return (len(Phase) - int(phase)) * _STRIDE - order


def phase_of(priority_value: int) -> Phase:
    """The phase an esper priority belongs to."""
    return Phase(len(Phase) - 1 - (priority_value - 1) // _STRIDE)
