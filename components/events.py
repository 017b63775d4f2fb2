"""Typed event records: every step of the rules leaves one, so a blow can be explained from aim to shock state.

Each event carries the tick, the game time in seconds and the entities involved (entity ids; the sandbox adds
their names when it writes a log). Events are plain data: reading them back from a JSON log gives equal objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from sandbox.components.log import Names
from sandbox.components.rules import LEVEL_WORDS, TEST_WORDS

__all__ = ["EVENT_TYPES", "AmputationTested", "AttackDeclared", "AttackRolled", "BleederOpened", "BleedingStopped",
           "BloodLost", "BlowLanded", "CourseTested", "D20AttackRolled", "DamageDealt", "Died", "Event", "FellProne",
           "GotUp", "HealthChanged", "ImpairmentChanged", "Infected", "Injured", "InjuryHealed", "ItemDropped",
           "ItemPickedUp", "Lifecycle", "MishapTested", "Missed", "ModeChanged", "ModelStateChanged",
           "ProtectionApplied", "Severed", "ShockChanged", "ShockRetested", "ShockTested", "StoodUp", "Treated",
           "WentDown", "event_from_dict"]


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


def _ml(ml: int | None) -> str:
    return "-" if ml is None else str(ml)


def _test(code: str) -> str:
    """A test result code in words (``MF`` -> ``marginal failure``); anything else as it is."""
    return TEST_WORDS.get(code, code)


@dataclass(slots=True)
class Event:
    """Base of every event: when it happened.

    Every event is a ``sandbox.components.log.LogEntry``: its ``events`` are itself, its ``explain`` is one sentence
    (``describe``), and the events that follow a blow (a bleeder, a severed limb, a fall, a new shock state,
    death) summarise themselves for the account's line of that blow.
    """

    tick: int
    time: float

    entity_fields: ClassVar[tuple[str, ...]] = ()
    headline: ClassVar[bool] = False

    def events(self) -> Sequence[Event]:
        """The event itself."""
        return (self,)

    def summary(self, names: Names) -> str | None:
        """What followed a blow, in a few words for the account.

        ``None`` for a step of a blow or a rule's bookkeeping.
        """
        return None

    def explain(self, names: Names) -> list[str]:
        """The event in one sentence."""
        return [self.describe(names)]

    def describe(self, names: Names) -> str:
        """The event in words (every event type says what it records)."""
        values = ", ".join(f"{f.name} {getattr(self, f.name)}" for f in fields(self) if f.name not in ("tick", "time"))
        return f"{type(self).__name__}: {values}"

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

    def describe(self, names: Names) -> str:
        """Who attacks whom, with what, aimed where."""
        aim = "unaimed" if self.aim == "unaimed" else f"aimed at the {self.aim}"
        return f"{_who(names, self.attacker)} attacks {_who(names, self.target)} with {self.mode}, {aim}"


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

    def describe(self, names: Names) -> str:
        """The opposed test in words."""
        defence = "no defence roll (helpless)" if self.defence == "none" else (
            f"defence ML {_ml(self.defence_ml)}: {_test(self.defence)}")
        return (f"Attack ML {_ml(self.attack_ml)}: {_test(self.attack)}; {defence} -> "
                f"{'lands' if self.landed else 'defended'}")


@dataclass(slots=True)
class Missed(Event):
    """An attack that did not land: ``defended`` or ``off the body``."""

    attacker: int
    target: int
    reason: str
    entity_fields: ClassVar[tuple[str, ...]] = ("attacker", "target")

    def describe(self, names: Names) -> str:
        """Why the attack did not land."""
        return f"{_who(names, self.attacker)} misses {_who(names, self.target)} ({self.reason})"


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

    def describe(self, names: Names) -> str:
        """Where the blow landed."""
        return (f"Zone number {self.zone_number} ({self.zone}): the {self.location} of the {self.part}, impact "
                f"{self.impact} {self.aspect}")


@dataclass(slots=True)
class ProtectionApplied(Event):
    """Protection at the location for the blow's aspect, and the effective impact left."""

    target: int
    location: str
    protection: int
    effective_impact: int
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)

    def describe(self, names: Names) -> str:
        """Protection and what is left."""
        return f"Protection {self.protection} at the {self.location}: effective impact {self.effective_impact}"


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

    def describe(self, names: Names) -> str:
        """The wound."""
        if self.glancing:
            return f"The blow glances off the armour at the {self.location}: no wound"
        if self.level <= 0:
            return f"No wound at the {self.location}"
        wound = f"{LEVEL_WORDS[min(self.level, 5)]} ({self.level_code}), {self.aspect}, at the {self.location}"
        return f"{_who(names, self.target)} takes a {wound}" + ("; it compounds the worst wound there"
                                                                 if self.compound else "")


