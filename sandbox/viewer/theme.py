"""The viewer's colours and how a state maps to one: teams, shock rings, wound levels, part impairment.

A wound's level is ranked from the readout's own words (``M1`` ... ``G5``; a depth ``skin`` ... ``organ``), so the
same five colours read the same under every model that places wounds at locations.
"""

from __future__ import annotations

from sandbox.components.impairment import Impairment
from sandbox.components.models.depth import TIERS
from sandbox.components.rules import LEVEL_CODES

__all__ = [
    "BACKGROUND",
    "BLEEDING",
    "DEAD",
    "DIM",
    "DOWN",
    "EXPLAIN",
    "FAINT",
    "FIELD",
    "GRID",
    "GRIEVOUS",
    "HIGHLIGHT",
    "IMPAIRMENT_LEGEND",
    "LANDED",
    "LEVEL_FILL",
    "LEVEL_LEGEND",
    "MINOR",
    "MISSED",
    "PANEL",
    "PANEL_DARK",
    "RULE",
    "SERIOUS",
    "SEVERED",
    "SHOCK_RING",
    "TEAM_COLOURS",
    "TEXT",
    "UNHURT",
    "UNUSABLE",
    "WHOLE",
    "Colour",
    "fade",
    "part_colour",
    "wound_rank",
]

Colour = tuple[int, int, int]

TEAM_COLOURS: tuple[Colour, ...] = ((220, 72, 60), (70, 130, 235), (90, 190, 90), (235, 180, 60), (185, 95, 225),
                                    (60, 200, 200), (235, 120, 180), (170, 170, 170))
"""Team colours, in the order the teams first appear."""

BACKGROUND: Colour = (24, 26, 30)
FIELD: Colour = (30, 33, 36)
GRID: Colour = (40, 44, 48)
PANEL: Colour = (34, 37, 43)
PANEL_DARK: Colour = (28, 30, 35)
RULE: Colour = (58, 62, 70)
TEXT: Colour = (225, 228, 232)
DIM: Colour = (140, 145, 150)
FAINT: Colour = (95, 100, 108)
HIGHLIGHT: Colour = (255, 255, 255)
EXPLAIN: Colour = (250, 230, 170)
DEAD: Colour = (95, 95, 100)
LANDED: Colour = (255, 230, 120)
MISSED: Colour = (90, 90, 100)
BLEEDING: Colour = (210, 20, 30)
DOWN: Colour = (235, 80, 70)

SHOCK_RING: dict[str, Colour] = {"stunned": (250, 220, 80), "incapacitated": (250, 140, 40),
                                 "unconscious": (170, 90, 230), "dying": (170, 90, 230)}
"""Ring colour by the readout's shock word."""

WHOLE: Colour = (88, 168, 96)
MINOR: Colour = (214, 200, 72)
SERIOUS: Colour = (232, 138, 48)
GRIEVOUS: Colour = (200, 92, 40)
UNUSABLE: Colour = (200, 48, 48)
SEVERED: Colour = (70, 22, 92)
IMPAIRMENT_LEGEND: tuple[tuple[str, Colour], ...] = (("whole", WHOLE), ("-5", MINOR), ("-10", SERIOUS),
                                                     ("worse", GRIEVOUS), ("unusable", UNUSABLE),
                                                     ("severed", SEVERED))
"""The part outlines' colours and what each means."""

UNHURT: Colour = (62, 72, 66)
LEVEL_FILL: tuple[Colour, ...] = (UNHURT, (205, 192, 80), (228, 150, 60), (214, 104, 44), (196, 46, 46),
                                  (128, 18, 34))
"""A location's fill by its worst wound's rank (0: unhurt ... 5: G5)."""
LEVEL_LEGEND: tuple[tuple[str, Colour], ...] = (("unhurt", LEVEL_FILL[0]), ("M1", LEVEL_FILL[1]),
                                                ("S2", LEVEL_FILL[2]), ("S3", LEVEL_FILL[3]),
                                                ("G4", LEVEL_FILL[4]), ("G5", LEVEL_FILL[5]))
"""The location fills and what each means."""


def part_colour(imp: Impairment, severed: bool) -> Colour:
    """The colour of a part's outline by its impairment (or severed)."""
    if severed:
        return SEVERED
    if imp.unusable:
        return UNUSABLE
    if imp.penalty >= 0:
        return WHOLE
    if imp.penalty >= -5:
        return MINOR
    if imp.penalty >= -10:
        return SERIOUS
    return GRIEVOUS


def wound_rank(level: str) -> int:
    """How bad a wound reads, 1 (minor) to 5 (G5), from the readout's level words.

    An anatomy code (``S3``: 3), a depth tier (``bone``: 3); any other word of a model's (``weaken 2``) counts as 1.
    """
    word = level.split(" ", 1)[0]
    if word in LEVEL_CODES:
        return max(LEVEL_CODES.index(word), 1)
    if word in TIERS:
        return max(TIERS.index(word), 1)
    return 1


def fade(colour: Colour, alpha: float, onto: Colour = BACKGROUND) -> Colour:
    """``colour`` blended onto ``onto`` by ``alpha`` (1: the colour itself)."""
    a = min(max(alpha, 0.0), 1.0)
    return (int(colour[0] * a + onto[0] * (1 - a)), int(colour[1] * a + onto[1] * (1 - a)),
            int(colour[2] * a + onto[2] * (1 - a)))
