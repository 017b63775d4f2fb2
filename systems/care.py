"""Who tends whom out of combat, by the care policy: the one care circle every damage model's ``advance`` uses.

The policy (``sandbox.components.care.CarePolicy``): a patient's team-mates able to act (only the named healers, when
the policy names them) with the best skill tend it, ties going to the lower entity; with none at hand, the patient tends
itself when it can act and self-care is allowed; else nobody. What "skill" is belongs to the model (anatomy: the
Physician ML with impairment and fatigue; severity: the first-aid bonus ...).

A world's ``advance`` asks this thousands of times, so the circle keeps each team's candidates in a heap ranked by
skill and is told which creature changed after each rule it runs (``update``): a question costs a few heap
operations, not a scan of the world, and the answer is the same as the scan's. A changed creature is re-ranked
only when the next question comes (most rules, healing periods above all, are never followed by one before the
same creature changes again).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sandbox.components.care import CarePolicy
from sandbox.systems.creatures import Creature, able

__all__ = ["CareCircle", "Eligible", "Skill", "Tender"]

Skill = Callable[[Creature, bool], int | None]
"""A model's tender skill: ``skill(creature, on_self)``, ``None`` when it tends at no skill at all."""
Eligible = Callable[[Creature, bool], bool]
"""Whether a creature may tend at all (``on_self``: itself), besides being able to act."""


@dataclass(frozen=True, slots=True)
class Tender:
    """Who tends a patient.

    Attributes:
        entity: The tender.
        skill: Its skill (the model's measure), or ``None``: it tends at no skill (its tests critically fail).
        on_self: The tender is the patient.
    """

    entity: int
    skill: int | None
    on_self: bool


def _rank(skill: int | None) -> float:
    return -math.inf if skill is None else float(skill)


class CareCircle:
    """The tenders of a world under one care policy.

    Args:
        creatures: Every creature by entity.
        policy: The care policy.
        skill: The model's tender skill.
        eligible: Who may tend besides being able to act (default: everyone).
    """

    def __init__(self, creatures: Mapping[int, Creature], policy: CarePolicy, skill: Skill,
                 eligible: Eligible | None = None) -> None:
        self.creatures = creatures
        self.policy = policy
        self.skill = skill
        self.eligible: Eligible = eligible or (lambda c, on_self: True)
        self._version: dict[int, int] = {}
        self._current: dict[int, tuple[float, int] | None] = {}
        self._heaps: dict[str, list[tuple[float, int, int]]] = {}
        self._changed: set[int] = set()
        healers = policy.healers
        for entity, c in creatures.items():
            if healers is None or c.name in healers:
                self._push(entity)

    def _push(self, entity: int) -> None:
        c = self.creatures[entity]
        version = self._version.get(entity, 0) + 1
        self._version[entity] = version
        if able(c) and self.eligible(c, False):
            rank = _rank(self.skill(c, False))
            self._current[entity] = (rank, version)
            heapq.heappush(self._heaps.setdefault(c.team, []), (-rank, entity, version))
        else:
            self._current[entity] = None

    def update(self, entity: int) -> None:
        """Tell the circle that ``entity``'s state changed (its skill, whether it can act)."""
        self._changed.add(entity)

    def _flush(self) -> None:
        healers = self.policy.healers
        for entity in sorted(self._changed):
            if healers is None or self.creatures[entity].name in healers:
                self._push(entity)
        self._changed.clear()

    def tender_for(self, patient: int) -> Tender | None:
        """Who tends ``patient`` now, by the policy (see the module docstring)."""
        if self._changed:
            self._flush()
        c = self.creatures[patient]
        heap = self._heaps.get(c.team, [])
        skipped: list[tuple[float, int, int]] = []
        found: Tender | None = None
        while heap:
            _, entity, version = heap[0]
            if self._version.get(entity) != version or self._current.get(entity) is None:
                heapq.heappop(heap)  # stale: the creature changed since
                continue
            if entity == patient:
                skipped.append(heapq.heappop(heap))
                continue
            other = self.creatures[entity]
            found = Tender(entity, self.skill(other, False), False)
            break
        for entry in skipped:
            heapq.heappush(heap, entry)
        if found is not None:
            return found
        if self.policy.self_care and able(c) and self.eligible(c, True):
            return Tender(patient, self.skill(c, True), True)
        return None
