"""Body drawings from body data.

A rectangle per part and per location, for any anatomy, with no per-creature drawing code.

Shared by the viewer's body panel and the lab's hit-location heat map (the lab draws no window, so this lives
outside ``sandbox/viewer/``).

Each part goes in a grid cell: its ``layout`` hint ``(row, column)`` when the body file gives one; otherwise its
zone's row (in definition order, after any hinted rows), parts ordered right side first (as a figure facing the
viewer), then central, then left, and centred in the row. Inside its part's box each location gets its cell the
same way: its own ``layout`` hint, or a place in a single file of the part's locations along the box's longer side
(top to bottom in a tall box, left to right in a wide one), in the body file's order.
"""

from __future__ import annotations

from sandbox.components.body import BodyStructure

__all__ = ["Rect", "body_layout", "figure_layout", "location_layout"]

Rect = tuple[float, float, float, float]


def body_layout(body: BodyStructure, gap: float = 0.06) -> dict[int, Rect]:
    """Part index -> (x, y, width, height) in the unit square."""
    cells, widest = _part_cells(body)
    if not cells:
        return {}
    n_rows = max(r for r, _ in cells.values()) + 1
    n_cols = max(max(c for _, c in cells.values()) + 1, float(widest))
    w, h = 1.0 / n_cols, 1.0 / n_rows
    return {pi: (c * w + gap * w / 2, r * h + gap * h / 2, w * (1 - gap), h * (1 - gap))
            for pi, (r, c) in cells.items()}


def _part_cells(body: BodyStructure) -> tuple[dict[int, tuple[float, float]], int]:
    """Part index -> its (row, column) cell (see the module docstring), and the widest unhinted row's count."""
    cells: dict[int, tuple[float, float]] = {}
    hinted_rows = [p.layout[0] for p in body.parts if p.layout is not None]
    first_free = (max(hinted_rows) + 1) if hinted_rows else 0
    side_order = {"right": 0, "center": 1, "left": 2}
    rows: dict[float, list[int]] = {}
    zone_rows: dict[int, float] = {}
    for pi, part in enumerate(body.parts):
        if part.layout is not None:
            cells[pi] = part.layout
        else:
            row = zone_rows.setdefault(part.zone, first_free + len(zone_rows))
            rows.setdefault(row, []).append(pi)
    widest = max([len(v) for v in rows.values()] + [int(max((c for _, c in cells.values()), default=-1)) + 1, 1])
    for row, parts in rows.items():
        parts.sort(key=lambda p: (side_order.get(body.parts[p].side, 1), p))
        offset = (widest - len(parts)) / 2
        for k, pi in enumerate(parts):
            cells[pi] = (row, offset + k)
    return cells, widest


def location_layout(body: BodyStructure, gap: float = 0.08) -> dict[int, Rect]:
    """Location index -> (x, y, width, height) in the unit square, inside its part's box of ``body_layout``."""
    parts = body_layout(body)
    out: dict[int, Rect] = {}
    for pi, (px, py, pw, ph) in parts.items():
        locations = body.parts[pi].locations
        if not locations:
            continue
        cells: dict[int, tuple[float, float]] = {}
        for li in locations:
            hint = body.locations[li].layout
            if hint is not None:
                cells[li] = hint
        free = [li for li in locations if li not in cells]
        tall = ph >= pw
        start = (max((r if tall else c) for r, c in cells.values()) + 1) if cells else 0
        for k, li in enumerate(free):
            cells[li] = (start + k, 0.0) if tall else (0.0, start + k)
        n_rows = max(r for r, _ in cells.values()) + 1
        n_cols = max(c for _, c in cells.values()) + 1
        w, h = pw / n_cols, ph / n_rows
        for li, (r, c) in cells.items():
            out[li] = (px + c * w + gap * w / 2, py + r * h + gap * h / 2, w * (1 - gap), h * (1 - gap))
    return out


