"""Every game time of the anatomy model's state, moved for a creature carried into a world of another clock.

The one place that knows which fields of ``Injury``, ``Wound`` and ``Shock`` hold game times and what each means
(``sandbox.systems.time_shift``): a wound's ``received`` and ``healed_at``, a coma's ``coma_since`` and a shock's
``since`` (a tick) happened; the rest fall due.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from sandbox.components.models.anatomy import Injury, Shock
from sandbox.systems.time_shift import TimeShift

__all__ = ["shift_times"]


def shift_times(components: Sequence[object], shift: TimeShift) -> tuple[Injury, Shock]:
    """Copies of a creature's ``Injury`` and ``Shock`` with every game time moved by ``shift``."""
    injury, shock = components
    assert isinstance(injury, Injury) and isinstance(shock, Shock)
    injury = copy.deepcopy(injury)
    for w in injury.wounds:
        w.received = shift.past(w.received)
        w.healed_at = shift.past_or_never(w.healed_at)
        w.next_bleed = shift.due(w.next_bleed)
        w.next_heal = shift.due(w.next_heal)
    injury.coma_since = shift.past_or_never(injury.coma_since)
    for name in ("next_course", "next_coma", "care_at", "tending_until"):
        setattr(injury, name, shift.due(getattr(injury, name)))
    return injury, Shock(shock.state, shift.tick(shock.since), shift.due(shock.retest_at))
