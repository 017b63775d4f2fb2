"""Every game time of the severity model's state, moved for a creature carried into a world of another clock.

The one place that knows which fields of ``SeverityState`` hold game times and what each means
(``sandbox.systems.time_shift``): ``down_since`` and ``hurt_at`` happened; the rest fall due.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from sandbox.components.models.severity import SeverityState
from sandbox.systems.time_shift import TimeShift

__all__ = ["shift_times"]


def shift_times(components: Sequence[object], shift: TimeShift) -> tuple[SeverityState]:
    """A copy of a creature's ``SeverityState`` with every game time moved by ``shift``."""
    (state,) = components
    assert isinstance(state, SeverityState)
    state = copy.deepcopy(state)
    state.down_since = shift.past_or_never(state.down_since)
    state.hurt_at = shift.past_or_never(state.hurt_at)
    for name in ("stun_at", "aid_at", "rest_at", "exposed_at"):
        setattr(state, name, shift.due(getattr(state, name)))
    return (state,)
