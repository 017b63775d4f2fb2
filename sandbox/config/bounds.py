"""The bounded number and name types every config schema builds on.

Each carries its bounds into the JSON Schema (so an editor shows them) and into validation (so a value past them is an
error naming the key).

The bounds keep the work of one tick, one blow, one exact-odds table and one aftermath day small whatever the
numbers of a valid file (the README's "Robustness" section has the table, generated from the schemas); the
constants live in ``sandbox.config.limits``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from sandbox.config.limits import (
    MAX_COEFFICIENT,
    MAX_COUNT,
    MAX_DISTANCE,
    MAX_MODIFIER,
    MAX_NAME,
    MAX_POINTS,
    MAX_SCORE,
    MAX_SIDES,
    MAX_SPAN_DAYS,
    MIN_REPEAT_MINUTES,
    MIN_REPEAT_SECONDS,
)

__all__ = [
    "DAY_SECONDS",
    "Coefficient",
    "Count",
    "DelayHours",
    "DelayMinutes",
    "DelaySeconds",
    "Faces",
    "Metres",
    "Modifier",
    "Name",
    "Penalty",
    "Points",
    "Positive",
    "PositiveMetres",
    "RepeatDays",
    "RepeatHours",
    "RepeatMinutes",
    "RepeatSeconds",
    "Score",
    "Share",
    "Text",
    "unprintable",
]

DAY_SECONDS = 86_400.0

Modifier = Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)]
"""A roll modifier, bonus, penalty, Defense or index change."""
Penalty = Annotated[int, Field(ge=-MAX_MODIFIER, le=0)]
"""A penalty: 0 or less."""
Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]
"""An attribute score or a Mastery Level."""
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
"""An amount: protection, an Armor Value, a Shock Value."""
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
"""A count: attempts, rounds, enhancements, a table's small number."""
Positive = Annotated[int, Field(ge=1, le=MAX_COUNT)]
"""A count of at least one (a divisor, a step)."""
Faces = Annotated[int, Field(ge=2, le=MAX_SIDES)]
"""The faces of a die."""
Metres = Annotated[float, Field(ge=0, le=MAX_DISTANCE)]
"""A distance or position in metres."""
PositiveMetres = Annotated[float, Field(gt=0, le=MAX_DISTANCE)]
"""A distance above 0 in metres."""
Share = Annotated[float, Field(ge=0, le=1)]
"""A fraction from 0 to 1."""
Coefficient = Annotated[float, Field(ge=-MAX_COEFFICIENT, le=MAX_COEFFICIENT)]
"""A derivation formula's coefficient, base or bound."""
RepeatSeconds = Annotated[float, Field(ge=MIN_REPEAT_SECONDS, le=MAX_SPAN_DAYS * DAY_SECONDS)]
"""The interval of a creature's repeated test, in seconds."""
RepeatMinutes = Annotated[float, Field(ge=MIN_REPEAT_MINUTES, le=MAX_SPAN_DAYS * 1440)]
"""The interval of a periodic test, in minutes."""
RepeatHours = Annotated[float, Field(ge=MIN_REPEAT_MINUTES / 60, le=MAX_SPAN_DAYS * 24)]
"""The interval of a periodic test (or a period that repeats), in hours."""
RepeatDays = Annotated[float, Field(ge=MIN_REPEAT_MINUTES / 1440, le=MAX_SPAN_DAYS)]
"""The interval of a periodic test, in days."""
DelaySeconds = Annotated[float, Field(ge=0, le=MAX_SPAN_DAYS * DAY_SECONDS)]
"""A delay (0: at once), in seconds."""
DelayMinutes = Annotated[float, Field(ge=0, le=MAX_SPAN_DAYS * 1440)]
"""A delay (0: at once), in minutes."""
DelayHours = Annotated[float, Field(ge=0, le=MAX_SPAN_DAYS * 24)]
"""A delay or a duration (0: none), in hours."""


def unprintable(text: str, allowed: str = "") -> str | None:
    """The first character of ``text`` that is not printable, unless in ``allowed``.

    Not printable means a control character, a bidirectional override such as U+202E, or a zero-width mark. ``None``
    when there is none.
    """
    return next((c for c in text if not c.isprintable() and c not in allowed), None)


def _printable(text: str, allowed: str = "") -> str:
    bad = unprintable(text, allowed)
    if bad is not None:
        raise ValueError(f"printable text (no control or formatting characters), found {bad!r} at character "
                         f"{text.index(bad) + 1}")
    return text


def _printable_lines(text: str) -> str:
    return _printable(text, "\n\t")


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_printable)]
"""A display name: printable text (no control characters, no bidirectional overrides) of 1 to 100 characters."""
Text = Annotated[str, Field(max_length=10 * MAX_NAME), AfterValidator(_printable_lines)]
"""A description or note: printable text (line breaks and tabs allowed) of at most 1,000 characters."""
