"""Typed event records: every step of the rules leaves one, so a blow can be explained from aim to shock state.

Each event carries the tick, the game time in seconds and the entities involved (entity ids; the sandbox adds
their names when it writes a log). Events are plain data: reading them back from a JSON log gives equal objects.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(slots=True)
class Event:
    """Base of every event: when it happened."""

    tick: int
    time: float

    entity_fields: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with the event's type name under ``type``."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out


@dataclass(slots=True)
class AttackDeclared(Event):
    """An attacker commits to a strike mode against a target, aimed at a part or unaimed."""

    attacker: int
    target: int
    mode: str
    aim: str
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class AttackRolled(Event):
    """The opposed d100 tests: attack skill against defence; the blow lands when the attack wins."""

    attacker: int
    target: int
    attack_ml: int | None
    attack: str
    defence_ml: int | None
    defence: str
    landed: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class Missed(Event):
    """An attack that did not land: ``defended`` or ``off the body``."""

    attacker: int
    target: int
    reason: str
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class BlowLanded(Event):
    """Where a blow landed: zone number, zone, part, location; and its impact and aspect."""

    attacker: int
    target: int
    zone_number: int
    zone: str
    part: str
    location: str
    impact: int
    aspect: str
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class ProtectionApplied(Event):
    """Protection at the location for the blow's aspect, and the effective impact left."""

    target: int
    location: str
    protection: int
    effective_impact: int
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class Injured(Event):
    """The wound: level (0 for a glancing blow), whether it glanced and whether it compounded."""

    target: int
    location: str
    level: int
    level_code: str
    aspect: str
    glancing: bool
    compound: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class BleederOpened(Event):
    """The wound bleeds."""

    target: int
    location: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class AmputationTested(Event):
    """The Strength test of an amputation check and its result."""

    target: int
    location: str
    test: str
    severed: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class ShockTested(Event):
    """Shock: the opening index, the test (or ``none``), the adjusted index and the state it offers."""

    target: int
    index: int
    test: str
    final_index: int
    state: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class MishapTested(Event):
    """A fumble or stumble: its disposition, the keep-control test (or ``none``) and the outcome."""

    target: int
    mishap: str
    disposition: str
    test: str
    outcome: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)


@dataclass(slots=True)
class ShockChanged(Event):
    """The creature's shock state changed."""

    entity: int
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class ItemDropped(Event):
    """A held weapon fell (``flung``: out of reach for the rest of the fight)."""

    entity: int
    item: str
    part: str
    flung: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class ItemPickedUp(Event):
    """A dropped weapon taken back in hand (it cost the turn)."""

    entity: int
    item: str
    part: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class FellProne(Event):
    """The creature fell (a failed stumble, or shock)."""

    entity: int
    cause: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class StoodUp(Event):
    """The creature got back on its feet (it cost the turn)."""

    entity: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class Severed(Event):
    """A location came off."""

    entity: int
    location: str
    part: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class Died(Event):
    """The creature died."""

    entity: int
    cause: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class ImpairmentChanged(Event):
    """A part's impairment changed."""

    entity: int
    part: str
    penalty: int
    unusable: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class HealthChanged(Event):
    """The health ceiling changed."""

    entity: int
    before: int
    after: int
    band: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class ModeChanged(Event):
    """The creature switched strike mode (or has none left: ``after`` is "")."""

    entity: int
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class ShockRetested(Event):
    """A shock re-test and the state it left."""

    entity: int
    test: str
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class BloodLost(Event):
    """A Blood Loss Advance test (Strength) on a bleeding wound, the points it cost and the total."""

    entity: int
    location: str
    test: str
    points: int
    total: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class BleedingStopped(Event):
    """A wound stopped bleeding (``test``: the stoppage result that stopped it)."""

    entity: int
    location: str
    test: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class CourseTested(Event):
    """A course test (Extended Shock, Coma, infection) and the Healing Rate it left."""

    entity: int
    course: str
    test: str
    healing_rate: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class Treated(Event):
    """A wound treated: the procedure, the Physician result, the Healing Rate set (0: healed at once), and whether
    it can leave permanent impairment."""

    entity: int
    location: str
    procedure: str
    test: str
    healing_rate: int
    permanent_risk: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class Infected(Event):
    """A wound took infection, starting at this Healing Rate."""

    entity: int
    location: str
    healing_rate: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class InjuryHealed(Event):
    """A wound closed after ``days``, leaving ``permanent`` impairment on its part (0: none)."""

    entity: int
    location: str
    level_code: str
    days: float
    permanent: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class D20AttackRolled(Event):
    """A point-based model's attack roll: d20 (``natural``) + bonus = ``total`` against ``defense``."""

    attacker: int
    target: int
    model: str
    mode: str
    natural: int
    total: int
    defense: int
    margin: int
    hit: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class DamageDealt(Event):
    """Damage under a point-based model: rolled, after armour, and what it came to (``detail``, the model's words)."""

    attacker: int
    target: int
    model: str
    rolled: int
    dealt: int
    detail: str
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")


@dataclass(slots=True)
class ModelStateChanged(Event):
    """A point-based model's state of a creature changed (``what``: the model's own words)."""

    entity: int
    model: str
    what: str
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (AttackDeclared, AttackRolled, Missed, BlowLanded, ProtectionApplied, Injured, BleederOpened,
                AmputationTested, ShockTested, MishapTested, ShockChanged, ItemDropped, ItemPickedUp, FellProne,
                StoodUp, Severed, Died, ImpairmentChanged, HealthChanged, ModeChanged, ShockRetested, BloodLost,
                BleedingStopped, CourseTested, Treated, Infected, InjuryHealed, D20AttackRolled, DamageDealt,
                ModelStateChanged)
}
"""Every event type by name (what a log's ``type`` field holds)."""


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``Event.to_dict`` output (extra keys such as entity names are ignored).

    Raises:
        ValueError: Unknown type or missing fields.
    """
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    try:
        return cls(**{f.name: data[f.name] for f in fields(cls)})
    except KeyError as exc:
        raise ValueError(f"{cls.__name__} event without {exc.args[0]!r}") from None