def figure_layout(body: BodyStructure, aspect: float = 1.0, caption: float = 0.0,
                  gap: float = 0.04) -> tuple[dict[int, Rect], dict[int, Rect]]:
    """Part and location boxes for a drawing that names every location.

    ``(parts, locations)``, each index -> (x, y, width, height) in the unit square.

    The parts keep ``body_layout``'s cells (its hints, its zone rows, right side first), but a row of parts is as
    tall as the most location rows one of its parts needs, so a head of eleven locations gets the room to name
    them and every location row of the drawing is the same height. The top ``caption`` of each part (a share of
    the drawing's height) is left free for the part's name. A location with a ``layout`` hint takes that cell;
    the rest follow in the body file's order, a pair "Right X" / "Left X" side by side in one row (the right
    first, as a figure facing the viewer) and any other location in a row of its own. In a part box more than
    twice as wide as it is tall on the drawing (``aspect``: the drawing's width over its height) the unhinted
    locations stand side by side in one row instead.
    """
    cells, widest = _part_cells(body)
    if not cells:
        return {}, {}
    n_cols = max(max(c for _, c in cells.values()) + 1, float(widest))
    unit_w = 1.0 / n_cols
    row_of = {pi: r for pi, (r, _) in cells.items()}
    rows = sorted(set(row_of.values()))
    caption = min(max(caption, 0.0), 0.5 / len(rows))
    # a first guess of each part's height (equal rows) tells which boxes are wide on the drawing
    wide = {pi: unit_w * aspect > 2.0 / len(rows) for pi in cells}
    grids = {pi: _location_grid(body, pi, wide[pi]) for pi in cells}
    need = {r: max(max(grids[pi][1], 1) for pi in cells if row_of[pi] == r) for r in rows}
    unit = (1.0 - caption * len(rows)) / sum(need.values())  # one location row's height
    top: dict[float, float] = {}
    y = 0.0
    for r in rows:
        top[r] = y
        y += caption + need[r] * unit
    parts: dict[int, Rect] = {}
    locations: dict[int, Rect] = {}
    for pi, (r, c) in cells.items():
        height = caption + need[r] * unit
        px, py, pw, ph = c * unit_w + gap * unit_w / 2, top[r] + gap * unit / 2, unit_w * (1 - gap), \
            height - gap * unit
        parts[pi] = (px, py, pw, ph)
        placed, n_rows, n_cols_here = grids[pi]
        if not placed:
            continue
        row_h = (ph - caption) / max(n_rows, 1)  # the part's own rows share what its name leaves
        col_w = pw / n_cols_here
        inner = 0.08
        for li, (lr, lc, span) in placed.items():
            locations[li] = (px + lc * col_w + inner * col_w / 2, py + caption + lr * row_h + inner * row_h / 2,
                             span * col_w - inner * col_w, row_h * (1 - inner))
    return parts, locations


def _side_pair(name: str) -> tuple[str, str] | None:
    """``("right", "Eye")`` for "Right Eye", ``("left", ...)`` for "Left ..."; ``None`` for a central name."""
    for side in ("Right", "Left"):
        if name.startswith(side + " ") and len(name) > len(side) + 1:
            return side.lower(), name[len(side) + 1:]
    return None


def _location_grid(body: BodyStructure, pi: int, wide: bool) -> tuple[dict[int, tuple[float, float, float]], int,
                                                                             float]:
    """A part's locations in cells.

    Location -> (row, column, columns spanned), rows, columns (see ``figure_layout``).
    """
    locations = body.parts[pi].locations
    placed: dict[int, tuple[float, float, float]] = {}
    for li in locations:
        hint = body.locations[li].layout
        if hint is not None:
            placed[li] = (hint[0], hint[1], 1.0)
    free = [li for li in locations if li not in placed]
    n_cols = max([c + 1 for _, c, _ in placed.values()] + [1.0])
    start = max([r + 1 for r, _, _ in placed.values()] + [0.0])
    if wide:
        for k, li in enumerate(free):
            placed[li] = (start, float(k), 1.0)
        n_cols = max(n_cols, float(len(free)))
        n_rows = start + (1 if free else 0)
        return placed, int(n_rows), n_cols
    names = {body.locations[li].name: li for li in free}
    lines: list[list[int]] = []
    done: set[int] = set()
    for li in free:
        if li in done:
            continue
        pair = _side_pair(body.locations[li].name)
        other = names.get(("Left " if pair[0] == "right" else "Right ") + pair[1]) if pair else None
        if other is not None and other not in done and other != li:
            right, left = (li, other) if pair and pair[0] == "right" else (other, li)
            lines.append([right, left])
            done.update((li, other))
        else:
            lines.append([li])
            done.add(li)
    if any(len(line) == 2 for line in lines):
        n_cols = max(n_cols, 2.0)
    for k, line in enumerate(lines):
        if len(line) == 2:
            placed[line[0]] = (start + k, 0.0, n_cols / 2)
            placed[line[1]] = (start + k, n_cols / 2, n_cols / 2)
        else:
            placed[line[0]] = (start + k, 0.0, n_cols)
    return placed, int(start + len(lines)), n_cols
