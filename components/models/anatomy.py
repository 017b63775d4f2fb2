"""The anatomy model's per-creature state (document 000).

``Injury`` (a creature's wounds and what they did to its parts), ``Wound`` (one of them) and ``Shock`` (its shock
state).

Only a creature under the anatomy model carries these components. Wounds are data inside one long-lived
component rather than a component per wound, because adding or removing an esper component clears every query
cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.components.impairment import Impairment
from sandbox.components.rules import ShockState

__all__ = ["Injury", "Shock", "Wound"]


@dataclass(slots=True)
class Wound:
    """One wound, recorded at the location it struck.

    Attributes:
        location: Location index in the body.
        level: Injury level 1..5 (``InjuryLevel``: M1..G5); 0 or less means healed.
        aspect: Damage aspect index.
        healing_rate: Healing Rate 0..6 once treated; ``None`` while untreated.
        bleeder: The wound is bleeding.
        compounded: How many times a later wound at the same location worsened it.
        received: Game time (seconds) it was received.
        permanent_eligible: Its treatment marked it as able to leave permanent impairment.
        stoppage_bonus: Carried over to the next Blood Stoppage Test of this wound (an MF gives +10).
        stop_after_advance: An MS stoppage: it stops bleeding after the next advance test.
        next_bleed: When its next Blood Loss Advance test is due (-1: not bleeding).
        next_heal: When its next Injury Healing Test is due (-1: none scheduled).
        infection_hr: Healing Rate of its infection, or ``None`` when not infected.
        healed_at: When it healed (-1: open).
        initial_level: Its level when received (what permanent impairment and reports refer to).
    """

    location: int
    level: int
    aspect: int
    healing_rate: int | None = None
    bleeder: bool = False
    compounded: int = 0
    received: float = 0.0
    permanent_eligible: bool = False
    stoppage_bonus: int = 0
    stop_after_advance: bool = False
    next_bleed: float = -1.0
    next_heal: float = -1.0
    infection_hr: int | None = None
    healed_at: float = -1.0
    initial_level: int = 0

    def __post_init__(self) -> None:
        if not self.initial_level:
            self.initial_level = self.level

    @property
    def open(self) -> bool:
        """Not yet healed."""
        return self.level > 0


@dataclass(slots=True)
class Injury:
    """The wound state of one creature under the anatomy model (an ECS component).

    Attributes:
        wounds: Every wound, in the order received.
        severed: Indices of severed locations.
        unusable_parts: Indices of parts made permanently unusable (a severed limb).
        permanent_impairment: Per part index, a lasting penalty (<= 0) added by healing.
        levels: Live index: location -> levels of the open wounds there (what compounding reads).
        impairments: Current impairment of each part (refreshed by the damage rules).
        health: Current health percent (refreshed with the impairments).
        dirty: The impairments and health need refreshing.
        dirty_parts: The parts whose wounds changed since the last refresh (empty with ``dirty``: all of them).
        blood_loss: Blood Loss Points taken.
        weariness: Weariness fatigue (days spent in a coma).
        fatigue: Total fatigue (anemia, infection, weariness): a penalty on every test.
        shock_cause: (location, level) of the wound that opened the current shock (what a Coma's HR reads).
        extended_shock_hr: Healing Rate of Extended Shock, or ``None``.
        coma_hr: Healing Rate of a Coma, or ``None``.
        coma_since: When the coma began (-1: none).
        next_course: When the next Extended Shock course test is due (-1: none).
        next_coma: When the next Coma course test is due (-1: none).
        care_at: When a tender next sees to this creature's untreated wounds (-1: not scheduled).
        tending_until: As a tender: busy with a stoppage test until then (one per bleeding round).
        profile: Cache of the compiled target (``sandbox.systems.models.anatomy.blow.TargetProfile``); never saved.
        penalties: Cache of test penalties by the roles a skill names, with the impairments they were read from;
            never saved.
    """

    wounds: list[Wound] = field(default_factory=list)
    severed: set[int] = field(default_factory=set)
    unusable_parts: set[int] = field(default_factory=set)
    permanent_impairment: dict[int, int] = field(default_factory=dict)
    levels: dict[int, list[int]] = field(default_factory=dict)
    impairments: tuple[Impairment, ...] = ()
    health: int = 100
    dirty: bool = True
    dirty_parts: set[int] = field(default_factory=set)
    blood_loss: int = 0
    weariness: int = 0
    fatigue: int = 0
    shock_cause: tuple[int, int] | None = None
    extended_shock_hr: int | None = None
    coma_hr: int | None = None
    coma_since: float = -1.0
    next_course: float = -1.0
    next_coma: float = -1.0
    care_at: float = -1.0
    tending_until: float = -1.0
    profile: object = None
    penalties: dict[frozenset[str], tuple[tuple[Impairment, ...], int | None]] = field(default_factory=dict)

    def levels_at(self, location: int) -> list[int]:
        """Levels of the open wounds at ``location``."""
        return [w.level for w in self.wounds if w.location == location and w.level > 0]

    def reindex(self) -> None:
        """Rebuild the location -> levels index from the wounds (after loading or healing)."""
        self.levels.clear()
        for wound in self.wounds:
            if wound.level > 0:
                self.levels.setdefault(wound.location, []).append(wound.level)

    def touch(self, part: int | None = None) -> None:
        """Mark the impairments and health stale: only ``part`` changed, or (``None``) any part may have."""
        if part is None:
            self.dirty_parts.clear()
        elif self.dirty_parts or not self.dirty:
            self.dirty_parts.add(part)
        self.dirty = True


@dataclass(slots=True)
class Shock:
    """The creature's shock state under the anatomy model (exactly one at a time).

    Attributes:
        state: The current state.
        since: Tick the state began.
        retest_at: Game time (seconds) of the next re-test (-1: none due).
    """

    state: ShockState = ShockState.NONE
    since: int = 0
    retest_at: float = -1.0
