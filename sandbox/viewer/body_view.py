"""Drawing the body panel.

Who the creature is and how it stands (always in view), its body at location level, and its wounds grouped by part
(scrolled with the wheel, with what is off screen counted).

Every location of the body is drawn inside its part (``sandbox.bodymap.figure_layout``), filled by the worst
wound there; the part's outline shows its impairment; a severed location is crossed out on the severed colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from sandbox.bodymap import figure_layout
from sandbox.components.body import BodyStructure
from sandbox.components.impairment import Impairment
from sandbox.components.readout import PartReading, Readout
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.scene import Figure
from sandbox.viewer.theme import (
    BLEEDING,
    DIM,
    EXPLAIN,
    FAINT,
    HIGHLIGHT,
    IMPAIRMENT_LEGEND,
    LEVEL_FILL,
    LEVEL_LEGEND,
    PANEL,
    RULE,
    SEVERED,
    TEXT,
    Colour,
    part_colour,
    wound_rank,
)
from sandbox.viewer.wounds import Window, WoundRow, part_state, window, wound_rows

__all__ = [
    "LEGEND_ROWS",
    "ROOMY_PANEL",
    "WRAPPED_LINES",
    "BodyDrawn",
    "draw_body",
    "draw_header",
    "location_fills",
    "wrapped",
]

LEGEND_ROWS = 2
ROOMY_PANEL = 420
"""A body panel at least this tall gives conditions and the model's details two lines each (else one each)."""


@dataclass(frozen=True, slots=True)
class BodyDrawn:
    """What a drawn body panel leaves for hit tests and checks.

    Attributes:
        parts: Part index -> its box on screen.
        locations: Location index -> its box on screen.
        figure: The drawing's area.
        wounds: The wound list's area.
        window: The wound rows shown and the counts of those off screen.
        rows: Every wound row (shown or not).
    """

    parts: dict[int, pygame.Rect]
    locations: dict[int, pygame.Rect]
    figure: pygame.Rect
    wounds: pygame.Rect
    window: Window
    rows: tuple[WoundRow, ...]

    def moved(self, offset: tuple[int, int]) -> BodyDrawn:
        """The same, drawn ``offset`` pixels further right and down (a panel drawn apart, then blitted)."""
        dx, dy = offset
        return BodyDrawn({k: r.move(dx, dy) for k, r in self.parts.items()},
                         {k: r.move(dx, dy) for k, r in self.locations.items()}, self.figure.move(dx, dy),
                         self.wounds.move(dx, dy), self.window, self.rows)


def _short(name: str) -> str:
    return name.replace("Right ", "R ").replace("Left ", "L ")


def _initials(name: str) -> str:
    return "".join(word[0] for word in name.split())


def location_fills(body: BodyStructure, readout: Readout) -> dict[int, int]:
    """Location index -> the rank of its worst wound (locations with none left out)."""
    worst: dict[int, int] = {}
    for w in readout.wounds:
        if not w.location:
            continue
        try:
            li = body.location_index(w.location)
        except KeyError:
            continue
        worst[li] = max(worst.get(li, 0), wound_rank(w.level))
    return worst


def _ink(fill: Colour) -> Colour:
    """Text colour that reads on ``fill``."""
    return (20, 20, 20) if 0.3 * fill[0] + 0.59 * fill[1] + 0.11 * fill[2] > 120 else (235, 235, 235)