@dataclass(slots=True)
class BleederOpened(Event):
    """The wound bleeds."""

    target: int
    location: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)

    def summary(self, names: Names) -> str | None:
        """``bleeding``."""
        return "bleeding"

    def describe(self, names: Names) -> str:
        """The wound bleeds."""
        return f"{_who(names, self.target)}: the wound at the {self.location} bleeds"


@dataclass(slots=True)
class AmputationTested(Event):
    """The Strength test of an amputation check and its result."""

    target: int
    location: str
    test: str
    severed: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)

    def describe(self, names: Names) -> str:
        """The amputation check."""
        return (f"Amputation check at the {self.location}: Strength {_test(self.test)} -> "
                f"{'severed' if self.severed else 'kept'}")


@dataclass(slots=True)
class ShockTested(Event):
    """Shock: the opening index, the test (or ``none``), the adjusted index and the state it offers."""

    target: int
    index: int
    test: str
    final_index: int
    state: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)

    def describe(self, names: Names) -> str:
        """The Shock test."""
        test = "no test" if self.test == "none" else _test(self.test)
        return f"Shock index {self.index}: {test} -> {self.final_index}: {self.state}"


@dataclass(slots=True)
class MishapTested(Event):
    """A fumble or stumble: its disposition, the keep-control test (or ``none``) and the outcome."""

    target: int
    mishap: str
    disposition: str
    test: str
    outcome: str
    entity_fields: ClassVar[tuple[str, ...]] = ("target",)

    def describe(self, names: Names) -> str:
        """The fumble or stumble check."""
        test = "" if self.test == "none" else f" {_test(self.test)}"
        return f"{self.mishap.capitalize()} ({self.disposition}){test} -> {self.outcome}"


@dataclass(slots=True)
class ShockChanged(Event):
    """The creature's shock state changed."""

    entity: int
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def summary(self, names: Names) -> str | None:
        """``now stunned``."""
        return f"now {self.after}"

    def describe(self, names: Names) -> str:
        """The new shock state."""
        return f"{_who(names, self.entity)}: shock {self.before} -> {self.after}"


@dataclass(slots=True)
class ItemDropped(Event):
    """A held weapon fell (``flung``: out of reach for the rest of the fight)."""

    entity: int
    item: str
    part: str
    flung: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def summary(self, names: Names) -> str | None:
        """``drops the broadsword``."""
        return f"{'flings' if self.flung else 'drops'} the {self.item}"

    def describe(self, names: Names) -> str:
        """What fell from which part."""
        return (f"{_who(names, self.entity)} {'flings' if self.flung else 'drops'} the {self.item} "
                f"({self.part})" + (": out of reach" if self.flung else ""))


@dataclass(slots=True)
class ItemPickedUp(Event):
    """A dropped weapon taken back in hand (it cost the turn)."""

    entity: int
    item: str
    part: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """What was taken in hand."""
        return f"{_who(names, self.entity)} takes up the {self.item} ({self.part})"


@dataclass(slots=True)
class FellProne(Event):
    """The creature fell (a failed stumble, or shock)."""

    entity: int
    cause: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def summary(self, names: Names) -> str | None:
        """``falls prone`` (a stumble) or ``goes down`` (shock)."""
        return "falls prone" if self.cause == "stumble" else "goes down"

    def describe(self, names: Names) -> str:
        """The fall and its cause."""
        return f"{_who(names, self.entity)} falls ({self.cause})"


