"""Body drawings from body data: a rectangle per part and per location, for any anatomy, with no per-creature
drawing code.

Shared by the viewer's body panel and the lab's hit-location heat map (the lab draws no window, so this lives
outside ``sandbox/viewer/``).

Each part goes in a grid cell: its ``layout`` hint ``(row, column)`` when the body file gives one; otherwise its
zone's row (in definition order, after any hinted rows), parts ordered right side first (as a figure facing the
viewer), then central, then left, and centred in the row. Inside its part's box each location gets its cell the
same way: its own ``layout`` hint, or a place in a single file of the part's locations along the box's longer side
(top to bottom in a tall box, left to right in a wide one), in the body file's order.
"""

from __future__ import annotations

from components.anatomy import BodyStructure

Rect = tuple[float, float, float, float]


def body_layout(body: BodyStructure, gap: float = 0.06) -> dict[int, Rect]:
    """Part index -> (x, y, width, height) in the unit square."""
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
    if not cells:
        return {}
    n_rows = max(r for r, _ in cells.values()) + 1
    n_cols = max(max(c for _, c in cells.values()) + 1, float(widest))
    w, h = 1.0 / n_cols, 1.0 / n_rows
    return {pi: (c * w + gap * w / 2, r * h + gap * h / 2, w * (1 - gap), h * (1 - gap))
            for pi, (r, c) in cells.items()}


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
