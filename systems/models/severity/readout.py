"""The severity model's readings of a state: its label, and its effects in short and in words.

``label`` is the model's word for a creature (dead, fainted, incapacitated, stunned, wounded, unhurt),
``effects_text`` the untreated effects in short (as the log's state changes show them), ``effect_words`` an effect
in document 001's words, and ``effect_readings`` the effects as the readout's wounds, at the locations struck. The
model's ``readout`` (``sandbox.systems.models.severity.model``) builds on them.
"""

from __future__ import annotations

from collections.abc import Mapping

from sandbox.components.body import BodyStructure
from sandbox.components.models.severity import ATTRIBUTE_OF, EFFECTS, SeverityState
from sandbox.components.readout import WoundReading
from sandbox.components.state import Condition
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.severity.placed import placed_effects
from sandbox.systems.models.severity.rules import attribute, full_threshold, threshold
from sandbox.systems.placement import location_names

__all__ = ["effect_readings", "effect_words", "effects_text", "label"]


def label(state: SeverityState, cond: Condition) -> str:
    """The model's word for the state: dead, fainted, incapacitated, stunned, wounded or unhurt."""
    if cond.dead:
        return "dead"
    if state.down:
        return state.down
    if state.stun > 0:
        return "stunned"
    if state.effect_points > 0:
        return "wounded"
    return "unhurt"


def effects_text(state: SeverityState) -> str:
    """The untreated effects, shortly (``weaken 1, bloody 2``), or ``none``."""
    parts = [f"{name} {getattr(state, name)}" for name in EFFECTS if getattr(state, name) > 0]
    return ", ".join(parts) if parts else "none"


_EFFECT_WORDS: Mapping[str, str] = {
    "weaken": "{x} point{s} of Brawn damage", "stagger": "{x} point{s} of Poise damage",
    "daze": "{x} point{s} of Wit damage", "slow": "Speed reduced by {x}", "stun": "{x} turn{s} of stun",
    "bloody": "Threshold reduced by {x}"}


def effect_words(effect: str, x: int) -> str:
    """What an effect of ``x`` does, in document 001's words (``weaken``, 2: ``2 points of Brawn damage``)."""
    return _EFFECT_WORDS[effect].format(x=x, s="" if x == 1 else "s")


def effect_readings(state: SeverityState, body: BodyStructure) -> tuple[WoundReading, ...]:
    """Every untreated wound effect as wounds in words, by where it was struck, in the order of the effect table.

    The model keeps the effects, not the wounds that caused them; each blow's wound is placed where it struck
    (``placed``), so two Bloody wounds of 1 on the Skull and the Thigh read as two ``bloody 1``, and two on the
    Skull as one ``bloody 2`` there. Points no blow placed (``inflict`` with no location) read at ``UNPLACED``.
    """
    out = []
    for name, (where, rest) in placed_effects(state).items():
        if name in ATTRIBUTE_OF:
            attr = ATTRIBUTE_OF[name]
            now = f"{attr.capitalize()} {attribute(state, attr)} of {getattr(state, attr)}"
        elif name == "slow":
            now = f"Speed {attribute(state, 'speed')} of {state.speed}"
        elif name == "stun":
            x = getattr(state, name)
            now = f"{x} turn{'s' if x != 1 else ''} left"
        else:
            now = f"Threshold {threshold(state)} of {full_threshold(state)}, bleeding"
        for location, x in [*where, (MISS, rest)]:
            if x <= 0:
                continue
            loc, part = location_names(body, location)
            at = f" at the {loc}" if location != MISS else ""
            out.append(WoundReading(loc, part, f"{name} {x}", bleeding=name == "bloody",
                                    text=f"{name} {x}{at}: {effect_words(name, x)} ({now}), untreated"))
    return tuple(out)
