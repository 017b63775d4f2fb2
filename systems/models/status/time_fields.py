"""Every game time of the status-ladder model's state, moved for a creature carried into a world of another clock.

The one place that knows which fields of ``StatusState`` hold game times: every one falls due
(``sandbox.systems.time_shift``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from sandbox.components.models.status import StatusState
from sandbox.systems.time_shift import TimeShift

__all__ = ["TIME_FIELDS", "shift_times"]

TIME_FIELDS = ("come_round_at", "dies_at", "heal_at", "minor_heal_at")
"""The due times of ``StatusState``."""


def shift_times(components: Sequence[object], shift: TimeShift) -> tuple[StatusState]:
    """A copy of a creature's ``StatusState`` with every game time moved by ``shift``."""
    (state,) = components
    assert isinstance(state, StatusState)
    state = copy.deepcopy(state)
    for name in TIME_FIELDS:
        setattr(state, name, shift.due(getattr(state, name)))
    return (state,)