@dataclass(slots=True)
class StoodUp(Event):
    """The creature got back on its feet (it cost the turn)."""

    entity: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """Back on its feet."""
        return f"{_who(names, self.entity)} stands up"


@dataclass(slots=True)
class Severed(Event):
    """A location came off."""

    entity: int
    location: str
    part: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def summary(self, names: Names) -> str | None:
        """``Left Hand severed``."""
        return f"{self.location} severed"

    def describe(self, names: Names) -> str:
        """What came off."""
        return f"{_who(names, self.entity)}: the {self.location} ({self.part}) is severed"


@dataclass(slots=True)
class Lifecycle(Event):
    """Base of the model-agnostic lifecycle events: a creature went down, got up, or died.

    Subscribe to it (``Sandbox.on(Lifecycle, handler)``) to hear all three. ``Died`` is in the log under every model;
    ``WentDown`` and ``GotUp`` are found by watching ``Condition.out``, which every model keeps current, and are
    dispatched to subscribers only, never logged (``sandbox.systems.stream``), so the saved logs are what they were.

    Attributes:
        entity: The creature.
        cause: Why, in the model's own words (what killed it; for ``WentDown`` and ``GotUp``, the readout's label).
    """

    entity: int
    cause: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)


@dataclass(slots=True)
class WentDown(Lifecycle):
    """A living creature stopped being able to act (``Condition.out`` came on), under any damage model.

    A creature killed outright has ``Died`` only.

    Attributes:
        shock: Its readout's shock word, the scale every model shares ("incapacitated", "unconscious", "dying").
    """

    shock: str

    def summary(self, names: Names) -> str | None:
        """``goes down (fainted)``."""
        return f"goes down ({self.cause})"

    def describe(self, names: Names) -> str:
        """Down, and why."""
        return f"{_who(names, self.entity)} goes down ({self.cause})"


@dataclass(slots=True)
class GotUp(Lifecycle):
    """A creature that could not act can again (``Condition.out`` went off), under any damage model.

    Attributes:
        shock: Its readout's shock word now ("none", "stunned").
    """

    shock: str

    def summary(self, names: Names) -> str | None:
        """``can act again (stunned)``."""
        return f"can act again ({self.cause})"

    def describe(self, names: Names) -> str:
        """Able again, and how it reads now."""
        return f"{_who(names, self.entity)} can act again ({self.cause})"


@dataclass(slots=True)
class Died(Lifecycle):
    """The creature died."""

    def summary(self, names: Names) -> str | None:
        """``DIES (shock)``."""
        return f"DIES ({self.cause})"

    def describe(self, names: Names) -> str:
        """Death and its cause."""
        return f"{_who(names, self.entity)} dies ({self.cause})"


@dataclass(slots=True)
class ImpairmentChanged(Event):
    """A part's impairment changed."""

    entity: int
    part: str
    penalty: int
    unusable: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The part's new impairment."""
        state = "unusable" if self.unusable else (f"impaired {self.penalty}" if self.penalty < 0 else "sound")
        return f"{_who(names, self.entity)}: {self.part} {state}"


@dataclass(slots=True)
class HealthChanged(Event):
    """The health ceiling changed."""

    entity: int
    before: int
    after: int
    band: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The new health."""
        return f"{_who(names, self.entity)}: health {self.before} -> {self.after} ({self.band})"


@dataclass(slots=True)
class ModeChanged(Event):
    """The creature switched strike mode (or has none left: ``after`` is "")."""

    entity: int
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The new strike mode."""
        return f"{_who(names, self.entity)} switches to {self.after or 'nothing it can strike with'}"


@dataclass(slots=True)
class ShockRetested(Event):
    """A shock re-test and the state it left."""

    entity: int
    test: str
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The re-test."""
        return f"{_who(names, self.entity)} re-tests Shock: {_test(self.test)}, {self.before} -> {self.after}"


@dataclass(slots=True)
class BloodLost(Event):
    """A Blood Loss Advance test (Strength) on a bleeding wound, the points it cost and the total."""

    entity: int
    location: str
    test: str
    points: int
    total: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The blood loss round."""
        return (f"{_who(names, self.entity)} bleeds at the {self.location}: Strength {_test(self.test)}, "
                f"{self.points} Blood Loss Point{'s' if self.points != 1 else ''} ({self.total} in all)")


