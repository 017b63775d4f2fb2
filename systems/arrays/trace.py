"""Tracing: the named creatures' landed blows as full records (the anatomy model's own ``AttackRecord``, which
explains itself from aim to shock state) and the events of what followed, in the order the rules decide them.

The array engine keeps no per-blow Python objects for creatures nobody traces, which is what lets it run ten
thousand fighters a tick; a traced creature's blows (struck or taken) cost what they cost in the esper engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from components.events import Event, ItemPickedUp, ModeChanged, StoodUp
from components.log import LogEntry
from components.rules import ShockState, TestResult
from systems.arrays.attack import Attacks
from systems.arrays.state import NO_ML
from systems.arrays.tables import BoolArray, IntArray
from systems.blow import BlowResult
from systems.hit_location import MISS
from systems.models.anatomy_attack import AttackRecord
from systems.vector_blows import DISPOSITIONS, FUMBLE_OUTCOMES, NO_TEST, STUMBLE_OUTCOMES, BlowArrays

if TYPE_CHECKING:
    from systems.arrays.engine import ArrayEngine


def blow_result(blows: BlowArrays, k: int, aspect: int) -> BlowResult:
    """Blow ``k`` of ``blows`` (of damage aspect ``aspect``) as the per-event ``BlowResult``."""

    def test(code: int) -> TestResult | None:
        return None if code == NO_TEST else TestResult(code)

    missed = bool(blows.missed[k])
    return BlowResult(
        missed, int(blows.zone_number[k]), MISS if missed else int(blows.location[k]), int(blows.impact[k]),
        aspect, int(blows.protection[k]),
        int(blows.effective_impact[k]), int(blows.level[k]), bool(blows.glancing[k]), bool(blows.compound[k]),
        bool(blows.bleeder[k]), test(int(blows.amputation_test[k])), bool(blows.severed[k]),
        int(blows.shock_index[k]), test(int(blows.shock_test[k])), int(blows.final_index[k]),
        ShockState(int(blows.shock_state[k])), DISPOSITIONS[int(blows.fumble[k])], test(int(blows.fumble_test[k])),
        FUMBLE_OUTCOMES[int(blows.fumble_outcome[k])], DISPOSITIONS[int(blows.stumble[k])],
        test(int(blows.stumble_test[k])), STUMBLE_OUTCOMES[int(blows.stumble_outcome[k])], bool(blows.dead[k]))


class Tracer:
    """The log of an array world: traced creatures' records and events.

    Args:
        engine: The world.
        traced: Indices of the creatures to trace.
    """

    def __init__(self, engine: ArrayEngine, traced: Iterable[int] = ()) -> None:
        self.engine = engine
        self.traced: BoolArray = np.zeros(len(engine.creatures), dtype=np.bool_)
        self.traced[list(traced)] = True
        self.any = bool(self.traced.any())
        self.log: list[LogEntry] = []
        self.tally = False
        self.landed: list[tuple[IntArray, IntArray, IntArray]] = []

    def count(self, hits: Attacks, blows: BlowArrays) -> None:
        """With ``tally`` on, keep every landed blow's (target, location, level), for a lab's records."""
        if self.tally:
            struck = ~blows.missed
            self.landed.append((hits.target[struck], blows.location[struck], blows.level[struck]))

    def emit(self, event: LogEntry) -> None:
        """Append an entry."""
        self.log.append(event)

    def extend(self, events: Iterable[LogEntry]) -> None:
        """Append entries."""
        self.log.extend(events)

    def involved(self, hits: Attacks) -> BoolArray:
        """Per attack, whether its attacker or target is traced."""
        return self.traced[hits.attacker] | self.traced[hits.target]

    def blows(self, hits: Attacks, blows: BlowArrays, attack_ml: IntArray, attack: IntArray, defence: IntArray,
              defence_ml: IntArray, follows: Mapping[int, list[Event]]) -> None:
        """Log each traced landed blow as an ``AttackRecord`` followed by the events of what it did."""
        if not follows:
            return
        engine = self.engine
        cr, modes = engine.creatures, engine.modes
        for k in sorted(follows):
            a, t = int(hits.attacker[k]), int(hits.target[k])
            zone = int(hits.aim_zone[k])
            aim = cr.aim_names[int(cr.aim_name[a])] if cr.aim_name[a] >= 0 else "random"
            defends = int(defence[k]) >= 0
            blow = blow_result(blows, k, int(modes.aspect[int(hits.mode[k])]))
            self.log.append(AttackRecord(
                engine.tick, engine.clock_time, a + 1, t + 1, modes.modes[int(hits.mode[k])],
                aim if zone else "unaimed", zone, None if attack_ml[k] <= NO_ML // 2 else int(attack_ml[k]),
                TestResult(int(attack[k])),
                int(defence_ml[k]) if defends and defence_ml[k] > NO_ML // 2 else None,
                TestResult(int(defence[k])) if defends else None, True, blow, cr.anatomy[t].body,
                engine.armor[t].pieces, engine.per_event_model.tables))  # type: ignore[arg-type]
            self.log.extend(follows[k])

    def modes_changed(self, idx: IntArray, before: IntArray, after: IntArray) -> None:
        """``ModeChanged`` for the traced among ``idx``."""
        if not self.any:
            return
        names = self.engine.modes.modes
        for j in np.flatnonzero(self.traced[idx]).tolist():
            b, a = int(before[j]), int(after[j])
            self.log.append(ModeChanged(self.engine.tick, self.engine.clock_time, int(idx[j]) + 1,
                                        names[b].id if b >= 0 else "", names[a].id if a >= 0 else ""))

    def stood_up(self, idx: IntArray) -> None:
        """``StoodUp`` for the traced among ``idx``."""
        for i in idx[self.traced[idx]].tolist():
            self.log.append(StoodUp(self.engine.tick, self.engine.clock_time, i + 1))

    def picked_up(self, i: int, item: str, part: str) -> None:
        """``ItemPickedUp`` when ``i`` is traced."""
        if self.traced[i]:
            self.log.append(ItemPickedUp(self.engine.tick, self.engine.clock_time, i + 1, item, part))