def draw_header(surface: pygame.Surface, rect: pygame.Rect, figure: Figure, readout: Readout,
                type_: Typeset, model: str) -> int:
    """Who it is and how it stands: returns the y below what was drawn."""
    x, y, width = rect.x + 10, rect.y + 6, rect.width - 20
    title = type_.clip(f"{figure.name}  ({figure.kind or 'unknown kind'}"
                       + (f", team {figure.team})" if figure.team else ")"), "title", width)
    surface.blit(type_.render(title, "title", TEXT), (x, y))
    y += type_.line_height["title"] + 1
    health = f"{readout.health}{readout.health_unit}" + (f" ({readout.band})" if readout.band else "")
    state = f"{readout.label}   health {health}"
    if readout.shock not in readout.label:
        state += f"   shock: {readout.shock}"
    if readout.alive and not readout.can_act:
        state += "   out of the fight"
    surface.blit(type_.render(type_.clip(state, "text", width), "text", EXPLAIN), (x, y))
    y += type_.line_height["text"] + 1
    held = ", ".join(figure.holding) or "nothing"
    worn = ", ".join(p.name for p in figure.armor) or "nothing"
    surface.blit(type_.render(type_.clip(f"Holds: {held}   worn: {worn}", "small", width), "small", DIM), (x, y))
    y += type_.line_height["small"]
    each = 2 if rect.height >= ROOMY_PANEL else 1  # a short panel (models side by side) keeps its drawing's room
    lines = _at_most(type_.wrap("Conditions: " + (", ".join(readout.conditions) or "none"), "small", width), each,
                     type_, width)
    said = state.lower()
    details = [f"{k} {v}" for k, v in readout.details if str(v).lower() not in said]  # what the line above lacks
    if details:
        lines += _at_most(type_.wrap(f"{model}: " + "; ".join(details), "small", width), each, type_, width)
    for line in lines:
        surface.blit(type_.render(line, "small", DIM), (x, y))
        y += type_.line_height["small"]
    return y + 4


def _at_most(lines: list[str], most: int, type_: Typeset, width: int) -> list[str]:
    """Wrapped ``lines`` in at most ``most`` lines, the last one clipped with an ellipsis if more would follow."""
    if len(lines) <= most:
        return lines
    return [*lines[:most - 1], type_.clip(" ".join(lines[most - 1:]), "small", width)]


def draw_body(surface: pygame.Surface, rect: pygame.Rect, figure: Figure, readout: Readout, type_: Typeset,
              *, model: str, hovered: int | None, pinned: int | None, scroll: int) -> BodyDrawn:
    """The whole body panel in ``rect``: header, drawing, legend and wound list."""
    surface.fill(PANEL, rect)
    top = draw_header(surface, rect, figure, readout, type_, model)
    pygame.draw.line(surface, RULE, (rect.x + 8, top - 2), (rect.right - 8, top - 2))
    legend_h = LEGEND_ROWS * (type_.line_height["tiny"] + 3) + 4
    fig_w = max(150, min(int(rect.width * 0.55), 360))
    figure_rect = pygame.Rect(rect.x + 8, top + 4, fig_w, max(40, rect.bottom - top - legend_h - 10))
    wounds_rect = pygame.Rect(figure_rect.right + 10, top + 2, rect.right - figure_rect.right - 16,
                              figure_rect.bottom - top - 2)
    body = figure.body
    parts: dict[int, pygame.Rect] = {}
    locations: dict[int, pygame.Rect] = {}
    if body is None:
        surface.blit(type_.render("body unknown (a replay with no scenario)", "small", DIM), figure_rect.topleft)
    elif not body.parts:
        surface.blit(type_.render("no body: incorporeal", "small", DIM), figure_rect.topleft)
    else:
        parts, locations = _figure(surface, figure_rect, body, readout, type_, hovered, pinned)
    _legend(surface, pygame.Rect(figure_rect.x, figure_rect.bottom + 6, rect.right - figure_rect.x - 8, legend_h),
            type_)
    rows = tuple(wound_rows(readout, body))
    shown = _wound_list(surface, wounds_rect, rows, scroll, type_)
    return BodyDrawn(parts, locations, figure_rect, wounds_rect, shown, rows)


