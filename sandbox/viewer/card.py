"""The location card: everything about one location of the shown creature, when it is hovered or clicked.

Where it is (part, zone, its Shock Value, bleeding and amputation ratings), its wounds (level, aspect, bleeding,
Healing Rate, infection, treated), its protection per aspect layer by layer (natural, then every worn piece that
covers it), and, with an attacker chosen, the exact odds of that attacker's current strike mode there.
"""

from __future__ import annotations

import pygame

from sandbox.components.body import ASPECTS, BodyStructure
from sandbox.components.gear import ArmorPiece
from sandbox.components.readout import Readout
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.odds import LocationOdds, PreviewOdds
from sandbox.viewer.theme import DIM, EXPLAIN, PANEL_DARK, RULE, TEXT, Colour
from sandbox.viewer.wounds import wound_text

__all__ = ["Line", "card_lines", "draw_card", "protection_rows"]

Line = tuple[str, str, Colour]
"""A line of the card: text, style, colour."""


def protection_rows(body: BodyStructure, location: int, armor: tuple[ArmorPiece, ...]) -> list[tuple[str, ...]]:
    """The protection table.

    A row per layer (natural first, then each worn piece covering the location) and the total, each with a value per
    aspect.
    """
    loc = body.locations[location]
    rows = [("natural", *(str(v) for v in loc.protection))]
    total = list(loc.protection)
    key = loc.name.casefold()
    for piece in armor:
        if key in piece.covers:
            rows.append((piece.name + (" (rigid)" if piece.rigid else ""), *(str(v) for v in piece.protection)))
            total = [t + v for t, v in zip(total, piece.protection, strict=True)]
    rows.append(("total", *(str(v) for v in total)))
    return rows


def _numbers(first: int, last: int) -> str:
    """A zone's numbers as a reader says them."""
    if first > last:
        return "no zone numbers"
    return f"zone number {first}" if first == last else f"zone numbers {first}-{last}"


def card_lines(body: BodyStructure, location: int, readout: Readout, armor: tuple[ArmorPiece, ...],
               odds: LocationOdds | PreviewOdds | str | None, attacker: str | None) -> list[Line]:
    """The card's lines, top to bottom, but the protection table (``protection_rows``)."""
    loc = body.locations[location]
    part = body.parts[loc.part]
    zone = body.zones[part.zone]
    lines: list[Line] = [
        (f"{loc.name}  ({part.name}; zone {zone.name}, {_numbers(zone.first, zone.last)})", "heading", TEXT),
        (", ".join([f"Shock Value {loc.shock_value}", f"bleeding {loc.bleeding}", f"amputation {loc.amputability}",
                    *(flag for flag, on in (("a wound here can make it fumble", loc.fumble),
                                            ("a wound here can make it stumble", loc.stumble)) if on)]),
         "small", DIM),
    ]
    here = [w for w in readout.wounds if w.location == loc.name]
    if loc.name in readout.severed:
        lines.append(("SEVERED", "heading", (200, 160, 235)))
    if here:
        lines += [(f"Wound: {wound_text(w, untreated=True)}", "text", EXPLAIN) for w in here]
    elif loc.name not in readout.severed:
        lines.append(("No wound here", "text", DIM))
    if odds is None:
        lines.append((f"Working out {attacker}'s odds ..." if attacker else
                      "Right-click a creature (or press A) to choose an attacker: its exact odds here", "small", DIM))
    elif isinstance(odds, str):
        lines.append((f"No exact odds: {odds}", "small", DIM))
    else:
        lines.append((odds.heading, "heading", TEXT))
        lines += [(text, "small", EXPLAIN) for text in odds.lines(loc.name)]
    return lines


def draw_card(surface: pygame.Surface, rect: pygame.Rect, lines: list[Line], table: list[tuple[str, ...]],
              type_: Typeset) -> None:
    """Draw the card in ``rect``: the protection table after the location's lines, the odds below it."""
    surface.fill(PANEL_DARK, rect)
    x, y, width = rect.x + 10, rect.y + 6, rect.width - 20
    split = next((i for i, (_, style, _) in enumerate(lines) if i > 1 and style == "heading"), len(lines))
    head, rest = lines[:split], lines[split:]
    y = _lines(surface, head, x, y, width, rect.bottom, type_)
    y += 2
    surface.blit(type_.render("Protection per aspect, layer by layer", "heading", TEXT), (x, y))
    y += type_.line_height["heading"]
    columns = [x, x + max(150, width - 4 * 70)] + [x + max(150, width - 4 * 70) + 70 * k for k in range(1, 4)]
    for r, row in enumerate([("layer", *ASPECTS), *table]):
        if y + type_.line_height["small"] > rect.bottom:
            break
        colour = DIM if r == 0 else (TEXT if row[0] == "total" else EXPLAIN)
        for c, cell in enumerate(row):
            surface.blit(type_.render(type_.clip(cell, "small", 145) if c == 0 else cell, "small", colour),
                         (columns[c], y))
        y += type_.line_height["small"]
        if row[0] != "total" and r == len(table) - 1:
            pygame.draw.line(surface, RULE, (x, y), (x + width, y))
    _lines(surface, rest, x, y + 4, width, rect.bottom, type_)


def _lines(surface: pygame.Surface, lines: list[Line], x: int, y: int, width: int, bottom: int,
           type_: Typeset) -> int:
    for text, style, colour in lines:
        for piece in type_.wrap(text, style, width):
            if y + type_.line_height[style] > bottom:
                return y
            surface.blit(type_.render(piece, style, colour), (x, y))
            y += type_.line_height[style]
    return y
