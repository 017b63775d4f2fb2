"""The lab's colours.

Each team in its own colour, the viewer's palette (kept here too: the lab may not import the viewer, which the layering
contracts keep apart), and a label colour readable on any fill.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NO_WINNER", "TEAM_COLOURS", "label_colour", "rgb", "team_colour"]

TEAM_COLOURS: tuple[tuple[int, int, int], ...] = (
    (220, 72, 60), (70, 130, 235), (90, 190, 90), (235, 180, 60), (185, 95, 225), (60, 200, 200),
    (235, 120, 180), (170, 170, 170))
"""Team colours by order of first appearance (the viewer's ``TEAM_COLOURS``: Red's team is red, Blue's blue)."""
NO_WINNER = (110, 110, 115)
"""The colour of runs no team won."""


def rgb(colour: Sequence[int]) -> tuple[float, float, float]:
    """0-255 RGB as matplotlib's 0-1."""
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


def team_colour(index: int) -> tuple[float, float, float]:
    """The colour of the team that appears ``index``-th (0-based), as matplotlib's RGB."""
    return rgb(TEAM_COLOURS[index % len(TEAM_COLOURS)])


def label_colour(fill: Sequence[float]) -> str:
    """Black or white, whichever reads better on ``fill`` (0-1 RGB): by the fill's relative luminance (WCAG)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in fill[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    # Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): equal at L = 0.179.
    return "black" if luminance > 0.179 else "white"
