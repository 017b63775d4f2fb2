"""Every game time of the wound-depth model's state, moved for a creature carried into a world of another clock.

The one place that knows which fields of ``DepthState`` and its ``DepthWound`` rows hold game times and what each
means (``sandbox.systems.time_shift``): a wound's ``time`` happened; the death clocks and ``care_at`` fall due.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence

from sandbox.components.models.depth import DepthState, DepthWound
from sandbox.systems.time_shift import TimeShift

__all__ = ["shift_times"]


def shift_times(components: Sequence[object], shift: TimeShift) -> tuple[DepthState]:
    """A copy of a creature's ``DepthState`` with every game time moved by ``shift``."""
    (state,) = components
    assert isinstance(state, DepthState)
    state = copy.deepcopy(state)
    state.wounds = [dataclasses.replace(w, dies_at=shift.due(w.dies_at), time=shift.past(w.time)).as_tuple()
                    for w in map(DepthWound.of, state.wounds)]
    state.dies_at = shift.due(state.dies_at)
    state.care_at = shift.due(state.care_at)
    return (state,)