def _figure(surface: pygame.Surface, area: pygame.Rect, body: BodyStructure, readout: Readout, type_: Typeset,
            hovered: int | None, pinned: int | None) -> tuple[dict[int, pygame.Rect], dict[int, pygame.Rect]]:
    unit_parts, unit_locations = figure_layout(body, aspect=area.width / max(area.height, 1),
                                               caption=(type_.line_height["tiny"] + 5) / max(area.height, 1))

    def box(r: tuple[float, float, float, float]) -> pygame.Rect:
        return pygame.Rect(round(area.x + r[0] * area.width), round(area.y + r[1] * area.height),
                           max(4, round(r[2] * area.width)), max(4, round(r[3] * area.height)))

    parts = {pi: box(r) for pi, r in unit_parts.items()}
    locations = {li: box(r) for li, r in unit_locations.items()}
    readings: dict[str, PartReading] = {p.name: p for p in readout.parts}
    fills = location_fills(body, readout)
    severed = set(readout.severed)
    bleeding = {w.location for w in readout.wounds if w.bleeding}
    for pi, prect in parts.items():
        part = body.parts[pi]
        reading = readings.get(part.name)
        imp = Impairment(reading.penalty, reading.unusable) if reading else Impairment()
        cut = bool(reading and reading.severed)
        outline = part_colour(imp, cut)
        pygame.draw.rect(surface, (40, 43, 50), prect, border_radius=5)
        pygame.draw.rect(surface, outline, prect, 3, border_radius=5)
        state = part_state(reading)
        caption = type_.fit([f"{part.name} {state}".strip(), f"{_short(part.name)} {state}".strip(),
                             _short(part.name), _initials(part.name)], "tiny", prect.width - 8)
        if caption:
            surface.blit(type_.render(caption, "tiny", outline), (prect.x + 5, prect.y + 3))
    names = _location_names(body, locations, type_)
    for li, lrect in locations.items():
        loc = body.locations[li]
        fill = SEVERED if loc.name in severed else LEVEL_FILL[min(fills.get(li, 0), 5)]
        pygame.draw.rect(surface, fill, lrect, border_radius=3)
        if loc.name in severed:
            pygame.draw.line(surface, (200, 170, 220), lrect.topleft, lrect.bottomright, 2)
            pygame.draw.line(surface, (200, 170, 220), lrect.bottomleft, lrect.topright, 2)
        if loc.name in bleeding:
            pygame.draw.circle(surface, BLEEDING, (lrect.right - 5, lrect.y + 5), 3)
        if li in (hovered, pinned):
            pygame.draw.rect(surface, HIGHLIGHT, lrect.inflate(2, 2), 2, border_radius=3)
        label = names.get(li)
        if label and lrect.height >= type_.line_height["tiny"] - 4:  # a name's ascenders may touch a tight box
            text = type_.render(label, "tiny", _ink(fill))
            top = max(0, (text.get_height() - lrect.height + 1) // 2)
            surface.blit(text, (lrect.x + 3, lrect.centery - text.get_height() // 2 + top),
                         pygame.Rect(0, top, lrect.width - 4, lrect.height))
    return parts, locations


def _location_names(body: BodyStructure, boxes: dict[int, pygame.Rect], type_: Typeset) -> dict[int, str]:
    """Each location's name as its box fits it.

    In full, with R/L for Right/Left, without the side (the box stands on its side of the drawing: the creature's right
    on the drawing's left), or initials; the boxes of one row of a part take the same form, so a pair reads alike.
    """
    def forms(name: str) -> list[str]:
        return [name, _short(name), name.replace("Right ", "").replace("Left ", ""), _initials(name)]

    def fits(li: int) -> int:
        width = boxes[li].width - 6
        return next((k for k, text in enumerate(forms(body.locations[li].name)) if type_.width(text, "tiny") <= width),
                    4)

    need: dict[int, int] = {li: fits(li) for li in boxes}
    rows: dict[tuple[int, int], int] = {}
    for li, box in boxes.items():
        key = (body.locations[li].part, box.y)
        rows[key] = max(rows.get(key, 0), need[li])
    out: dict[int, str] = {}
    for li, box in boxes.items():
        k = rows[(body.locations[li].part, box.y)]
        if k < 4:
            out[li] = forms(body.locations[li].name)[k]
        elif need[li] < 4:
            out[li] = forms(body.locations[li].name)[need[li]]
    return out


def _legend(surface: pygame.Surface, rect: pygame.Rect, type_: Typeset) -> None:
    """What the fills and the outlines mean: a row each, or both in one row when the panel is wide enough."""
    y = rect.y
    one_row = rect.width >= 560
    x = rect.x
    for title, items, framed in (("wound", LEVEL_LEGEND, False), ("part", IMPAIRMENT_LEGEND, True)):
        if not one_row or title == "wound":
            x = rect.x
        else:
            x += 16
        surface.blit(type_.render(title, "tiny", FAINT), (x, y))
        x += 34
        for text, colour in items:
            swatch = pygame.Rect(x, y + 2, 10, 10)
            if framed:
                pygame.draw.rect(surface, colour, swatch, 2)
            else:
                pygame.draw.rect(surface, colour, swatch)
            label = type_.render(text, "tiny", DIM)
            surface.blit(label, (x + 13, y))
            x += 13 + label.get_width() + 8
        if not one_row:
            y += type_.line_height["tiny"] + 3


WRAPPED_LINES = 3
"""The most lines one wound's row takes in a narrow list (the last clipped with an ellipsis)."""


def wrapped(rows: tuple[WoundRow, ...], type_: Typeset, width: int) -> tuple[WoundRow, ...]:
    """The wound rows with a wound wider than ``width`` pixels wrapped onto rows of its own.

    Each wound takes at most ``WRAPPED_LINES`` rows, those after its first marked ``continued``: a point model's long
    words read whole in a narrow pane.
    """
    out: list[WoundRow] = []
    for row in rows:
        if row.heading or type_.width(row.text, "small") <= width:
            out.append(row)
            continue
        lines = _at_most(type_.wrap(row.text, "small", width), WRAPPED_LINES, type_, width)
        out.append(replace(row, text=lines[0]))
        out += [replace(row, text=line, bleeding=False, continued=True) for line in lines[1:]]
    return tuple(out)


def _wound_list(surface: pygame.Surface, rect: pygame.Rect, rows: tuple[WoundRow, ...], scroll: int,
                type_: Typeset) -> Window:
    x, y = rect.x, rect.y
    wounds = sum(1 for r in rows if r.counted)
    rows = wrapped(rows, type_, rect.width - 14)
    surface.blit(type_.render(f"Wounds by part ({wounds})", "heading", TEXT), (x, y))
    y += type_.line_height["heading"] + 2
    row_h = type_.line_height["small"]
    room = max(1, (rect.bottom - y) // row_h)
    shown = window(rows, scroll, room)
    if not rows:
        surface.blit(type_.render("none", "small", DIM), (x, y))
        return shown
    if shown.above or shown.below:  # a row kept for the count above, so scrolling never shifts the list
        if shown.above:
            surface.blit(type_.render(f"▲ {shown.above} more above", "small", FAINT), (x, y))
        y += row_h
    for row in shown.rows:
        if row.heading:
            colour = SEVERED if row.severed else TEXT
            text = type_.render(type_.clip(row.text, "heading", rect.width), "heading",
                                (190, 150, 230) if colour == SEVERED else TEXT)
            surface.blit(text, (x, y))
        else:
            colour = (200, 160, 235) if row.severed else (LEVEL_FILL[min(row.rank, 5)] if row.rank >= 2 else TEXT)
            if row.bleeding:
                pygame.draw.circle(surface, BLEEDING, (x + 6, y + row_h // 2), 3)
            surface.blit(type_.render(type_.clip(row.text, "small", rect.width - 14), "small", colour), (x + 14, y))
        y += row_h
    if shown.below:
        surface.blit(type_.render(f"▼ {shown.below} more below (wheel to scroll)", "small", FAINT), (x, y))
    return shown