@dataclass(slots=True)
class BleedingStopped(Event):
    """A wound stopped bleeding (``test``: the stoppage result that stopped it)."""

    entity: int
    location: str
    test: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The bleeding stops."""
        return f"{_who(names, self.entity)}: the {self.location} stops bleeding ({_test(self.test)})"


@dataclass(slots=True)
class CourseTested(Event):
    """A course test (Extended Shock, Coma, infection) and the Healing Rate it left."""

    entity: int
    course: str
    test: str
    healing_rate: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The course test."""
        return (f"{_who(names, self.entity)}: {self.course} course test {_test(self.test)}, Healing Rate now "
                f"{self.healing_rate}")


@dataclass(slots=True)
class Treated(Event):
    """A wound treated.

    The procedure, the Physician result, the Healing Rate set (0: healed at once), and whether it can leave permanent
    impairment.
    """

    entity: int
    location: str
    procedure: str
    test: str
    healing_rate: int
    permanent_risk: bool
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The treatment."""
        outcome = "healed at once" if self.healing_rate == 0 else f"Healing Rate {self.healing_rate}"
        risk = "; may leave permanent impairment" if self.permanent_risk else ""
        return (f"{_who(names, self.entity)}: the {self.location} treated ({self.procedure}, "
                f"{_test(self.test)}): {outcome}{risk}")


@dataclass(slots=True)
class Infected(Event):
    """A wound took infection, starting at this Healing Rate."""

    entity: int
    location: str
    healing_rate: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The infection."""
        return f"{_who(names, self.entity)}: the {self.location} is infected (Healing Rate {self.healing_rate})"


@dataclass(slots=True)
class InjuryHealed(Event):
    """A wound closed after ``days``, leaving ``permanent`` impairment on its part (0: none)."""

    entity: int
    location: str
    level_code: str
    days: float
    permanent: int
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def describe(self, names: Names) -> str:
        """The wound closes."""
        left = f", leaving {self.permanent} permanent impairment" if self.permanent else ""
        return (f"{_who(names, self.entity)}: the {self.level_code} at the {self.location} heals after "
                f"{self.days:g} days{left}")


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

    def describe(self, names: Names) -> str:
        """The d20 roll."""
        return (f"d20 {self.natural}, total {self.total} against Defense {self.defense}: margin {self.margin} -> "
                f"{'hits' if self.hit else 'misses'}")


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

    def describe(self, names: Names) -> str:
        """The damage in the model's words."""
        return f"{_who(names, self.target)} takes {self.dealt} ({self.rolled} rolled): {self.detail}"


@dataclass(slots=True)
class ModelStateChanged(Event):
    """A point-based model's state of a creature changed (``what``: the model's own words)."""

    entity: int
    model: str
    what: str
    before: str
    after: str
    entity_fields: ClassVar[tuple[str, ...]] = ("entity",)

    def summary(self, names: Names) -> str | None:
        """The model's new state word, when the creature's state (not a detail) changed."""
        return f"now {self.after}" if self.what == "state" else None

    def describe(self, names: Names) -> str:
        """The change in the model's words."""
        return f"{_who(names, self.entity)}: {self.what} {self.before} -> {self.after}"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (AttackDeclared, AttackRolled, Missed, BlowLanded, ProtectionApplied, Injured, BleederOpened,
                AmputationTested, ShockTested, MishapTested, ShockChanged, ItemDropped, ItemPickedUp, FellProne,
                StoodUp, Severed, Died, ImpairmentChanged, HealthChanged, ModeChanged, ShockRetested, BloodLost,
                BleedingStopped, CourseTested, Treated, Infected, InjuryHealed, D20AttackRolled, DamageDealt,
                ModelStateChanged, WentDown, GotUp)
}
"""Every event type by name (what a log's ``type`` field holds; ``WentDown`` and ``GotUp`` are never logged, but a
game that writes the events it was sent reads them back)."""


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
