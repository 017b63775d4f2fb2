"""The readout: what a creature's state reads as, the same shape under every damage model, in names."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_LOCATIONS", "UNPLACED", "AftermathRow", "PartReading", "Readout", "Standing", "WoundReading"]

NO_LOCATIONS = "(no locations under this model)"
"""A wound's ``location`` and ``part`` under a model that places no wound on the body (strength-health)."""

UNPLACED = "(not placed)"
"""A wound's ``location`` and ``part`` under a model that places wounds, for one given with no place.

A wound ``inflict`` made without a ``location`` under the severity or status model, or one in a save made before
those models placed their wounds.
"""


@dataclass(frozen=True, slots=True)
class WoundReading:
    """One wound in words.

    Attributes:
        location: The location it is at ("Right Forearm"); under a model that places no wound ``NO_LOCATIONS``,
            and ``UNPLACED`` for a wound given no place (never "" from the shipped models: see ``placed``).
        part: The part that location belongs to ("Right Arm"), or the same phrase as ``location``.
        level: The level in the model's own terms: a code (``M1`` ... ``G5``) under the anatomy model, a depth
            (``flesh``) under the wound-depth model, the effect under severity ("weaken 2"), the HP it still counts
            under the status ladder ("6 HP").
        aspect: The damage aspect or type ("edged", "cutting"), or "".
        bleeding: The wound bleeds.
        healing_rate: Its Healing Rate once treated (anatomy), else ``None``.
        infection: The Healing Rate of its infection, ``None`` when not infected.
        treated: It has been treated.
        text: The wound in one phrase ("serious edged wound, bleeding").
    """

    location: str
    part: str
    level: str
    aspect: str = ""
    bleeding: bool = False
    healing_rate: int | None = None
    infection: int | None = None
    treated: bool = False
    text: str = ""

    @property
    def placed(self) -> bool:
        """The wound is at a location of the body (``location`` and ``part`` are names of it, not a phrase)."""
        return bool(self.location) and self.location not in (NO_LOCATIONS, UNPLACED)


@dataclass(frozen=True, slots=True)
class PartReading:
    """What one part can do now.

    Attributes:
        name: The part ("Left Arm").
        penalty: Its test penalty (0, -5, -10 ...).
        unusable: It is out of action.
        severed: It (or a location of it) has been cut off.
    """

    name: str
    penalty: int = 0
    unusable: bool = False
    severed: bool = False


@dataclass(frozen=True, slots=True)
class Readout:
    """A creature's state in the words of its damage model, and in three readings that mean the same under all.

    ``health_fraction``, ``health_max`` and ``tier`` compare across models: the same fight reads 1.0 and unhurt at
    its start and 0.0 and dead for the fallen under every model, whatever each model's own ``health`` counts
    (``docs/readout.md`` has what each model's fraction is).

    Attributes:
        alive: Not dead.
        can_act: Alive and not taken out (not incapacitated, unconscious, dying, passed out).
        label: The model's own words for the state, lower case ("fair, stunned"; "seriously wounded"; "dead").
        health: The model's number where it has one (anatomy: health percent; strength: health remaining;
            severity: Threshold; status: levels left), else 0 when dead.
        band: The model's band or level ("Fair", "wounded").
        shock: The anatomy shock state (none, stunned ...), or the model's nearest equivalent ("none", "stunned",
            "incapacitated", "dying", "dead").
        conditions: Other conditions (prone, disarmed, bleeding, effects ...).
        wounds: Every open wound (and every lasting one), in names.
        parts: What each part of its body can do now.
        details: The model's own numbers in words, as (name, value) pairs (("threshold", "3 of 5"), ...).
        health_unit: The unit of ``health`` ("%" under the anatomy model, else "").
        severed: The locations cut off.
        health_max: The highest ``health`` can be, in the model's unit, for this creature unhurt (100 under the
            anatomy model; 0 from a model that gives none).
        health_fraction: ``health`` over ``health_max``, 0..1: 1.0 unhurt, 0.0 dead (a living creature can read 0.0
            where its model's number is spent: strength's dying, severity's fainted at Threshold 0).
        tier: ``unhurt``, ``hurt``, ``badly hurt``, ``down`` or ``dead`` (``sandbox.components.health_tiers``), on
            thresholds each model sets in its TOML file ("" from a model that gives none).
    """

    alive: bool
    can_act: bool
    label: str
    health: int
    band: str
    shock: str
    conditions: tuple[str, ...]
    wounds: tuple[WoundReading, ...] = ()
    parts: tuple[PartReading, ...] = ()
    details: tuple[tuple[str, str], ...] = ()
    health_unit: str = ""
    severed: tuple[str, ...] = ()
    health_max: int = 0
    health_fraction: float = 0.0
    tier: str = ""


@dataclass(frozen=True, slots=True)
class Standing:
    """How a creature stands when its fight ends, in brief: what a lab records of it.

    Attributes:
        name: Its name in the scenario.
        kind: Its creature id ("human").
        team: Its team.
        body: Its body id.
        alive: Its readout's ``alive``.
        can_act: Its readout's ``can_act``.
        label: Its readout's ``label``.
        dead: Its condition: dead.
        cause: What killed it ("died" when nothing is named; "" when not dead).
    """

    name: str
    kind: str
    team: str
    body: str
    alive: bool
    can_act: bool
    label: str
    dead: bool
    cause: str


@dataclass(frozen=True, slots=True)
class AftermathRow:
    """How one creature came through a stretch of time out of combat (``sandbox run --aftermath``).

    Attributes:
        name: The creature.
        alive: Still alive.
        cause: What killed it ("" when alive).
        died_day: Day of death counted from the start of the aftermath (``None`` when alive).
        healed_day: Days from the start until its last wound closed (0 when it had none; ``None`` while a wound
            is still open).
        open_wounds: Wounds still open.
        permanent: Permanent impairment by part name.
        health: Health now (the readout's number: percent under the anatomy model).
        health_unit: Its unit ("%" or "").
        state: Its readout label now.
    """

    name: str
    alive: bool
    cause: str
    died_day: float | None
    healed_day: float | None
    open_wounds: int
    permanent: dict[str, int]
    health: int
    health_unit: str = ""
    state: str = ""
