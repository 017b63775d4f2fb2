"""Every game time of the strength-health model's state, moved for a creature carried into a world of another clock.

The one place that knows which fields of ``StrengthHealth`` hold game times (``sandbox.systems.time_shift``): the end
of an incapacitation (``until``; ``None``: the end of the skirmish, no time) and the death of a dying creature
(``dying_at``, which means nothing, and stays, while it is not dying) fall due. ``rested`` is a span, not a time.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from sandbox.components.models.strength import StrengthHealth
from sandbox.systems.time_shift import TimeShift

__all__ = ["shift_times"]


def shift_times(components: Sequence[object], shift: TimeShift) -> tuple[StrengthHealth]:
    """A copy of a creature's ``StrengthHealth`` with every game time moved by ``shift``."""
    (state,) = components
    assert isinstance(state, StrengthHealth)
    state = copy.deepcopy(state)
    if state.until is not None:
        state.until = shift.due(state.until)
    if state.dying:
        state.dying_at = shift.due(state.dying_at)
    return (state,)
