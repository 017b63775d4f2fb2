"""The wound list of the body panel.

Grouped by part, the worst part first and the worst wound first in each, as rows a designer scrolls through
(``WoundList``), with what lies off screen counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sandbox.components.body import BodyStructure
from sandbox.components.readout import PartReading, Readout, WoundReading
from sandbox.viewer.theme import wound_rank

__all__ = ["GENERAL", "Window", "WoundRow", "part_state", "window", "wound_rows", "wound_text"]

GENERAL = "General"
"""The group of the wounds a model places at no location (its own words)."""


@dataclass(frozen=True, slots=True)
class WoundRow:
    """One row of the list: a part's heading, or one wound.

    Attributes:
        text: What the row says.
        rank: How bad (0: a heading or nothing, 1 minor ... 5 the worst).
        heading: A part's heading (not a wound).
        bleeding: The wound bleeds.
        severed: A severed location (or a part with one).
        continued: The rest of the wound on the row above (a long row wrapped), not a wound of its own.
    """

    text: str
    rank: int
    heading: bool = False
    bleeding: bool = False
    severed: bool = False
    continued: bool = False

    @property
    def counted(self) -> bool:
        """The row is a wound (not a heading nor a wrapped wound's rest)."""
        return not (self.heading or self.continued)


def part_state(reading: PartReading | None) -> str:
    """A part's impairment in a word ("-10", "unusable", "severed"; "" when whole)."""
    if reading is None:
        return ""
    if reading.severed:
        return "severed"
    if reading.unusable:
        return "unusable"
    return f"{reading.penalty}" if reading.penalty < 0 else ""


def wound_text(w: WoundReading, untreated: bool = False) -> str:
    """A wound in one row.

    Level and aspect first (what the eye looks for), then where, then its care (bleeding, Healing Rate once treated,
    infection; ``untreated`` says so of an untreated wound too).
    """
    if not w.location:
        return w.text or w.level
    words = [" ".join(x for x in (w.level, w.aspect) if x), w.location]
    care = []  # an untreated wound says nothing more: in a fight that is every wound
    if w.bleeding:
        care.append("bleeding")
    if w.healing_rate is not None:
        care.append(f"HR {w.healing_rate}")
    elif w.treated:
        care.append("treated")
    elif untreated:
        care.append("untreated")
    if w.infection is not None:
        care.append(f"infected HR {w.infection}")
    return "  ".join(words) + (f"  ({', '.join(care)})" if care else "")


def wound_rows(readout: Readout, body: BodyStructure | None = None) -> list[WoundRow]:
    """Every wound and severed location as rows.

    A heading per part (its impairment), the parts in order of their worst wound (a severed one first), each part's
    wounds worst first; wounds at no location last, under ``GENERAL``. ``body`` tells which part a severed location
    belongs to.
    """
    parts = {p.name: p for p in readout.parts}
    groups: dict[str, list[WoundReading]] = {}
    for w in readout.wounds:
        groups.setdefault(w.part or (GENERAL if not w.location else w.location), []).append(w)
    severed_by_part: dict[str, list[str]] = {}
    for location in readout.severed:
        part = next((w.part for w in readout.wounds if w.location == location and w.part), "")
        if not part and body is not None:
            try:
                part = body.parts[body.locations[body.location_index(location)].part].name
            except KeyError:
                part = ""
        severed_by_part.setdefault(part or location, []).append(location)
        groups.setdefault(part or location, [])

    def worst(name: str) -> tuple[int, int, str]:
        ranks = [wound_rank(w.level) for w in groups[name]] or [0]
        return (0 if name == GENERAL else 1, -(6 if name in severed_by_part else max(ranks)), name)

    rows: list[WoundRow] = []
    for name in sorted(groups, key=worst):
        state = part_state(parts.get(name))
        count = len(groups[name]) + len(severed_by_part.get(name, ()))
        heading = f"{name}" + (f"  {state}" if state else "") + f"  ({count})"
        rows.append(WoundRow(heading, 0, heading=True, severed=name in severed_by_part))
        rows += [WoundRow(f"{location}: SEVERED", 6, severed=True) for location in severed_by_part.get(name, ())]
        for w in sorted(groups[name], key=lambda w: -wound_rank(w.level)):
            rows.append(WoundRow(wound_text(w), wound_rank(w.level), bleeding=w.bleeding))
    return rows


@dataclass(frozen=True, slots=True)
class Window:
    """The rows a list of ``room`` rows shows from ``offset`` on, and the wounds above and below it.

    Attributes:
        rows: The rows shown.
        offset: The first row shown (after clamping).
        above: Wounds (not headings) scrolled off above.
        below: Wounds off screen below.
    """

    rows: tuple[WoundRow, ...]
    offset: int
    above: int
    below: int


def window(rows: Sequence[WoundRow], offset: int, room: int) -> Window:
    """What a list of ``room`` rows shows at scroll ``offset``.

    The rows, clamped, leaving a row at each end for the counts of what is off screen whenever something is.
    """
    room = max(room, 1)
    if len(rows) <= room:
        return Window(tuple(rows), 0, 0, 0)
    inner = max(room - 2, 1)  # a row for "N more above" and one for "N more below"
    offset = min(max(offset, 0), len(rows) - inner)
    shown = tuple(rows[offset:offset + inner])
    above = sum(1 for r in rows[:offset] if r.counted)
    below = sum(1 for r in rows[offset + inner:] if r.counted)
    return Window(shown, offset, above, below)
