"""The readout: what a creature's state reads as, the same shape under every damage model."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Readout:
    """A creature's state in the words of its damage model.

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
    """

    alive: bool
    can_act: bool
    label: str
    health: int
    band: str
    shock: str
    conditions: tuple[str, ...]
